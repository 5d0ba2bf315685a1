"""freedeal.services: registration bounds, start, entry refusals, corrections, close, finish."""

from __future__ import annotations

import pytest

from clubs.errors import DomainError
from clubs.models import Player
from freedeal import services
from freedeal.models import FreeDealChange, FreeDealResult, FreeDealTournament
from tests.freedeal.conftest import TODAY, make_tournament
from tournaments.movements.free_deal import seat_parties

pytestmark = pytest.mark.django_db

GARDE = {"contract": "garde", "oudlers": 2, "points": 50}


def table_of_size(tournament: FreeDealTournament, size: int):
    return tournament.tables.filter(size=size).order_by("number").first()


def test_create_refuses_bad_settings(club) -> None:
    with pytest.raises(DomainError) as error:
        services.create_tournament(club=club, name="X", date=TODAY, parties=31)
    assert error.value.field == "parties"
    with pytest.raises(DomainError) as error:
        services.create_tournament(club=club, name="X", date=TODAY, deals_per_party=0)
    assert error.value.field == "deals_per_party"
    with pytest.raises(DomainError) as error:
        services.create_tournament(club=club, name="X", date=TODAY, ruleset={"name": "nope"})
    assert error.value.code == "unknown_ruleset"
    with pytest.raises(DomainError) as error:
        services.create_tournament(
            club=club, name="X", date=TODAY, ruleset={"name": "traditional", "pousse_multiplier": 9}
        )
    assert error.value.code == "invalid_ruleset_parameter"


def test_registration_bounds(club, players) -> None:
    tournament = make_tournament(club, players, 2, start=False)
    with pytest.raises(DomainError) as error:
        services.start(tournament)
    assert error.value.code == "too_few_players"
    assert "at least 3" in error.value.message
    with pytest.raises(DomainError) as error:
        services.register_player(tournament, players[0])
    assert error.value.code == "already_registered"
    new = services.register_new_player(tournament, first_name="Ana", last_name="Neuve")
    assert new.number == 3 and new.player.club == club
    services.unregister_player(tournament, 1)
    assert list(tournament.players.values_list("number", flat=True)) == [1, 2]


def test_registration_stops_at_400(club) -> None:
    tournament = services.create_tournament(club=club, name="X", date=TODAY)
    people = Player.objects.bulk_create(
        [Player(first_name="P", last_name=f"N{n}", club=club) for n in range(401)]
    )
    from freedeal.models import FreeDealPlayer

    FreeDealPlayer.objects.bulk_create(
        [FreeDealPlayer(tournament=tournament, number=n + 1, player=p) for n, p in
         enumerate(people[:400])]
    )  # fmt: skip
    with pytest.raises(DomainError) as error:
        services.register_player(tournament, people[400])
    assert error.value.code == "too_many_players"


def test_start_stores_the_seeded_seating_and_tables(club, players) -> None:
    tournament = make_tournament(club, players, 9, seed=11, parties=3)
    assert tournament.status == FreeDealTournament.Status.RUNNING
    expected = seat_parties(9, 3, 11)
    assert tournament.seating == [[list(t) for t in party] for party in expected]
    assert [t.size for t in tournament.tables.order_by("number")] == [5, 4]
    with pytest.raises(DomainError) as error:
        services.register_player(tournament, players[12])
    assert error.value.code == "already_started"
    with pytest.raises(DomainError):
        services.start(tournament)


def test_entry_scores_with_the_rules_engine(club, players) -> None:
    tournament = make_tournament(club, players, 4)
    table = tournament.tables.get()
    seated = tournament.table_players(1, 1)
    result = services.enter_from_table(table, 1, {**GARDE, "taker": seated[0], "points": 46})
    # tarot-scoring.md example 1: value 60, taker +180, each defender -60
    assert result.value == 60
    assert result.marks == {str(seated[0]): 180, **{str(n): -60 for n in seated[1:]}}
    assert result.dealer == seated[0]


def test_entry_refusals(club, players) -> None:
    tournament = make_tournament(club, players, 14)
    five = table_of_size(tournament, 5)
    four = table_of_size(tournament, 4)
    seated5 = tournament.table_players(1, five.number)
    elsewhere = tournament.table_players(1, four.number)[0]
    with pytest.raises(DomainError) as error:
        services.enter_from_table(five, 1, {**GARDE, "taker": elsewhere, "partner": seated5[1]})
    assert error.value.field == "taker" and "does not sit at this table" in error.value.message
    with pytest.raises(DomainError) as error:
        services.enter_from_table(five, 1, {**GARDE, "taker": seated5[0]})
    assert error.value.code == "partner_required" and "called King" in error.value.message
    with pytest.raises(DomainError) as error:
        services.enter_from_table(
            five, 1, {**GARDE, "taker": seated5[0], "partner": seated5[1], "points": 95}
        )
    assert error.value.field == "points" and "91" in error.value.message
    with pytest.raises(DomainError) as error:  # infeasible: 3 oudlers need 12 points
        services.enter_from_table(
            four, 1, {"contract": "garde", "oudlers": 3, "points": 5, "taker": elsewhere}
        )
    assert error.value.field == "points"
    with pytest.raises(DomainError) as error:
        services.enter_from_table(five, 9, {**GARDE, "taker": seated5[0], "partner": seated5[0]})
    assert error.value.code == "unknown_deal"
    with pytest.raises(DomainError) as error:
        services.enter_from_table(
            four, 1, {"contract": "pousse", "oudlers": 2, "points": 50, "taker": elsewhere}
        )
    assert error.value.code == "contract_not_in_ruleset"
    assert not FreeDealResult.objects.exists()


def test_five_players_partner_and_alone(club, players) -> None:
    tournament = make_tournament(club, players, 5)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    with_partner = services.enter_from_table(table, 1, {**GARDE, "taker": s[0], "partner": s[1]})
    # example 7: garde, 2 oudlers, 50 points, partner called: value 68
    assert with_partner.marks[str(s[0])] == 136 and with_partner.marks[str(s[1])] == 68
    alone = services.enter_from_table(
        table, 2, {"contract": "garde", "oudlers": 1, "points": 45, "taker": s[2], "partner": s[2]}
    )
    assert alone.partner is None and alone.marks[str(s[2])] == -248  # example 8


def test_flambeuse_refuses_a_partner(club, players) -> None:
    ruleset = {"name": "traditional", "pousse_multiplier": 2, "flambeuse": True}
    tournament = make_tournament(club, players, 5, ruleset=ruleset)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    with pytest.raises(DomainError) as error:
        services.enter_from_table(table, 1, {**GARDE, "taker": s[0], "partner": s[1]})
    assert error.value.code == "partner_not_allowed"
    result = services.enter_from_table(
        table, 1, {"contract": "pousse", "oudlers": 2, "points": 60, "taker": s[0]}
    )
    assert result.marks[str(s[0])] == 4 * result.value


def test_everybody_passed_scores_zero(club, players) -> None:
    tournament = make_tournament(club, players, 4)
    result = services.enter_from_table(tournament.tables.get(), 1, {"contract": "passed"})
    assert result.passed and result.taker is None and set(result.marks.values()) == {0}


def test_corrections_keep_the_history(club, players, organiser) -> None:
    tournament = make_tournament(club, players, 4)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    services.enter_from_table(table, 1, {**GARDE, "taker": s[0]})
    services.enter_from_table(table, 1, {**GARDE, "taker": s[1]})
    with pytest.raises(DomainError) as error:
        services.director_correct(
            tournament, table_number=1, party=1, deal=1, data=GARDE | {"taker": s[2]},
            user=organiser, reason=" ",
        )  # fmt: skip
    assert error.value.code == "reason_required"
    result = services.director_correct(
        tournament, table_number=1, party=1, deal=1, data=GARDE | {"taker": s[2]},
        user=organiser, reason="wrong taker",
    )  # fmt: skip
    assert result.taker == s[2]
    changes = list(FreeDealChange.objects.order_by("pk"))
    assert [c.action for c in changes] == ["create", "correct", "correct"]
    assert changes[1].before["taker"] == s[0] and changes[1].after["taker"] == s[1]
    assert changes[2].reason == "wrong taker" and changes[2].actor == organiser
    assert changes[2].before["marks"][str(s[1])] == 3 * 68


def test_close_party_and_finish(club, players, organiser) -> None:
    tournament = make_tournament(club, players, 4, parties=2, deals_per_party=1)
    table = tournament.tables.get()
    with pytest.raises(DomainError) as error:
        services.close_party(tournament)
    assert error.value.code == "party_incomplete" and error.value.details
    services.enter_from_table(table, 1, {"contract": "passed"})
    assert services.close_party(tournament) == 1
    with pytest.raises(DomainError) as error:  # party 1 is closed at the table
        tournament.refresh_from_db()
        s = tournament.table_players(2, 1)
        services.enter_from_table(table, 1, {**GARDE, "taker": s[0]})
        services.close_party(tournament)
        services.enter_from_table(table, 1, {**GARDE, "taker": s[0]})
    assert error.value.code == "not_running"
    assert FreeDealResult.objects.filter(party=2).count() == 1
    # the director may still correct a closed party
    services.director_correct(
        tournament, table_number=1, party=1, deal=1, data={"contract": "passed"},
        user=organiser, reason="check",
    )  # fmt: skip
    finished = services.finish(tournament)
    assert finished.status == FreeDealTournament.Status.FINISHED


def test_finish_needs_every_party_closed(club, players) -> None:
    tournament = make_tournament(club, players, 4, parties=2)
    with pytest.raises(DomainError) as error:
        services.finish(tournament)
    assert error.value.code == "parties_open"
    services.close_party(tournament, confirm=True)
    tournament.refresh_from_db()
    assert tournament.open_party == 2

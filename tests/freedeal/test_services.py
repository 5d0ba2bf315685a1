"""freedeal.services: every write, its success and each refusal with its code; nothing stored
changes when one is refused."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.errors import DomainError
from clubs.models import Player
from freedeal import services
from freedeal.errors import PartyNotOpen, ResultConflict, ResultReplay
from freedeal.models import (
    FreeDealChange,
    FreeDealPlayer,
    FreeDealResult,
    FreeDealTable,
    FreeDealTournament,
)
from freedeal.seating import seat_parties
from tests.factories import (
    FreeDealTournamentFactory,
    OrganiserFactory,
    PlayerFactory,
    RunningFreeDealFactory,
)
from tests.freedeal.conftest import TODAY, make_tournament

pytestmark = pytest.mark.django_db

GARDE = {"contract": "garde", "oudlers": 2, "points": 50}
POIGNEES = [{"side": "attack", "size": "simple"}, {"side": "defence", "size": "simple"}]


def refused(call: Any, **kwargs: Any) -> DomainError:
    with pytest.raises(DomainError) as caught:
        call(**kwargs)
    return caught.value


def stored_state() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every result and history line, as compared before and after a refused write."""
    results = list(
        FreeDealResult.objects.order_by("pk").values_list(
            "pk", "party", "deal", "contract", "taker", "partner", "outcome", "marks", "updated_at"
        )
    )
    history = list(FreeDealChange.objects.order_by("pk").values_list("pk", "action", "after"))
    return results, history


def table_of_size(tournament: FreeDealTournament, size: int) -> FreeDealTable:
    table = tournament.tables.filter(size=size).order_by("number").first()
    assert table is not None
    return table


# --------------------------------------------------------------------------- creation
def test_create_stores_the_settings_and_draws_a_seed(club) -> None:
    tournament = services.free_deal_create(
        club=club, name="  Vendredi  ", date=TODAY, parties=3, deals_per_party=2,
        tie_break="shared", public=True,
    )  # fmt: skip
    assert (tournament.name, tournament.parties, tournament.deals_per_party) == ("Vendredi", 3, 2)
    assert tournament.status == "draft" and tournament.public and tournament.seed >= 1
    assert tournament.ruleset["name"] == "fft" and tournament.ruleset["version"] == 2


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"name": "  "}, "name_required", "name"),
        ({"parties": 31}, "out_of_range", "parties"),
        ({"parties": "many"}, "invalid_number", "parties"),
        ({"deals_per_party": 0}, "out_of_range", "deals_per_party"),
        ({"deals_per_party": 13}, "out_of_range", "deals_per_party"),
        ({"tie_break": "coin"}, "unknown_tie_break", "tie_break"),
        ({"ruleset": {"name": "nope"}}, "unknown_ruleset", "ruleset"),
        (
            {"ruleset": {"name": "traditional", "pousse_multiplier": 9}},
            "invalid_ruleset_parameter",
            "ruleset",
        ),
    ],
)
def test_create_refusals(club, changes, code, field) -> None:
    error = refused(services.free_deal_create, club=club, date=TODAY, **{"name": "X", **changes})
    assert (error.code, error.field) == (code, field)
    assert error.message
    assert not FreeDealTournament.objects.exists()


def test_settings_change_everything_before_the_start() -> None:
    tournament = FreeDealTournamentFactory()
    changed = services.free_deal_settings_update(
        tournament=tournament, name="Lundi", date=TODAY, parties=3, deals_per_party=2,
        ruleset={"name": "traditional", "pousse_multiplier": 3}, tie_break="shared", public=False,
    )  # fmt: skip
    changed.refresh_from_db()
    assert (changed.name, changed.parties, changed.deals_per_party) == ("Lundi", 3, 2)
    assert changed.ruleset["pousse_multiplier"] == 3 and not changed.public


def test_settings_keep_the_format_and_rules_once_started() -> None:
    tournament = RunningFreeDealFactory()
    same = {"date": TODAY, "ruleset": {"name": "fft"}, "parties": 5, "deals_per_party": 4,
            "tie_break": "best_party", "public": True}  # fmt: skip
    for change in ({"parties": 4}, {"deals_per_party": 3}, {"ruleset": {"name": "traditional"}}):
        error = refused(
            services.free_deal_settings_update,
            tournament=tournament,
            **{"name": "Autre", **same, **change},
        )
        assert error.code == "already_started"
    tournament.refresh_from_db()
    assert tournament.name != "Autre"
    services.free_deal_settings_update(tournament=tournament, name="Autre", **same)
    tournament.refresh_from_db()
    assert tournament.name == "Autre" and tournament.ruleset["version"] == 2


def test_settings_refuse_an_empty_name() -> None:
    tournament = FreeDealTournamentFactory(name="Gardé")
    error = refused(
        services.free_deal_settings_update, tournament=tournament, name=" ", date=TODAY,
        ruleset=None, parties=5, deals_per_party=4, tie_break="best_party", public=True,
    )  # fmt: skip
    assert (error.code, error.field) == ("name_required", "name")
    tournament.refresh_from_db()
    assert tournament.name == "Gardé"


# --------------------------------------------------------------------------- players
def test_register_numbers_players_in_order(club, players) -> None:
    tournament = FreeDealTournamentFactory(club=club)
    entries = [
        services.free_deal_player_register(tournament=tournament, player=player)
        for player in players[:3]
    ]
    assert [entry.number for entry in entries] == [1, 2, 3]


def test_register_refuses_a_player_twice(club, players) -> None:
    tournament = make_tournament(club, players, 2, start=False)
    error = refused(services.free_deal_player_register, tournament=tournament, player=players[0])
    assert (error.code, error.field) == ("already_registered", "player")
    assert tournament.players.count() == 2


def test_register_stops_at_400(club) -> None:
    tournament = FreeDealTournamentFactory(club=club)
    people = Player.objects.bulk_create(
        [Player(first_name="P", last_name=f"N{n}", club=club) for n in range(401)]
    )
    FreeDealPlayer.objects.bulk_create(
        [FreeDealPlayer(tournament=tournament, number=n + 1, player=p)
         for n, p in enumerate(people[:400])]
    )  # fmt: skip
    error = refused(services.free_deal_player_register, tournament=tournament, player=people[400])
    assert error.code == "too_many_players"


def test_register_refused_once_started() -> None:
    tournament = RunningFreeDealFactory()
    error = refused(
        services.free_deal_player_register,
        tournament=tournament,
        player=PlayerFactory(club=tournament.club),
    )
    assert error.code == "already_started"
    assert tournament.players.count() == 4


def test_register_new_creates_a_club_player() -> None:
    tournament = FreeDealTournamentFactory(players=1)
    entry = services.free_deal_player_register_new(
        tournament=tournament, first_name=" Ana ", last_name="Neuve", licence="L-77"
    )
    assert entry.number == 2 and entry.player.club == tournament.club
    assert (entry.player.first_name, entry.player.licence) == ("Ana", "L-77")


def test_register_new_with_a_known_licence_links_that_player_without_renaming_him() -> None:
    tournament = FreeDealTournamentFactory()
    known = PlayerFactory(licence="TAKEN", first_name="Jean", last_name="Connu")
    entry = services.free_deal_player_register_new(
        tournament=tournament, first_name="Ana", last_name="Neuve", licence="TAKEN"
    )
    assert entry.player == known
    stored = Player.objects.get(pk=known.pk)
    assert (stored.first_name, stored.last_name, stored.club) == ("Jean", "Connu", known.club)
    assert stored.memberships.filter(club=tournament.club, active=True).exists()


@pytest.mark.parametrize(
    ("names", "code", "field"),
    [
        ({"first_name": "", "last_name": "Neuve"}, "first_name_required", "first_name"),
        ({"first_name": "Ana", "last_name": " "}, "last_name_required", "last_name"),
        ({"first_name": "Ana", "last_name": "Neuve", "licence": "a b"}, "invalid_licence",
         "licence"),
    ],
)  # fmt: skip
def test_register_new_refusals(names, code, field) -> None:
    tournament = FreeDealTournamentFactory()
    before = Player.objects.count()
    error = refused(services.free_deal_player_register_new, tournament=tournament, **names)
    assert (error.code, error.field) == (code, field)
    assert Player.objects.count() == before and not tournament.players.exists()


def test_remove_renumbers_the_later_players() -> None:
    tournament = FreeDealTournamentFactory(players=4)
    third = tournament.players.get(number=3).player
    services.free_deal_player_remove(tournament=tournament, number=2)
    assert list(tournament.players.values_list("number", flat=True)) == [1, 2, 3]
    assert tournament.players.get(number=2).player == third


def test_remove_refusals() -> None:
    draft = FreeDealTournamentFactory(players=2)
    error = refused(services.free_deal_player_remove, tournament=draft, number=7)
    assert (error.code, error.field) == ("unknown_player", "player")
    running = RunningFreeDealFactory()
    error = refused(services.free_deal_player_remove, tournament=running, number=1)
    assert error.code == "already_started"
    assert running.players.count() == 4


# --------------------------------------------------------------------------- start
def test_start_stores_the_seeded_seating_and_tables(club, players) -> None:
    tournament = make_tournament(club, players, 9, seed=11, parties=3)
    assert tournament.status == FreeDealTournament.Status.RUNNING
    expected = seat_parties(9, 3, 11)
    assert tournament.seating == [[list(t) for t in party] for party in expected]
    assert [t.size for t in tournament.tables.order_by("number")] == [5, 4]
    assert tournament.open_party == 1 and tournament.closed_parties == 0


def test_start_needs_three_players() -> None:
    tournament = FreeDealTournamentFactory(players=2)
    error = refused(services.free_deal_start, tournament=tournament)
    assert error.code == "too_few_players" and "at least 3" in error.message
    tournament.refresh_from_db()
    assert tournament.status == "draft" and not tournament.tables.exists()


def test_start_twice_is_refused() -> None:
    tournament = RunningFreeDealFactory()
    error = refused(services.free_deal_start, tournament=tournament)
    assert error.code == "already_started"
    assert tournament.tables.count() == 1


# --------------------------------------------------------------------------- entry
def test_entry_scores_with_the_rules_engine() -> None:
    tournament = RunningFreeDealFactory()
    table = tournament.tables.get()
    seated = tournament.table_players(1, 1)
    result = services.free_deal_result_enter(
        table=table, deal=1, data={**GARDE, "taker": seated[0], "points": 46}
    )
    # docs/domain/tarot-scoring.md example 1: value 60, taker +180, each defender -60
    assert result.value == 60 and result.party == 1
    assert result.marks == {str(seated[0]): 180, **{str(n): -60 for n in seated[1:]}}
    assert result.dealer == seated[0] and result.entered_by_label == "Table 1"
    line = FreeDealChange.objects.get()
    assert (line.action, line.actor_label, line.before) == ("create", "Table 1", None)
    assert line.after["taker"] == seated[0]


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({"oudlers": 2, "points": 50}, "missing_field", "contract"),
        ({"contract": "garde", "oudlers": 2, "points": 50}, "missing_field", "taker"),
        ({**GARDE, "taker": "x"}, "invalid_player", "taker"),
        ({**GARDE, "taker": 99}, "not_at_table", "taker"),
        ({**GARDE, "taker": "SEAT0", "points": ""}, "missing_field", "points"),
        ({**GARDE, "taker": "SEAT0", "oudlers": None}, "missing_field", "oudlers"),
        ({**GARDE, "taker": "SEAT0", "points": 95}, "points_out_of_range", "points"),
        ({**GARDE, "taker": "SEAT0", "partner": "SEAT1"}, "partner_not_allowed", "partner"),
        ({**GARDE, "contract": "pousse", "taker": "SEAT0"}, "contract_not_in_ruleset",
         "contract"),
        ({**GARDE, "taker": "SEAT0", "oudlers": 3, "points": 5}, None, "points"),
        ({**GARDE, "taker": "SEAT0", "poignees": "many"}, "invalid", "poignees"),
    ],
)  # fmt: skip
def test_entry_refusals_name_the_field_and_store_nothing(data, code, field) -> None:
    tournament = RunningFreeDealFactory()
    seated = tournament.table_players(1, 1)
    data = {k: seated[int(v[4:])] if str(v).startswith("SEAT") else v for k, v in data.items()}
    error = refused(
        services.free_deal_result_enter, table=tournament.tables.get(), deal=1, data=data
    )
    assert error.field == field and error.message
    if code is not None:
        assert error.code == code
    assert not FreeDealResult.objects.exists() and not FreeDealChange.objects.exists()


def test_entry_of_an_unknown_deal_or_party() -> None:
    tournament = RunningFreeDealFactory()
    table = tournament.tables.get()
    error = refused(
        services.free_deal_result_enter, table=table, deal=5, data={"contract": "passed"}
    )
    assert (error.code, error.field) == ("unknown_deal", "deal")
    error = refused(
        services.free_deal_result_enter, table=table, deal=1, data={"contract": "passed"}, party=9
    )
    assert (error.code, error.field) == ("unknown_party", "party")
    assert not FreeDealResult.objects.exists()


def test_a_table_of_five_says_who_held_the_called_king(club, players) -> None:
    tournament = make_tournament(club, players, 5)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    error = refused(
        services.free_deal_result_enter, table=table, deal=1, data={**GARDE, "taker": s[0]}
    )
    assert error.code == "partner_required" and "called King" in error.message
    with_partner = services.free_deal_result_enter(
        table=table, deal=1, data={**GARDE, "taker": s[0], "partner": s[1]}
    )
    # example 7: garde, 2 oudlers, 50 points, partner called: value 68
    assert with_partner.marks[str(s[0])] == 136 and with_partner.marks[str(s[1])] == 68
    alone = services.free_deal_result_enter(
        table=table,
        deal=2,
        data={"contract": "garde", "oudlers": 1, "points": 45, "taker": s[2], "partner": s[2]},
    )
    assert alone.partner is None and alone.marks[str(s[2])] == -248  # example 8


def test_flambeuse_refuses_a_partner(club, players) -> None:
    ruleset = {"name": "traditional", "pousse_multiplier": 2, "flambeuse": True}
    tournament = make_tournament(club, players, 5, ruleset=ruleset)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    error = refused(
        services.free_deal_result_enter,
        table=table,
        deal=1,
        data={**GARDE, "taker": s[0], "partner": s[1]},
    )
    assert error.code == "partner_not_allowed" and "flambeuse" in error.message
    result = services.free_deal_result_enter(
        table=table, deal=1, data={"contract": "pousse", "oudlers": 2, "points": 60, "taker": s[0]}
    )
    assert result.marks[str(s[0])] == 4 * result.value


def test_everybody_passed_scores_zero() -> None:
    tournament = RunningFreeDealFactory()
    result = services.free_deal_result_enter(
        table=tournament.tables.get(), deal=1, data={"contract": "passed", "taker": "ignored"}
    )
    assert result.passed and result.taker is None and result.outcome is None
    assert set(result.marks.values()) == {0} and result.contract_label == "Everybody passed"


# --------------------------------------------------------------------------- replay, conflict
@pytest.fixture
def entered() -> tuple[FreeDealTournament, FreeDealResult]:
    tournament = RunningFreeDealFactory()
    seated = tournament.table_players(1, 1)
    data = {**GARDE, "taker": seated[0], "poignees": POIGNEES}
    result = services.free_deal_result_enter(table=tournament.tables.get(), deal=1, data=data)
    return tournament, result


@pytest.mark.parametrize(
    "resend",
    [
        {},  # the same input
        {"points": "50"},  # a numeric string for the number
        {"poignees": [{"side": "defence", "size": "simple"}, {"side": "attack", "size": "simple"}]},
        {"petit_au_bout": ""},  # empty for none
    ],
)
def test_the_same_outcome_again_is_a_replay_writing_nothing(entered, resend) -> None:
    tournament, result = entered
    seated = tournament.table_players(1, 1)
    data = {**GARDE, "taker": seated[0], "poignees": POIGNEES} | resend
    before = stored_state()
    with pytest.raises(ResultReplay) as replay:
        services.free_deal_result_enter(table=tournament.tables.get(), deal=1, data=data)
    assert replay.value.result.pk == result.pk and replay.value.code == "result_replay"
    assert isinstance(replay.value, ResultConflict)  # callers that do not tell them apart
    assert stored_state() == before


@pytest.mark.parametrize(
    "change",
    [
        {"points": 51},
        {"taker": "SEAT1"},
        {"contract": "garde_sans"},
        {"poignees": []},
        {"contract": "passed"},
        {"petit_au_bout": "attack"},
    ],
)
def test_another_outcome_is_a_conflict_carrying_the_stored_result(entered, change) -> None:
    tournament, result = entered
    seated = tournament.table_players(1, 1)
    change = {k: seated[1] if v == "SEAT1" else v for k, v in change.items()}
    data = {**GARDE, "taker": seated[0], "poignees": POIGNEES} | change
    before = stored_state()
    with pytest.raises(ResultConflict) as conflict:
        services.free_deal_result_enter(table=tournament.tables.get(), deal=1, data=data)
    assert not isinstance(conflict.value, ResultReplay)
    assert conflict.value.code == "result_exists" and conflict.value.field == "deal"
    assert conflict.value.result.pk == result.pk and conflict.value.stored.taker == seated[0]
    assert "not saved" in conflict.value.message
    assert stored_state() == before


def test_a_passed_deal_sent_again_is_a_replay() -> None:
    tournament = RunningFreeDealFactory()
    table = tournament.tables.get()
    services.free_deal_result_enter(table=table, deal=2, data={"contract": "passed"})
    with pytest.raises(ResultReplay):
        services.free_deal_result_enter(table=table, deal=2, data={"contract": "passed"})
    assert FreeDealChange.objects.count() == 1


def test_an_invalid_resend_of_an_entered_deal_is_refused_as_invalid(entered) -> None:
    tournament, _result = entered
    before = stored_state()
    error = refused(
        services.free_deal_result_enter,
        table=tournament.tables.get(),
        deal=1,
        data={**GARDE, "taker": 99},
    )
    assert not isinstance(error, ResultConflict) and error.code == "not_at_table"
    assert stored_state() == before


# --------------------------------------------------------------------------- the open party
def test_a_closed_party_is_refused_at_the_table_but_a_replay_stays_a_replay() -> None:
    tournament = RunningFreeDealFactory(parties=3, deals_per_party=2)
    table = tournament.tables.get()
    services.free_deal_result_enter(table=table, deal=1, data={"contract": "passed"}, party=1)
    services.free_deal_party_close(tournament=tournament, confirm=True)
    before = stored_state()
    error = refused(
        services.free_deal_result_enter, table=table, deal=2, data={"contract": "passed"}, party=1
    )
    assert isinstance(error, PartyNotOpen)
    assert (error.code, error.field) == ("party_closed", "party") and "Ask the director" in (
        error.message
    )
    with pytest.raises(ResultReplay):  # a resend after a lost answer, the party closed since
        services.free_deal_result_enter(table=table, deal=1, data={"contract": "passed"}, party=1)
    seated = tournament.table_players(1, 1)
    with pytest.raises(ResultConflict):
        services.free_deal_result_enter(
            table=table, deal=1, data={**GARDE, "taker": seated[0]}, party=1
        )
    assert stored_state() == before
    # Without a party, the table enters the open one (2).
    assert services.free_deal_result_enter(table=table, deal=2, data=GARDE | {
        "taker": tournament.table_players(2, 1)[0]}).party == 2  # fmt: skip


def test_a_later_party_is_not_open_yet() -> None:
    tournament = RunningFreeDealFactory()
    error = refused(
        services.free_deal_result_enter,
        table=tournament.tables.get(),
        deal=1,
        data={"contract": "passed"},
        party=2,
    )
    assert (error.code, error.field) == ("party_not_open", "party")
    assert not FreeDealResult.objects.exists()


def test_no_entry_before_the_start_or_after_the_last_party() -> None:
    tournament = RunningFreeDealFactory(parties=1, deals_per_party=1)
    table = tournament.tables.get()
    FreeDealTournament.objects.filter(pk=tournament.pk).update(status="draft")
    error = refused(
        services.free_deal_result_enter, table=table, deal=1, data={"contract": "passed"}
    )
    assert error.code == "free_deal_not_running"
    FreeDealTournament.objects.filter(pk=tournament.pk).update(status="running")
    services.free_deal_party_close(tournament=tournament, confirm=True)
    error = refused(
        services.free_deal_result_enter, table=table, deal=1, data={"contract": "passed"}
    )
    assert error.code == "party_closed" and "Every party is closed" in error.message
    services.free_deal_finish(tournament=tournament)
    error = refused(
        services.free_deal_result_enter, table=table, deal=1, data={"contract": "passed"}
    )
    assert error.code == "free_deal_not_running"
    assert not FreeDealResult.objects.exists()


# --------------------------------------------------------------------------- table correction
def test_the_table_corrects_its_entry_explicitly(entered) -> None:
    tournament, result = entered
    seated = tournament.table_players(1, 1)
    corrected = services.free_deal_result_table_correct(
        table=tournament.tables.get(), deal=1, data={**GARDE, "taker": seated[1]}, party=1
    )
    assert corrected.pk == result.pk and corrected.taker == seated[1]
    assert corrected.marks[str(seated[1])] == 3 * 68
    line = FreeDealChange.objects.order_by("pk").last()
    assert line is not None
    assert (line.action, line.actor_label, line.actor, line.reason) == (
        "correct", "Table 1", None, ""
    )  # fmt: skip
    assert line.before["taker"] == seated[0] and line.after["taker"] == seated[1]


def test_a_correction_to_the_same_outcome_writes_nothing(entered) -> None:
    tournament, _result = entered
    seated = tournament.table_players(1, 1)
    before = stored_state()
    with pytest.raises(ResultReplay):
        services.free_deal_result_table_correct(
            table=tournament.tables.get(),
            deal=1,
            data={**GARDE, "taker": seated[0], "poignees": POIGNEES},
        )
    assert stored_state() == before


def test_a_correction_of_a_deal_not_entered_enters_it(entered) -> None:
    """As in every kind: the table's correction of a deal it has not entered (its first save
    never arrived) stores its outcome, an entry by the table in the history."""
    tournament, _result = entered
    table = tournament.tables.get()
    result = services.free_deal_result_table_correct(
        table=table, deal=2, data={"contract": "passed"}
    )
    assert (result.party, result.deal, result.passed) == (1, 2, True)
    line = FreeDealChange.objects.order_by("pk").last()
    assert line is not None and (line.action, line.actor_label) == ("create", "Table 1")


def test_a_correction_needs_a_valid_outcome(entered) -> None:
    tournament, _result = entered
    table = tournament.tables.get()
    before = stored_state()
    error = refused(
        services.free_deal_result_table_correct, table=table, deal=1, data={**GARDE, "points": 99}
    )
    assert error.field in ("taker", "points")
    error = refused(
        services.free_deal_result_table_correct, table=table, deal=7, data={"contract": "passed"}
    )
    assert error.code == "unknown_deal"
    assert stored_state() == before


def test_a_closed_party_is_the_directors_to_correct(entered) -> None:
    tournament, _result = entered
    services.free_deal_party_close(tournament=tournament, confirm=True)
    before = stored_state()
    error = refused(
        services.free_deal_result_table_correct,
        table=tournament.tables.get(),
        deal=1,
        data={"contract": "passed"},
        party=1,
    )
    assert error.code == "party_closed"
    assert stored_state() == before


# --------------------------------------------------------------------------- director
def test_the_director_corrects_with_a_reason_in_the_history(entered) -> None:
    tournament, result = entered
    director = OrganiserFactory(clubs=[tournament.club])
    seated = tournament.table_players(1, 1)
    error = refused(
        services.free_deal_result_director_correct, tournament=tournament, table_number=1,
        party=1, deal=1, data=GARDE | {"taker": seated[2]}, user=director, reason=" ",
    )  # fmt: skip
    assert (error.code, error.field) == ("reason_required", "reason")
    corrected = services.free_deal_result_director_correct(
        tournament=tournament, table_number=1, party=1, deal=1,
        data=GARDE | {"taker": seated[2]}, user=director, reason="wrong taker",
    )  # fmt: skip
    assert corrected.pk == result.pk and corrected.taker == seated[2]
    line = FreeDealChange.objects.order_by("pk").last()
    assert line is not None
    assert (line.action, line.actor, line.actor_label, line.reason) == (
        "correct", director, director.get_username(), "wrong taker"
    )  # fmt: skip
    with pytest.raises(ResultReplay):
        services.free_deal_result_director_correct(
            tournament=tournament, table_number=1, party=1, deal=1,
            data=GARDE | {"taker": seated[2]}, user=director, reason="again",
        )  # fmt: skip
    assert FreeDealChange.objects.count() == 2


def test_the_director_enters_a_missing_deal_of_a_closed_party() -> None:
    tournament = RunningFreeDealFactory(parties=2)
    director = OrganiserFactory(clubs=[tournament.club])
    services.free_deal_party_close(tournament=tournament, confirm=True)
    result = services.free_deal_result_director_correct(
        tournament=tournament, table_number=1, party=1, deal=3, data={"contract": "passed"},
        user=director, reason="forgotten",
    )  # fmt: skip
    assert result.party == 1 and result.entered_by == director
    assert (result.entered_by_label, result.entered_via) == (director.username, "organiser")
    line = result.history.get()
    assert (line.action, line.reason, line.before) == ("create", "forgotten", None)


@pytest.mark.parametrize(
    ("where", "code", "field"),
    [
        ({"party": 9}, "unknown_party", "party"),
        ({"deal": 9}, "unknown_deal", "deal"),
        ({"party": 2}, "party_not_started", "party"),
        ({"table_number": 4}, "unknown_table", "table"),
    ],
)
def test_director_refusals(where, code, field) -> None:
    tournament = RunningFreeDealFactory()
    director = OrganiserFactory(clubs=[tournament.club])
    kwargs = {"table_number": 1, "party": 1, "deal": 1} | where
    error = refused(
        services.free_deal_result_director_correct, tournament=tournament,
        data={"contract": "passed"}, user=director, reason="why", **kwargs,
    )  # fmt: skip
    assert (error.code, error.field) == (code, field)
    assert not FreeDealResult.objects.exists()


def test_the_director_has_nothing_to_correct_before_the_start() -> None:
    tournament = FreeDealTournamentFactory(players=4)
    error = refused(
        services.free_deal_result_director_correct, tournament=tournament, table_number=1,
        party=1, deal=1, data={"contract": "passed"}, user=OrganiserFactory(), reason="why",
    )  # fmt: skip
    assert error.code == "not_started"


# --------------------------------------------------------------------------- parties, finish
def test_close_party_needs_every_deal_or_a_confirmation() -> None:
    tournament = RunningFreeDealFactory(parties=2, deals_per_party=2)
    table = tournament.tables.get()
    services.free_deal_result_enter(table=table, deal=1, data={"contract": "passed"})
    error = refused(services.free_deal_party_close, tournament=tournament)
    assert error.code == "party_incomplete" and "misses 1 deals" in error.message
    assert error.details == ("Table 1, deal 2",)
    tournament.refresh_from_db()
    assert tournament.closed_parties == 0
    services.free_deal_result_enter(table=table, deal=2, data={"contract": "passed"})
    assert services.free_deal_party_close(tournament=tournament) == 1
    assert services.free_deal_party_close(tournament=tournament, confirm=True) == 2
    error = refused(services.free_deal_party_close, tournament=tournament, confirm=True)
    assert error.code == "no_open_party"


def test_close_party_before_the_start_is_refused() -> None:
    error = refused(services.free_deal_party_close, tournament=FreeDealTournamentFactory())
    assert error.code == "no_open_party"


def test_finish_needs_every_party_closed() -> None:
    tournament = RunningFreeDealFactory(parties=2)
    error = refused(services.free_deal_finish, tournament=tournament)
    assert error.code == "parties_open" and "0 of 2" in error.message
    services.free_deal_party_close(tournament=tournament, confirm=True)
    services.free_deal_party_close(tournament=tournament, confirm=True)
    finished = services.free_deal_finish(tournament=tournament)
    assert finished.status == FreeDealTournament.Status.FINISHED
    error = refused(services.free_deal_finish, tournament=tournament)
    assert error.code == "free_deal_not_running"


def test_finish_a_draft_is_refused() -> None:
    error = refused(services.free_deal_finish, tournament=FreeDealTournamentFactory())
    assert error.code == "free_deal_not_running"


def test_the_table_may_not_correct_the_directors_entry(entered) -> None:
    """As at a duplicate table and in a cup room: the director's result is the director's to
    correct (``not_own_entry``), nothing changed."""
    tournament, result = entered
    director = OrganiserFactory(clubs=[tournament.club])
    seated = tournament.table_players(1, 1)
    services.free_deal_result_director_correct(
        tournament=tournament, table_number=1, party=1, deal=1,
        data=GARDE | {"taker": seated[2]}, user=director, reason="wrong taker",
    )  # fmt: skip
    lines = FreeDealChange.objects.count()
    error = refused(
        services.free_deal_result_table_correct, table=tournament.tables.get(), deal=1,
        data=GARDE | {"taker": seated[1]},
    )  # fmt: skip
    assert (error.code, error.field) == ("not_own_entry", "deal")
    result.refresh_from_db()
    assert result.taker == seated[2] and FreeDealChange.objects.count() == lines

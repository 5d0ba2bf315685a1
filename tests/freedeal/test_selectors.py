"""freedeal.selectors (every read), freedeal.outcomes (validation and scoring, nothing stored)
and freedeal.publication (what a viewer may see)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from clubs.errors import DomainError
from clubs.phone_codes import UnknownCode
from freedeal import outcomes, selectors, services
from freedeal.models import FreeDealResult
from freedeal.publication import free_deal_publication
from tests.factories import (
    FreeDealPlayerFactory,
    FreeDealTournamentFactory,
    OrganiserFactory,
    RunningFreeDealFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def garde(taker: int, points: int = 46) -> dict[str, object]:
    return {"contract": "garde", "taker": taker, "oudlers": 2, "points": points}


# --------------------------------------------------------------------------- lists
def test_lists_follow_visibility_and_direction() -> None:
    public = FreeDealTournamentFactory(public=True)
    private = FreeDealTournamentFactory(public=False)
    organiser = OrganiserFactory(clubs=[private.club])
    stranger = UserFactory()
    assert selectors.free_deal_list_visible(AnonymousUser()) == [public]
    assert selectors.free_deal_list_visible(stranger) == [public]
    assert set(selectors.free_deal_list_visible(organiser)) == {public, private}
    assert selectors.free_deal_list_directed(organiser) == [private]
    assert selectors.free_deal_list_directed(stranger) == []
    assert selectors.free_deal_may_create(organiser) and not selectors.free_deal_may_create(
        stranger
    )
    assert list(selectors.free_deal_creator_clubs(organiser)) == [private.club]


def test_the_ranking_api_follows_the_kernel_access_rule() -> None:
    """A private tournament's ranking: its directors only (404 for anybody else)."""
    public = FreeDealTournamentFactory(public=True)
    private = FreeDealTournamentFactory(public=False)
    organiser = OrganiserFactory(clubs=[private.club])
    anonymous = Client()
    assert anonymous.get(f"/api/v1/free-deal/{public.pk}/ranking/").status_code == 200
    assert anonymous.get(f"/api/v1/free-deal/{private.pk}/ranking/").status_code == 404
    assert anonymous.get("/api/v1/free-deal/0/ranking/").status_code == 404
    director = Client()
    director.force_login(organiser)
    answer = director.get(f"/api/v1/free-deal/{private.pk}/ranking/")
    assert answer.status_code == 200 and answer.json()["provisional"] is True


def test_entries_names_and_registrable_players() -> None:
    tournament = FreeDealTournamentFactory(players=3)
    entries = selectors.free_deal_entries(tournament)
    assert list(entries) == [1, 2, 3]
    assert selectors.free_deal_names(tournament)[2] == str(entries[2].player)
    assert selectors.free_deal_entry(tournament, 3) == entries[3]
    assert selectors.free_deal_entry(tournament, 4) is None
    other = FreeDealPlayerFactory(tournament=FreeDealTournamentFactory(club=tournament.club))
    choices = set(selectors.free_deal_registrable_players(tournament))
    assert other.player in choices and not choices & {e.player for e in entries.values()}


# --------------------------------------------------------------------------- ranking
def test_the_ranking_sums_the_marks_of_the_parties_begun() -> None:
    tournament = RunningFreeDealFactory(parties=3)
    table = tournament.tables.get()
    s1 = tournament.table_players(1, 1)
    services.free_deal_result_enter(table=table, deal=1, data=garde(s1[0]))
    ranking = selectors.free_deal_ranking(tournament)
    assert ranking.parties == 1 and ranking.deals_entered == 1 and ranking.deals_total == 12
    assert (ranking.rows[0].player, ranking.rows[0].total) == (s1[0], 180)
    assert {row.player: list(row.parties) for row in ranking.rows}[s1[1]] == [-60]
    services.free_deal_party_close(tournament=tournament, confirm=True)
    tournament.refresh_from_db()
    s2 = tournament.table_players(2, 1)
    services.free_deal_result_enter(table=table, deal=1, data=garde(s2[1], points=30))
    ranking = selectors.free_deal_ranking(tournament)
    assert ranking.parties == 2
    totals = {row.player: row.total for row in ranking.rows}
    stored = {n: 0 for n in s1}
    for result in FreeDealResult.objects.all():
        for number, mark in result.marks.items():
            stored[int(number)] += mark
    assert totals == stored


def test_the_ranking_of_a_draft_is_empty() -> None:
    ranking = selectors.free_deal_ranking(FreeDealTournamentFactory(players=4))
    assert ranking.rows == [] and ranking.parties == 0 and ranking.deals_total == 0


# --------------------------------------------------------------------------- player card
def test_a_players_card_lists_his_parties_deals_and_marks() -> None:
    tournament = RunningFreeDealFactory(players=5, parties=2)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    services.free_deal_result_enter(
        table=table, deal=1, data=garde(s[0]) | {"partner": s[1], "points": 50}
    )
    services.free_deal_result_enter(table=table, deal=2, data={"contract": "passed"})
    cards = selectors.free_deal_player_card(tournament, s[1])
    assert [(c.party, c.table) for c in cards] == [(1, 1), (2, 1)]
    first = cards[0]
    assert first.mark == 68 and first.missing == 2 and len(first.players) == 5
    assert [d["role"] for d in first.deals] == ["partner", ""]
    assert first.deals[0]["taker"].number == s[0]
    assert [d["role"] for d in selectors.free_deal_player_card(tournament, s[2])[0].deals] == [
        "defence", ""]  # fmt: skip
    assert selectors.free_deal_player_card(FreeDealTournamentFactory(players=4), 1) == []


# --------------------------------------------------------------------------- director
def test_progress_missing_deals_and_the_grid() -> None:
    tournament = RunningFreeDealFactory(players=9, parties=2, deals_per_party=2)
    first, second = selectors.free_deal_tables(tournament)
    services.free_deal_result_enter(table=first, deal=2, data={"contract": "passed"})
    assert selectors.free_deal_missing_deals(tournament, 1) == [(1, 1), (2, 1), (2, 2)]
    assert selectors.free_deal_open_party_missing(tournament) == [(1, 1), (2, 1), (2, 2)]
    progress = selectors.free_deal_progress(tournament)
    assert [p["open"] for p in progress] == [True, False]
    assert [cell["entered"] for cell in progress[0]["tables"]] == [1, 0]
    assert not progress[0]["complete"]
    grid = selectors.free_deal_results_grid(tournament)
    assert len(grid) == 1  # the parties begun
    deals = grid[0]["tables"][0]["deals"]
    assert deals[0] == (1, None) and deals[1][1].passed
    assert [n for n, _name in grid[0]["tables"][1]["players"]] == list(
        tournament.table_players(1, 2)
    )
    assert selectors.free_deal_table_by_number(tournament, 2) == second
    assert selectors.free_deal_table_by_number(tournament, 3) is None
    services.free_deal_party_close(tournament=tournament, confirm=True)
    tournament.refresh_from_db()
    assert selectors.free_deal_progress(tournament)[0]["closed"]
    assert len(selectors.free_deal_results_grid(tournament)) == 2


def test_a_results_history_oldest_first() -> None:
    tournament = RunningFreeDealFactory()
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    result = services.free_deal_result_enter(table=table, deal=1, data=garde(s[0]))
    services.free_deal_result_table_correct(table=table, deal=1, data=garde(s[1]))
    assert selectors.free_deal_result(table, 1, 1) == result
    assert selectors.free_deal_result(table, 1, 2) is None
    assert [c.action for c in selectors.free_deal_result_history(result)] == ["create", "correct"]
    assert selectors.free_deal_result_history(None) == []


def test_the_seating_page_data() -> None:
    tournament = RunningFreeDealFactory(players=9, parties=2)
    seating = selectors.free_deal_seating(tournament)
    assert [party["party"] for party in seating] == [1, 2]
    numbers = sorted(e.number for t in seating[0]["tables"] for e in t["players"])
    assert numbers == list(range(1, 10))
    assert selectors.free_deal_seating(FreeDealTournamentFactory(players=4)) == []


# --------------------------------------------------------------------------- table phone
def test_the_table_page_data() -> None:
    tournament = RunningFreeDealFactory(players=4)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    services.free_deal_result_enter(table=table, deal=3, data=garde(s[2]))
    page = selectors.free_deal_table_page(table)
    assert page.party == 1 and page.seated == s
    assert [d.dealer for d in page.deals] == [s[0], s[1], s[2], s[3]]
    assert [d.result is not None for d in page.deals] == [False, False, True, False]
    assert dict((n, total) for n, _name, total in page.totals)[s[2]] == 180
    assert page.marks(page.deals[2].result)[0] == (s[0], page.names[s[0]], -60)


def test_the_code_lookup() -> None:
    table = RunningFreeDealFactory().tables.get()
    request = type("R", (), {"META": {"REMOTE_ADDR": "127.0.0.41"}})()
    assert selectors.free_deal_table_for_code(request, table.code) == table
    with pytest.raises(UnknownCode):
        selectors.free_deal_table_for_code(request, "NOPE")


# --------------------------------------------------------------------------- publication
def test_the_publication_rule() -> None:
    running = RunningFreeDealFactory()
    publication = free_deal_publication(running, directs=False)
    assert publication.provisional and not publication.everything
    assert publication.withheld == frozenset() and publication.shows((1, 1, 1))
    assert free_deal_publication(running, directs=True).everything
    for _ in range(5):
        services.free_deal_party_close(tournament=running, confirm=True)
    finished = services.free_deal_finish(tournament=running)
    assert not free_deal_publication(finished, directs=False).provisional


# --------------------------------------------------------------------------- outcomes
def test_default_dealer_turns_round_the_table() -> None:
    assert [outcomes.default_dealer((4, 7, 2), deal) for deal in range(1, 6)] == [4, 7, 2, 4, 7]


def test_ruleset_choice() -> None:
    assert outcomes.ruleset_choice("fft", None, False)["name"] == "fft"
    traditional = outcomes.ruleset_choice("traditional", None, True)
    assert traditional["pousse_multiplier"] == 2 and traditional["flambeuse"] is True
    with pytest.raises(DomainError) as error:
        outcomes.ruleset_choice("nope", None, False)
    assert error.value.field == "ruleset"


def test_outcome_score_of_house_rules_asks_the_chien() -> None:
    tournament = RunningFreeDealFactory(players=4, ruleset={"name": "house"})
    seated = tournament.table_players(1, 1)
    scored = outcomes.outcome_score(tournament, seated, garde(seated[0]) | {"chien": 6})
    assert scored["outcome"]["chien"] == 6 and sum(scored["marks"].values()) == 0
    with pytest.raises(DomainError) as error:
        outcomes.outcome_score(tournament, seated, garde(seated[0]) | {"chien": 9})
    assert error.value.field == "chien"


def test_outcome_score_of_the_petit_chelem() -> None:
    tournament = RunningFreeDealFactory(players=4, ruleset={"name": "traditional"})
    seated = tournament.table_players(1, 1)
    data = garde(seated[0], points=80) | {
        "oudlers": 3,
        "petit_chelem": {"announced": False, "made": True},
    }
    scored = outcomes.outcome_score(tournament, seated, data)
    assert scored["outcome"]["petit_chelem"] == {"announced": False, "made": True}
    with pytest.raises(DomainError) as error:
        outcomes.outcome_score(tournament, seated, garde(seated[0]) | {"petit_chelem": "yes"})
    assert error.value.field == "petit_chelem"


def test_outcome_score_refuses_what_is_not_an_object() -> None:
    tournament = RunningFreeDealFactory()
    with pytest.raises(DomainError) as error:
        outcomes.outcome_score(tournament, (1, 2, 3, 4), ["garde"])  # type: ignore[arg-type]
    assert (error.value.code, error.value.field) == ("invalid", "outcome")


def test_same_outcome_compares_the_normalised_stored_outcome() -> None:
    tournament = RunningFreeDealFactory()
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    result = services.free_deal_result_enter(table=table, deal=1, data=garde(s[0]))
    result.refresh_from_db()  # as the JSON column gives it back
    same = outcomes.outcome_score(tournament, s, garde(s[0]) | {"points": "46", "poignees": []})
    assert outcomes.same_outcome(result, same)
    other = outcomes.outcome_score(tournament, s, garde(s[1]))
    assert not outcomes.same_outcome(result, other)
    passed = outcomes.outcome_score(tournament, s, {"contract": "passed"})
    assert not outcomes.same_outcome(result, passed)

"""Background scoring: the recompute service, the task, the signal wiring, the command."""

from __future__ import annotations

import random
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import F

from scoring.core import compute_standings
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from scoring.selectors import (
    hand_scores_for_deal,
    hand_scores_for_entrant,
    ranking_rows,
    standings_status,
)
from scoring.services import event_scoring_input, events_behind, standings_recompute
from scoring.tasks import standings_recompute_task
from tests.builders import enter_round, random_outcome, running_event, running_team_event
from tests.factories import OrganiserFactory
from tournaments.models import Event, TableResult, Team
from tournaments.services.results import (
    penalty_record,
    table_result_assign_artificial,
    table_result_enter,
    table_result_mark_not_played,
)

pytestmark = pytest.mark.django_db


def play_all(event: Event, seed: int = 1, skip: int = 0) -> int:
    """Enter a legal random outcome for every scheduled (deal, table) but the last ``skip``."""
    rng = random.Random(seed)
    plays = []
    for play in event.schedule.plays():
        table = event.tables.get(number=play.table)
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
            plays.append((table, deal))
    for table, deal in plays[: len(plays) - skip]:
        table_result_enter(table=table, deal=deal, outcome=random_outcome(rng, deal))
    return len(plays)


@pytest.fixture
def event() -> Event:
    return running_event(tables=5, rounds=3, deals_per_round=2)


def test_recompute_writes_the_snapshot_from_the_core(event, django_capture_on_commit_callbacks):
    total = play_all(event)
    snapshot = standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    assert snapshot.results_version == event.results_version == total
    assert snapshot.results_expected == snapshot.results_entered == total
    assert snapshot.complete
    # Progress per round: 5 tables x 2 deals in each of the 3 rounds.
    assert snapshot.data["rounds"] == [
        {"round": number, "entered": 10, "expected": 10} for number in (1, 2, 3)
    ]
    assert HandScore.objects.filter(event=event).count() == 4 * total
    # Every hand's percentages average 50, and the three defenders share a percentage.
    for deal in event.deals.all():
        scores = list(hand_scores_for_deal(event, deal))
        for seat in "NESW":
            pcts = [s.percentage for s in scores if s.seat == seat]
            assert abs(sum(pcts) / len(pcts) - 50) < Decimal("0.01") * len(pcts)
    standings = compute_standings(event_scoring_input(event).tournament)
    ranking = list(ranking_rows(event, "individual"))
    assert [(r.rank, f"e{r.entrant_id}", r.percentage) for r in ranking] == [
        (row.rank, row.entrant, row.percentage) for row in standings.individual
    ]
    assert len(ranking) == 20
    lines = list(ranking_rows(event, "line", line="N"))
    assert len(lines) == 5
    assert lines[0].rank == 1
    entrant = ranking[0].entrant
    card = hand_scores_for_entrant(event, entrant)
    assert len(card) == ranking[0].deals_played == 6


def test_recompute_is_idempotent_and_coalescing(event, django_assert_num_queries):
    play_all(event, skip=3)
    first = standings_recompute(event_id=event.pk)
    computed_at = first.computed_at
    ids = set(HandScore.objects.values_list("pk", flat=True))
    again = standings_recompute(event_id=event.pk)  # same version: nothing rewritten
    assert again.computed_at == computed_at
    assert set(HandScore.objects.values_list("pk", flat=True)) == ids
    assert not again.complete
    assert again.results_entered == again.results_expected - 3
    # A late, duplicated task for an old version is harmless: it finds nothing to do.
    assert standings_recompute_task.apply(args=(event.pk,)).get() == first.results_version
    assert set(HandScore.objects.values_list("pk", flat=True)) == ids


def test_signal_on_commit_runs_the_task_in_process(event, django_capture_on_commit_callbacks):
    table = event.tables.get(number=1)
    play = event.schedule.play(table=1, round=1)
    deal = event.deals.filter(deal_set=play.deal_set).first()
    with django_capture_on_commit_callbacks(execute=True):
        table_result_enter(
            table=table, deal=deal, outcome={"contract": "garde", "oudlers": 2, "points": 46}
        )
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.results_version == 1
    assert standings_status(event).state == "provisional"
    assert HandScore.objects.filter(event=event).count() == 4
    # A single result per hand scores 50 % (Neuberg on a hand scheduled several times).
    assert set(HandScore.objects.values_list("percentage", flat=True)) == {Decimal("50.00")}


def test_status_behind_then_complete(event):
    status = standings_status(event)
    assert status.state == "none" and status.provisional
    # Before any recompute, nothing is entered of what the movement expects.
    assert (status.entered, status.expected, status.missing) == (0, 30, 30)
    assert [(r.number, r.entered, r.expected) for r in status.rounds] == [
        (1, 0, 10),
        (2, 0, 10),
        (3, 0, 10),
    ]
    play_all(event)
    assert standings_status(event).state == "none"
    standings_recompute(event_id=event.pk)
    assert standings_status(event).state == "provisional"  # event still running
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    assert standings_status(event).state == "complete"
    Event.objects.filter(pk=event.pk).update(results_version=999)
    assert standings_status(event).state == "behind"


def test_artificial_not_played_and_penalty_are_scored(event):
    organiser = OrganiserFactory(clubs=[event.club])
    play_all(event, skip=2)
    missing = [
        (event.tables.get(number=play.table), d)
        for play in event.schedule.plays()
        for d in event.deals.filter(deal_set=play.deal_set)
        if not TableResult.objects.filter(deal=d, table__number=play.table).exists()
    ]
    (table1, deal1), (table2, deal2) = missing
    table_result_assign_artificial(
        event=event,
        table=table1,
        deal=deal1,
        actor=organiser,
        reason="fouled",
        percentages={"N": 60, "E": 40, "S": 60, "W": 40},
    )
    table_result_mark_not_played(
        event=event, table=table2, deal=deal2, actor=organiser, reason="late"
    )
    entrant = event.entrants.get(slot=1)
    penalty_record(event=event, entrant=entrant, points=2, reason="noise", actor=organiser)
    snapshot = standings_recompute(event_id=event.pk)
    assert snapshot.complete
    artificial = HandScore.objects.filter(event=event, artificial=True)
    assert (
        sorted(artificial.values_list("percentage", flat=True))
        == [Decimal(40)] * 2 + [Decimal(60)] * 2
    )
    assert not HandScore.objects.filter(event=event, deal=deal2, table_number=table2.number)
    row = RankingEntry.objects.get(event=event, kind="individual", entrant=entrant)
    assert row.penalty == Decimal("2.00")


def test_unconfirmed_results_are_not_scored():
    event = running_event(tables=5, rounds=2, deals_per_round=1, opponent_confirmation=True)
    play_all(event)
    snapshot = standings_recompute(event_id=event.pk)
    assert snapshot.results_entered == 0
    assert HandScore.objects.filter(event=event).count() == 0


def test_recompute_command(event):
    play_all(event, skip=1)
    out = StringIO()
    call_command("recompute", str(event.pk), stdout=out)
    assert "provisional" in out.getvalue()
    assert StandingsSnapshot.objects.get(event=event).results_version == 29


def test_recompute_command_unknown_event_exits_2(capsys):
    with pytest.raises(SystemExit) as caught:
        call_command("recompute", "987654")
    assert caught.value.code == 2
    assert "no event with id 987654" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        call_command("recompute", "abc")
    assert caught.value.code == 2


def test_penalty_before_any_result_does_not_block_the_standings(event):
    organiser = OrganiserFactory(clubs=[event.club])
    penalty_record(
        event=event, entrant=event.entrants.get(slot=1), points=1, reason="late", actor=organiser
    )
    table = event.tables.get(number=2)
    play = event.schedule.play(table=2, round=1)
    deal = event.deals.filter(deal_set=play.deal_set).first()
    table_result_enter(
        table=table, deal=deal, outcome={"contract": "garde", "oudlers": 1, "points": 50}
    )
    snapshot = standings_recompute(event_id=event.pk)
    assert snapshot.results_version == 2
    assert RankingEntry.objects.filter(event=event, kind="individual").count() == 4


def quadrette_event() -> Event:
    """Four teams of 4 with the generator's quadrette movement, two deals per round."""
    return running_team_event(format=Event.Format.QUADRETTE, teams=4, deals_per_round=2)


def team_of_slot(event: Event, slot: int) -> int:
    return event.entrants.get(slot=slot).team.number


def test_quadrette_match_sheet_and_team_ranking():
    """Round 1: a match at tables 1-2 (team A sits N at table 1), another at tables 3-4."""
    event = quadrette_event()
    for deal in event.deals.all():
        deal.taker_seat = "N"
        deal.save()
    first_round = {play.table: play for play in event.schedule.round(1).tables}
    team_a = team_of_slot(event, first_round[1].seats["N"])
    team_b = team_of_slot(event, first_round[1].seats["E"])
    others = [team_of_slot(event, first_round[3].seats[seat]) for seat in ("N", "E")]
    t1, t2, t3, t4 = event.tables.order_by("number")
    deal1, deal2 = event.deals.filter(deal_set=first_round[1].deal_set).order_by("number")
    for table in (t3, t4):
        for deal in (deal1, deal2):
            table_result_enter(
                table=table, deal=deal, outcome={"contract": "garde", "oudlers": 2, "points": 50}
            )
    garde = {"contract": "garde", "oudlers": 2, "points": 56}  # value 2*(25+15) = 80
    table_result_enter(table=t1, deal=deal1, outcome=garde)
    table_result_enter(table=t2, deal=deal1, outcome={**garde, "points": 41})  # value 50
    table_result_enter(table=t1, deal=deal2, outcome=garde)
    table_result_enter(table=t2, deal=deal2, outcome=garde)
    snapshot = standings_recompute(event_id=event.pk)
    sheet, other = [m for m in snapshot.data["matches"] if m["round"] == 1]
    assert (sheet["match"], sheet["round"]) == ("r1-t1-2", 1)
    assert sheet["tables"] == [1, 2]
    assert other["tables"] == [3, 4]
    assert other["pm_a"] == 0
    # Deal 1: A's net = 3*80 (A1 takes at table 1) + 3*(-50) (A defends at table 2) = 90.
    assert sheet["deals"][0]["net_a"] == 90
    assert sheet["deals"][0]["pm_a"] == 3
    assert sheet["deals"][1]["net_a"] == 0
    rows = list(ranking_rows(event, "team"))
    ranked = [(r.team.number, r.points_de_match) for r in rows]
    assert ranked[0] == (team_a, 3)
    assert ranked[-1] == (team_b, -3)
    assert sorted(ranked[1:3]) == sorted((team, 0) for team in others)


@pytest.mark.parametrize("format", [Event.Format.TRIPLETTE, Event.Format.QUADRETTE])
def test_team_standings_update_from_the_first_result(format):
    """Early in a team event most teams have no result yet: the standings must still update,
    ranking the teams that have one (a team penalty waits for its team's first result)."""
    event = running_team_event(format=format, teams=8, deals_per_round=1, seed=3)
    first = event.schedule.round(1).tables[0]
    table = event.tables.get(number=first.table)
    deal = event.deals.filter(deal_set=first.deal_set).order_by("number").first()
    idle = (
        Team.objects.filter(event=event)
        .exclude(members__slot__in=list(first.seats.values()))
        .first()
    )
    penalty_record(event=event, team=idle, points=Decimal("1"), reason="late", actor=None)
    table_result_enter(table=table, deal=deal, outcome=random_outcome(random.Random(1), deal))

    snapshot = standings_recompute(event_id=event.pk)

    assert snapshot.results_entered == 1
    ranked = {row.team_id for row in ranking_rows(event, "team", complete=True)}
    seated = {e.team_id for e in event.entrants.filter(slot__in=first.seats.values())}
    assert ranked == seated
    assert idle.pk not in ranked


def test_recompute_behind_brings_every_late_snapshot_up_to_date(event):
    play_all(event, skip=2)
    other = running_event(tables=3, deals_per_round=1)
    enter_round(other, 1, random.Random(4))
    standings_recompute(event_id=other.pk)
    Event.objects.filter(pk=other.pk).update(results_version=F("results_version") + 1)
    out = StringIO()
    call_command("recompute", "--behind", stdout=out)
    assert sorted(out.getvalue().split("\n")[:-1]) == sorted(
        f"event {e.pk}: standings at results version {e.results_version}"
        for e in Event.objects.filter(pk__in=[event.pk, other.pk])
    )
    assert events_behind() == []
    with pytest.raises(SystemExit) as caught:
        call_command("recompute", str(event.pk), "--behind")
    assert caught.value.code == 2

"""The recompute: incremental equals full, writers never wait for it, the work coalesces.

- on random events and random changes (new results, corrections, artificial scores, deals not
  played, penalties, team events), the snapshot the incremental recompute publishes equals the
  one a full recompute writes, and the deals nobody touched keep their stored hand-score rows;
- coalescing: one task request until a task starts, a lost request expires, one lease holder;
- on PostgreSQL, 20 writers commit while a recompute is paused inside its consistent read, and
  the final snapshot reflects every result (nothing scored from the stale read survives).
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from django.db import connection, connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring.services as scoring_services
import scoring.signals as scoring_signals
from scoring.models import HandScore, RankingEntry, RecomputeState, StandingsSnapshot
from scoring.services import (
    QUEUED_STALE,
    forget_published_hands,
    standings_recompute,
    standings_refresh,
    standings_request,
)
from tests.builders import enter_round, random_outcome, running_event, running_team_event
from tests.factories import OrganiserFactory
from tournaments.models import Deal, Event, Table, TableResult
from tournaments.services.results import (
    penalty_record,
    table_result_assign_artificial,
    table_result_director_correct,
    table_result_enter,
    table_result_mark_not_played,
)

pytestmark = pytest.mark.django_db


def snapshot_rows(event: Event) -> dict[str, Any]:
    hands = sorted(
        HandScore.objects.filter(event=event).values_list(
            "result_id", "deal_id", "entrant_id", "table_number", "round_number", "seat",
            "mark", "mp_num", "mp_den", "top", "percentage", "artificial",
        )
    )  # fmt: skip
    ranking = sorted(
        RankingEntry.objects.filter(event=event).values_list(
            "kind", "line", "rank", "entrant_id", "team_id", "percentage", "penalty",
            "marks_total", "deals_played", "points_de_match", "victory_points",
        ),
        key=repr,
    )  # fmt: skip
    snapshot = StandingsSnapshot.objects.get(event=event)
    return {
        "hands": hands,
        "ranking": ranking,
        "snapshot": (
            snapshot.results_version,
            snapshot.results_expected,
            snapshot.results_entered,
            snapshot.complete,
            snapshot.data,
        ),
    }


def plays(event: Event) -> list[tuple[Table, Deal]]:
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    out = []
    for play in event.schedule.plays():
        if play.sits_out:
            continue
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
            out.append((tables[play.table], deal))
    return out


def apply_change(event: Event, director: Any, rng: random.Random, kind: str) -> None:
    stored = list(TableResult.objects.filter(event=event).select_related("table", "deal"))
    entered = {(result.table_id, result.deal_id) for result in stored}
    free = [(table, deal) for table, deal in plays(event) if (table.pk, deal.pk) not in entered]
    if kind == "submit" and free:
        table, deal = rng.choice(free)
        table_result_enter(table=table, deal=deal, outcome=random_outcome(rng, deal))
    elif kind == "correct" and stored:
        result = rng.choice(stored)
        table_result_director_correct(
            result=result,
            outcome=random_outcome(rng, result.deal),
            actor=director,
            reason="wrong card",
        )
    elif kind == "artificial" and stored:
        result = rng.choice(stored)
        table_result_assign_artificial(
            event=event, table=result.table, deal=result.deal, actor=director, reason="late",
            percentages={"N": "60", "E": "40", "S": "57.5", "W": "42.5"},
        )  # fmt: skip
    elif kind == "not_played" and stored:
        result = rng.choice(stored)
        table_result_mark_not_played(
            event=event, table=result.table, deal=result.deal, actor=director, reason="time"
        )
    elif kind == "penalty":
        entrant = rng.choice(list(event.entrants.filter(phantom=False)))
        penalty_record(event=event, entrant=entrant, points="0.5", reason="noise", actor=director)


CHANGES = st.lists(
    st.sampled_from(["submit", "correct", "artificial", "not_played", "penalty"]),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    format=st.sampled_from(["individual", "individual", "quadrette"]),
    seed=st.integers(0, 10_000),
    changes=CHANGES,
    from_database=st.booleans(),
)
def test_incremental_recompute_equals_the_full_one(
    format: str, seed: int, changes: list[str], from_database: bool
):
    rng = random.Random(seed)
    if format == "individual":
        event = running_event(tables=rng.randint(3, 5), deals_per_round=2, seed=seed % 7)
    else:
        event = running_team_event(format=Event.Format.QUADRETTE, teams=4)
    director = OrganiserFactory(clubs=[event.club])
    for round_number in event.schedule.round_numbers[: rng.randint(1, 3)]:
        enter_round(event, round_number, rng)
    standings_recompute(event_id=event.pk)
    before = {
        pk: deal for pk, deal in HandScore.objects.filter(event=event).values_list("pk", "deal_id")
    }
    published = StandingsSnapshot.objects.get(event=event).results_version

    for kind in changes:
        apply_change(event, director, rng, kind)
    event.refresh_from_db()
    changed = set(
        TableResult.objects.filter(event=event, version__gt=published).values_list(
            "deal_id", flat=True
        )
    )
    incremental = 2 * len(changed) <= event.deals.count()

    if from_database:
        forget_published_hands()  # the unchanged deals' hands are read back from the database
    standings_recompute(event_id=event.pk)  # incremental when few deals changed
    after_incremental = snapshot_rows(event)
    assert after_incremental["snapshot"][0] == event.results_version
    kept = {pk for pk, deal in before.items() if deal not in changed}
    still_there = set(HandScore.objects.filter(pk__in=kept).values_list("pk", flat=True))
    if incremental:
        assert still_there == kept  # untouched deals were not rewritten
    standings_recompute(event_id=event.pk, force=True, full=True)
    assert snapshot_rows(event) == after_incremental


def test_penalty_only_reranks_from_the_stored_hands():
    event = running_event(tables=4, deals_per_round=2)
    rng = random.Random(3)
    enter_round(event, 1, rng)
    standings_recompute(event_id=event.pk)
    hand_pks = set(HandScore.objects.filter(event=event).values_list("pk", flat=True))
    entrant = event.entrants.filter(phantom=False).first()
    assert entrant is not None
    director = OrganiserFactory(clubs=[event.club])
    penalty_record(event=event, entrant=entrant, points="2", reason="late", actor=director)
    standings_recompute(event_id=event.pk)
    assert set(HandScore.objects.filter(event=event).values_list("pk", flat=True)) == hand_pks
    # (the organisers' row: the deals of round 1 are still to be played at other tables)
    row = RankingEntry.objects.get(event=event, entrant=entrant, kind="individual", published=False)
    assert str(row.penalty) == "2.00"


# ------------------------------------------------------------------------ coalescing


def test_one_request_until_a_task_starts_and_a_lost_one_expires():
    event = running_event(tables=3, deals_per_round=1)
    assert standings_request(event_id=event.pk) is True
    assert standings_request(event_id=event.pk) is False  # one is queued: it will read this too
    state = RecomputeState.objects.get(event_id=event.pk)
    RecomputeState.objects.filter(pk=state.pk).update(
        queued_at=state.queued_at - QUEUED_STALE - QUEUED_STALE
    )
    assert standings_request(event_id=event.pk) is True  # the queued message was lost
    standings_refresh(event_id=event.pk)  # the task starts: the request is served
    assert RecomputeState.objects.get(event_id=event.pk).queued_at is None
    assert standings_request(event_id=event.pk) is True


def test_a_second_worker_does_not_recompute_while_the_lease_is_held():
    event = running_event(tables=3, deals_per_round=1)
    enter_round(event, 1, random.Random(1))
    assert scoring_services._lease(event.pk, "other-worker")
    assert standings_refresh(event_id=event.pk) is None  # nothing published: the holder will
    assert not StandingsSnapshot.objects.filter(event=event).exists()
    scoring_services._release(event.pk, "other-worker")
    event.refresh_from_db()
    assert standings_refresh(event_id=event.pk) == event.results_version


def test_refresh_chains_recomputes_until_the_snapshot_is_current(monkeypatch):
    """Results committed while a recompute runs are scored by the same refresh."""
    event = running_event(tables=3, deals_per_round=1)
    rng = random.Random(2)
    enter_round(event, 1, rng)
    free = plays(event)[3:6]
    original = scoring_services.standings_recompute
    calls: list[int] = []

    def recompute_then_a_result_arrives(**kwargs: Any) -> StandingsSnapshot:
        snapshot = original(**kwargs)
        if len(calls) < len(free):
            table, deal = free[len(calls)]
            table_result_enter(table=table, deal=deal, outcome=random_outcome(rng, deal))
        calls.append(snapshot.results_version)
        return snapshot

    monkeypatch.setattr(scoring_services, "standings_recompute", recompute_then_a_result_arrives)
    version = standings_refresh(event_id=event.pk)
    event.refresh_from_db()
    assert version == event.results_version
    assert len(calls) == len(free) + 1


# ---------------------------------------------------------------- real concurrency

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent sessions need PostgreSQL"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_postgres_twenty_writers_commit_while_a_recompute_reads(monkeypatch):
    event = running_event(tables=8, deals_per_round=2)
    rng = random.Random(11)
    enter_round(event, 1, rng)
    standings_recompute(event_id=event.pk)
    entered = set(TableResult.objects.values_list("table_id", "deal_id"))
    todo = [(t, d) for t, d in plays(event) if (t.pk, d.pk) not in entered][:20]
    assert len(todo) == 20

    paused, resume = threading.Event(), threading.Event()
    original_score = scoring_services._score

    def slow_score(*args: Any, **kwargs: Any) -> Any:
        paused.set()  # inside the recompute's REPEATABLE READ transaction
        assert resume.wait(30)
        return original_score(*args, **kwargs)

    monkeypatch.setattr(scoring_services, "_score", slow_score)
    sent: list[int] = []  # the task as a broker would receive it (not run in the writer)

    class Task:
        def delay(self, event_id: int) -> None:
            sent.append(event_id)

        def apply_async(self, args: tuple[int], **options: Any) -> None:
            sent.append(args[0])

    monkeypatch.setattr(scoring_signals, "standings_recompute_task", Task())
    stale: list[int] = []

    def recompute() -> None:
        try:
            stale.append(standings_recompute(event_id=event.pk, force=True).results_version)
        finally:
            connections.close_all()

    reader = threading.Thread(target=recompute)
    reader.start()
    assert paused.wait(30)
    done: list[str] = []
    errors: list[BaseException] = []

    def write(table: Table, deal: Deal, outcome: dict[str, Any]) -> None:
        try:
            done.append(table_result_enter(table=table, deal=deal, outcome=outcome).kind)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    writers = [
        threading.Thread(target=write, args=(table, deal, random_outcome(rng, deal)))
        for table, deal in todo
    ]
    started = time.monotonic()
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=30)
    # Every writer finished while the recompute was still paused in its read: none waited.
    blocked = [writer for writer in writers if writer.is_alive()]
    elapsed = time.monotonic() - started
    resume.set()  # before any assertion: the reader must end
    assert not blocked
    assert not errors
    assert done == ["played"] * 20
    assert elapsed < 30
    assert sent == [event.pk]  # 20 results, one task queued: the requests coalesced
    reader.join(timeout=30)
    monkeypatch.setattr(scoring_services, "_score", original_score)
    event.refresh_from_db()
    assert stale and stale[0] < event.results_version  # it published what it had read
    standings_refresh(event_id=event.pk)
    after_refresh = snapshot_rows(event)
    assert after_refresh["snapshot"][0] == event.results_version
    assert (
        len({row[0] for row in after_refresh["hands"]})
        == TableResult.objects.filter(event=event).count()
    )
    standings_recompute(event_id=event.pk, force=True, full=True)
    assert snapshot_rows(event) == after_refresh

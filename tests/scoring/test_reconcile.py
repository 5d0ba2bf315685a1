"""Standings catch up on their own: a lost recompute is sent again.

- the periodic reconciliation (Celery beat) sends a recompute for every event behind its
  results, and nothing once they are current;
- a task that could not be sent (broker down) leaves no "queued" mark behind, so the next
  request sends it;
- finishing an event always produces its final standings.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db.models import F

import scoring.signals as scoring_signals
from scoring.models import RecomputeState, StandingsSnapshot
from scoring.services import events_behind, standings_recompute, standings_request
from scoring.tasks import standings_reconcile_task
from tests.builders import enter_round, random_outcome, running_event
from tournaments import services
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db


def behind(event: Event) -> bool:
    event.refresh_from_db()
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    return snapshot is None or snapshot.results_version < event.results_version


class BrokerDown:
    def __init__(self) -> None:
        self.calls = 0

    def delay(self, *args: Any) -> None:
        self.calls += 1
        raise ConnectionError("broker unreachable")

    def apply_async(self, *args: Any, **kwargs: Any) -> None:
        self.delay()


def test_the_reconciliation_sends_a_recompute_for_every_event_behind() -> None:
    first = running_event(tables=3, deals_per_round=1)
    second = running_event(tables=3, deals_per_round=1)
    for event in (first, second):
        enter_round(event, 1, random.Random(event.pk))
        standings_recompute(event_id=event.pk)
    # Two results whose recompute was lost: the snapshots are behind.
    Event.objects.filter(pk=second.pk).update(results_version=F("results_version") + 2)
    assert events_behind() == [second.pk]
    assert standings_reconcile_task.apply().get() == [second.pk]  # eager: recomputed at once
    assert not behind(second) and not behind(first)
    assert standings_reconcile_task.apply().get() == []


def test_a_task_that_could_not_be_sent_is_sent_by_the_next_request(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    event = running_event(tables=3, deals_per_round=1)
    down = BrokerDown()
    monkeypatch.setattr(scoring_signals, "standings_recompute_task", down)
    table = Table.objects.get(event=event, number=1)
    deal = event.deals.get(deal_set=event.schedule.play(table=1, round=1).deal_set)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_result_enter(
            table=table, deal=deal, outcome=random_outcome(random.Random(1), deal)
        )
    assert down.calls == 1
    assert RecomputeState.objects.get(event=event).queued_at is None  # no stale "queued" mark
    assert behind(event)
    assert standings_request(event_id=event.pk) is True  # the next result would send it
    assert standings_reconcile_task.apply().get() == []  # ... or the reconciliation, once free
    RecomputeState.objects.filter(event=event).update(queued_at=None)
    monkeypatch.undo()
    assert standings_reconcile_task.apply().get() == [event.pk]
    assert not behind(event)


def test_finishing_an_event_produces_its_final_standings(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    event = running_event(tables=3, deals_per_round=1)
    down = BrokerDown()
    monkeypatch.setattr(scoring_signals, "standings_recompute_task", down)
    with django_capture_on_commit_callbacks(execute=True):
        for number in event.schedule.round_numbers:
            enter_round(event, number, random.Random(number))
    assert down.calls > 0 and behind(event)
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        services.event_finish(event=event)
    assert not behind(event)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.complete


def test_beat_runs_the_reconciliation() -> None:
    from config.celery import app

    entry = app.conf.beat_schedule["standings-reconcile"]
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
    assert 0 < entry["schedule"] <= 60  # within a minute of the broker coming back
    assert app.conf.broker_transport_options["visibility_timeout"] <= 600  # not Redis' hour

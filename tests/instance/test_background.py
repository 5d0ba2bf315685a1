"""Background work on the runner thread of a club's instance (``runner.background``)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from runner import background
from scoring.models import StandingsSnapshot
from tests.builders import first_play, random_outcome, running_event
from tournaments import services
from tournaments.models import Event


@pytest.fixture
def runner(settings: Any) -> Any:
    settings.DUPLITAROT_BACKGROUND = "thread"
    fresh = background.Runner()
    original = background.runner
    background.runner = fresh
    yield fresh
    fresh.stop(timeout=30)
    background.runner = original


def test_work_runs_off_the_caller_in_order_and_survives_a_failure(runner: Any) -> None:
    seen: list[tuple[str, int]] = []

    def work(number: int) -> None:
        seen.append((threading.current_thread().name, number))

    def broken() -> None:
        raise ValueError("boom")

    background.run(work, 1)
    background.run(broken)
    background.run(work, 2)
    assert runner.wait_idle(30)
    assert seen == [("duplitarot-runner", 1), ("duplitarot-runner", 2)]


def test_periodic_work_runs_on_the_runner(runner: Any) -> None:
    ticks = threading.Event()
    runner.every(0.05, ticks.set)
    runner.start()
    assert ticks.wait(10)


def test_eager_work_runs_in_the_caller(settings: Any) -> None:
    settings.DUPLITAROT_BACKGROUND = "eager"
    seen: list[str] = []
    background.run(lambda: seen.append(threading.current_thread().name))
    assert seen == [threading.current_thread().name]


@pytest.mark.django_db(transaction=True)
def test_a_save_answers_before_the_standings_and_the_runner_brings_them_up_to_date(
    runner: Any,
) -> None:
    """(One save at a time: the test database is SQLite in memory, whose shared cache locks
    whole tables between threads; a club's instance runs on a file in WAL mode, tested under
    load through the serve command.)"""
    event = running_event(tables=3, deals_per_round=2)
    table, deal, _play = first_play(event)
    runner_names: list[str] = []
    original = runner.submit

    def submit(function: Any, *args: Any, **options: Any) -> None:
        runner_names.append(getattr(function, "__name__", ""))
        original(function, *args, **options)

    runner.submit = submit
    services.table_result_enter(
        table=table, deal=deal, outcome=random_outcome(random.Random(3), deal)
    )
    assert runner_names == ["standings_recompute_task"]
    assert runner.wait_idle(60)
    version = Event.objects.get(pk=event.pk).results_version
    assert version > 0
    assert StandingsSnapshot.objects.get(event=event).results_version == version


def test_work_sent_with_a_delay_waits_that_long(runner: Any) -> None:
    """What a club's runner does with a save's recompute: it starts ``coalesce`` seconds later."""
    sent = time.monotonic()
    ran: list[float] = []
    runner.submit(lambda: ran.append(time.monotonic()), delay=0.3)
    assert runner.wait_idle(30)
    assert len(ran) == 1 and ran[0] - sent >= 0.3

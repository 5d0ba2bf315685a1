"""End to end on the real services: PostgreSQL, Redis and a real Celery worker.

A 7-table individual event (H3's generated line movement, seeded deals from ``rules``, outcomes
from ``rules``' simulated play) is entered through the REST API with table codes; each result
sends the recompute task on commit to a worker subprocess (its own queue, pointed at the
pytest-django test database). Checked:

- the snapshot reaches the event's final ``results_version`` (bounded wait);
- its hand scores and rankings equal ``manage.py score_event --format json`` run on the same
  results written in the score_event file format (docs/score-event-format.md);
- the same result fired twice concurrently (two threads, two database connections) is stored
  once: one 201, and one 200 (an idempotent replay of the same outcome).

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/dt_h5 REDIS_URL=redis://127.0.0.1:6379/5
uv run pytest tests/integration -q`` (skipped without PostgreSQL and Redis).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from rest_framework.test import APIClient

from config.celery import app as celery_app
from rules.deal import deal_cards, deal_to_text, has_petit_sec
from rules.enums import Contract
from rules.scoring import outcome_to_dict
from rules.simulation import simulate_deal
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from tests.builders import running_event
from tournaments.models import SEATS, Event, TableResult
from tournaments.selectors import result_outcome

ROOT = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
WAIT_SECONDS = 180

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("services"),  # one at a time with the others that start services
    pytest.mark.skipif(
        not DATABASE_URL.startswith(("postgres://", "postgresql://")) or not REDIS_URL,
        reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: the real services",
    ),
]


def worker_database_url() -> str:
    """DATABASE_URL with the database name replaced by pytest-django's test database."""
    parts = urlsplit(DATABASE_URL)
    return urlunsplit(parts._replace(path="/" + settings.DATABASES["default"]["NAME"]))


@pytest.fixture
def worker_queue(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A Celery worker subprocess consuming a queue of its own; killed at teardown.

    Tasks sent by this process go to Redis even when CI asks for eager tasks elsewhere.
    """
    queue = f"h5-live-{uuid.uuid4().hex[:10]}"
    hostname = f"{queue}@localhost"
    settings.SCORING_QUEUE = queue
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    env = {
        **os.environ,
        "DATABASE_URL": worker_database_url(),
        "REDIS_URL": REDIS_URL,
        "CELERY_BROKER_URL": REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DATABASE_CONN_MAX_AGE": "0",
    }
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    log = log_path.open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--concurrency=1", "-Q", queue, "-n", hostname, "--without-gossip",
         "--without-mingle", "--without-heartbeat", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(f"the Celery worker exited with {process.returncode}: "
                            f"{log_path.read_text()[-2000:]}")  # fmt: skip
            if celery_app.control.ping(destination=[hostname], timeout=1.0):
                break
        else:
            pytest.fail("the Celery worker did not answer within 60 s")
        yield log_path
    finally:
        celery_app.conf.task_always_eager = eager
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        log.close()


def seeded_deals(event: Event, seed: int) -> None:
    """Give every deal real cards (no petit sec), so outcomes come from simulated play."""
    rng = random.Random(seed)
    for deal in event.deals.order_by("number"):
        dealer = SEATS.index(deal.dealer_seat)
        dealt = deal_cards(4, rng, dealer)
        while has_petit_sec(dealt):
            dealt = deal_cards(4, rng, dealer)
        deal.cards = deal_to_text(dealt)
        deal.save(update_fields=["cards"])


def simulated_outcome(event: Event, deal_number: int, table: int) -> dict[str, Any]:
    from rules.deal import deal_from_text

    deal = event.deals.get(number=deal_number)
    rng = random.Random(deal_number * 1000 + table)
    played = simulate_deal(
        deal_from_text(deal.cards), rng, taker_seat=deal.taker_seat, min_contract=Contract.GARDE
    )
    assert played.outcome is not None
    outcome = outcome_to_dict(played.outcome)
    outcome.pop("partner", None)
    return outcome


def score_event_file(event: Event, path: Path) -> None:
    """The event's stored results in the score_event format (ids as the recompute uses)."""
    entrants = [{"id": f"e{e.pk}", "line": e.line} for e in event.entrants.all()]
    scheduled: dict[int, int] = {}
    for play in event.schedule.plays():
        for deal in event.deals.filter(deal_set=play.deal_set):
            scheduled[deal.number] = scheduled.get(deal.number, 0) + 1
    deals = [
        {"number": d.number, "taker_seat": d.taker_seat, "scheduled": scheduled[d.number]}
        for d in event.deals.order_by("number")
    ]
    results = []
    for result in TableResult.objects.filter(event=event).select_related("deal", "table"):
        outcome = result_outcome(result)
        assert outcome is not None
        outcome.pop("taker_seat")
        seats = {seat: f"e{pk}" for seat, pk in result.seat_entrant_ids().items()}
        results.append(
            {
                "deal": result.deal.number,
                "table": result.table.number,
                "seats": seats,
                "outcome": outcome,
            }
        )
    document = {
        "title": event.name,
        "entrants": entrants,
        "deals": deals,
        "results": results,
        "options": {"rank_by_line": True},
    }
    path.write_text(json.dumps(document), encoding="utf-8")


def two_places(text: str) -> Decimal:
    value = Fraction(text) if "/" in text else Fraction(Decimal(text))
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@pytest.mark.django_db(transaction=True)
def test_live_event_through_the_api_matches_score_event(worker_queue: Path, tmp_path: Path):
    event = running_event(tables=7, seed=5, deals_per_round=2)
    seeded_deals(event, seed=11)
    client = APIClient()
    plays = [
        (play.table, deal.number)
        for play in event.schedule.plays()
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number")
    ]
    codes = {t.number: t.code for t in event.tables.all()}
    *sequential, (race_table, race_deal) = plays
    for table, deal in sequential:
        response = client.post(
            f"/api/v1/tables/{codes[table]}/results/",
            {"deal": deal, "outcome": simulated_outcome(event, deal, table)},
            format="json",
        )
        assert response.status_code == 201, response.json()

    # The last result, fired twice at once from two threads (two database connections).
    race_outcome = simulated_outcome(event, race_deal, race_table)
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def fire() -> None:
        try:
            thread_client = APIClient()
            barrier.wait(timeout=10)
            response = thread_client.post(
                f"/api/v1/tables/{codes[race_table]}/results/",
                {"deal": race_deal, "outcome": race_outcome},
                format="json",
            )
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=fire) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [200, 201]  # the second is an identical replay
    assert TableResult.objects.filter(event=event).count() == len(plays) == 7 * 7 * 2

    # The worker brings the snapshot to the final version.
    event.refresh_from_db()
    assert event.results_version == len(plays)
    deadline = time.monotonic() + WAIT_SECONDS
    snapshot = None
    while time.monotonic() < deadline:
        snapshot = StandingsSnapshot.objects.filter(event=event).first()
        if snapshot is not None and snapshot.results_version == event.results_version:
            break
        time.sleep(0.5)
    assert snapshot is not None and snapshot.results_version == event.results_version, (
        f"snapshot stuck at {snapshot and snapshot.results_version} of {event.results_version}"
    )
    assert snapshot.complete
    # Computed by the worker, not in this process.
    worker_log = worker_queue.read_text()
    assert worker_log.count("standings_recompute_task") >= 1
    assert "succeeded" in worker_log
    assert snapshot.results_entered == snapshot.results_expected == len(plays)

    # Same standings as score_event on the same results.
    path = tmp_path / "event.json"
    score_event_file(event, path)
    out = StringIO()
    call_command("score_event", str(path), "--format", "json", stdout=out)
    expected = json.loads(out.getvalue())
    ranking = list(
        RankingEntry.objects.filter(event=event, kind="individual").order_by("rank", "entrant_id")
    )
    assert sorted(
        (r.rank, f"e{r.entrant_id}", r.percentage, r.marks_total, r.deals_played) for r in ranking
    ) == sorted(
        (row["rank"], row["entrant"], Decimal(row["percentage"]), row["marks"], row["deals"])
        for row in expected["individual"]
    )
    line_ranks = {
        (f"e{r.entrant_id}", r.rank) for r in RankingEntry.objects.filter(event=event, kind="line")
    }
    assert line_ranks == {(row["entrant"], row["line_rank"]) for row in expected["individual"]}
    hands = {
        (h.deal.number, h.table_number, h.seat): (
            f"e{h.entrant_id}",
            h.mark,
            h.percentage,
            h.matchpoints,
        )
        for h in HandScore.objects.filter(event=event).select_related("deal")
    }
    assert hands == {
        (row["deal"], row["table"], row["seat"]): (
            row["entrant"],
            row["mark"],
            Decimal(row["percentage"]),
            two_places(row["matchpoints"]),
        )
        for row in expected["hands"]
    }
    assert len(hands) == 4 * len(plays)

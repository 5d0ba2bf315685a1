"""Fault tolerance: what a tournament room lives through when a service fails.

Unit level (always run): ``config.errors`` turns a database outage anywhere in a request into a
503 with ``Retry-After`` (JSON ``{"code": "database_unavailable"}`` under ``/api/``, a short
French page elsewhere) and any other unhandled exception into a 500 of the same kind.

With real processes (``integration``; processes from :mod:`tests.integration.processes`, all on
loopback, all stopped in ``finally`` blocks whatever happens):

1. **Redis down during entry**: gunicorn and a Celery worker with its beat on a private
   ``redis-server`` (cache and broker); Redis is killed, results are entered (every one stored,
   201), the ranking and projector pages answer 200 and say the ranking is being updated; Redis
   is started again on the same port and the standings catch up with no new result (the
   periodic reconciliation, ``STANDINGS_RECONCILE_SECONDS`` shortened).
2. **Worker killed mid-recompute**: the whole process group of a worker is SIGKILLed while it
   recomputes a large event; the previous snapshot stays whole and readable; a new worker gets
   the lost task back from the broker (``CELERY_VISIBILITY_TIMEOUT`` shortened to just over the
   recompute lease) and completes the recompute.
3. **Database restarted twice during entry**: a private PostgreSQL (``initdb``) behind gunicorn
   is restarted (fast, then immediate shutdown) while clients enter many results; every
   acknowledged result is stored, every failure is a 503 JSON with ``Retry-After``, no
   duplicate, no half-written row, and resending the failures stores them or replays them.

The figures each fault test observed are printed (``-s`` shows them) and appended to the file
named by ``FAULTS_REPORT`` when set.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django import db
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.utils import translation

from bench.scale import _fill_results, _first_plays, scale_event_build
from config.celery import app as celery_app
from runner.faults import database_unavailable
from scoring.models import HandScore, RankingEntry, RecomputeState, StandingsSnapshot
from scoring.services import LEASE, standings_recompute
from scoring.tasks import standings_recompute_task
from tests.builders import random_outcome, running_event
from tests.integration.processes import (
    PostgresServer,
    RedisServer,
    app_environment,
    kill_group,
    log_tail,
    postgres_available,
    request,
    shared_database_url,
    start_gunicorn,
    start_worker,
    stop,
    wait_until,
)
from tournaments.models import Event, Table, TableResult

ROOT = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRESQL = DATABASE_URL.startswith(("postgres://", "postgresql://"))
UPDATING_FR = "le classement est en cours de mise à jour"
UPDATING_EN = "the ranking is being updated"

needs_postgresql_and_redis = pytest.mark.skipif(
    not ON_POSTGRESQL or shutil.which("redis-server") is None,
    reason="needs DATABASE_URL (PostgreSQL, shared with the processes started) and "
    "redis-server (a private one is started)",
)
# Parallel runs (pytest-xdist, --dist loadgroup): the tests that start servers and workers of their
# own run one after the other on one worker, not two at once on a small machine.
pytestmark = pytest.mark.xdist_group("services")


def observed(name: str, figures: dict[str, Any]) -> None:
    """Print what a fault test observed, and append it to ``$FAULTS_REPORT`` when set."""
    line = json.dumps({"fault": name, **figures}, sort_keys=True)
    print(line)
    target = os.environ.get("FAULTS_REPORT")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(line + "\n")


# ------------------------------------------------------------------- config.errors (unit)


def failing_cursor(error: BaseException) -> Any:
    """A replacement for ``CursorWrapper.execute``: every query raises ``error``."""

    def execute(self: CursorWrapper, sql: str, params: Any = None) -> Any:
        raise error

    return execute


def answer(path: str, error: BaseException, monkeypatch: pytest.MonkeyPatch) -> Any:
    client = Client(raise_request_exception=False)
    with monkeypatch.context() as patch:
        patch.setattr(CursorWrapper, "execute", failing_cursor(error))
        return client.get(path)


@pytest.mark.django_db
def test_database_outage_in_an_api_view_is_a_503_json(monkeypatch: pytest.MonkeyPatch):
    response = answer("/api/v1/events/", db.OperationalError("connection refused"), monkeypatch)
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "database_unavailable"
    assert response.json()["detail"]
    assert int(response["Retry-After"]) > 0
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_database_outage_in_a_page_is_a_short_french_503_page(monkeypatch: pytest.MonkeyPatch):
    response = answer("/", db.OperationalError("the database system is starting up"), monkeypatch)
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert '<html lang="fr">' in page
    with translation.override("fr"):
        assert translation.gettext("Try again in a moment") in page
    assert "Traceback" not in page and "OperationalError" not in page


@pytest.mark.django_db
def test_the_503_page_follows_the_language_of_the_url(monkeypatch: pytest.MonkeyPatch):
    response = answer("/en/", db.InterfaceError("connection already closed"), monkeypatch)
    assert response.status_code == 503
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert "Try again in a moment" in page


@pytest.mark.django_db
def test_a_psycopg_error_in_the_cause_chain_is_a_database_outage(
    monkeypatch: pytest.MonkeyPatch,
):
    try:
        try:
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        except psycopg.OperationalError as cause:
            raise RuntimeError("while publishing the standings") from cause
    except RuntimeError as error:
        wrapped = error
    response = answer("/api/v1/events/", wrapped, monkeypatch)
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"


@pytest.mark.django_db
def test_another_exception_in_an_api_view_is_a_500_json(monkeypatch: pytest.MonkeyPatch):
    response = answer("/api/v1/events/", ZeroDivisionError("a bug"), monkeypatch)
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    assert "Retry-After" not in response
    assert "a bug" not in response.content.decode()


@pytest.mark.django_db
def test_another_exception_in_a_page_is_a_500_page(monkeypatch: pytest.MonkeyPatch):
    response = answer("/", ZeroDivisionError("a bug"), monkeypatch)
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert '<html lang="fr">' in page
    with translation.override("fr"):
        assert translation.gettext("Server error") in page
    assert "a bug" not in page and "Retry-After" not in response


def test_database_unavailable_reads_the_whole_chain_and_stops_on_a_loop():
    assert not database_unavailable(None)
    assert not database_unavailable(ValueError("bad input"))
    assert database_unavailable(db.OperationalError("gone"))
    first, second = ValueError("first"), KeyError("second")
    first.__context__, second.__context__ = second, first  # a loop: must still answer
    assert not database_unavailable(first)
    outer = RuntimeError("outer")
    outer.__cause__ = psycopg.InterfaceError("connection is closed")
    assert database_unavailable(outer)


# --------------------------------------------------------------------- shared for faults


def table_codes(event: Event) -> dict[int, str]:
    return dict(Table.objects.filter(event=event).values_list("number", "code"))


def round_plays(event: Event, round_number: int) -> list[tuple[int, int]]:
    """(table, deal number) of every deal of a round, table by table."""
    plays = []
    for play in event.schedule.plays():
        if play.round == round_number:
            for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
                plays.append((play.table, deal.number))
    return plays


def snapshot_version(event_id: int) -> int | None:
    return (
        StandingsSnapshot.objects.filter(event_id=event_id)
        .values_list("results_version", flat=True)
        .first()
    )


def results_version(event_id: int) -> int:
    return int(Event.objects.values_list("results_version", flat=True).get(pk=event_id))


@pytest.fixture
def eager_off() -> Iterator[None]:
    """Tasks sent by this process go to a broker even when the run asks for eager tasks."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = eager


# ------------------------------------------------------------------ 1. Redis during entry


@pytest.mark.integration
@needs_postgresql_and_redis
@pytest.mark.django_db(transaction=True)
def test_redis_down_during_entry_then_standings_catch_up(tmp_path: Path):
    redis = RedisServer(tmp_path)
    web = worker = None
    try:
        redis.start()
        event = running_event(tables=5, seed=21, deals_per_round=2)
        codes = table_codes(event)
        rng = random.Random(21)
        env = app_environment(
            database_url=shared_database_url(),
            redis_url=redis.url(0),
            broker_url=redis.url(1),
            STANDINGS_RECONCILE_SECONDS="2",
            DATABASE_CONN_MAX_AGE="0",
        )
        web, port = start_gunicorn(env, tmp_path / "gunicorn.log")
        worker_log = tmp_path / "worker.log"
        worker = start_worker(
            env, worker_log, name="faults-redis", beat_schedule=tmp_path / "beat-schedule"
        )

        def enter(round_number: int) -> list[tuple[int | None, float]]:
            answers = []
            for table, deal in round_plays(event, round_number):
                started = time.monotonic()
                status, _headers, body = request(
                    port,
                    "POST",
                    f"/api/v1/tables/{codes[table]}/results/",
                    {"deal": deal, "outcome": random_outcome(rng, event.deals.get(number=deal))},
                )
                answers.append((status, time.monotonic() - started))
                assert status == 201, body[:500]
            return answers

        # Redis up: entry is scored by the worker (the chain works before the fault).
        enter(1)
        assert wait_until(
            lambda: snapshot_version(event.pk) == results_version(event.pk), seconds=60
        ), log_tail(worker_log)
        caught_up_version = results_version(event.pk)

        redis.kill()
        killed = time.monotonic()
        down = enter(2) + enter(3)
        stored = TableResult.objects.filter(event=event).count()
        assert stored == len(round_plays(event, 1)) * 3
        assert snapshot_version(event.pk) == caught_up_version  # nothing could be sent
        pages = {}
        for path, text in (
            (f"/events/{event.pk}/ranking/", UPDATING_FR),
            (f"/events/{event.pk}/ranking/projector/", UPDATING_FR),
            (f"/en/events/{event.pk}/ranking/", UPDATING_EN),
        ):
            started = time.monotonic()
            status, _headers, body = request(port, "GET", path)
            pages[path] = round(time.monotonic() - started, 3)
            assert status == 200, body[:500]
            assert text in body.decode(), path
        # Let beat tick (and fail) a few times while the broker is away.
        time.sleep(4)
        assert worker.poll() is None, log_tail(worker_log)
        outage = time.monotonic() - killed

        redis.start()
        back = time.monotonic()
        caught_up = wait_until(
            lambda: snapshot_version(event.pk) == results_version(event.pk), seconds=120
        )
        catch_up_seconds = time.monotonic() - back
        assert caught_up, (
            f"snapshot {snapshot_version(event.pk)} of {results_version(event.pk)}: "
            f"{log_tail(worker_log)}"
        )
        assert worker.poll() is None
        status, _headers, body = request(port, "GET", f"/events/{event.pk}/ranking/")
        assert status == 200 and UPDATING_FR not in body.decode()
        observed(
            "redis killed during entry",
            {
                "results_entered_while_down": len(down),
                "answers_while_down": sorted({status for status, _ in down}),
                "slowest_entry_while_down_s": round(max(seconds for _, seconds in down), 3),
                "page_seconds_while_down": pages,
                "outage_s": round(outage, 1),
                "catch_up_after_redis_back_s": round(catch_up_seconds, 1),
                "reconcile_interval_s": 2,
                "snapshot_version": snapshot_version(event.pk),
            },
        )
    finally:
        stop(worker)
        stop(web)
        redis.stop()


# ----------------------------------------------------------- 2. worker killed mid-recompute

#: Large enough for a full recompute to take a few seconds (a window to kill it in).
BIG_TABLES, BIG_ROUNDS, BIG_DEALS = 400, 6, 4


def ranking_rows(event_id: int) -> list[tuple[Any, ...]]:
    return list(
        RankingEntry.objects.filter(event_id=event_id)
        .order_by("kind", "rank", "entrant_id")
        .values_list("kind", "rank", "entrant_id", "percentage")
    )


@pytest.mark.integration
@needs_postgresql_and_redis
@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_recompute_then_a_new_worker_completes_it(
    tmp_path: Path, eager_off: None
):
    redis = RedisServer(tmp_path)
    worker_a = worker_b = None
    visibility = int(LEASE.total_seconds()) + 10  # the redelivered task finds the lease free
    try:
        redis.start()
        built = time.monotonic()
        event = scale_event_build(
            tables=BIG_TABLES, rounds=BIG_ROUNDS, deals_per_round=BIG_DEALS, fill=40, seed=4
        )
        first = standings_recompute(event_id=event.pk)
        before_rows = ranking_rows(event.pk)
        before_hands = HandScore.objects.filter(event_id=event.pk).count()
        assert first.results_version == 1 and before_rows and before_hands
        # The other rounds arrive (more than half of the deals change: a full recompute).
        plays = _first_plays(event, 100)
        done = TableResult.objects.filter(event=event).count()
        _fill_results(
            event,
            plays[done:],
            seed=4,
            version=2,
            outcomes_per_deal=12,
            tables_of_set=event.schedule.tables_per_deal_set(),
            outcomes={},
            draw=random.Random(5),
        )
        Event.objects.filter(pk=event.pk).update(results_version=2)
        build_seconds = time.monotonic() - built

        env = app_environment(
            database_url=shared_database_url(),
            broker_url=redis.url(1),
            CELERY_VISIBILITY_TIMEOUT=str(visibility),
            DATABASE_CONN_MAX_AGE="0",
        )
        log_a, log_b = tmp_path / "worker-a.log", tmp_path / "worker-b.log"
        worker_a = start_worker(env, log_a, name="faults-a")
        with celery_app.connection_for_write(redis.url(1)) as connection:
            task_id = standings_recompute_task.apply_async((event.pk,), connection=connection).id
        sent = time.monotonic()

        def recomputing() -> bool:
            return RecomputeState.objects.filter(event_id=event.pk).exclude(lease_owner="").exists()

        assert wait_until(recomputing, seconds=60, interval=0.02), log_tail(log_a)
        started = time.monotonic()
        kill_group(worker_a)
        killed = time.monotonic()
        assert worker_a.poll() is not None

        # The previous snapshot: untouched, whole, readable; the page says it is being updated.
        assert snapshot_version(event.pk) == 1, "the recompute ended before the kill"
        assert ranking_rows(event.pk) == before_rows
        assert HandScore.objects.filter(event_id=event.pk).count() == before_hands
        page = Client().get(f"/en/events/{event.pk}/ranking/")
        assert page.status_code == 200 and UPDATING_EN in page.content.decode()

        worker_b = start_worker(env, log_b, name="faults-b")
        restarted = time.monotonic()
        # Redis' transport puts unacknowledged messages older than the visibility timeout back
        # about every 100 s (every 10th 10-second poll): redelivery within timeout + 100 s.
        completed = wait_until(
            lambda: snapshot_version(event.pk) == 2, seconds=visibility + 200, interval=1.0
        )
        done_at = time.monotonic()
        assert completed, f"snapshot {snapshot_version(event.pk)}: {log_tail(log_b)}"
        snapshot = StandingsSnapshot.objects.get(event_id=event.pk)
        assert snapshot.complete
        assert snapshot.results_entered == TableResult.objects.filter(event=event).count()
        assert HandScore.objects.filter(event_id=event.pk).count() == 4 * len(plays)
        # The killed worker's own task, given back by the broker after the visibility timeout.
        # The snapshot commits before the task returns: its "succeeded" line follows shortly.
        succeeded = f"standings_recompute_task[{task_id}] succeeded"
        wait_until(lambda: succeeded in log_b.read_text(), seconds=60, interval=0.5)
        worker_b_log = log_b.read_text()
        assert succeeded in worker_b_log, worker_b_log
        observed(
            "worker SIGKILLed mid-recompute",
            {
                "tables": BIG_TABLES,
                "results": len(plays),
                "build_s": round(build_seconds, 1),
                "sent_to_recompute_started_s": round(started - sent, 2),
                "recompute_started_to_kill_s": round(killed - started, 2),
                "visibility_timeout_s": visibility,
                "lease_s": int(LEASE.total_seconds()),
                "kill_to_new_worker_s": round(restarted - killed, 1),
                "kill_to_snapshot_current_s": round(done_at - killed, 1),
            },
        )
    finally:
        stop(worker_a)
        stop(worker_b)
        redis.stop()


# ----------------------------------------------------------- 3. database restarts (twice)

DATABASE_NAME = "duplitarot_faults"
# Round 2 of a 60-table event: 240 results (a table code takes the deals of its round only).

ENTRY_TABLES, ENTRY_CLIENTS, ENTRY_PAUSE, FAILED_PAUSE = 60, 4, 0.12, 0.5

SETUP = """
import json, django
django.setup()
from bench.loadtest import build_event, table_plans
event = build_event(tables={tables}, rounds=4, deals_per_round=4, entry_round=2, seed=9)
entries = [
    {{"path": plan.path, "table": plan.table, "deal": deal, "outcome": outcome}}
    for plan in table_plans(event, 2, (0, 0), seed=11)
    for deal, outcome in zip(plan.deals, plan.outcomes)
]
print(json.dumps({{"event": event.pk, "version": event.results_version, "entries": entries}}))
"""


def stored_rows(url: str, event_id: int, base: int) -> list[tuple[Any, ...]]:
    """(table, deal, contract, oudlers, points_half, version, history lines) of the results
    stored after version ``base``."""
    with psycopg.connect(url, connect_timeout=10) as connection:
        return connection.execute(
            "SELECT t.number, d.number, r.contract, r.oudlers, r.points_half, r.version, "
            "(SELECT count(*) FROM tournaments_resultchange c WHERE c.result_id = r.id) "
            "FROM tournaments_tableresult r JOIN tournaments_table t ON t.id = r.table_id "
            "JOIN tournaments_deal d ON d.id = r.deal_id "
            "WHERE r.event_id = %s AND r.version > %s",
            [event_id, base],
        ).fetchall()


@pytest.mark.integration
@pytest.mark.skipif(bool(postgres_available()), reason=postgres_available() or "-")
def test_database_restarted_twice_during_entry(tmp_path: Path):
    server = PostgresServer()
    web = None
    try:
        server.init()
        server.start()
        with psycopg.connect(server.url("postgres"), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {DATABASE_NAME}")
        url = server.url(DATABASE_NAME)
        env = app_environment(database_url=url)  # persistent connections (CONN_MAX_AGE 60)
        manage = [sys.executable, str(ROOT / "manage.py")]
        migrated = subprocess.run(
            [*manage, "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert migrated.returncode == 0, migrated.stderr[-2000:]
        built = subprocess.run(
            [sys.executable, "-c", SETUP.format(tables=ENTRY_TABLES)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert built.returncode == 0, built.stderr[-2000:]
        setup = json.loads(built.stdout.strip().splitlines()[-1])
        event_id, base, entries = setup["event"], setup["version"], setup["entries"]
        web, port = start_gunicorn(env, tmp_path / "gunicorn.log")

        attempts: list[dict[str, Any]] = []
        lock = threading.Lock()
        restarts: list[dict[str, Any]] = []

        def post(entry: dict[str, Any]) -> dict[str, Any]:
            started = time.monotonic()
            status, headers, body = request(
                port, "POST", entry["path"], {"deal": entry["deal"], "outcome": entry["outcome"]}
            )
            try:
                data = json.loads(body) if body else None
            except ValueError:
                data = None
            return {
                "entry": entry,
                "status": status,
                "headers": headers,
                "data": data,
                "html": body.lstrip().startswith(b"<"),
                "started": started,
            }

        def client(mine: list[dict[str, Any]]) -> None:
            for entry in mine:
                attempt = post(entry)
                with lock:
                    attempts.append(attempt)
                # A phone told to try again waits a little (the failures are resent below).
                time.sleep(ENTRY_PAUSE if attempt["status"] in (200, 201) else FAILED_PAUSE)

        def done() -> int:
            with lock:
                return len(attempts)

        def acknowledged_count() -> int:
            with lock:
                return sum(1 for attempt in attempts if attempt["status"] in (200, 201))

        def restart(mode: str, after_acknowledged: int) -> None:
            wait_until(
                lambda: acknowledged_count() >= after_acknowledged, seconds=120, interval=0.05
            )
            record: dict[str, Any] = {"mode": mode, "at_attempt": done()}
            started = time.monotonic()
            server.stop(mode)
            stopped = time.monotonic()
            page = request(port, "GET", f"/events/{event_id}/ranking/")
            api = request(port, "GET", "/api/v1/events/?limit=1")
            record["page_while_down"] = (
                page[0],
                page[1].get("retry-after"),
                page[1].get("content-type"),
            )
            code = json.loads(api[2]).get("code") if api[0] == 503 else None
            record["api_while_down"] = (api[0], api[1].get("retry-after"), code)
            record["page_french"] = b'<html lang="fr">' in page[2]
            time.sleep(1.0)
            server.start()
            record["stop_s"] = round(stopped - started, 2)
            record["down_s"] = round(time.monotonic() - started, 2)
            record["attempts_while_down"] = done() - record["at_attempt"]
            record["window"] = (started, time.monotonic())
            restarts.append(record)

        clients = [
            threading.Thread(target=client, args=(entries[k::ENTRY_CLIENTS],), daemon=True)
            for k in range(ENTRY_CLIENTS)
        ]

        def restarts_during_entry() -> None:
            restart("fast", len(entries) // 5)
            restart("immediate", acknowledged_count() + len(entries) // 8)  # entry resumed between

        restarter = threading.Thread(target=restarts_during_entry, daemon=True)
        entry_started = time.monotonic()
        for thread in [*clients, restarter]:
            thread.start()
        for thread in [*clients, restarter]:
            thread.join(timeout=300)
        entry_seconds = time.monotonic() - entry_started
        assert not any(thread.is_alive() for thread in [*clients, restarter])
        assert len(restarts) == 2 and server.running()
        assert all(record["attempts_while_down"] > 0 for record in restarts), restarts
        for record in restarts:
            assert record["page_while_down"][:2] == (503, "5"), record
            assert record["page_while_down"][2].startswith("text/html"), record
            assert record["page_french"], record
            assert record["api_while_down"] == (503, "5", "database_unavailable"), record

        # Every answer: acknowledged, or a 503 JSON with Retry-After; never a 500, HTML, nothing.
        assert len(attempts) == len(entries)
        acknowledged = [a for a in attempts if a["status"] in (200, 201)]
        failed = [a for a in attempts if a["status"] not in (200, 201)]
        for attempt in failed:
            assert attempt["status"] == 503, attempt
            assert not attempt["html"] and attempt["data"]["code"] == "database_unavailable"
            assert int(attempt["headers"]["retry-after"]) > 0
        assert failed, "no request met the outage: the restarts missed the entry"

        # Every acknowledged result is stored, as sent; nothing twice, nothing half-written.
        rows = stored_rows(url, event_id, base)
        by_play = {(table, deal): row for table, deal, *row in rows}
        assert len(by_play) == len(rows)
        for attempt in acknowledged:
            entry = attempt["entry"]
            contract, oudlers, points_half, _version, history = by_play[
                (entry["table"], entry["deal"])
            ]
            outcome = entry["outcome"]
            assert (contract, oudlers, points_half) == (
                outcome["contract"],
                outcome["oudlers"],
                2 * outcome["points"],
            )
            assert history == 1
        first_pass_stored = len(rows)

        # The failures, sent again (a few tries, after Retry-After): stored now, or replayed.
        resent: dict[int | None, int] = {}
        for attempt in failed:
            for _try in range(5):
                again = post(attempt["entry"])
                resent[again["status"]] = resent.get(again["status"], 0) + 1
                if again["status"] in (200, 201):
                    break
                assert again["status"] == 503 and again["data"]["code"] == "database_unavailable"
                time.sleep(0.5)
            else:
                pytest.fail(f"not stored after 5 tries: {attempt['entry']}")
        rows = stored_rows(url, event_id, base)
        assert len(rows) == len({(table, deal) for table, deal, *_ in rows}) == len(entries)
        assert all(history == 1 for *_, history in rows)
        # One version per stored result, no gap: no bump without its row, no row without it.
        with psycopg.connect(url) as connection:
            (final,) = connection.execute(
                "SELECT results_version FROM tournaments_event WHERE id = %s", [event_id]
            ).fetchone()
        assert sorted(row[5] for row in rows) == list(range(base + 1, final + 1))
        # Sent once the database was back (before the next restart), yet failed: a persistent
        # connection (CONN_MAX_AGE) broken by the restart fails its next request, then is gone.
        windows = [record.pop("window") for record in restarts]
        for number, record in enumerate(restarts):
            back = windows[number][1]
            until = windows[number + 1][0] if number + 1 < len(windows) else float("inf")
            record["failed_after_back"] = sum(1 for a in failed if back <= a["started"] < until)
        observed(
            "postgresql restarted twice during entry",
            {
                "results": len(entries),
                "clients": ENTRY_CLIENTS,
                "entry_s": round(entry_seconds, 1),
                "first_pass": {
                    str(k): sum(1 for a in attempts if a["status"] == k)
                    for k in sorted({a["status"] for a in attempts})
                },
                "stored_after_first_pass": first_pass_stored,
                "failed_but_stored_anyway": first_pass_stored - len(acknowledged),
                "resent_answers": {str(k): v for k, v in sorted(resent.items())},
                "restarts": restarts,
            },
        )
    finally:
        stop(web)
        server.destroy()

"""The live-entry load test behind ``manage.py loadtest`` (see that command for the options).

What one run does, on loopback only:

1. **Its own services.** The database named by ``--database-url`` (PostgreSQL; its name must
   contain ``load``) is dropped, created and migrated; the Redis database of ``--redis-url``
   (a number other than 0) is flushed. Then a gunicorn (``config.wsgi``, ``--web-workers``
   processes of the ``gthread`` class with ``--web-threads`` threads each) and one Celery worker
   (``--celery-workers`` prefork processes, consuming the scoring queue) are started, each in a
   process group of its own, with ``DATABASE_URL``, ``REDIS_URL`` = ``CELERY_BROKER_URL``,
   ``CELERY_TASK_ALWAYS_EAGER=false`` and ``DJANGO_DEBUG=false``. The run waits (bounded) until
   the web server answers and the worker answers a ping, and always stops both at the end, on
   an error and on Ctrl-C too (SIGTERM to the group, a bounded wait, then SIGKILL). With
   ``--base-url`` nothing is started: the server there, and the worker behind it, are measured
   as they are (the database is migrated but kept, Redis is not flushed). With ``--serve``
   (:class:`ServeServer`) the server is a club's instance instead: ``python -m instance
   --data-dir DIR serve`` on the data folder this process's settings name (SQLite, waitress,
   the standings on its runner thread), started with a clean environment and waited for
   before anything is built; no PostgreSQL, no Redis, no queue to watch.
2. **Per size** (``--tables 50,200``): an individual event on that many tables
   (``--rounds`` rounds of ``--deals-per-round`` deals, the rounds before ``--round`` entered
   and scored, :func:`build_event`), then one client thread per table enters its deals of that
   round through the table API (``POST api:table_results`` with the table code, a keep-alive
   ``http.client`` connection, a random start within the first ``--start-ms``, think times
   drawn uniformly in ``--think-ms`` between deals). The default is a room at the end of a
   round: every table starts entering within 10 s and a deal takes 3 to 8 s to enter on the
   phone (contract, oudlers, points, a look at the marks); ``--start-ms 1000 --think-ms
   300,1500`` is a stress far beyond any room (200 tables then send ~170 saves a second).
   Before the first size a 3-table event's round is
   entered at once, unmeasured, and before each size every web thread reads a table and sends
   another outcome for an already-entered deal of round 1 (403: the table code's round is over
   there, nothing stored): the server is measured warm. A monitor samples, every 100 ms,
   the length of the scoring queue in Redis (``LLEN``) and the version of the event's
   standings snapshot.
3. **The figures** (:func:`run`, one dict per size): requests, throughput (acknowledged saves
   per second of the entry phase), p50/p95/p99/max latency of the requests that got an answer,
   every non-2xx by status and error code (timeouts and connection errors as status ``null``),
   rows stored for that round against 201s acknowledged (the stored count is read once the
   server has settled: no web request active in PostgreSQL and the count steady), the longest
   queue seen, the tasks the worker ran (from its log), the delay from the last acknowledged
   save to the first snapshot whose ``results_version`` reaches the event's, the slowest
   requests, and the CPU seconds the web server, the worker, this process and the whole
   machine used during the entry phase (Linux ``/proc``; ``other`` is mostly PostgreSQL, or
   whatever else runs on the machine).

Bounded: at most ``deals_per_round`` requests per client, a per-request timeout
(``--request-timeout``), an entry phase of at most :data:`ENTRY_SECONDS`, a settle wait of at
most :data:`SETTLE_SECONDS` and a ranking wait of at most :data:`RANKING_SECONDS`; every wait
also stops at the run's budget (``--max-seconds``) less :data:`STOP_RESERVE_SECONDS` for the
shutdown, and a size that no longer fits in the budget is reported as skipped.
"""

from __future__ import annotations

import contextlib
import ctypes
import datetime as dt
import http.client
import json
import math
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
import redis
from django.conf import settings
from django.core.management import call_command
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone
from psycopg import sql
from psycopg.conninfo import make_conninfo

from bench.scale import scale_event_build
from clubs.outcomes import prepared_hands
from config.celery import app as celery_app
from instance.backups import backups_found
from instance.cli import DEFAULT_THREADS as SERVE_THREADS
from instance.management.commands.serve import default_processes
from rules.deal import Deal as RulesDeal
from rules.feasibility import random_table_outcome
from rules.hand_checks import fitting_outcome
from scoring.models import StandingsSnapshot
from scoring.services import standings_recompute
from tournaments.models import SEATS, Event, Table, TableResult
from tournaments.movements.schedule import deal_numbers

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/duplitarot_load"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/9"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
# Set in the environment of the process that runs the load test (see the command).
INNER_ENV = "DUPLITAROT_LOADTEST_INNER"
# PostgreSQL application names of the started processes: the settle wait looks for the web's.
WEB_APPLICATION_NAME = "duplitarot-loadtest-web"
WORKER_APPLICATION_NAME = "duplitarot-loadtest-worker"

ENTRY_SECONDS = 50.0  # the longest entry phase of one size
SETTLE_SECONDS = 10.0  # the longest wait for the server to finish requests the clients gave up
RANKING_SECONDS = 15.0  # the longest wait for a snapshot showing the last result
READY_SECONDS = 60.0  # the longest wait for gunicorn and the worker to answer
STOP_SECONDS = 10.0  # SIGTERM to SIGKILL, per process group
STOP_RESERVE_SECONDS = 25.0  # kept from the budget for stopping the services
SAMPLE_SECONDS = 0.1  # the monitor's period
MIN_REQUEST_SECONDS = 1.0  # a request that would have less than this left is not sent
SLOWEST = 5  # the slowest requests listed in the report
WARM_UP_TABLES = 3  # the event entered once, unmeasured, before the first size


class LoadTestError(Exception):
    """The load test cannot run here (a service is missing, a process did not start)."""


# --------------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Options:
    sizes: tuple[int, ...] = (50, 200)
    rounds: int = 6
    deals_per_round: int = 4
    round: int | None = None  # None: the last round
    base_url: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str = DEFAULT_REDIS_URL
    web_workers: int = 2
    web_threads: int = 4
    celery_workers: int = 1
    think_ms: tuple[int, int] = (3000, 8000)
    start_ms: int = 10_000
    request_timeout: float = 30.0
    max_seconds: float = 170.0
    seed: int = 1
    serve: bool = False  # measure ``duplitarot serve`` (SQLite, waitress) instead of gunicorn
    serve_threads: int | None = None  # serve's --threads (None: its default)
    serve_processes: int | None = None  # serve's --processes (None: its default)
    # serve's DUPLITAROT_BACKUP_EVERY (None: its default, 10 minutes): a short period forces
    # the evening's periodic backups to run during the burst
    serve_backup_every: float | None = None

    @property
    def entry_round(self) -> int:
        return self.rounds if self.round is None else self.round

    def to_dict(self) -> dict[str, Any]:
        own_gunicorn = not self.base_url and not self.serve
        return {
            "server": "serve" if self.serve else ("base_url" if self.base_url else "gunicorn"),
            "sizes": list(self.sizes),
            "rounds": self.rounds,
            "deals_per_round": self.deals_per_round,
            "round": self.entry_round,
            "base_url": self.base_url,
            "database": (
                "duplitarot.sqlite3" if self.serve else urlsplit(self.database_url).path.lstrip("/")
            ),
            "redis_url": None if self.serve else self.redis_url,
            "web_workers": self.web_workers if own_gunicorn else None,
            "web_threads": self.web_threads if own_gunicorn else None,
            "celery_workers": self.celery_workers if own_gunicorn else None,
            "serve_threads": (self.serve_threads or SERVE_THREADS) if self.serve else None,
            "serve_processes": (
                (self.serve_processes or default_processes()) if self.serve else None
            ),
            "serve_backup_every_s": self.serve_backup_every,
            "think_ms": list(self.think_ms),
            "start_ms": self.start_ms,
            "request_timeout_s": self.request_timeout,
            "max_seconds": self.max_seconds,
            "seed": self.seed,
        }


def check_loopback_url(option: str, url: str, schemes: Sequence[str]) -> None:
    """Raise ``ValueError`` unless ``url`` has one of ``schemes`` and a loopback host."""
    parts = urlsplit(url)
    if parts.scheme not in schemes:
        raise ValueError(f"{option}: {url!r} is not a {' or '.join(schemes)} URL")
    if (parts.hostname or "") not in LOOPBACK_HOSTS:
        raise ValueError(f"{option}: {parts.hostname or url!r} is not a loopback address")


def redis_db(url: str) -> int:
    path = urlsplit(url).path.strip("/")
    return int(path) if path.isdigit() else 0


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def with_query(url: str, **params: str) -> str:
    """``url`` with ``params`` added to (or replacing in) its query string."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.update(params)
    return urlunsplit(parts._replace(query=urlencode(query)))


# ---------------------------------------------------------------------- what a table enters


def random_outcome(
    rng: random.Random, hands: RulesDeal | None = None, taker: int = 0
) -> dict[str, Any]:
    """A legal outcome as a table reports it, one some real deal produces
    (``rules.feasibility``) and, given the étui's ``hands``, one they allow (entries are
    checked against the cards); the taker sits at the étui's seat (left out, the service's
    default)."""
    return fitting_outcome(lambda: random_table_outcome(rng), hands, taker)


# ----------------------------------------------------------------------------- the event


def build_event(
    *, tables: int, rounds: int, deals_per_round: int, entry_round: int, seed: int
) -> Event:
    """A running individual event whose rounds before ``entry_round`` are entered and scored.

    :func:`bench.scale.scale_event_build` fills the first plays in round order, so a fill of
    just over ``(entry_round - 1) / rounds`` stops at the end of round ``entry_round - 1`` (every
    table plays every round: 4 players a table, no phantom); checked, then recomputed once so
    the round starts from up-to-date standings.
    """
    per_round = tables * deals_per_round
    wanted = (entry_round - 1) * per_round
    fill = min(100.0, 100 * (wanted + 0.5) / (rounds * per_round))
    name = f"Load test {tables} tables {uuid.uuid4().hex[:8]}"
    event = scale_event_build(
        tables=tables, rounds=rounds, deals_per_round=deals_per_round, fill=fill, seed=seed,
        name=name,
    )  # fmt: skip
    stored = TableResult.objects.filter(event=event)
    if stored.count() != wanted or stored.filter(round_number__gte=entry_round).exists():
        raise LoadTestError(
            f"the event builder stored {stored.count()} results, not rounds 1-{entry_round - 1} "
            f"({wanted})"
        )
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


@dataclass(frozen=True)
class TablePlan:
    """One client: a table's code, the deals it enters, its start delay and think times."""

    table: int
    path: str  # POST: enter a result
    read_path: str  # GET: what the table plays
    entered: int | None  # a deal this table entered in round 1, if it did (for the warm-up)
    deals: tuple[int, ...]
    start_delay: float
    thinks: tuple[float, ...]  # before each deal but the first
    outcomes: tuple[dict[str, Any], ...]


def table_plans(
    event: Event, entry_round: int, think_ms: tuple[int, int], seed: int, start_ms: int = 0
) -> list[TablePlan]:
    codes = dict(Table.objects.filter(event=event).values_list("number", "code"))
    hands = {
        number: (prepared_hands(cards), SEATS.index(taker))
        for number, cards, taker in event.deals.values_list("number", "cards", "taker_seat")
    }
    schedule = event.schedule
    round_ = schedule.round(entry_round)
    plans = []
    for play in round_.playing if round_ is not None else ():
        rng = random.Random(seed * 100_003 + play.table)
        deals = tuple(deal_numbers(play.deal_set, event.deals_per_round))
        first = schedule.play(table=play.table, round=1) if entry_round > 1 else None
        entered = None
        if first is not None and first.plays:
            entered = deal_numbers(first.deal_set, event.deals_per_round)[0]
        plans.append(
            TablePlan(
                table=play.table,
                path=reverse("api:table_results", kwargs={"code": codes[play.table]}),
                read_path=reverse("api:table", kwargs={"code": codes[play.table]}),
                entered=entered,
                deals=deals,
                start_delay=rng.uniform(0.0, start_ms / 1000),
                thinks=tuple(rng.uniform(*think_ms) / 1000 for _ in deals[1:]),
                outcomes=tuple(random_outcome(rng, *hands[deal]) for deal in deals),
            )
        )
    return plans


# --------------------------------------------------------------------------------- clients


@dataclass
class Attempt:
    table: int
    deal: int
    started: float
    ended: float
    status: int | None  # None: no answer (timeout, connection error)
    code: str  # the error body's ``code``; "timeout" / the exception's name without answer

    @property
    def latency_ms(self) -> float:
        return (self.ended - self.started) * 1000


@dataclass
class ClientResult:
    attempts: list[Attempt] = field(default_factory=list)
    not_sent: int = 0  # deals left when the entry phase ended
    reconnects: int = 0  # a kept-alive connection the server had closed, sent again once


STALE_CONNECTION = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)


def _post(
    connection: http.client.HTTPConnection, path: str, body: bytes, timeout: float
) -> tuple[int, bytes]:
    connection.timeout = timeout
    if connection.sock is not None:
        connection.sock.settimeout(timeout)
    connection.request(
        "POST", path, body=body,
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )  # fmt: skip
    response = connection.getresponse()
    return response.status, response.read()


def _error_code(status: int, data: bytes) -> str:
    if 200 <= status < 300:
        return ""
    try:
        body = json.loads(data)
    except ValueError:
        return "-"
    return str(body.get("code") or "-") if isinstance(body, dict) else "-"


def run_client(
    plan: TablePlan, *, host: str, port: int, prefix: str, entry_end: float, timeout: float
) -> ClientResult:
    """Enter the plan's deals one after the other; never past ``entry_end``."""
    result = ClientResult()
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        time.sleep(max(0.0, min(plan.start_delay, entry_end - time.monotonic())))
        for index, deal in enumerate(plan.deals):
            if index:
                time.sleep(max(0.0, min(plan.thinks[index - 1], entry_end - time.monotonic())))
            left = entry_end - time.monotonic()
            if left < MIN_REQUEST_SECONDS:
                result.not_sent = len(plan.deals) - index
                break
            body = json.dumps({"deal": deal, "outcome": plan.outcomes[index]}).encode()
            started = time.monotonic()
            status: int | None = None
            try:
                try:
                    reused = connection.sock is not None
                    status, data = _post(connection, prefix + plan.path, body, min(timeout, left))
                except STALE_CONNECTION:
                    if not reused:
                        raise
                    connection.close()
                    result.reconnects += 1
                    left = entry_end - time.monotonic()
                    status, data = _post(connection, prefix + plan.path, body, min(timeout, left))
                code = _error_code(status, data)
            except TimeoutError:
                code = "timeout"
                connection.close()
            except OSError as error:  # refused, reset: no answer
                code = type(error).__name__
                connection.close()
            except http.client.HTTPException as error:
                code = type(error).__name__
                connection.close()
            result.attempts.append(
                Attempt(plan.table, deal, started, time.monotonic(), status, code)
            )
    finally:
        connection.close()
    return result


# --------------------------------------------------------------------------------- monitor


class Monitor(threading.Thread):
    """Samples the scoring queue's length (no ``redis_url``: no queue, ``queue_max`` None) and
    the event's snapshot version every 100 ms."""

    def __init__(self, *, redis_url: str | None, queue: str, event_id: int) -> None:
        super().__init__(name="loadtest-monitor", daemon=True)
        self.redis = redis.Redis.from_url(redis_url, socket_timeout=2) if redis_url else None
        self.queue = queue
        self.event_id = event_id
        self.stop = threading.Event()
        self.queue_max: int | None = 0 if redis_url else None
        self.queue_last: int | None = 0 if redis_url else None
        self.queue_errors = 0
        self.snapshot_version = 0
        # (monotonic time, snapshot results_version) at every change seen
        self.versions: list[tuple[float, int]] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                if self.redis is not None:
                    try:
                        length = int(self.redis.llen(self.queue))
                    except Exception:
                        self.queue_errors += 1
                    else:
                        self.queue_last = length
                        self.queue_max = max(self.queue_max or 0, length)
                version = (
                    StandingsSnapshot.objects.filter(event_id=self.event_id)
                    .values_list("results_version", flat=True)
                    .first()
                ) or 0
                with self.lock:
                    if version != self.snapshot_version or not self.versions:
                        self.versions.append((time.monotonic(), version))
                        self.snapshot_version = version
                self.stop.wait(SAMPLE_SECONDS)
        finally:
            connection.close()
            if self.redis is not None:
                self.redis.close()

    def reached(self, version: int) -> float | None:
        """When the snapshot was first seen at ``version`` or beyond (monotonic), if ever."""
        with self.lock:
            return next((at for at, seen in self.versions if seen >= version), None)


# ---------------------------------------------------------------------------- the services


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop_with_parent() -> None:
    """In a child before exec (``preexec_fn``): SIGTERM when its parent dies (Linux
    ``PR_SET_PDEATHSIG``), so nothing started by the load test outlives it."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


def prepare_database(url: str, *, recreate: bool) -> None:
    """Drop and create (``recreate``) or create if missing the database of ``url``."""
    name = database_name(url)
    try:
        admin = psycopg.connect(
            make_conninfo(url, dbname="postgres", connect_timeout=5), autocommit=True
        )
    except psycopg.Error as error:
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise LoadTestError(f"PostgreSQL at {urlsplit(url).netloc}: {message}") from error
    with admin:
        if recreate:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def flush_redis(url: str) -> None:
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        client.flushdb()
    except redis.RedisError as error:
        raise LoadTestError(f"Redis at {urlsplit(url).netloc}: {error}") from error
    finally:
        client.close()


def scoring_queue() -> str:
    """The Celery queue the scoring task is sent to."""
    return str(getattr(settings, "SCORING_QUEUE", None) or celery_app.conf.task_default_queue)


RUN_SECRET_KEY = secrets.token_urlsafe(50)


def loopback_production_settings() -> dict[str, str]:
    """The environment of the production settings (debug off) served over plain HTTP on
    loopback: a secret key of the run's own unless the environment has one, no HTTPS
    redirect, no HSTS, no secure-only cookies."""
    return {
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or RUN_SECRET_KEY,
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_SECURE_HSTS_SECONDS": "0",
    }


def service_environment(options: Options, application_name: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": with_query(options.database_url, application_name=application_name),
        "REDIS_URL": options.redis_url,
        "CELERY_BROKER_URL": options.redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        **loopback_production_settings(),
        "PYTHONUNBUFFERED": "1",
    }


class Services:
    """gunicorn and one Celery worker on loopback, each in its own process group."""

    def __init__(self, options: Options, log_dir: Path) -> None:
        self.options = options
        self.log_dir = log_dir
        self.port = free_port()
        self.queue = scoring_queue()
        self.hostname = f"loadtest-{os.getpid()}@127.0.0.1"
        self.web_log = log_dir / "gunicorn.log"
        self.worker_log = log_dir / "celery.log"
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _spawn(self, name: str, argv: list[str], env: dict[str, str], log: Path) -> None:
        with log.open("ab") as out:
            self.processes[name] = subprocess.Popen(
                argv, cwd=settings.BASE_DIR, env=env, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=stop_with_parent,
            )  # fmt: skip

    def start(self) -> None:
        options = self.options
        # Keep-alive outlasts the longest think time: the clients reuse their connection.
        keep_alive = math.ceil(options.think_ms[1] / 1000) + 5
        self._spawn(
            "gunicorn",
            [sys.executable, "-m", "gunicorn", "config.wsgi:application",
             "--bind", f"127.0.0.1:{self.port}", "--workers", str(options.web_workers),
             "--worker-class", "gthread", "--threads", str(options.web_threads),
             "--keep-alive", str(keep_alive), "--timeout", "120", "--graceful-timeout", "5",
             "--backlog", "2048", "--log-level", "warning"],
            service_environment(options, WEB_APPLICATION_NAME),
            self.web_log,
        )  # fmt: skip
        self._spawn(
            "celery",
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
             "--concurrency", str(options.celery_workers), "-Q", self.queue, "-n", self.hostname,
             "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--loglevel", "INFO", "--logfile", str(self.worker_log)],
            service_environment(options, WORKER_APPLICATION_NAME),
            self.worker_log,
        )  # fmt: skip

    def groups(self) -> dict[str, int]:
        """The process groups of the started services, as :func:`cpu_by_group` names them."""
        names = {"gunicorn": "web", "celery": "worker"}
        return {names[name]: process.pid for name, process in self.processes.items()}

    def group(self, name: str) -> int | None:
        """The process group of a started service (its pid: each leads a session)."""
        process = self.processes.get(name)
        return process.pid if process is not None else None

    def _check_alive(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                log = self.web_log if name == "gunicorn" else self.worker_log
                raise LoadTestError(f"{name} exited with {process.returncode}: {last_line(log)}")

    def wait_ready(self, deadline: float) -> None:
        web_ready = worker_ready = False
        while time.monotonic() < deadline and not (web_ready and worker_ready):
            self._check_alive()
            if not web_ready:
                web_ready = http_ok(f"{self.base_url}/api/v1/events/?limit=1")
            if not worker_ready:
                with contextlib.suppress(Exception):
                    worker_ready = bool(
                        celery_app.control.ping(destination=[self.hostname], timeout=0.5)
                    )
            if not (web_ready and worker_ready):
                time.sleep(0.2)
        if not web_ready:
            raise LoadTestError(f"gunicorn did not answer in time: {last_line(self.web_log)}")
        if not worker_ready:
            raise LoadTestError(
                f"the Celery worker did not answer in time: {last_line(self.worker_log)}"
            )

    def stop(self) -> None:
        """SIGTERM to each process group, a bounded wait, then SIGKILL."""
        for process in self.processes.values():
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            with contextlib.suppress(ProcessLookupError):  # the group's children too
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)


#: The caller's settings a club's instance must not inherit (its data folder is its configuration).
FOREIGN_SETTINGS = ("DATABASE_", "REDIS_", "CELERY_", "DJANGO_", "DUPLITAROT_", "STANDINGS_")


def clean_environment(**extra: str) -> dict[str, str]:
    """This process's environment without any setting of the caller's (``FOREIGN_SETTINGS``),
    plus ``extra``."""
    kept = {key: value for key, value in os.environ.items() if not key.startswith(FOREIGN_SETTINGS)}
    return {**kept, "PYTHONUNBUFFERED": "1", **extra}


class ServeServer:
    """``python -m instance --data-dir DIR serve`` on loopback, in its own process group: a
    club's instance as the README starts it (waitress, SQLite in WAL mode in ``DIR``, the
    standings recomputed on its runner thread), with a clean environment."""

    def __init__(
        self,
        data_dir: Path,
        log_dir: Path,
        threads: int | None = None,
        processes: int | None = None,
        backup_every: float | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.threads = threads
        self.processes = processes
        self.backup_every = backup_every
        self.port = free_port()
        self.queue = ""  # no broker
        self.worker_log: Path | None = None
        self.log = log_dir / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def argv(self) -> list[str]:
        return [
            sys.executable, "-m", "instance", "--data-dir", str(self.data_dir), "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
        ] + (["--threads", str(self.threads)] if self.threads else []) + (
            ["--processes", str(self.processes)] if self.processes else []
        )  # fmt: skip

    def start(self) -> None:
        with self.log.open("ab") as out:
            extra = (
                {"DUPLITAROT_BACKUP_EVERY": f"{self.backup_every:g}"} if self.backup_every else {}
            )
            self.process = subprocess.Popen(
                self.argv(), cwd=settings.BASE_DIR, env=clean_environment(**extra),
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=stop_with_parent,
            )  # fmt: skip

    def groups(self) -> dict[str, int]:
        return {"serve": self.process.pid} if self.process is not None else {}

    def wait_ready(self, deadline: float) -> None:
        """Until the server answers (it migrates the new database first)."""
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                code = None if self.process is None else self.process.returncode
                raise LoadTestError(f"serve exited with {code}: {last_line(self.log)}")
            if http_ok(f"{self.base_url}/api/v1/events/?limit=1"):
                return
            time.sleep(0.2)
        raise LoadTestError(f"serve did not answer in time: {last_line(self.log)}")

    def stop(self) -> None:
        """SIGTERM to the process group (serve stops as on Ctrl+C), a bounded wait, SIGKILL."""
        if self.process is not None:
            stop_group(self.process)


def backups_since(instant: dt.datetime) -> list[str]:
    """The reasons of the backups serve took since ``instant`` (its data folder's ``backups``):
    the evening's schedule (``instance.backups``) at work during the entry phase."""
    return [backup.reason for backup in backups_found() if backup.taken_at >= instant]


def stop_group(process: subprocess.Popen[Any], wait: float = STOP_SECONDS) -> None:
    """SIGTERM to ``process``'s group, up to ``wait`` seconds, then SIGKILL (its children
    too)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=wait)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def http_ok(url: str, body: dict[str, Any] | None = None, expect: int = 200) -> bool:
    """GET ``url`` (POST ``body`` as JSON when given): did it answer ``expect``?"""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port or 80, timeout=5)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        if body is None:
            connection.request("GET", path)
        else:
            connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        return connection.getresponse().status == expect
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def warm_up(base_url: str, plans: Sequence[TablePlan], concurrency: int) -> None:
    """Requests not measured, ``2 × concurrency`` at once, so the web threads have loaded the
    code and opened their database connections before the round starts: each reads a table
    and sends another outcome for a deal of round 1 (entered, and that table's round is over:
    409 ``result_exists``, nothing stored)."""
    calls: list[tuple[str, dict[str, Any] | None, int]] = []
    for plan in plans[: 2 * concurrency]:
        calls.append((plan.read_path, None, 200))
        if plan.entered:
            calls.append((plan.path, {"deal": plan.entered, "outcome": plan.outcomes[0]}, 409))
    threads = [
        threading.Thread(target=http_ok, args=(base_url + path, body, expect), daemon=True)
        for path, body, expect in calls
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)


def last_line(path: Path) -> str:
    try:
        lines = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return lines[-1][:300] if lines else "(empty log)"


TASK_LINE = re.compile(r"Task (?P<name>[\w.]+)\[[^\]]+\] (?P<what>succeeded|raised|retry)")


def tasks_in_log(path: Path, start: int, end: int) -> dict[str, dict[str, int]]:
    """Tasks the worker finished between two offsets of its log: {name: {outcome: count}}."""
    try:
        with path.open("rb") as log:
            log.seek(start)
            text = log.read(max(0, end - start)).decode(errors="replace")
    except OSError:
        return {}
    found: dict[str, Counter[str]] = {}
    for match in TASK_LINE.finditer(text):
        found.setdefault(match["name"], Counter())[match["what"]] += 1
    return {name: dict(counts) for name, counts in sorted(found.items())}


def cpu_by_group(groups: dict[str, int]) -> dict[str, float] | None:
    """CPU seconds used so far (Linux ``/proc``): each named process group (the web server's,
    the worker's, the serve command's), this process (clients and monitor) and the whole
    machine (busy time)."""
    tick = os.sysconf("SC_CLK_TCK")
    by_group = {group: name for name, group in groups.items()}
    totals = dict.fromkeys([*groups, "loadtest", "machine"], 0.0)
    try:
        cpu_line = Path("/proc/stat").read_text().splitlines()[0].split()
        entries = os.listdir("/proc")
    except (OSError, IndexError):
        return None
    # user nice system idle iowait irq softirq steal: busy is all but idle and iowait
    busy = [int(value) for index, value in enumerate(cpu_line[1:9]) if index not in (3, 4)]
    totals["machine"] = sum(busy) / tick
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # gone meanwhile
        fields = text[text.rindex(")") + 2 :].split()
        group, seconds = int(fields[2]), (int(fields[11]) + int(fields[12])) / tick
        if group in by_group:
            totals[by_group[group]] += seconds
        elif int(entry) == os.getpid():
            totals["loadtest"] += seconds
    return totals


def cpu_used(before: dict[str, float] | None, after: dict[str, float] | None) -> Any:
    """CPU seconds between two readings; ``other`` is the rest of the machine (PostgreSQL,
    Redis, anything else running)."""
    if before is None or after is None:
        return None
    used = {name: after[name] - before[name] for name in after}
    used["other"] = used["machine"] - sum(v for name, v in used.items() if name != "machine")
    return {name: round(max(0.0, value), 1) for name, value in used.items()}


def log_size(path: Path | None) -> int:
    try:
        return path.stat().st_size if path is not None else 0
    except OSError:
        return 0


# ------------------------------------------------------------------------------- measuring


def percentile(sorted_values: Sequence[float], fraction: float) -> float | None:
    """Nearest-rank percentile of sorted values (None when there are none)."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def _round_ms(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def summarise_attempts(attempts: Sequence[Attempt]) -> dict[str, Any]:
    """Requests, 201s, latency percentiles (answered requests) and the non-2xx answers."""
    answered = sorted(a.latency_ms for a in attempts if a.status is not None)
    errors = Counter((a.status, a.code) for a in attempts if a.status is None or a.status >= 300)
    acknowledged = [a for a in attempts if a.status == 201]
    first = min((a.started for a in attempts), default=0.0)
    span = (max(a.ended for a in attempts) - first) if attempts else 0.0
    return {
        "requests": len(attempts),
        "acknowledged": len(acknowledged),
        "answered": len(answered),
        "entry_seconds": round(span, 2),
        "saves_per_second": round(len(acknowledged) / span, 2) if span > 0 else None,
        "latency_ms": {
            "p50": _round_ms(percentile(answered, 0.50)),
            "p95": _round_ms(percentile(answered, 0.95)),
            "p99": _round_ms(percentile(answered, 0.99)),
            "max": _round_ms(answered[-1] if answered else None),
        },
        # where to look first: the slowest requests, started at seconds into the entry phase
        "slowest": [
            {
                "table": a.table,
                "deal": a.deal,
                "started_s": round(a.started - first, 2),
                "latency_ms": round(a.latency_ms, 1),
                "status": a.status,
            }
            for a in sorted(attempts, key=lambda a: a.latency_ms, reverse=True)[:SLOWEST]
        ],
        "errors": [
            {"status": status, "code": code, "count": count}
            for (status, code), count in sorted(
                errors.items(), key=lambda item: (item[0][0] or 0, item[0][1])
            )
        ],
    }


def stored_rows(event_id: int, round_number: int) -> int:
    return TableResult.objects.filter(event_id=event_id, round_number=round_number).count()


def active_web_requests() -> int:
    """Backends of the started web server busy in PostgreSQL (a request still running)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = %s AND state <> 'idle'",
            [WEB_APPLICATION_NAME],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def settle(event_id: int, round_number: int, deadline: float, *, tagged: bool) -> tuple[int, bool]:
    """Wait until the server has finished what the clients sent: no web request active in
    PostgreSQL (``tagged``: we started the server) and the round's row count unchanged over a
    second. Returns (rows stored, settled)."""
    last = stored_rows(event_id, round_number)
    steady_since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        count = stored_rows(event_id, round_number)
        busy = tagged and active_web_requests() > 0
        if count != last or busy:
            last, steady_since = count, time.monotonic()
        elif time.monotonic() - steady_since >= 1.0:
            return count, True
    return stored_rows(event_id, round_number), False


@dataclass
class Run:
    """One load test: the options, where to send requests, the budget and the report."""

    options: Options
    progress: Callable[[str], None]
    started: float = field(default_factory=time.monotonic)
    base_url: str = ""
    services: Services | ServeServer | None = None
    ready: bool = False

    @property
    def deadline(self) -> float:
        return self.started + self.options.max_seconds - STOP_RESERVE_SECONDS

    def until(self, seconds: float) -> float:
        return min(time.monotonic() + seconds, self.deadline)

    def warm_up_event(self) -> None:
        """Every deal of a small event's round entered at once, unmeasured, then scored: the
        server's processes and the worker have run every path before the first size."""
        options = self.options
        event = build_event(
            tables=WARM_UP_TABLES, rounds=options.rounds, deals_per_round=options.deals_per_round,
            entry_round=options.entry_round, seed=options.seed,
        )  # fmt: skip
        calls = [
            (self.base_url + plan.path, {"deal": deal, "outcome": outcome})
            for plan in table_plans(event, options.entry_round, (0, 0), options.seed)
            for deal, outcome in zip(plan.deals, plan.outcomes, strict=True)
        ]
        threads = [
            threading.Thread(target=http_ok, args=(url, body, 201), daemon=True)
            for url, body in calls
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
        event.refresh_from_db(fields=["results_version"])
        deadline = self.until(10)
        while time.monotonic() < deadline:
            snapshot = StandingsSnapshot.objects.filter(event=event).first()
            if snapshot is not None and snapshot.results_version >= event.results_version:
                break
            time.sleep(SAMPLE_SECONDS)

    def measure(self, tables: int) -> dict[str, Any]:
        options = self.options
        entry_round = options.entry_round
        self.progress(
            f"{tables} tables: building the event ({options.rounds} rounds of "
            f"{options.deals_per_round} deals, rounds before {entry_round} entered)"
        )
        build_started = time.monotonic()
        event = build_event(
            tables=tables, rounds=options.rounds, deals_per_round=options.deals_per_round,
            entry_round=entry_round, seed=options.seed,
        )  # fmt: skip
        build_seconds = time.monotonic() - build_started
        results_before = event.results.count()
        round_before = stored_rows(event.pk, entry_round)
        plans = table_plans(
            event, entry_round, options.think_ms, options.seed, start_ms=options.start_ms
        )
        if not self.ready:
            if self.services is not None:
                self.progress(
                    "waiting for serve" if options.serve
                    else "waiting for gunicorn and the Celery worker"
                )  # fmt: skip
                self.services.wait_ready(min(time.monotonic() + READY_SECONDS, self.deadline))
            self.progress(f"warming the server up ({WARM_UP_TABLES} tables, not measured)")
            self.warm_up_event()
            self.ready = True
        threads_serving = (
            (options.serve_threads or SERVE_THREADS)
            if options.serve
            else options.web_workers * options.web_threads
        )
        warm_up(self.base_url, plans, threads_serving)
        queue = self.services.queue if self.services is not None else scoring_queue()
        worker_log = self.services.worker_log if self.services is not None else None
        log_start = log_size(worker_log)
        monitor = Monitor(
            redis_url=None if options.serve else options.redis_url, queue=queue, event_id=event.pk
        )
        monitor.start()
        groups = self.services.groups() if self.services is not None else {}
        cpu_before = cpu_by_group(groups)
        parts = urlsplit(self.base_url)
        self.progress(f"{tables} tables: {len(plans)} clients enter round {entry_round}")
        entry_started = timezone.now()
        entry_end = self.until(ENTRY_SECONDS)
        results: list[ClientResult] = [ClientResult() for _ in plans]

        def client(index: int) -> None:
            results[index] = run_client(
                plans[index], host=parts.hostname or "127.0.0.1", port=parts.port or 80,
                prefix=parts.path.rstrip("/"), entry_end=entry_end,
                timeout=options.request_timeout,
            )  # fmt: skip

        threads = [
            threading.Thread(target=client, args=(i,), name=f"table-{plan.table}", daemon=True)
            for i, plan in enumerate(plans)
        ]
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=max(0.1, entry_end + 5 - time.monotonic()))
            attempts = [attempt for result in results for attempt in result.attempts]
            summary = summarise_attempts(attempts)
            backups_taken = backups_since(entry_started) if options.serve else None
            cpu = cpu_used(cpu_before, cpu_by_group(groups))
            last_ack = max((a.ended for a in attempts if a.status == 201), default=None)
            stored, settled = settle(
                event.pk,
                entry_round,
                self.until(SETTLE_SECONDS),
                tagged=isinstance(self.services, Services),
            )
            stored -= round_before
            event.refresh_from_db(fields=["results_version"])
            target = event.results_version
            ranking_end = self.until(RANKING_SECONDS)
            while monitor.reached(target) is None and time.monotonic() < ranking_end:
                time.sleep(SAMPLE_SECONDS / 2)
            reached = monitor.reached(target)
        finally:
            monitor.stop.set()
            monitor.join(timeout=5)
        queue_at_end = monitor.queue_last
        if isinstance(self.services, Services):  # the next size starts with an empty queue
            purge_queue(options.redis_url, queue)
        delay = None
        if reached is not None and last_ack is not None:
            delay = round(max(0.0, reached - last_ack) * 1000, 1)
        tasks = tasks_in_log(worker_log, log_start, log_size(worker_log)) if worker_log else None
        return {
            "tables": tables,
            "event_id": event.pk,
            "round": entry_round,
            "results_before": results_before,
            "build_seconds": round(build_seconds, 2),
            "clients": len(plans),
            "planned_requests": sum(len(plan.deals) for plan in plans),
            **summary,
            "not_sent": sum(result.not_sent for result in results),
            "backups_during_entry": backups_taken,
            "reconnects": sum(result.reconnects for result in results),
            "stored": stored,
            "stored_matches_acknowledged": stored == summary["acknowledged"],
            "settled": settled,
            "recompute_queue_max": monitor.queue_max,
            "recompute_queue_at_end": queue_at_end,
            "queue_sample_errors": monitor.queue_errors,
            "cpu_seconds": cpu,
            "recompute_tasks_run": (
                None
                if tasks is None
                else sum(c.get("succeeded", 0) for n, c in tasks.items() if "recompute" in n)
            ),
            "tasks": tasks,
            "results_version": target,
            "snapshot_version": monitor.snapshot_version,
            # snapshots published during the entry and ranking waits (the first sample is the
            # one before the round)
            "snapshots_seen": max(0, len(monitor.versions) - 1),
            "ranking_delay_ms": delay,
            "ranking_timeout": reached is None,
        }


def purge_queue(redis_url: str, queue: str) -> None:
    client = redis.Redis.from_url(redis_url, socket_timeout=5)
    try:
        client.delete(queue)
    finally:
        client.close()


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def shielded() -> Iterator[None]:
    """SIGINT and SIGTERM ignored meanwhile (a second Ctrl-C does not cut the shutdown short)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(options: Options, progress: Callable[[str], None]) -> dict[str, Any]:
    """The whole load test (module docstring); returns the report."""
    started_at = time.monotonic()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)
    own = options.base_url is None
    data_dir: Path | None = settings.DATA_DIR
    if options.serve:
        if data_dir is None:
            raise LoadTestError("--serve measures a data folder: DUPLITAROT_DATA_DIR is unset")
    else:
        progress(f"database {database_name(options.database_url)}: "
                 f"{'recreating' if own else 'checking'} and migrating")  # fmt: skip
        prepare_database(options.database_url, recreate=own)
        call_command("migrate", interactive=False, verbosity=0)
    with log_directory() as log_dir:
        loadtest = Run(options=options, progress=progress, started=started_at)
        try:
            if options.serve and data_dir is not None:
                server = ServeServer(
                    data_dir, log_dir, options.serve_threads, options.serve_processes,
                    options.serve_backup_every,
                )  # fmt: skip
                loadtest.services = server
                threads = options.serve_threads or SERVE_THREADS
                processes = options.serve_processes or default_processes()
                progress(
                    f"starting serve ({processes} process(es) × {threads} waitress threads, "
                    f"SQLite in {data_dir}) "
                    f"on 127.0.0.1:{server.port}"
                )
                server.start()
                # It migrates the new database before answering: the events are built after.
                server.wait_ready(min(time.monotonic() + READY_SECONDS, loadtest.deadline))
                loadtest.base_url = server.base_url
            elif own:
                flush_redis(options.redis_url)
                loadtest.services = Services(options, log_dir)
                progress(
                    f"starting gunicorn ({options.web_workers} gthread workers × "
                    f"{options.web_threads} threads) on 127.0.0.1:{loadtest.services.port} and a "
                    f"Celery worker ({options.celery_workers} process(es), queue "
                    f"{loadtest.services.queue!r})"
                )
                loadtest.services.start()
                loadtest.base_url = loadtest.services.base_url
            else:
                assert options.base_url is not None
                loadtest.base_url = options.base_url
                if not http_ok(f"{loadtest.base_url}/api/v1/events/?limit=1"):
                    raise LoadTestError(f"no duplitarot answers at {loadtest.base_url}")
            sizes: list[dict[str, Any]] = []
            for tables in options.sizes:
                if time.monotonic() >= loadtest.deadline - 10:
                    progress(f"{tables} tables: skipped (the --max-seconds budget is spent)")
                    sizes.append({"tables": tables, "skipped": "budget"})
                    continue
                sizes.append(loadtest.measure(tables))
        finally:
            if loadtest.services is not None:
                with shielded():
                    progress(
                        "stopping serve" if options.serve
                        else "stopping gunicorn and the Celery worker"
                    )  # fmt: skip
                    loadtest.services.stop()
            connections.close_all()
    return {
        "schema": "duplitarot-loadtest/1",
        "options": options.to_dict(),
        "base_url": loadtest.base_url,
        "sizes": sizes,
        "cpus": os.cpu_count(),
        "total_seconds": round(time.monotonic() - started_at, 1),
    }


@contextlib.contextmanager
def log_directory() -> Iterator[Path]:
    """A temporary directory for the services' logs (kept and named when the run fails)."""
    path = Path(tempfile.mkdtemp(prefix="duplitarot-loadtest-"))
    try:
        yield path
    except BaseException:
        if any(path.iterdir()):
            sys.stderr.write(f"loadtest: the services' logs are kept in {path}\n")
        else:
            path.rmdir()
        raise
    else:
        for child in path.iterdir():
            child.unlink()
        path.rmdir()


# ---------------------------------------------------------------------------------- report


def _fmt(value: Any, suffix: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.0f}{suffix}" if value >= 100 else f"{value:.1f}{suffix}"
    return f"{value}{suffix}"


def format_report(report: dict[str, Any]) -> str:
    """The report as a readable table, then every non-2xx per size."""
    options = report["options"]
    lines = [
        f"Live entry load test against {report['base_url']} "
        f"(round {options['round']} of {options['rounds']}, {options['deals_per_round']} deals "
        f"per round, think {options['think_ms'][0]}-{options['think_ms'][1]} ms, "
        f"request timeout {options['request_timeout_s']:g} s"
        + (
            f"; gunicorn {options['web_workers']}×{options['web_threads']} gthread, "
            f"{options['celery_workers']} Celery process(es))"
            if options["web_workers"]
            else (
                f"; duplitarot serve, {options.get('serve_processes') or 1} process(es) × "
                f"{options['serve_threads']} waitress threads, SQLite)"
                if options.get("server") == "serve"
                else ")"
            )
        ),
        "",
        f"{'tables':>6} {'requests':>8} {'201':>5} {'errors':>6} {'saves/s':>7} {'p50 ms':>8} "
        f"{'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'stored':>6} {'queue max':>9} "
        f"{'recomputes':>10} {'ranking ms':>10}",
    ]
    for size in report["sizes"]:
        if "skipped" in size:
            lines.append(f"{size['tables']:>6} skipped: the --max-seconds budget was spent")
            continue
        latency = size["latency_ms"]
        errors = sum(error["count"] for error in size["errors"])
        stored = f"{size['stored']}{'' if size['stored_matches_acknowledged'] else '!'}"
        ranking = "timeout" if size["ranking_timeout"] else _fmt(size["ranking_delay_ms"])
        lines.append(
            f"{size['tables']:>6} {size['requests']:>8} {size['acknowledged']:>5} {errors:>6} "
            f"{_fmt(size['saves_per_second']):>7} {_fmt(latency['p50']):>8} "
            f"{_fmt(latency['p95']):>8} {_fmt(latency['p99']):>8} {_fmt(latency['max']):>8} "
            f"{stored:>6} {_fmt(size['recompute_queue_max']):>9} "
            f"{_fmt(size['recompute_tasks_run']):>10} {ranking:>10}"
        )
    for size in report["sizes"]:
        if "skipped" in size:
            continue
        notes = []
        for error in size["errors"]:
            status = error["status"] if error["status"] is not None else "no answer"
            notes.append(f"{error['count']} × {status} {error['code']}")
        if size["not_sent"]:
            notes.append(f"{size['not_sent']} not sent (entry phase over)")
        if not size["stored_matches_acknowledged"]:
            notes.append(
                f"{size['stored']} rows stored but {size['acknowledged']} acknowledged"
                + ("" if size["settled"] else " (server still busy when counted)")
            )
        if size["ranking_timeout"]:
            notes.append(
                f"snapshot at version {size['snapshot_version']} of {size['results_version']} "
                "when the wait ended"
            )
        if size.get("backups_during_entry"):
            notes.append(f"backups taken meanwhile: {', '.join(size['backups_during_entry'])}")
        lines.append(f"{size['tables']} tables: " + ("; ".join(notes) if notes else "no error"))
        if size.get("cpu_seconds"):
            used = ", ".join(f"{name} {value:.1f}" for name, value in size["cpu_seconds"].items())
            lines.append(
                f"  CPU seconds over the {size['entry_seconds']:.1f} s entry phase "
                f"({report['cpus']} cores): {used}"
            )
    lines.append(f"total {report['total_seconds']:.0f} s")
    return "\n".join(lines)

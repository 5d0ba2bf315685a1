"""``python manage.py loadtest [--tables 50,200] [--json] [--round R] [--base-url URL]
[--database-url URL] [--redis-url URL] [--web-workers 2] [--web-threads 4] [--celery-workers 1]
[--think-ms MIN,MAX] [--start-ms MS]``: live entry under load, on loopback.

Starts gunicorn and a Celery worker on a PostgreSQL database and a Redis database of their own,
builds an individual event per size and has one client per table enter its deals of a round
through the table API with think times; reports throughput, latency percentiles, every non-2xx,
rows stored against 201s acknowledged, the longest scoring queue and the delay until a ranking
shows the last result (:mod:`bench.loadtest` says how). Bounded: under 3 minutes for
``--tables 50,200`` (``--max-seconds``, default 170).

The measuring runs in a child process of this command, with ``DATABASE_URL`` and ``REDIS_URL``
set to the load test's own (``DUPLITAROT_LOADTEST_INNER`` marks it): whatever database this
command was started on is not touched. Its progress goes to stderr, the report to stdout.
Bad arguments: exit code 2 and one line.

``--serve`` measures a club's instance instead, as the README starts it: ``python -m instance
--data-dir DIR serve --host 127.0.0.1 --port P`` (waitress, SQLite in WAL mode in ``DIR``, the
standings recomputed on its runner thread, debug off) on a new temporary data folder, in its own
process group, with none of the caller's settings (``DATABASE_*``, ``REDIS_*``, ``CELERY_*``,
``DJANGO_*``, ``DUPLITAROT_*``). The measuring child works on that folder's SQLite file (tasks
eager, in the child): it waits for serve to answer (serve migrates the new file first), builds
the events there, warms up and reports the same figures, the server's CPU as ``serve``; no
queue (no broker). The folder is removed at the end, kept (and named) when the run fails.
A club's big evening::

    manage.py loadtest --serve --tables 30 --start-ms 0 --think-ms 300,1500

``--serve-backup-every SECONDS`` gives serve a short period between its periodic backups
(``DUPLITAROT_BACKUP_EVERY``): backups are then taken during the burst, and the report lists
those taken during the entry phase (``backups_during_entry``), to compare the latencies with
and without them.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from bench.loadtest import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    INNER_ENV,
    LoadTestError,
    Options,
    check_loopback_url,
    clean_environment,
    database_name,
    format_report,
    loopback_production_settings,
    redis_db,
    run,
    stop_with_parent,
)
from instance.datadir import DATA_DIR_ENV
from tournaments.management.base import OneLineErrorCommand

MAX_TABLES = 1000  # one client thread per table
CHILD_GRACE_SECONDS = 120  # beyond --max-seconds before the child is stopped


def _bad(message: str) -> CommandError:
    return CommandError(f"[invalid_arguments] {message}", returncode=2)


def _sizes(raw: str) -> tuple[int, ...]:
    sizes = []
    for part in raw.split(","):
        part = part.strip()
        if not part.isdigit() or not 3 <= int(part) <= MAX_TABLES:
            raise _bad(
                f"--tables: {part!r} is not a number of tables from 3 (the smallest individual "
                f"movement) to {MAX_TABLES}"
            )
        sizes.append(int(part))
    return tuple(sizes)


def _think(raw: str) -> tuple[int, int]:
    parts = [part.strip() for part in raw.split(",")]
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise _bad(f"--think-ms: {raw!r} is not MIN,MAX in milliseconds (e.g. 300,1500)")
    low, high = int(parts[0]), int(parts[1])
    if low > high or high > 60_000:
        raise _bad(f"--think-ms: {raw!r} needs MIN <= MAX <= 60000")
    return low, high


def _between(option: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise _bad(f"{option}: {value:g} is outside {low:g}..{high:g}")


def options_from(raw: dict[str, Any]) -> Options:
    """The validated options; raises CommandError (exit 2) naming the faulty one."""
    options = Options(
        sizes=_sizes(raw["tables"]),
        rounds=raw["rounds"],
        deals_per_round=raw["deals_per_round"],
        round=raw["round"],
        base_url=raw["base_url"] or None,
        database_url=raw["database_url"],
        redis_url=raw["redis_url"],
        web_workers=raw["web_workers"],
        web_threads=raw["web_threads"],
        celery_workers=raw["celery_workers"],
        think_ms=_think(raw["think_ms"]),
        start_ms=raw["start_ms"],
        request_timeout=raw["request_timeout"],
        max_seconds=raw["max_seconds"],
        seed=raw["seed"],
        serve=raw["serve"],
        serve_threads=raw["serve_threads"],
        serve_processes=raw["serve_processes"],
        serve_backup_every=raw["serve_backup_every"],
    )
    _between("--start-ms", options.start_ms, 0, 20_000)
    _between("--rounds", options.rounds, 1, 50)
    _between("--deals-per-round", options.deals_per_round, 1, 12)
    if options.round is not None:
        _between("--round", options.round, 1, options.rounds)
    _between("--web-workers", options.web_workers, 1, 32)
    _between("--web-threads", options.web_threads, 1, 64)
    _between("--celery-workers", options.celery_workers, 1, 32)
    _between("--request-timeout", options.request_timeout, 1, 300)
    _between("--max-seconds", options.max_seconds, 60, 3600)
    if options.serve_threads is not None:
        if not options.serve:
            raise _bad("--serve-threads: only with --serve")
        _between("--serve-threads", options.serve_threads, 1, 64)
    if options.serve_processes is not None:
        if not options.serve:
            raise _bad("--serve-processes: only with --serve")
        _between("--serve-processes", options.serve_processes, 1, 4)
    if options.serve_backup_every is not None:
        if not options.serve:
            raise _bad("--serve-backup-every: only with --serve")
        if not 1 <= options.serve_backup_every <= 3600:  # also refuses nan
            raise _bad("--serve-backup-every: between 1 and 3600 seconds")
    if options.serve:
        if options.base_url is not None:
            raise _bad("--serve starts its own server: leave --base-url out")
        return options  # no PostgreSQL, no Redis: the instance's own SQLite file
    try:
        check_loopback_url("--database-url", options.database_url, ("postgres", "postgresql"))
        check_loopback_url("--redis-url", options.redis_url, ("redis",))
        if options.base_url is not None:
            check_loopback_url("--base-url", options.base_url, ("http",))
    except ValueError as error:
        raise _bad(str(error)) from None
    if not database_name(options.database_url):
        raise _bad("--database-url: name the database (e.g. .../duplitarot_load)")
    if options.base_url is None:
        # Both are wiped at the start of the run: refuse anything that looks like real data.
        if "load" not in database_name(options.database_url):
            raise _bad(
                f"--database-url: {database_name(options.database_url)!r} is dropped and "
                "recreated: its name must contain 'load'"
            )
        if redis_db(options.redis_url) == 0:
            raise _bad("--redis-url: name a Redis database other than 0 (it is flushed), e.g. /9")
    if options.base_url is not None:
        options = replace(options, base_url=options.base_url.rstrip("/"))
    return options


def child_argv(options: Options, as_json: bool) -> list[str]:
    argv = [
        sys.executable, str(settings.BASE_DIR / "manage.py"), "loadtest",
        "--tables", ",".join(str(size) for size in options.sizes),
        "--rounds", str(options.rounds), "--deals-per-round", str(options.deals_per_round),
        "--database-url", options.database_url, "--redis-url", options.redis_url,
        "--web-workers", str(options.web_workers), "--web-threads", str(options.web_threads),
        "--celery-workers", str(options.celery_workers),
        "--think-ms", f"{options.think_ms[0]},{options.think_ms[1]}",
        "--start-ms", str(options.start_ms),
        "--request-timeout", f"{options.request_timeout:g}",
        "--max-seconds", f"{options.max_seconds:g}", "--seed", str(options.seed),
    ]  # fmt: skip  # fmt: skip
    if options.round is not None:
        argv += ["--round", str(options.round)]
    if options.serve:
        argv.append("--serve")
    if options.serve_threads is not None:
        argv += ["--serve-threads", str(options.serve_threads)]
    if options.serve_processes is not None:
        argv += ["--serve-processes", str(options.serve_processes)]
    if options.serve_backup_every is not None:
        argv += ["--serve-backup-every", f"{options.serve_backup_every:g}"]
    if options.base_url is not None:
        argv += ["--base-url", options.base_url]
    if as_json:
        argv.append("--json")
    return argv


def child_environment(options: Options, data_dir: Path | None = None) -> dict[str, str]:
    if options.serve:
        assert data_dir is not None
        # The measuring process works on the instance's SQLite file, as a developer's checkout
        # would on its own (tasks at once, in the caller); nothing of the caller's settings.
        return clean_environment(
            **{
                INNER_ENV: "1",
                "DJANGO_SETTINGS_MODULE": "config.settings",
                DATA_DIR_ENV: str(data_dir),
                "DUPLITAROT_BACKGROUND": "eager",
                "DJANGO_DEBUG": "false",
            }
        )
    return {
        **os.environ,
        INNER_ENV: "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": options.database_url,
        "REDIS_URL": options.redis_url,
        "CELERY_BROKER_URL": options.redis_url,
        # The builder's own recompute runs in the child: nothing reaches the worker's queue
        # before the round starts.
        "CELERY_TASK_ALWAYS_EAGER": "true",
        **loopback_production_settings(),
        "PYTHONUNBUFFERED": "1",
    }


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


class Command(OneLineErrorCommand):
    help = (
        "Load test of live entry: gunicorn and a Celery worker on loopback, one client per "
        "table entering a round through the table API; throughput, latency, errors, scoring."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add = parser.add_argument
        add("--tables", default="50,200", help="comma-separated table counts (default 50,200)")
        add("--json", action="store_true", help="print one JSON document")
        add("--rounds", type=int, default=6, help="rounds of the event (default 6)")
        add("--deals-per-round", type=int, default=4, help="deals per round (default 4)")
        add(
            "--round",
            type=int,
            default=None,
            help="the round entered under load; the earlier ones are filled (default: the last)",
        )
        add(
            "--base-url",
            default="",
            help="measure the server already running there (loopback) instead of starting one",
        )
        add(
            "--database-url",
            default=DEFAULT_DATABASE_URL,
            help=f"PostgreSQL of the run, dropped and recreated (default {DEFAULT_DATABASE_URL})",
        )
        add(
            "--redis-url",
            default=DEFAULT_REDIS_URL,
            help=f"Redis cache and broker, flushed (default {DEFAULT_REDIS_URL})",
        )
        add("--web-workers", type=int, default=2, help="gunicorn worker processes (default 2)")
        add("--web-threads", type=int, default=4, help="threads per gunicorn worker (default 4)")
        add(
            "--celery-workers",
            type=int,
            default=1,
            help="processes of the Celery worker (default 1)",
        )
        add(
            "--think-ms",
            default="3000,8000",
            help="time to enter the next deal on the phone, uniform in MIN,MAX ms "
            "(default 3000,8000)",
        )
        add(
            "--start-ms",
            type=int,
            default=10_000,
            help="every table starts entering at a random moment within this many ms "
            "(default 10000: the room at the end of a round)",
        )
        add(
            "--request-timeout",
            type=float,
            default=30.0,
            help="seconds a client waits for an answer (default 30)",
        )
        add(
            "--max-seconds",
            type=float,
            default=170.0,
            help="budget of the whole run in seconds (default 170)",
        )
        add("--seed", type=int, default=1, help="seed of the events and clients (default 1)")
        add(
            "--serve",
            action="store_true",
            help="measure a club's instance instead: `python -m instance serve` (waitress, "
            "SQLite in WAL mode, the standings on its runner thread) on a new data folder; "
            "no PostgreSQL, no Redis",
        )
        add(
            "--serve-threads",
            type=int,
            default=None,
            help="with --serve: serve's --threads (default: serve's own default)",
        )
        add(
            "--serve-processes",
            type=int,
            default=None,
            help="with --serve: serve's --processes (default: serve's own, one per core on Linux)",
        )
        add(
            "--serve-backup-every",
            type=float,
            default=None,
            help="with --serve: seconds between the periodic backups while results arrive "
            "(serve's DUPLITAROT_BACKUP_EVERY; default: its own, 600), to take some during "
            "the burst",
        )

    def handle(self, *args: Any, **raw: Any) -> None:
        options = options_from(raw)
        if os.environ.get(INNER_ENV) == "1":
            self._measure(options, as_json=raw["json"])
            return
        self._run_child(options, as_json=raw["json"])

    def _measure(self, options: Options, *, as_json: bool) -> None:
        def progress(message: str) -> None:
            self.stderr.write(f"loadtest: {message}")
            self.stderr.flush()

        try:
            report = run(options, progress)
        except LoadTestError as error:
            raise CommandError(f"loadtest: {error}") from error
        except KeyboardInterrupt:
            self.stderr.write("loadtest: interrupted (the services are stopped)")
            raise SystemExit(130) from None
        if as_json:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self.stdout.write(format_report(report))

    def _run_child(self, options: Options, *, as_json: bool) -> None:
        """Run the measuring in a child process pointed at the load test's services (with
        ``--serve``: at a new data folder, removed at the end unless the run failed)."""
        if not options.serve:
            self._run_child_in(options, as_json=as_json, data_dir=None)
            return
        data_dir = Path(tempfile.mkdtemp(prefix="duplitarot-loadtest-serve-"))
        try:
            self._run_child_in(options, as_json=as_json, data_dir=data_dir)
        except BaseException:
            self.stderr.write(f"loadtest: the data folder of the run is kept in {data_dir}")
            raise
        shutil.rmtree(data_dir, ignore_errors=True)

    def _run_child_in(self, options: Options, *, as_json: bool, data_dir: Path | None) -> None:
        child = subprocess.Popen(
            child_argv(options, as_json),
            cwd=settings.BASE_DIR,
            env=child_environment(options, data_dir),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=stop_with_parent,
        )
        previous = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            out, _ = child.communicate(timeout=options.max_seconds + CHILD_GRACE_SECONDS)
        except (KeyboardInterrupt, subprocess.TimeoutExpired) as stop:
            # SIGTERM: the child stops its services (it ignores a second signal meanwhile).
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
            try:
                child.wait(timeout=60)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=10)
            if isinstance(stop, KeyboardInterrupt):
                raise SystemExit(130) from None
            raise CommandError("loadtest: the run overran its budget and was stopped") from None
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
        if out:
            self.stdout.write(out.rstrip("\n"))
        if child.returncode:
            # The child has said why on stderr already.
            raise SystemExit(child.returncode)

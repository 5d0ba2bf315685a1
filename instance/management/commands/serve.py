"""``duplitarot serve`` (``./dev serve``): duplitarot for a club's evening, for real.

On the data folder that ``instance.cli`` prepared (the secret key generated there on the first
start, SQLite in WAL mode there), in this order:

1. one server per data folder (a lock held while serving: a restore refuses to run meanwhile);
2. the port checked before anything is written, and the database: one written by a newer
   version (a migration this code does not know) is refused (``instance.schema``);
3. a backup of the database (``instance.backups``; a failure is printed, not fatal);
4. the migrations applied (an upgrade keeps the data), then the recompute markers a server
   stopped mid-recompute (a crash, a power cut, ``kill -9``) left behind cleared: with the lock
   held no other runner is alive, so they can only hold the standings back until they expire;
5. the first run: with no account yet, a one-time setup code for the first-run page;
6. the address the phones use (the laptop's ``.local`` name where multicast DNS answers, else
   its address on the network), with a warning naming the competitions whose printed table
   cards show another address than last time;
7. on Linux, one serving process per core (``--processes``, ``instance.processes``): the port
   bound once, the others forked by a supervisor that replaces one that dies, SQLite's writers
   taking turns across them; Windows and macOS
   serve from one process unless told otherwise (Windows has no ``fork``);
8. background work on one runner thread of the first process (``runner.background``): standings
   recomputed off the request, every ``--reconcile`` seconds the events whose standings are
   behind, and the evening's backups (``instance.backups.BackupSchedule``); the other processes
   hand their work to it; the first process reports in the terminal and in the director's
   status box (``instance.health``) another serving process that stops, and its replacement;
9. waitress, a WSGI server that runs on Windows, macOS and Linux, until Ctrl+C.

A disk too full to start (the backup, the migrations, the static files) is said in one line
(exit code 2), nothing half-written left behind.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from filelock import FileLock, Timeout

from instance import backups, health, instance_state, network, schema
from instance.cli import DEFAULT_PORT, DEFAULT_THREADS
from instance.selectors import competitions_with_cards
from instance.setup import setup_code_issue
from runner import background
from runner.faults import disk_full
from scoring.services import recompute_markers_clear


class Command(BaseCommand):
    help = "Serve duplitarot to the room: the organiser's laptop and the phones on its Wi-Fi."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="0.0.0.0", help="address to listen on")
        parser.add_argument("--port", type=int, default=DEFAULT_PORT)
        parser.add_argument(
            "--public-url",
            default="",
            help="the address phones open, printed in the QR codes (found by default)",
        )
        parser.add_argument("--threads", type=int, default=DEFAULT_THREADS, help="request threads")
        parser.add_argument(
            "--processes",
            type=int,
            default=default_processes(),
            help=(
                "serving processes (default: one per core, at most "
                f"{MAX_PROCESSES}, on Linux; 1 elsewhere)"
            ),
        )
        parser.add_argument(
            "--reconcile",
            type=float,
            default=30.0,
            help="seconds between checks of standings behind their results",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data_dir = settings.DATA_DIR
        if data_dir is None or settings.DUPLITAROT_SERVE_LOCK is None:
            raise CommandError(
                "serve needs a data folder (run it as `duplitarot serve`).", returncode=2
            )
        host, port = options["host"], options["port"]
        if not 0 < port < 65536:
            raise CommandError(f"--port must be between 1 and 65535, not {port}.", returncode=2)
        if not 0 < options["threads"] <= 64:
            raise CommandError(
                f"--threads must be between 1 and 64, not {options['threads']}.", returncode=2
            )
        processes = options["processes"]
        if not 0 < processes <= MAX_PROCESSES:
            raise CommandError(
                f"--processes must be between 1 and {MAX_PROCESSES}, not {processes}.",
                returncode=2,
            )
        if processes > 1 and not hasattr(os, "fork"):
            raise CommandError(
                "--processes: this system serves from one process only (no fork).", returncode=2
            )
        lock = FileLock(str(settings.DUPLITAROT_SERVE_LOCK))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            raise CommandError(
                f"duplitarot already serves from {data_dir}: stop it first (Ctrl+C in its "
                "terminal), or give another --data-dir.",
                returncode=2,
            ) from None
        started_in = os.getpid()
        # A service manager (or a test) stops the server with SIGTERM: as Ctrl+C does, at any
        # moment from here (the processes forked later inherit it).
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            self._serve(data_dir, host, port, options)
        except KeyboardInterrupt:
            self.stdout.write("duplitarot stopped.")
        except Exception as error:
            if not disk_full(error):
                raise
            raise CommandError(_disk_full_line(data_dir), returncode=2) from None
        finally:
            if os.getpid() != started_in:  # another serving process: the lock is the first's
                os._exit(0)
            signal.signal(signal.SIGTERM, previous)
            lock.release()

    def _serve(self, data_dir: Path, host: str, port: int, options: dict[str, Any]) -> None:
        problem = network.bind_problem(host, port)
        if problem:
            raise CommandError(
                f"port {port} on {host}: {problem} (another server?). Stop it, or pass "
                f"--port {port + 1}.",
                returncode=2,
            )
        database = backups.sqlite_database()
        # (A new data folder has no database yet: asking would create an empty one.)
        unknown = (
            schema.unknown_migrations(schema.applied_here())
            if database is None or database.exists()
            else []
        )
        if unknown:
            # Written by a newer version: its tables would refuse every save of this one.
            raise CommandError(
                _(
                    "The database in %(folder)s was written by a newer version of duplitarot "
                    "(its migration %(migration)s is unknown to this one): serve it with that "
                    "version, or restore a backup taken by this one (restore_backup FILE)."
                )
                % {"folder": data_dir, "migration": unknown[0]},
                returncode=2,
            )
        # The backup first: an upgrade's migrations may be undone by restoring it.
        try:
            backup: Path | str | None = backups.backup_create(reason="start")
        except backups.BackupError as error:
            backup = f"FAILED: {error}"
        applied = self._migrate()
        unstuck = recompute_markers_clear()
        health.serving_started(processes=options["processes"])
        public_url: str = settings.DUPLITAROT_PUBLIC_URL
        reprint = self._cards_moved(data_dir, public_url)
        code = setup_code_issue()
        # The site's WSGI application (``WSGI_APPLICATION``, as runserver finds it), loaded
        # (static files found) before "ready".
        application = import_string(settings.WSGI_APPLICATION)

        write = self.stdout.write
        write(self.style.SUCCESS("duplitarot is ready."))
        write(f"  On this laptop:          http://localhost:{port}/")
        if host in ("0.0.0.0", "::"):
            write(f"  Phones on the room's Wi-Fi open {public_url}/")
            if _is_address(urlsplit(public_url).hostname or ""):
                write(
                    "  (the table cards print this address: if the laptop gets another one "
                    "next time, duplitarot names the cards to reprint)"
                )
        write(f"  Data folder:             {data_dir}")
        if applied:
            write(f"  Database updated:        {applied} migration(s) applied")
        if unstuck:
            write(
                f"  Standings:               {unstuck} event(s) left mid-recompute by the last "
                "run (stopped without Ctrl+C?), recomputed now"
            )
        if isinstance(backup, str):
            write(self.style.ERROR(f"  Backup {backup}"))
        elif backup is not None:
            write(f"  Backup:                  {backup}")
        if code:
            write("")
            write(self.style.WARNING("First run: create your club and your organiser account at"))
            write(f"  http://localhost:{port}/setup/")
            write(f"  with the setup code  {code}  (it works once; a new one at every start).")
        if reprint:
            write("")
            write(
                self.style.WARNING(
                    f"The phones' address changed (was {reprint['was']}, now {public_url}): "
                    "reprint the table cards of:"
                )
            )
            for name in reprint["competitions"]:
                write(f"  - {name}")
        write("")
        write("Stop with Ctrl+C.")
        self.stdout.flush()

        if options["processes"] > 1:
            from instance.processes import Processes, listening_socket

            sock = listening_socket(host, port)
            split = Processes()
            split.fork(options["processes"], _writers_lock_path())
            if split.is_first:
                split.watch(self._process_died)
        else:
            sock, split = None, None
        self._run_waitress(application, host, port, options, sock, split)

    def _process_died(self, pid: int, status: int, replacement: int | None) -> None:
        """Another serving process stopped: replaced (or not, when it kept dying at once), said
        in the terminal and in the director's status box."""
        with translation.override("en"):  # the terminal speaks English
            how = health.how_it_ended(status)
        if replacement is not None:
            self.stderr.write(
                f"A serving process (pid {pid}) stopped ({how}): a new one (pid {replacement}) "
                "serves in its place."
            )
        else:
            self.stderr.write(
                f"A serving process (pid {pid}) stopped ({how}) and keeps stopping: it is not "
                "replaced again; duplitarot serves on with fewer processes, more slowly. Restart "
                "it (Ctrl+C, then serve again) when the evening allows."
            )
        self.stderr.flush()
        health.process_died(pid=pid, status=status, replacement=replacement)

    def _migrate(self) -> int:
        plan = schema.migration_plan()
        if plan:
            call_command("migrate", interactive=False, verbosity=0)
        return len(plan)

    def _cards_moved(self, data_dir: Path, public_url: str) -> dict[str, Any] | None:
        state = instance_state.read(data_dir)
        was = state.get("public_url")
        state["public_url"] = public_url
        instance_state.write(data_dir, state)
        if not was or was == public_url:
            return None
        competitions = competitions_with_cards()
        return {"was": was, "competitions": competitions} if competitions else None

    def _run_waitress(
        self,
        application: Any,
        host: str,
        port: int,
        options: dict[str, Any],
        sock: Any,
        split: Any,
    ) -> None:
        from waitress import serve

        where: dict[str, Any] = (
            {"sockets": [sock]} if sock is not None else {"host": host, "port": port}
        )
        threads = options["threads"]
        try:
            if split is None or split.is_first:
                background.runner.start()
                if options["reconcile"] > 0:
                    background.every(options["reconcile"], _reconcile)
                    background.runner.submit(_reconcile)
                background.every(backups.tick_seconds(), backups.backup_tick)
                background.runner.submit(backups.backup_tick)
            serve(
                application,
                **where,
                threads=max(1, threads),
                ident="duplitarot",
                connection_limit=500,
                # The phones' results are small; a slow Wi-Fi still delivers them.
                channel_timeout=60,
                _quiet=True,
            )
        except KeyboardInterrupt:
            pass
        finally:
            if split is not None and not split.is_first:
                # Another process: nothing of the first one's to undo (its lock, its runner).
                from django.db import connections

                connections.close_all()
                sys.stdout.flush()
                os._exit(0)
            if split is not None:
                split.stop_children()
            background.runner.stop(timeout=10)
            self.stdout.write("duplitarot stopped.")
            sys.stdout.flush()


MAX_PROCESSES = 4


def default_processes() -> int:
    """One serving process per core (at most :data:`MAX_PROCESSES`) on Linux, else one: Windows
    has no ``fork``, and macOS' system libraries do not all survive one."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return 1
    return max(1, min(MAX_PROCESSES, os.cpu_count() or 1))


def _writers_lock_path() -> Path:
    """The lock file the processes' SQLite writers take turns on, beside the database."""
    return Path(str(settings.DATABASES["default"]["NAME"]) + ".writers")


def _disk_full_line(data_dir: Path) -> str:
    try:
        free = f"{shutil.disk_usage(data_dir).free // (1024 * 1024)} MB free"
    except OSError:
        free = "no space left"
    return (
        f"the disk is full ({free} for {data_dir}): duplitarot cannot start. Free some space "
        "on this computer (empty the recycle bin, delete large files), then start it again."
    )


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _reconcile() -> None:
    from scoring.tasks import standings_reconcile_task

    standings_reconcile_task.run()

"""``python manage.py bench_late_flood [--posts 10000] [--clients 4] [--json] [--keep]``: a flood
of refused posts from one table code against ``duplitarot serve``, and the control room after.

Serves the demo from a new temporary data folder with ``duplitarot serve``, fetches the
control room, sends ``--posts`` refused posts (an impossible outcome carrying
``X-Entry-Kept-Since: 9999-12-31T23:59:59Z``) from the live event's table in play over
``--clients`` connections, then fetches the control room again: the answers by status, the
flood's rate, the page's size and time before and after, the database's size
(:mod:`bench.late_flood` says how). A measurement: it reports, it asserts nothing.
Bad arguments: exit code 2 and one line.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from bench.late_flood import format_report, run
from bench.phone import BenchError
from tournaments.management.base import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = "A flood of refused posts from one table code, and the control room after it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--posts", type=int, default=10_000)
        parser.add_argument("--clients", type=int, default=4)
        parser.add_argument("--json", action="store_true", help="the report as JSON")
        parser.add_argument("--keep", action="store_true", help="keep the data folder")
        # Internal: the child that builds the demo in the data folder it is given.
        parser.add_argument("--build", action="store_true", help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["build"]:
            if settings.DATA_DIR is None:
                raise CommandError("--build runs in a data folder (internal)", returncode=2)
            from django.core.management import call_command

            from bench.late_flood import build_target

            call_command("migrate", interactive=False, verbosity=0)
            self.stdout.write(json.dumps(build_target()))
            return
        if not 1 <= options["posts"] <= 1_000_000:
            raise CommandError("[invalid_arguments] --posts must be 1 to 1000000", returncode=2)
        if not 1 <= options["clients"] <= 64:
            raise CommandError("[invalid_arguments] --clients must be 1 to 64", returncode=2)
        try:
            report = run(options["posts"], options["clients"], options["keep"], settings.BASE_DIR)
        except BenchError as error:
            raise CommandError(f"[bench_failed] {error}", returncode=1) from error
        self.stdout.write(
            json.dumps(report, indent=2) if options["json"] else format_report(report)
        )

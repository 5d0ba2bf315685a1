"""``python manage.py bench_phone [--json] [--down-kbps 400] [--up-kbps 400] [--latency-ms 2000]
[--no-throttle] [--keep]``: the three phone pages on a slow network, in Chromium.

Serves the demo from a new temporary data folder with ``duplitarot serve`` and opens the
duplicate table phone, the cup room phone and the free-deal table phone at
``http://club.test:PORT`` in Debian's Chromium with the network emulated: first load, repeat
load, a save; the time and the bytes received of each (:mod:`bench.phone` says how). A
benchmark: it reports, it asserts nothing. About 1.5 minutes with the default network.
Bad arguments: exit code 2 and one line.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from bench.phone import BenchError, Network, build_phones, format_report, run
from tournaments.management.base import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = "The phone pages on a slow network (Chromium, DevTools network emulation)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="the report as JSON")
        parser.add_argument("--down-kbps", type=int, default=400)
        parser.add_argument("--up-kbps", type=int, default=400)
        parser.add_argument("--latency-ms", type=int, default=2000)
        parser.add_argument(
            "--no-throttle", action="store_true", help="no network emulation (a quick check)"
        )
        parser.add_argument("--keep", action="store_true", help="keep the data folder")
        # Internal: the child that builds the demo in the data folder it is given.
        parser.add_argument("--build", action="store_true", help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["build"]:
            if settings.DATA_DIR is None:
                raise CommandError("--build runs in a data folder (internal)", returncode=2)
            from django.core.management import call_command

            call_command("migrate", interactive=False, verbosity=0)
            phones = build_phones()
            self.stdout.write(json.dumps([asdict(phone) for phone in phones]))
            return
        for name in ("down_kbps", "up_kbps"):
            if not 1 <= options[name] <= 1_000_000:
                raise CommandError(
                    f"[invalid_arguments] --{name.replace('_', '-')} must be 1 to 1000000",
                    returncode=2,
                )
        if not 0 <= options["latency_ms"] <= 60_000:
            raise CommandError("[invalid_arguments] --latency-ms must be 0 to 60000", returncode=2)
        network = (
            None
            if options["no_throttle"]
            else Network(options["down_kbps"], options["up_kbps"], options["latency_ms"])
        )

        def say(line: str) -> None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

        try:
            report = run(base_dir=settings.BASE_DIR, network=network, keep=options["keep"], say=say)
        except BenchError as error:
            raise CommandError(f"[bench_failed] {error}", returncode=1) from error
        self.stdout.write(
            json.dumps(report, indent=2) if options["json"] else format_report(report)
        )

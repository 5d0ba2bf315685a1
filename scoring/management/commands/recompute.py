"""``python manage.py recompute EVENT_ID`` | ``--behind``: recompute standings synchronously.

The same computation as the background task (``scoring.services.standings_recompute``), forced
so the snapshot is rewritten even when it is already at the event's results version (a
section's standings are its simultaneous's). ``--behind`` brings up to date every event whose
snapshot is behind its results (after an upgrade, or a broker outage). An unknown event exits
with status 2 and one line on stderr.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser

from scoring.services import events_behind, standings_recompute
from tournaments.management.base import OneLineErrorCommand
from tournaments.models import Event


class Command(OneLineErrorCommand):
    help = "Recompute the standings snapshot of an event now (synchronously)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", nargs="?", help="the event id")
        parser.add_argument(
            "--behind",
            action="store_true",
            help="instead of one event: every event whose standings are behind its results",
        )
        parser.add_argument(
            "--if-behind",
            action="store_true",
            help="skip the work when the snapshot is already at the event's results version",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["behind"]:
            if options["event"] is not None:
                self._fail("recompute: give an event id or --behind, not both")
            for event_id in events_behind():
                snapshot = standings_recompute(event_id=event_id)
                self.stdout.write(
                    f"event {event_id}: standings at results version {snapshot.results_version}"
                )
            return
        if options["event"] is None:
            self._fail("recompute: give an event id (or --behind)")
        raw = str(options["event"])
        if not raw.isdigit():
            self._fail(f"recompute: event must be an event id (a whole number), got {raw!r}")
        try:
            snapshot = standings_recompute(event_id=int(raw), force=not options["if_behind"])
        except Event.DoesNotExist:
            self._fail(f"recompute: no event with id {raw}")
        state = "complete" if snapshot.complete else "provisional"
        self.stdout.write(
            f"event {raw}: standings at results version {snapshot.results_version}, "
            f"{snapshot.results_entered}/{snapshot.results_expected} results, {state}"
        )

    def _fail(self, message: str) -> None:
        sys.stderr.write(message + "\n")
        sys.exit(2)

"""``python manage.py recompute EVENT_ID``: recompute an event's standings synchronously.

The same computation as the background task (``scoring.services.standings_recompute``), forced
so the snapshot is rewritten even when it is already at the event's results version. An unknown
event exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser

from scoring.services import standings_recompute
from tournaments.management.base import OneLineErrorCommand
from tournaments.models import Event


class Command(OneLineErrorCommand):
    help = "Recompute the standings snapshot of an event now (synchronously)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="the event id")
        parser.add_argument(
            "--if-behind",
            action="store_true",
            help="skip the work when the snapshot is already at the event's results version",
        )

    def handle(self, *args: Any, **options: Any) -> None:
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

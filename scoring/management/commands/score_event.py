"""``python manage.py score_event FILE [--format text|json]``: score a whole tournament described
in a JSON file, without any database.

The file format is documented in ``docs/score-event-format.md`` (example:
``examples/individual-event.json``); the pure :mod:`scoring.core.event_file` parses and checks
it and prints the standings the comparison core computes. A bad file exits with status 2 and
one line naming the offending entry (``results[7] (deal 3, table 2): points: 95 is outside
0..91``), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from scoring.core import ScoringInputError, compute_standings
from scoring.core.event_file import EventFile, EventFileError, render_json, render_text
from tournaments.management.base import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = "Score a duplicate tarot tournament described in a JSON file (no database)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the event file (see docs/score-event-format.md)")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{path}: cannot be read ({error})", returncode=2) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})",
                returncode=2,
            ) from None
        except (ValueError, RecursionError):
            # a number of thousands of digits, or arrays nested thousands deep
            raise CommandError(
                f"{path}: not valid JSON (a number too long or a nesting too deep)", returncode=2
            ) from None
        try:
            event = EventFile(data)
            standings = compute_standings(event.tournament())
        except (EventFileError, ScoringInputError) as error:
            raise CommandError(f"{path}: {error}", returncode=2) from None
        render = render_json if options["format"] == "json" else render_text
        self.stdout.write(render(event, standings), ending="")

"""``manage.py archive_event EVENT_ID [-o FILE]``: an event's archive (``docs/archive-format.md``).

Writes the archive of the event (a simultaneous with its sections) to FILE, or to stdout.
An unknown event, a section (archived with its simultaneous) or a file that cannot be written
exits with code 2 and one line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext

from scoring.archive import ArchiveError, archive_event, dumps
from tournaments.management.base import OneLineErrorCommand
from tournaments.models import Event


def _one_line(text: str) -> str:
    return " ".join(text.split())


class Command(OneLineErrorCommand):
    help = "Write an event's archive (one JSON file: everything needed to restore it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int, help="The event (a simultaneous: its id).")
        parser.add_argument("-o", "--output", help="The file to write (default: stdout).")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.select_related("club").filter(pk=options["event_id"]).first()
        if event is None:
            message = gettext("no event has the id %(id)s") % {"id": options["event_id"]}
            raise CommandError(_one_line(f"[event_not_found] {message}"), returncode=2)
        try:
            text = dumps(archive_event(event))
        except ArchiveError as error:
            raise CommandError(
                _one_line(f"[{error.code}] {error.describe()}"), returncode=2
            ) from None
        output = options.get("output")
        if not output:
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            message = gettext("cannot write the file (%(reason)s)") % {"reason": error.strerror}
            raise CommandError(
                _one_line(f"[file_error] {output}: {message}"), returncode=2
            ) from None

"""``manage.py archive_event EVENT_ID [-o FILE]``: an event's archive (``docs/archive-format.md``).

Writes the archive of the event (a simultaneous with its sections) to FILE, or to stdout; the
same as ``manage.py archive event EVENT_ID``. An unknown event, a section (archived with its
simultaneous) or a file that cannot be written exits with code 2 and one line on stderr.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.utils.translation import gettext

from archives.events import archive_event
from archives.format import ArchiveError
from archives.management.base import archive_failed, fail, write_document
from tournaments.management.base import OneLineErrorCommand
from tournaments.models import Event


class Command(OneLineErrorCommand):
    help = "Write an event's archive (one JSON file: everything needed to restore it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int, help="The event (a simultaneous: its id).")
        parser.add_argument("-o", "--output", help="The file to write (default: stdout).")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.select_related("club").filter(pk=options["event_id"]).first()
        if event is None:
            message = gettext("no event has the id %(id)s") % {"id": options["event_id"]}
            raise fail("event_not_found", message)
        try:
            document = archive_event(event)
        except ArchiveError as error:
            raise archive_failed(error) from None
        write_document(self, document, options.get("output"))

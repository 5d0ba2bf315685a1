"""``manage.py archive KIND ID [-o FILE]``: the archive of a competition of any kind.

KIND is ``event``, ``cup``, ``free-deal`` or ``series`` (a series' archive holds its events).
Writes the archive (``docs/archive-format.md``) to FILE, or to stdout. An unknown kind or id,
a section (archived with its simultaneous) or a file that cannot be written exits with code 2
and one line on stderr.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.utils.translation import gettext

from archives.format import ArchiveError
from archives.kinds import KINDS
from archives.management.base import archive_failed, fail, write_document
from tournaments.management.base import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = "Write the archive of an event, a cup, a free-deal tournament or a series."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", help="event, cup, free-deal or series.")
        parser.add_argument("id", type=int, help="The competition's id.")
        parser.add_argument("-o", "--output", help="The file to write (default: stdout).")

    def handle(self, *args: Any, **options: Any) -> None:
        kind = KINDS.get(options["kind"])
        if kind is None:
            raise fail(
                "unknown_kind",
                gettext("%(kind)s is not a kind of archive: choose %(kinds)s")
                % {"kind": options["kind"], "kinds": ", ".join(KINDS)},
            )
        competition = kind.model._default_manager.filter(pk=options["id"]).first()
        if competition is None:
            raise fail(
                "not_found",
                gettext("no %(kind)s has the id %(id)s") % {"kind": kind.name, "id": options["id"]},
            )
        try:
            document = kind.archive(competition)
        except ArchiveError as error:
            raise archive_failed(error) from None
        write_document(self, document, options.get("output"))

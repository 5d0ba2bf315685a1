"""``manage.py restore FILE --club CLUB [--keep-codes]``: restore an archive of any kind.

The document's ``schema`` says its kind (an event, a cup, a free-deal tournament, a series
with its events). CLUB is the club's id or its name (any case). The file is checked entirely
before anything is written, then restored in one transaction; every table or room gets a new
phone code unless ``--keep-codes``. Prints what was restored and whether a recompute gives
the archived figures. A bad file, an unknown club or codes already in use exit with code 2
and one line on stderr.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from archives.format import ArchiveError
from archives.kinds import restore_document, restored_summary
from archives.management.base import archive_failed, club_named, read_file
from tournaments.management.base import OneLineErrorCommand


class Command(OneLineErrorCommand):
    help = "Restore an archive (event, cup, free-deal tournament or series) into a club."
    #: The kinds this command restores (None: every kind).
    kinds: tuple[str, ...] | None = None

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The archive (written by manage.py archive).")
        parser.add_argument("--club", required=True, help="The club's id or name.")
        parser.add_argument(
            "--keep-codes",
            "--keep-table-codes",
            dest="keep_codes",
            action="store_true",
            help="Keep the archived phone codes (refused if one is in use on this server).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_named(options["club"])
        data = read_file(options["file"])
        try:
            restored = restore_document(
                data, club=club, keep_codes=options["keep_codes"], allowed=self.kinds
            )
        except ArchiveError as error:
            raise archive_failed(error) from None
        self.stdout.write(f"#{restored.obj.pk} {restored.obj} → {club.name}")
        self.stdout.write(restored_summary(restored))

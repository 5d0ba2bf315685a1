"""``manage.py restore_event FILE --club CLUB [--keep-table-codes]``: restore an archive.

CLUB is the club's id or its name (any case). The file is checked entirely before anything is
written; every table gets a new entry code unless ``--keep-table-codes``. Prints the event
restored and whether the standings recomputed from its results equal the archived ones.
A bad file, an unknown club or codes already in use exit with code 2 and one line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext

from clubs.models import Club
from scoring.archive import MAX_BYTES, ArchiveError, restore_archive
from tournaments.management.base import OneLineErrorCommand


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _club(value: str) -> Club:
    club = None
    if value.strip().isdigit():
        club = Club.objects.filter(pk=int(value)).first()
    if club is None:
        club = Club.objects.filter(name__iexact=value.strip()).first()
    if club is None:
        message = gettext("no club has the id or the name %(club)s") % {"club": value}
        raise CommandError(_one_line(f"[club_not_found] {message}"), returncode=2)
    return club


class Command(OneLineErrorCommand):
    help = "Restore an event archive into a club (new table codes unless asked to keep them)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The archive (written by archive_event).")
        parser.add_argument("--club", required=True, help="The club's id or name.")
        parser.add_argument(
            "--keep-table-codes",
            action="store_true",
            help="Keep the archived table codes (refused if one is in use on this server).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = _club(options["club"])
        path = Path(options["file"])
        try:
            with path.open("rb") as stream:
                data = stream.read(MAX_BYTES + 1)
        except OSError as error:
            message = gettext("cannot read the file (%(reason)s)") % {"reason": error.strerror}
            raise CommandError(_one_line(f"[file_error] {path}: {message}"), returncode=2) from None
        try:
            report = restore_archive(data, club=club, keep_table_codes=options["keep_table_codes"])
        except ArchiveError as error:
            raise CommandError(
                _one_line(f"[{error.code}] {error.describe()}"), returncode=2
            ) from None
        event = report.event
        codes = (
            gettext("table codes kept") if report.table_codes_kept else gettext("new table codes")
        )
        self.stdout.write(
            gettext(
                'Restored event #%(id)s "%(name)s" into %(club)s: %(sections)s sections, '
                "%(tables)s tables (%(codes)s), %(results)s results, %(matched)s players "
                "matched by licence, %(created)s created."
            )
            % {
                "id": event.pk,
                "name": event.name,
                "club": club.name,
                "sections": report.sections,
                "tables": report.tables,
                "codes": codes,
                "results": report.results,
                "matched": report.players_matched,
                "created": report.players_created,
            }
        )
        if report.verified is None:
            self.stdout.write(gettext("No standings in the archive: nothing to verify."))
        elif report.verified:
            self.stdout.write(gettext("Standings verified: a recompute gives the archived ones."))
        else:
            self.stdout.write(
                gettext("Standings differ from a recompute (%(what)s): the archived ones are kept.")
                % {"what": ", ".join(report.differences or [])}
            )

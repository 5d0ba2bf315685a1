"""``duplitarot restore_backup FILE``: put a backup back, while nothing serves.

Refuses (exit code 2, one line, nothing changed) while a server serves from the data folder
(its lock, held meanwhile so that no server starts during the restore), a file that is not a
sound duplitarot database, another application's database and a backup written by a newer
version (``instance.schema``). The database it replaces is backed up first
(``…-before-restore.sqlite3``). The next ``duplitarot serve`` applies the migrations a backup of
an older version needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from filelock import FileLock, Timeout

from instance import backups


class Command(BaseCommand):
    help = "Put a backup of the database back (the server must be stopped)."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a backup (duplitarot-….sqlite3)")

    def handle(self, *args: Any, **options: Any) -> None:
        lock_path = settings.DUPLITAROT_SERVE_LOCK
        lock = FileLock(str(lock_path)) if lock_path is not None else None
        if lock is not None:
            try:
                lock.acquire(timeout=0)
            except Timeout:
                raise CommandError(
                    _(
                        "duplitarot is serving from %(folder)s: stop it first (Ctrl+C in its "
                        "terminal), then restore."
                    )
                    % {"folder": settings.DATA_DIR},
                    returncode=2,
                ) from None
        try:
            before = backups.backup_restore(options["file"].expanduser().resolve())
        except backups.BackupError as error:
            raise CommandError(str(error), returncode=2) from None
        finally:
            if lock is not None:
                lock.release()
        if before is not None:
            self.stdout.write(_("The database it replaced is kept in %(file)s") % {"file": before})
        self.stdout.write(
            _("Restored %(file)s into %(database)s. Start duplitarot again.")
            % {"file": options["file"], "database": backups.sqlite_database()}
        )

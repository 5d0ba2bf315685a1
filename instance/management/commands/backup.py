"""``duplitarot backup``: back the SQLite database of a club's instance up now."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from instance import backups


class Command(BaseCommand):
    help = "Back the database up now (a club's instance on SQLite)."

    def handle(self, *args: Any, **options: Any) -> None:
        database = backups.sqlite_database()
        if database is None or backups.backup_folder() is None:
            raise CommandError(
                _(
                    "no backup folder: backups are taken for a club's instance on SQLite "
                    "(duplitarot serve); for PostgreSQL use pg_dump (docs/backups.md)."
                ),
                returncode=2,
            )
        if not database.exists():
            raise CommandError(
                _("There is no database in %(folder)s yet: nothing to back up.")
                % {"folder": database.parent},
                returncode=2,
            )
        try:
            path = backups.backup_create(reason="manual")
        except backups.BackupError as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(str(path))

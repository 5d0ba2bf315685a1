"""``duplitarot backup``: back the SQLite database of a club's instance up now."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from instance.backups import BackupError, backup_create


class Command(BaseCommand):
    help = "Back the database up now (a club's instance on SQLite)."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            path = backup_create(reason="manual")
        except BackupError as error:
            raise CommandError(str(error), returncode=2) from None
        if path is None:
            raise CommandError(
                "no backup folder: backups are taken for a club's instance on SQLite "
                "(duplitarot serve); for PostgreSQL use pg_dump (docs/backups.md).",
                returncode=2,
            )
        self.stdout.write(str(path))

"""``duplitarot setup_code``: a new one-time code for the first-run page (the previous dies)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from instance import backups, schema
from instance.setup import setup_code_issue


class Command(BaseCommand):
    help = "Print a new one-time setup code for the first-run page (/setup/)."

    def handle(self, *args: Any, **options: Any) -> None:
        database = backups.sqlite_database()
        if (database is not None and not database.exists()) or schema.migration_plan():
            # A data folder never served (asked before connecting: that would create the file),
            # or an upgrade not started yet: serve prepares the database, and prints a setup
            # code of its own.
            raise CommandError(
                _(
                    "The database in %(folder)s is not ready yet: start duplitarot serve, "
                    "it prepares it and prints a setup code."
                )
                % {"folder": settings.DATA_DIR or settings.DATABASES["default"]["NAME"]},
                returncode=2,
            )
        code = setup_code_issue()
        if code is None:
            raise CommandError(
                _("This duplitarot is already set up (an account exists): log in instead."),
                returncode=2,
            )
        self.stdout.write(code)

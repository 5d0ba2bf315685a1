"""``duplitarot setup_code``: a new one-time code for the first-run page (the previous dies)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from instance.setup import setup_code_issue


class Command(BaseCommand):
    help = "Print a new one-time setup code for the first-run page (/setup/)."

    def handle(self, *args: Any, **options: Any) -> None:
        code = setup_code_issue()
        if code is None:
            raise CommandError(
                "this duplitarot is set up already (an account exists): log in instead.",
                returncode=2,
            )
        self.stdout.write(code)

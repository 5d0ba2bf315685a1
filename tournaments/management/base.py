"""A management command base whose bad arguments end in one line and exit code 2.

argparse prints the whole usage on a wrong argument; our commands promise one clear line on
stderr (``CommandError: [invalid_arguments] ...``) and exit code 2, like every other bad input.
A database that was never migrated (its tables missing) is said the same way, with the command
that fixes it, rather than as a traceback.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.utils import OperationalError, ProgrammingError


def _missing_table(error: Exception) -> bool:
    text = str(error)
    return "no such table" in text or ("relation" in text and "does not exist" in text)


class OneLineErrorCommand(BaseCommand):
    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)

        def one_line_error(message: str) -> NoReturn:
            text = f"[invalid_arguments] {message}"
            if parser.called_from_command_line:
                sys.stderr.write(f"CommandError: {text}\n")
                sys.exit(2)
            raise CommandError(text, returncode=2)

        parser.error = one_line_error  # type: ignore[method-assign]
        return parser

    def execute(self, *args: Any, **options: Any) -> Any:
        try:
            return super().execute(*args, **options)
        except (OperationalError, ProgrammingError) as error:
            if not _missing_table(error):
                raise
            raise CommandError(
                "[database_not_migrated] the database has no tables yet: run "
                "`manage.py migrate` first",
                returncode=2,
            ) from error

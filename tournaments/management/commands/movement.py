"""``manage.py movement``: generate or check a movement document.

    python manage.py movement --format individual --tables 7 [--rounds R] [--players P]
                              [--seed S] [--json]
    python manage.py movement --format individual --players 29          (tables proposed)
    python manage.py movement --format triplette --teams 16 [--json]
    python manage.py movement --format quadrette --teams 13 [--rounds R] [--json]
    python manage.py movement --check FILE.json [--json]                 (FILE may be -)

Generation prints the document as JSON with ``--json``; otherwise a readable rendering and the
quality report. ``--check`` validates a document and prints the report (text, or the report
as JSON with ``--json``). Exit code 2, with one line on stderr, on bad arguments, an
unreadable or ill-formed file, or a movement with any hard error. No database is used.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournaments.management.base import OneLineErrorCommand
from tournaments.movements import (
    MovementError,
    generate,
    render_text,
    validate,
)


class Command(OneLineErrorCommand):
    help = "Generate a movement (individual, triplette, quadrette) or check a movement file."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=["individual", "triplette", "quadrette"])
        parser.add_argument("--tables", type=int, help="Individual: number of tables.")
        parser.add_argument("--players", type=int, help="Individual: number of players.")
        parser.add_argument("--teams", type=int, help="Triplette/quadrette: number of teams.")
        parser.add_argument("--rounds", type=int, help="Number of rounds (default: the most).")
        parser.add_argument("--seed", type=int, default=0, help="Search seed (default 0).")
        parser.add_argument("--json", action="store_true", help="Print JSON.")
        parser.add_argument("--check", metavar="FILE", help="Validate a movement JSON file.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"] is not None:
            if options["format"] is not None:
                raise CommandError("[invalid_arguments] use either --check or --format", 2)
            self.check_file(options["check"], as_json=options["json"])
            return
        if options["format"] is None:
            raise CommandError("[invalid_arguments] give --format or --check FILE", returncode=2)
        try:
            doc = self.generate(options)
        except MovementError as exc:
            raise CommandError(f"[movement] {exc}", returncode=2) from exc
        if options["json"]:
            self.emit(json.dumps(doc, indent=1))
        else:
            self.emit(render_text(doc))
            self.emit(validate(doc).format_text())

    def emit(self, text: str) -> None:
        try:
            self.stdout.write(text)
            self.stdout.flush()
        except BrokenPipeError:
            # The reader went away (e.g. piped into ``head``): stop quietly, no traceback.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(0) from None

    def generate(self, options: dict[str, Any]) -> dict[str, Any]:
        fmt = options["format"]
        tables, players, teams = options["tables"], options["players"], options["teams"]
        rounds, seed = options["rounds"], options["seed"]
        if fmt == "individual":
            if teams is not None:
                raise MovementError("--teams is for team formats; use --tables/--players")
            if tables is None and players is None:
                raise MovementError("give --tables (and optionally --players)")
            return generate(fmt, players, tables=tables, rounds=rounds, seed=seed)
        if tables is not None or players is not None:
            raise MovementError(f"{fmt}: give --teams, not --tables/--players")
        if teams is None:
            raise MovementError(f"{fmt}: --teams is required")
        if fmt == "triplette" and rounds is not None and rounds != 4:
            raise MovementError("triplette pools play 4 rounds")
        return generate(fmt, teams, rounds=rounds, seed=seed)

    def check_file(self, path: str, *, as_json: bool) -> None:
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"[unreadable] cannot read {path}: {exc}", returncode=2) from exc
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(
                f"[ill_formed] {path} is not valid JSON (line {exc.lineno}, column {exc.colno})",
                returncode=2,
            ) from exc
        report = validate(document)
        if as_json:
            self.emit(json.dumps(report.to_dict(), indent=1))
        else:
            self.emit(report.format_text())
        if not report.ok:
            first = report.errors[0]
            raise CommandError(
                f"[refused] {len(report.errors)} hard error(s); first: {first}", returncode=2
            )

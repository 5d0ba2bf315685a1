"""``manage.py score_deal``: score one deal outcome read as JSON on stdin.

Input: the input shape of ``tests/rules/data/deal-scores.json`` (players, contract, oudlers,
points, petit_au_bout, poignees, chelem, partner; and ``chien``, ``petit_chelem`` under the
rulesets that have them, see ``docs/rulesets.md``). Output: one JSON object with ``won``,
``margin``, ``value`` and ``marks`` (``taker``, ``partner``, ``defender``).

``--ruleset fft|traditional|house`` (default ``fft``) scores under that rule system;
``--pousse-multiplier N`` (default 2) and ``--flambeuse`` are the traditional ruleset's
parameters. An unknown ruleset or a parameter of another ruleset exits with code 2.

Invalid input exits with code 2 and one line on stderr naming the error code and the field,
e.g. ``CommandError: [points_out_of_range] points: 95 is outside 0..91``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext, ngettext

from rules import RuleError, Ruleset, outcome_from_dict, score_deal
from rules.enums import DEFAULT_POUSSE_MULTIPLIER
from rules.ruleset import RulesetName, ruleset_from_choice
from tournaments.management.base import OneLineErrorCommand


def _one_line(text: str) -> str:
    return " ".join(text.split())


class Command(OneLineErrorCommand):
    help = "Score one deal outcome given as JSON on stdin; print won, margin, value and marks."
    requires_system_checks: list[str] = []
    # call_command(..., stdin=io.StringIO(...)) lets tests feed the input without a process.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--indent", type=int, default=None, help="Pretty-print the JSON with this indent."
        )
        parser.add_argument(
            "--ruleset",
            default=RulesetName.FFT.value,
            help="The rule system: fft (default), traditional or house.",
        )
        parser.add_argument(
            "--pousse-multiplier",
            type=int,
            default=None,
            help=f"traditional: the pousse's multiplier (default {DEFAULT_POUSSE_MULTIPLIER}).",
        )
        parser.add_argument(
            "--flambeuse",
            action="store_true",
            help="traditional: the 5-player flambeuse (14 cards each, the taker alone).",
        )

    def _ruleset(self, options: dict[str, Any]) -> Ruleset:
        name = options.get("ruleset") or RulesetName.FFT.value
        multiplier = options.get("pousse_multiplier")
        flambeuse = bool(options.get("flambeuse"))
        ruleset = ruleset_from_choice({"name": str(name).strip().lower()})
        if ruleset.name is not RulesetName.TRADITIONAL:
            if multiplier is not None or flambeuse:
                message = gettext(
                    "--pousse-multiplier and --flambeuse are options of the traditional ruleset"
                )
                raise CommandError(f"[invalid_arguments] {message}", returncode=2)
            return ruleset
        data: dict[str, object] = {"name": ruleset.name.value, "flambeuse": flambeuse}
        if multiplier is not None:
            data["pousse_multiplier"] = multiplier
        return ruleset_from_choice(data)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            ruleset = self._ruleset(options)
        except RuleError as err:
            where = f" {err.field}:" if err.field else ""
            message = _one_line(err.translated(gettext, ngettext))
            raise CommandError(f"[{err.code}]{where} {message}", returncode=2) from None
        stream = options.get("stdin") or sys.stdin
        raw = stream.read()
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            # The position only: the decoder's own text is English whatever the language.
            message = gettext("not valid JSON (line %(line)s, column %(column)s)") % {
                "line": exc.lineno,
                "column": exc.colno,
            }
            raise CommandError(
                _one_line(f"[invalid_json] stdin: {message}"), returncode=2
            ) from None
        except (ValueError, RecursionError):
            # a number of thousands of digits, or arrays nested thousands deep
            message = gettext("number too long or nesting too deep")
            raise CommandError(
                _one_line(f"[invalid_json] stdin: {message}"), returncode=2
            ) from None
        try:
            score = score_deal(outcome_from_dict(data, ruleset))
        except RuleError as err:
            where = f" {err.field}:" if err.field else ""
            message = _one_line(err.translated(gettext, ngettext))
            raise CommandError(f"[{err.code}]{where} {message}", returncode=2) from None
        self.stdout.write(json.dumps(score.to_dict(), indent=options["indent"]))

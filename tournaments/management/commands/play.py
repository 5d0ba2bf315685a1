"""``manage.py play FILE.json``: replay a complete play record, card by card.

    python manage.py play record.json [--json]

The record's format is :mod:`rules.record` (bids, chien, écart, every trick; the ruleset when
not the FFT's). Each card is checked against the hand and the rules; a valid record prints the
outcome (contract, oudlers, points, petit au bout, poignées, chelem) and each seat's marks, as
text or, with ``--json``, as one JSON object ``{"outcome": ..., "score": ..., "marks": ...}``.

A director settles a dispute with it. Every fault exits with code 2 and one line on stderr:
the first illegal card with its reason (``[illegal_card] tricks[3][2]: trick 4, seat W: H4 is
illegal, the suit led (S7) must be followed``), an unreadable file, bad JSON (line and column)
or a bad shape (the field at fault).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext, ngettext

from rules import RuleError, format_half_points, outcome_to_dict, score_deal, seat_marks
from rules.enums import Side
from rules.play import outcome_from_play
from rules.record import record_from_json, validate_record
from rules.scoring import DealScore, Outcome
from tournaments.management.base import OneLineErrorCommand

# A play record is a few kilobytes; anything far larger is not one.
MAX_BYTES = 1_000_000


def _one_line(text: str) -> str:
    return " ".join(text.split())


def rule_error_line(err: RuleError) -> str:
    """``[code] field: message`` in the active language, on one line."""
    where = f" {err.field}:" if err.field else ""
    return _one_line(f"[{err.code}]{where} {err.translated(gettext, ngettext)}")


def read_json_file(path: str, label: str = "file") -> object:
    """The JSON value of ``path``; a CommandError (exit 2, one line) when it cannot be read."""
    try:
        with Path(path).open("rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except OSError:
        message = gettext("cannot read the file %(path)s") % {"path": path}
        raise CommandError(
            _one_line(f"[unreadable_file] {label}: {message}"), returncode=2
        ) from None
    if len(raw) > MAX_BYTES:
        message = gettext("the file is larger than %(size)s bytes") % {"size": MAX_BYTES}
        raise CommandError(_one_line(f"[file_too_large] {label}: {message}"), returncode=2)
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        message = gettext("the file is not UTF-8 text")
        raise CommandError(_one_line(f"[invalid_json] {label}: {message}"), returncode=2) from None
    except json.JSONDecodeError as exc:
        message = gettext("not valid JSON (line %(line)s, column %(column)s)") % {
            "line": exc.lineno,
            "column": exc.colno,
        }
        raise CommandError(_one_line(f"[invalid_json] {label}: {message}"), returncode=2) from None
    except (ValueError, RecursionError):
        message = gettext("number too long or nesting too deep")
        raise CommandError(_one_line(f"[invalid_json] {label}: {message}"), returncode=2) from None


def _chelem_text(outcome: Outcome) -> str:
    chelem = outcome.chelem
    if chelem.made_by is Side.ATTACK:
        text = (
            gettext("announced and made by the attack")
            if chelem.announced or chelem.petit_announced
            else gettext("made by the attack, not announced")
        )
    elif chelem.made_by is Side.DEFENCE:
        text = gettext("made by the defence")
    elif chelem.announced:
        text = gettext("announced, failed")
    else:
        text = gettext("no chelem")
    if chelem.petit_announced or chelem.petit_made:
        if chelem.petit_made:
            petit = (
                gettext("announced and made by the attack")
                if chelem.petit_announced
                else gettext("made by the attack, not announced")
            )
        else:
            petit = gettext("announced, failed")
        text += " · " + gettext("petit chelem: %(result)s") % {"result": petit}
    return text


def outcome_lines(
    outcome: Outcome, score: DealScore, marks: dict[str, int], taker: str, partner: str | None
) -> list[str]:
    """The text report: outcome, result and marks, in the active language."""
    lines = [
        gettext("Contract: %(contract)s, taker %(taker)s, partner %(partner)s")
        % {"contract": gettext(outcome.contract.label), "taker": taker, "partner": partner}
        if partner
        else gettext("Contract: %(contract)s, taker %(taker)s")
        % {"contract": gettext(outcome.contract.label), "taker": taker},
        gettext("Oudlers: %(oudlers)s, points: %(points)s")
        % {"oudlers": outcome.oudlers, "points": format_half_points(outcome.points_half)},
        gettext("Petit au bout: none")
        if outcome.petit_au_bout is None
        else gettext("Petit au bout: %(side)s") % {"side": gettext(outcome.petit_au_bout.value)},
        gettext("Poignées: %(poignees)s")
        % {
            "poignees": ", ".join(
                f"{gettext(poignee.size.label)} ({gettext(poignee.side.value)})"
                for poignee in outcome.poignees
            )
        }
        if outcome.poignees
        else gettext("Poignées: none"),
        gettext("Chelem: %(chelem)s") % {"chelem": _chelem_text(outcome)},
        (
            gettext("Won by %(margin)s, value %(value)s")
            if score.won
            else gettext("Lost by %(margin)s, value %(value)s")
        )
        % {"margin": score.margin, "value": score.value},
        gettext("Marks: %(marks)s")
        % {"marks": ", ".join(f"{seat} {mark:+d}" for seat, mark in marks.items())},
    ]
    return lines


class Command(OneLineErrorCommand):
    help = "Replay a play record (JSON) card by card; print the outcome and marks."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The play record, a JSON file (see rules.record).")
        parser.add_argument(
            "--json", action="store_true", help="Print one JSON object instead of text."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_json_file(options["file"])
        try:
            record, bids = record_from_json(data)
            validate_record(record, bids)
            outcome = outcome_from_play(record, validate=False)
            score = score_deal(outcome)
            seats = record.deal.seats
            partner = record.partner
            taker_name = seats[record.taker]
            partner_name = seats[partner] if partner is not None else None
            marks = seat_marks(score, seats, taker_name, partner_name)
        except RuleError as err:
            raise CommandError(rule_error_line(err), returncode=2) from None
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {"outcome": outcome_to_dict(outcome), "score": score.to_dict(), "marks": marks}
                )
            )
            return
        for line in outcome_lines(outcome, score, marks, taker_name, partner_name):
            self.stdout.write(line)

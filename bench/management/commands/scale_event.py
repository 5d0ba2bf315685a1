"""``python manage.py scale_event``: build an individual event of any size, filled in bulk.

``--tables N --rounds R [--sections K] [--deals-per-round D] [--fill PERCENT] [--seed S]
[--name NAME] [--recompute] [--json]`` builds one public event in the club ``Tarot Club Grande
Échelle`` with :func:`bench.scale.scale_event_build` and prints its id, its name and how many
results were stored (one JSON document with ``--json``). With ``--sections K`` it builds a
simultaneous of K sections of N tables each instead (``--tables 25 --sections 100``: 2,500
tables), each section with its own club and players, and prints the simultaneous's id, its
sections' ids, the tables in all and the results stored in every section. ``--recompute``
then computes the standings (``scoring.services.standings_recompute``, forced; of the
simultaneous, which compares every section). Bad arguments, or sizes no movement fits, exit
with status 2 and one line on stderr.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from bench.scale import MAX_ROUNDS, MAX_SECTIONS, MAX_TABLES, MIN_TABLES, scale_event_build
from clubs.errors import DomainError
from scoring.services import standings_recompute
from tournaments.management.base import OneLineErrorCommand
from tournaments.models import Event, TableResult


def _bad(message: str) -> CommandError:
    return CommandError(f"[invalid_arguments] {message}", returncode=2)


def _integer(name: str, value: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except ValueError:
        raise _bad(f"--{name}: {value!r} is not a whole number") from None
    if not low <= number <= high:
        raise _bad(f"--{name}: {number} is outside {low}..{high}")
    return number


def _percentage(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise _bad(f"--fill: {value!r} is not a percentage") from None
    if not 0 <= number <= 100:  # also refuses nan
        raise _bad(f"--fill: {value} is outside 0..100")
    return number


class Command(OneLineErrorCommand):
    help = (
        "Build a public individual event of N tables and R rounds (or a simultaneous of K "
        "sections of N tables), its results filled in bulk (simulated plays), for benchmarks, "
        "load tests and trying the product."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        tables = f"tables ({MIN_TABLES}..{MAX_TABLES}; of each section with --sections)"
        parser.add_argument("--tables", required=True, help=tables)
        sections = (
            f"build a simultaneous of this many sections of --tables tables (0..{MAX_SECTIONS}; "
            f"default 0: one event), at most {MAX_TABLES} tables in all"
        )
        parser.add_argument("--sections", default="0", help=sections)
        parser.add_argument("--rounds", required=True, help=f"rounds (1..{MAX_ROUNDS})")
        parser.add_argument("--deals-per-round", default="4", help="deals per round (1..12)")
        parser.add_argument("--fill", default="100",
                            help="percentage of the scheduled plays entered, in round order "
                                 "(default 100)")  # fmt: skip
        parser.add_argument("--seed", default="1", help="seed of the movement, deals and plays")
        parser.add_argument("--name", default="", help="event name (default: from the size)")
        parser.add_argument("--recompute", action="store_true",
                            help="compute the standings at the end")  # fmt: skip
        parser.add_argument("--json", action="store_true", help="print one JSON document")

    def handle(self, *args: Any, **options: Any) -> None:
        tables = _integer("tables", str(options["tables"]), MIN_TABLES, MAX_TABLES)
        rounds = _integer("rounds", str(options["rounds"]), 1, MAX_ROUNDS)
        sections = _integer("sections", str(options["sections"]), 0, MAX_SECTIONS)
        if tables * sections > MAX_TABLES:
            raise _bad(
                f"--tables × --sections: {tables} × {sections} = {tables * sections} tables, "
                f"more than {MAX_TABLES}"
            )
        per_round = _integer("deals-per-round", str(options["deals_per_round"]), 1, 12)
        fill = _percentage(str(options["fill"]))
        seed = _integer("seed", str(options["seed"]), 0, 2**62)
        name = str(options["name"] or "").strip()
        if len(name) > 200:
            raise _bad("--name: at most 200 characters")
        started = time.monotonic()
        try:
            event = scale_event_build(tables=tables, rounds=rounds, deals_per_round=per_round,
                                      fill=fill, seed=seed, name=name or None,
                                      sections=sections)  # fmt: skip
        except (ValueError, DomainError) as exc:
            detail = "; ".join(str(d) for d in getattr(exc, "details", None) or [])
            message = f"{exc}: {detail}" if detail else str(exc)
            raise _bad(f"scale_event: {' '.join(message.split())}") from exc
        built = time.monotonic() - started
        section_ids = list(
            Event.objects.filter(simultaneous=event).order_by("pk").values_list("pk", flat=True)
        )
        total = tables * sections if sections else tables
        results = TableResult.objects.filter(event_id__in=section_ids or [event.pk]).count()
        recompute_s = None
        if options["recompute"]:
            started = time.monotonic()
            standings_recompute(event_id=event.pk, force=True)
            recompute_s = time.monotonic() - started
        summary = {
            "event": event.pk,
            "name": event.name,
            "simultaneous": event.pk if sections else None,
            "sections": len(section_ids),
            "section_ids": section_ids,
            "section_tables": tables if sections else None,
            "tables": total,
            "rounds": rounds,
            "deals_per_round": per_round,
            "players": 4 * total,
            "results": results,
            "fill": fill,
            "seed": seed,
            "build_s": round(built, 3),
            "recompute_s": None if recompute_s is None else round(recompute_s, 3),
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary, ensure_ascii=False))
            return
        if sections:
            self.stdout.write(f"simultaneous {event.pk}: {event.name}")
            self.stdout.write(
                f"  {sections} sections × {tables} tables = {total} tables (events "
                f"{section_ids[0]}..{section_ids[-1]})"
            )
        else:
            self.stdout.write(f"event {event.pk}: {event.name}")
        self.stdout.write(
            f"  {total} tables, {4 * total} players, {rounds} rounds × {per_round} deals; "
            f"{results} results stored in {built:.1f} s"
        )
        if recompute_s is not None:
            self.stdout.write(f"  standings recomputed in {recompute_s:.1f} s")

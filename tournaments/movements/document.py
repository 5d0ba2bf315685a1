"""The movement document (schema ``duplitarot-movement/1``) and helpers to build it.

A movement is a plain JSON-compatible dict; see docs in the package ``__init__``. Generators
build :class:`Seating` rows and call :func:`build_document`, which emits the keys in the order
of the specification, followed by the documented extra keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rules.duplicate import DUPLICATE_SEATS

SCHEMA = "duplitarot-movement/1"
SEATS: Final = DUPLICATE_SEATS  # N, E, S, W (rules.duplicate)
FORMATS = ("individual", "triplette", "quadrette")
KINDS = ("line", "howell", "pools", "matches")
#: The seat of the étui's taker in team formats (document key ``taker_seat``).
TEAM_TAKER_SEAT = "N"

Document = dict[str, Any]


class MovementError(ValueError):
    """A movement cannot be generated with these parameters, or a document is unusable."""


@dataclass(frozen=True)
class Entrant:
    id: int
    line: str | None = None
    team: int | None = None
    phantom: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "line": self.line, "team": self.team, "phantom": self.phantom}


@dataclass(frozen=True)
class Seating:
    """One table in one round: who sits where and which étui (deal set, copy) it plays."""

    table: int
    seats: Mapping[str, int]
    deal_set: int
    copy: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "seats": {seat: self.seats[seat] for seat in SEATS},
            "deal_set": self.deal_set,
            "copy": self.copy,
        }


@dataclass
class RoundPlan:
    round: int
    tables: list[Seating]
    byes: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "tables": [seating.to_dict() for seating in sorted(self.tables, key=lambda s: s.table)],
            "byes": sorted(self.byes),
        }


def build_document(
    *,
    format: str,
    kind: str,
    tables: int,
    deal_sets: int,
    copies: int,
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundPlan],
    max_meetings: int,
    taker_seat: str | None = None,
    generator: Mapping[str, Any] | None = None,
) -> Document:
    doc: Document = {
        "schema": SCHEMA,
        "format": format,
        "kind": kind,
        "tables": tables,
        "rounds": len(rounds),
        "seats": list(SEATS),
        "deal_sets": deal_sets,
        "copies": copies,
        "entrants": [entrant.to_dict() for entrant in sorted(entrants, key=lambda e: e.id)],
        "schedule": [plan.to_dict() for plan in rounds],
        "max_meetings": max_meetings,
    }
    if taker_seat is not None:
        doc["taker_seat"] = taker_seat
    if generator is not None:
        doc["generator"] = dict(generator)
    return doc

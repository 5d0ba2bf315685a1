"""Derived views of a movement document, used by printouts and the command line.

All take a *valid* document (run :func:`validate` first), read it through
:class:`~.schedule.Schedule` and return plain structures. A table is ``played`` unless one of
its seats holds a phantom (a sit-out table).
"""

from __future__ import annotations

from typing import Any

from .document import SEATS, Document
from .schedule import Schedule


def table_cards(doc: Document) -> list[dict[str, Any]]:
    """Per table: round → seated entrants and étui (carton de table)."""
    schedule = Schedule.from_document(doc)
    return [
        {
            "table": table,
            "rounds": [
                {
                    "round": play.round,
                    "seats": dict(play.seats),
                    "deal_set": play.deal_set,
                    "copy": play.copy,
                    "played": play.plays,
                }
                for play in schedule.plays_of_table(table)
            ],
        }
        for table in range(1, schedule.table_count + 1)
    ]


def route_cards(doc: Document) -> list[dict[str, Any]]:
    """Per entrant: round → table, seat, deal set, or a bye (feuille de route)."""
    schedule = Schedule.from_document(doc)
    routes: dict[int, list[dict[str, Any]]] = {e.id: [] for e in schedule.entrants}
    for rnd in schedule.rounds:
        for play in rnd.tables:
            for seat in SEATS:
                routes[play.seats[seat]].append(
                    {
                        "round": rnd.number,
                        "table": play.table,
                        "seat": seat,
                        "deal_set": play.deal_set,
                        "copy": play.copy,
                        "bye": play.sits_out,
                    }
                )
        for slot in rnd.byes:
            routes[slot].append(
                {
                    "round": rnd.number,
                    "table": None,
                    "seat": None,
                    "deal_set": None,
                    "copy": None,
                    "bye": True,
                }
            )
    return [
        {
            "entrant": e.id,
            "line": e.line,
            "team": e.team,
            "phantom": e.phantom,
            "rounds": sorted(routes[e.id], key=lambda item: item["round"]),
        }
        for e in schedule.entrants
    ]


def deal_set_routes(doc: Document) -> list[dict[str, Any]]:
    """Per deal set: round → tables (with copy) where it lies (route des étuis)."""
    schedule = Schedule.from_document(doc)
    routes: dict[int, list[dict[str, Any]]] = {d: [] for d in range(1, schedule.deal_set_count + 1)}
    for rnd in schedule.rounds:
        for play in sorted(rnd.tables, key=lambda p: (p.copy, p.table)):
            routes[play.deal_set].append(
                {"round": rnd.number, "table": play.table, "copy": play.copy, "played": play.plays}
            )
    return [{"deal_set": d, "rounds": rounds} for d, rounds in routes.items()]


def render_text(doc: Document) -> str:
    """A readable rendering: header, then one line per table and round."""
    schedule = Schedule.from_document(doc)
    phantoms = schedule.phantom_slots
    generator = doc.get("generator", {})
    lines = [
        f"Movement {schedule.format} / {schedule.kind}"
        + (f" ({generator['name']}, seed {generator.get('seed')})" if generator else ""),
        f"{schedule.table_count} tables, {len(schedule.rounds)} rounds, "
        f"{schedule.deal_set_count} deal sets × {schedule.copies} copies, "
        f"{len(schedule.real_entrants)} entrants + {len(phantoms)} phantom slots",
    ]
    if schedule.taker_seat is not None:
        lines.append(f"Taker seat of every étui: {schedule.taker_seat}")

    def name(slot: int) -> str:
        return f"({slot})" if slot in phantoms else str(slot)

    for rnd in schedule.rounds:
        lines.append(f"Round {rnd.number}")
        for play in rnd.tables:
            seats = "  ".join(f"{seat} {name(play.seats[seat]):>4}" for seat in SEATS)
            note = "  sit-out" if play.sits_out else ""
            lines.append(
                f"  table {play.table:>3}: {seats}   deal set {play.deal_set:>3}"
                f" copy {play.copy}{note}"
            )
        if rnd.byes:
            lines.append(f"  byes: {', '.join(map(str, rnd.byes))}")
    return "\n".join(lines)

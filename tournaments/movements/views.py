"""Derived views of a movement document, used by printouts and the command line.

All take a *valid* document (run :func:`validate` first) and return plain structures.
A table is ``played`` unless one of its seats holds a phantom (a sit-out table).
"""

from __future__ import annotations

from typing import Any

from .document import SEATS, Document


def _phantoms(doc: Document) -> set[int]:
    return {e["id"] for e in doc["entrants"] if e.get("phantom")}


def _played(table: dict[str, Any], phantoms: set[int]) -> bool:
    return not any(eid in phantoms for eid in table["seats"].values())


def table_cards(doc: Document) -> list[dict[str, Any]]:
    """Per table: round → seated entrants and étui (carton de table)."""
    phantoms = _phantoms(doc)
    cards: dict[int, list[dict[str, Any]]] = {t: [] for t in range(1, doc["tables"] + 1)}
    for rnd in doc["schedule"]:
        for table in rnd["tables"]:
            cards[table["table"]].append(
                {
                    "round": rnd["round"],
                    "seats": {seat: table["seats"][seat] for seat in SEATS},
                    "deal_set": table["deal_set"],
                    "copy": table["copy"],
                    "played": _played(table, phantoms),
                }
            )
    return [{"table": t, "rounds": rounds} for t, rounds in cards.items()]


def route_cards(doc: Document) -> list[dict[str, Any]]:
    """Per entrant: round → table, seat, deal set, or a bye (feuille de route)."""
    phantoms = _phantoms(doc)
    routes: dict[int, list[dict[str, Any]]] = {e["id"]: [] for e in doc["entrants"]}
    for rnd in doc["schedule"]:
        for table in rnd["tables"]:
            played = _played(table, phantoms)
            for seat in SEATS:
                routes[table["seats"][seat]].append(
                    {
                        "round": rnd["round"],
                        "table": table["table"],
                        "seat": seat,
                        "deal_set": table["deal_set"],
                        "copy": table["copy"],
                        "bye": not played,
                    }
                )
        for eid in rnd["byes"]:
            routes[eid].append(
                {
                    "round": rnd["round"],
                    "table": None,
                    "seat": None,
                    "deal_set": None,
                    "copy": None,
                    "bye": True,
                }
            )
    return [
        {
            "entrant": e["id"],
            "line": e.get("line"),
            "team": e.get("team"),
            "phantom": bool(e.get("phantom")),
            "rounds": sorted(routes[e["id"]], key=lambda item: item["round"]),
        }
        for e in doc["entrants"]
    ]


def deal_set_routes(doc: Document) -> list[dict[str, Any]]:
    """Per deal set: round → tables (with copy) where it lies (route des étuis)."""
    phantoms = _phantoms(doc)
    routes: dict[int, list[dict[str, Any]]] = {d: [] for d in range(1, doc["deal_sets"] + 1)}
    for rnd in doc["schedule"]:
        for table in sorted(rnd["tables"], key=lambda t: (t["copy"], t["table"])):
            routes[table["deal_set"]].append(
                {
                    "round": rnd["round"],
                    "table": table["table"],
                    "copy": table["copy"],
                    "played": _played(table, phantoms),
                }
            )
    return [{"deal_set": d, "rounds": rounds} for d, rounds in routes.items()]


def render_text(doc: Document) -> str:
    """A readable rendering: header, then one line per table and round."""
    phantoms = _phantoms(doc)
    real = len(doc["entrants"]) - len(phantoms)
    generator = doc.get("generator", {})
    lines = [
        f"Movement {doc['format']} / {doc['kind']}"
        + (f" ({generator['name']}, seed {generator.get('seed')})" if generator else ""),
        f"{doc['tables']} tables, {doc['rounds']} rounds, {doc['deal_sets']} deal sets × "
        f"{doc['copies']} copies, {real} entrants + {len(phantoms)} phantom slots",
    ]
    if "taker_seat" in doc:
        lines.append(f"Taker seat of every étui: {doc['taker_seat']}")

    def name(eid: int) -> str:
        return f"({eid})" if eid in phantoms else str(eid)

    for rnd in doc["schedule"]:
        lines.append(f"Round {rnd['round']}")
        for table in rnd["tables"]:
            seats = "  ".join(f"{seat} {name(table['seats'][seat]):>4}" for seat in SEATS)
            note = "" if _played(table, phantoms) else "  sit-out"
            lines.append(
                f"  table {table['table']:>3}: {seats}   deal set {table['deal_set']:>3}"
                f" copy {table['copy']}{note}"
            )
        if rnd["byes"]:
            lines.append(f"  byes: {', '.join(map(str, rnd['byes']))}")
    return "\n".join(lines)

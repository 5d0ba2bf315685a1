"""Builds running events with a real line movement, for the result-entry and scoring tests.

``line_movement(T)`` is the plain individual line rotation of movements.md (N stays, S +1,
E +2, W +3 tables per round, deal sets -1), valid for all T rounds when T has no factor 2 or 3.
``build_running_event`` binds its slots to players, creates tables and deals (deal set k
holds deals (k-1)*deals_per_round+1..k*deals_per_round) and starts the event.
``random_outcome`` draws a legal outcome (Garde or above, consistent oudlers and points).
"""

from __future__ import annotations

import random
from typing import Any

from tests.factories import ClubFactory, DealFactory, EventFactory, PlayerFactory
from tournaments.models import SEATS, Club, Entrant, Event, Table

LINE_OFFSETS = {"N": 0, "S": 1, "E": 2, "W": 3}


def line_movement(tables: int, rounds: int | None = None) -> dict[str, Any]:
    rounds = rounds or tables
    line_index = {"N": 0, "E": 1, "S": 2, "W": 3}
    entrants = [
        {"id": line_index[seat] * tables + i + 1, "line": seat, "team": None, "phantom": False}
        for seat in SEATS
        for i in range(tables)
    ]
    schedule = []
    for r in range(rounds):
        round_tables = []
        for t in range(tables):
            seats = {
                seat: line_index[seat] * tables + (t - LINE_OFFSETS[seat] * r) % tables + 1
                for seat in SEATS
            }
            round_tables.append(
                {"table": t + 1, "seats": seats, "deal_set": (t + r) % tables + 1, "copy": 1}
            )
        schedule.append({"round": r + 1, "tables": round_tables, "byes": []})
    return {
        "schema": "duplitarot-movement/1",
        "format": "individual",
        "kind": "line",
        "tables": tables,
        "rounds": rounds,
        "seats": list(SEATS),
        "deal_sets": tables,
        "copies": 1,
        "entrants": entrants,
        "schedule": schedule,
    }


def build_running_event(
    *,
    tables: int = 5,
    rounds: int | None = None,
    deals_per_round: int = 2,
    status: str = Event.Status.RUNNING,
    opponent_confirmation: bool = False,
    club: Club | None = None,
    movement: dict[str, Any] | None = None,
) -> Event:
    movement = movement or line_movement(tables, rounds)
    event = EventFactory(
        club=club or ClubFactory(),
        status=status,
        public=True,
        deals_per_round=deals_per_round,
        movement=movement,
        opponent_confirmation=opponent_confirmation,
    )
    for entry in movement["entrants"]:
        Entrant.objects.create(
            event=event,
            slot=entry["id"],
            player=None if entry["phantom"] else PlayerFactory(club=event.club),
            line=entry.get("line") or "",
            phantom=entry["phantom"],
        )
    Table.objects.bulk_create(Table(event=event, number=n + 1) for n in range(movement["tables"]))
    for number in range(1, movement["deal_sets"] * deals_per_round + 1):
        DealFactory(event=event, number=number)
    return event


def random_outcome(rng: random.Random) -> dict[str, Any]:
    """A legal 4-player outcome: contract, oudlers, points (sometimes a petit au bout)."""
    contract = rng.choice(["garde", "garde", "garde_sans", "garde_contre"])
    oudlers = rng.randint(0, 3)
    # The chien or écart (6 cards, at least 3 points) counts for one side; no side ends with
    # no point at all (that would be a chelem).
    attack_min, defence_min = (0, 3) if contract == "garde_contre" else (3, 0)
    low = max(4 * oudlers, attack_min, 1)
    high = min(91 - 4 * (3 - oudlers), 91 - defence_min, 90)
    points = rng.randint(low, high)
    petit = None
    if rng.random() < 0.1:
        if oudlers > 0:
            petit = "attack"
        elif oudlers < 3:
            petit = "defence"
    return {
        "contract": contract,
        "oudlers": oudlers,
        "points": points,
        "petit_au_bout": petit,
    }

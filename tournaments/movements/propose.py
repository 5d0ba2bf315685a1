"""Propose the movement that suits a number of players or teams."""

from __future__ import annotations

from typing import Any

from .dispatch import generate
from .document import MovementError


def propose(
    format: str, entrant_count: int, *, rounds: int | None = None, seed: int = 0
) -> dict[str, Any]:
    """The best movement for ``entrant_count`` players (individual) or teams (team formats).

    Individual: ceil(P/4) tables with 4·tables - P phantom slots (12 players → 3-table Howell,
    16 → 4-table affine plane, 29 → 8 tables with 3 phantoms). Triplettes: pools of 4 teams
    (phantom teams fill the last pools). Quadrettes: round robin (or Swiss with ``rounds``).
    Returns the parameters, a short summary and the validated ``document``.
    """
    if format == "individual" and entrant_count < 9:
        raise MovementError("an individual event needs at least 9 players (3 tables)")
    doc = generate(format, entrant_count, rounds=rounds, seed=seed)
    parameters: dict[str, Any]
    if format == "individual":
        parameters = {
            "tables": doc["tables"],
            "players": entrant_count,
            "rounds": rounds,
            "seed": seed,
        }
        phantoms = 4 * doc["tables"] - entrant_count
    elif format == "triplette":
        parameters = {"teams": entrant_count, "seed": seed}
        phantoms = doc["generator"]["phantom_teams"]
    else:
        parameters = {"teams": entrant_count, "rounds": rounds, "seed": seed}
        phantoms = 0
    return {
        "format": format,
        "entrant_count": entrant_count,
        "kind": doc["kind"],
        "tables": doc["tables"],
        "rounds": doc["rounds"],
        "phantoms": phantoms,
        "max_meetings": doc["max_meetings"],
        "generator": doc["generator"]["name"],
        "parameters": parameters,
        "document": doc,
    }

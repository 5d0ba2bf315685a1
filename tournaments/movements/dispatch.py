"""Which generator for a format and its parameters: the one dispatcher of the package.

Formats: ``individual`` (entrants are players; ``tables`` defaults to ceil(players/4), the
rest of the seats being phantoms), ``triplette`` (entrants are teams; pools always play 4
rounds, ``rounds`` is not used) and ``quadrette`` (entrants are teams; round robin, or Swiss
pre-pairing with fewer ``rounds``). ``tables`` is used by the individual format only.
"""

from __future__ import annotations

from typing import Any

from .document import MovementError
from .individual import generate_individual
from .teams import generate_quadrette, generate_triplette

FORMATS = ("individual", "triplette", "quadrette")


def generate(
    format: str,
    entrants: int | None,
    *,
    tables: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """The validated movement document of ``format`` for ``entrants`` players or teams.

    Raises :class:`MovementError` (a ``ValueError``) when no movement fits.
    """
    if format == "individual":
        if tables is None:
            if entrants is None:
                raise MovementError("give the number of tables or of players")
            tables = -(-entrants // 4)
        return generate_individual(tables=tables, rounds=rounds, players=entrants, seed=seed)
    if format not in FORMATS:
        raise MovementError(f"unknown format {format!r} (individual, triplette, quadrette)")
    if entrants is None:
        raise MovementError(f"{format}: the number of teams is required")
    if format == "triplette":
        return generate_triplette(teams=entrants, seed=seed)
    return generate_quadrette(teams=entrants, rounds=rounds, seed=seed)

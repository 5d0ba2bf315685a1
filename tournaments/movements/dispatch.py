"""Which generator for a format and its parameters: the one dispatcher of the package.

Formats: ``individual`` (entrants are players; ``tables`` defaults to ceil(players/4), the
rest of the seats being phantoms), ``triplette`` (entrants are teams; pools always play 4
rounds, ``rounds`` is not used) and ``quadrette`` (entrants are teams; round robin, or Swiss
with fewer ``rounds``: ``swiss="prepaired"``, the default here, pairs every round at the start;
``swiss="live"`` pairs round 1 only, the others during the event, :mod:`.swiss`). ``tables`` is
used by the individual format only.
"""

from __future__ import annotations

from typing import Any

from .document import MovementError
from .individual import generate_individual
from .swiss import LIVE, MODES, PREPAIRED, live_document
from .teams import generate_quadrette, generate_triplette

FORMATS = ("individual", "triplette", "quadrette")


def generate(
    format: str,
    entrants: int | None,
    *,
    tables: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
    swiss: str = PREPAIRED,
) -> dict[str, Any]:
    """The validated movement document of ``format`` for ``entrants`` players or teams.

    ``swiss`` (quadrettes with fewer rounds than a round robin): ``prepaired`` or ``live``.
    Raises :class:`MovementError` (a ``ValueError``) when no movement fits.
    """
    if swiss not in MODES:
        raise MovementError(f"unknown Swiss mode {swiss!r} ({', '.join(MODES)})")
    if swiss == LIVE:
        if format != "quadrette":
            raise MovementError("live Swiss pairing is for quadrette events only")
        if entrants is None or rounds is None:
            raise MovementError("live Swiss pairing needs the number of teams and of rounds")
        full = entrants - 1 if entrants % 2 == 0 else entrants
        if rounds >= full:
            raise MovementError(f"{entrants} teams in {rounds} rounds play a round robin")
        return live_document(teams=entrants, rounds=rounds, seed=seed)
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

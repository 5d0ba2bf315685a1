"""Builders for hand-written tournaments: one table result → four seat results."""

from __future__ import annotations

from decimal import Decimal

from scoring.core import SEATS, SeatResult


def table(
    deal: int,
    number: int,
    players: str,
    value: int,
    taker: str = "S",
    *,
    director: bool = False,
) -> list[SeatResult]:
    """The four seat results of a real table result of ``value`` (defender units).

    ``players`` is four space-separated entrant ids for N, E, S, W.
    """
    ids = players.split()
    return [
        SeatResult(
            deal=deal,
            table=number,
            seat=seat,
            entrant=entrant,
            mark=3 * value if seat == taker else -value,
            director=director,
        )
        for seat, entrant in zip(SEATS, ids, strict=True)
    ]


def artificial(deal: int, number: int, players: str, percentages: str) -> list[SeatResult]:
    """Artificial scores at a table: ``percentages`` like "60 40 60 40" for N, E, S, W."""
    return [
        SeatResult(deal=deal, table=number, seat=seat, entrant=entrant, artificial=Decimal(pct))
        for seat, entrant, pct in zip(SEATS, players.split(), percentages.split(), strict=True)
    ]

"""Seeded synthetic tournaments for benchmarks and property tests (pure NumPy).

Shape of a national simultaneous: every table plays every deal. Each table keeps its N and S
players; the E and W players move one table up after every deal set (a Mitchell-like line
movement), so every player plays every deal once and meets many opponents.

Marks follow a realistic distribution of duplicate outcomes at 4 players: contracts Garde /
Garde sans / Garde contre (multipliers 2 / 4 / 6, about 72 / 23 / 5 %), a per-deal chance of
success (some deals are easy, some hopeless), margins half-normally distributed, occasional
petit au bout (×10·multiplier) and poignée (20, to the winner). The taker scores ``3·value`` and
each defender ``−value``, so marks sum to zero at every table and ties are frequent.
"""

from __future__ import annotations

import numpy as np

from scoring.core.model import NO_ARTIFICIAL, IntArray, SeatColumns, TournamentInput

DEAL_SET_SIZE = 3


def synthetic_values(tables: int, deals: int, seed: int) -> IntArray:
    """Deal values (defender units, attack side) as a ``deals × tables`` int64 array."""
    rng = np.random.default_rng(seed)
    success = rng.uniform(0.15, 0.95, size=(deals, 1))
    won = rng.random((deals, tables)) < success
    multiplier = rng.choice(np.array([2, 4, 6]), size=(deals, tables), p=[0.72, 0.23, 0.05])
    margin = np.rint(np.abs(rng.normal(0.0, 9.0, size=(deals, tables)))).astype(np.int64)
    value = (25 + margin) * multiplier
    value = np.where(won, value, -value)
    petit = rng.random((deals, tables))
    value += np.where(petit < 0.05, 10 * multiplier, 0) - np.where(petit > 0.97, 10 * multiplier, 0)
    poignee = rng.random((deals, tables)) < 0.08
    value += np.where(poignee, np.where(won, 20, -20), 0)
    result: IntArray = value.astype(np.int64)
    return result


def synthetic_tournament(tables: int, deals: int, seed: int = 0) -> TournamentInput:
    """A ``tables × deals`` individual event: ``4·tables`` players, ``4·tables·deals`` seats."""
    if tables < 1 or deals < 1:
        raise ValueError("a synthetic tournament needs at least one table and one deal")
    values = synthetic_values(tables, deals, seed)
    deal = np.repeat(np.arange(1, deals + 1, dtype=np.int64), tables * 4)
    table_index = np.tile(np.repeat(np.arange(tables, dtype=np.int64), 4), deals)
    seat = np.tile(np.arange(4, dtype=np.int64), tables * deals)
    deal_set = (deal - 1) // DEAL_SET_SIZE
    # players 4t+s; N (0) and S (2) stay at their table, E (1) and W (3) move up each deal set
    moving = (seat == 1) | (seat == 3)
    home_table = np.where(moving, (table_index - deal_set) % tables, table_index)
    entrant = home_table * 4 + seat
    taker_seat = (deal - 1) % 4  # the étui names the taker: N, E, S, W in turn
    value = values[deal - 1, table_index]
    mark = np.where(seat == taker_seat, 3 * value, -value)
    return TournamentInput(
        seats=SeatColumns(
            deal=deal,
            table=table_index + 1,
            seat=seat,
            entrant=entrant,
            mark=mark,
            artificial=np.full(deal.shape, NO_ARTIFICIAL, dtype=np.int64),
            director=np.zeros(deal.shape, dtype=np.bool_),
            entrant_ids=tuple(f"P{index:05d}" for index in range(tables * 4)),
        )
    )

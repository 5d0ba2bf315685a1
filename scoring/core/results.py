"""Outputs of the comparison core: hand scores, ranking rows, match sheets, standings.

All are frozen; ``to_dict()`` gives a JSON-ready form where exact decimals are strings with two
decimals (``"56.25"``), matchpoints are strings (``"3"``, ``"3.5"``, or ``"7/3"`` when a
Neuberg value is not a finite decimal) and the rest are ints, strings, booleans or ``None``.

Hand scores are stored as columns (:class:`HandScores`) because a national simultaneous has a
quarter of a million of them; iterate it to get :class:`HandScore` records. They are ordered by
deal, table, seat (N, E, S, W).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from scoring.core.arith import exact_percentage, hundredths_to_decimal
from scoring.core.model import SEATS, BoolArray, IntArray

TeamBasis = Literal["percentage", "pm", "vp"]


def fraction_text(value: Fraction) -> str:
    """A fraction as a short exact string: ``"3"``, ``"3.5"``, ``"7/3"``."""
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    while denominator % 2 == 0:
        denominator //= 2
    while denominator % 5 == 0:
        denominator //= 5
    if denominator == 1:
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True)
class HandScore:
    """One seat result compared with the other results of its hand (deal, seat).

    ``mark``, ``matchpoints`` and ``top`` are ``None`` for an artificial score. ``matchpoints``
    is exact (Neuberg-adjusted when the hand has fewer real results than scheduled);
    ``percentage`` is rounded half-up to 0.01.
    """

    deal: int
    table: int
    seat: str
    entrant: str
    mark: int | None
    matchpoints: Fraction | None
    top: int | None
    percentage: Decimal
    artificial: bool
    director: bool

    @property
    def exact_percentage(self) -> Fraction:
        """The unrounded percentage (what the event percentage is averaged from)."""
        if self.matchpoints is None or self.top is None:
            return Fraction(self.percentage)
        return exact_percentage(self.matchpoints.numerator, self.matchpoints.denominator, self.top)

    def to_dict(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "table": self.table,
            "seat": self.seat,
            "entrant": self.entrant,
            "mark": self.mark,
            "matchpoints": None if self.matchpoints is None else fraction_text(self.matchpoints),
            "top": self.top,
            "percentage": str(self.percentage),
            "artificial": self.artificial,
            "director": self.director,
        }


@dataclass(frozen=True, eq=False)
class HandScores:
    """Columns of hand scores (one row per seat result), ordered by deal, table, seat.

    ``mp_num / mp_den`` are the exact matchpoints, ``top`` the top (0 for a hand scheduled
    once), ``percentage`` the rounded percentage in hundredths; for artificial rows the three
    matchpoint columns are 0 and ``percentage`` holds the given percentage.
    """

    deal: IntArray
    table: IntArray
    seat: IntArray
    entrant: IntArray
    mark: IntArray
    artificial: BoolArray
    director: BoolArray
    mp_num: IntArray
    mp_den: IntArray
    top: IntArray
    percentage: IntArray
    entrant_ids: tuple[str, ...]

    def __len__(self) -> int:
        return int(self.deal.shape[0])

    def __iter__(self) -> Iterator[HandScore]:
        ids = self.entrant_ids
        columns = zip(
            self.deal.tolist(),
            self.table.tolist(),
            self.seat.tolist(),
            self.entrant.tolist(),
            self.mark.tolist(),
            self.artificial.tolist(),
            self.director.tolist(),
            self.mp_num.tolist(),
            self.mp_den.tolist(),
            self.top.tolist(),
            self.percentage.tolist(),
            strict=True,
        )
        for deal, table, seat, entrant, mark, artificial, director, num, den, top, pct in columns:
            yield HandScore(
                deal=deal,
                table=table,
                seat=SEATS[seat],
                entrant=ids[entrant],
                mark=None if artificial else mark,
                matchpoints=None if artificial else Fraction(num, den),
                top=None if artificial else top,
                percentage=hundredths_to_decimal(pct),
                artificial=artificial,
                director=director,
            )

    def take(self, rows: IntArray | slice) -> HandScores:
        """The hand scores at ``rows`` (indices or a slice), same entrant ids."""
        return HandScores(
            deal=self.deal[rows],
            table=self.table[rows],
            seat=self.seat[rows],
            entrant=self.entrant[rows],
            mark=self.mark[rows],
            artificial=self.artificial[rows],
            director=self.director[rows],
            mp_num=self.mp_num[rows],
            mp_den=self.mp_den[rows],
            top=self.top[rows],
            percentage=self.percentage[rows],
            entrant_ids=self.entrant_ids,
        )

    def for_deal(self, deal: int) -> list[HandScore]:
        """The hand scores of one deal (a frequency sheet's rows)."""
        rows = np.flatnonzero(self.deal == deal)
        if rows.size == 0:
            return []
        first, last = int(rows[0]), int(rows[-1]) + 1
        return list(self.take(slice(first, last)))

    def to_list(self) -> list[dict[str, object]]:
        return [score.to_dict() for score in self]


def empty_hand_scores(entrant_ids: tuple[str, ...] = ()) -> HandScores:
    """No hand scores (an event without results yet)."""
    ints = np.zeros(0, dtype=np.int64)
    flags = np.zeros(0, dtype=np.bool_)
    return HandScores(ints, ints, ints, ints, ints, flags, flags, ints, ints, ints, ints,
                      tuple(entrant_ids))  # fmt: skip


def merge_hand_scores(parts: Sequence[HandScores]) -> HandScores:
    """Hand scores of disjoint sets of deals as one set, ordered by (deal, table, seat).

    Entrant indices are re-based on the union of the parts' ``entrant_ids`` (in order of first
    appearance). Raises ``ValueError`` if two parts hold the same (deal, table, seat).
    """
    index_of: dict[str, int] = {}
    remapped: list[IntArray] = []
    for part in parts:
        mapping = np.array(
            [index_of.setdefault(name, len(index_of)) for name in part.entrant_ids],
            dtype=np.int64,
        )
        remapped.append(mapping[part.entrant] if len(part) else np.zeros(0, dtype=np.int64))
    if not parts:
        return empty_hand_scores()

    def joined(name: str) -> Any:
        return np.concatenate([getattr(part, name) for part in parts])

    deal, table, seat = joined("deal"), joined("table"), joined("seat")
    order = np.lexsort((seat, table, deal))
    key = np.stack((deal[order], table[order], seat[order]))
    if key.shape[1] > 1 and bool(np.any(np.all(key[:, 1:] == key[:, :-1], axis=0))):
        raise ValueError("merge_hand_scores: a hand appears in two parts")
    return HandScores(
        deal=deal[order],
        table=table[order],
        seat=seat[order],
        entrant=np.concatenate(remapped)[order],
        mark=joined("mark")[order],
        artificial=joined("artificial")[order],
        director=joined("director")[order],
        mp_num=joined("mp_num")[order],
        mp_den=joined("mp_den")[order],
        top=joined("top")[order],
        percentage=joined("percentage")[order],
        entrant_ids=tuple(index_of),
    )


@dataclass(frozen=True)
class IndividualRow:
    """A player's line of the individual ranking.

    ``percentage`` = mean of his deal percentages (artificial ones included) minus ``penalty``,
    rounded half-up to 0.01; ``marks`` = sum of his real marks; ``deals`` = seat results
    counted; ``line_rank`` is set when ranking per line was asked and the player has a line.
    """

    rank: int
    entrant: str
    percentage: Decimal
    penalty: Decimal
    marks: int
    deals: int
    line: str | None
    line_rank: int | None

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "percentage": str(self.percentage),
            "penalty": str(self.penalty),
            "marks": self.marks,
            "deals": self.deals,
            "line": self.line,
            "line_rank": self.line_rank,
        }


@dataclass(frozen=True)
class TeamRow:
    """A team's line of the team ranking.

    ``percentage`` = mean of all its members' (member, deal) percentages minus ``penalty``
    (the triplette ranking key); ``pm`` / ``vp`` are totals over its matches, ``None`` when the
    event has no matches (quadrettes rank by one of them).
    """

    rank: int
    team: str
    name: str
    members: tuple[str, ...]
    percentage: Decimal
    penalty: Decimal
    marks: int
    entries: int
    pm: int | None
    vp: Decimal | None
    matches: int

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "team": self.team,
            "name": self.name,
            "members": list(self.members),
            "percentage": str(self.percentage),
            "penalty": str(self.penalty),
            "marks": self.marks,
            "entries": self.entries,
            "pm": self.pm,
            "vp": None if self.vp is None else str(self.vp),
            "matches": self.matches,
        }


@dataclass(frozen=True)
class DealPM:
    """One deal of a quadrette match: team A's net (sum of its members' marks at both tables)
    and its signed points de match. ``net_a`` is ``None`` (and PM 0) when the deal lacks a real
    result at one of the two tables."""

    deal: int
    net_a: int | None
    pm_a: int

    def to_dict(self) -> dict[str, object]:
        return {"deal": self.deal, "net_a": self.net_a, "pm_a": self.pm_a}


@dataclass(frozen=True)
class MatchSheet:
    """A quadrette match sheet: per-deal nets and PM, totals and WBF victory points.

    ``round`` is the match's round (``Match.round``).
    """

    match: str
    round: int
    team_a: str
    team_b: str
    tables: tuple[int, int]
    deals: tuple[DealPM, ...]
    pm_a: int
    pm_b: int
    vp_a: Decimal
    vp_b: Decimal

    def to_dict(self) -> dict[str, object]:
        return {
            "match": self.match,
            "round": self.round,
            "team_a": self.team_a,
            "team_b": self.team_b,
            "tables": list(self.tables),
            "deals": [deal.to_dict() for deal in self.deals],
            "pm_a": self.pm_a,
            "pm_b": self.pm_b,
            "vp_a": str(self.vp_a),
            "vp_b": str(self.vp_b),
        }


@dataclass(frozen=True, eq=False)
class Standings:
    """The result of :func:`scoring.core.compute_standings`.

    ``team_basis`` says what ranks ``teams``: ``"percentage"`` (teams without matches,
    triplettes), ``"pm"`` or ``"vp"`` (quadrettes with matches), ``None`` without teams.
    """

    hands: HandScores
    individual: tuple[IndividualRow, ...]
    teams: tuple[TeamRow, ...]
    matches: tuple[MatchSheet, ...]
    team_basis: TeamBasis | None

    def to_dict(self) -> dict[str, object]:
        return {
            "hands": self.hands.to_list(),
            "individual": [row.to_dict() for row in self.individual],
            "teams": [row.to_dict() for row in self.teams],
            "team_basis": self.team_basis,
            "matches": [sheet.to_dict() for sheet in self.matches],
        }

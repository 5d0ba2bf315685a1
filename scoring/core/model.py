"""Inputs of the comparison core: seat results, penalties, teams, matches and options.

Vocabulary (see ``docs/domain/duplicate.md``):

- a **seat result** is what one seat got on one deal at one table: either a *mark* (the seat's
  score from a real table result, taker ``3·value``, defenders ``−value``) or an *artificial*
  percentage given by the director (60 / 50 / 40 or any value in 0..100 with at most two
  decimals);
- a **hand** is ``(deal, seat)``: every seat result of the same hand is compared with the others;
- an **entrant** is what is ranked: a player (individual ranking) or a team (team ranking).

Invariants enforced here (anything else raises :class:`ScoringInputError`):

- seats are ``N``, ``E``, ``S``, ``W``; a seat result has a mark xor an artificial percentage;
- artificial percentages and penalties are exact decimals with at most two decimals;
- the PM scale is a strictly increasing list of positive thresholds.

The columnar :class:`SeatColumns` is the canonical input: one NumPy array per field, one row
per seat result. :meth:`SeatColumns.from_results` builds it from readable :class:`SeatResult`
records and :meth:`SeatColumns.records` gives them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import pairwise
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from rules import numbers
from rules.duplicate import DUPLICATE_SEATS
from rules.errors import RuleError

SEATS: Final = DUPLICATE_SEATS  # N, E, S, W: the seats of a duplicate table (rules.duplicate)

"""Seat codes, in the order used for seat indices (0..3)."""

SEAT_INDEX: Final[Mapping[str, int]] = {seat: index for index, seat in enumerate(SEATS)}

IMP_THRESHOLDS: Final[tuple[int, ...]] = (
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
)
"""[default] PM scale: the international IMP thresholds applied to the absolute per-deal net."""

TeamRankingBasis = Literal["pm", "vp"]
"""How a multi-match (quadrette) event ranks teams: total PM [default] or WBF victory points."""

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

MAX_SCHEDULED: Final = 1_000_000
"""Upper bound of a hand's scheduled count (keeps the integer arithmetic within 64 bits)."""

NO_ARTIFICIAL: Final = -1
"""Value of ``SeatColumns.artificial`` for a real result (artificial ones are 0..10000)."""


class ScoringInputError(ValueError):
    """The tournament handed to the core is inconsistent; the message names the culprit."""


def points_hundredths(value: Decimal | int | str, what: str) -> int:
    """An exact number of percentage points with at most two decimals, as hundredths."""
    try:
        return numbers.hundredths(value, field=what)
    except RuleError as error:
        raise _input_error(error, value, what) from None


def percentage_hundredths(value: Decimal | int | str, what: str) -> int:
    """An exact percentage in 0..100 with at most two decimals, as hundredths (60 → 6000)."""
    try:
        return numbers.percentage_hundredths(value, field=what)
    except RuleError as error:
        raise _input_error(error, value, what) from None


def _input_error(error: RuleError, value: object, what: str) -> ScoringInputError:
    """``rules.numbers``' refusal in the core's words: ``what: message``."""
    if error.code in {"missing_field", "invalid_type"}:
        return ScoringInputError(f"{what}: {value!r} is not a number")
    return ScoringInputError(f"{what}: {error.message}")


@dataclass(frozen=True)
class SeatResult:
    """One seat on one deal at one table: a real mark, or an artificial percentage.

    ``director`` marks a director-assigned outcome: it is a real result (it has a mark and is
    compared like any other); the flag is only carried through for publication.
    """

    deal: int
    table: int
    seat: str
    entrant: str
    mark: int | None = None
    artificial: Decimal | None = None
    director: bool = False

    def __post_init__(self) -> None:
        where = f"deal {self.deal}, table {self.table}, seat {self.seat}"
        if self.seat not in SEAT_INDEX:
            raise ScoringInputError(f"{where}: seat must be one of N, E, S, W")
        if (self.mark is None) == (self.artificial is None):
            raise ScoringInputError(f"{where}: give either a mark or an artificial percentage")
        if self.artificial is not None:
            percentage_hundredths(self.artificial, f"{where}: artificial")


def _as_int_array(values: object, name: str) -> IntArray:
    array = np.asarray(values)
    if array.ndim != 1:
        raise ScoringInputError(f"seat columns: {name} must be one-dimensional")
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise ScoringInputError(f"seat columns: {name} must hold integers")
    return np.ascontiguousarray(array, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class SeatColumns:
    """Seat results as columns: row ``i`` of every array describes one seat result.

    - ``deal``, ``table``: numbers as printed on the étui and the table card;
    - ``seat``: seat index into :data:`SEATS` (0 = N, 1 = E, 2 = S, 3 = W);
    - ``entrant``: index into ``entrant_ids``;
    - ``mark``: the seat's mark (0 for an artificial row, ignored);
    - ``artificial``: the artificial percentage in hundredths (6000 = 60 %), or
      :data:`NO_ARTIFICIAL` (−1) for a real result;
    - ``director``: ``True`` for a director-assigned (but real) result.
    """

    deal: IntArray
    table: IntArray
    seat: IntArray
    entrant: IntArray
    mark: IntArray
    artificial: IntArray
    director: BoolArray
    entrant_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        names = ("deal", "table", "seat", "entrant", "mark", "artificial")
        for name in names:
            object.__setattr__(self, name, _as_int_array(getattr(self, name), name))
        director = np.ascontiguousarray(np.asarray(self.director, dtype=np.bool_))
        object.__setattr__(self, "director", director)
        object.__setattr__(self, "entrant_ids", tuple(self.entrant_ids))
        size = self.deal.shape[0]
        for name in (*names, "director"):
            if getattr(self, name).shape != (size,):
                raise ScoringInputError(f"seat columns: {name} has not {size} rows")
        if size == 0:
            return
        if self.seat.min() < 0 or self.seat.max() > 3:
            raise ScoringInputError("seat columns: seat indices must be 0..3")
        if self.entrant.min() < 0 or self.entrant.max() >= len(self.entrant_ids):
            raise ScoringInputError("seat columns: entrant index outside entrant_ids")
        if len(set(self.entrant_ids)) != len(self.entrant_ids):
            raise ScoringInputError("seat columns: entrant_ids contains duplicates")
        real = self.artificial == NO_ARTIFICIAL
        if np.any(~real & ((self.artificial < 0) | (self.artificial > 10000))):
            raise ScoringInputError("seat columns: artificial hundredths must be 0..10000 or -1")

    def __len__(self) -> int:
        return int(self.deal.shape[0])

    @classmethod
    def from_results(cls, results: Iterable[SeatResult]) -> SeatColumns:
        """Columns from records; entrant indices follow the order of first appearance."""
        index_of: dict[str, int] = {}
        rows: list[tuple[int, int, int, int, int, int, bool]] = []
        for result in results:
            entrant = index_of.setdefault(result.entrant, len(index_of))
            if result.artificial is None:
                mark, artificial = int(result.mark or 0), NO_ARTIFICIAL
            else:
                mark, artificial = 0, percentage_hundredths(result.artificial, "artificial")
            rows.append(
                (
                    result.deal,
                    result.table,
                    SEAT_INDEX[result.seat],
                    entrant,
                    mark,
                    artificial,
                    result.director,
                )
            )
        columns = list(zip(*rows, strict=True)) if rows else [()] * 7
        return cls(
            deal=np.array(columns[0], dtype=np.int64),
            table=np.array(columns[1], dtype=np.int64),
            seat=np.array(columns[2], dtype=np.int64),
            entrant=np.array(columns[3], dtype=np.int64),
            mark=np.array(columns[4], dtype=np.int64),
            artificial=np.array(columns[5], dtype=np.int64),
            director=np.array(columns[6], dtype=np.bool_),
            entrant_ids=tuple(index_of),
        )

    def take(self, rows: IntArray) -> SeatColumns:
        """The subset of rows ``rows`` (same entrant ids)."""
        return SeatColumns(
            deal=self.deal[rows],
            table=self.table[rows],
            seat=self.seat[rows],
            entrant=self.entrant[rows],
            mark=self.mark[rows],
            artificial=self.artificial[rows],
            director=self.director[rows],
            entrant_ids=self.entrant_ids,
        )

    def records(self) -> list[SeatResult]:
        """The rows as :class:`SeatResult` records, in row order."""
        out: list[SeatResult] = []
        ids = self.entrant_ids
        for deal, table, seat, entrant, mark, artificial, director in zip(
            self.deal.tolist(),
            self.table.tolist(),
            self.seat.tolist(),
            self.entrant.tolist(),
            self.mark.tolist(),
            self.artificial.tolist(),
            self.director.tolist(),
            strict=True,
        ):
            if artificial == NO_ARTIFICIAL:
                out.append(
                    SeatResult(deal, table, SEATS[seat], ids[entrant], mark=mark, director=director)
                )
            else:
                out.append(
                    SeatResult(
                        deal,
                        table,
                        SEATS[seat],
                        ids[entrant],
                        artificial=Decimal(artificial).scaleb(-2),
                        director=director,
                    )
                )
        return out


@dataclass(frozen=True)
class Penalty:
    """A deduction of ``points`` percentage points from an entrant's (player's or team's)
    event percentage, applied after the deals are compared and shown separately."""

    entrant: str
    points: Decimal
    reason: str = ""

    def __post_init__(self) -> None:
        points_hundredths(self.points, f"penalty of {self.entrant}")


@dataclass(frozen=True)
class Team:
    """A triplette or quadrette: its members are player entrant ids."""

    id: str
    members: tuple[str, ...]
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "members", tuple(self.members))
        if not self.members:
            raise ScoringInputError(f"team {self.id}: no members")
        if len(set(self.members)) != len(self.members):
            raise ScoringInputError(f"team {self.id}: a member is listed twice")


@dataclass(frozen=True)
class Match:
    """A quadrette match: ``team_a`` against ``team_b`` on two tables with the same deals.

    The match's deals are the deals played at those tables by members of the two teams (so the
    same table numbers can host other matches in other rounds). ``round`` is the round of the
    movement it is played in (0 when unknown, e.g. in an event file); it is carried to the
    match sheet.
    """

    id: str
    team_a: str
    team_b: str
    tables: tuple[int, int]
    round: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(self.tables))
        if self.team_a == self.team_b:
            raise ScoringInputError(f"match {self.id}: a team cannot meet itself")
        if len(self.tables) != 2 or self.tables[0] == self.tables[1]:
            raise ScoringInputError(f"match {self.id}: give two different tables")


@dataclass(frozen=True)
class ScoringOptions:
    """The configurable strategies of docs/domain/duplicate.md.

    - ``pm_scale``: thresholds of the net → points de match scale; PM = number of thresholds
      the absolute net reaches, signed like the net [default: :data:`IMP_THRESHOLDS`];
    - ``team_ranking``: rank quadrette teams by total ``"pm"`` [default] or WBF ``"vp"``;
    - ``rank_by_line``: also rank players within their line (``IndividualRow.line_rank``).
    """

    pm_scale: tuple[int, ...] = IMP_THRESHOLDS
    team_ranking: TeamRankingBasis = "pm"
    rank_by_line: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "pm_scale", tuple(self.pm_scale))
        scale = self.pm_scale
        if not scale or any(not isinstance(t, int) or t <= 0 for t in scale):
            raise ScoringInputError("pm_scale: give positive integer thresholds")
        if any(b <= a for a, b in pairwise(scale)):
            raise ScoringInputError("pm_scale: thresholds must be strictly increasing")
        if self.team_ranking not in ("pm", "vp"):
            raise ScoringInputError("team_ranking: must be 'pm' or 'vp'")


@dataclass(frozen=True, eq=False)
class TournamentInput:
    """Everything the core needs to score an event.

    ``scheduled`` maps a deal number to the number of tables scheduled to play it (N of the
    Neuberg formula); a deal missing from it is scheduled as many times as it has seat results
    (real or artificial) for the hand. ``lines`` maps a player to his line (e.g. ``"NS"``).
    ``names`` maps a player to his name's sort key (``rules.names.sort_key``): players of equal
    rank are listed by it, then by id (:func:`tie_order`; teams by their names' keys).
    """

    seats: SeatColumns
    scheduled: Mapping[int, int] = field(default_factory=dict)
    penalties: tuple[Penalty, ...] = ()
    teams: tuple[Team, ...] = ()
    matches: tuple[Match, ...] = ()
    lines: Mapping[str, str] = field(default_factory=dict)
    options: ScoringOptions = field(default_factory=ScoringOptions)
    names: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "penalties", tuple(self.penalties))
        object.__setattr__(self, "teams", tuple(self.teams))
        object.__setattr__(self, "matches", tuple(self.matches))
        for deal, count in self.scheduled.items():
            if not isinstance(count, int) or not 1 <= count <= MAX_SCHEDULED:
                raise ScoringInputError(
                    f"deal {deal}: scheduled must be an integer in 1..{MAX_SCHEDULED}"
                )

    @classmethod
    def from_results(
        cls,
        results: Iterable[SeatResult],
        *,
        scheduled: Mapping[int, int] | None = None,
        penalties: Iterable[Penalty] = (),
        teams: Iterable[Team] = (),
        matches: Iterable[Match] = (),
        lines: Mapping[str, str] | None = None,
        options: ScoringOptions | None = None,
        names: Mapping[str, str] | None = None,
    ) -> TournamentInput:
        """Build the input from readable records."""
        return cls(
            seats=SeatColumns.from_results(results),
            scheduled=dict(scheduled or {}),
            penalties=tuple(penalties),
            teams=tuple(teams),
            matches=tuple(matches),
            lines=dict(lines or {}),
            options=options or ScoringOptions(),
            names=dict(names or {}),
        )


def tie_order(ident: str, names: Mapping[str, str]) -> tuple[str, str]:
    """Where an entrant (or a team) goes among those of equal rank: by its name's sort key
    (French order, ``rules.names``), then by id. The one rule of every ranking's ties: the
    stored rankings keep this order, and every page, export and file reads them in it."""
    return (names.get(ident, ""), ident)

"""The series ranking, computed from plain rows: no Django, no database (unit-tested alone).

Vocabulary (docs/series.md): a *result* is one player's final place (and percentage) at one
counted event of the series; the *formula* says what a result is worth and which ones count:

- ``points``: the place earns the points of the points table (``points_table[0]`` for the
  1st, ``points_table[1]`` for the 2nd, …, ``points_default`` beyond the table; players tied
  on a place each earn that place's points); the score is the total of the counted results;
- ``percentage``: a result is worth its percentage; the score is the average of the counted
  results, rounded half-up to 0.01 (the figure shown is the figure ranked);
- ``best_n``: only a player's best N results count (all when ``None``);
- ``min_events``: a player with fewer results is not ranked ("non classé"), listed apart in
  the same order.

Tie-break, in this order: the better score; more results counted; then the counted results
compared one by one from the best down (the better best result, then the better second…).
Players still equal share the place (competition ranking: 1, 2, 2, 4) and are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

POINTS = "points"
PERCENTAGE = "percentage"
METHODS = (POINTS, PERCENTAGE)
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Formula:
    """What a result is worth and which results count (validated by ``series.services``)."""

    method: str
    points_table: tuple[int, ...] = ()
    points_default: int = 0
    best_n: int | None = None
    min_events: int = 1

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}")

    def points_for(self, place: int) -> int:
        """The points earned by ``place`` (1 for the winner)."""
        if 1 <= place <= len(self.points_table):
            return self.points_table[place - 1]
        return self.points_default


@dataclass(frozen=True)
class EventResult:
    """A player's final result at one event: his place, and his percentage (if any)."""

    event_id: int
    player_id: int
    place: int
    percentage: Decimal | None = None


@dataclass(frozen=True)
class Result:
    """One result of a player's series line: what it is worth and whether it counts."""

    event_id: int
    place: int
    percentage: Decimal | None
    value: Decimal
    counted: bool


@dataclass(frozen=True)
class Standing:
    """A player's line of the series ranking; ``place`` is None when not ranked."""

    player_id: int
    place: int | None
    played: int
    counted: int
    score: Decimal
    results: tuple[Result, ...]  # in the series' event order

    @property
    def ranked(self) -> bool:
        return self.place is not None


def _value(result: EventResult, formula: Formula) -> Decimal:
    if formula.method == POINTS:
        return Decimal(formula.points_for(result.place))
    if result.percentage is None:
        raise ValueError(f"event {result.event_id}: player {result.player_id} has no percentage")
    return Decimal(result.percentage)


def _line(
    player_id: int,
    results: Sequence[EventResult],
    formula: Formula,
    order: Mapping[int, int],
) -> Standing:
    valued = [(result, _value(result, formula)) for result in results]
    # The best first; between equal values, the earlier event (which one counts is then moot).
    best = sorted(valued, key=lambda item: (-item[1], order.get(item[0].event_id, 0)))
    keep = best if formula.best_n is None else best[: formula.best_n]
    counted_events = {result.event_id for result, _value_ in keep}
    values = [value for _result, value in keep]
    if formula.method == POINTS:
        score = sum(values, Decimal(0))
    else:
        score = (sum(values, Decimal(0)) / len(values)).quantize(CENT, rounding=ROUND_HALF_UP)
    lines = tuple(
        Result(r.event_id, r.place, r.percentage, value, r.event_id in counted_events)
        for r, value in sorted(valued, key=lambda item: order.get(item[0].event_id, 0))
    )
    return Standing(player_id, None, len(results), len(keep), score, lines)


def _merit(standing: Standing) -> tuple[object, ...]:
    """The tie-break key, smaller is better (see the module docstring)."""
    counted = sorted((r.value for r in standing.results if r.counted), reverse=True)
    return (-standing.score, -standing.counted, tuple(-value for value in counted))


def series_standings(
    results: Iterable[EventResult],
    formula: Formula,
    event_order: Sequence[int] = (),
    names: Mapping[int, str] | None = None,
) -> list[Standing]:
    """Every player's line: the ranked ones by place, then the unranked ones (place None), in
    the same order; equal players by ``names``, their sort keys (``rules.names``: French
    order), then id. ``event_order`` orders each line's
    results (the series' events, oldest first). A player's results at one event: one only."""
    order = {event_id: index for index, event_id in enumerate(event_order)}
    by_player: dict[int, list[EventResult]] = {}
    seen: set[tuple[int, int]] = set()
    for result in results:
        key = (result.event_id, result.player_id)
        if key in seen:
            raise ValueError(f"event {result.event_id}: player {result.player_id} twice")
        seen.add(key)
        by_player.setdefault(result.player_id, []).append(result)
    lines = [_line(player, rows, formula, order) for player, rows in by_player.items()]
    names = names or {}
    lines.sort(key=lambda s: (_merit(s), names.get(s.player_id, ""), s.player_id))
    ranked = [line for line in lines if line.played >= formula.min_events]
    unranked = [line for line in lines if line.played < formula.min_events]
    placed: list[Standing] = []
    previous: tuple[object, ...] | None = None
    place = 0
    for index, line in enumerate(ranked, start=1):
        merit = _merit(line)
        if merit != previous:
            place, previous = index, merit
        placed.append(
            Standing(line.player_id, place, line.played, line.counted, line.score, line.results)
        )
    return placed + unranked

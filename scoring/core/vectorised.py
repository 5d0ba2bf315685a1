"""The vectorised path: the same rules as :mod:`scoring.core.reference`, with NumPy, in
near-linear time for R seat results (counts, gathers, a sort only for unordered rows; no
Python loop over results).

How matchpoints are counted at once for every hand: marks are whole numbers in a narrow range,
so the real results are counted on a (hand, mark) grid; along a hand's row, the running count
below a mark is how many results it beats, and the count in its cell minus one how many it
ties. (When the grid would be too large, the results are sorted by (hand, mark) instead.)

Exactness: matchpoints, Neuberg numerators and hand percentages (rounded half-up) are computed
in 64-bit integers. An event percentage is a mean of fractions with different denominators;
it is computed in floating point, and the few means that land within 1e-6 of a rounding
boundary (where a float could round the wrong way) are recomputed exactly with
:class:`fractions.Fraction`. The float error is below 1e-10, so every published value is the
exactly rounded one, whatever the order of the input rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from scoring.core.arith import hundredths_to_decimal, round_half_up_hundredths
from scoring.core.assemble import EntrantTotal, check_structure, finish
from scoring.core.model import (
    MAX_SCHEDULED,
    NO_ARTIFICIAL,
    SEATS,
    BoolArray,
    IntArray,
    ScoringInputError,
    SeatColumns,
    TournamentInput,
    tie_order,
)
from scoring.core.reference import compute_standings_reference
from scoring.core.results import HandScores, IndividualRow, Standings, empty_hand_scores

FloatArray = npt.NDArray[np.float64]

_BOUNDARY_EPSILON = 1e-6
_KEY_LIMIT = 2**62
_BINCOUNT_LIMIT = 50_000_000
_GRID_LIMIT = 20_000_000
_GRID_PER_RESULT = 64


def _dense_index(values: IntArray) -> tuple[IntArray, IntArray]:
    """``(sorted distinct values, index of each value among them)``, in linear time when the
    values are dense (deal and table numbers are)."""
    low, high = int(values.min()), int(values.max())
    span = high - low + 1
    if span <= 4 * values.shape[0] + 1024:
        present = np.zeros(span, dtype=np.bool_)
        present[values - low] = True
        rank = np.cumsum(present, dtype=np.int64) - 1
        return np.flatnonzero(present).astype(np.int64) + low, rank[values - low]
    distinct, inverse = np.unique(values, return_inverse=True)
    return distinct.astype(np.int64), inverse.astype(np.int64).reshape(-1)


def _canonical_order(columns: SeatColumns, deal_index: IntArray) -> IntArray | slice:
    """Row order by (deal, table, seat) — a full slice when the rows are already in that
    order (no copy then); raises if a seat of a table has two results."""
    table, seat = columns.table, columns.seat
    table_low = int(table.min())
    table_span = int(table.max()) - table_low + 1
    deals = int(deal_index.max()) + 1
    order: IntArray
    if deals * table_span * 4 < _KEY_LIMIT:
        key = (deal_index * table_span + (table - table_low)) * 4 + seat
        if bool(np.all(key[1:] > key[:-1])):
            return slice(None)
        order = np.argsort(key, kind="stable").astype(np.int64)
        sorted_key = key[order]
        same = sorted_key[1:] == sorted_key[:-1]
    else:
        order = np.lexsort((seat, table, deal_index)).astype(np.int64)
        same = (
            (deal_index[order][1:] == deal_index[order][:-1])
            & (table[order][1:] == table[order][:-1])
            & (seat[order][1:] == seat[order][:-1])
        )
    duplicates = np.flatnonzero(same)
    if duplicates.size:
        row = int(order[duplicates[0]])
        raise ScoringInputError(
            f"deal {int(columns.deal[row])}, table {int(table[row])}, "
            f"seat {SEATS[int(seat[row])]}: two results"
        )
    return order


def _check_one_seat_per_deal(columns: SeatColumns, deal_index: IntArray, deals: int) -> None:
    entrants = len(columns.entrant_ids)
    key = deal_index * entrants + columns.entrant
    if deals * entrants <= _BINCOUNT_LIMIT:
        counts = np.bincount(key, minlength=deals * entrants)
        twice = np.flatnonzero(counts > 1)
        if not twice.size:
            return
        bad = int(twice[0])
    else:
        sorted_key = np.sort(key)
        repeated = np.flatnonzero(sorted_key[1:] == sorted_key[:-1])
        if not repeated.size:
            return
        bad = int(sorted_key[repeated[0]])
    row = int(np.flatnonzero(key == bad)[0])
    raise ScoringInputError(
        f"deal {int(columns.deal[row])}: entrant {columns.entrant_ids[bad % entrants]} "
        "holds two seats"
    )


def _matchpoints(
    hand: IntArray,
    mark: IntArray,
    grid_limit: int = _GRID_LIMIT,
    per_result: int = _GRID_PER_RESULT,
) -> IntArray:
    """Raw matchpoints of each real result against the others of its hand.

    Marks are whole numbers in a narrow range, so when ``hands × (mark range)`` is small the
    results are counted on a (hand, mark) grid: a running sum along each hand's row gives how
    many results each mark beats, in linear time. Otherwise they are sorted.
    """
    size = hand.shape[0]
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    low = int(mark.min())
    span = int(mark.max()) - low + 1
    hands = int(hand.max()) + 1
    # The grid pays off when it is not much larger than the results (many tables per hand);
    # a sparse grid (a few tables per hand, as in a large line movement) is slower than a sort.
    if hands * span <= min(grid_limit, per_result * size):
        key = hand * span + (mark - low)
        grid = np.bincount(key, minlength=hands * span).reshape(hands, span)
        beaten = np.cumsum(grid, axis=1) - grid
        cell_matchpoints = (2 * beaten + grid - 1).reshape(-1)
        result: IntArray = cell_matchpoints[key]
        return result
    if hands * span < _KEY_LIMIT:
        key = hand * span + (mark - low)
        order = np.argsort(key)
        sorted_key = key[order]
        new_run = np.empty(size, dtype=np.bool_)
        new_run[0] = True
        np.not_equal(sorted_key[1:], sorted_key[:-1], out=new_run[1:])
    else:
        order = np.lexsort((mark, hand))
        new_run = np.empty(size, dtype=np.bool_)
        new_run[0] = True
        new_run[1:] = (hand[order][1:] != hand[order][:-1]) | (mark[order][1:] != mark[order][:-1])
    sorted_hand = hand[order]
    new_hand = np.empty(size, dtype=np.bool_)
    new_hand[0] = True
    np.not_equal(sorted_hand[1:], sorted_hand[:-1], out=new_hand[1:])

    run_start = np.flatnonzero(new_run)
    run_length = np.diff(np.append(run_start, size))
    run_of = np.cumsum(new_run) - 1
    hand_start = np.flatnonzero(new_hand)[np.cumsum(new_hand) - 1]
    beaten = run_start[run_of] - hand_start
    tied = run_length[run_of] - 1
    matchpoints = np.empty(size, dtype=np.int64)
    matchpoints[order] = 2 * beaten + tied
    return matchpoints


class _HandColumns:
    """Per-row exact matchpoints and percentages (rows in input order)."""

    def __init__(self, size: int) -> None:
        self.mp_num = np.zeros(size, dtype=np.int64)
        self.mp_den = np.zeros(size, dtype=np.int64)
        self.top = np.zeros(size, dtype=np.int64)
        self.percentage = np.zeros(size, dtype=np.int64)
        self.percentage_float = np.zeros(size, dtype=np.float64)

    def exact(self, row: int, artificial: IntArray) -> Fraction:
        if artificial[row] != NO_ARTIFICIAL:
            return Fraction(int(artificial[row]), 100)
        top = int(self.top[row])
        if top == 0:
            return Fraction(50)
        return Fraction(100 * int(self.mp_num[row]), int(self.mp_den[row]) * top)


def _score_hands(
    columns: SeatColumns,
    deal_values: IntArray,
    deal_index: IntArray,
    scheduled: Mapping[int, int],
) -> _HandColumns:
    size = len(columns)
    real: BoolArray = columns.artificial == NO_ARTIFICIAL
    hands = deal_values.shape[0] * 4
    hand = deal_index * 4 + columns.seat
    results_per_hand = np.bincount(hand, minlength=hands)
    real_per_hand = np.bincount(hand[real], minlength=hands)
    planned = np.array([scheduled.get(int(deal), -1) for deal in deal_values], dtype=np.int64)
    planned_per_hand = np.repeat(planned, 4)
    scheduled_per_hand = np.where(planned_per_hand > 0, planned_per_hand, results_per_hand)
    over = np.flatnonzero(results_per_hand > scheduled_per_hand)
    if over.size:
        bad = int(over[0])
        raise ScoringInputError(
            f"deal {int(deal_values[bad // 4])}: scheduled {int(scheduled_per_hand[bad])} times "
            f"but seat {SEATS[bad % 4]} has {int(results_per_hand[bad])} results"
        )
    if int(scheduled_per_hand.max()) > MAX_SCHEDULED:
        raise ScoringInputError(f"a hand is scheduled more than {MAX_SCHEDULED} times")

    out = _HandColumns(size)
    all_real = bool(real.all())
    # indexing by a full slice is a view: no gather or scatter when nothing is artificial
    real_rows: IntArray | slice = slice(None) if all_real else np.flatnonzero(real)
    real_hand = hand[real_rows]
    matchpoints = _matchpoints(real_hand, columns.mark[real_rows])
    played = real_per_hand[real_hand]
    planned_count = scheduled_per_hand[real_hand]
    once = planned_count == 1
    mp_num = np.where(once, 0, (matchpoints + 1) * planned_count - played)
    mp_den = np.where(once, 1, played)
    top = 2 * (planned_count - 1)
    compared = top > 0
    safe_top = np.where(compared, top, 1)
    hundredths = np.where(
        compared, (20000 * mp_num + mp_den * safe_top) // (2 * mp_den * safe_top), 5000
    )
    out.mp_num[real_rows] = mp_num
    out.mp_den[real_rows] = mp_den
    out.top[real_rows] = top
    out.percentage[real_rows] = hundredths
    out.percentage_float[real_rows] = np.where(compared, 100.0 * mp_num / (mp_den * safe_top), 50.0)
    if not all_real:
        artificial_rows = np.flatnonzero(~real)
        out.percentage[artificial_rows] = columns.artificial[artificial_rows]
        out.percentage_float[artificial_rows] = columns.artificial[artificial_rows] / 100.0
    return out


class _GroupTotals:
    """Per group (player or team): rows counted, event percentage (hundredths, after
    penalty), penalty (hundredths), sum of real marks."""

    def __init__(
        self, counts: IntArray, percentage: IntArray, penalty: IntArray, marks: IntArray
    ) -> None:
        self.counts = counts
        self.percentage = percentage
        self.penalty = penalty
        self.marks = marks

    def total(self, index: int, name: str) -> EntrantTotal | None:
        count = int(self.counts[index])
        if not count:
            return None
        return EntrantTotal(
            name,
            int(self.percentage[index]),
            int(self.penalty[index]),
            int(self.marks[index]),
            count,
        )


def _group_totals(
    group: IntArray,
    groups: int,
    penalties: IntArray,
    columns: SeatColumns,
    scored: _HandColumns,
) -> _GroupTotals:
    """Totals per group (player or team) of the rows whose ``group`` is ≥ 0."""
    member = group >= 0
    rows_group = group[member]
    counts = np.bincount(rows_group, minlength=groups)
    sums = np.bincount(rows_group, weights=scored.percentage_float[member], minlength=groups)
    real_marks = np.where(columns.artificial == NO_ARTIFICIAL, columns.mark, 0)[member]
    # marks are whole numbers far below 2**53: the float sums are exact
    marks = np.rint(
        np.bincount(rows_group, weights=real_marks.astype(np.float64), minlength=groups)
    ).astype(np.int64)
    present = counts > 0
    value = np.zeros(groups, dtype=np.float64)
    value[present] = sums[present] * 100.0 / counts[present] - penalties[present]
    shifted = value + 0.5
    rounded = np.floor(shifted)
    fraction = shifted - rounded
    doubtful = present & ((fraction < _BOUNDARY_EPSILON) | (fraction > 1 - _BOUNDARY_EPSILON))
    hundredths = rounded.astype(np.int64)
    doubtful_groups = np.flatnonzero(doubtful)
    if doubtful_groups.size:
        member_rows = np.flatnonzero(member)
        by_group = member_rows[np.argsort(rows_group, kind="stable")]
        starts = np.concatenate(([0], np.cumsum(counts)))
        for index in doubtful_groups.tolist():
            rows = by_group[starts[index] : starts[index + 1]].tolist()
            mean = sum((scored.exact(row, columns.artificial) for row in rows), Fraction(0))
            exact = mean / len(rows) - Fraction(int(penalties[index]), 100)
            hundredths[index] = round_half_up_hundredths(exact)
    return _GroupTotals(counts, hundredths, penalties, marks)


def _competition_ranks(
    percentage: IntArray, tie_order: IntArray, group: IntArray
) -> tuple[IntArray, IntArray]:
    """``(order, ranks)``: rows sorted by group, percentage descending, then ``tie_order``;
    ``ranks[i]`` is the competition rank (1, 2, 2, 4) of row ``order[i]`` within its group."""
    size = percentage.shape[0]
    order = np.lexsort((tie_order, -percentage, group)).astype(np.int64)
    if size == 0:
        return order, np.zeros(0, dtype=np.int64)
    sorted_group, sorted_pct = group[order], percentage[order]
    new_group = np.empty(size, dtype=np.bool_)
    new_group[0] = True
    np.not_equal(sorted_group[1:], sorted_group[:-1], out=new_group[1:])
    new_block = new_group.copy()
    new_block[1:] |= sorted_pct[1:] != sorted_pct[:-1]
    position = np.arange(size, dtype=np.int64)
    within_group = position - np.flatnonzero(new_group)[np.cumsum(new_group) - 1]
    ranks = within_group[np.flatnonzero(new_block)][np.cumsum(new_block) - 1] + 1
    return order, ranks.astype(np.int64)


def _individual_ranking(
    entrant_ids: tuple[str, ...],
    totals: _GroupTotals,
    lines: Mapping[str, str],
    rank_by_line: bool,
    names: Mapping[str, str],
) -> tuple[IndividualRow, ...]:
    """The individual ranking rows, ranked with arrays (same result as
    :func:`scoring.core.assemble.individual_rows`)."""
    ranked = np.flatnonzero(totals.counts > 0)
    tie_rank = np.empty(len(entrant_ids), dtype=np.int64)
    by_tie = sorted(range(len(entrant_ids)), key=lambda i: tie_order(entrant_ids[i], names))
    tie_rank[by_tie] = np.arange(len(entrant_ids), dtype=np.int64)
    percentage = totals.percentage[ranked]
    order, ranks = _competition_ranks(
        percentage, tie_rank[ranked], np.zeros(ranked.shape[0], dtype=np.int64)
    )
    line_rank = np.full(len(entrant_ids), -1, dtype=np.int64)
    if rank_by_line and lines:
        line_codes: dict[str, int] = {}
        code = np.array(
            [
                line_codes.setdefault(lines[entrant_ids[i]], len(line_codes))
                if entrant_ids[i] in lines
                else -1
                for i in ranked.tolist()
            ],
            dtype=np.int64,
        )
        with_line = np.flatnonzero(code >= 0)
        line_order, line_ranks = _competition_ranks(
            percentage[with_line], tie_rank[ranked][with_line], code[with_line]
        )
        line_rank[ranked[with_line][line_order]] = line_ranks
    entrants = ranked[order]
    values = set(totals.percentage[entrants].tolist()) | set(totals.penalty[entrants].tolist())
    decimal = {value: hundredths_to_decimal(value) for value in values}
    return tuple(
        IndividualRow(
            rank,
            entrant_ids[entrant],
            decimal[pct],
            decimal[penalty],
            marks,
            deals,
            lines.get(entrant_ids[entrant]),
            None if line_position < 0 else line_position,
        )
        for rank, entrant, pct, penalty, marks, deals, line_position in zip(
            ranks.tolist(),
            entrants.tolist(),
            totals.percentage[entrants].tolist(),
            totals.penalty[entrants].tolist(),
            totals.marks[entrants].tolist(),
            totals.counts[entrants].tolist(),
            line_rank[entrants].tolist(),
            strict=True,
        )
    )


def hand_scores(tournament: TournamentInput) -> HandScores:
    """Compare every hand of the tournament's seat results: the per-deal half of the work.

    A hand's scores depend only on the results of its own deal and the deal's scheduled count,
    so the hand scores of some deals can be computed alone and merged with stored ones
    (:func:`scoring.core.results.merge_hand_scores`) before :func:`standings_from_hands`.
    Structure checks on the seat results (one result per seat, one seat per entrant and deal)
    are made here; teams and penalties are checked by :func:`standings_from_hands`.
    """
    columns = tournament.seats
    if len(columns) == 0:
        return empty_hand_scores(columns.entrant_ids)
    deal_values, deal_index = _dense_index(columns.deal)
    order = _canonical_order(columns, deal_index)
    _check_one_seat_per_deal(columns, deal_index, int(deal_values.shape[0]))
    scored = _score_hands(columns, deal_values, deal_index, tournament.scheduled)
    return HandScores(
        deal=columns.deal[order],
        table=columns.table[order],
        seat=columns.seat[order],
        entrant=columns.entrant[order],
        mark=np.where(columns.artificial == NO_ARTIFICIAL, columns.mark, 0)[order],
        artificial=(columns.artificial != NO_ARTIFICIAL)[order],
        director=columns.director[order],
        mp_num=scored.mp_num[order],
        mp_den=scored.mp_den[order],
        top=scored.top[order],
        percentage=scored.percentage[order],
        entrant_ids=columns.entrant_ids,
    )


def _columns_of(hands: HandScores) -> tuple[SeatColumns, _HandColumns]:
    """The seat columns and exact hand columns a set of hand scores was computed from."""
    artificial = np.where(hands.artificial, hands.percentage, NO_ARTIFICIAL).astype(np.int64)
    columns = SeatColumns(
        deal=hands.deal,
        table=hands.table,
        seat=hands.seat,
        entrant=hands.entrant,
        mark=hands.mark,
        artificial=artificial,
        director=hands.director,
        entrant_ids=hands.entrant_ids,
    )
    scored = _HandColumns(len(hands))
    scored.mp_num = hands.mp_num.astype(np.int64)
    scored.mp_den = hands.mp_den.astype(np.int64)
    scored.top = hands.top.astype(np.int64)
    scored.percentage = hands.percentage.astype(np.int64)
    compared = scored.top > 0
    safe_top = np.where(compared, scored.top, 1)
    safe_den = np.where(compared, scored.mp_den, 1)
    real_float = np.where(compared, 100.0 * scored.mp_num / (safe_den * safe_top), 50.0)
    scored.percentage_float = np.where(hands.artificial, artificial / 100.0, real_float)
    return columns, scored


def standings_from_hands(tournament: TournamentInput, hands: HandScores) -> Standings:
    """Rank players (and teams, and quadrette matches) from hand scores: the second half.

    ``tournament`` gives the penalties, teams, matches, lines and options (its seat results are
    not read). ``standings_from_hands(t, hand_scores(t))`` is ``compute_standings(t)``.
    """
    if len(hands) == 0:
        return compute_standings_reference(replace(tournament, seats=SeatColumns.from_results([])))
    columns, scored = _columns_of(hands)
    entrant_ids = columns.entrant_ids
    seated = np.bincount(columns.entrant, minlength=len(entrant_ids)) > 0
    players = {entrant_ids[index] for index in np.flatnonzero(seated).tolist()}
    structure = check_structure(tournament, players)

    names = list(entrant_ids)
    player_penalty = np.zeros(len(names), dtype=np.int64)
    if structure.player_penalty:
        index_of = {name: index for index, name in enumerate(names)}
        for name, amount in structure.player_penalty.items():
            player_penalty[index_of[name]] = amount
    per_player = _group_totals(columns.entrant, len(names), player_penalty, columns, scored)
    individual = _individual_ranking(
        entrant_ids, per_player, tournament.lines, tournament.options.rank_by_line, tournament.names
    )

    team_totals: dict[str, EntrantTotal] = {}
    if tournament.teams:
        team_ids = [team.id for team in tournament.teams]
        team_of_entrant = np.array(
            [structure.team_of_player.get(name, -1) for name in names], dtype=np.int64
        )
        team_penalty = np.array(
            [structure.team_penalty.get(team_id, 0) for team_id in team_ids], dtype=np.int64
        )
        per_team = _group_totals(
            team_of_entrant[columns.entrant], len(team_ids), team_penalty, columns, scored
        )
        for index, team_id in enumerate(team_ids):
            team_total = per_team.total(index, team_id)
            if team_total is None:
                raise ScoringInputError(f"team {team_id}: none of its members has a result")
            team_totals[team_id] = team_total

    match_records = []
    if tournament.matches:
        match_tables = np.array(
            sorted({table for match in tournament.matches for table in match.tables}),
            dtype=np.int64,
        )
        at_match_tables = np.flatnonzero(np.isin(columns.table, match_tables)).astype(np.int64)
        match_records = columns.take(at_match_tables).records()
    return finish(tournament, hands, individual, team_totals, match_records)


def compute_standings_vectorised(tournament: TournamentInput) -> Standings:
    """Score the tournament with array operations (the path used at scale)."""
    if len(tournament.seats) == 0:
        return compute_standings_reference(tournament)
    return standings_from_hands(tournament, hand_scores(tournament))

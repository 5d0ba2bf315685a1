"""Properties of the comparison on random tournaments (hypothesis), on both paths, and the
agreement of the vectorised path with the reference path."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.synthetic import synthetic_tournament
from scoring.core import (
    SEATS,
    Match,
    Penalty,
    ScoringOptions,
    SeatColumns,
    SeatResult,
    Standings,
    Team,
    TournamentInput,
    compute_standings,
    hand_scores,
    merge_hand_scores,
    standings_from_hands,
)
from scoring.core.model import NO_ARTIFICIAL
from scoring.core.vectorised import _matchpoints

# few distinct values so that ties are frequent; marks are taker 3·value, defenders −value
VALUES = [-686, -112, -62, 50, 60, 68, 94, 150]
METHODS = ("reference", "vectorised")


@st.composite
def tournaments(
    draw: st.DrawFn, *, artificial: bool = True, extra_scheduled: bool = True, teams: bool = False
) -> TournamentInput:
    deals = draw(st.integers(1, 4))
    tables = draw(st.integers(1, 6))
    players = [f"e{index:02d}" for index in range(4 * tables)]
    records: list[SeatResult] = []
    scheduled: dict[int, int] = {}
    for deal in range(1, deals + 1):
        taker = draw(st.sampled_from(SEATS))
        seating = draw(st.permutations(players))
        played = 0
        for number in range(1, tables + 1):
            if draw(st.integers(0, 9)) == 0:
                continue  # this table did not play the deal
            played += 1
            here = seating[4 * (number - 1) : 4 * number]
            if artificial and draw(st.integers(0, 5)) == 0:
                given = draw(
                    st.lists(
                        st.sampled_from(["40", "50", "60", "57.5", "33.33"]), min_size=4, max_size=4
                    )
                )
                records += [
                    SeatResult(deal, number, seat, entrant, artificial=Decimal(pct))
                    for seat, entrant, pct in zip(SEATS, here, given, strict=True)
                ]
                continue
            value = draw(st.sampled_from(VALUES))
            director = draw(st.integers(0, 9)) == 0
            records += [
                SeatResult(
                    deal,
                    number,
                    seat,
                    entrant,
                    mark=3 * value if seat == taker else -value,
                    director=director,
                )
                for seat, entrant in zip(SEATS, here, strict=True)
            ]
        if played and extra_scheduled and draw(st.booleans()):
            scheduled[deal] = played + draw(st.integers(0, 2))
    seated = sorted({record.entrant for record in records})
    team_list: list[Team] = []
    matches: list[Match] = []
    penalties: list[Penalty] = []
    if seated and draw(st.booleans()):
        victim = draw(st.sampled_from(seated))
        penalties.append(Penalty(victim, Decimal(draw(st.integers(1, 500))) / 100, "test"))
    if teams and len(seated) >= 3:
        size = draw(st.sampled_from([3, 4]))
        for index in range(0, len(seated) - size + 1, size):
            team_list.append(Team(f"T{index // size}", tuple(seated[index : index + size])))
        if team_list and draw(st.booleans()):
            penalties.append(Penalty(team_list[0].id, Decimal("0.25"), "team"))
        if len(team_list) >= 2 and tables >= 2:
            matches.append(Match("M1", team_list[0].id, team_list[1].id, (1, 2)))
    lines: dict[str, str] = {}
    if draw(st.booleans()):
        lines = {entrant: draw(st.sampled_from(["NS", "EW"])) for entrant in seated[1:]}
    order = draw(st.permutations(range(len(records))))
    return TournamentInput.from_results(
        [records[index] for index in order],
        scheduled=scheduled,
        penalties=penalties,
        teams=team_list,
        matches=matches,
        lines=lines,
        options=ScoringOptions(rank_by_line=bool(lines) and draw(st.booleans())),
    )


def by_hand(standings: Standings) -> dict[tuple[int, str], list]:  # type: ignore[type-arg]
    hands: dict[tuple[int, str], list] = defaultdict(list)  # type: ignore[type-arg]
    for score in standings.hands:
        hands[(score.deal, score.seat)].append(score)
    return hands


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_each_all_real_hand_averages_exactly_fifty(tournament: TournamentInput) -> None:
    for method in METHODS:
        for scores in by_hand(compute_standings(tournament, method=method)).values():
            if all(not score.artificial for score in scores):
                total = sum((score.exact_percentage for score in scores), Fraction(0))
                assert total == 50 * len(scores)


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.data())
def test_defenders_share_a_percentage_and_the_taker_has_the_rest(
    tournament: TournamentInput, data: st.DataObject
) -> None:
    method = data.draw(st.sampled_from(METHODS))
    at_table: dict[tuple[int, int], list] = defaultdict(list)  # type: ignore[type-arg]
    for score in compute_standings(tournament, method=method).hands:
        if not score.artificial:
            at_table[(score.deal, score.table)].append(score)
    for scores in at_table.values():
        marks = [score.mark for score in scores]
        # the taker's mark (3·value) is the odd one out among the defenders' (−value)
        taker = next(score for score in scores if marks.count(score.mark) == 1)
        defenders = {score.exact_percentage for score in scores if score is not taker}
        assert len(defenders) == 1
        assert taker.exact_percentage == 100 - defenders.pop()


@settings(max_examples=60, deadline=None)
@given(tournaments(teams=True), st.data())
def test_rankings_are_competition_rankings(
    tournament: TournamentInput, data: st.DataObject
) -> None:
    standings = compute_standings(tournament, method=data.draw(st.sampled_from(METHODS)))
    rows = standings.individual
    assert sorted(row.entrant for row in rows) == sorted(
        set(tournament.seats.entrant_ids[index] for index in tournament.seats.entrant.tolist())
    )
    for row in rows:
        better = sum(1 for other in rows if other.percentage > row.percentage)
        assert row.rank == better + 1
    percentages = [row.percentage for row in rows]
    assert percentages == sorted(percentages, reverse=True)
    for first, second in itertools.pairwise(rows):
        assert (first.rank == second.rank) == (first.percentage == second.percentage)
    if standings.team_basis == "percentage":
        team_rows = standings.teams
        assert sorted(row.team for row in team_rows) == sorted(t.id for t in tournament.teams)
        for row in team_rows:
            assert row.rank == 1 + sum(1 for o in team_rows if o.percentage > row.percentage)


@settings(max_examples=40, deadline=None)
@given(tournaments(teams=True), st.randoms(use_true_random=False))
def test_permuting_the_results_changes_nothing(tournament: TournamentInput, rng) -> None:  # type: ignore[no-untyped-def]
    records = tournament.seats.records()
    rng.shuffle(records)
    shuffled = TournamentInput.from_results(
        records,
        scheduled=tournament.scheduled,
        penalties=tournament.penalties,
        teams=tournament.teams,
        matches=tournament.matches,
        lines=tournament.lines,
        options=tournament.options,
    )
    for method in METHODS:
        expected = compute_standings(tournament, method=method).to_dict()
        assert compute_standings(shuffled, method=method).to_dict() == expected


@settings(max_examples=80, deadline=None)
@given(tournaments(teams=True))
def test_vectorised_path_agrees_with_the_reference(tournament: TournamentInput) -> None:
    reference = compute_standings(tournament, method="reference").to_dict()
    assert compute_standings(tournament, method="vectorised").to_dict() == reference


@settings(max_examples=80, deadline=None)
@given(tournaments(teams=True), st.data())
def test_hands_scored_by_parts_then_ranked_equal_the_whole(
    tournament: TournamentInput, data: st.DataObject
) -> None:
    """The incremental recompute's premise: a deal's hand scores depend on that deal only, and
    the rankings only on the hand scores."""
    seats = tournament.seats
    deals = sorted(set(seats.deal.tolist()))
    chosen = set(data.draw(st.lists(st.sampled_from(deals), unique=True))) if deals else set()
    mask = np.isin(seats.deal, sorted(chosen))
    parts = [
        hand_scores(replace(tournament, seats=seats.take(np.flatnonzero(rows).astype(np.int64))))
        for rows in (mask, ~mask)
    ]
    merged = merge_hand_scores(parts)
    expected = compute_standings(tournament).to_dict()
    assert standings_from_hands(tournament, merged).to_dict() == expected
    assert standings_from_hands(tournament, hand_scores(tournament)).to_dict() == expected


def with_holes(tournament: TournamentInput, seed: int) -> TournamentInput:
    """Turn some table results artificial and schedule some deals more often."""
    rng = np.random.default_rng(seed)
    seats = tournament.seats
    tables = int(seats.table.max())
    artificial = seats.artificial.copy()
    for _ in range(5):
        deal, number = rng.integers(1, int(seats.deal.max()) + 1), rng.integers(1, tables + 1)
        rows = (seats.deal == deal) & (seats.table == number)
        artificial[rows] = rng.choice([4000, 5000, 6000], size=int(rows.sum()))
    keep = rng.random(len(seats)) > 0.02  # a few seats missing: incomplete tables
    holey = SeatColumns(
        deal=seats.deal[keep],
        table=seats.table[keep],
        seat=seats.seat[keep],
        entrant=seats.entrant[keep],
        mark=seats.mark[keep],
        artificial=artificial[keep],
        director=seats.director[keep],
        entrant_ids=seats.entrant_ids,
    )
    return TournamentInput(seats=holey, scheduled={1: tables + 2, 3: tables + 1})


def test_paths_agree_on_synthetic_fields() -> None:
    for seed in range(3):
        tournament = with_holes(synthetic_tournament(tables=25, deals=6, seed=seed), seed)
        assert (tournament.seats.artificial != NO_ARTIFICIAL).any()
        reference = compute_standings(tournament, method="reference").to_dict()
        assert compute_standings(tournament, method="vectorised").to_dict() == reference


def test_rounding_boundary_is_exact_on_both_paths() -> None:
    """50.00 and 50.25 average 50.125, exactly on a boundary: half-up gives 50.13; a 0.25
    penalty gives 49.875 → 49.88."""
    results = [
        SeatResult(1, 1, "N", "a", artificial=Decimal("50")),
        SeatResult(2, 1, "N", "a", artificial=Decimal("50.25")),
        SeatResult(1, 1, "E", "b", artificial=Decimal("50")),
        SeatResult(2, 1, "E", "b", artificial=Decimal("50.25")),
    ]
    tournament = TournamentInput.from_results(results, penalties=[Penalty("b", Decimal("0.25"))])
    for method in METHODS:
        rows = {
            row.entrant: str(row.percentage)
            for row in compute_standings(tournament, method=method).individual
        }
        assert rows == {"a": "50.13", "b": "49.88"}


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(-3000, 3000) | st.sampled_from([-60, 60, 180])),
        min_size=1,
        max_size=60,
    )
)
def test_matchpoints_by_grid_and_by_sort_agree_with_counting(pairs: list[tuple[int, int]]) -> None:
    hand = np.array([h for h, _ in pairs], dtype=np.int64)
    mark = np.array([m for _, m in pairs], dtype=np.int64)
    counted = [
        2 * sum(1 for h2, m2 in pairs if h2 == h and m2 < m)
        + sum(1 for h2, m2 in pairs if h2 == h and m2 == m)
        - 1
        for h, m in pairs
    ]
    assert _matchpoints(hand, mark).tolist() == counted
    assert _matchpoints(hand, mark, per_result=10**9).tolist() == counted  # always the grid
    assert _matchpoints(hand, mark, grid_limit=0).tolist() == counted  # always the sort

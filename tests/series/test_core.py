"""The series ranking computed from plain rows (``series.core``): hand-computed expectations.

No database: the core is pure (checked below on its imports as tests/test_purity.py does).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from series.core import PERCENTAGE, POINTS, EventResult, Formula, series_standings
from tests.test_purity import FORBIDDEN_IN_PURE, ROOT, imported_modules

D = Decimal


def results(table: dict[int, list[tuple[int, int, str | None]]]) -> list[EventResult]:
    """{event: [(player, place, percentage)]} as rows."""
    return [
        EventResult(event, player, place, D(pct) if pct is not None else None)
        for event, rows in table.items()
        for player, place, pct in rows
    ]


def summary(standings) -> list[tuple[int, int | None, int, int, Decimal]]:
    return [(s.player_id, s.place, s.played, s.counted, s.score) for s in standings]


def test_the_core_imports_nothing_from_django_or_the_apps():
    imports = imported_modules(ROOT / "series" / "core.py", ROOT)
    forbidden = (*FORBIDDEN_IN_PURE, "series")
    assert imports, "the check saw the module's imports"
    assert [m for _line, m in imports if m.split(".")[0] in forbidden] == []


def test_points_per_place_sum_over_the_events():
    # table 10, 8, 6 then 1. Event 1: A 1st, B 2nd, C 3rd, D 4th. Event 2: B 1st, A 3rd, D 2nd.
    rows = results(
        {
            1: [(1, 1, None), (2, 2, None), (3, 3, None), (4, 4, None)],
            2: [(2, 1, None), (4, 2, None), (1, 3, None)],
        }
    )
    formula = Formula(POINTS, (10, 8, 6), points_default=1)
    standings = series_standings(rows, formula, [1, 2])
    # A 10+6=16, B 8+10=18, D 1+8=9, C 6
    assert summary(standings) == [
        (2, 1, 2, 2, D(18)),
        (1, 2, 2, 2, D(16)),
        (4, 3, 2, 2, D(9)),
        (3, 4, 1, 1, D(6)),
    ]
    assert [(r.event_id, r.place, r.value, r.counted) for r in standings[1].results] == [
        (1, 1, D(10), True),
        (2, 3, D(6), True),
    ]


def test_players_tied_on_a_place_each_earn_that_places_points():
    rows = results({1: [(1, 1, None), (2, 2, None), (3, 2, None), (4, 4, None)]})
    standings = series_standings(rows, Formula(POINTS, (5, 3, 2, 1)), [1])
    assert [(s.player_id, s.place, s.score) for s in standings] == [
        (1, 1, D(5)),
        (2, 2, D(3)),
        (3, 2, D(3)),
        (4, 4, D(1)),
    ]


def test_average_percentage_rounds_half_up_to_the_hundredth():
    rows = results(
        {
            1: [(1, 1, "60.00"), (2, 2, "55.01")],
            2: [(1, 2, "50.00"), (2, 1, "55.00")],
            3: [(1, 1, "57.01")],
        }
    )
    standings = series_standings(rows, Formula(PERCENTAGE), [1, 2, 3])
    # A (60 + 50 + 57.01) / 3 = 55.67; B (55.01 + 55) / 2 = 55.005 -> 55.01
    assert summary(standings) == [(1, 1, 3, 3, D("55.67")), (2, 2, 2, 2, D("55.01"))]


def test_best_n_counts_only_each_players_best_results():
    rows = results(
        {
            1: [(1, 1, "62.00"), (2, 2, "58.00")],
            2: [(1, 2, "40.00"), (2, 1, "60.00")],
            3: [(1, 1, "61.00"), (2, 2, "50.00")],
        }
    )
    points = series_standings(rows, Formula(POINTS, (10, 7), best_n=2), [1, 2, 3])
    # A 10 + 10 (a 7 dropped) = 20; B 10 + 7 (a 7 dropped) = 17
    assert summary(points) == [(1, 1, 3, 2, D(20)), (2, 2, 3, 2, D(17))]
    dropped = [r.event_id for r in points[0].results if not r.counted]
    assert dropped == [2]
    # B's two 7s are equal: the earlier event counts
    assert [r.event_id for r in points[1].results if not r.counted] == [3]
    average = series_standings(rows, Formula(PERCENTAGE, best_n=2), [1, 2, 3])
    # A (62 + 61) / 2 = 61.50; B (58 + 60) / 2 = 59.00
    assert summary(average) == [(1, 1, 3, 2, D("61.50")), (2, 2, 3, 2, D("59.00"))]


def test_best_n_larger_than_the_events_played_counts_them_all():
    rows = results({1: [(1, 1, None)], 2: [(1, 2, None)]})
    standings = series_standings(rows, Formula(POINTS, (3, 2), best_n=5), [1, 2])
    assert summary(standings) == [(1, 1, 2, 2, D(5))]


def test_minimum_attendance_lists_the_others_apart_unranked_in_the_same_order():
    rows = results(
        {
            1: [(1, 2, None), (2, 1, None), (3, 3, None)],
            2: [(1, 1, None), (4, 1, None)],
            3: [(1, 3, None), (3, 1, None)],
        }
    )
    formula = Formula(POINTS, (10, 6, 4), min_events=2)
    standings = series_standings(rows, formula, [1, 2, 3])
    # A 6+10+4 = 20 (3 events), C 4+10 = 14 (2), B 10 (1), D 10 (1): B, D unranked
    assert summary(standings) == [
        (1, 1, 3, 3, D(20)),
        (3, 2, 2, 2, D(14)),
        (2, None, 1, 1, D(10)),
        (4, None, 1, 1, D(10)),
    ]
    assert [s.ranked for s in standings] == [True, True, False, False]


def test_ties_more_results_counted_first():
    # A: 10 in one event; B: 6 + 4 = 10 in two events -> B ahead
    rows = results({1: [(1, 1, None), (2, 2, None)], 2: [(2, 3, None)]})
    standings = series_standings(rows, Formula(POINTS, (10, 6, 4)), [1, 2])
    assert [(s.player_id, s.place) for s in standings] == [(2, 1), (1, 2)]


def test_ties_then_the_better_best_result():
    # A 10 + 2 = 12, B 6 + 6 = 12, both two results: A's best (10) beats B's (6)
    rows = results(
        {
            1: [(1, 1, None), (2, 2, None), (9, 3, None)],
            2: [(3, 1, None), (2, 2, None), (1, 3, None)],
        }
    )
    standings = series_standings(rows, Formula(POINTS, (10, 6, 2)), [1, 2])
    assert [(s.player_id, s.place, s.score) for s in standings][:3] == [
        (1, 1, D(12)),
        (2, 2, D(12)),
        (3, 3, D(10)),
    ]


def test_fully_equal_players_share_the_place_and_are_listed_by_name():
    rows = results({1: [(1, 1, None), (2, 1, None), (3, 3, None)]})
    names = {1: "ZOLA Emile", 2: "ARNAUD Anne", 3: "MARTIN Paul"}
    standings = series_standings(rows, Formula(POINTS, (5, 4, 3)), [1], names)
    assert [(s.player_id, s.place) for s in standings] == [(2, 1), (1, 1), (3, 3)]


def test_average_ties_on_the_figure_shown():
    # 55.004 and 55.001 both show 55.00: equal score, then more results counted
    rows = results({1: [(1, 1, "55.004"), (2, 2, "55.00")], 2: [(2, 1, "55.002")]})
    standings = series_standings(rows, Formula(PERCENTAGE), [1, 2])
    assert [(s.player_id, s.place, s.score) for s in standings] == [
        (2, 1, D("55.00")),
        (1, 2, D("55.00")),
    ]


def test_beyond_the_points_table_the_default_applies():
    formula = Formula(POINTS, (3, 2), points_default=1)
    assert [formula.points_for(place) for place in (1, 2, 3, 40)] == [3, 2, 1, 1]


def test_a_player_twice_at_one_event_or_an_unknown_method_is_a_programming_error():
    with pytest.raises(ValueError):
        series_standings(results({1: [(1, 1, None), (1, 2, None)]}), Formula(POINTS, (1,)))
    with pytest.raises(ValueError):
        Formula("goals")

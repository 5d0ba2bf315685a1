"""Hand-computed cases of docs/domain/duplicate.md, checked on both paths (reference, vectorised).

Each docstring shows the arithmetic done by hand.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scoring.core import (
    IMP_THRESHOLDS,
    Match,
    Penalty,
    ScoringInputError,
    ScoringOptions,
    Standings,
    Team,
    TournamentInput,
    compute_standings,
    pm_from_net,
    wbf_victory_points,
)
from tests.scoring.core.helpers import artificial, table

METHODS = ["reference", "vectorised"]


@pytest.fixture(params=METHODS)
def score(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    def run(tournament: TournamentInput) -> Standings:
        return compute_standings(tournament, method=request.param)

    return run


def cells(standings: Standings, seat: str) -> list[tuple[int, str | None, str, bool]]:
    """(table, matchpoints, percentage, artificial) of one seat's hand, by table."""
    return [
        (
            h.table,
            None if h.matchpoints is None else str(h.matchpoints),
            str(h.percentage),
            h.artificial,
        )
        for h in standings.hands
        if h.seat == seat
    ]


def five_tables_with_ties() -> list:  # type: ignore[type-arg]
    values = [60, 60, -112, 50, 60]
    results = []
    for number, value in enumerate(values, start=1):
        base = 4 * (number - 1)
        results += table(1, number, f"p{base + 1} p{base + 2} p{base + 3} p{base + 4}", value)
    return results


def test_five_table_hand_with_ties(score) -> None:  # type: ignore[no-untyped-def]
    """Taker S marks 180, 180, −336, 150, 180 (n = 5, top 8).

    180: beats −336 and 150, ties two → 2·2 + 2 = 6 → 75 %; −336: 0 → 0 %;
    150: beats one → 2 → 25 %. Defenders (−60, −60, 112, −50, −60): 112 → 8 → 100 %;
    −50 beats three −60 → 6 → 75 %; −60 ties two → 2 → 25 %.
    """
    standings = score(TournamentInput.from_results(five_tables_with_ties()))
    assert cells(standings, "S") == [
        (1, "6", "75.00", False),
        (2, "6", "75.00", False),
        (3, "0", "0.00", False),
        (4, "2", "25.00", False),
        (5, "6", "75.00", False),
    ]
    for seat in ("N", "E", "W"):
        assert cells(standings, seat) == [
            (1, "2", "25.00", False),
            (2, "2", "25.00", False),
            (3, "8", "100.00", False),
            (4, "6", "75.00", False),
            (5, "2", "25.00", False),
        ]
    assert {h.top for h in standings.hands} == {8}
    # one deal each: the ranking is the hand percentage, competition ranks, ties by id
    ranking = [(row.rank, row.entrant, str(row.percentage)) for row in standings.individual]
    assert ranking[:9] == [
        (1, "p10", "100.00"),
        (1, "p12", "100.00"),
        (1, "p9", "100.00"),
        (4, "p13", "75.00"),
        (4, "p14", "75.00"),
        (4, "p16", "75.00"),
        (4, "p19", "75.00"),
        (4, "p3", "75.00"),
        (4, "p7", "75.00"),
    ]
    assert [rank for rank, _, _ in ranking[9:]] == [10] * 10 + [20]
    assert ranking[-1] == (20, "p11", "0.00")


def test_neuberg_on_a_hand_played_four_times_out_of_five(score) -> None:  # type: ignore[no-untyped-def]
    """Scheduled N = 5, real n = 4: taker marks 180, 150, −336, 180.

    Raw mp: 180 → 2·2 + 1 = 5, 150 → 2, −336 → 0. mp' = (mp + 1)·5/4 − 1:
    180 → 6.5, 150 → 2.75, −336 → 0.25; top = 2·(5 − 1) = 8.
    % = 81.25, 34.375 → 34.38, 3.125 → 3.13 (half-up). Defenders: 100 − those.
    """
    results = (
        table(1, 1, "a1 a2 a3 a4", 60)
        + table(1, 2, "b1 b2 b3 b4", 50)
        + table(1, 3, "c1 c2 c3 c4", -112)
        + table(1, 4, "d1 d2 d3 d4", 60)
    )
    standings = score(TournamentInput.from_results(results, scheduled={1: 5}))
    assert cells(standings, "S") == [
        (1, "13/2", "81.25", False),
        (2, "11/4", "34.38", False),
        (3, "1/4", "3.13", False),
        (4, "13/2", "81.25", False),
    ]
    assert cells(standings, "N") == [
        (1, "3/2", "18.75", False),
        (2, "21/4", "65.63", False),
        (3, "31/4", "96.88", False),
        (4, "3/2", "18.75", False),
    ]
    assert {h.top for h in standings.hands} == {8}
    taker = next(h for h in standings.hands if h.seat == "S" and h.table == 2)
    assert taker.exact_percentage == Fraction(275, 8)
    assert taker.to_dict()["matchpoints"] == "2.75"


def test_artificial_60_40_at_one_table(score) -> None:  # type: ignore[no-untyped-def]
    """Four tables, table 4 gets 60/40 (N, S 60; E, W 40): N = 4, n = 3, top 6.

    Taker marks 180, 150, −336: raw mp 4, 2, 0 → mp' = (mp + 1)·4/3 − 1 = 17/3, 3, 1/3
    → 94.44, 50.00, 5.56 %. Defenders −60, −50, 112 → 1/3, 3, 17/3 → 5.56, 50.00, 94.44 %.
    """
    results = (
        table(1, 1, "a1 a2 a3 a4", 60)
        + table(1, 2, "b1 b2 b3 b4", 50)
        + table(1, 3, "c1 c2 c3 c4", -112)
        + artificial(1, 4, "d1 d2 d3 d4", "60 40 60 40")
    )
    standings = score(TournamentInput.from_results(results))
    assert cells(standings, "S") == [
        (1, "17/3", "94.44", False),
        (2, "3", "50.00", False),
        (3, "1/3", "5.56", False),
        (4, None, "60.00", True),
    ]
    assert cells(standings, "E") == [
        (1, "1/3", "5.56", False),
        (2, "3", "50.00", False),
        (3, "17/3", "94.44", False),
        (4, None, "40.00", True),
    ]
    art = [h for h in standings.hands if h.artificial]
    assert [h.mark for h in art] == [None] * 4
    assert [h.top for h in art] == [None] * 4
    rows = {row.entrant: row for row in standings.individual}
    assert rows["d1"].percentage == Decimal("60.00") and rows["d1"].marks == 0
    assert rows["d2"].percentage == Decimal("40.00")


def test_one_result_hand_scores_fifty(score) -> None:  # type: ignore[no-untyped-def]
    """A hand scheduled once (no comparison) and a hand with n = 1 of N = 3 both give 50 %:
    mp' = (0 + 1)·3/1 − 1 = 2 over a top of 4."""
    once = score(TournamentInput.from_results(table(1, 1, "a b c d", 94)))
    assert [(h.matchpoints, h.top, str(h.percentage)) for h in once.hands] == [
        (Fraction(0), 0, "50.00")
    ] * 4
    neuberg = score(TournamentInput.from_results(table(1, 1, "a b c d", 94), scheduled={1: 3}))
    assert [(h.matchpoints, h.top, str(h.percentage)) for h in neuberg.hands] == [
        (Fraction(2), 4, "50.00")
    ] * 4
    assert {str(row.percentage) for row in neuberg.individual} == {"50.00"}


def test_penalty_is_subtracted_after_the_mean_and_shown_apart(score) -> None:  # type: ignore[no-untyped-def]
    """Two deals at two tables: a1 scores 100 % then 0 % → 50 %; minus 1.5 → 48.50.

    Deal 1 (taker S): 60 at table 1, 50 at table 2 → S1 100 %, S2 0 %. Deal 2: the same
    players, 50 at table 1, 60 at table 2 → S1 0 %, S2 100 %. Everybody is at 50 % except the
    penalised a3 (48.50), who drops from a shared first place to the last rank.
    """
    results = (
        table(1, 1, "a1 a2 a3 a4", 60)
        + table(1, 2, "b1 b2 b3 b4", 50)
        + table(2, 1, "a1 a2 a3 a4", 50)
        + table(2, 2, "b1 b2 b3 b4", 60)
    )
    penalties = [Penalty("a3", Decimal("1.5"), "slow play")]
    standings = score(TournamentInput.from_results(results, penalties=penalties))
    rows = [
        (r.rank, r.entrant, str(r.percentage), str(r.penalty), r.marks, r.deals)
        for r in standings.individual
    ]
    assert rows[0] == (1, "a1", "50.00", "0.00", -60 - 50, 2)
    assert rows[-1] == (8, "a3", "48.50", "1.50", 180 + 150, 2)
    assert [r[0] for r in rows] == [1] * 7 + [8]


def test_triplette_field_of_eight_teams(score) -> None:  # type: ignore[no-untyped-def]
    """Two pools of four teams, one deal (taker S) at six tables.

    Pool 1: A's three members take at tables 1-3 against B, C, D; pool 2: E takes at 4-6
    against F, G, H. Values 60, 50, 60, −112, 94, 50 → taker marks 180, 150, 180, −336, 282,
    150 (n = 6, top 10): 282 → 10 → 100 %; 180 → 2·3 + 1 = 7 → 70 %; 150 → 2·1 + 1 = 3 → 30 %;
    −336 → 0 %. Defenders get 100 minus the taker's.
    A = (70 + 30 + 70)/3 = 56.67; E = (0 + 100 + 30)/3 = 43.33; B = 30, C = 70, D = 30,
    F = 100, G = 0, H = 70 (each three equal entries).
    """
    values = [60, 50, 60, -112, 94, 50]
    takers = ["A1", "A2", "A3", "E1", "E2", "E3"]
    defenders = ["B", "C", "D", "F", "G", "H"]
    results = []
    for number, (value, taker, team) in enumerate(zip(values, takers, defenders, strict=True), 1):
        results += table(1, number, f"{team}1 {team}2 {taker} {team}3", value)
    teams = [Team(t, tuple(f"{t}{i}" for i in (1, 2, 3)), name=f"Team {t}") for t in "ABCDEFGH"]
    standings = score(TournamentInput.from_results(results, teams=teams))
    assert standings.team_basis == "percentage"
    assert [(r.rank, r.team, str(r.percentage), r.entries) for r in standings.teams] == [
        (1, "F", "100.00", 3),
        (2, "C", "70.00", 3),
        (2, "H", "70.00", 3),
        (4, "A", "56.67", 3),
        (5, "E", "43.33", 3),
        (6, "B", "30.00", 3),
        (6, "D", "30.00", 3),
        (8, "G", "0.00", 3),
    ]
    team_a = next(r for r in standings.teams if r.team == "A")
    assert team_a.marks == 180 + 150 + 180 and team_a.pm is None and team_a.vp is None


def quadrette_match() -> TournamentInput:
    """Team A (a1-a4) against B (b1-b4), six deals, taker S at both tables.

    Table 1: a1 takes against b1, b2, b3; table 2: b4 takes against a2, a3, a4.
    """
    values = [(60, 60), (60, 50), (50, -112), (-112, 94), (94, 60), (-686, 50)]
    results = []
    for deal, (v1, v2) in enumerate(values, start=1):
        results += table(deal, 1, "b1 b2 a1 b3", v1)
        results += table(deal, 2, "a2 a3 b4 a4", v2)
    teams = [Team("A", ("a1", "a2", "a3", "a4")), Team("B", ("b1", "b2", "b3", "b4"))]
    return TournamentInput.from_results(
        results, teams=teams, matches=[Match("M1", "A", "B", (1, 2))]
    )


def test_quadrette_match_of_six_deals(score) -> None:  # type: ignore[no-untyped-def]
    """A's net = 3·(v1 − v2): 0, 30, 486, −618, 102, −2208.

    PM (IMP thresholds reached): 0; 30 ≥ 20 → 1; 486 ≥ 430 → 10; 618 ≥ 600 → −12;
    102 ≥ 90 → 3; 2208 ≥ 2000 → −19. Total A = 0 + 1 + 10 − 12 + 3 − 19 = −17, B = +17.
    VP (6 deals, B = 15√6 ≈ 36.74): 10 + 10·(1 − r^(17/36.74))/(1 − r) = 16.378 → B 16.38,
    A 3.62.
    """
    standings = score(quadrette_match())
    (sheet,) = standings.matches
    assert [(d.deal, d.net_a, d.pm_a) for d in sheet.deals] == [
        (1, 0, 0),
        (2, 30, 1),
        (3, 486, 10),
        (4, -618, -12),
        (5, 102, 3),
        (6, -2208, -19),
    ]
    assert (sheet.pm_a, sheet.pm_b) == (-17, 17)
    assert (sheet.vp_a, sheet.vp_b) == (Decimal("3.62"), Decimal("16.38"))
    assert standings.team_basis == "pm"
    assert [(r.rank, r.team, r.pm, str(r.vp), r.matches) for r in standings.teams] == [
        (1, "B", 17, "16.38", 1),
        (2, "A", -17, "3.62", 1),
    ]


def test_match_tables_reused_by_another_match_keep_their_own_deals(score) -> None:  # type: ignore[no-untyped-def]
    """Round 1: A v B on tables 1-2 (deal 1); round 2: C v A on the same tables (deal 2).

    Each sheet holds only the deal its two teams played: A v B has deal 1 alone (net 0),
    C v A deal 2 alone (C's net: 3·(60 − 50) = 30 → 1 PM for C). Each sheet keeps its round.
    """
    results = table(1, 1, "b1 b2 a1 b3", 60) + table(1, 2, "a2 a3 b4 a4", 60)
    results += table(2, 1, "a1 a2 c1 a3", 60) + table(2, 2, "c2 c3 a4 c4", 50)
    teams = [Team(t, tuple(f"{t.lower()}{i}" for i in range(1, 5))) for t in "ABC"]
    matches = [Match("R1", "A", "B", (1, 2), round=1), Match("R2", "C", "A", (1, 2), round=2)]
    standings = score(TournamentInput.from_results(results, teams=teams, matches=matches))
    sheets = {sheet.match: sheet for sheet in standings.matches}
    assert [(d.deal, d.net_a, d.pm_a) for d in sheets["R1"].deals] == [(1, 0, 0)]
    assert [(d.deal, d.net_a, d.pm_a) for d in sheets["R2"].deals] == [(2, 30, 1)]
    assert [(sheet.round, sheet.to_dict()["round"]) for sheet in standings.matches] == [
        (1, 1),
        (2, 2),
    ]


def test_quadrette_ranking_by_vp_and_custom_scale(score) -> None:  # type: ignore[no-untyped-def]
    base = quadrette_match()
    by_vp = TournamentInput(
        seats=base.seats,
        teams=base.teams,
        matches=base.matches,
        options=ScoringOptions(team_ranking="vp"),
    )
    standings = score(by_vp)
    assert standings.team_basis == "vp"
    assert [(r.team, str(r.vp)) for r in standings.teams] == [("B", "16.38"), ("A", "3.62")]
    # a federation scale given as data: one PM per 100 of net
    custom = TournamentInput(
        seats=base.seats,
        teams=base.teams,
        matches=base.matches,
        options=ScoringOptions(pm_scale=tuple(range(100, 5000, 100))),
    )
    (sheet,) = score(custom).matches
    assert [d.pm_a for d in sheet.deals] == [0, 0, 4, -6, 1, -22]


def test_pm_scale_and_vp_edges() -> None:
    assert [pm_from_net(n, IMP_THRESHOLDS) for n in (0, 19, 20, -49, 50, 3999, 4000, 99999)] == [
        0,
        0,
        1,
        -1,
        2,
        23,
        24,
        24,
    ]
    assert wbf_victory_points(0, 6) == (Decimal("10.00"), Decimal("10.00"))
    assert wbf_victory_points(500, 6) == (Decimal("20.00"), Decimal("0.00"))
    winner, loser = wbf_victory_points(-17, 6)
    assert (winner, loser) == (Decimal("3.62"), Decimal("16.38"))


def test_director_assigned_outcome_is_a_real_result(score) -> None:  # type: ignore[no-untyped-def]
    results = table(1, 1, "a1 a2 a3 a4", 60) + table(1, 2, "b1 b2 b3 b4", 50, director=True)
    standings = score(TournamentInput.from_results(results))
    corrected = [h for h in standings.hands if h.table == 2]
    assert all(h.director and not h.artificial for h in corrected)
    assert [str(h.percentage) for h in corrected] == ["100.00", "100.00", "0.00", "100.00"]


def test_ranking_per_line(score) -> None:  # type: ignore[no-untyped-def]
    results = five_tables_with_ties()
    lines = {f"p{i}": ("NS" if i % 4 in (1, 3) else "EW") for i in range(1, 21)}
    standings = score(
        TournamentInput.from_results(
            results, lines=lines, options=ScoringOptions(rank_by_line=True)
        )
    )
    ns = sorted((r.line_rank, r.entrant) for r in standings.individual if r.line == "NS")
    assert ns[:5] == [(1, "p9"), (2, "p13"), (2, "p19"), (2, "p3"), (2, "p7")]
    assert ns[-1] == (10, "p11")


@pytest.mark.parametrize(
    ("results", "kwargs", "message"),
    [
        (
            table(1, 1, "a b c d", 60) + table(1, 1, "e f g h", 50),
            {},
            "deal 1, table 1, seat N: two results",
        ),
        (
            table(1, 1, "a b c d", 60) + table(1, 2, "a f g h", 50),
            {},
            "deal 1: entrant a holds two seats",
        ),
        (
            table(1, 1, "a b c d", 60) + table(1, 2, "e f g h", 50),
            {"scheduled": {1: 1}},
            "deal 1: scheduled 1 times but seat N has 2 results",
        ),
        (
            table(1, 1, "a b c d", 60),
            {"penalties": [Penalty("zz", Decimal(1))]},
            "penalty: zz is neither a player with results nor a team",
        ),
        (
            table(1, 1, "a b c d", 60),
            {"teams": [Team("T", ("a", "b")), Team("U", ("b", "c"))]},
            "team U: b is already in team T",
        ),
        (
            table(1, 1, "a b c d", 60),
            {"teams": [Team("T", ("x",))]},
            "team T: none of its members has a result",
        ),
    ],
)
def test_inconsistent_input_is_refused(score, results, kwargs, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScoringInputError, match=message):
        score(TournamentInput.from_results(results, **kwargs))


@pytest.mark.parametrize("value", ["1e999999999", "1e-999999999", "100.5", "-1", "0.001"])
def test_absurd_artificial_percentages_are_clear_input_errors(value: str) -> None:
    from scoring.core.model import percentage_hundredths

    with pytest.raises(ScoringInputError, match="results\\[0\\]"):
        percentage_hundredths(value, "results[0]")

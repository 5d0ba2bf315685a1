"""Duplicate team matches (docs/domain/duplicate.md): line-ups, PM per quarter, knockout.

Every expected figure is computed by hand in the comments: a room's value v is FFT scoring
((25 + margin) · multiplier, negative when lost), team A's net per deal = 3·(v_open − v_closed),
PM = the number of thresholds of the default scale (20, 50, 90, 130, 170, 220, 270, 320, 370,
430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, …) the |net| reaches, signed.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.enums import Contract
from rules.errors import RuleError
from rules.ruleset import traditional
from rules.scoring import Outcome
from scoring.core.team_match import (
    Bracket,
    DealResult,
    Lineup,
    MatchResult,
    QuarterPlay,
    Room,
    TeamMatch,
    TeamRoster,
    TieBreak,
    TieBreakRule,
    bracket,
    check_lineup,
    play_match,
    record_result,
    score_match,
    seeding_order,
)


def _o(contract: Contract, oudlers: int, points: int) -> Outcome:
    return Outcome(players=4, contract=contract, oudlers=oudlers, points_half=2 * points)


G, GS, GC = Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE
# Room outcomes and their values, by hand (needed: 56 / 51 / 41 / 36 points for 0..3 oudlers):
G45_2 = _o(G, 2, 45)  # 45 - 41 = won by 4: (25 + 4)·2 = 58
G47_2 = _o(G, 2, 47)  # won by 6: 31·2 = 62
G50_0 = _o(G, 0, 50)  # 50 - 56 = lost by 6: -(31·2) = -62
G51_1 = _o(G, 1, 51)  # won by 0: 25·2 = 50
GS60_1 = _o(GS, 1, 60)  # won by 9: 34·4 = 136
GS40_2 = _o(GS, 2, 40)  # lost by 1: -(26·4) = -104
GC30_3 = _o(GC, 3, 30)  # lost by 6: -(31·6) = -186
GC70_2 = _o(GC, 2, 70)  # won by 29: 54·6 = 324

# Deal kinds (open room, closed room) → net = 3·(v_open − v_closed) → PM:
PAIRS = {
    1: (G45_2, G45_2),  # 3·(58 − 58) = 0 → 0
    2: (G45_2, G50_0),  # 3·(58 + 62) = 360 → reaches 20…320 → 8
    3: (G51_1, G45_2),  # 3·(50 − 58) = −24 → −1
    4: (GS60_1, G51_1),  # 3·(136 − 50) = 258 → 20…220 → 6
    5: (GS40_2, GS60_1),  # 3·(−104 − 136) = −720 → 20…600 → −12
    6: (GC70_2, GC30_3),  # 3·(324 + 186) = 1530 → 20…1500 → 17
    7: (GC30_3, G50_0),  # 3·(−186 + 62) = −372 → 20…370 → −9
    8: (G50_0, G51_1),  # 3·(−62 − 50) = −336 → 20…320 → −8
    9: (G51_1, G51_1),  # 0 → 0
    10: (G45_2, GS40_2),  # 3·(58 + 104) = 486 → 20…430 → 10
    11: (GS40_2, G45_2),  # −486 → −10
    12: (G51_1, G50_0),  # 3·(50 + 62) = 336 → 8
    13: (G45_2, G51_1),  # 3·(58 − 50) = 24 → 1
    14: (G51_1, G47_2),  # 3·(50 − 62) = −36 → −1
}

T1 = TeamRoster("T1", ("a1", "a2", "a3", "a4", "a5", "a6"))
T2 = TeamRoster("T2", ("b1", "b2", "b3", "b4", "b5"))
T3 = TeamRoster("T3", ("c1", "c2", "c3", "c4"))
T4 = TeamRoster("T4", ("d1", "d2", "d3", "d4", "d5"))


def lineup(quarter: int, a: str, b: str) -> Lineup:
    """``a``: team A's four players, the first takes in the open room, the others defend in
    the closed room; ``b`` the same for team B (its first takes in the closed room)."""
    pa, pb = a.split(), b.split()
    return Lineup(
        quarter,
        open=Room(taker=pa[0], defenders=tuple(pb[1:])),
        closed=Room(taker=pb[0], defenders=tuple(pa[1:])),
    )


def quarter(lineup_: Lineup, kinds: list[int], first_deal: int) -> QuarterPlay:
    deals = tuple(DealResult(first_deal + i, *PAIRS[kind]) for i, kind in enumerate(kinds))
    return QuarterPlay(lineup_, deals)


def make_match(
    team_a: TeamRoster,
    team_b: TeamRoster,
    lineups: list[tuple[str, str]],
    kinds: list[list[int]],
) -> TeamMatch:
    per = len(kinds[0])
    return TeamMatch(
        team_a,
        team_b,
        tuple(quarter(lineup(q + 1, *lineups[q]), kinds[q], 1 + q * per) for q in range(4)),
    )


# Semi-final 1, T1 (seed 1) v T4 (seed 4), 2 deals a quarter; both teams substitute.
SF1 = make_match(
    T1,
    T4,
    [
        ("a1 a2 a3 a4", "d1 d2 d3 d4"),
        ("a1 a2 a3 a5", "d1 d2 d3 d5"),  # a5 for a4, d5 for d4
        ("a6 a2 a3 a5", "d5 d2 d3 d1"),  # a6 takes for a1; d5 and d1 swap seats
        ("a6 a4 a3 a5", "d5 d2 d4 d1"),  # a4 back for a2, d4 back for d3
    ],
    [[2, 3], [4, 1], [7, 10], [5, 12]],
)
SF1_QUARTER_PM = [
    8 - 1,  # 7
    6 + 0,  # 6
    -9 + 10,  # 1
    -12 + 8,  # -4
]  # match: 10 → T1
SF1_QUARTER_NET = [360 - 24, 258 + 0, -372 + 486, -720 + 336]

# Semi-final 2, T2 (seed 2) v T3 (seed 3), 3 deals a quarter; T2 (5 players) substitutes.
SF2 = make_match(
    T2,
    T3,
    [
        ("b1 b2 b3 b4", "c1 c2 c3 c4"),
        ("b5 b2 b3 b4", "c2 c1 c3 c4"),  # b5 in for b1
        ("b5 b2 b3 b1", "c2 c1 c3 c4"),  # b1 back for b4
        ("b4 b2 b3 b1", "c3 c1 c2 c4"),  # b4 back for b5
    ],
    [[11, 8, 9], [6, 3, 1], [5, 4, 12], [7, 2, 3]],
)
SF2_QUARTER_PM = [
    -10 - 8 + 0,  # -18
    17 - 1 + 0,  # 16
    -12 + 6 + 8,  # 2
    -9 + 8 - 1,  # -2
]  # match: -2 → T3

# Final, T1 (winner of the top half) v T3, 2 deals a quarter.
FINAL = make_match(
    T1,
    T3,
    [
        ("a1 a2 a3 a4", "c1 c2 c3 c4"),
        ("a5 a2 a3 a4", "c4 c2 c3 c1"),  # a5 in for a1
        ("a5 a6 a3 a4", "c4 c2 c3 c1"),  # a6 in for a2
        ("a1 a6 a3 a4", "c4 c2 c3 c1"),  # a1 back for a5
    ],
    [[6, 11], [8, 9], [2, 5], [12, 10]],
)
FINAL_QUARTER_PM = [17 - 10, -8 + 0, 8 - 12, 8 + 10]  # 7, -8, -4, 18 → 13 → T1


def test_four_team_knockout_with_substitutions() -> None:
    draw = bracket(["T1", "T2", "T3", "T4"])
    # standard seeding: 1 v 4 and 2 v 3, then the final
    assert [(m.team_a, m.team_b) for m in draw.rounds[0]] == [("T1", "T4"), ("T2", "T3")]
    assert len(draw.rounds) == 2 and draw.champion is None

    # substitutions really happen between quarters
    fielded = [{q.lineup.open.taker, *q.lineup.closed.defenders} for q in SF1.quarters]
    assert fielded[0] != fielded[1] != fielded[2] != fielded[3]

    draw, sf1 = play_match(draw, 1, 0, SF1)
    assert [q.pm_a for q in sf1.quarters] == SF1_QUARTER_PM == [7, 6, 1, -4]
    assert [q.net_a for q in sf1.quarters] == SF1_QUARTER_NET
    assert [[d.pm_a for d in q.deals] for q in sf1.quarters] == [
        [8, -1],
        [6, 0],
        [-9, 10],
        [-12, 8],
    ]
    assert (sf1.pm_a, sf1.pm_b, sf1.winner, sf1.loser, sf1.decided_by) == (
        10,
        -10,
        "T1",
        "T4",
        "pm",
    )

    draw, sf2 = play_match(draw, 1, 1, SF2)
    assert [q.pm_a for q in sf2.quarters] == SF2_QUARTER_PM == [-18, 16, 2, -2]
    assert (sf2.pm_a, sf2.winner, sf2.decided_by) == (-2, "T3", "pm")

    final = draw.match(2, 0)
    assert (final.team_a, final.team_b, final.winner) == ("T1", "T3", None)
    draw, result = play_match(draw, 2, 0, FINAL)
    assert [q.pm_a for q in result.quarters] == FINAL_QUARTER_PM == [7, -8, -4, 18]
    assert (result.pm_a, result.winner) == (13, "T1")
    assert draw.champion == "T1"


def _refusal(lineup_: Lineup, team_a: TeamRoster = T1, team_b: TeamRoster = T4) -> RuleError:
    with pytest.raises(RuleError) as caught:
        check_lineup(lineup_, team_a, team_b)
    return caught.value


def test_valid_lineup_is_accepted() -> None:
    check_lineup(lineup(1, "a6 a5 a4 a3", "d5 d4 d3 d2"), T1, T4)


def test_player_in_both_rooms_is_refused() -> None:
    error = _refusal(lineup(2, "a1 a2 a3 a1", "d1 d2 d3 d4"))
    assert error.code == "lineup_player_twice"
    assert error.message == (
        "quarter 2: a1 is seated twice (taker in the open room and defender in the closed room); "
        "a player sits once per quarter"
    )
    assert error.field == "closed.defenders[2]"


def test_team_fielding_three_is_refused() -> None:
    three = Lineup(3, open=Room("a1", ("d2", "d3", "d4")), closed=Room("d1", ("a2", "a3")))
    error = _refusal(three)
    assert error.code == "lineup_team_count"
    assert "quarter 3: team T1 fields 3 players" in error.message


def test_non_roster_player_is_refused() -> None:
    error = _refusal(lineup(1, "a1 a2 a3 a4", "d1 d2 zz d4"))
    assert error.code == "lineup_unknown_player"
    assert error.message == (
        "quarter 1: zz (defender in the open room) is not on the roster of team T4"
    )
    error = _refusal(lineup(4, "d5 a2 a3 a4", "d1 d2 d3 d4"))
    assert error.code == "lineup_wrong_team"
    assert "d5 of team T4" in error.message and "quarter 4" in error.message


def test_empty_seat_and_bad_quarter_are_refused() -> None:
    empty = Lineup(1, open=Room("", ("d2", "d3", "d4")), closed=Room("d1", ("a2", "a3", "a4")))
    error = _refusal(empty)
    assert error.code == "lineup_seat_empty"
    assert error.message == "quarter 1: the taker seat in the open room is empty"
    assert _refusal(lineup(5, "a1 a2 a3 a4", "d1 d2 d3 d4")).code == "lineup_quarter"


def test_roster_sizes_are_checked() -> None:
    small = TeamRoster("S", ("s1", "s2", "s3"))
    error = _refusal(lineup(1, "s1 s2 s3 s1", "d1 d2 d3 d4"), small, T4)
    assert (error.code, error.message) == (
        "roster_size",
        "team S has 3 players; a team has 4 to 6 players",
    )
    big = TeamRoster("B", tuple(f"x{i}" for i in range(7)))
    assert _refusal(lineup(1, "x1 x2 x3 x4", "d1 d2 d3 d4"), big, T4).code == "roster_size"
    shared = TeamRoster("S", ("d1", "s2", "s3", "s4"))
    assert _refusal(lineup(1, "d1 s2 s3 s4", "d1 d2 d3 d4"), shared, T4).code == (
        "roster_shared_player"
    )


def test_match_with_a_bad_lineup_names_the_quarter() -> None:
    quarters = list(SF1.quarters)
    quarters[2] = QuarterPlay(lineup(3, "a1 a2 a3 a4", "d1 d2 a1 d4"), quarters[2].deals)
    with pytest.raises(RuleError) as caught:
        score_match(TeamMatch(T1, T4, tuple(quarters)))
    assert caught.value.code == "lineup_player_twice"
    assert caught.value.message.startswith("quarter 3: a1 is seated twice")


def test_prise_is_refused() -> None:
    quarters = list(SF1.quarters)
    prise = _o(Contract.PRISE, 2, 45)
    quarters[0] = QuarterPlay(
        quarters[0].lineup, (DealResult(1, prise, G45_2), quarters[0].deals[1])
    )
    with pytest.raises(RuleError) as caught:
        score_match(TeamMatch(T1, T4, tuple(quarters)))
    assert caught.value.code == "prise_not_allowed"
    assert caught.value.field == "deals[1].open.contract"
    house = replace(G45_2, ruleset=traditional())
    quarters[0] = QuarterPlay(
        quarters[0].lineup, (DealResult(1, G45_2, house), quarters[0].deals[1])
    )
    with pytest.raises(RuleError) as caught:
        score_match(TeamMatch(T1, T4, tuple(quarters)))
    assert (caught.value.code, caught.value.field) == (
        "team_match_ruleset",
        "deals[1].closed.ruleset",
    )


def test_quarters_must_be_four_of_equal_length() -> None:
    with pytest.raises(RuleError) as caught:
        score_match(TeamMatch(T1, T4, SF1.quarters[:3]))
    assert caught.value.code == "team_match_quarters"
    uneven = (*SF1.quarters[:3], quarter(SF1.quarters[3].lineup, [1, 1, 1], 7))
    with pytest.raises(RuleError) as caught:
        score_match(TeamMatch(T1, T4, uneven))
    assert caught.value.code == "team_match_quarter_deals"


# ---- drawn matches


def _drawn(kinds: list[list[int]]) -> TeamMatch:
    return make_match(T1, T4, [("a1 a2 a3 a4", "d1 d2 d3 d4")] * 4, kinds)


def test_drawn_match_goes_to_the_larger_net_by_default() -> None:
    # Q1: deal 13 (+24 → +1), deal 14 (−36 → −1): PM 0, net −12; Q2..Q4 all 0.
    result = score_match(_drawn([[13, 14], [1, 1], [9, 9], [1, 9]]))
    assert (result.pm_a, result.net_a) == (0, -12)
    assert (result.winner, result.decided_by) == ("T4", "net")


def test_tie_break_order_is_configurable() -> None:
    # Q1: +8 − 1 = +7 (net 336); Q4: −8 + 1 = −7 (net −336 + 24 = −312); total PM 0, net +24.
    match = _drawn([[2, 3], [1, 1], [9, 9], [8, 13]])
    default = score_match(match)
    assert (default.pm_a, default.net_a, default.winner, default.decided_by) == (0, 24, "T1", "net")
    last = score_match(match, tie_break=TieBreak(order=(TieBreakRule.LAST_QUARTER,)))
    assert (last.winner, last.decided_by) == ("T4", "last_quarter")


def test_fully_equal_match_is_decided_by_a_seeded_coin() -> None:
    match = _drawn([[1, 9], [1, 9], [9, 1], [1, 1]])
    winners = set()
    for seed in range(20):
        first = score_match(match, tie_break=TieBreak(seed=seed))
        again = score_match(match, tie_break=TieBreak(seed=seed))
        assert first.decided_by == "coin" and first.winner == again.winner
        winners.add(first.winner)
    assert winners == {"T1", "T4"}


# ---- brackets


def _result(team_a: str, team_b: str, winner: str) -> MatchResult:
    return MatchResult(team_a, team_b, (), 0, 1 if winner == team_a else -1, winner, "pm")


def test_seeding_order() -> None:
    assert seeding_order(2) == (1, 2)
    assert seeding_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seeding_order(16)[:4] == (1, 16, 8, 9)


def test_five_teams_top_seeds_get_byes() -> None:
    draw = bracket(["S1", "S2", "S3", "S4", "S5"])
    first = draw.rounds[0]
    assert [(m.team_a, m.team_b, m.bye, m.winner) for m in first] == [
        ("S1", None, True, "S1"),
        ("S4", "S5", False, None),
        ("S2", None, True, "S2"),
        ("S3", None, True, "S3"),
    ]
    second = draw.rounds[1]
    assert [(m.team_a, m.team_b) for m in second] == [("S1", None), ("S2", "S3")]
    with pytest.raises(RuleError) as caught:
        record_result(draw, 2, 0, _result("S1", "S4", "S1"))
    assert caught.value.code == "bracket_match_not_ready"
    draw = record_result(draw, 1, 1, _result("S4", "S5", "S5"))
    assert draw.match(2, 0).team_b == "S5"
    draw = record_result(draw, 2, 0, _result("S1", "S5", "S5"))
    draw = record_result(draw, 2, 1, _result("S2", "S3", "S2"))
    assert (draw.match(3, 0).team_a, draw.match(3, 0).team_b) == ("S5", "S2")
    draw = record_result(draw, 3, 0, _result("S5", "S2", "S2"))
    assert draw.champion == "S2"


def test_six_teams_byes_and_refusals() -> None:
    draw: Bracket = bracket(["S1", "S2", "S3", "S4", "S5", "S6"])
    assert [(m.team_a, m.team_b, m.bye) for m in draw.rounds[0]] == [
        ("S1", None, True),
        ("S4", "S5", False),
        ("S2", None, True),
        ("S3", "S6", False),
    ]
    with pytest.raises(RuleError) as caught:
        record_result(draw, 1, 0, _result("S1", "S2", "S1"))
    assert caught.value.code == "bracket_already_decided"
    with pytest.raises(RuleError) as caught:
        record_result(draw, 1, 3, _result("S3", "S5", "S3"))
    assert caught.value.code == "bracket_wrong_teams"
    assert caught.value.message == "match 3 of round 1 is S3 against S6"
    with pytest.raises(RuleError) as caught:
        draw.match(4, 0)
    assert caught.value.code == "bracket_no_such_match"
    for teams, code in ((["S1"], "bracket_too_few_teams"), (["S1", "S1"], "bracket_team_twice")):
        with pytest.raises(RuleError) as caught:
            bracket(teams)
        assert caught.value.code == code

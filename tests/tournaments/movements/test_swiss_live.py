"""Live Swiss pairing (tournaments.movements.swiss): pure, no Django."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tournaments.movements import (
    LiveSwiss,
    MovementError,
    Schedule,
    generate,
    live_document,
    live_swiss,
    max_live_rounds,
    pair_next_round,
    unpair_after,
    validate,
)
from tournaments.movements.swiss import balances, draw_first_round


def state_of(doc: dict[str, Any]) -> LiveSwiss:
    state = live_swiss(doc)
    assert state is not None
    return state


def play_out(teams: int, rounds: int, seed: int) -> dict[str, Any]:
    """A live movement paired round after round from random standings (seeded)."""
    rng = random.Random(seed)
    doc = live_document(teams=teams, rounds=rounds, seed=seed)
    for _ in range(rounds - 1):
        order = list(range(1, teams + 1))
        rng.shuffle(order)
        doc = pair_next_round(doc, order)
    return doc


def test_round_one_only_is_paired_at_the_start() -> None:
    doc = live_document(teams=10, rounds=5, seed=1)
    schedule = Schedule.from_document(doc)
    assert validate(doc).ok
    assert doc["rounds"] == 1 and doc["deal_sets"] == 5
    assert schedule.round_numbers == [1] and schedule.pending_rounds == (2, 3, 4, 5)
    assert schedule.planned_rounds == 5 and schedule.live_swiss


def test_ten_teams_five_rounds_never_repeat_a_match() -> None:
    for seed in range(8):
        doc = play_out(10, 5, seed)
        state = state_of(doc)
        assert state is not None and state.paired_count == 5
        pairs = [frozenset(match) for match in state.met()]
        assert len(pairs) == 25 and len(set(pairs)) == 25
        assert validate(doc).ok and Schedule.from_document(doc).pending_rounds == ()
        # every team plays every round
        assert Counter(t for m in state.met() for t in m) == dict.fromkeys(range(1, 11), 5)


def test_the_next_round_pairs_neighbours_in_the_standings() -> None:
    doc = live_document(teams=10, rounds=5, seed=0)
    first = {frozenset(m) for m in state_of(doc).met()}
    standings = list(range(1, 11))
    if frozenset((1, 2)) in first:
        standings = [1, 3, 2, *range(4, 11)]
    doc = pair_next_round(doc, standings)
    state = state_of(doc)
    second = state.paired[1]
    assert second.standings == tuple(standings)
    top = next(m for m in second.matches if standings[0] in m)
    assert set(top) == {standings[0], standings[1]}  # 1st against 2nd (they have not met)


def test_standings_whose_neighbours_have_not_met_pair_first_with_second_and_so_on() -> None:
    doc = live_document(teams=6, rounds=3, seed=0)
    (a, b), (c, d), (e, f) = state_of(doc).met()
    standings = [a, c, e, b, d, f]  # neighbours never met in round 1
    doc = pair_next_round(doc, standings)
    pairs = {frozenset(m) for m in state_of(doc).paired[1].matches}
    assert pairs == {frozenset((a, c)), frozenset((e, b)), frozenset((d, f))}


@pytest.mark.parametrize(("teams", "rounds"), [(10, 5), (9, 5), (7, 4), (12, 6)])
def test_room_balance_stays_within_two(teams: int, rounds: int) -> None:
    for seed in range(6):
        state = state_of(play_out(teams, rounds, seed))
        assert state is not None
        assert max(abs(b) for b in balances(state.paired).values()) <= 2


def test_the_home_team_takes_at_the_first_table_of_its_match() -> None:
    doc = play_out(10, 3, 4)
    state = state_of(doc)
    team_of = {e["id"]: e["team"] for e in doc["entrants"]}
    for paired, raw in zip(state.paired, doc["schedule"], strict=True):
        for i, (home, away) in enumerate(paired.matches):
            first, second = raw["tables"][2 * i], raw["tables"][2 * i + 1]
            assert team_of[first["seats"]["N"]] == home
            assert team_of[second["seats"]["N"]] == away
            assert {team_of[first["seats"][s]] for s in "ESW"} == {away}


def test_home_alternates_when_balances_are_equal() -> None:
    doc = live_document(teams=4, rounds=2, seed=0)
    (h1, a1), (h2, a2) = state_of(doc).met()
    # standings put the two home teams of round 1 against the two away teams
    doc = pair_next_round(doc, [h1, a2, h2, a1])
    for home, away in state_of(doc).paired[1].matches:
        assert home in (a1, a2) and away in (h1, h2)


def test_odd_count_byes_go_to_the_lowest_without_one() -> None:
    doc = live_document(teams=7, rounds=4, seed=2)
    first_bye = state_of(doc).paired[0].bye
    assert first_bye is not None
    standings = [t for t in range(1, 8) if t != first_bye] + [first_bye]
    doc = pair_next_round(doc, standings)
    second = state_of(doc).paired[1]
    assert second.bye == standings[-2]  # the last one already had a bye
    schedule = Schedule.from_document(doc)
    round_two = schedule.round(2)
    assert round_two is not None
    assert set(round_two.byes) == {4 * (second.bye - 1) + j for j in (1, 2, 3, 4)}
    state = state_of(play_out(7, 4, 9))
    assert len(set(state.byes())) == 4  # nobody gets a second bye


def test_determinism_with_a_seed() -> None:
    assert play_out(10, 5, 3) == play_out(10, 5, 3)
    assert draw_first_round(10, 3) == draw_first_round(10, 3)
    draws = {draw_first_round(10, seed).matches for seed in range(5)}
    assert len(draws) > 1


def test_unpair_after_makes_the_rounds_pending_again() -> None:
    doc = play_out(10, 4, 1)
    back = unpair_after(doc, 2)
    assert validate(back).ok
    assert Schedule.from_document(back).pending_rounds == (3, 4)
    assert state_of(back).paired == state_of(doc).paired[:2]
    assert back["schedule"] == doc["schedule"][:2]


def test_refusals() -> None:
    with pytest.raises(MovementError, match=r"1\.\.5 rounds"):
        live_document(teams=10, rounds=6)
    with pytest.raises(MovementError, match="quadrette"):
        generate("triplette", 8, rounds=3, swiss="live")
    with pytest.raises(MovementError, match="round robin"):
        generate("quadrette", 4, rounds=3, swiss="live")
    doc = play_out(6, 3, 0)
    with pytest.raises(MovementError, match="all 3 rounds"):
        pair_next_round(doc, [1, 2, 3, 4, 5, 6])
    with pytest.raises(MovementError, match="once each"):
        pair_next_round(live_document(teams=6, rounds=3), [1, 2, 3])
    assert max_live_rounds(10) == 5 and max_live_rounds(9) == 5


def test_live_rounds_up_to_the_guarantee_always_pair() -> None:
    # adversarial standings: the same order every round (the most rematch-prone)
    for teams in range(3, 13):
        rounds = max_live_rounds(teams)
        doc = live_document(teams=teams, rounds=rounds, seed=teams)
        for _ in range(rounds - 1):
            doc = pair_next_round(doc, list(range(1, teams + 1)))
        pairs = [frozenset(m) for m in state_of(doc).met()]
        assert len(pairs) == len(set(pairs)) == rounds * (teams // 2)

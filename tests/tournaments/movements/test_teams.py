"""Triplette pools and quadrette matches: valid, crossed, teammates never face each other."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tournaments.movements import (
    MovementError,
    Pairing,
    circle_pairings,
    generate_quadrette,
    generate_triplette,
    pair_swiss_round,
    quadrette_document,
    validate,
)

from .helpers import played_tables


def team_of(doc: dict[str, Any]) -> dict[int, int]:
    return {e["id"]: e["team"] for e in doc["entrants"]}


def assert_teammates_never_face(doc: dict[str, Any]) -> None:
    team = team_of(doc)
    taker_seat = doc["taker_seat"]
    for _round, table in played_tables(doc):
        taker = team[table["seats"][taker_seat]]
        defenders = {team[e] for s, e in table["seats"].items() if s != taker_seat}
        assert len(defenders) == 1 and taker not in defenders


@pytest.mark.parametrize("teams", [8, 12, 16])
def test_triplette_pools(teams: int) -> None:
    doc = generate_triplette(teams=teams)
    assert validate(doc).ok
    assert doc["kind"] == "pools" and doc["rounds"] == 4 and doc["tables"] == 3 * teams // 4
    assert_teammates_never_face(doc)
    team = team_of(doc)
    takes: Counter[int] = Counter()
    defends_against: dict[int, set[int]] = {t: set() for t in team.values()}
    for rnd in doc["schedule"]:
        # All tables play the same deal set each round (the whole field compares).
        assert {t["deal_set"] for t in rnd["tables"]} == {rnd["round"]}
        takers_this_round = {team[t["seats"]["N"]] for t in rnd["tables"]}
        for t in rnd["tables"]:
            defending = team[t["seats"]["E"]]
            defends_against[defending].add(team[t["seats"]["N"]])
        takes.update(takers_this_round)
    assert set(takes.values()) == {1}  # every team supplies the takers once
    for t, opponents in defends_against.items():
        assert len(opponents) == 3 and t not in opponents  # once against each pool rival
    assert max(validate(doc).metrics["meeting_histogram"], key=int) == "2"


@pytest.mark.parametrize("teams", [3, 5, 7, 10])
def test_triplette_phantom_teams_fill_the_pools(teams: int) -> None:
    doc = generate_triplette(teams=teams)
    assert validate(doc).ok
    assert sum(e["phantom"] for e in doc["entrants"]) == 3 * (-teams % 4)


@pytest.mark.parametrize("teams", [4, 6, 8, 13])
def test_quadrette_round_robin(teams: int) -> None:
    doc = generate_quadrette(teams=teams)
    assert validate(doc).ok
    assert doc["kind"] == "matches"
    assert doc["rounds"] == (teams - 1 if teams % 2 == 0 else teams)
    assert_teammates_never_face(doc)
    team = team_of(doc)
    met: Counter[frozenset[int]] = Counter()
    for rnd in doc["schedule"]:
        tables = rnd["tables"]
        for first, second in zip(tables[::2], tables[1::2], strict=True):
            a, b = team[first["seats"]["N"]], team[second["seats"]["N"]]
            # Crossed: A takes against B at one table, B against A at the other, same deals.
            assert team[first["seats"]["E"]] == b and team[second["seats"]["E"]] == a
            assert first["deal_set"] == second["deal_set"]
            met[frozenset((a, b))] += 1
        if teams % 2:
            assert len(rnd["byes"]) == 4 and len({team[e] for e in rnd["byes"]}) == 1
    assert len(met) == teams * (teams - 1) // 2 and set(met.values()) == {1}


def test_quadrette_swiss_pre_pairs_without_rematch() -> None:
    doc = generate_quadrette(teams=13, rounds=5, seed=2)
    assert validate(doc).ok and doc["generator"]["name"] == "quadrette-swiss"
    assert doc["rounds"] == 5
    with pytest.raises(MovementError):
        generate_quadrette(teams=6, rounds=6)
    with pytest.raises(MovementError):
        generate_quadrette(teams=1)


def test_circle_method_meets_everyone_once() -> None:
    rounds = circle_pairings(7)
    pairs = [frozenset(m) for p in rounds for m in p.matches]
    assert len(rounds) == 7 and len(set(pairs)) == len(pairs) == 21
    assert sorted(p.bye for p in rounds if p.bye is not None) == list(range(1, 8))


def test_swiss_pairs_by_standing_and_avoids_rematches() -> None:
    standings = [4, 2, 7, 1, 3, 6, 5, 8]
    first = pair_swiss_round(standings, [])
    assert first.matches == [(4, 2), (7, 1), (3, 6), (5, 8)] and first.bye is None
    second = pair_swiss_round(standings, first.matches)
    assert not {frozenset(m) for m in second.matches} & {frozenset(m) for m in first.matches}
    assert sorted(t for m in second.matches for t in m) == sorted(standings)


def test_swiss_bye_goes_to_the_lowest_without_a_bye() -> None:
    assert pair_swiss_round([1, 2, 3, 4, 5], []).bye == 5
    assert pair_swiss_round([1, 2, 3, 4, 5], [], previous_byes=[5]).bye == 4


def test_swiss_without_possible_pairing_raises() -> None:
    with pytest.raises(MovementError):
        pair_swiss_round([1, 2], [(1, 2)])
    with pytest.raises(MovementError):
        pair_swiss_round([1, 1], [])


def test_quadrette_document_from_swiss_rounds() -> None:
    standings = [1, 2, 3, 4, 5, 6]
    first = pair_swiss_round(standings, [])
    second = pair_swiss_round([2, 1, 4, 3, 6, 5], first.matches)
    doc = quadrette_document(6, [first, second], method="swiss")
    assert validate(doc).ok and doc["rounds"] == 2
    with pytest.raises(MovementError):
        quadrette_document(6, [Pairing([(1, 2)])])

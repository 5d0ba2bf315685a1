"""Individual movements: the 3..40 table sweep, Howell, affine plane, phantoms, propose."""

from __future__ import annotations

import time
from math import gcd

import pytest

from tournaments.movements import MovementError, generate_individual, propose, validate

from .helpers import assert_fair_byes, meetings, phantoms, sit_outs

SLOWEST_ALLOWED = 5.0


def test_every_table_count_from_3_to_40_gives_a_valid_movement() -> None:
    slowest = 0.0
    for tables in range(3, 41):
        start = time.perf_counter()
        doc = generate_individual(tables=tables)
        slowest = max(slowest, time.perf_counter() - start)
        report = validate(doc)
        assert report.ok, (tables, report.errors[:3])
        rounds = doc["rounds"]
        if gcd(tables, 6) == 1 and tables >= 5:
            assert rounds == tables
        elif tables == 6:
            assert rounds >= 5
        elif tables >= 7:
            assert rounds >= 6
        elif tables == 3:
            assert rounds >= 5
        else:
            assert rounds == 5
    assert slowest < SLOWEST_ALLOWED


@pytest.mark.parametrize("tables", [8, 9, 16, 27, 32])
def test_prime_powers_use_the_galois_field_for_a_complete_movement(tables: int) -> None:
    doc = generate_individual(tables=tables)
    assert doc["generator"]["name"] == "line-galois"
    assert doc["rounds"] == tables
    assert set(meetings(doc).values()) == {1}


def test_cyclic_line_movement_follows_the_classic_rotation() -> None:
    tables = 7
    doc = generate_individual(tables=tables)
    step = {"N": 0, "S": 1, "E": 2, "W": 3}  # tables moved per round; deal sets move -1
    first_id = {"N": 1, "E": 8, "S": 15, "W": 22}
    for rnd in doc["schedule"]:
        r = rnd["round"] - 1
        for table in rnd["tables"]:
            t = table["table"] - 1
            for seat, eid in table["seats"].items():
                assert (eid - first_id[seat] + step[seat] * r) % tables == t
            assert (table["deal_set"] - 1 - r) % tables == t


def test_complete_cyclic_movement_meets_every_other_line_player_once() -> None:
    doc = generate_individual(tables=11)
    met = meetings(doc)
    assert len(met) == 6 * 11 * 11 and set(met.values()) == {1}


def test_six_tables_reach_five_rounds_without_any_repeat() -> None:
    for seed in range(5):
        doc = generate_individual(tables=6, seed=seed)
        assert doc["rounds"] == 5
        assert validate(doc).ok
        assert max(meetings(doc).values()) == 1


def test_three_table_howell_meets_no_pair_more_than_twice() -> None:
    doc = generate_individual(tables=3)
    assert doc["kind"] == "howell" and doc["rounds"] >= 5
    assert max(meetings(doc).values()) <= 2
    assert validate(doc).metrics["max_meetings"] == 2


def test_four_tables_form_the_affine_plane() -> None:
    doc = generate_individual(tables=4)
    assert doc["rounds"] == 5 and doc["copies"] == 4
    met = meetings(doc)
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}
    for rnd in doc["schedule"]:
        assert {t["deal_set"] for t in rnd["tables"]} == {rnd["round"]}


@pytest.mark.parametrize("players", [29, 30, 31])
def test_29_to_31_players_sit_out_fairly_on_8_tables(players: int) -> None:
    doc = generate_individual(tables=8, players=players)
    assert validate(doc).ok
    assert phantoms(doc) == set(range(players + 1, 33))  # players bind to slots 1..P
    assert doc["rounds"] >= 6
    for rnd in doc["schedule"]:
        holders = [t for t in rnd["tables"] if phantoms(doc) & set(t["seats"].values())]
        assert len(holders) == 1  # phantoms grouped at one table
    assert_fair_byes(doc)
    assert sum(len(r) for r in sit_outs(doc).values()) == doc["rounds"] * (4 - (32 - players))


@pytest.mark.parametrize(
    ("tables", "players"), [(3, 9), (3, 10), (3, 11), (4, 13), (5, 18), (6, 23), (7, 25)]
)
def test_small_fields_with_phantoms(tables: int, players: int) -> None:
    doc = generate_individual(tables=tables, players=players)
    assert validate(doc).ok
    assert_fair_byes(doc)


def test_same_seed_same_movement_and_seeds_vary_searches() -> None:
    assert generate_individual(tables=10, seed=3) == generate_individual(tables=10, seed=3)
    assert generate_individual(tables=10, seed=3) != generate_individual(tables=10, seed=4)


def test_rounds_can_be_asked_for_and_limited() -> None:
    assert generate_individual(tables=7, rounds=4)["rounds"] == 4
    assert generate_individual(tables=12, rounds=6)["rounds"] == 6
    with pytest.raises(MovementError):
        generate_individual(tables=7, rounds=8)
    with pytest.raises(MovementError):
        generate_individual(tables=7, rounds=1)


@pytest.mark.parametrize(("tables", "players"), [(2, 8), (7, 24), (7, 29)])
def test_impossible_parameters_raise(tables: int, players: int) -> None:
    with pytest.raises(MovementError):
        generate_individual(tables=tables, players=players)


@pytest.mark.parametrize(
    ("players", "tables", "phantom_count", "kind"),
    [(29, 8, 3, "line"), (12, 3, 0, "howell"), (16, 4, 0, "howell"), (28, 7, 0, "line")],
)
def test_propose_individual(players: int, tables: int, phantom_count: int, kind: str) -> None:
    proposal = propose("individual", players)
    assert (proposal["tables"], proposal["phantoms"], proposal["kind"]) == (
        tables,
        phantom_count,
        kind,
    )
    assert validate(proposal["document"]).ok


def test_propose_teams_and_bad_formats() -> None:
    assert propose("triplette", 16)["tables"] == 12
    assert propose("quadrette", 8)["rounds"] == 7
    with pytest.raises(MovementError):
        propose("pairs", 8)
    with pytest.raises(MovementError):
        propose("individual", 7)

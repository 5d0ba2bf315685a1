"""Hypothesis: any valid parameters give a movement that passes the validator, and any
single hand-made corruption of a movement is refused with the right check."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.movements import (
    generate_individual,
    generate_quadrette,
    generate_triplette,
    validate,
)

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(tables=st.integers(3, 24), missing=st.integers(0, 3), seed=st.integers(0, 10_000))
def test_random_individual_parameters_give_valid_movements(
    tables: int, missing: int, seed: int
) -> None:
    doc = generate_individual(tables=tables, players=4 * tables - missing, seed=seed)
    assert validate(doc).ok
    assert doc["rounds"] >= (3 if missing else 5)


@FAST
@given(tables=st.integers(5, 30), data=st.data())
def test_random_round_counts_give_valid_movements(tables: int, data: st.DataObject) -> None:
    full = generate_individual(tables=tables)
    rounds = data.draw(st.integers(2, full["rounds"]))
    doc = generate_individual(tables=tables, rounds=rounds)
    assert doc["rounds"] == rounds and validate(doc).ok


@FAST
@given(teams=st.integers(3, 24), seed=st.integers(0, 100))
def test_random_triplettes(teams: int, seed: int) -> None:
    assert validate(generate_triplette(teams=teams, seed=seed)).ok


@FAST
@given(teams=st.integers(2, 20), data=st.data())
def test_random_quadrettes(teams: int, data: st.DataObject) -> None:
    full = teams - 1 if teams % 2 == 0 else teams
    rounds = data.draw(st.none() | st.integers(1, full))
    seed = data.draw(st.integers(0, 100))
    assert validate(generate_quadrette(teams=teams, rounds=rounds, seed=seed)).ok


BASES = {t: generate_individual(tables=t) for t in (5, 7, 8, 11)}


@FAST
@given(
    tables=st.sampled_from(sorted(BASES)),
    kind=st.sampled_from(["replay", "double_booking", "meeting", "missing", "line"]),
    pick=st.randoms(),
)
def test_corruptions_are_refused_with_the_right_check(
    tables: int, kind: str, pick: random.Random
) -> None:
    doc = copy.deepcopy(BASES[tables])
    schedule = doc["schedule"]
    r = pick.randrange(1, len(schedule))
    expected: int
    if kind == "replay":
        # Round r table t gets the deal set its N player (who stays) played in round 1.
        t = pick.randrange(tables)
        old = schedule[0]["tables"][t]["deal_set"]
        row = schedule[r]["tables"]
        holder = next(x for x in row if x["deal_set"] == old)
        holder["deal_set"], row[t]["deal_set"] = row[t]["deal_set"], old
        expected = 4
    elif kind == "double_booking":
        seats = schedule[r]["tables"][pick.randrange(tables)]["seats"]
        schedule[r]["byes"].append(seats[pick.choice("NESW")])
        expected = 2
    elif kind == "meeting":
        # Copy one table of round 1 into round r (swapping the displaced players back).
        t = pick.randrange(tables)
        model = schedule[0]["tables"][t]["seats"]
        row = schedule[r]["tables"]
        for seat, eid in model.items():
            holder = next(x for x in row if x["seats"][seat] == eid)
            holder["seats"][seat], row[t]["seats"][seat] = row[t]["seats"][seat], eid
        expected = 6
    elif kind == "missing":
        doc["entrants"].append(
            {"id": len(doc["entrants"]) + 1, "line": "N", "team": None, "phantom": False}
        )
        expected = 2
    else:
        seats = schedule[r]["tables"][pick.randrange(tables)]["seats"]
        a, b = pick.sample("NESW", 2)
        seats[a], seats[b] = seats[b], seats[a]
        expected = 5
    report = validate(doc)
    assert not report.ok
    assert expected in report.checks_failed()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=3),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@FAST
@given(value=JSON, path=st.lists(st.integers(0, 50), min_size=1, max_size=5))
def test_validator_never_raises_on_mangled_documents(value: object, path: list[int]) -> None:
    doc = copy.deepcopy(BASES[5])
    # Walk a random path into the document and replace what is there with random JSON.
    node: object = doc
    for step in path[:-1]:
        if isinstance(node, dict) and node:
            node = node[sorted(node)[step % len(node)]]
        elif isinstance(node, list) and node:
            node = node[step % len(node)]
    if isinstance(node, dict) and node:
        node[sorted(node)[path[-1] % len(node)]] = value
    elif isinstance(node, list) and node:
        node[path[-1] % len(node)] = value
    report = validate(doc)
    assert isinstance(report.ok, bool)
    report.format_text()


@FAST
@given(value=JSON)
def test_validator_never_raises_on_random_json(value: object) -> None:
    assert not validate(value).ok

"""Small helpers to inspect movement documents in tests."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise
from typing import Any


def phantoms(doc: dict[str, Any]) -> set[int]:
    return {e["id"] for e in doc["entrants"] if e["phantom"]}


def played_tables(doc: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    ghost = phantoms(doc)
    return [
        (rnd["round"], table)
        for rnd in doc["schedule"]
        for table in rnd["tables"]
        if not ghost & set(table["seats"].values())
    ]


def meetings(doc: dict[str, Any]) -> Counter[tuple[int, int]]:
    team = {e["id"]: e["team"] for e in doc["entrants"]}
    count: Counter[tuple[int, int]] = Counter()
    for _round, table in played_tables(doc):
        for a, b in combinations(sorted(table["seats"].values()), 2):
            if team[a] is None or team[a] != team[b]:
                count[(a, b)] += 1
    return count


def sit_outs(doc: dict[str, Any]) -> dict[int, list[int]]:
    """Real entrant → rounds sat out (listed in byes or seated at a sit-out table)."""
    ghost = phantoms(doc)
    out: dict[int, list[int]] = {e["id"]: [] for e in doc["entrants"] if not e["phantom"]}
    for rnd in doc["schedule"]:
        for eid in rnd["byes"]:
            out[eid].append(rnd["round"])
        for table in rnd["tables"]:
            seated = set(table["seats"].values())
            if ghost & seated:
                for eid in seated - ghost:
                    out[eid].append(rnd["round"])
    return out


def assert_fair_byes(doc: dict[str, Any]) -> None:
    """No one sits out twice before everyone has once; never twice in a row."""
    rounds_out = sit_outs(doc)
    running: Counter[int] = Counter()
    for rnd in doc["schedule"]:
        for eid, rounds in rounds_out.items():
            if rnd["round"] in rounds:
                running[eid] += 1
        values = [running[eid] for eid in rounds_out]
        assert max(values) - min(values) <= 1, f"unfair byes after round {rnd['round']}"
    for eid, rounds in rounds_out.items():
        assert all(b - a > 1 for a, b in pairwise(rounds)), eid

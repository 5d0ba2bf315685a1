"""``manage.py bench_scoring`` at a tiny size: the shape of its output (no timing assertion)
and the synthetic tournament it times. No database is touched."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from bench.synthetic import synthetic_tournament
from scoring.core import compute_standings


def bench(*options: str) -> str:
    out = io.StringIO()
    call_command("bench_scoring", *options, stdout=out)
    return out.getvalue()


def test_json_figures_for_each_size() -> None:
    data = json.loads(bench("--sizes", "3,6", "--deals", "4", "--runs", "2", "--json"))
    assert data["method"] == "vectorised"
    assert [row["tables"] for row in data["results"]] == [3, 6]
    small = data["results"][0]
    assert (small["players"], small["table_results"], small["seat_marks"]) == (12, 12, 48)
    assert small["runs"] == 2
    assert 0 < small["min_seconds"] <= small["median_seconds"] <= small["max_seconds"]
    assert small["ns_per_seat_mark"] > 0 and small["median_cpu_seconds"] >= 0


def test_text_table() -> None:
    lines = bench("--tables", "5", "--deals", "3", "--runs", "1").splitlines()
    assert lines[0].startswith("scoring core (vectorised): median of 1 runs")
    assert lines[1].split() == [
        "tables",
        "deals",
        "players",
        "table",
        "results",
        "seat",
        "marks",
        "median",
        "s",
        "min",
        "s",
        "max",
        "s",
        "ns/mark",
        "cpu",
        "s",
    ]
    assert lines[2].split()[:5] == ["5", "3", "20", "15", "60"]


@pytest.mark.parametrize("options", [["--sizes", "10,x"], ["--tables", "0"], ["--runs", "0"]])
def test_bad_options_exit_2(options: list[str]) -> None:
    with pytest.raises(CommandError) as caught:
        bench(*options)
    assert caught.value.returncode == 2


def test_synthetic_tournament_shape() -> None:
    tournament = synthetic_tournament(tables=7, deals=6, seed=3)
    seats = tournament.seats
    assert len(seats) == 7 * 6 * 4
    # every player plays every deal exactly once; marks sum to zero at each table
    per_player = np.bincount(seats.entrant, minlength=28)
    assert per_player.tolist() == [6] * 28
    table_sums = np.bincount((seats.deal - 1) * 7 + (seats.table - 1), weights=seats.mark)
    assert not table_sums.any()
    standings = compute_standings(tournament)
    assert len(standings.individual) == 28
    # the same seed gives the same field
    again = synthetic_tournament(tables=7, deals=6, seed=3)
    assert (again.seats.mark == seats.mark).all()

"""``python manage.py bench_scoring [--tables 2500] [--deals 24] [--sizes 250,2500,10000]
[--runs 5] [--json]``: time the comparison core on synthetic national simultaneous events.

For each size it builds, in memory and seeded, a tournament where every table plays every deal
(``bench.synthetic``: 4 players per table, realistic mark distribution), runs the full
core computation once to warm up, then ``--runs`` times, and reports the median (and min/max)
wall time of :func:`scoring.core.compute_standings`: every hand's matchpoints and percentages,
every player's event percentage and the ranking — and the median CPU time of the process,
which other jobs on a shared machine do not inflate. No database is used.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from bench.synthetic import synthetic_tournament
from scoring.core import compute_standings
from tournaments.management.base import OneLineErrorCommand


def _sizes(raw: str) -> list[int]:
    sizes = []
    for part in raw.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            raise CommandError(
                f"--sizes: {part!r} is not a positive number of tables", returncode=2
            )
        sizes.append(int(part))
    return sizes


def measure(tables: int, deals: int, runs: int, seed: int, method: str) -> dict[str, Any]:
    """Median, min and max seconds of ``compute_standings`` on a synthetic event."""
    tournament = synthetic_tournament(tables=tables, deals=deals, seed=seed)
    standings = compute_standings(tournament, method=method)  # type: ignore[arg-type]
    timings, cpu_timings = [], []
    for _ in range(runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        compute_standings(tournament, method=method)  # type: ignore[arg-type]
        timings.append(time.perf_counter() - started)
        cpu_timings.append(time.process_time() - cpu_started)
    seat_marks = len(tournament.seats)
    median = statistics.median(timings)
    return {
        "tables": tables,
        "deals": deals,
        "players": len(standings.individual),
        "table_results": tables * deals,
        "seat_marks": seat_marks,
        "runs": runs,
        "median_seconds": round(median, 4),
        "min_seconds": round(min(timings), 4),
        "max_seconds": round(max(timings), 4),
        # CPU time of this process: what the machine's other load does not inflate
        "median_cpu_seconds": round(statistics.median(cpu_timings), 4),
        "ns_per_seat_mark": round(median / seat_marks * 1e9, 1),
    }


class Command(OneLineErrorCommand):
    help = "Benchmark the scoring core on synthetic simultaneous events (no database)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=2500, help="tables (default 2500)")
        parser.add_argument("--deals", type=int, default=24, help="deals per table (default 24)")
        parser.add_argument("--sizes", help="comma-separated table counts, e.g. 250,2500,10000")
        parser.add_argument("--runs", type=int, default=5, help="timed runs per size (default 5)")
        parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        parser.add_argument("--method", choices=["vectorised", "reference"], default="vectorised")
        parser.add_argument("--json", action="store_true", help="print machine-readable figures")

    def handle(self, *args: Any, **options: Any) -> None:
        sizes = _sizes(options["sizes"]) if options["sizes"] else [options["tables"]]
        deals, runs = options["deals"], options["runs"]
        if sizes[0] < 1 or deals < 1 or runs < 1:
            raise CommandError("--tables, --deals and --runs must be at least 1", returncode=2)
        method = options["method"]
        results = [measure(tables, deals, runs, options["seed"], method) for tables in sizes]
        if options["json"]:
            payload = {"method": method, "seed": options["seed"], "results": results}
            self.stdout.write(json.dumps(payload, indent=2))
            return
        self.stdout.write(
            f"scoring core ({method}): median of {runs} runs after a warm-up, seed "
            f"{options['seed']}"
        )
        header = (
            f"{'tables':>7} {'deals':>5} {'players':>8} {'table results':>13} "
            f"{'seat marks':>10} {'median s':>9} {'min s':>7} {'max s':>7} "
            f"{'ns/mark':>8} {'cpu s':>7}"
        )
        self.stdout.write(header)
        for row in results:
            self.stdout.write(
                f"{row['tables']:>7} {row['deals']:>5} {row['players']:>8} "
                f"{row['table_results']:>13} {row['seat_marks']:>10} "
                f"{row['median_seconds']:>9.3f} {row['min_seconds']:>7.3f} "
                f"{row['max_seconds']:>7.3f} {row['ns_per_seat_mark']:>8.0f} "
                f"{row['median_cpu_seconds']:>7.3f}"
            )

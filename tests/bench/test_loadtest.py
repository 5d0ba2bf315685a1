"""``manage.py loadtest``: bad arguments end in exit 2 and one line; a tiny real run (integration).

The default run checks the arguments, the clients' outcomes and the report's arithmetic without
any service. The integration test runs the command for real on 3 tables (the smallest
individual movement): it starts gunicorn and a Celery worker on a database and a Redis database
of its own, next to the ones named by ``DATABASE_URL`` / ``REDIS_URL``, and checks the JSON
report's shape and that every stored row was acknowledged. Timings are measured, not asserted.

Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/dt REDIS_URL=redis://127.0.0.1:6379/5
uv run pytest tests/bench/test_loadtest.py -q`` (the integration test is skipped without them).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.core.management import CommandError, ManagementUtility, call_command
from psycopg.conninfo import make_conninfo

from bench.loadtest import (
    Attempt,
    format_report,
    percentile,
    random_outcome,
    summarise_attempts,
    with_query,
)
from rules.scoring import outcome_from_dict, score_deal, validate_outcome

ROOT = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")


def run_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = 0
    try:
        ManagementUtility(["manage.py", "loadtest", *argv]).execute()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--tables", "2"], "--tables"),
        (["--tables", "50,x"], "--tables"),
        (["--think-ms", "300"], "--think-ms"),
        (["--think-ms", "900,300"], "--think-ms"),
        (["--start-ms", "30000"], "--start-ms"),
        (["--round", "7"], "--round"),
        (["--web-workers", "0"], "--web-workers"),
        (["--base-url", "http://192.0.2.1:8000"], "--base-url"),
        (["--database-url", "postgres://postgres@127.0.0.1:5432/duplitarot"], "--database-url"),
        (["--database-url", "postgres://postgres@10.1.1.1:5432/duplitarot_load"], "loopback"),
        (["--redis-url", "redis://127.0.0.1:6379/0"], "--redis-url"),
        (["--web-workers", "two"], "--web-workers"),
        (["--bogus"], "--bogus"),
        (["--serve-threads", "4"], "--serve-threads"),
        (["--serve", "--serve-threads", "0"], "--serve-threads"),
        (["--serve-processes", "2"], "--serve-processes"),
        (["--serve", "--serve-processes", "5"], "--serve-processes"),
        (["--serve", "--base-url", "http://127.0.0.1:8000"], "--serve"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], names: str, capsys: pytest.CaptureFixture[str]
) -> None:
    returncode, out, err = run_in_process(argv, capsys)
    assert returncode == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "[invalid_arguments]" in lines[0] and names in lines[0]
    assert "Traceback" not in err


def test_bad_arguments_through_call_command() -> None:
    with pytest.raises(CommandError) as error:
        call_command("loadtest", "--tables", "0")
    assert error.value.returncode == 2


def test_random_outcomes_are_legal() -> None:
    rng = random.Random(3)
    for _ in range(500):
        outcome = outcome_from_dict({**random_outcome(rng), "players": 4})
        validate_outcome(outcome)
        score_deal(outcome)


def test_percentiles_and_summary() -> None:
    assert percentile([], 0.5) is None
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile(values, 1.0)) == (
        50.0,
        95.0,
        100.0,
    )
    attempts = [
        Attempt(table=1, deal=1, started=0.0, ended=0.1, status=201, code=""),
        Attempt(table=1, deal=2, started=1.0, ended=1.3, status=409, code="already_entered"),
        Attempt(table=2, deal=5, started=0.5, ended=2.0, status=None, code="timeout"),
        Attempt(table=2, deal=6, started=0.2, ended=0.4, status=201, code=""),
    ]
    summary = summarise_attempts(attempts)
    assert summary["requests"] == 4 and summary["acknowledged"] == 2
    assert summary["answered"] == 3  # the timeout has no latency
    assert summary["latency_ms"]["max"] == 300.0
    assert summary["entry_seconds"] == 2.0 and summary["saves_per_second"] == 1.0
    assert summary["errors"] == [
        {"status": None, "code": "timeout", "count": 1},
        {"status": 409, "code": "already_entered", "count": 1},
    ]


def test_with_query_keeps_the_url() -> None:
    assert (
        with_query("postgres://u@127.0.0.1:5432/db?sslmode=disable", application_name="x")
        == "postgres://u@127.0.0.1:5432/db?sslmode=disable&application_name=x"
    )


def test_readable_report_names_every_problem() -> None:
    size = {
        "tables": 50,
        "requests": 10,
        "acknowledged": 7,
        "entry_seconds": 12.0,
        "saves_per_second": 0.6,
        "latency_ms": {"p50": 80.0, "p95": 2500.0, "p99": 2600.0, "max": 2700.0},
        "errors": [{"status": None, "code": "timeout", "count": 3}],
        "not_sent": 2,
        "stored": 9,
        "stored_matches_acknowledged": False,
        "settled": False,
        "recompute_queue_max": 40,
        "recompute_tasks_run": 12,
        "ranking_delay_ms": None,
        "ranking_timeout": True,
        "snapshot_version": 8,
        "results_version": 10,
        "cpu_seconds": {"web": 1.0, "worker": 2.0, "loadtest": 0.1, "machine": 4.0, "other": 0.9},
    }
    report = {
        "base_url": "http://127.0.0.1:8000",
        "options": {
            "round": 6, "rounds": 6, "deals_per_round": 4, "think_ms": [300, 1500],
            "request_timeout_s": 30.0, "web_workers": 2, "web_threads": 4, "celery_workers": 1,
        },
        "sizes": [size, {"tables": 200, "skipped": "budget"}],
        "cpus": 2,
        "total_seconds": 99.0,
    }  # fmt: skip
    text = format_report(report)
    assert "3 × no answer timeout" in text
    assert "9 rows stored but 7 acknowledged" in text
    assert "snapshot at version 8 of 10" in text
    assert "200 skipped" in text


def _sibling(url: str, path: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=path, query=""))


@pytest.mark.integration
@pytest.mark.xdist_group("services")  # one at a time with the others that start services
@pytest.mark.skipif(
    not DATABASE_URL.startswith(("postgres://", "postgresql://")) or not REDIS_URL,
    reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: the real services",
)
def test_tiny_run_reports_every_figure_and_stores_what_it_acknowledges() -> None:
    redis_db = int(urlsplit(REDIS_URL).path.strip("/") or 0)
    # Redis database and PostgreSQL database of this run's own (both are wiped): next to the
    # run's, never another run's on the same machine (a CI on db 7 takes 11).
    own_db = (redis_db + 4) % 16 or 5
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    load_database = f"duplitarot_load_test_{uuid.uuid4().hex[:8]}"
    database_url = _sibling(DATABASE_URL, f"/{load_database}")
    try:
        completed = subprocess.run(
            [sys.executable, "manage.py", "loadtest", "--tables", "3", "--think-ms", "0,50",
             "--start-ms", "200",
             "--json", "--database-url", database_url,
             "--redis-url", _sibling(REDIS_URL, f"/{own_db}")],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        with psycopg.connect(make_conninfo(database_url, dbname="postgres"), autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {load_database} WITH (FORCE)")
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout)
    assert report["schema"] == "duplitarot-loadtest/1"
    assert report["options"]["sizes"] == [3]
    (size,) = report["sizes"]
    assert size["tables"] == 3 and size["round"] == 6
    assert size["results_before"] == 3 * 5 * 4  # rounds 1-5 in, 4 deals a round
    assert size["clients"] == 3 and size["planned_requests"] == 12
    assert size["requests"] == size["acknowledged"] == 12
    assert size["errors"] == [] and size["not_sent"] == 0
    assert size["stored"] == size["acknowledged"] and size["stored_matches_acknowledged"]
    assert size["settled"]
    assert set(size["latency_ms"]) == {"p50", "p95", "p99", "max"}
    assert all(isinstance(v, float) for v in size["latency_ms"].values())
    assert size["saves_per_second"] > 0
    assert isinstance(size["recompute_queue_max"], int)
    assert size["recompute_tasks_run"] >= 1  # the worker scored the round
    assert not size["ranking_timeout"] and size["ranking_delay_ms"] is not None
    assert size["snapshot_version"] >= size["results_version"]
    # The services were stopped: nothing of the run is left listening.
    assert "stopping gunicorn and the Celery worker" in completed.stderr


@pytest.mark.integration
@pytest.mark.xdist_group("services")  # one at a time with the others that start services
def test_serve_run_reports_every_figure_and_stores_what_it_acknowledges() -> None:
    """``--serve``: the README's serve command on a data folder of the run's own (SQLite, no
    PostgreSQL, no Redis), measured on 3 tables; counts only, no timing."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key != "DJANGO_SETTINGS_MODULE" and not key.startswith("DUPLITAROT_")
    }
    # The caller's services must not leak into the instance (it has no broker, no PostgreSQL).
    env["DATABASE_URL"] = "postgres://postgres@127.0.0.1:1/not_for_serve"
    env["REDIS_URL"] = env["CELERY_BROKER_URL"] = "redis://127.0.0.1:1/3"
    completed = subprocess.run(
        [sys.executable, "manage.py", "loadtest", "--serve", "--serve-processes", "2",
         "--tables", "3", "--think-ms", "0,50", "--start-ms", "200", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout)
    assert report["options"]["server"] == "serve" and report["options"]["redis_url"] is None
    # Two serving processes: the saves reach both, the first one's runner scores them all.
    assert report["options"]["serve_processes"] == 2
    (size,) = report["sizes"]
    assert size["tables"] == 3 and size["results_before"] == 3 * 5 * 4
    assert size["clients"] == 3 and size["planned_requests"] == 12
    assert size["requests"] == size["acknowledged"] == 12
    assert size["errors"] == [] and size["not_sent"] == 0
    assert size["stored"] == size["acknowledged"] and size["stored_matches_acknowledged"]
    assert size["settled"]
    assert set(size["latency_ms"]) == {"p50", "p95", "p99", "max"}
    assert all(isinstance(v, float) for v in size["latency_ms"].values())
    assert size["saves_per_second"] > 0
    assert size["recompute_queue_max"] is None  # no broker to watch
    assert size["snapshots_seen"] >= 1  # the runner thread scored the round
    assert not size["ranking_timeout"] and size["ranking_delay_ms"] is not None
    assert size["snapshot_version"] >= size["results_version"]
    assert size["cpu_seconds"] is not None and "serve" in size["cpu_seconds"]
    assert "starting serve" in completed.stderr and "stopping serve" in completed.stderr
    # The run's data folder is removed.
    folder = completed.stderr.split("SQLite in ", 1)[1].split(")", 1)[0]
    assert not Path(folder).exists()

"""The fast loop (``./dev test``): the tests that start browsers, servers or load are marked
``slow`` (``tests/conftest.py``), and only those; the loop keeps at least 90 % of the tests,
the continuity test, the import contracts and the authorisation matrix among them.

One collection of the whole suite in a subprocess, with the marker expression ``./dev test``
uses, reports every test's markers and fixtures (``tests/collect_report.py``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.collect_report import REPORT_VARIABLE

# One collection of the suite for the whole module: its tests share one xdist worker
# (``./dev test`` distributes by group), not one collection per worker.
pytestmark = pytest.mark.xdist_group("fast_loop")

ROOT = Path(__file__).resolve().parent.parent
#: Test files that must stay in the fast loop, whole.
KEPT_WHOLE = (
    "tests/test_continuity.py",
    "tests/test_import_contracts.py",
    "tests/test_authorisation_matrix.py",
)
BROWSER_FIXTURES = {"new_page"}
SERVER_FIXTURES = {"live_server"}


def fast_loop_expression() -> str:
    """The marker expression ``./dev test`` selects by default."""
    found = re.search(r'^FAST_LOOP="([^"]+)"$', (ROOT / "dev").read_text(), re.M)
    assert found, "dev: the FAST_LOOP marker expression is missing"
    return found[1]


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    report = tmp_path_factory.mktemp("collect") / "report.json"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST_", "COV_CORE_"))
    }
    env[REPORT_VARIABLE] = str(report)
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
            "-p", "tests.collect_report", "-m", fast_loop_expression(),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result: dict[str, list[dict[str, Any]]] = json.loads(report.read_text(encoding="utf-8"))
    return result


def test_dev_test_runs_the_fast_loop_and_ci_runs_everything() -> None:
    assert fast_loop_expression() == "not slow"
    assert "./dev test --all" in (ROOT / ".ci" / "run").read_text()


def test_the_fast_loop_keeps_at_least_90_percent_of_the_tests(collected: dict[str, Any]) -> None:
    kept, left_out = len(collected["selected"]), len(collected["deselected"])
    assert kept > 1000 and left_out > 0
    assert kept / (kept + left_out) >= 0.9, (kept, left_out)


def test_the_continuity_contracts_and_authorisation_matrix_stay_in_it(
    collected: dict[str, Any],
) -> None:
    for path in KEPT_WHOLE:
        kept = [test["id"] for test in collected["selected"] if test["id"].startswith(path + "::")]
        left_out = [test["id"] for test in collected["deselected"] if test["id"].startswith(path)]
        assert kept, f"{path}: no test in the fast loop"
        assert not left_out, left_out


def test_browsers_and_servers_are_slow_and_nothing_else(collected: dict[str, Any]) -> None:
    for test in collected["selected"]:
        markers, fixtures = set(test["markers"]), set(test["fixtures"])
        assert not markers & {"slow", "browser", "served"}, test
        assert not fixtures & (BROWSER_FIXTURES | SERVER_FIXTURES), test
        assert not test["id"].startswith("tests/browser/"), test
        services_group = "xdist_group" in markers and "integration" in markers
        # An integration test outside the services group starts nothing of its own (threads on
        # PostgreSQL, say); inside it, it must have been marked served.
        assert not (services_group and "served" not in markers), test
    for test in collected["deselected"]:
        markers = set(test["markers"])
        assert "slow" in markers, test
        assert markers & {"browser", "served"}, f"slow, yet neither browser nor served: {test}"

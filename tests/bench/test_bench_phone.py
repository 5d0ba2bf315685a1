"""``manage.py bench_phone``: the phone pages measured in Chromium through ``duplitarot serve``.

Run here without network emulation (``--no-throttle``) to check that it works and reports its
figures: counts and bytes are asserted, never times (a benchmark, not a timed test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from bench.phone import Network, format_report

ROOT = Path(__file__).resolve().parents[2]


def test_bad_arguments_are_one_clear_error() -> None:
    with pytest.raises(CommandError, match="latency-ms"):
        call_command("bench_phone", "--latency-ms", "-1")
    with pytest.raises(CommandError, match="down-kbps"):
        call_command("bench_phone", "--down-kbps", "0")


def test_the_emulated_network_is_in_bytes_per_second() -> None:
    assert Network().cdp() == {
        "offline": False,
        "latency": 2000,
        "downloadThroughput": 50_000.0,
        "uploadThroughput": 50_000.0,
    }


@pytest.mark.integration
@pytest.mark.browser
@pytest.mark.xdist_group("services")  # one at a time with the others that start services
def test_a_run_without_emulation_reports_every_phone_and_step() -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key != "DJANGO_SETTINGS_MODULE" and not key.startswith("DUPLITAROT_")
    }
    completed = subprocess.run(
        [sys.executable, "manage.py", "bench_phone", "--no-throttle", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=400,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout)
    assert report["network"] is None and report["host"] == "club.test"
    phones = {phone["name"]: phone for phone in report["phones"]}
    assert set(phones) == {"duplicate table", "cup room", "free-deal table"}
    for phone in phones.values():
        steps = phone["steps"]
        assert set(steps) == {"first load", "repeat load", "save"}
        first, repeat, save = steps["first load"], steps["repeat load"], steps["save"]
        assert first["status"] == repeat["status"] == 200
        assert save["status"] in (200, 201, 302)  # stored: the redirect, or the JSON answer
        assert all(isinstance(step["seconds"], float) for step in steps.values())
        # The first visit fetches the page and its assets; the repeat load and the save take
        # the hashed assets from the browser's cache: fewer requests, fewer bytes.
        assert first["requests"] >= 4 and 2_000 < first["bytes"] <= 30 * 1024
        assert 0 < repeat["bytes"] < first["bytes"] and repeat["requests"] < first["requests"]
        assert 0 < save["bytes"] <= 10 * 1024
    assert "duplicate table" in format_report(report)

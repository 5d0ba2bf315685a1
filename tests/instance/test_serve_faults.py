"""``duplitarot serve`` through the evening's accidents, for real (subprocesses on loopback, a
data folder of the test):

- **a crash mid-recompute** (``kill -9`` of the first process of ``--processes 2``): the restart
  clears the dead runner's recompute markers before it serves, so the standings are current
  at once and the first save after it is ranked without waiting for any marker to expire;
- **a serving process that dies** while the others serve on: said in the terminal and in the
  control room's status box;
- **a full disk** (a small tmpfs the test mounts, never the machine's disk): a save answers 503
  ``disk_full`` saying so, the ranking page still answers, the terminal says it in a line, the
  status box says it; freed, the next save is stored; and ``serve`` started on a full disk says
  so in one line (exit code 2) and leaves no half-collected static files.

The figures (restart ready → standings current, → the first save ranked) are printed (``-s``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tests.instance.serving import Served, free_port, run_command, serve
from tests.instance.test_processes import _wait_children, _wait_gone
from tests.instance.test_serve import _set_up

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("services")]

#: A recompute of about a second on SQLite here: a window to kill the runner in.
TABLES, ROUNDS, DEALS = 60, 5, 4
#: The acceptance's bound: the restart ranks without waiting for any marker to expire.
RESTART_BUDGET_SECONDS = 60.0


def _python(data: Path, code: str) -> Any:
    """Run ``code`` with Django on the data folder (``duplitarot shell -c``); the JSON of its
    last printed line."""
    done = run_command(data, "shell", "-c", code)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


BUILD = """
import json
from django.core.management import call_command
from bench.loadtest import table_plans
from bench.scale import scale_event_build
call_command("migrate", verbosity=0)
event = scale_event_build(tables={tables}, rounds={rounds}, deals_per_round={deals},
                          fill={fill}, seed=2)
{recompute}
plans = table_plans(event, {rounds}, (0, 0), 1)
print(json.dumps({{"event": event.pk, "plans": [
    {{"path": p.path, "deals": list(p.deals), "outcomes": list(p.outcomes)}} for p in plans]}}))
"""


def _build(data: Path, *, tables: int, recompute: bool) -> dict[str, Any]:
    """A running event in the data folder, its last round left to enter; with ``recompute``
    its standings computed, else behind (the first runner recomputes them at once)."""
    fill = 100 * (ROUNDS - 1) / ROUNDS
    code = BUILD.format(
        tables=tables, rounds=ROUNDS, deals=DEALS, fill=fill,
        recompute=(
            "from scoring.services import standings_recompute\n"
            "standings_recompute(event_id=event.pk)" if recompute else ""
        ),
    )  # fmt: skip
    built: dict[str, Any] = _python(data, code)
    return built


def _row(database: Path, sql: str, *args: Any) -> Any:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return db.execute(sql, args).fetchone()


def _versions(database: Path, event: int) -> tuple[int, int | None]:
    """(the event's results version, its standings snapshot's version)."""
    (version,) = _row(database, "SELECT results_version FROM tournaments_event WHERE id = ?", event)
    snapshot = _row(
        database, "SELECT results_version FROM scoring_standingssnapshot WHERE event_id = ?", event
    )
    return version, snapshot[0] if snapshot else None


def _current(database: Path, event: int) -> bool:
    version, snapshot = _versions(database, event)
    return snapshot == version


def _lease(database: Path, event: int) -> str:
    row = _row(database, "SELECT lease_owner FROM scoring_recomputestate WHERE event_id = ?", event)
    return str(row[0]) if row else ""


def _until(predicate: Any, seconds: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def _post_json(served: Served, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        served.url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def _save(served: Served, built: dict[str, Any], index: int = 0) -> tuple[int, dict[str, Any]]:
    """Table 1's ``index``-th deal of the last round, through the table API."""
    plan = built["plans"][0]
    return _post_json(
        served, plan["path"], {"deal": plan["deals"][index], "outcome": plan["outcomes"][index]}
    )


def _control_url(event: int) -> str:
    with translation.override("fr"):
        return reverse("organiser:control", args=[event])


def _direct_the_event(served: Served, data: Path, event: int) -> None:
    """The first run's organiser (logged in by ``served``) directs the built event too."""
    assert served.setup_code is not None
    _set_up(served, served.setup_code)
    _python(
        data,
        "import json\nfrom django.contrib.auth.models import User\n"
        "from tournaments.models import Event\n"
        f"Event.objects.get(pk={event}).club.organisers.add(User.objects.get(username='marie'))\n"
        "print(json.dumps(1))",
    )


# ----------------------------------------------------------------------- a crash, a death


def test_after_a_crash_mid_recompute_the_restart_ranks_at_once(tmp_path: Path) -> None:
    data = tmp_path / "club"
    built = _build(data, tables=TABLES, recompute=False)
    event, database = built["event"], data / "duplitarot.sqlite3"
    assert _versions(database, event)[1] is None  # behind: the runner recomputes at its start

    first = serve(data, extra=("--processes", "2"))
    (supervisor,) = _wait_children(first.process.pid, 1, 30)
    children = [supervisor, *_wait_children(supervisor, 1, 30)]
    try:
        assert _until(lambda: _lease(database, event) != "", 60, interval=0.005), (
            first.log.read_text()[-3000:]
        )
        os.kill(first.process.pid, signal.SIGKILL)  # mid-recompute
        first.process.wait(timeout=30)
    finally:
        first.stop()
    assert _wait_gone(children, 30) == []
    dead_owner = _lease(database, event)
    assert dead_owner, "the recompute ended before the kill"
    assert not _current(database, event)

    again = serve(data, extra=("--processes", "2"))
    ready = time.monotonic()
    try:
        # Cleared before serving: the dead runner's lease is gone as soon as it is ready.
        assert _lease(database, event) != dead_owner
        assert "left mid-recompute by the last run" in again.banner
        assert _until(lambda: _current(database, event), RESTART_BUDGET_SECONDS), (
            again.log.read_text()[-3000:]
        )
        current = time.monotonic()
        status, answer = _save(again, built)
        assert status == 201, answer
        saved = time.monotonic()
        left = RESTART_BUDGET_SECONDS - (saved - ready)
        assert _until(lambda: _current(database, event), max(left, 1.0)), _versions(database, event)
        ranked = time.monotonic()
    finally:
        assert again.stop() == 0
    print(
        json.dumps(
            {
                "crash": "kill -9 of the first of 2 serving processes mid-recompute",
                "tables": TABLES,
                "ready_to_standings_current_s": round(current - ready, 2),
                "first_save_to_ranked_s": round(ranked - saved, 2),
                "ready_to_first_save_ranked_s": round(ranked - ready, 2),
            }
        )
    )


def test_a_serving_process_killed_is_replaced_said_and_its_replacement_acknowledges_saves(
    tmp_path: Path,
) -> None:
    """kill -9 of a serving process: the supervisor forks another in its place, the terminal
    and the status box say both, and the new one serves: with the first process and the other
    survivor frozen (SIGSTOP), only it can answer the saves."""
    data = tmp_path / "club"
    built = _build(data, tables=4, recompute=True)
    served = serve(data, extra=("--processes", "3"))
    frozen: list[int] = []
    try:
        (supervisor,) = _wait_children(served.process.pid, 1, 30)
        workers = _wait_children(supervisor, 2, 30)
        assert len(workers) == 2, workers
        _direct_the_event(served, data, built["event"])
        victim, survivor = workers
        os.kill(victim, signal.SIGKILL)
        said = f"A serving process (pid {victim}) stopped (killed by signal 9): a new one (pid "
        assert _until(lambda: said in served.log.read_text(), 30), served.log.read_text()[-3000:]
        found = re.search(re.escape(said) + r"(\d+)\)", served.log.read_text())
        assert found is not None
        replacement = int(found.group(1))
        assert sorted(_wait_children(supervisor, 2, 10)) == sorted([survivor, replacement])
        # Only the replacement can accept a connection now: its saves are acknowledged.
        frozen = [served.process.pid, survivor]
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        assert [_save(served, built, index)[0] for index in (0, 1)] == [201, 201]
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
        frozen = []
        assert [_save(served, built, index)[0] for index in (2, 3)] == [201, 201]
        # The control room says what happened, the replacement included.
        status, _headers, page = served.get(_control_url(built["event"]))
        assert status == 200
        assert 'id="computer-status"' in page
        assert f"(numéro {victim})" in page and "signal 9" in page, page[-3000:]
        assert f"Un autre (numéro {replacement}) a pris sa place" in page, page[-3000:]
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
        assert served.stop() == 0
    assert _wait_gone([supervisor, survivor, replacement], 15) == []


# ----------------------------------------------------------------------------- a full disk


@contextlib.contextmanager
def small_disk(path: Path, megabytes: int) -> Iterator[Path]:
    """A tmpfs of ``megabytes`` mounted at ``path`` for the test (root, or passwordless sudo);
    the machine's own disk is never filled."""
    path.mkdir(parents=True, exist_ok=True)
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    mount = [*prefix, "mount", "-t", "tmpfs", "-o", f"size={megabytes}m,mode=0700", "tmpfs"]
    done = subprocess.run([*mount, str(path)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run([*prefix, "umount", "-l", str(path)], check=False, capture_output=True)


def _fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte; the filler file, to remove to free it."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:  # unbuffered: nothing left to flush at close
        for size in (1024 * 1024, 4096, 1):
            chunk = b"\0" * size
            with contextlib.suppress(OSError):
                while out.write(chunk):
                    pass
    assert shutil.disk_usage(disk).free < 64 * 1024
    return filler


def test_a_full_disk_is_named_in_the_answer_the_terminal_and_the_status_box(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path / "disk", 72) as disk:
        data = disk / "club"
        built = _build(data, tables=4, recompute=True)
        served = serve(data, extra=("--processes", "2"))
        try:
            _direct_the_event(served, data, built["event"])
            with translation.override("fr"):
                ranking = reverse("public:ranking", args=[built["event"]])
            filler = _fill(disk)
            status, answer = _save(served, built)
            assert status == 503 and answer["code"] == "disk_full", answer
            assert "Le disque du serveur est plein" in answer["detail"]
            # The ranking page still answers: the last published ranking.
            status, _headers, page = served.get(ranking)
            assert status == 200, page[-2000:]
            status, _headers, page = served.get(_control_url(built["event"]))
            assert status == 200 and "Le disque est plein" in page, page[-3000:]
            log = served.log.read_text()
            assert "The disk is full" in log and "Traceback" not in log, log[-3000:]
            # Freed: the entry the phone kept is stored when it sends it again.
            filler.unlink()
            status, answer = _save(served, built)
            assert status == 201, answer
        finally:
            assert served.stop() == 0


def test_serve_on_a_full_disk_says_so_in_one_line(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", 16) as disk:  # less than the static files need
        data = disk / "club"
        done = run_command(data, "serve", "--port", str(free_port()), "--host", "127.0.0.1")
        assert done.returncode == 2, done.stderr[-3000:]
        assert "the disk is full" in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert not (data / "static.new").exists()

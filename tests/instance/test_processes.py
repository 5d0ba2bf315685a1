"""Serving on several processes (``instance.processes``, Linux): one socket, one runner, the
SQLite writers taking turns across the processes, one lifetime."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from instance import processes
from runner import background
from tests.instance.serving import run_command, serve
from tests.instance.test_serve import _set_up

DONE: list[tuple[Any, ...]] = []


def record(*args: Any) -> None:
    """Background work the tests hand over (a module-level function: it can be named)."""
    DONE.append(args)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
            found.append(int(entry))
    return found


def _wait_children(pid: int, count: int, seconds: float) -> list[int]:
    """The processes ``pid`` forked, once there are ``count`` (it forks just after it
    listens)."""
    deadline = time.monotonic() + seconds
    found = _children(pid)
    while len(found) < count and time.monotonic() < deadline:
        time.sleep(0.1)
        found = _children(pid)
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] != "Z"


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [pid for pid in pids if _alive(pid)]
        if not left:
            return []
        time.sleep(0.1)
    return [pid for pid in pids if _alive(pid)]


def test_work_is_named_so_another_process_can_run_it() -> None:
    from scoring.tasks import standings_recompute_task

    assert background.reference(record) == "tests.instance.test_processes:record"
    assert background.resolve(background.reference(record)) is record
    # A Celery task travels by name; the runner is given its plain function.
    ref = background.reference(standings_recompute_task)
    assert ref == "scoring.tasks:standings_recompute_task"
    assert background.resolve(ref) == standings_recompute_task.run
    with pytest.raises(ValueError):
        background.reference(lambda: None)


def test_work_sent_from_another_process_runs_on_the_first_ones_runner(settings: Any) -> None:
    """``send``/``run`` in a process without a runner write a line on the pipe; the first
    process' reader hands it to its runner."""
    settings.DUPLITAROT_BACKGROUND = "thread"
    fresh = background.Runner()
    original_runner = background.runner
    background.runner = fresh
    read_end, write_end = os.pipe()
    reader = processes.threading.Thread(target=processes._read_forwarded, args=(read_end,))
    reader.start()
    DONE.clear()
    try:
        background.forward = processes._forwarder(write_end)
        background.run(record, 7, "table")
        background.run(record, 8, "room")
        os.write(write_end, b"not json\n")  # garbage is logged and skipped
        background.run(record, 9, "free deal")
    finally:
        background.forward = None
        os.close(write_end)
    reader.join(10)
    assert not reader.is_alive()
    assert fresh.wait_idle(10)
    fresh.stop(timeout=10)
    background.runner = original_runner
    assert DONE == [(7, "table"), (8, "room"), (9, "free deal")]


def test_the_writers_lock_is_held_by_one_process_at_a_time(tmp_path: Path) -> None:
    lock = processes.FlockWriterLock(tmp_path / "db.writers")
    lock.acquire()
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the other process: it must wait until the parent releases
        try:
            os.close(ready_read)
            os.write(ready_write, b"w")
            lock.acquire()
            os.write(ready_write, b"a")
            lock.release()
        finally:
            os._exit(0)
    os.close(ready_write)
    assert os.read(ready_read, 1) == b"w"
    time.sleep(0.3)
    # Still waiting: nothing more came through the pipe.
    os.set_blocking(ready_read, False)
    with pytest.raises(BlockingIOError):
        os.read(ready_read, 1)
    os.set_blocking(ready_read, True)
    lock.release()
    assert os.read(ready_read, 1) == b"a"
    _pid, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.integration
@pytest.mark.xdist_group("services")
def test_two_processes_serve_share_the_throttle_and_stop_together(tmp_path: Path) -> None:
    data = tmp_path / "club"
    served = serve(data, extra=("--processes", "2"))
    try:
        (supervisor,) = _wait_children(served.process.pid, 1, 15)
        children = [supervisor, *_wait_children(supervisor, 1, 15)]
        assert len(children) == 2, children
        assert served.setup_code is not None
        _set_up(served, served.setup_code)  # else every page leads to the first run
        # Every request on a new connection: spread over both processes. The unknown codes'
        # throttle counts across them (a shared cache): the 21st failure is refused.
        statuses = [served.get("/table/NO-SUCH-CODE/")[0] for _ in range(21)]
        assert statuses[:20] == [404] * 20 and statuses[20] == 429, statuses
        status, _headers, body = served.get("/static/js/htmx.min.js")
        assert status == 200 and "htmx" in body
    finally:
        code = served.stop()
    assert code == 0
    assert _wait_gone(children, 15) == []
    assert "duplitarot stopped." in served.log.read_text()
    assert "Traceback" not in served.log.read_text()


@pytest.mark.integration
@pytest.mark.xdist_group("services")
def test_the_other_processes_stop_when_the_first_one_dies(tmp_path: Path) -> None:
    served = serve(tmp_path / "club", extra=("--processes", "2"))
    (supervisor,) = _wait_children(served.process.pid, 1, 15)
    children = [supervisor, *_wait_children(supervisor, 1, 15)]
    assert len(children) == 2
    os.kill(served.process.pid, signal.SIGKILL)
    served.process.wait(timeout=30)
    assert _wait_gone(children, 15) == []


@pytest.mark.parametrize("count", ["0", "5", "two"])
def test_a_wrong_number_of_processes_is_refused_in_one_line(tmp_path: Path, count: str) -> None:
    done = run_command(tmp_path / "club", "serve", "--processes", count, "--port", "1")
    assert done.returncode == 2
    assert "--processes" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "club" / "duplitarot.sqlite3").exists()


def test_the_default_is_one_process_per_core_on_linux_only(monkeypatch: Any) -> None:
    from instance.management.commands import serve as command

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(sys, "platform", "linux")
    assert command.default_processes() == 2
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert command.default_processes() == command.MAX_PROCESSES
    for platform in ("win32", "darwin"):
        monkeypatch.setattr(sys, "platform", platform)
        assert command.default_processes() == 1
    assert json.dumps(command.MAX_PROCESSES)  # a plain number

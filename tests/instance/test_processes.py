"""Serving on several processes (``instance.processes``, Linux): one socket, one runner, the
SQLite writers taking turns across the processes, one lifetime."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
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
    assert "supervisor of the serving processes stopped" not in served.log.read_text()


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


# ------------------------------------------------------------------- the supervisor, in-process


def _child(code: str = "", exit_code: int = 0) -> int:
    """A child process that runs ``code`` (``sleep``: until killed; ``stubborn``: ignores
    SIGTERM) or exits at once with ``exit_code``."""
    pid = os.fork()
    if pid == 0:
        try:
            if code == "stubborn":
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if code in {"sleep", "stubborn"}:
                time.sleep(60)
        finally:
            os._exit(exit_code)
    return pid


def _reports(fd: int) -> list[dict[str, Any]]:
    os.set_blocking(fd, False)
    try:
        data = os.read(fd, 65536)
    except BlockingIOError:
        return []
    return [json.loads(line) for line in data.splitlines()]


def test_the_supervisor_replaces_a_process_that_ended_and_tells_the_first_one(
    monkeypatch: Any,
) -> None:
    """A serving process that ends is waited for and replaced, and the first process is told
    which one ended, how, and which one replaced it."""
    report_read, report_write = os.pipe()
    supervisor = processes.Supervisor(1, alive=-1, report=report_write)
    spawned: list[int] = []

    def spawn() -> bool:  # here, the replacement is a child that sleeps
        pid = _child("sleep")
        supervisor.workers.add(pid)
        supervisor._last = pid
        spawned.append(pid)
        return False

    monkeypatch.setattr(supervisor, "_spawn", spawn)
    dead = _child(exit_code=3)
    supervisor.workers.add(dead)
    try:
        deadline = time.monotonic() + 10
        while dead in supervisor.workers and time.monotonic() < deadline:
            assert supervisor._reap() is False
            time.sleep(0.02)
        assert len(spawned) == 1 and supervisor.workers == set(spawned)
        (told,) = _reports(report_read)
        assert told["pid"] == dead and told["replacement"] == spawned[0]
        assert os.waitstatus_to_exitcode(told["status"]) == 3
    finally:
        supervisor._stop_workers()  # SIGTERM: the sleeping replacement ends
        os.close(report_read)
        os.close(report_write)
    assert _wait_gone(spawned, 10) == []


def test_a_process_that_keeps_dying_is_no_longer_replaced(monkeypatch: Any) -> None:
    report_read, report_write = os.pipe()
    supervisor = processes.Supervisor(1, alive=-1, report=report_write)
    supervisor.restarts = [time.monotonic()] * processes.RESTARTS  # died that often just now
    monkeypatch.setattr(supervisor, "_spawn", lambda: pytest.fail("replaced again"))
    dead = _child(exit_code=1)
    supervisor.workers.add(dead)
    try:
        deadline = time.monotonic() + 10
        while dead in supervisor.workers and time.monotonic() < deadline:
            supervisor._reap()
            time.sleep(0.02)
        (told,) = _reports(report_read)
        assert told["pid"] == dead and told["replacement"] is None
    finally:
        os.close(report_read)
        os.close(report_write)


def test_a_stopping_supervisor_replaces_nothing_and_tells_nothing(monkeypatch: Any) -> None:
    report_read, report_write = os.pipe()
    supervisor = processes.Supervisor(1, alive=-1, report=report_write)
    supervisor.stopping = True  # Ctrl+C: every process ends on its own
    monkeypatch.setattr(supervisor, "_spawn", lambda: pytest.fail("replaced while stopping"))
    dead = _child()
    supervisor.workers.add(dead)
    try:
        deadline = time.monotonic() + 10
        while dead in supervisor.workers and time.monotonic() < deadline:
            supervisor._reap()
            time.sleep(0.02)
        assert supervisor.workers == set()
        assert _reports(report_read) == []
    finally:
        os.close(report_read)
        os.close(report_write)


def test_stopping_kills_a_process_that_ignores_sigterm(monkeypatch: Any) -> None:
    monkeypatch.setattr(processes, "STOP_SECONDS", 0.5)
    stubborn = _child("stubborn")
    polite = _child("sleep")
    time.sleep(0.2)  # the stubborn one has set its SIGTERM aside
    processes._stop([stubborn, polite])
    assert _wait_gone([stubborn, polite], 5) == []


class _Heard(list[tuple[int, int, "int | None"]]):
    """What the first process hears (``Processes.watch``'s callback)."""

    def __call__(self, pid: int, status: int, replacement: int | None) -> None:
        self.append((pid, status, replacement))


def test_a_supervisor_that_stopped_on_a_signal_is_not_reported(caplog: Any) -> None:
    """Ctrl+C (or a service manager's SIGTERM) reaches the supervisor with the first process:
    it says it stopped, and the first process reports no death; a supervisor gone without a word
    (kill -9) is logged."""
    for lines, logged in ((b'{"stopped": true}\n', False), (b"", True)):
        caplog.clear()
        heard = _Heard()
        split = processes.Processes()
        split._reports, report_write = os.pipe()
        split.watch(heard)
        if lines:
            os.write(report_write, lines)
        os.close(report_write)
        assert split._watcher is not None
        split._watcher.join(10)
        assert heard == []
        assert ("supervisor of the serving processes stopped" in caplog.text) is logged


def test_the_first_process_hears_of_each_end_until_it_stops() -> None:
    """``watch`` reads the supervisor's lines and calls back; a bad line is logged and
    skipped; after ``stop_children`` nothing more is reported."""
    heard: list[tuple[int, int, int | None]] = []
    split = processes.Processes()
    report_read, report_write = os.pipe()
    split._reports = report_read
    split.watch(lambda pid, status, replacement: heard.append((pid, status, replacement)))
    os.write(report_write, b'{"pid": 11, "status": 9, "replacement": 12}\n')
    os.write(report_write, b"not json\n")
    os.write(report_write, b'{"pid": 12, "status": 256, "replacement": null}\n')
    deadline = time.monotonic() + 10
    while len(heard) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert heard == [(11, 9, 12), (12, 256, None)]
    split.children = [_child("sleep")]  # the supervisor, SIGTERMed by stop_children
    split.stop_children()
    os.write(report_write, b'{"pid": 13, "status": 9, "replacement": 14}\n')
    os.close(report_write)
    assert split._watcher is not None
    split._watcher.join(10)
    assert not split._watcher.is_alive()
    assert heard == [(11, 9, 12), (12, 256, None)]
    assert _wait_gone(split.children, 5) == []


def test_the_supervisor_forks_replaces_up_to_its_limit_and_stops_with_the_first_process(
    monkeypatch: Any,
) -> None:
    """The supervisor's loop, here in the test's process: its serving process ends at once,
    is replaced until :data:`RESTARTS`, then reported as not replaced; when the first
    process's pipe closes, it stops and answers False."""
    monkeypatch.setattr(processes, "RESTARTS", 2)
    alive_read, alive_write = os.pipe()
    report_read, report_write = os.pipe()
    saved = {signum: signal.getsignal(signum) for signum in processes.SUPERVISOR_SIGNALS}
    parent = os.getpid()
    supervisor = processes.Supervisor(1, alive=alive_read, report=report_write)
    closer = threading.Timer(3.0, os.close, args=(alive_write,))
    closer.start()
    try:
        served = supervisor.run()
        if os.getpid() != parent:  # a serving process it forked: ends at once
            os._exit(0)
        assert served is False
    finally:
        signal.set_wakeup_fd(-1)
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        closer.join()
    *told, last = _reports(report_read)
    assert [entry["replacement"] is not None for entry in told] == [True, True, False]
    assert all(os.waitstatus_to_exitcode(entry["status"]) == 0 for entry in told)
    assert last == {"stopped": True}  # a stop, which the first process does not report
    assert supervisor.workers == set()
    for fd in (alive_read, report_read, report_write):
        os.close(fd)


def test_the_socket_is_bound_once_and_listens() -> None:
    sock = processes.listening_socket("127.0.0.1", 0)
    try:
        host, port = sock.getsockname()
        assert host == "127.0.0.1" and port > 0
        assert sock.getblocking() is False
    finally:
        sock.close()

"""Serving on several processes (POSIX): one listening socket, one runner, the writers in turn.

Python runs one thread at a time in a process, so a room's burst of saves (every table at the
end of the same deal) queues on one core. On a machine with ``fork`` (Linux), ``duplitarot
serve --processes N`` (by default one process per core, at most four) binds
the port once, then, after the start-up work (backup, migrations), forks a **supervisor** that
forks N-1 more servers, and every serving process serves requests from the same socket with
waitress:

- **one runner**: the first process keeps ``runner.background``'s runner thread (recomputes,
  backups, the periodic reconcile); the others hand their work to it over a pipe
  (``background.forward``: a line of JSON naming a module-level function or task and its
  arguments; a line is far below ``PIPE_BUF``, so lines never interleave);
- **writers in turn**: a lock file beside the database, taken with ``flock`` by the writer at the
  head of each process's queue (``instance.sqlite``), so the processes' SQLite writers wait for
  each other in the kernel, not in SQLite's polling busy handler;
- **a process that dies is replaced**: the supervisor (:class:`Supervisor`) has one thread,
  forked before any other thread started, so it forks a new server from the state the first
  ones were forked from (never from a process whose other threads may hold a lock); it tells the
  first process (``serve`` says it in the terminal and the status box). A process that dies
  within seconds of its start, :data:`RESTARTS` times in :data:`RESTART_WINDOW` seconds, is
  not replaced again (it would die again): reported as before;
- **one lifetime**: the supervisor and the others stop when the first one does (SIGTERM, then
  SIGKILL after :data:`STOP_SECONDS`), and stop by themselves if it dies (they watch a pipe it
  holds open).

Windows has no ``fork``: serve runs one process there (threads only), as it does with
``--processes 1``. This module is imported only when several processes are asked for.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import select
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connections

from instance.sqlite import base as sqlite_base
from runner import background

logger = logging.getLogger(__name__)

STOP_SECONDS = 10.0


class FlockWriterLock:
    """A lock file taken with ``flock``: one holder among the processes of the server.

    ``flock`` belongs to an open file, and a forked process shares its parent's open files: each
    process opens the file itself, on first use. Threads of one process never take it together
    (``instance.sqlite``'s queue lets one through at a time)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pid = 0
        self._fd = -1

    def _file(self) -> int:
        if self._pid != os.getpid():
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
        return self._fd

    def acquire(self) -> None:
        fcntl.flock(self._file(), fcntl.LOCK_EX)  # the GIL is released while it waits

    def release(self) -> None:
        fcntl.flock(self._file(), fcntl.LOCK_UN)


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound once before the processes part (waitress' options)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


def _forwarder(fd: int) -> Callable[[str, tuple[Any, ...], float], None]:
    def forward(ref: str, args: tuple[Any, ...], delay: float) -> None:
        line = json.dumps([ref, list(args), delay]).encode() + b"\n"
        os.write(fd, line)  # one write below PIPE_BUF: atomic among the processes

    return forward


def _read_forwarded(fd: int) -> None:
    """The first process: run the work the others hand over, until they all have closed."""
    buffer = b""
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        while True:
            chunk = pipe.read(65536)
            if not chunk:
                return
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                try:
                    ref, args, delay = json.loads(line)
                    function = background.resolve(ref)
                except (ValueError, ImportError, AttributeError):
                    logger.exception("unreadable background work from a serving process")
                    continue
                background.runner.submit(function, *args, delay=float(delay))


def _watch_parent(fd: int) -> None:
    """Another process: stop as Ctrl+C does once the first process is gone."""
    with contextlib.suppress(OSError):
        os.read(fd, 1)  # nothing is ever written: this returns when the first process exits
    os.kill(os.getpid(), signal.SIGTERM)


#: The signals the supervisor handles (the Ctrl+C of the terminal, the first process's SIGTERM,
#: a serving process that ended).
SUPERVISOR_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD)

#: A process that died this many times within :data:`RESTART_WINDOW` seconds is not replaced.
RESTARTS = 5
RESTART_WINDOW = 60.0


class Supervisor:
    """The process that forks the other serving processes and replaces one that dies.

    It runs one thread, in :meth:`run`, and never serves: :meth:`run` returns True in a serving
    process it has just forked, which then serves as the first ones did, and False in the
    supervisor once the server stops (it then exits)."""

    def __init__(self, count: int, alive: int, report: int) -> None:
        self.count = count
        self.alive = alive  # the first process's pipe: end of file when it is gone
        self.report = report  # lines of JSON to the first process: who died, who replaced it
        self.workers: set[int] = set()
        self.restarts: list[float] = []
        self.stopping = False
        self._wake_read = self._wake_write = -1
        self._handlers: dict[int, Any] = {}
        self._last = 0

    def run(self) -> bool:
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        for signum in SUPERVISOR_SIGNALS:
            self._handlers[signum] = signal.signal(signum, self._signalled)
        signal.set_wakeup_fd(self._wake_write)  # a signal wakes the select below at once
        for _ in range(self.count):
            if self._spawn():
                return True
        while not self.stopping:
            readable, _w, _x = select.select([self.alive, self._wake_read], [], [], 1.0)
            if self._wake_read in readable:
                with contextlib.suppress(OSError):
                    os.read(self._wake_read, 512)
            if self.alive in readable:  # the first process is gone
                self.stopping = True
            if self._reap():
                return True
        self._stop_workers()
        with contextlib.suppress(OSError):  # a stop, not a death: the first process says nothing
            os.write(self.report, b'{"stopped": true}\n')
        return False

    def _signalled(self, signum: int, frame: Any) -> None:
        if signum != signal.SIGCHLD:
            self.stopping = True  # SIGTERM from the first process, or Ctrl+C in the terminal

    def _spawn(self) -> bool:
        """Fork a serving process: True in it (set back as a serving process), False here."""
        pid = os.fork()
        if pid == 0:
            signal.set_wakeup_fd(-1)
            for signum, handler in self._handlers.items():
                signal.signal(signum, handler)
            for fd in (self._wake_read, self._wake_write, self.report):
                os.close(fd)
            return True
        self.workers.add(pid)
        self._last = pid
        return False

    def _reap(self) -> bool:
        """Wait for the serving processes that ended and replace them: True in a new one."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return False
            if pid == 0:
                return False
            self.workers.discard(pid)
            if self.stopping:
                continue
            replacement = None
            now = time.monotonic()
            self.restarts = [at for at in self.restarts if now - at < RESTART_WINDOW]
            if len(self.restarts) < RESTARTS:
                self.restarts.append(now)
                if self._spawn():
                    return True
                replacement = self._last
            self._tell(pid, status, replacement)

    def _tell(self, pid: int, status: int, replacement: int | None) -> None:
        line = json.dumps({"pid": pid, "status": status, "replacement": replacement})
        with contextlib.suppress(OSError):
            os.write(self.report, line.encode() + b"\n")

    def _stop_workers(self) -> None:
        """SIGTERM the serving processes, wait for them (bounded), SIGKILL the late ones."""
        _stop(sorted(self.workers))


def _stop(pids: list[int], seconds: float | None = None) -> None:
    """SIGTERM ``pids`` (children of this process), wait for them (``seconds`` at most,
    :data:`STOP_SECONDS` when not given, read at the call), SIGKILL the late ones."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + (STOP_SECONDS if seconds is None else seconds)
    waiting = set(pids)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            with contextlib.suppress(ChildProcessError):
                done, _status = os.waitpid(pid, os.WNOHANG)
                if done == 0:
                    continue
            waiting.discard(pid)
        if waiting:
            time.sleep(0.05)
    for pid in waiting:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


#: What the first process is told of a serving process that ended: its pid, its wait status,
#: the pid of the one that replaced it (None: not replaced).
OnDeath = Callable[[int, int, "int | None"], None]


class Processes:
    """The serving processes after :meth:`fork`: ``is_first`` tells which one this is."""

    def __init__(self) -> None:
        self.children: list[int] = []  # the first process's: the supervisor
        self.is_first = True
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None
        self._reports = -1

    def fork(self, count: int, lock_path: Path) -> None:
        """Become ``count`` serving processes (and their supervisor). The caller has closed its
        database connections (an open SQLite connection must never cross a fork) and started
        no thread (the supervisor forks the others later, from this state)."""
        connections.close_all()
        sqlite_base.PROCESS_LOCK = FlockWriterLock(lock_path)
        work_read, work_write = os.pipe()
        alive_read, alive_write = os.pipe()
        report_read, report_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(work_read)
            os.close(alive_write)
            os.close(report_read)
            if not Supervisor(count - 1, alive_read, report_write).run():
                os._exit(0)  # the supervisor, once the server stops
            # Here only in a serving process the supervisor forked.
            self.is_first = False
            self.children = []
            background.forward = _forwarder(work_write)
            threading.Thread(
                target=_watch_parent, args=(alive_read,), name="duplitarot-parent", daemon=True
            ).start()
            return
        self.children = [pid]
        os.close(work_write)
        os.close(alive_read)
        os.close(report_write)
        self._alive = alive_write  # closed by the kernel when this process ends
        self._reports = report_read
        threading.Thread(
            target=_read_forwarded, args=(work_read,), name="duplitarot-forwarded", daemon=True
        ).start()

    def watch(self, on_death: OnDeath) -> None:
        """The first process: call ``on_death(pid, wait status, replacement)`` (on a thread of
        its own) for each other serving process that stops while the server serves."""
        self._watcher = threading.Thread(
            target=self._watch, args=(on_death,), name="duplitarot-children", daemon=True
        )
        self._watcher.start()

    def _watch(self, on_death: OnDeath) -> None:
        with os.fdopen(self._reports, "rb", buffering=0) as reports:
            buffer = b""
            while True:
                chunk = reports.read(4096)
                if not chunk:  # the supervisor is gone
                    break
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if self._stopping.is_set():
                        return
                    try:
                        told = json.loads(line)
                        if told.get("stopped"):  # Ctrl+C or SIGTERM reached it too
                            return
                        on_death(int(told["pid"]), int(told["status"]), told["replacement"])
                    except Exception:
                        logger.exception("reporting the end of a serving process failed")
        if not self._stopping.is_set():
            logger.error(
                "the supervisor of the serving processes stopped: the others serve on, but one "
                "that stops is no longer replaced"
            )

    def stop_children(self) -> None:
        """Stop the supervisor, which stops the others (SIGTERM, then SIGKILL when late)."""
        self._stopping.set()
        # The supervisor waits STOP_SECONDS for the others: a little longer for it, then killed.
        _stop(sorted(self.children), seconds=STOP_SECONDS + 2.0)
        if self._watcher is not None:
            self._watcher.join(1.0)

"""Serving on several processes (POSIX): one listening socket, one runner, the writers in turn.

Python runs one thread at a time in a process, so a room's burst of saves (every table at the
end of the same deal) queues on one core. On a machine with ``fork`` (Linux), ``duplitarot
serve --processes N`` (by default one process per core, at most four) binds
the port once, then forks N-1 more servers after the start-up work (backup, migrations) is
done, and every process serves requests from the same socket with waitress:

- **one runner**: the first process keeps ``runner.background``'s runner thread (recomputes,
  backups, the periodic reconcile); the others hand their work to it over a pipe
  (``background.forward``: a line of JSON naming a module-level function or task and its
  arguments; a line is far below ``PIPE_BUF``, so lines never interleave);
- **writers in turn**: a lock file beside the database, taken with ``flock`` by the writer at the
  head of each process's queue (``instance.sqlite``), so the processes' SQLite writers wait for
  each other in the kernel, not in SQLite's polling busy handler;
- **one lifetime**: the others stop when the first one does (SIGTERM, then SIGKILL after
  :data:`STOP_SECONDS`), and stop by themselves if it dies (they watch a pipe it holds open);
  the first one watches the others (:meth:`Processes.watch`): one that stops on its own is
  reported (``serve`` says it in the terminal and the status box), not replaced.

Windows has no ``fork``: serve runs one process there (threads only), as it does with
``--processes 1``. This module is imported only when several processes are asked for.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
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


class Processes:
    """The serving processes after :meth:`fork`: ``is_first`` tells which one this is."""

    def __init__(self) -> None:
        self.children: list[int] = []
        self.is_first = True
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None

    def fork(self, count: int, lock_path: Path) -> None:
        """Become ``count`` processes. The caller has closed its database connections (an
        open SQLite connection must never cross a fork)."""
        connections.close_all()
        sqlite_base.PROCESS_LOCK = FlockWriterLock(lock_path)
        work_read, work_write = os.pipe()
        alive_read, alive_write = os.pipe()
        for _ in range(count - 1):
            pid = os.fork()
            if pid == 0:
                self.is_first = False
                self.children = []
                os.close(work_read)
                os.close(alive_write)
                background.forward = _forwarder(work_write)
                threading.Thread(
                    target=_watch_parent, args=(alive_read,), name="duplitarot-parent", daemon=True
                ).start()
                return
            self.children.append(pid)
        os.close(work_write)
        os.close(alive_read)
        self._alive = alive_write  # closed by the kernel when this process ends
        threading.Thread(
            target=_read_forwarded, args=(work_read,), name="duplitarot-forwarded", daemon=True
        ).start()

    def watch(self, on_death: Callable[[int, int], None], interval: float = 1.0) -> None:
        """The first process: call ``on_death(pid, wait status)`` (on a thread of its own) for
        each other process that stops while the server serves; it is not replaced."""
        self._watcher = threading.Thread(
            target=self._watch, args=(on_death, interval), name="duplitarot-children", daemon=True
        )
        self._watcher.start()

    def _watch(self, on_death: Callable[[int, int], None], interval: float) -> None:
        while not self._stopping.wait(interval):
            for pid in list(self.children):
                try:
                    done, status = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:  # already waited for
                    done, status = pid, 0
                if done == 0 or self._stopping.is_set():
                    continue
                self.children.remove(pid)
                try:
                    on_death(pid, status)
                except Exception:
                    logger.exception("reporting the end of serving process %s failed", pid)

    def stop_children(self) -> None:
        """SIGTERM the others, wait for them (bounded), SIGKILL the late ones."""
        self._stopping.set()
        if self._watcher is not None:
            self._watcher.join(STOP_SECONDS)
        for pid in self.children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        waiting = set(self.children)
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

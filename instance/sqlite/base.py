"""Django's SQLite engine whose writers queue in the process, first come first served.

A club's instance (``duplitarot serve``) is one process: waitress' request threads and the
runner thread share one SQLite file in WAL mode, where one writer at a time holds the write
lock. SQLite makes the others wait with its busy handler, which polls: a waiting writer sleeps
1, 2, 5... then 100 ms between tries, so the lock stays idle after a commit while the waiters
sleep, and a newcomer (a 1 ms sleep) overtakes a writer that has waited for a second. Under a
room's burst of saves that is the slow tail of the latency (seconds), not the work.

Here a writer of this process first takes :data:`WRITE_QUEUE`, a FIFO lock handed directly from
one writer to the next: a write transaction (``BEGIN IMMEDIATE``, i.e. an ``atomic`` block of a
club's instance) from its BEGIN to its COMMIT or ROLLBACK, and a write statement run outside a
transaction (autocommit) for that statement. Reads never take it (WAL: they never wait), nor
does a deferred transaction (``scoring.bulk.consistent_read``). Another process on the same
file (a command, a backup) still meets SQLite's own busy handler, as before. A writer that
waited :data:`QUEUE_TIMEOUT` (SQLite's own ``timeout``) goes on without the queue: it can then
only meet SQLite's busy handler, never wait forever here.

When serve runs several processes (``instance.processes``, POSIX), the writer at the head of a
process's queue also takes :data:`PROCESS_LOCK`, a lock file shared by the server's processes
(``flock``: the kernel wakes a waiter at once), so the processes' writers take turns without
SQLite's polling either.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Protocol

from django.db.backends.sqlite3 import base

WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "REPLACE")
QUEUE_TIMEOUT = 20.0


class FifoLock:
    """A lock granted in the order asked, handed over directly at release."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._waiters: deque[threading.Event] = deque()
        self._held = False

    def acquire(self, timeout: float) -> bool:
        with self._guard:
            if not self._held and not self._waiters:
                self._held = True
                return True
            turn = threading.Event()
            self._waiters.append(turn)
        if turn.wait(timeout):
            return True
        with self._guard:
            if turn.is_set():  # handed over just as the wait ended
                return True
            self._waiters.remove(turn)
            return False

    def release(self) -> None:
        with self._guard:
            if self._waiters:
                self._waiters.popleft().set()  # still held: now by the next writer
            else:
                self._held = False

    def locked(self) -> bool:
        with self._guard:
            return self._held


class ProcessLock(Protocol):
    def acquire(self) -> None: ...
    def release(self) -> None: ...


#: The process's queue of SQLite writers.
WRITE_QUEUE = FifoLock()

#: The lock shared with the server's other processes (``instance.processes``), else None.
PROCESS_LOCK: ProcessLock | None = None


def _enter() -> bool:
    """Take this process's queue, then (at its head) the processes' lock: whether queued."""
    if not WRITE_QUEUE.acquire(QUEUE_TIMEOUT):
        return False
    shared = PROCESS_LOCK
    if shared is not None:
        try:
            shared.acquire()
        except BaseException:
            WRITE_QUEUE.release()
            raise
    return True


def _leave() -> None:
    shared = PROCESS_LOCK
    try:
        if shared is not None:
            shared.release()
    finally:
        WRITE_QUEUE.release()


def _is_write(query: str) -> bool:
    return query.lstrip()[:7].upper().startswith(WRITE_VERBS)


class QueuedCursorWrapper(base.SQLiteCursorWrapper):
    """A write statement outside a transaction (autocommit) takes the queue for its run."""

    def execute(self, query: str, params: Any = None) -> Any:
        if self.connection.in_transaction or not _is_write(query):
            return super().execute(query, params)
        queued = _enter()
        try:
            return super().execute(query, params)
        finally:
            if queued:
                _leave()

    def executemany(self, query: str, param_list: Any) -> Any:
        if self.connection.in_transaction or not _is_write(query):
            return super().executemany(query, param_list)
        queued = _enter()
        try:
            return super().executemany(query, param_list)
        finally:
            if queued:
                _leave()


class DatabaseWrapper(base.DatabaseWrapper):
    """SQLite whose write transactions and autocommit writes queue in the process."""

    queued_write = False

    def create_cursor(self, name: str | None = None) -> Any:
        return self.connection.cursor(factory=QueuedCursorWrapper)

    def _start_transaction_under_autocommit(self) -> None:
        mode = getattr(self, "transaction_mode", None)  # Django's, not in the type stubs
        if mode in ("IMMEDIATE", "EXCLUSIVE") and not self.queued_write:
            self.queued_write = _enter()
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # not in stubs
        except BaseException:
            self._leave_queue()
            raise

    def _leave_queue(self) -> None:
        if self.queued_write:
            self.queued_write = False
            _leave()

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]  # not in the type stubs
        finally:
            self._leave_queue()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]  # not in the type stubs
        finally:
            self._leave_queue()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._leave_queue()

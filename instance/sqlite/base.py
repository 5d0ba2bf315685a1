"""Django's SQLite engine whose writers queue in the process, first come first served.

A club's instance (``duplitarot serve``) is one process: waitress' request threads and the
runner thread share one SQLite file in WAL mode, where one writer at a time holds the write
lock. SQLite makes the others wait with its busy handler, which polls: a waiting writer sleeps
1, 2, 5... then 100 ms between tries, so the lock stays idle after a commit while the waiters
sleep, and a newcomer (a 1 ms sleep) overtakes a writer that has waited for a second. Under a
room's burst of saves that is the slow tail of the latency (seconds), not the work.

Here a writer of this process first takes :data:`WRITE_QUEUE`, a FIFO lock handed directly from
one writer to the next: a write transaction (``BEGIN IMMEDIATE``, i.e. an ``atomic`` block of a
club's instance: the ``transaction_mode`` option) from its BEGIN to its COMMIT or ROLLBACK, and
a write statement run outside a transaction (autocommit) for that statement.

Only public interfaces are used: Django's ``create_cursor`` and ``get_new_connection`` of the
backend, Python's ``sqlite3.Connection`` (its ``factory``: ``commit``, ``rollback`` and
``close`` end a queued transaction) and its cursor's ``execute`` (the BEGIN of a write
transaction and the autocommit writes take the queue). Nothing of Django's private transaction
methods is overridden. Reads never take it (WAL: they never wait), nor
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

import sqlite3
import threading
from collections import deque
from typing import Any, Protocol

from django.db.backends.sqlite3 import base

WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "REPLACE")
BEGIN_WRITE = frozenset({"IMMEDIATE", "EXCLUSIVE"})
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


def _begins_write(query: str) -> bool:
    """``BEGIN IMMEDIATE`` or ``BEGIN EXCLUSIVE``: Django's BEGIN of a write transaction."""
    words = query.split(None, 2)
    return len(words) >= 2 and words[0].upper() == "BEGIN" and words[1].upper() in BEGIN_WRITE


class QueuedConnection(sqlite3.Connection):
    """Python's SQLite connection whose end of transaction (commit, rollback, close) leaves the
    queue its write transaction took (:class:`QueuedCursorWrapper`)."""

    queued_write = False

    def leave_queue(self) -> None:
        if self.queued_write:
            self.queued_write = False
            _leave()

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self.leave_queue()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self.leave_queue()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.leave_queue()


class QueuedCursorWrapper(base.SQLiteCursorWrapper):
    """The BEGIN of a write transaction takes the queue (until the connection's commit or
    rollback); a write statement outside a transaction (autocommit) takes it for its run."""

    def _queued(self) -> QueuedConnection | None:
        connection = self.connection
        return connection if isinstance(connection, QueuedConnection) else None

    def execute(self, query: str, params: Any = None) -> Any:
        connection = self._queued()
        if connection is None or connection.in_transaction:
            return super().execute(query, params)
        if _begins_write(query):
            if not connection.queued_write:
                connection.queued_write = _enter()
            try:
                return super().execute(query, params)
            except BaseException:
                connection.leave_queue()
                raise
        if not _is_write(query):
            return super().execute(query, params)
        queued = _enter()
        try:
            return super().execute(query, params)
        finally:
            if queued:
                _leave()

    def executemany(self, query: str, param_list: Any) -> Any:
        connection = self._queued()
        if connection is None or connection.in_transaction or not _is_write(query):
            return super().executemany(query, param_list)
        queued = _enter()
        try:
            return super().executemany(query, param_list)
        finally:
            if queued:
                _leave()


class DatabaseWrapper(base.DatabaseWrapper):
    """SQLite whose write transactions and autocommit writes queue in the process."""

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        return super().get_new_connection({**conn_params, "factory": QueuedConnection})

    def create_cursor(self, name: str | None = None) -> Any:
        return self.connection.cursor(factory=QueuedCursorWrapper)

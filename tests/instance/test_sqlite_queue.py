"""The instance's SQLite engine (``instance.sqlite``): writers of the process queue in order.

On a real file in WAL mode with immediate transactions, as a club's instance runs: threads that
write at once all succeed, the queue is handed from one writer to the next, and nothing is left
holding it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from django.db.utils import ConnectionHandler

from instance.sqlite.base import WRITE_QUEUE, FifoLock

THREADS = 8
WRITES = 10


def test_the_lock_is_granted_in_the_order_asked() -> None:
    lock = FifoLock()
    assert lock.acquire(1)
    order: list[int] = []
    threads = []
    for number in range(5):

        def take(number: int = number) -> None:
            assert lock.acquire(10)
            order.append(number)
            lock.release()

        thread = threading.Thread(target=take)
        thread.start()
        threads.append(thread)
        time.sleep(0.05)  # each asks after the previous one
    lock.release()
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2, 3, 4]
    assert not lock.locked()


def test_a_waiter_that_times_out_leaves_the_queue() -> None:
    lock = FifoLock()
    assert lock.acquire(1)
    assert not lock.acquire(0.05)
    lock.release()
    assert not lock.locked()
    assert lock.acquire(0.05)
    lock.release()


def test_writers_at_once_all_store_and_leave_the_queue_free(
    tmp_path: Path, django_db_blocker: Any
) -> None:
    with django_db_blocker.unblock():  # a database of this test's own, not the test database
        _writers_at_once(tmp_path)


def _writers_at_once(tmp_path: Path) -> None:
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "instance.sqlite",
                "NAME": str(tmp_path / "queued.sqlite3"),
                "OPTIONS": {
                    "timeout": 20,
                    "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                },
            }
        }
    )
    setup = handler["default"]
    with setup.cursor() as cursor:
        cursor.execute("CREATE TABLE row (writer INTEGER, number INTEGER)")
    setup.close()
    failures: list[BaseException] = []

    def write(writer: int) -> None:
        db = handler["default"]  # this thread's connection
        try:
            for number in range(WRITES):
                # a transaction, as an atomic block begins it (BEGIN IMMEDIATE)
                db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
                with db.cursor() as cursor:
                    cursor.execute("INSERT INTO row VALUES (%s, %s)", [writer, number])
                    cursor.execute("SELECT count(*) FROM row")
                db.commit()
                db.set_autocommit(True)
                with db.cursor() as cursor:  # a write in autocommit mode
                    cursor.execute("INSERT INTO row VALUES (%s, %s)", [writer, -number - 1])
        except BaseException as error:  # reported below
            failures.append(error)
        finally:
            db.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    check = handler["default"]
    with check.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM row")
        assert cursor.fetchone() == (THREADS * WRITES * 2,)
    check.close()
    assert not WRITE_QUEUE.locked()


def test_the_processes_writers_take_turns_without_sqlite_polling(
    tmp_path: Path, django_db_blocker: Any, monkeypatch: Any
) -> None:
    """Two processes of 4 writer threads each on one file, SQLite's own wait cut to 50 ms: with
    the processes' lock (``instance.processes``) every write succeeds (they wait in the lock,
    not in SQLite's busy handler)."""
    import os

    from instance import processes
    from instance.sqlite import base

    monkeypatch.setattr(base, "PROCESS_LOCK", processes.FlockWriterLock(tmp_path / "w.lock"))
    with django_db_blocker.unblock():
        handler = _handler(tmp_path, timeout=0.05)
        setup = handler["default"]
        with setup.cursor() as cursor:
            cursor.execute("CREATE TABLE row (writer INTEGER, number INTEGER)")
        setup.close()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = 0 if _write_from_threads(_handler(tmp_path, timeout=0.05), 100) == [] else 3
            finally:
                os._exit(code)
        failures = _write_from_threads(handler, 0, threads=4)
        _pid, status = os.waitpid(pid, 0)
        assert failures == []
        assert os.waitstatus_to_exitcode(status) == 0
        check = _handler(tmp_path, timeout=1)["default"]
        with check.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM row")
            assert cursor.fetchone() == (2 * 4 * WRITES * 2,)
        check.close()
    assert not WRITE_QUEUE.locked()


def _handler(tmp_path: Path, timeout: float) -> ConnectionHandler:
    return ConnectionHandler(
        {
            "default": {
                "ENGINE": "instance.sqlite",
                "NAME": str(tmp_path / "queued.sqlite3"),
                "OPTIONS": {
                    "timeout": timeout,
                    "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                },
            }
        }
    )


def _write_from_threads(
    handler: ConnectionHandler, first_writer: int, threads: int = 4
) -> list[BaseException]:
    failures: list[BaseException] = []

    def write(writer: int) -> None:
        db = handler["default"]
        try:
            for number in range(WRITES):
                db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
                with db.cursor() as cursor:
                    cursor.execute("INSERT INTO row VALUES (%s, %s)", [writer, number])
                    time.sleep(0.005)  # a transaction that takes a while
                db.commit()
                db.set_autocommit(True)
                with db.cursor() as cursor:
                    cursor.execute("INSERT INTO row VALUES (%s, %s)", [writer, -number - 1])
        except BaseException as error:
            failures.append(error)
        finally:
            db.close()

    workers = [threading.Thread(target=write, args=(first_writer + n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    return failures


def _held_handler(tmp_path: Path) -> ConnectionHandler:
    return ConnectionHandler(
        {
            "default": {
                "ENGINE": "instance.sqlite",
                "NAME": str(tmp_path / "held.sqlite3"),
                "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            }
        }
    )


def test_a_write_transaction_holds_the_queue_from_begin_to_commit_or_rollback(
    tmp_path: Path, django_db_blocker: Any
) -> None:
    """The queue is taken by the BEGIN IMMEDIATE of an atomic block and left by its commit, its
    rollback, or the connection's close; a read-only autocommit statement never takes it."""

    with django_db_blocker.unblock():
        db = _held_handler(tmp_path)["default"]
        with db.cursor() as cursor:
            cursor.execute("CREATE TABLE row (number INTEGER)")
            cursor.execute("SELECT count(*) FROM row")
        assert not WRITE_QUEUE.locked()
        with _atomic(db):
            assert WRITE_QUEUE.locked()  # from the BEGIN, before any write
            with db.cursor() as cursor:
                cursor.execute("INSERT INTO row VALUES (1)")
            assert WRITE_QUEUE.locked()
        assert not WRITE_QUEUE.locked()  # committed
        try:
            with _atomic(db):
                with db.cursor() as cursor:
                    cursor.execute("INSERT INTO row VALUES (2)")
                raise KeyError("rolled back")
        except KeyError:
            pass
        assert not WRITE_QUEUE.locked()  # rolled back
        db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        assert WRITE_QUEUE.locked()
        db.close()  # a connection closed in a transaction leaves the queue too
        assert not WRITE_QUEUE.locked()
        db = _held_handler(tmp_path)["default"]
        with db.cursor() as cursor:
            cursor.execute("SELECT number FROM row")
            assert cursor.fetchall() == [(1,)]
        db.close()


class _atomic:
    """An atomic block on a connection of this test's own handler (as ``transaction.atomic``
    does: BEGIN IMMEDIATE, then commit or rollback)."""

    def __init__(self, db: Any) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if kind is None:
            self.db.commit()
        else:
            self.db.rollback()
        self.db.set_autocommit(True)


def test_the_engine_overrides_no_private_method_of_django() -> None:
    """Only Django's public backend interface is overridden (``create_cursor``,
    ``get_new_connection``): a private method may change in any Django release."""
    from django.db.backends.sqlite3 import base as django_sqlite

    from instance.sqlite import base

    overridden = {
        name
        for cls, parent in (
            (base.DatabaseWrapper, django_sqlite.DatabaseWrapper),
            (base.QueuedCursorWrapper, django_sqlite.SQLiteCursorWrapper),
        )
        for name in vars(cls)
        if any(name in vars(ancestor) for ancestor in parent.__mro__)
    }
    assert {
        name for name in overridden if name.startswith("_") and not name.endswith("__")
    } == set()
    assert overridden - {"__module__", "__doc__", "__qualname__"} == {
        "create_cursor",
        "get_new_connection",
        "execute",
        "executemany",
    }

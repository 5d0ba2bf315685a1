"""The machine's faults that every part of the server meets: a full disk, an unreachable
database. The error pages (``config.errors``), the file cache (``config.cache``), the log and
the serve command of a club's instance read an exception with these, each answering its own way.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator

import psycopg
import psycopg.errors
from django import db

#: Exceptions that mean "the database cannot be reached right now".
DATABASE_UNAVAILABLE: tuple[type[BaseException], ...] = (
    db.OperationalError,
    db.InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)

#: What SQLite says when it cannot grow the database or its journal (``SQLITE_FULL``).
SQLITE_FULL = "database or disk is full"
#: The system's "no space left on device" and "disk quota exceeded".
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})


def chain(error: BaseException | None) -> Iterator[BaseException]:
    """The exception, then its causes and contexts (bounded: a chain may loop)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen and len(seen) < 20:
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__


def database_unavailable(error: BaseException | None) -> bool:
    """Whether ``error`` (or what caused it) says the database is unreachable."""
    return any(isinstance(link, DATABASE_UNAVAILABLE) for link in chain(error))


def disk_full(error: BaseException | None) -> bool:
    """Whether ``error`` (or what caused it) says the disk is full."""
    for link in chain(error):
        if isinstance(link, OSError) and link.errno in NO_SPACE:
            return True
        if isinstance(link, psycopg.errors.DiskFull):
            return True
        if isinstance(link, db.OperationalError | sqlite3.OperationalError) and (
            SQLITE_FULL in str(link)
        ):
            return True
    return False

"""Whether a database is duplitarot's, and written by a version this code can run on.

A database records the migrations applied to it (``django_migrations``). This code knows its
own (the migration files it carries, and the ones a squashed migration replaces):

- a database with an applied migration this code does not know was written by a **newer**
  version: its tables have columns this code does not fill, so every save would fail. ``serve``
  refuses to start on it, ``restore_backup`` refuses to put it back;
- a backup without a single applied migration of :data:`FIRST_APP` (the app every duplitarot
  database has had since its first version) is **another application's** database:
  ``restore_backup`` refuses it (its accounts would replace the club's).

A database of an earlier version has only migrations this code knows: the next ``serve``
applies the missing ones.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

#: The app whose migrations every duplitarot database has, from the first version on.
FIRST_APP = "tournaments"

Migration = tuple[str, str]


def known_migrations() -> frozenset[Migration]:
    """Every migration this code knows: its files, and those its squashed files replace."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    for migration in loader.disk_migrations.values():
        known.update(migration.replaces)
    return frozenset(known)


def unknown_migrations(applied: set[Migration]) -> list[str]:
    """The applied migrations this code does not know (``app.name``, sorted)."""
    return sorted(f"{app}.{name}" for app, name in applied - known_migrations())


def is_duplitarot(applied: set[Migration]) -> bool:
    return any(app == FIRST_APP for app, _name in applied)


def migration_plan() -> Sequence[tuple[object, bool]]:
    """The migrations the default database still needs, in order (none when up to date)."""
    executor = MigrationExecutor(connection)
    return executor.migration_plan(executor.loader.graph.leaf_nodes())


def applied_here() -> set[Migration]:
    """The migrations applied to the default database (none on a new database)."""
    return set(MigrationRecorder(connection).applied_migrations())


def applied_in(db: sqlite3.Connection) -> set[Migration]:
    """The migrations applied to an SQLite database (a backup) open in ``db``."""
    rows = db.execute("SELECT app, name FROM django_migrations").fetchall()
    return {(str(app), str(name)) for app, name in rows}


def sqlite_uri(path: Path) -> str:
    """A read-only URI for a database file nothing writes to (a backup): read as it is, without
    the ``-wal`` and ``-shm`` files SQLite would otherwise leave beside it (on a USB stick, a
    read-only medium), unless a ``-wal`` file is there already (then it holds part of it)."""
    wal = path.with_name(path.name + "-wal")
    return path.resolve().as_uri() + "?mode=ro" + ("" if wal.exists() else "&immutable=1")

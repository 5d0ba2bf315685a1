"""Backups of a club's instance (SQLite): consistent copies taken while it serves.

A backup is a complete SQLite database, taken with SQLite's online backup API (consistent even
while phones are saving: WAL readers never block the writers), written under a temporary name
and renamed when complete: ``duplitarot-YYYY-MM-DD_HH-MM-SS-<reason>.sqlite3`` in
``settings.DUPLITAROT_BACKUP_DIR`` (the data folder's ``backups`` by default; a USB stick or a
second disk is a better place). Taken:

- at every start of the server (``serve``), before anything is served;
- when a round, a party or a quarter closes and when a competition finishes
  (``clubs.signals.milestone``, on the runner thread: the request does not wait);
- on demand: ``duplitarot backup``.

The last ``settings.DUPLITAROT_BACKUP_KEEP`` are kept (only files named as above are ever
deleted). ``duplitarot restore_backup FILE`` puts one back (:func:`backup_restore`); it refuses
while a server serves from the data folder. PostgreSQL has no automatic backups here: its
procedure (``pg_dump`` / ``pg_restore``) is in docs/backups.md.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils.translation import gettext as _

from config import background
from instance import datadir, schema

logger = logging.getLogger(__name__)

PREFIX = datadir.BACKUP_PREFIX
SUFFIX = ".sqlite3"
_NAME = re.compile(r"^duplitarot-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d(?:-\d+)?-[a-z0-9-]+\.sqlite3$")
#: The tables every duplitarot database has (a file without them is no backup of ours).
REQUIRED_TABLES = frozenset({"django_migrations", "auth_user"})


class BackupError(Exception):
    """A backup could not be taken or restored; the message says why, in one line."""


def sqlite_database() -> Path | None:
    """The SQLite file of the default database, None on another engine (or in memory)."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] not in datadir.SQLITE_ENGINES:
        return None
    name = str(database["NAME"])
    if name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def backup_folder() -> Path | None:
    folder: Path | None = settings.DUPLITAROT_BACKUP_DIR
    return folder if folder is not None and sqlite_database() is not None else None


def backups_list(folder: Path | None = None) -> list[Path]:
    """The backups in ``folder`` (the configured one by default), oldest first."""
    folder = folder or backup_folder()
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if _NAME.match(p.name))


def _copy(source: Path, target: Path) -> None:
    """``source`` → ``target`` with the online backup API, in one step. The copy is one
    self-contained file (a rollback journal, not WAL): reading it later leaves no ``-wal`` or
    ``-shm`` file beside it."""
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30) as src:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    src.close()


def backup_create(*, reason: str, folder: Path | None = None) -> Path | None:
    """Take a backup now; returns its file, None when the instance keeps none (not SQLite, no
    backup folder). Raises :class:`BackupError` when it cannot be written."""
    folder = folder or backup_folder()
    database = sqlite_database()
    if folder is None or database is None:
        return None
    if not database.exists():
        return None
    reason = re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-") or "manual"
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{PREFIX}{stamp}-{reason}{SUFFIX}"
        counter = 1
        while target.exists():
            counter += 1
            target = folder / f"{PREFIX}{stamp}-{counter}-{reason}{SUFFIX}"
        partial = target.with_name(target.name + ".part")
        _copy(database, partial)
        partial.replace(target)
    except (OSError, sqlite3.Error) as error:
        raise BackupError(
            _("cannot write a backup into %(folder)s: %(error)s")
            % {"folder": folder, "error": error}
        ) from error
    _prune(folder)
    return target


def _prune(folder: Path) -> None:
    keep = int(settings.DUPLITAROT_BACKUP_KEEP)
    for old in backups_list(folder)[:-keep]:
        try:
            old.unlink()
        except OSError as error:
            logger.warning("could not delete the old backup %s: %s", old, error)


def _backup_logged(reason: str) -> None:
    try:
        backup_create(reason=reason)
    except BackupError as error:
        logger.error("backup (%s) failed: %s", reason, error)


def backup_request(*, reason: str) -> None:
    """Take a backup off the request (on the runner of a club's instance)."""
    if backup_folder() is None:
        return
    background.run(_backup_logged, reason)


def on_milestone(sender: Any, *, milestone: str, **kwargs: Any) -> None:
    """``clubs.signals.milestone`` receiver: a round, party or quarter closed, a competition
    finished."""
    backup_request(reason=milestone)


def backup_check(path: Path) -> None:
    """Raise :class:`BackupError` unless ``path`` is a sound duplitarot SQLite database that this
    version can run on (``instance.schema``): not another application's, not a newer version's.
    Reads it as it is, leaving nothing beside it."""
    if not path.is_file():
        raise BackupError(_("%(file)s: no such file.") % {"file": path})
    with path.open("rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            raise BackupError(_("%(file)s is not an SQLite database.") % {"file": path})
    try:
        with sqlite3.connect(schema.sqlite_uri(path), uri=True) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            check = db.execute("PRAGMA quick_check").fetchone()
            applied = schema.applied_in(db) if tables >= REQUIRED_TABLES else set()
        db.close()
    except sqlite3.Error as error:
        raise BackupError(
            _("%(file)s cannot be read: %(error)s") % {"file": path, "error": error}
        ) from error
    if not check or check[0] != "ok":
        raise BackupError(
            _("%(file)s is damaged (%(check)s).")
            % {"file": path, "check": check[0] if check else "no answer"}
        )
    if not tables >= REQUIRED_TABLES or not schema.is_duplitarot(applied):
        raise BackupError(
            _("%(file)s is another application's database, not a duplitarot backup.")
            % {"file": path}
        )
    unknown = schema.unknown_migrations(applied)
    if unknown:
        raise BackupError(
            _(
                "%(file)s was written by a newer version of duplitarot (its migration "
                "%(migration)s is unknown to this one): restore it with that version."
            )
            % {"file": path, "migration": unknown[0]}
        )


def backup_restore(path: Path) -> Path | None:
    """Replace the database by the backup ``path``; returns the backup taken of the database
    it replaced (None when there was none). The caller makes sure nothing serves."""
    database = sqlite_database()
    if database is None:
        raise BackupError(
            _(
                "restore_backup puts back the SQLite backups of a club's instance; this one "
                "uses another database (PostgreSQL: see docs/backups.md)."
            )
        )
    backup_check(path)
    if database.exists() and path.resolve() == database.resolve():
        raise BackupError(_("%(file)s is the database itself.") % {"file": path})
    before = None
    if database.exists():
        folder = backup_folder() or database.parent / "backups"
        before = backup_create(reason="before-restore", folder=folder)
    connections.close_all()
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(schema.sqlite_uri(path), uri=True) as src:
            dst = sqlite3.connect(database, timeout=30)
            try:
                src.backup(dst)
            finally:
                dst.close()
        src.close()
    except (OSError, sqlite3.Error) as error:
        raise BackupError(
            _("cannot restore into %(database)s: %(error)s")
            % {"database": database, "error": error}
        ) from error
    return before

"""Backups of a club's instance (SQLite): consistent copies taken while it serves.

A backup is a complete SQLite database, taken with SQLite's online backup API (consistent even
while phones are saving: WAL readers never block the writers), written under a temporary name
and renamed when complete: ``duplitarot-YYYY-MM-DDTHH-MM-SSZ-<reason>.sqlite3`` in
``settings.DUPLITAROT_BACKUP_DIR`` (the data folder's ``backups`` by default; a USB stick or a
second disk is a better place). The time in the name is UTC, so that names sort in time order
whatever the laptop's time zone and across a change to or from summer time; the names an
earlier version wrote (``YYYY-MM-DD_HH-MM-SS``, local time) are still read. Taken:

- at every start of the server (``serve``), before anything is served (``start``);
- each time every table of a running event has finished a position (``position-N``: the
  tables move on by themselves, nobody closes the round), when a round, a party or a quarter
  closes and when a competition finishes (``clubs.signals.milestone``); and at most every
  ``settings.DUPLITAROT_BACKUP_EVERY`` seconds (10 minutes) while results keep arriving
  (``periodic``; never when nothing changed since the last backup): :class:`BackupSchedule`,
  on the runner thread (the requests never wait for a backup);
- on demand: ``duplitarot backup`` (``manual``).

What is kept (:func:`prune`, after each backup): every *milestone* backup (start, position,
close, finish) of the last ``settings.DUPLITAROT_BACKUP_EVENINGS`` evenings (10), the last
``settings.DUPLITAROT_BACKUP_KEEP`` others (20: periodic, manual, before a restore), and every
backup of the current evening whatever its kind. An evening runs from 06:00 to 06:00 the next
morning, local time. Only files named as above are ever deleted.

``duplitarot restore_backup FILE`` puts one back (:func:`backup_restore`); it refuses while a
server serves from the data folder. PostgreSQL has no automatic backups here: its procedure
(``pg_dump`` / ``pg_restore``) is in docs/backups.md.
"""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils import timezone
from django.utils.translation import gettext as _

from instance import datadir, instance_state, schema
from instance.selectors import positions_finished, results_fingerprint
from runner import background

logger = logging.getLogger(__name__)

PREFIX = datadir.BACKUP_PREFIX
SUFFIX = ".sqlite3"
#: The time in a backup's name: UTC (``Z``); without the ``Z``, local time (earlier versions).
STAMP_UTC = "%Y-%m-%dT%H-%M-%SZ"
_STAMP_LOCAL = "%Y-%m-%d_%H-%M-%S"
_NAME = re.compile(
    r"^duplitarot-(?P<stamp>\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ|\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d)"
    r"(?:-(?P<counter>\d+))?-(?P<reason>[a-z][a-z0-9-]*)\.sqlite3$"
)
#: The reasons of the backups kept for the last evenings (a position finished: ``position-N``).
MILESTONES = frozenset({"start", "finished", "round-closed", "party-closed", "quarter-closed"})
#: An evening runs from this hour (local time) to the same hour the next morning.
EVENING_STARTS = timedelta(hours=6)
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


@dataclass(frozen=True)
class Backup:
    """A backup file, read from its name: when it was taken and why."""

    path: Path
    taken_at: datetime  # aware
    reason: str
    counter: int = 1  # the second of the same second is ``-2``...

    @property
    def milestone(self) -> bool:
        """A start, a position finished, a close or a finish (kept for the last evenings)."""
        return self.reason in MILESTONES or self.reason.startswith("position")

    @property
    def evening(self) -> date:
        return evening_of(self.taken_at)


def evening_of(instant: datetime) -> date:
    """The evening ``instant`` belongs to: its local date, the night's early hours counting
    with the evening before (:data:`EVENING_STARTS`)."""
    return (timezone.localtime(instant) - EVENING_STARTS).date()


def backup_named(path: Path) -> Backup | None:
    """The backup ``path`` is, by its name; None when it is not named as a backup."""
    found = _NAME.match(path.name)
    if found is None:
        return None
    stamp = found["stamp"]
    try:
        if stamp.endswith("Z"):
            taken_at = datetime.strptime(stamp, STAMP_UTC).replace(tzinfo=UTC)
        else:  # an earlier version's name: the server's local time
            taken_at = timezone.make_aware(datetime.strptime(stamp, _STAMP_LOCAL))
    except ValueError:  # 2026-02-30, or a local time that does not exist
        return None
    counter = int(found["counter"] or 1)
    return Backup(path=path, taken_at=taken_at, reason=found["reason"], counter=counter)


def backups_found(folder: Path | None = None) -> list[Backup]:
    """The backups in ``folder`` (the configured one by default), oldest first."""
    folder = folder or backup_folder()
    if folder is None or not folder.is_dir():
        return []
    found = (backup_named(path) for path in folder.iterdir())
    return sorted(
        (backup for backup in found if backup is not None),
        key=lambda backup: (backup.taken_at, backup.counter),
    )


def backups_list(folder: Path | None = None) -> list[Path]:
    """The backup files in ``folder`` (the configured one by default), oldest first."""
    return [backup.path for backup in backups_found(folder)]


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
    if not reason[0].isalpha():
        reason = f"r-{reason}"
    stamp = timezone.now().astimezone(UTC).strftime(STAMP_UTC)
    # A second backup within the same second: ``-2``, ``-3``... whatever their reasons.
    counter = 1 + sum(1 for _path in folder.glob(f"{PREFIX}{stamp}-*{SUFFIX}"))
    target = folder / f"{PREFIX}{stamp}-{f'{counter}-' if counter > 1 else ''}{reason}{SUFFIX}"
    while target.exists():  # a name taken otherwise (a file copied in)
        counter += 1
        target = folder / f"{PREFIX}{stamp}-{counter}-{reason}{SUFFIX}"
    partial = target.with_name(target.name + ".part")
    try:
        # The folder itself, never its parents: a USB stick pulled out leaves no mount point,
        # and the backups must not go silently to the laptop's own disk instead.
        folder.mkdir(exist_ok=True)
        _copy(database, partial)
        partial.replace(target)
    except (OSError, sqlite3.Error) as error:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)  # a full disk keeps no half-written copy
        raise BackupError(
            _("cannot write a backup into %(folder)s: %(error)s")
            % {"folder": folder, "error": error}
        ) from error
    prune(folder)
    return target


def backups_to_delete(found: list[Backup], now: datetime) -> list[Backup]:
    """Of ``found`` (oldest first), those :func:`prune` deletes at ``now``: all but the
    milestones of the last evenings, the last others and the whole current evening."""
    evenings = sorted({backup.evening for backup in found if backup.milestone}, reverse=True)
    kept_evenings = set(evenings[: int(settings.DUPLITAROT_BACKUP_EVENINGS)])
    others = [backup for backup in found if not backup.milestone]
    kept_others = set(others[-int(settings.DUPLITAROT_BACKUP_KEEP) :])
    tonight = evening_of(now)
    return [
        backup
        for backup in found
        if backup.evening != tonight
        and backup not in kept_others
        and not (backup.milestone and backup.evening in kept_evenings)
    ]


def prune(folder: Path) -> None:
    """Delete the backups the rule of the module no longer keeps (only backups' names)."""
    for old in backups_to_delete(backups_found(folder), timezone.now()):
        try:
            old.path.unlink()
        except OSError as error:
            logger.warning("could not delete the old backup %s: %s", old.path, error)


def _failure_noted(error: BackupError | None) -> None:
    """Remember the backup that could not be written (None: one was), for the status box."""
    data_dir: Path | None = settings.DATA_DIR
    if data_dir is None:
        return

    def change(state: dict[str, Any]) -> None:
        if error is None:
            state.pop("backup_failure", None)
        else:
            state["backup_failure"] = {"at": timezone.now().isoformat(), "error": str(error)}

    instance_state.update(data_dir, change)


def backup_logged(reason: str) -> Path | None:
    """Take a backup, for the runner: a failure is logged (and kept for the status box), not
    raised; the schedule counts it as the last backup."""
    fingerprint = results_fingerprint()  # before the copy: what arrives meanwhile is new
    try:
        path = backup_create(reason=reason)
    except BackupError as error:
        logger.error("backup (%s) failed: %s", reason, error)
        _failure_noted(error)
        path = None
    else:
        _failure_noted(None)
    schedule.taken(fingerprint)
    return path


class BackupSchedule:
    """When the runner backs the evening up by itself (see the module): :meth:`tick`, every
    :func:`tick_seconds`, takes a ``position-N`` backup when a running event's position N has
    just finished at every table, else a ``periodic`` one when results changed since the last
    backup and that backup is ``settings.DUPLITAROT_BACKUP_EVERY`` seconds old.

    It lives in the process of the runner (one per server). Its first look after the start
    only takes note: what was finished and entered then is in the start's backup."""

    def __init__(self) -> None:
        self.clock = timezone.now
        self._lock = threading.Lock()
        self._finished: set[tuple[int, int]] | None = None  # positions known finished
        self._seen: tuple[object, ...] | None = None  # the results at the last look
        self._backed_up: tuple[object, ...] | None = None  # the results at the last backup
        self._last_at: datetime | None = None  # when the last backup was taken (or tried)

    def taken(self, fingerprint: tuple[object, ...]) -> None:
        """A backup was taken (or tried) with the results ``fingerprint`` read before it."""
        with self._lock:
            self._backed_up = fingerprint
            self._last_at = self.clock()

    def tick(self) -> str | None:
        """Look once; returns the reason of the backup taken, None when none was due."""
        now = self.clock()
        fingerprint = results_fingerprint()
        with self._lock:
            if self._finished is None or self._last_at is None:
                self._finished = positions_finished()
                self._seen = self._backed_up = fingerprint
                self._last_at = now
                return None
            changed = fingerprint != self._seen
            self._seen = fingerprint
            new = (positions_finished() - self._finished) if changed else set()
            self._finished |= new
            every = timedelta(seconds=float(settings.DUPLITAROT_BACKUP_EVERY))
            reason = None
            if new:
                reason = f"position-{max(number for _event, number in new)}"
            elif fingerprint != self._backed_up and now - self._last_at >= every:
                reason = "periodic"
        if reason is not None:
            backup_logged(reason)
        return reason


#: The runner's schedule (``serve`` has it look every :func:`tick_seconds`).
schedule = BackupSchedule()


def tick_seconds() -> float:
    """How often the schedule looks: every 15 s, more often when the period is shorter."""
    return max(1.0, min(15.0, float(settings.DUPLITAROT_BACKUP_EVERY) / 2))


def backup_tick() -> None:
    """The runner's periodic work (``serve``)."""
    if backup_folder() is not None:
        schedule.tick()


def backup_request(*, reason: str) -> None:
    """Take a backup off the request (on the runner of a club's instance)."""
    if backup_folder() is None:
        return
    background.run(backup_logged, reason)


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

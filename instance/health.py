"""What a club's instance says in the director's status box (``clubs.status``).

Only an instance with a data folder (``duplitarot serve``) has lines; a hosted server has none
and shows no box (its operator watches the machine). The lines, registered as sources of the
box by ``instance.apps``:

- **a serving process died** (:func:`process_lines`): ``serve`` records its start and, from its
  first process, every other serving process that stops on its own (:func:`serving_started`,
  :func:`process_died`, in ``instance_state``) and the one that replaced it; one that kept
  dying is not replaced, the others serve on, and the box says so until the next start;
- **the disk is full** (:func:`disk_lines`): the free space of the data folder's disk, read at
  each look (under :data:`DISK_FULL_BYTES` the database can no longer be written; under
  :data:`DISK_LOW_BYTES`, a warning);
- **the last backup** (:func:`backup_lines`): when and where the last one was taken, and
  plainly when the backup folder is gone (a USB stick pulled out) or full, or the last backup
  failed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from clubs.status import StatusLine
from instance import backups, datadir, instance_state

#: Below this, the disk is full: SQLite cannot grow the database or its journal any more.
DISK_FULL_BYTES = 64 * 1024 * 1024
#: Below this, the disk is nearly full (a warning).
DISK_LOW_BYTES = 512 * 1024 * 1024
#: The room a backup needs beside the database's own size.
BACKUP_MARGIN_BYTES = 8 * 1024 * 1024


def _data_dir() -> Path | None:
    folder: Path | None = settings.DATA_DIR
    return folder


def _when(instant: datetime) -> str:
    """When it happened, local time: "at 21:42" today, "on 27 November at 21:42" before."""
    local = timezone.localtime(instant)
    if local.date() == timezone.localdate():
        return formats.date_format(local, pgettext("status box time", r"\a\t H:i"))
    return formats.date_format(local, pgettext("status box date", r"\o\n j F \a\t H:i"))


def _size(count: int) -> str:
    """A size in megabytes, as the director reads it ("12 MB")."""
    return _("%(size)s MB") % {"size": formats.number_format(round(count / 1024 / 1024))}


# ----------------------------------------------------------------------- serving processes


def serving_started(*, processes: int) -> None:
    """``serve`` starts: a new record of its processes (the dead of the last run forgotten)."""
    data_dir = _data_dir()
    if data_dir is None:
        return

    def change(state: dict[str, Any]) -> None:
        state["serving"] = {
            "started_at": timezone.now().isoformat(),
            "processes": processes,
            "dead": [],
        }

    instance_state.update(data_dir, change)


def process_died(*, pid: int, status: int, replacement: int | None = None) -> None:
    """A serving process other than the first stopped on its own, with the wait ``status``
    ``os.waitpid`` gave; ``replacement``: the pid of the one that serves in its place (None:
    not replaced)."""
    data_dir = _data_dir()
    if data_dir is None:
        return

    def change(state: dict[str, Any]) -> None:
        serving = state.setdefault("serving", {})
        dead = serving.setdefault("dead", [])
        dead.append(
            {
                "pid": pid,
                "status": status,
                "at": timezone.now().isoformat(),
                "replacement": replacement,
            }
        )
        del dead[:-10]  # bounded: the box names the last ones

    instance_state.update(data_dir, change)


def how_it_ended(status: int) -> str:
    """ "killed by signal 9", "exit code 1": a process's end, from its wait status."""
    if os.WIFSIGNALED(status):
        return _("killed by signal %(signal)s") % {"signal": os.WTERMSIG(status)}
    return _("exit code %(code)s") % {"code": os.waitstatus_to_exitcode(status)}


def process_lines() -> list[StatusLine]:
    data_dir = _data_dir()
    if data_dir is None:
        return []
    serving = instance_state.read(data_dir).get("serving")
    if not isinstance(serving, dict):
        return []
    lines = []
    dead = [entry for entry in serving.get("dead") or [] if isinstance(entry, dict)]
    gone = [entry for entry in dead if not entry.get("replacement")]
    alive = max(1, int(serving.get("processes") or 1) - len(gone))
    for entry in dead:
        at = parse_datetime(str(entry.get("at") or ""))
        values = {
            "pid": entry.get("pid"),
            "when": _when(at) if at else "?",
            "how": how_it_ended(int(entry.get("status") or 0)),
            "alive": alive,
            "replacement": entry.get("replacement"),
        }
        if entry.get("replacement"):
            text = (
                _(
                    "A serving process of duplitarot (number %(pid)s) stopped %(when)s "
                    "(%(how)s). Another one (number %(replacement)s) took its place."
                )
                % values
            )
            lines.append(StatusLine("warning", "process", text))
            continue
        text = (
            ngettext(
                "A serving process of duplitarot (number %(pid)s) stopped %(when)s (%(how)s). "
                "The server goes on with %(alive)s process, more slowly: restart duplitarot "
                "(Ctrl+C in its window, then serve again) when the evening allows.",
                "A serving process of duplitarot (number %(pid)s) stopped %(when)s (%(how)s). "
                "The server goes on with %(alive)s processes, more slowly: restart duplitarot "
                "(Ctrl+C in its window, then serve again) when the evening allows.",
                alive,
            )
            % values
        )
        lines.append(StatusLine("error", "process", text))
    return lines


# ---------------------------------------------------------------------------------- disk


def disk_full_text(free: int, folder: Path) -> str:
    """The disk-full sentence, the same in the status box and the terminal."""
    return _(
        "The disk is full (%(free)s free for %(folder)s): results can no longer be saved. "
        "Free some space on this computer now (empty the recycle bin, delete large files); "
        "the phones keep their entries meanwhile and send them again."
    ) % {"free": _size(free), "folder": folder}


def disk_lines() -> list[StatusLine]:
    data_dir = _data_dir()
    if data_dir is None:
        return []
    try:
        free = shutil.disk_usage(data_dir).free
    except OSError:
        return []
    if free < DISK_FULL_BYTES:
        return [StatusLine("error", "disk", disk_full_text(free, data_dir))]
    if free < DISK_LOW_BYTES:
        text = _(
            "The disk is nearly full: %(free)s free for %(folder)s. Free some space on this "
            "computer before the disk is full."
        ) % {"free": _size(free), "folder": data_dir}
        return [StatusLine("warning", "disk", text)]
    return []


# ------------------------------------------------------------------------------- backups

#: What each reason of a backup's name means, for the box.
_REASONS = {
    "start": lambda: _("at the server's start"),
    "finished": lambda: _("a competition finished"),
    "round-closed": lambda: _("a round closed"),
    "party-closed": lambda: _("a party closed"),
    "quarter-closed": lambda: _("a quarter closed"),
    "periodic": lambda: _("results entered since the last one"),
    "manual": lambda: _("on demand"),
    "before-restore": lambda: _("before a restore"),
}


def _reason_text(reason: str) -> str:
    if reason.startswith("position-") and reason[9:].isdigit():
        return _("position %(number)s finished at every table") % {"number": reason[9:]}
    words = _REASONS.get(reason)
    return words() if words is not None else reason


def backup_lines() -> list[StatusLine]:
    data_dir = _data_dir()
    folder = backups.backup_folder()
    if data_dir is None or folder is None:
        return []
    found = backups.backups_found(folder)
    last = found[-1] if found else None
    lines = []
    failure = instance_state.read(data_dir).get("backup_failure")
    if isinstance(failure, dict):
        failed_at = parse_datetime(str(failure.get("at") or ""))
        if failed_at is not None and (last is None or failed_at > last.taken_at):
            text = _("The last backup failed %(when)s: %(error)s") % {
                "when": _when(failed_at),
                "error": str(failure.get("error") or ""),
            }
            lines.append(StatusLine("error", "backup", text))
    if not folder.is_dir():
        # The data folder's own is made at the first backup; any other folder that is not
        # there is a disk or a USB stick that is no longer there.
        if folder != data_dir / datadir.BACKUPS_DIR:
            text = _(
                "The backup folder %(folder)s is gone (a USB stick pulled out?): no backup can "
                "be taken. Put the stick or the disk back; the next backup will go there."
            ) % {"folder": folder}
            return [StatusLine("error", "backup", text)]
        return [*lines, StatusLine("info", "backup", _("No backup yet."))]
    needed = _database_size() + BACKUP_MARGIN_BYTES
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = needed
    if free < needed:
        text = _(
            "The backup folder %(folder)s is full (%(free)s free, a backup takes %(size)s): the "
            "next backups will fail. Free some space there, or change the USB stick."
        ) % {"folder": folder, "free": _size(free), "size": _size(needed)}
        lines.append(StatusLine("error", "backup", text))
    if last is None:
        text = _("No backup yet, in %(folder)s.") % {"folder": folder}
    else:
        text = _("Last backup %(when)s (%(reason)s), in %(folder)s.") % {
            "when": _when(last.taken_at),
            "reason": _reason_text(last.reason),
            "folder": folder,
        }
    lines.append(StatusLine("info", "backup", text))
    return lines


def _database_size() -> int:
    database = backups.sqlite_database()
    try:
        return os.stat(database).st_size if database is not None else 0
    except OSError:
        return 0


def sources() -> Iterable[Any]:
    """The status box's sources of a club's instance, in the order the box lists them."""
    return (process_lines, disk_lines, backup_lines)

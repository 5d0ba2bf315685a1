"""Nothing in the data folder or the backup folder can be read by another account of the
computer: the database holds the organisers' sessions (another account read them and opened
``/admin/`` as the superuser). Checked after a whole evening on a folder an earlier version
made readable (755 and 644 under the usual umask): the start, a backup during the evening, the
database's ``-wal`` and ``-shm`` while it serves, a restore with its ``-before-restore`` copy.
As root (these tests' machine), every file is tried as the ``nobody`` account."""

from __future__ import annotations

import gzip
import json
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.instance.serving import clean_environment, run_command, serve

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("services"),
    pytest.mark.skipif(
        os.name != "posix" or os.geteuid() != 0,
        reason="tries the files as another account: needs root on a POSIX system",
    ),
]

CONTINUITY = Path(__file__).resolve().parents[1] / "data" / "continuity"
#: What another account runs to try the files (the suite's Python is under root's home).
SYSTEM_PYTHON = "/usr/bin/python3"

PROBE = r"""
import json, os, sys
reached = []
for path in json.load(sys.stdin):
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            with open(path, "rb") as handle:
                handle.read(1)
    except OSError:
        continue
    reached.append(path)
print(json.dumps(reached))
"""


def _everything(folder: Path) -> list[Path]:
    """The folder and all it holds (links not followed)."""
    found = [folder]
    for root, folders, files in os.walk(folder):
        found += [Path(root, name) for name in folders + files]
    return found


def _opened_as_nobody(paths: list[Path]) -> list[str]:
    """The paths the ``nobody`` account can read (a file) or list (a folder)."""
    nobody = pwd.getpwnam("nobody")
    done = subprocess.run(
        [SYSTEM_PYTHON, "-c", PROBE],
        input=json.dumps([str(p) for p in paths]),
        user=nobody.pw_uid,
        group=nobody.pw_gid,
        extra_groups=[],
        cwd="/",
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return list(json.loads(done.stdout))


def _open_to_others(paths: list[Path]) -> list[str]:
    """The paths whose mode lets the group or the others in."""
    found = []
    for path in paths:
        mode = path.lstat().st_mode
        if not stat.S_ISLNK(mode) and mode & 0o077:
            found.append(f"{path} {stat.filemode(mode)}")
    return found


def _assert_private(base: Path, data: Path, usb: Path) -> None:
    inside = [*_everything(data), *_everything(usb)[1:]]
    assert _open_to_others(inside) == []
    # The probe works: the test's own folder (755) is open to another account.
    assert _opened_as_nobody([base, *inside]) == [str(base)]


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The usual umask (022) around the commands, as on a laptop."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _copy(source: Path, target: Path, mode: int) -> None:
    with gzip.open(source, "rb") as data, target.open("wb") as out:
        shutil.copyfileobj(data, out)
    target.chmod(mode)


@pytest.mark.usefixtures("usual_umask")
def test_after_an_evening_another_account_reads_nothing(tmp_path: Path) -> None:
    base = Path(tempfile.mkdtemp(prefix="duplitarot-modes-", dir="/tmp"))
    try:
        base.chmod(0o755)
        data, usb = base / "club", base / "usb"
        # A data folder of an earlier version, as it left it: readable by everybody.
        old_database = CONTINUITY / "demo-00a2a26.sqlite3.gz"
        for folder in (data, data / "backups", data / "static", usb):
            folder.mkdir(mode=0o755)
            folder.chmod(0o755)
        _copy(old_database, data / "duplitarot.sqlite3", 0o644)
        _copy(
            old_database, data / "backups" / "duplitarot-2025-03-14_22-41-07-start.sqlite3", 0o644
        )
        _copy(old_database, usb / "duplitarot-2025-03-14_23-50-02-finished.sqlite3", 0o644)
        (data / "static" / "app.css").write_text("body {}")
        (data / "static" / "app.css").chmod(0o644)
        (data / "instance.json").write_text("{}")
        (data / "instance.json").chmod(0o644)
        assert _open_to_others([data]) != []

        env = clean_environment(DUPLITAROT_BACKUP_DIR=str(usb))
        served = serve(data, env=env)
        try:
            # During the evening: a backup, and the database's -wal and -shm beside it.
            during = run_command(data, "backup", env=env)
            assert during.returncode == 0, during.stderr[-3000:]
            status, _headers, _page = served.get("/")
            assert status == 200
            assert (data / "duplitarot.sqlite3-wal").exists()
            assert (data / "duplitarot.sqlite3-shm").exists()
            _assert_private(base, data, usb)
        finally:
            assert served.stop() == 0
        start = next(usb.glob("duplitarot-*-start.sqlite3"))
        restored = run_command(data, "restore_backup", str(start), env=env)
        assert restored.returncode == 0, restored.stderr[-3000:]
        for reason in ("start", "manual", "before-restore"):
            assert list(usb.glob(f"duplitarot-*-{reason}.sqlite3")), reason
        _assert_private(base, data, usb)
    finally:
        shutil.rmtree(base)

"""Backups of a club's instance: consistent SQLite copies, the last N kept, restore refusing
while the server serves or a file that is not a duplitarot database."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from filelock import FileLock

from clubs.signals import milestone
from instance import backups, schema


def _database(path: Path, marker: str, migrations: Iterable[tuple[str, str]] | None = None) -> Path:
    """A small SQLite database shaped like duplitarot's (the tables a restore checks), with
    ``migrations`` applied (by default every migration of this code: the current version)."""
    applied = sorted(schema.known_migrations()) if migrations is None else list(migrations)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(
            "CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT, name TEXT, "
            "applied TEXT)"
        )
        db.executemany(
            "INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, '2026-01-01')",
            applied,
        )
        db.execute("CREATE TABLE auth_user (id INTEGER PRIMARY KEY, username TEXT)")
        db.execute("INSERT INTO auth_user (username) VALUES (?)", [marker])
    db.close()
    return path


def _marker(path: Path) -> str:
    with sqlite3.connect(path) as db:
        value = db.execute("SELECT username FROM auth_user").fetchone()[0]
    db.close()
    return str(value)


@pytest.fixture
def instance_files(tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An instance's database file and backup folder (the test database stays in memory)."""
    database = _database(tmp_path / "duplitarot.sqlite3", "live")
    monkeypatch.setattr(backups, "sqlite_database", lambda: database)
    settings.DUPLITAROT_BACKUP_DIR = tmp_path / "backups"
    settings.DUPLITAROT_BACKUP_KEEP = 3
    settings.DUPLITAROT_SERVE_LOCK = tmp_path / "serve.lock"
    settings.DATA_DIR = tmp_path
    return database


def test_a_backup_is_a_complete_consistent_copy(instance_files: Path) -> None:
    # An open write transaction elsewhere (WAL) does not stop it, nor appear in it.
    writer = sqlite3.connect(instance_files)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE auth_user SET username = 'uncommitted'")
    try:
        path = backups.backup_create(reason="round-closed")
    finally:
        writer.rollback()
        writer.close()
    assert path is not None and path.parent == instance_files.parent / "backups"
    assert path.name.startswith("duplitarot-") and path.name.endswith("-round-closed.sqlite3")
    assert _marker(path) == "live"
    backups.backup_check(path)
    assert not list(path.parent.glob("*.part"))


def test_only_the_last_backups_are_kept(instance_files: Path) -> None:
    stranger = instance_files.parent / "backups" / "my-notes.txt"
    stranger.parent.mkdir()
    stranger.write_text("keep me")
    made = [backups.backup_create(reason=f"r{n}") for n in range(5)]
    kept = backups.backups_list()
    assert kept == made[-3:]
    assert stranger.exists()


def test_a_backup_folder_that_cannot_be_written_is_a_clear_error(
    instance_files: Path, settings: Any
) -> None:
    blocker = instance_files.parent / "not-a-folder"
    blocker.write_text("")
    settings.DUPLITAROT_BACKUP_DIR = blocker
    with pytest.raises(backups.BackupError, match="cannot write a backup"):
        backups.backup_create(reason="start")
    with pytest.raises(CommandError) as refused:
        call_command("backup")
    assert refused.value.returncode == 2


def test_no_backups_without_a_backup_folder(settings: Any) -> None:
    settings.DUPLITAROT_BACKUP_DIR = None
    assert backups.backup_create(reason="start") is None
    with pytest.raises(CommandError) as refused:
        call_command("backup")
    assert refused.value.returncode == 2


@pytest.mark.django_db(transaction=True)
def test_a_milestone_takes_a_backup(instance_files: Path) -> None:
    milestone.send(sender=object, milestone="finished", competition_id=1)
    assert [p.name.endswith("-finished.sqlite3") for p in backups.backups_list()] == [True]


def test_restore_puts_a_backup_back_and_keeps_what_it_replaced(
    instance_files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = _database(tmp_path / "older.sqlite3", "older")
    call_command("restore_backup", str(older))
    assert _marker(instance_files) == "older"
    replaced = [p for p in backups.backups_list() if p.name.endswith("-before-restore.sqlite3")]
    assert len(replaced) == 1 and _marker(replaced[0]) == "live"
    assert "Restored" in capsys.readouterr().out


def test_restore_refuses_while_the_server_serves(instance_files: Path, tmp_path: Path) -> None:
    older = _database(tmp_path / "older.sqlite3", "older")
    with (
        FileLock(str(tmp_path / "serve.lock")),
        pytest.raises(CommandError, match="serving") as refused,
    ):
        call_command("restore_backup", str(older))
    assert refused.value.returncode == 2
    assert _marker(instance_files) == "live"


@pytest.mark.parametrize("content", [b"", b"hello, not a database", b"SQLite format 3\x00junk"])
def test_restore_refuses_what_is_not_a_duplitarot_database(
    instance_files: Path, tmp_path: Path, content: bytes
) -> None:
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(content)
    with pytest.raises(CommandError) as refused:
        call_command("restore_backup", str(bogus))
    assert refused.value.returncode == 2
    with pytest.raises(CommandError):
        call_command("restore_backup", str(tmp_path / "missing.sqlite3"))
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    with pytest.raises(CommandError, match="another application's database"):
        call_command("restore_backup", str(other))
    assert _marker(instance_files) == "live"
    assert backups.backups_list() == []


def test_restore_refuses_another_applications_database(
    instance_files: Path, tmp_path: Path
) -> None:
    """A Django application's database has the two tables too: its superuser would become the
    only account. Refused, nothing changed, no backup taken."""
    foreign = _database(
        tmp_path / "blog.sqlite3",
        "intruder",
        [
            ("contenttypes", "0001_initial"),
            ("auth", "0001_initial"),
            ("admin", "0001_initial"),
            ("sessions", "0001_initial"),
            ("blog", "0001_initial"),
        ],
    )
    with pytest.raises(CommandError, match="another application's database") as refused:
        call_command("restore_backup", str(foreign))
    assert refused.value.returncode == 2 and "\n" not in str(refused.value)
    assert _marker(instance_files) == "live"
    assert backups.backups_list() == []


def test_restore_refuses_a_backup_of_a_newer_version(instance_files: Path, tmp_path: Path) -> None:
    newer = _database(
        tmp_path / "newer.sqlite3",
        "newer",
        [*sorted(schema.known_migrations()), ("clubs", "9999_from_a_newer_version")],
    )
    with pytest.raises(CommandError, match="newer version of duplitarot") as refused:
        call_command("restore_backup", str(newer))
    assert refused.value.returncode == 2 and "clubs.9999_from_a_newer_version" in str(refused.value)
    assert _marker(instance_files) == "live"
    assert backups.backups_list() == []


def test_an_earlier_versions_backup_is_restored(instance_files: Path, tmp_path: Path) -> None:
    """Only migrations this code knows, some missing: the next start applies them."""
    earlier = _database(
        tmp_path / "earlier.sqlite3",
        "earlier",
        [("tournaments", "0001_initial"), ("auth", "0001_initial")],
    )
    call_command("restore_backup", str(earlier))
    assert _marker(instance_files) == "earlier"


def test_a_restore_leaves_nothing_beside_the_backup_it_reads(
    instance_files: Path, tmp_path: Path
) -> None:
    """The backups on a USB stick, one taken now and one of an earlier version (in WAL mode):
    no ``-wal`` or ``-shm`` left beside them."""
    stick = tmp_path / "usb"
    stick.mkdir()
    older = _database(stick / "duplitarot-2025-03-14_22-41-07-start.sqlite3", "older")
    backup = backups.backup_create(reason="manual", folder=stick)
    assert backup is not None
    names = sorted(p.name for p in stick.iterdir())
    assert names == sorted([older.name, backup.name])
    call_command("restore_backup", str(backup))
    call_command("restore_backup", str(older))
    assert _marker(instance_files) == "older"
    assert sorted(p.name for p in stick.iterdir()) == names

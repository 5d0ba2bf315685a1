"""Backups of a club's instance: consistent SQLite copies, the last N kept, restore refusing
while the server serves or a file that is not a duplitarot database."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.management import CommandError, call_command
from filelock import FileLock

from clubs.signals import milestone
from instance import backups, schema
from tests.builders import random_outcome, running_event
from tournaments import services
from tournaments.models import Table


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


def test_only_the_last_backups_are_kept(
    instance_files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stranger = instance_files.parent / "backups" / "my-notes.txt"
    stranger.parent.mkdir()
    stranger.write_text("keep me")
    _at(monkeypatch, datetime(2026, 11, 20, 20, 0, tzinfo=UTC))  # last week
    made = [backups.backup_create(reason=f"r{n}") for n in range(5)]
    assert backups.backups_list() == made  # tonight's are all kept
    _at(monkeypatch, datetime(2026, 11, 27, 20, 0, tzinfo=UTC))
    made.append(backups.backup_create(reason="r5"))
    assert backups.backups_list() == made[-3:]  # the last three others (KEEP)
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


# --------------------------------------------------------------- names, what is kept, when

PARIS = ZoneInfo("Europe/Paris")


def _at(monkeypatch: pytest.MonkeyPatch, instant: datetime) -> None:
    """The clock the backups read (``django.utils.timezone.now``) shows ``instant``."""
    monkeypatch.setattr(backups.timezone, "now", lambda: instant)


def test_names_sort_in_time_order_across_the_change_to_winter_time(
    instance_files: Path, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """25 October 2026, Paris: 02:59:59 summer time, then 02:00:01 winter time, 2 s later.
    Names in local time ("02-59-59", then "02-00-01") sort backwards; in UTC they do not."""
    settings.DUPLITAROT_BACKUP_KEEP = 20
    made = []
    for instant in (
        datetime(2026, 10, 25, 0, 59, 59, tzinfo=UTC),
        datetime(2026, 10, 25, 1, 0, 1, tzinfo=UTC),
    ):
        _at(monkeypatch, instant)
        made.append(backups.backup_create(reason="periodic"))
    assert sorted(path.name for path in made if path) == [path.name for path in made if path]
    assert [b.taken_at for b in backups.backups_found()] == [
        datetime(2026, 10, 25, 0, 59, 59, tzinfo=UTC),
        datetime(2026, 10, 25, 1, 0, 1, tzinfo=UTC),
    ]
    assert (
        made[0] is not None and made[0].name == "duplitarot-2026-10-25T00-59-59Z-periodic.sqlite3"
    )


def test_an_earlier_versions_backup_names_are_still_read(instance_files: Path) -> None:
    folder = instance_files.parent / "backups"
    folder.mkdir()
    old = folder / "duplitarot-2026-11-27_19-02-11-round-closed.sqlite3"
    old.write_bytes(b"")
    (folder / "duplitarot-2026-11-27_19-02-11-2-start.sqlite3").write_bytes(b"")
    found = backups.backups_found()
    assert [b.reason for b in found] == ["round-closed", "start"]
    assert found[0].taken_at == datetime(2026, 11, 27, 19, 2, 11, tzinfo=PARIS)


def _names(folder: Path, evening: date, reasons: list[tuple[str, str]]) -> None:
    """Backup files of ``evening`` (``HH:MM`` Paris time, reason), empty: only names count."""
    folder.mkdir(exist_ok=True)
    for clock, reason in reasons:
        hour, minute = (int(part) for part in clock.split(":"))
        day = evening + timedelta(days=1) if hour < 6 else evening
        local = datetime(day.year, day.month, day.day, hour, minute, tzinfo=PARIS)
        stamp = local.astimezone(UTC).strftime(backups.STAMP_UTC)
        (folder / f"duplitarot-{stamp}-{reason}.sqlite3").write_bytes(b"")


def test_the_milestones_of_the_last_ten_evenings_and_the_last_twenty_others_are_kept(
    instance_files: Path, settings: Any
) -> None:
    settings.DUPLITAROT_BACKUP_KEEP = 20
    folder = instance_files.parent / "backups"
    first = date(2026, 9, 4)
    evening = [("19:55", "start"), *((f"2{n}:00", f"position-{n}") for n in range(1, 4))]
    evening += [("00:10", "finished"), ("20:30", "periodic"), ("21:30", "periodic")]
    for week in range(12):  # twelve Friday evenings, the last ending after midnight
        _names(folder, first + timedelta(weeks=week), evening)
    tonight = first + timedelta(weeks=12)
    # Tonight: started at 19:50, a periodic backup every 5 minutes for three hours (36).
    tonight_names = [("19:50", "start")] + [
        (f"{19 + (50 + 5 * n) // 60}:{(50 + 5 * n) % 60:02d}", "periodic") for n in range(1, 37)
    ]
    tonight_names = [(clock if int(clock[:2]) < 24 else f"0{int(clock[:2]) - 24}{clock[2:]}",
                      reason) for clock, reason in tonight_names]  # fmt: skip
    _names(folder, tonight, tonight_names)
    now = datetime(tonight.year, tonight.month, tonight.day, 22, 51, tzinfo=PARIS)
    doomed = backups.backups_to_delete(backups.backups_found(), now)
    kept = [b for b in backups.backups_found() if b not in doomed]
    # Every backup of tonight, whatever its kind and however many.
    assert sum(1 for b in kept if b.evening == tonight) == 37
    # The milestones of the last ten evenings (tonight's included), none older.
    milestone_evenings = sorted({b.evening for b in kept if b.milestone})
    assert milestone_evenings == [first + timedelta(weeks=w) for w in range(3, 13)]
    assert sum(1 for b in kept if b.milestone and b.evening != tonight) == 9 * 5
    # The last twenty others (all of tonight's here), none of the earlier evenings'.
    assert not [b for b in kept if not b.milestone and b.evening != tonight]


def test_a_periodic_backup_never_prunes_the_evenings_start(
    instance_files: Path, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """Keeping the last 20 by name would delete tonight's start after 20 periodic backups."""
    settings.DUPLITAROT_BACKUP_KEEP = 20
    start = datetime(2026, 11, 27, 18, 55, tzinfo=UTC)
    _at(monkeypatch, start)
    backups.backup_create(reason="start")
    for n in range(1, 31):  # every five minutes for two and a half hours
        _at(monkeypatch, start + timedelta(minutes=5 * n))
        backups.backup_create(reason="periodic")
    reasons = [b.reason for b in backups.backups_found()]
    assert reasons[0] == "start" and len(reasons) == 31
    # The next evening's first backup leaves the last twenty others and the start.
    _at(monkeypatch, start + timedelta(days=7))
    backups.backup_create(reason="start")
    reasons = [b.reason for b in backups.backups_found()]
    assert reasons == ["start"] + ["periodic"] * 20 + ["start"]


class _Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


@pytest.mark.django_db
def test_a_backup_each_time_every_table_finished_a_position_and_while_results_arrive(
    instance_files: Path, monkeypatch: pytest.MonkeyPatch, settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    """A 16-player evening: 4 tables, 5 positions of 4 deals, 80 results one a minute. Nobody
    closes a round: a backup when every table has finished a position, and one at most every
    10 minutes while results arrive; none while nothing changes."""
    settings.DUPLITAROT_BACKUP_KEEP = 100
    settings.DUPLITAROT_BACKUP_EVERY = 600
    event = running_event(tables=4, rounds=5, deals_per_round=4, seed=3)
    schedule = backups.BackupSchedule()
    clock = _Clock(datetime(2026, 11, 27, 19, 0, tzinfo=UTC))
    schedule.clock = clock
    monkeypatch.setattr(backups, "schedule", schedule)
    assert schedule.tick() is None  # the first look after the start only takes note
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    rng = random.Random(4)
    taken: list[tuple[int, str]] = []
    minute = 0
    for number in event.schedule.round_numbers:
        for play in event.schedule.round(number).tables:
            for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
                minute += 1
                clock.now += timedelta(minutes=1)
                with django_capture_on_commit_callbacks(execute=True):
                    services.table_result_enter(
                        table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal)
                    )
                reason = schedule.tick()
                if reason:
                    taken.append((minute, reason))
    assert minute == 80
    assert taken == [
        (10, "periodic"), (16, "position-1"), (26, "periodic"), (32, "position-2"),
        (42, "periodic"), (48, "position-3"), (58, "periodic"), (64, "position-4"),
        (74, "periodic"), (80, "position-5"),
    ]  # fmt: skip
    # Nothing changes for an hour: no backup.
    for _ in range(60):
        clock.now += timedelta(minutes=1)
        assert schedule.tick() is None
    files = [b.reason for b in backups.backups_found()]
    assert files == [reason for _minute, reason in taken]

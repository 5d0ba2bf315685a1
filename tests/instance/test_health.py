"""The computer's status box (``clubs.status``, ``instance.health``): one box on the three
director pages (duplicate control room, cup organiser page, free-deal organiser page) saying
what the director must know of the machine: a serving process that died, a full disk, the last
backup and a backup folder gone or full. A hosted server (no data folder) shows no box."""

from __future__ import annotations

import signal
import sqlite3
from collections import namedtuple
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from clubs import status
from instance import backups, health, instance_state
from tests.builders import running_event
from tests.factories import OrganiserFactory, RunningFreeDealFactory
from tests.teammatch.worlds import running_match

Usage = namedtuple("Usage", "total used free")
MB = 1024 * 1024


@pytest.fixture
def instance(tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A club's instance: a data folder with a database file and a backup folder."""
    data = tmp_path / "club"
    data.mkdir()
    database = data / "duplitarot.sqlite3"
    with sqlite3.connect(database) as db:  # 2 MB
        db.execute("CREATE TABLE filler (data BLOB)")
        db.execute("INSERT INTO filler VALUES (zeroblob(?))", [2 * MB])
    db.close()
    monkeypatch.setattr(backups, "sqlite_database", lambda: database)
    settings.DATA_DIR = data
    settings.DUPLITAROT_BACKUP_DIR = data / "backups"
    return data


def _free(monkeypatch: pytest.MonkeyPatch, **free_by_folder: int) -> None:
    """``shutil.disk_usage`` says ``free`` bytes for the named folders, plenty elsewhere."""
    real = health.shutil.disk_usage

    def usage(path: Any) -> Any:
        for folder, free in free_by_folder.items():
            if Path(path).name == folder:
                return Usage(10_000 * MB, 10_000 * MB - free, free)
        return real(path)

    monkeypatch.setattr(health.shutil, "disk_usage", usage)


def _lines(key: str) -> list[status.StatusLine]:
    return [line for line in status.computer_status() if line.key == key]


def test_a_hosted_server_has_nothing_to_say(settings: Any) -> None:
    settings.DATA_DIR = None
    settings.DUPLITAROT_BACKUP_DIR = None
    assert status.computer_status() == []


def test_a_dead_serving_process_is_said_until_the_next_start(instance: Path) -> None:
    health.serving_started(processes=2)
    assert _lines("process") == []
    health.process_died(pid=4242, status=signal.SIGKILL)  # the wait status of a kill -9
    (line,) = _lines("process")
    assert line.level == "error"
    assert "4242" in line.text and "killed by signal 9" in line.text
    assert "goes on with 1 process" in line.text
    health.serving_started(processes=2)
    assert _lines("process") == []


def test_a_full_or_nearly_full_disk_is_said(
    instance: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _free(monkeypatch, club=12 * MB)
    (line,) = _lines("disk")
    assert line.level == "error" and "The disk is full (12 MB free" in line.text
    _free(monkeypatch, club=300 * MB)
    (line,) = _lines("disk")
    assert line.level == "warning" and "nearly full" in line.text
    _free(monkeypatch, club=5000 * MB)
    assert _lines("disk") == []


def test_the_last_backup_says_when_and_where(
    instance: Path, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    assert [line.text for line in _lines("backup")] == ["No backup yet."]
    settings.TIME_ZONE = "Europe/Paris"
    folder = instance / "backups"
    folder.mkdir()
    (folder / "duplitarot-2026-11-27T20-42-05Z-position-3.sqlite3").write_bytes(b"")
    (folder / "duplitarot-2026-11-27T19-55-00Z-start.sqlite3").write_bytes(b"")
    (line,) = _lines("backup")
    assert line.level == "info"
    assert "21:42" in line.text and "position 3 finished at every table" in line.text
    assert str(folder) in line.text


@pytest.mark.django_db
def test_a_backup_folder_gone_or_full_is_said_plainly(
    instance: Path, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    stick = instance.parent / "usb" / "duplitarot"
    settings.DUPLITAROT_BACKUP_DIR = stick
    stick.mkdir(parents=True)
    assert backups.backup_create(reason="start") is not None
    # The stick is full: less room than a backup takes.
    _free(monkeypatch, duplitarot=3 * MB)
    texts = [line.text for line in _lines("backup") if line.level == "error"]
    assert len(texts) == 1 and f"The backup folder {stick} is full" in texts[0]
    # The stick pulled out: its folder is gone, and a backup is not made on the laptop's disk.
    for path in stick.iterdir():
        path.unlink()
    stick.rmdir()
    stick.parent.rmdir()
    (line,) = _lines("backup")
    assert line.level == "error" and f"The backup folder {stick} is gone" in line.text
    backups.backup_logged("periodic")
    assert not stick.exists()
    assert "backup_failure" in instance_state.read(instance)
    # Put back: the next backup goes there, the failure is forgotten.
    stick.mkdir(parents=True)
    assert backups.backup_logged("periodic") is not None
    assert "backup_failure" not in instance_state.read(instance)


@pytest.mark.django_db
def test_a_backup_that_failed_is_said_until_one_succeeds(instance: Path) -> None:
    blocker = instance / "backups"
    blocker.write_text("a file where the folder should be")
    backups.backup_logged("position-2")
    texts = [line.text for line in _lines("backup")]
    assert any(text.startswith("The last backup failed at ") for text in texts), texts


def _director_pages() -> list[tuple[str, Any]]:
    event = running_event(tables=3, rounds=3)
    cup = running_match(deals_per_quarter=2)
    free = RunningFreeDealFactory(parties=2)
    return [
        (reverse("organiser:control", args=[event.pk]), OrganiserFactory(clubs=[event.club])),
        (reverse("teammatch:organiser_cup", args=[cup.cup.pk]), cup.organiser),
        (reverse("freedeal:organiser_detail", args=[free.pk]), OrganiserFactory(clubs=[free.club])),
    ]


@pytest.mark.django_db
def test_the_three_director_pages_show_the_box(
    instance: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    health.serving_started(processes=2)
    health.process_died(pid=4242, status=signal.SIGKILL)
    _free(monkeypatch, club=10 * MB)
    for url, organiser in _director_pages():
        client = Client()
        client.force_login(organiser)
        page = client.get(url).content.decode()
        assert 'id="computer-status"' in page, url
        assert "(number 4242) stopped" in page and "The disk is full" in page, url
        assert "No backup yet." in page, url
    # The control room's live board (refreshed every 10 s) carries it too.
    event_url, organiser = _director_pages()[0]
    client = Client()
    client.force_login(organiser)
    board = client.get(event_url, headers={"HX-Request": "true"}).content.decode()
    assert 'id="computer-status"' in board


@pytest.mark.django_db
def test_no_box_on_a_hosted_server_nor_for_visitors(settings: Any) -> None:
    settings.DATA_DIR = None
    settings.DUPLITAROT_BACKUP_DIR = None
    for url, organiser in _director_pages():
        client = Client()
        client.force_login(organiser)
        assert 'id="computer-status"' not in client.get(url).content.decode()
        assert Client().get(url).status_code in (302, 404)


def test_a_source_that_fails_leaves_the_box_standing(instance: Path) -> None:
    def broken() -> list[status.StatusLine]:
        raise RuntimeError("boom")

    status.status_source(broken)
    try:
        assert isinstance(status.computer_status(), list)
    finally:
        status._sources.remove(broken)


def test_a_line_has_a_known_level() -> None:
    with pytest.raises(ValueError):
        status.StatusLine("fatal", "disk", "?")

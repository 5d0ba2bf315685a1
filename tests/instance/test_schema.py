"""``serve`` refuses, in one line and before anything is written, a database written by a newer
version of duplitarot (an applied migration this code does not know): it would start without a
word and answer every save with a 500."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from instance import backups, schema
from instance.management.commands import serve as serve_command
from tests.instance.serving import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def backups_taken(tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``serve`` on the test database, its data folder the test's; it never reaches waitress.
    The backups it takes (their reasons)."""
    settings.DATA_DIR = tmp_path
    settings.DUPLITAROT_SERVE_LOCK = tmp_path / "serve.lock"
    settings.DUPLITAROT_BACKUP_DIR = tmp_path / "backups"

    def no_waitress(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("serve started")

    monkeypatch.setattr(serve_command.Command, "_run_waitress", no_waitress)
    taken: list[str] = []
    monkeypatch.setattr(backups, "backup_create", lambda *, reason: taken.append(reason))
    return taken


def test_serve_refuses_a_database_of_a_newer_version(backups_taken: list[str]) -> None:
    MigrationRecorder(connection).record_applied("clubs", "9999_from_a_newer_version")
    with pytest.raises(CommandError) as refused:
        call_command("serve", "--host", "127.0.0.1", "--port", str(free_port()), "--processes", "1")
    message = str(refused.value)
    assert refused.value.returncode == 2 and "\n" not in message
    assert "newer version of duplitarot" in message
    assert "clubs.9999_from_a_newer_version" in message
    assert backups_taken == []


def test_serve_starts_on_a_database_it_knows(backups_taken: list[str]) -> None:
    assert schema.unknown_migrations(schema.applied_here()) == []
    with pytest.raises(AssertionError, match="serve started"):
        call_command("serve", "--host", "127.0.0.1", "--port", str(free_port()), "--processes", "1")
    assert backups_taken == ["start"]

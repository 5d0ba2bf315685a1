"""A full disk is named (``config.errors``, ``config.cache``): the answer says the disk is full
(503 ``disk_full``), the log says it in one line, and a page whose cache cannot be written is
rendered all the same. The same on a real full filesystem: ``tests/instance/test_serve_faults``."""

from __future__ import annotations

import errno
import logging
import sqlite3
import sys
from pathlib import Path
from typing import Any

import psycopg.errors
import pytest
from django import db
from django.core.cache.backends.filebased import FileBasedCache
from django.db.backends.utils import CursorWrapper
from django.test import Client

from config.cache import FileCache
from config.errors import DiskFullLogFilter
from runner.faults import disk_full

FULL = db.OperationalError("database or disk is full")


def _answer(path: str, error: BaseException, monkeypatch: pytest.MonkeyPatch) -> Any:
    def execute(self: CursorWrapper, sql: str, params: Any = None) -> Any:
        raise error

    with monkeypatch.context() as patch:
        patch.setattr(CursorWrapper, "execute", execute)
        return Client(raise_request_exception=False).get(path)


def test_what_a_full_disk_looks_like() -> None:
    assert disk_full(FULL)
    wrapped = db.OperationalError("x")
    wrapped.__cause__ = sqlite3.OperationalError("database or disk is full")
    assert disk_full(wrapped)
    assert disk_full(OSError(errno.ENOSPC, "No space left on device"))
    assert disk_full(OSError(errno.EDQUOT, "Disk quota exceeded"))
    assert disk_full(psycopg.errors.DiskFull("could not extend file"))
    assert not disk_full(db.OperationalError("database is locked"))
    assert not disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not disk_full(None)


@pytest.mark.django_db
def test_an_api_save_on_a_full_disk_answers_503_disk_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    response = _answer("/api/v1/events/", FULL, monkeypatch)
    assert response.status_code == 503
    assert response.json()["code"] == "disk_full"
    assert "Le disque du serveur est plein" in response.json()["detail"]  # French by default
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db
def test_a_page_on_a_full_disk_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    response = _answer("/", FULL, monkeypatch)
    assert response.status_code == 503
    page = response.content.decode()
    assert "Le disque du serveur est plein" in page and "Traceback" not in page


def _record(error: BaseException | None) -> logging.LogRecord:
    try:
        raise error or ValueError("other")
    except BaseException:
        info = sys.exc_info()
    return logging.LogRecord(
        "django.request", logging.ERROR, __file__, 1, "Internal: %s", ("/x",), info
    )


def test_the_log_says_the_disk_is_full_in_one_line_now_and_then() -> None:
    log_filter = DiskFullLogFilter()
    first = _record(FULL)
    assert log_filter.filter(first)
    assert first.exc_info is None and "The disk is full" in first.getMessage()
    assert not log_filter.filter(_record(FULL))  # the next ones, within the period: dropped
    other = _record(None)
    assert log_filter.filter(other) and other.exc_info is not None  # untouched


def test_a_cache_write_with_no_room_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = FileCache(str(tmp_path / "cache"), {})
    cache.set("kept", "html")

    def no_room(self: FileBasedCache, file: Any, timeout: Any, value: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(FileBasedCache, "_write_content", no_room)
    cache.set("ranking", "html")  # no error: the page is rendered all the same
    assert cache.get("ranking") is None and cache.get("kept") == "html"
    assert cache.add("other", 1) is False

    def denied(self: FileBasedCache, file: Any, timeout: Any, value: Any) -> None:
        raise OSError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(FileBasedCache, "_write_content", denied)
    with pytest.raises(OSError):
        cache.set("ranking", "html")

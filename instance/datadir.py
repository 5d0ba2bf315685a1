"""The data folder of an instance: everything a club's own duplitarot keeps, outside the code.

``duplitarot serve`` (``./dev serve``) keeps in one folder, by default the platform's user data
folder (``~/.local/share/duplitarot`` on Linux, ``~/Library/Application Support/duplitarot`` on
macOS, ``%LOCALAPPDATA%\\duplitarot`` on Windows; ``--data-dir`` or ``DUPLITAROT_DATA_DIR``
chooses another):

- ``duplitarot.sqlite3``: the database (SQLite in WAL mode), unless ``DATABASE_URL`` says
  otherwise;
- ``secret_key``: the key that signs sessions, generated on the first start;
- ``backups/``: the automatic backups (``DUPLITAROT_BACKUP_DIR`` points them elsewhere, e.g.
  at a USB stick);
- ``demo.sqlite3``: the demo's own database, when the demo runs from an installed package;
- ``static/``: the static files collected from the installed package (hashed names, gzip
  copies), made again at a start when the package's files changed;
- ``serve.lock``: held while a server serves from the folder (a restore refuses to run then).

This module imports nothing from Django: the settings read it before Django starts.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

import platformdirs

#: The environment variable that names the data folder (set by ``duplitarot``'s command line).
DATA_DIR_ENV = "DUPLITAROT_DATA_DIR"
DATABASE_FILE = "duplitarot.sqlite3"
DEMO_DATABASE_FILE = "demo.sqlite3"
SECRET_KEY_FILE = "secret_key"
BACKUPS_DIR = "backups"
CACHE_DIR = "cache"
LOCK_FILE = "serve.lock"
STATIC_DIR = "static"
#: The database engine of an instance's SQLite file (Django's, writers queued: instance.sqlite).
SQLITE_ENGINE = "instance.sqlite"
SQLITE_ENGINES = frozenset({"django.db.backends.sqlite3", SQLITE_ENGINE})


def default_data_dir() -> Path:
    """The platform's user data folder for duplitarot."""
    return Path(platformdirs.user_data_dir("duplitarot", appauthor=False, roaming=False))


def data_dir_from(environ: Mapping[str, str]) -> Path | None:
    """The data folder named by the environment, None when none is (a developer's checkout)."""
    value = environ.get(DATA_DIR_ENV, "").strip()
    return Path(value).expanduser().resolve() if value else None


def ensure_data_dir(path: Path) -> Path:
    """Create the data folder (and its parents) when missing; returns it."""
    path.mkdir(parents=True, exist_ok=True)
    return path


def secret_key(data_dir: Path) -> str:
    """The instance's secret key, generated (and kept, readable by its owner only) on the first
    call for a folder."""
    ensure_data_dir(data_dir)
    path = data_dir / SECRET_KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key
    key = secrets.token_urlsafe(50)
    # Created exclusively and readable by its owner only (the mode is ignored on Windows, where
    # the user's own folder already is private); two first starts at once keep the first key.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key


def database_path(data_dir: Path) -> Path:
    return data_dir / DATABASE_FILE


def lock_path(data_dir: Path) -> Path:
    return data_dir / LOCK_FILE


def cache_path(data_dir: Path) -> Path:
    """The cache the serving processes share (throttles, rendered rankings): files."""
    return data_dir / CACHE_DIR


def backups_path(data_dir: Path, environ: Mapping[str, str]) -> Path:
    """Where the automatic backups go: ``DUPLITAROT_BACKUP_DIR`` or the folder's ``backups``."""
    chosen = environ.get("DUPLITAROT_BACKUP_DIR", "").strip()
    return Path(chosen).expanduser().resolve() if chosen else data_dir / BACKUPS_DIR


def static_path(data_dir: Path) -> Path:
    """Where the instance's static files are collected (``instance.staticfiles``)."""
    return data_dir / STATIC_DIR

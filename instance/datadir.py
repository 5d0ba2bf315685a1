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
- ``serve.lock``: held while a server serves from the folder (a restore refuses to run then);
- ``instance.json``: what ``serve`` remembers between starts (``instance.instance_state``).

The folder and everything in it are readable by their owner only (the database holds the
organisers' sessions): every command on it runs with the umask 077 (``instance.cli``) and
:func:`make_private` fixes, at every start, what an earlier version left readable.

This module imports nothing from Django: the settings read it before Django starts.
"""

from __future__ import annotations

import os
import secrets
import stat
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
STATE_FILE = "instance.json"
#: The names of the backups (``instance.backups``), and of what an interrupted one leaves.
BACKUP_PREFIX = "duplitarot-"
#: What duplitarot keeps in a data folder (names or their beginnings: the database's ``-wal``,
#: ``-shm`` and writers' lock, the static files' folder being replaced...).
OWN_ENTRIES = (
    DATABASE_FILE,
    DEMO_DATABASE_FILE,
    SECRET_KEY_FILE,
    BACKUPS_DIR,
    CACHE_DIR,
    LOCK_FILE,
    STATIC_DIR,
    "instance.",
)
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
    """Create the data folder (and its parents) when missing, readable by its owner only, and
    make private what an earlier version left readable in it (:func:`make_private`)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    make_private(path)
    return path


def make_private(data_dir: Path) -> None:
    """The data folder and what duplitarot keeps in it (:data:`OWN_ENTRIES`, folders with all
    they hold) readable by their owner only: an earlier version left them readable by every
    account of the computer (the sessions of the database open the organisers' pages). Symbolic
    links are left alone. On Windows the data folder is in the user's profile, which other
    accounts cannot open: nothing to do."""
    if os.name != "posix" or not data_dir.is_dir():
        return
    _private(data_dir)
    for entry in os.scandir(data_dir):
        if entry.name.startswith(OWN_ENTRIES):
            _private(Path(entry.path))
            if entry.is_dir(follow_symlinks=False):
                for root, folders, files in os.walk(entry.path):
                    for name in folders + files:
                        _private(Path(root, name))


def make_backups_private(folder: Path) -> None:
    """The backups an earlier version left readable in the backup folder. The folder may be
    shared with other files (``DUPLITAROT_BACKUP_DIR``): only duplitarot's are touched."""
    if os.name != "posix" or not folder.is_dir():
        return
    for entry in os.scandir(folder):
        if entry.name.startswith(BACKUP_PREFIX):
            _private(Path(entry.path))


def _private(path: Path) -> None:
    """Take the group's and the others' permissions away from ``path`` (not a link's target; a
    file system without modes, e.g. a FAT USB stick, is left as it is)."""
    try:
        mode = path.lstat().st_mode
        if not stat.S_ISLNK(mode) and mode & 0o077:
            path.chmod(stat.S_IMODE(mode) & ~0o077)
    except OSError:
        pass


def secret_key(data_dir: Path) -> str:
    """The instance's secret key, generated (and kept, readable by its owner only) on the first
    call for a folder."""
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
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

"""A club's instance (``duplitarot serve``, ``./dev serve``): ``DUPLITAROT_DATA_DIR`` names its
data folder (``instance.datadir``), which is its whole configuration (no ``.env`` file is read):
the secret key generated there, SQLite in WAL mode there with its writers queued
(``instance.sqlite``), background work on the runner thread of the server, the cache in files
its serving processes share, the automatic backups, plain HTTP on the room's Wi-Fi, and the
first-run page until the club has an account. ``serve`` runs with debug off (the command line
says so); another command may run in debug."""

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config import settings_base as base
from config.environment import data_dir
from config.settings_base import *  # noqa: F403
from instance import datadir

_named = data_dir()
if _named is None:
    raise ImproperlyConfigured(
        f"{datadir.DATA_DIR_ENV} must name the data folder of a club's instance."
    )
_folder: Path = _named
DATA_DIR = _folder

# Generated on the first start and kept in the data folder, unless the environment gives one.
SECRET_KEY = base.SECRET_KEY or datadir.secret_key(_folder)
if not base.DEBUG:
    base.refuse_missing_key(SECRET_KEY)  # an example key given in the environment
    MIDDLEWARE = base.with_whitenoise(base.MIDDLEWARE)

DATABASES = {"default": base.database(datadir.database_path(_folder))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Each request thread's connection is kept open (no connect and no PRAGMAs per request): one
    # file, a process per core, a handful of threads each. Its writers queue in each process,
    # first come first served, and take turns across its processes, instead of polling SQLite's
    # lock (instance.sqlite).
    DATABASES["default"]["CONN_MAX_AGE"] = None
    DATABASES["default"]["ENGINE"] = datadir.SQLITE_ENGINE
    # The automatic backups (config.settings_base, "A club's instance").
    DUPLITAROT_BACKUP_DIR = datadir.backups_path(_folder, os.environ)

# The installed package's static files, collected into the data folder when serve starts and
# only when they changed (instance.staticfiles, called by config.wsgi); by their own names in
# debug.
STATIC_ROOT = datadir.static_path(_folder)
STORAGES = base.storages(base.STATIC_STORAGE_DEBUG if base.DEBUG else base.STATIC_STORAGE)

# Its serving processes (one per core) share what one counts (the unknown phone codes' and the
# setup page's throttles): files in the data folder. A full disk makes a miss, not an error.
CACHES = base.caches(
    {
        "BACKEND": "config.cache.FileCache",
        "LOCATION": str(datadir.cache_path(_folder)),
        "OPTIONS": {"MAX_ENTRIES": 5000},
    }
)
DUPLITAROT_BACKGROUND = base.background_mode("thread")

DUPLITAROT_FIRST_RUN_REDIRECT = base.env.bool("DUPLITAROT_FIRST_RUN_REDIRECT", default=True)
DUPLITAROT_SERVE_LOCK = datadir.lock_path(_folder)

"""A developer's checkout (``./dev``, ``manage.py`` with ``DJANGO_DEBUG=1``; the tests through
``config.settings_test``): ``db.sqlite3`` beside the code, tasks run eagerly in the request,
debug on, static files served by their own names, a cache in the process's memory.

The ``.env`` file of the checkout is read first (the environment wins over it)."""

from config.environment import read_dotenv

read_dotenv()

from config import settings_base as base  # noqa: E402
from config.settings_base import *  # noqa: E402, F403

# Any key, an example one included; none set: one that only debug accepts.
SECRET_KEY = base.SECRET_KEY or "debug-only-insecure-key-never-used-outside-debug"

DATABASES = {"default": base.database(base.BASE_DIR / "db.sqlite3")}
STORAGES = base.storages(base.STATIC_STORAGE_DEBUG)
CACHES = base.caches(base.LOCAL_MEMORY_CACHE)
DUPLITAROT_BACKGROUND = base.background_mode("eager")

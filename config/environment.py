"""What the settings read before they know their profile (``config.settings``): the data folder
of a club's instance, the ``.env`` file of a checkout, ``DJANGO_DEBUG``.

Nothing from Django here: the settings call it before Django starts.
"""

from __future__ import annotations

import os
from pathlib import Path

import environ

from instance import datadir

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()


def data_dir() -> Path | None:
    """The data folder of a club's instance (``DUPLITAROT_DATA_DIR``), None in a checkout."""
    return datadir.data_dir_from(os.environ)


def read_dotenv() -> None:
    """A checkout's ``.env`` file (``DJANGO_ENV_FILE`` names another; tests use an empty one)
    into the environment, which wins over it. A club's instance reads none: its data folder is
    its configuration."""
    environ.Env.read_env(
        env.str("DJANGO_ENV_FILE", default=str(BASE_DIR / ".env")), overwrite=False
    )


def debug() -> bool:
    """``DJANGO_DEBUG``: off unless asked for (``./dev`` and the test settings set it)."""
    return bool(env.bool("DJANGO_DEBUG", default=False))

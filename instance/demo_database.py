"""Which database the demo uses: its own, never the one a club's real evening runs on.

The command line (``instance.cli``, for ``manage.py`` and ``duplitarot`` alike) calls
:func:`choose_demo_database` before Django reads its settings (no
connection exists yet), so that ``manage.py demo`` (``./dev demo``) and ``manage.py screenshots
--database configured`` work on the demo's database:

1. ``DUPLITAROT_DEMO_DATABASE_URL`` when it is set;
2. else ``DATABASE_URL`` when it is set in the process's environment (given on purpose for this
   run: the tests, the screenshots' temporary database; a ``DATABASE_URL`` in the ``.env`` file
   names the club's real database and is not used);
3. else the SQLite file :data:`DEMO_DATABASE_FILE` beside the default ``db.sqlite3``, or in
   the data folder of an installed duplitarot (``instance.datadir``).

The command also refuses a database that holds anything but the demo
(:func:`demo.services.foreign_data`): the second guarantee, when an explicit ``DATABASE_URL``
names a real database.

This module imports nothing from Django: it runs before the settings exist.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from pathlib import Path

from instance import datadir

#: The demo's own SQLite file, beside the default ``db.sqlite3`` (ignored by git).
DEMO_DATABASE_FILE = datadir.DEMO_DATABASE_FILE
#: Where the demo's database is, when it is not the default file.
DEMO_DATABASE_ENV = "DUPLITAROT_DEMO_DATABASE_URL"
#: The commands that work on the demo's database.
DEMO_COMMANDS = frozenset({"demo", "screenshots"})


def demo_database_url(environ: MutableMapping[str, str], base_dir: Path) -> str:
    """The demo's database URL (see the module's rules)."""
    chosen = environ.get(DEMO_DATABASE_ENV, "").strip() or environ.get("DATABASE_URL", "").strip()
    folder = datadir.data_dir_from(environ) or base_dir
    return chosen or f"sqlite:///{folder / DEMO_DATABASE_FILE}"


def choose_demo_database(
    argv: Sequence[str], environ: MutableMapping[str, str], base_dir: Path
) -> None:
    """Point ``DATABASE_URL`` at the demo's database when ``argv`` runs a demo command."""
    command = argv[1] if len(argv) > 1 else ""
    if command in DEMO_COMMANDS:
        environ["DATABASE_URL"] = demo_database_url(environ, base_dir)

"""duplitarot's command line: ``duplitarot`` (the installed console command) and ``manage.py``.

``duplitarot serve`` runs a club's own instance from its data folder (``instance.datadir``):
``duplitarot [--data-dir DIR] <command> [options]`` runs any command on that folder
(``serve``, ``backup``, ``restore_backup``, ``setup_code``, ``demo``, ``createsuperuser``...).
``manage.py`` is the developer's checkout: the database beside the code, unless the command is
one of the instance's (:data:`INSTANCE_COMMANDS`: ``serve``, ``backup``, ``restore_backup``,
``setup_code``, always on the data folder ``serve`` uses) or ``--data-dir`` is given.

A command on a data folder runs with the umask 077 from its first line (its files are its
owner's only) and first makes private what an earlier version left readable
(``instance.datadir``).

Everything before Django reads its settings happens here: the data folder, the demo's own
database, and for ``serve`` debug off and the addresses the phones use (``instance.network``).
Nothing here needs a POSIX-only module: the command runs on Windows, macOS and Linux.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, MutableMapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from instance import datadir, network
from instance.demo_database import choose_demo_database

DEFAULT_PORT = 8000
DEFAULT_THREADS = 8  # waitress request threads of ``serve``


def _pop_option(args: list[str], name: str) -> str | None:
    """Remove ``name VALUE`` or ``name=VALUE`` from ``args``; returns the value."""
    for index, arg in enumerate(args):
        if arg == name and index + 1 < len(args):
            value = args[index + 1]
            del args[index : index + 2]
            return value
        if arg.startswith(name + "="):
            del args[index]
            return arg.split("=", 1)[1]
    return None


def _option(args: Sequence[str], name: str) -> str | None:
    """The value of ``name`` in ``args`` (left in place), None when absent."""
    for index, arg in enumerate(args):
        if arg == name and index + 1 < len(args):
            return args[index + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def serve_addresses(args: Sequence[str], environ: MutableMapping[str, str]) -> None:
    """For ``serve``: where the phones reach this laptop (the table cards' QR codes) and the
    host names it answers to, into the environment the settings read."""
    port_text = _option(args, "--port") or str(DEFAULT_PORT)
    port = int(port_text) if port_text.isdigit() else DEFAULT_PORT
    host = _option(args, "--host") or "0.0.0.0"
    public = (_option(args, "--public-url") or environ.get("DUPLITAROT_PUBLIC_URL", "")).strip()
    lan = network.lan_address() if host in ("0.0.0.0", "::") else None
    name = network.mdns_name(lan) if lan and not public else None
    if not public:
        shown = name or lan or ("localhost" if host in ("0.0.0.0", "::") else host)
        public = f"http://{shown}:{port}"
    environ["DUPLITAROT_PUBLIC_URL"] = public.rstrip("/")
    hosts = {"localhost", "127.0.0.1", "[::1]"}
    if host in ("0.0.0.0", "::"):
        hosts |= network.local_addresses()
        label = network.hostname_label()
        if label:
            hosts |= {label, f"{label}.local"}
    else:
        hosts.add(host)
    public_host = urlsplit(public).hostname
    if public_host:
        hosts.add(f"[{public_host}]" if ":" in public_host else public_host)
    extra = [h.strip() for h in environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()]
    environ["DJANGO_ALLOWED_HOSTS"] = ",".join(sorted(hosts | set(extra)))


#: The commands of a club's instance: always on a data folder (``serve``'s, unless
#: ``--data-dir`` names another), in a developer's checkout too, never on its ``db.sqlite3``.
INSTANCE_COMMANDS = frozenset({"serve", "backup", "restore_backup", "setup_code"})
#: What every file and folder of a data folder is created with: readable by its owner only.
PRIVATE_UMASK = 0o077


def data_folder(argv: Sequence[str], environ: Mapping[str, str], *, installed: bool) -> Path | None:
    """The data folder ``argv`` works on, None for a developer's checkout (its ``db.sqlite3``):
    ``--data-dir``, else ``DUPLITAROT_DATA_DIR``, else the user's data folder for duplitarot
    (installed, or an instance's command)."""
    args = list(argv)
    chosen = _pop_option(args, "--data-dir") or environ.get(datadir.DATA_DIR_ENV, "").strip()
    command = args[0] if args else ""
    if chosen or installed or command in INSTANCE_COMMANDS:
        return Path(chosen or datadir.default_data_dir()).expanduser().resolve()
    return None


def prepare(
    argv: list[str], environ: MutableMapping[str, str], *, base_dir: Path, installed: bool
) -> list[str]:
    """Set the environment for ``argv`` (a command line without the program name) before
    Django starts; returns the command line without the options consumed here."""
    folder = data_folder(argv, environ, installed=installed)
    args = list(argv)
    _pop_option(args, "--data-dir")
    command = args[0] if args else ""
    environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if folder is not None:
        environ[datadir.DATA_DIR_ENV] = str(datadir.ensure_data_dir(folder))
        datadir.make_backups_private(datadir.backups_path(folder, environ))
    if command == "serve":
        # A club's evening: never debug (tracebacks to the room's Wi-Fi, no static caching).
        environ["DJANGO_DEBUG"] = "0"
        serve_addresses(args[1:], environ)
    # The demo works on its own database, chosen before Django reads its settings.
    choose_demo_database(["duplitarot", *args], environ, base_dir)
    return args


def run(argv: list[str], *, installed: bool) -> None:
    base_dir = Path(__file__).resolve().parent.parent
    program = "duplitarot" if installed else "manage.py"
    if os.name == "posix" and data_folder(argv, os.environ, installed=installed) is not None:
        # Everything this process writes into the data folder (the database, its -wal and
        # -shm, the backups, the cache...) is its owner's only: sessions and accounts are in it.
        os.umask(PRIVATE_UMASK)
    try:
        args = prepare(argv, os.environ, base_dir=base_dir, installed=installed)
    except OSError as error:
        sys.stderr.write(f"{program}: cannot use the data folder: {error}\n")
        sys.exit(2)
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        if installed:
            _refuse_other_commands(args)
        execute_from_command_line([program, *args])
    except ImproperlyConfigured as error:
        # A configuration refused at start (e.g. no secret key outside debug): one line, exit 2.
        sys.stderr.write(f"{program}: {error}\n")
        sys.exit(2)


def _refuse_other_commands(args: list[str]) -> None:
    """The installed command runs a club's commands only (:data:`CLUB_COMMANDS`): Django's
    developer commands (``flush`` empties the club's database) belong to a checkout."""
    asked = args[1] if args[:1] == ["help"] and len(args) > 1 else (args[0] if args else "")
    if asked.startswith("-") or asked in CLUB_COMMANDS:
        return
    import django
    from django.utils.translation import gettext as _

    django.setup()
    sys.stderr.write(
        "duplitarot: "
        + _("%(command)s is not a command of duplitarot (duplitarot help lists them).")
        % {"command": asked}
        + "\n"
    )
    sys.exit(2)


def main() -> None:
    """The ``duplitarot`` console command (and ``python -m instance``)."""
    args = sys.argv[1:]
    rest = list(args)
    _pop_option(rest, "--data-dir")
    if not rest or rest in (["-h"], ["--help"], ["help"]):
        sys.stdout.write(USAGE)
        sys.exit(0 if rest else 2)
    if rest == ["help", "--commands"]:
        sys.stdout.write("".join(f"{name}\n" for name in sorted(CLUB_COMMANDS)))
        sys.exit(0)
    run(args, installed=True)


#: What the installed ``duplitarot`` runs, as its help lists them. Django's other commands
#: (``flush``, ``squashmigrations``, ``startapp``, ``test``, the screenshots...) are a developer's,
#: in a checkout (``./dev manage``).
CLUB_COMMANDS = frozenset(
    {
        "serve",
        "backup",
        "restore_backup",
        "setup_code",
        "demo",
        "createsuperuser",
        "changepassword",
        "axes_reset",
        "archive",
        "restore",
        "archive_event",
        "restore_event",
        "recompute",
        "score_event",
        "score_deal",
        "play",
        "simulate",
        "deals",
        "movement",
        "migrate",
        "showmigrations",
        "shell",
    }
)

USAGE = """usage: duplitarot [--data-dir DIR] <command> [options]

The evening:
  duplitarot serve [--port 8000] [--host 0.0.0.0] [--public-url URL]
                              run duplitarot for the club (Ctrl+C stops it)
  duplitarot backup           back the database up now
  duplitarot restore_backup FILE
                              put a backup back (the server must be stopped)
  duplitarot setup_code       a new one-time setup code for the first-run page
  duplitarot demo             a demo tournament, in its own database

Accounts:
  duplitarot createsuperuser  an administrator's account
  duplitarot changepassword USERNAME
                              a new password for an account
  duplitarot axes_reset       unlock the logins locked after wrong passwords

Archives (docs/archive-format.md):
  duplitarot archive KIND ID [-o FILE]
                              the archive of an event, a cup, a free-deal tournament or a series
  duplitarot restore FILE --club CLUB
                              restore an archive into a club
  duplitarot archive_event, restore_event
                              the same for events, as before

Scoring:
  duplitarot recompute EVENT_ID | --behind
                              recompute an event's standings
  duplitarot score_event FILE.json
                              score a whole tournament from a file, no database
  duplitarot score_deal, play FILE.json, simulate, deals, movement
                              one deal's score, a replayed deal, simulated deals, seeded deals,
                              a movement

Maintenance:
  duplitarot migrate, showmigrations, shell

  duplitarot help COMMAND     a command's options

The data folder (database, secret key, backups) is, unless --data-dir or DUPLITAROT_DATA_DIR
says otherwise, the user's data folder for duplitarot.
"""

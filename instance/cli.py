"""duplitarot's command line: ``duplitarot`` (the installed console command) and ``manage.py``.

``duplitarot serve`` runs a club's own instance from its data folder (``instance.datadir``):
``duplitarot [--data-dir DIR] <command> [options]`` runs any command on that folder
(``serve``, ``backup``, ``restore_backup``, ``setup_code``, ``demo``, ``createsuperuser``...).
``manage.py`` is the developer's checkout: the database beside the code, unless the command is
``serve`` (always a data folder) or ``--data-dir`` is given.

Everything before Django reads its settings happens here: the data folder, the demo's own
database, and for ``serve`` debug off and the addresses the phones use (``instance.network``).
Nothing here needs a POSIX-only module: the command runs on Windows, macOS and Linux.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from instance import datadir, network

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


def prepare(
    argv: list[str], environ: MutableMapping[str, str], *, base_dir: Path, installed: bool
) -> list[str]:
    """Set the environment for ``argv`` (a command line without the program name) before
    Django starts; returns the command line without the options consumed here."""
    args = list(argv)
    chosen = _pop_option(args, "--data-dir")
    command = args[0] if args else ""
    environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if chosen or installed or command == "serve" or environ.get(datadir.DATA_DIR_ENV):
        folder = Path(chosen or environ.get(datadir.DATA_DIR_ENV) or datadir.default_data_dir())
        environ[datadir.DATA_DIR_ENV] = str(datadir.ensure_data_dir(folder.expanduser().resolve()))
    if command == "serve":
        # A club's evening: never debug (tracebacks to the room's Wi-Fi, no static caching).
        environ["DJANGO_DEBUG"] = "0"
        serve_addresses(args[1:], environ)
    # The demo works on its own database, chosen before Django reads its settings.
    from demo.database import choose_demo_database

    choose_demo_database(["duplitarot", *args], environ, base_dir)
    return args


def run(argv: list[str], *, installed: bool) -> None:
    base_dir = Path(__file__).resolve().parent.parent
    program = "duplitarot" if installed else "manage.py"
    try:
        args = prepare(argv, os.environ, base_dir=base_dir, installed=installed)
    except OSError as error:
        sys.stderr.write(f"{program}: cannot use the data folder: {error}\n")
        sys.exit(2)
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line([program, *args])
    except ImproperlyConfigured as error:
        # A configuration refused at start (e.g. no secret key outside debug): one line, exit 2.
        sys.stderr.write(f"{program}: {error}\n")
        sys.exit(2)


def main() -> None:
    """The ``duplitarot`` console command (and ``python -m instance``)."""
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        sys.exit(0 if args else 2)
    run(args, installed=True)


USAGE = """usage: duplitarot [--data-dir DIR] <command> [options]

  duplitarot serve [--port 8000] [--host 0.0.0.0] [--public-url URL]
                              run duplitarot for the club (Ctrl+C stops it)
  duplitarot backup           back the database up now
  duplitarot restore_backup FILE
                              put a backup back (the server must be stopped)
  duplitarot setup_code       a new one-time setup code for the first-run page
  duplitarot demo             a demo tournament, in its own database
  duplitarot help             every command

The data folder (database, secret key, backups) is, unless --data-dir or DUPLITAROT_DATA_DIR
says otherwise, the user's data folder for duplitarot.
"""

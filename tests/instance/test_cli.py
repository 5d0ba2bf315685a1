"""The command line before Django starts: the data folder, serve's settings, and nothing
POSIX-only on the serve path (a club's laptop often runs Windows)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from instance import cli, datadir, network

ROOT = Path(__file__).resolve().parents[2]


def test_serve_gets_a_data_folder_debug_off_and_the_room_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(network, "local_addresses", lambda: {"192.168.1.20"})
    monkeypatch.setattr(network, "mdns_name", lambda lan, timeout=3.0: None)
    monkeypatch.setattr(network, "hostname_label", lambda: "portable")
    environ = {"DJANGO_DEBUG": "1"}
    args = cli.prepare(
        ["serve", "--port", "8010", "--data-dir", str(tmp_path / "club")],
        environ,
        base_dir=ROOT,
        installed=False,
    )
    assert args == ["serve", "--port", "8010"]
    assert environ[datadir.DATA_DIR_ENV] == str((tmp_path / "club").resolve())
    assert (tmp_path / "club").is_dir()
    assert environ["DJANGO_DEBUG"] == "0"
    assert environ["DUPLITAROT_PUBLIC_URL"] == "http://192.168.1.20:8010"
    hosts = set(environ["DJANGO_ALLOWED_HOSTS"].split(","))
    assert {"localhost", "127.0.0.1", "192.168.1.20", "portable.local"} <= hosts
    assert "DATABASE_URL" not in environ


def test_the_mdns_name_wins_when_it_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(network, "local_addresses", lambda: {"192.168.1.20"})
    monkeypatch.setattr(network, "mdns_name", lambda lan, timeout=3.0: "portable.local")
    monkeypatch.setattr(network, "hostname_label", lambda: "portable")
    environ: dict[str, str] = {}
    cli.prepare(["--data-dir", str(tmp_path), "serve"], environ, base_dir=ROOT, installed=True)
    assert environ["DUPLITAROT_PUBLIC_URL"] == "http://portable.local:8000"
    explicit: dict[str, str] = {}
    cli.prepare(
        ["serve", "--public-url", "http://salle.example:9000/"],
        explicit | {datadir.DATA_DIR_ENV: str(tmp_path)},
        base_dir=ROOT,
        installed=True,
    )


def test_a_developer_checkout_keeps_its_database(tmp_path: Path) -> None:
    environ: dict[str, str] = {}
    cli.prepare(["migrate"], environ, base_dir=ROOT, installed=False)
    assert datadir.DATA_DIR_ENV not in environ
    demo: dict[str, str] = {datadir.DATA_DIR_ENV: str(tmp_path)}
    cli.prepare(["demo", "--no-serve"], demo, base_dir=ROOT, installed=True)
    assert demo["DATABASE_URL"] == f"sqlite:///{tmp_path / 'demo.sqlite3'}"


def test_the_secret_key_is_generated_once_and_private(tmp_path: Path) -> None:
    key = datadir.secret_key(tmp_path / "club")
    assert len(key) >= 50
    assert datadir.secret_key(tmp_path / "club") == key
    if os.name == "posix":
        assert (tmp_path / "club" / "secret_key").stat().st_mode & 0o077 == 0


POSIX_ONLY = ["fcntl", "pwd", "grp", "resource", "termios", "syslog", "posix_ipc"]
OURS = [
    "instance",
    "config",
    "clubs",
    "tournaments",
    "scoring",
    "series",
    "freedeal",
    "teammatch",
    "archives",
    "rules",
    "demo",
]


def test_the_serve_path_imports_without_posix_only_modules(tmp_path: Path) -> None:
    """As on Windows: our modules may not import a module only POSIX has (the import
    statement refuses it to them: the third-party libraries, which pick their modules by
    platform, keep theirs), and nothing imports gunicorn; then the command line, the
    settings, the serve command, the backups and waitress are imported and the application
    is loaded."""
    script = f"""
import sys

import builtins

original_import = builtins.__import__

def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {{}}).get("__name__", "")
    if name.split(".")[0] == "gunicorn":
        raise ImportError(importer + ": gunicorn does not run on Windows")
    if level == 0 and name in {POSIX_ONLY!r} and importer.split(".")[0] in {OURS!r}:
        raise ImportError(importer + " imports the POSIX-only " + name)
    return original_import(name, globals, locals, fromlist, level)

builtins.__import__ = guarded_import
import os
os.environ["DUPLITAROT_DATA_DIR"] = {str(tmp_path)!r}
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
import instance.cli, instance.network, instance.datadir
import django
django.setup()
import instance.management.commands.serve, instance.management.commands.restore_backup
import instance.management.commands.backup, instance.backups, instance.setup
import runner.background, waitress, filelock
from config.wsgi import application
from django.core.management import call_command
call_command("migrate", verbosity=0)
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("ok")
    assert (
        "gunicorn" not in (ROOT / "instance" / "management" / "commands" / "serve.py").read_text()
    )


def test_usage_without_a_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["duplitarot"])
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == 2
    assert "duplitarot serve" in capsys.readouterr().out


DEVELOPER_COMMANDS = ["flush", "squashmigrations", "startapp", "test", "screenshots", "runserver"]


def test_the_installed_help_lists_a_clubs_commands_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for argv in (["duplitarot", "help"], ["duplitarot", "help", "--commands"]):
        monkeypatch.setattr(sys, "argv", argv)
        with pytest.raises(SystemExit) as stopped:
            cli.main()
        assert stopped.value.code == 0
        words = set(capsys.readouterr().out.split())
        assert {"serve", "backup", "restore_backup", "setup_code", "createsuperuser"} <= words
        assert not words & set(DEVELOPER_COMMANDS)


def test_the_installed_command_refuses_a_developers_command(tmp_path: Path) -> None:
    """``duplitarot flush`` would empty the club's database: one line, exit code 2, nothing
    changed (the database is not even created)."""
    for command, name in ((["flush", "--no-input"], "flush"), (["help", "startapp"], "startapp")):
        done = subprocess.run(
            [sys.executable, "-m", "instance", "--data-dir", str(tmp_path), *command],
            cwd=ROOT,
            env={k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
        assert len(done.stderr.strip().splitlines()) == 1 and name in done.stderr
    assert not (tmp_path / "duplitarot.sqlite3").exists()

"""The demo never touches real data (issue 22): it runs on a database of its own, chosen before
Django opens a connection (:mod:`instance.demo_database`), refuses a database that holds
anything but the demo, and checks its port before building anything.

The end-to-end test plays a club's evening: a "real instance" (its own SQLite file named by its
``.env``, a club, an event with results, an organiser) served by its own server, then the demo
run as a subprocess on another free loopback port, then run again on the port it holds. The real
database stays byte for byte what it was; only loopback sockets are opened.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.loadtest import free_port
from clubs.models import Club, Player
from demo.services import DEMO_CLUB_NAME, DEMO_USERNAME, foreign_data
from instance.demo_database import (
    DEMO_DATABASE_ENV,
    DEMO_DATABASE_FILE,
    choose_demo_database,
    demo_database_url,
)
from tests.factories import ClubFactory
from tournaments.models import Event

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "demo-pass-2026"
BASE = Path("/srv/duplitarot")

# A club's real evening: one club, its organiser, an event with a round of results.
REAL_SETUP = """
import random, django
django.setup()
from django.contrib.auth import get_user_model
from clubs.models import Club
from tests.builders import enter_round, running_event
club = Club.objects.create(name="Tarot Club de Saint-Priest", city="Saint-Priest")
user = get_user_model().objects.create_user(username="president", password="real-club-2026")
club.organisers.add(user)
event = running_event(tables=5, deals_per_round=2, club=club, seed=7)
enter_round(event, 1, random.Random(7))
print(event.pk)
"""


# ----------------------------------------------------------------- choosing the database


def test_the_demo_commands_get_the_demo_database_by_default() -> None:
    for command in ("demo", "screenshots"):
        environ: dict[str, str] = {}
        choose_demo_database(["manage.py", command, "--no-serve"], environ, BASE)
        assert environ["DATABASE_URL"] == f"sqlite:///{BASE / DEMO_DATABASE_FILE}"
    assert DEMO_DATABASE_FILE != "db.sqlite3"


def test_other_commands_keep_the_configured_database() -> None:
    for argv in (["manage.py", "runserver"], ["manage.py", "migrate"], ["manage.py"]):
        environ = {"DATABASE_URL": "postgres://club@127.0.0.1/club"}
        choose_demo_database(argv, environ, BASE)
        assert environ == {"DATABASE_URL": "postgres://club@127.0.0.1/club"}
        environ = {}
        choose_demo_database(argv, environ, BASE)
        assert environ == {}


def test_the_demo_database_variable_wins_then_an_explicit_database_url() -> None:
    both = {DEMO_DATABASE_ENV: "sqlite:////tmp/d.sqlite3", "DATABASE_URL": "sqlite:////tmp/x"}
    assert demo_database_url(both, BASE) == "sqlite:////tmp/d.sqlite3"
    assert demo_database_url({"DATABASE_URL": "sqlite:////tmp/x"}, BASE) == "sqlite:////tmp/x"
    assert demo_database_url({"DATABASE_URL": " "}, BASE).endswith(DEMO_DATABASE_FILE)


# ------------------------------------------------------------------ refusing real data


@pytest.mark.django_db
def test_an_empty_database_or_the_demo_alone_is_not_foreign() -> None:
    assert foreign_data() is None
    out = StringIO()
    call_command("demo", "--no-serve", "--password", PASSWORD, stdout=out)
    assert foreign_data() is None  # a second run resets the demo: allowed
    assert not Player.objects.filter(club__isnull=True).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["club", "account", "player"])
def test_the_demo_refuses_a_database_with_real_data(kind: str) -> None:
    if kind == "club":
        ClubFactory(name="Tarot Club de Saint-Priest")
    elif kind == "account":
        get_user_model().objects.create_user(username="president", password="real-club-2026")
    else:
        Player.objects.create(first_name="Anne", last_name="Martin")
    with pytest.raises(CommandError, match="not only the demo; nothing was changed") as refused:
        call_command("demo", "--no-serve", "--password", PASSWORD, stdout=StringIO())
    assert refused.value.returncode == 2
    assert DEMO_DATABASE_FILE in str(refused.value)
    assert not Club.objects.filter(name=DEMO_CLUB_NAME).exists()
    assert not Event.objects.exists()
    assert not get_user_model().objects.filter(username=DEMO_USERNAME).exists()


# -------------------------------------------------------------------------- end to end


def _environment(tmp_path: Path) -> dict[str, str]:
    """A club laptop's environment: nothing of the test run's, its database named by its .env
    file (as ``./dev`` would read it), the demo's database in ``tmp_path``."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_", "DUPLITAROT_"))
    }
    env_file = tmp_path / ".env"
    env_file.write_text(f"DATABASE_URL=sqlite:///{tmp_path / 'real' / 'db.sqlite3'}\n")
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV_FILE=str(env_file),
        DJANGO_DEBUG="1",
        PYTHONUNBUFFERED="1",
        TMPDIR=str(tmp_path),
    )
    env[DEMO_DATABASE_ENV] = f"sqlite:///{tmp_path / 'demo' / DEMO_DATABASE_FILE}"
    return env


def _files(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and the SHA-256 of its bytes."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""
    except OSError:
        return 0, ""


def _title(page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", page)
    return found[1] if found else ""


def _wait_for(port: int, path: str, process: subprocess.Popen[str], log: Path) -> str:
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        status, body = _get(port, path)
        if status == 200:
            return body
        time.sleep(0.5)
    raise AssertionError(f"nothing served on {port}{path}: {log.read_text()[-3000:]}")


def _stop(process: subprocess.Popen[str] | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)


def _manage(env: dict[str, str], *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_a_taken_port_is_one_line_exit_2_and_nothing_written(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    before = _files(tmp_path)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _manage(env, "demo", "--port", str(port), timeout=300)
    assert done.returncode == 2, done.stderr
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 1, done.stderr
    assert errors[0].startswith(f"CommandError: demo: cannot serve on 127.0.0.1:{port}: already")
    assert "nothing was changed" in errors[0]
    assert "Organiser account" not in done.stdout  # nothing was built
    assert _files(tmp_path) == before  # no database file created, nothing written
    assert not (tmp_path / "demo").exists()


@pytest.mark.served  # a real instance's server and the demo's, side by side
def test_the_demo_beside_a_served_club_evening_leaves_its_database_byte_for_byte(
    tmp_path: Path,
) -> None:
    env = _environment(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "demo").mkdir()
    migrated = _manage(env, "migrate", "--noinput", "-v", "0")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    built = subprocess.run(
        [sys.executable, "-c", REAL_SETUP],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    event_id = int(built.stdout.strip().splitlines()[-1])
    ranking = f"/en/events/{event_id}/ranking/"

    real_port, demo_port = free_port(), free_port()
    real_log, demo_log = tmp_path / "real.log", tmp_path / "demo.log"
    real_server = demo = None
    try:
        with real_log.open("w") as log:
            real_server = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{real_port}"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
            )  # fmt: skip
        real_page = _wait_for(real_port, ranking, real_server, real_log)
        real_before = _files(tmp_path / "real")

        with demo_log.open("w") as log:
            demo = subprocess.Popen(
                [sys.executable, "manage.py", "demo", "--port", str(demo_port),
                 "--password", PASSWORD],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
            )  # fmt: skip
        demo_home = _wait_for(demo_port, "/en/", demo, demo_log)
        assert f"Organiser account:  {DEMO_USERNAME} / {PASSWORD}" in demo_log.read_text()
        assert "Saint-Priest" not in demo_home
        demo_files = _files(tmp_path / "demo")
        assert DEMO_DATABASE_FILE in demo_files

        # Run again while the first demo serves on that port: refused before anything is built.
        again = _manage(env, "demo", "--port", str(demo_port), timeout=300)
        assert again.returncode == 2, again.stderr
        assert len(again.stderr.strip().splitlines()) == 1, again.stderr
        assert "cannot serve on" in again.stderr
        assert _files(tmp_path / "demo") == demo_files

        # The club's evening: the same bytes, the same page, its club and organiser intact.
        assert _files(tmp_path / "real") == real_before
        status, page = _get(real_port, ranking)
        assert status == 200 and _title(page) == _title(real_page) != ""
        assert real_server.poll() is None
    finally:
        _stop(demo)
        _stop(real_server)
    assert _files(tmp_path / "real") == real_before

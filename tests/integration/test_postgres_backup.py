"""The PostgreSQL backup and restore procedure of docs/backups.md, run exactly as written there.

The scripts and commands are read from the page's code blocks marked for it (the info string
``sh pg-backup-script``, ``sh pg-restore-script``, ``sh pg-after-restore``), so the page and this
test cannot drift: change a command there and this test runs the new one.

On a scratch database (``dt_backup_<random>``, every database of that prefix dropped at the end):

1. ``manage.py migrate``, then ``manage.py demo --no-serve``: real content made by the project's
   own code (clubs, players, accounts, events with results and standings, a simultaneous, a
   series, a cup, a free-deal tournament), and one more event whose first round is entered
   while its recompute tasks go to a broker nobody reads: its standings are behind its results
   in the dump, as when the queue is lost with Redis;
2. the figures it serves: the row count of every model's table, and the body of every public
   ranking of the API (events of every kind, the series, the cup's bracket, the free deals);
3. the backup script (``pg_dump --format=custom``, checked, renamed, the newest ``BACKUP_KEEP``
   kept);
4. the restore script: the database renamed out of the way, an empty one of the same name
   created, the dump restored into it;
5. the commands after a restore (``migrate``, ``recompute --behind``);
6. the restored database serves the same figures, and the event left behind now has its
   standings, computed from its stored results (nothing behind any more).

The PostgreSQL server: the one of ``DATABASE_URL`` when it names PostgreSQL (CI), else a private
cluster (``initdb``) on loopback; skipped, with the reason, when neither can be had. The client
programs the page uses (``pg_dump``, ``pg_restore``, ``psql``, ``createdb``) must be installed:
their absence fails the test with what to install.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import pytest

from tests.integration.processes import PostgresServer, app_environment, postgres_available

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("services")]

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "backups.md"
CLIENT_PROGRAMS = ("pg_dump", "pg_restore", "psql", "createdb", "dropdb")
COMMAND_SECONDS = 240

#: Run in a subprocess on one database: the figures it serves, as JSON on stdout.
FIGURES = """
import json, django
django.setup()
from django.apps import apps
from django.test import Client
counts = {
    model._meta.label: model._base_manager.count()
    for model in apps.get_models()
    if not model._meta.proxy
}
client = Client()
def answer(path):
    response = client.get(path, HTTP_ACCEPT="application/json")
    body = response.json() if response.status_code == 200 else None
    return [response.status_code, body]
Event = apps.get_model("tournaments", "Event")
answers = {}
for pk in Event.objects.order_by("pk").values_list("pk", flat=True):
    for kind in ("individual", "line", "team"):
        path = f"/api/v1/events/{pk}/rankings/?kind={kind}"
        answers[path] = answer(path)
for label, pattern in (
    ("series.Series", "/api/v1/series/{}/ranking/"),
    ("teammatch.Cup", "/api/v1/cups/{}/bracket/"),
    ("freedeal.FreeDealTournament", "/api/v1/free-deal/{}/ranking/"),
):
    for pk in apps.get_model(label).objects.order_by("pk").values_list("pk", flat=True):
        answers[pattern.format(pk)] = answer(pattern.format(pk))
from scoring.services import events_behind
figures = {"counts": counts, "answers": answers, "behind": events_behind()}
print(json.dumps(figures, sort_keys=True))
"""

#: Run in a subprocess with the recompute tasks sent to a broker nobody reads: one more event,
#: its first round entered, its standings never computed (a queue lost with Redis).
LOST_RECOMPUTE = """
import random, django
django.setup()
from scoring.services import events_behind
from tests.builders import enter_round, running_event
event = running_event(tables=3, deals_per_round=2, seed=3)
enter_round(event, 1, random.Random(11))
assert event.pk in events_behind(), "the recompute ran: nothing is behind"
print(event.pk)
"""


def doc_block(name: str) -> str:
    """The code block of docs/backups.md whose info string is ``sh <name>`` (indentation of a
    list item removed)."""
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(
        rf"^([ \t]*)```sh {re.escape(name)}[ \t]*\n(.*?)^\1```[ \t]*$", text, re.M | re.S
    )
    assert len(found) == 1, f"docs/backups.md: expected one ```sh {name} block, found {len(found)}"
    indent, body = found[0]
    return "".join(line[len(indent) :] if line.startswith(indent) else line
                   for line in body.splitlines(keepends=True))  # fmt: skip


def test_the_page_marks_its_tested_blocks() -> None:
    for name in ("pg-backup-script", "pg-restore-script", "pg-after-restore"):
        assert doc_block(name).strip()
    assert doc_block("pg-backup-script").startswith("#!/bin/sh\n")
    assert doc_block("pg-restore-script").startswith("#!/bin/sh\n")


def run(
    argv: list[str], env: Mapping[str, str], *, what: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        argv,
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=COMMAND_SECONDS,
        check=False,
    )
    if check and done.returncode != 0:
        pytest.fail(
            f"{what} failed (exit {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done


class Server:
    """Where the scratch databases live: libpq's environment and the URL of a database."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.parts = parts
        self.libpq = {
            "PGHOST": parts.hostname or "127.0.0.1",
            "PGPORT": str(parts.port or 5432),
            "PGUSER": unquote(parts.username or "postgres"),
            "PGCONNECT_TIMEOUT": "10",
        }
        if parts.password:
            self.libpq["PGPASSWORD"] = unquote(parts.password)

    def url(self, database: str) -> str:
        return urlunsplit(self.parts._replace(path="/" + database, query=""))

    def environment(self, base: Mapping[str, str]) -> dict[str, str]:
        """``base`` without any PG* variable of the run's own, with this server's."""
        env = {key: value for key, value in base.items() if not key.startswith("PG")}
        env.update(self.libpq)
        return env

    def psql(self, sql: str) -> str:
        done = run(
            ["psql", "--no-psqlrc", "--dbname=postgres", "--tuples-only", "--no-align",
             "--set=ON_ERROR_STOP=1", "--command", sql],
            self.environment(os.environ),
            what=f"psql {sql!r}",
        )  # fmt: skip
        return done.stdout.strip()


@pytest.fixture
def server() -> Iterator[Server]:
    missing = [program for program in CLIENT_PROGRAMS if shutil.which(program) is None]
    if missing:
        pytest.fail(
            f"the PostgreSQL client programs of docs/backups.md are not installed: "
            f"{', '.join(missing)} (Debian, Ubuntu: apt-get install postgresql-client)"
        )
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        yield Server(url)
        return
    why = postgres_available()
    if why:
        pytest.skip(
            f"needs PostgreSQL: DATABASE_URL names none, and a private one cannot run ({why})"
        )
    private = PostgresServer()
    try:
        private.init()
        private.start()
        yield Server(private.url("postgres"))
    finally:
        private.destroy()


@pytest.fixture
def scratch(server: Server) -> Iterator[str]:
    """A new database's name; it and every database named after it are dropped at the end."""
    name = f"dt_backup_{uuid.uuid4().hex[:10]}"
    run(["createdb", name], server.environment(os.environ), what="createdb")
    # Only to fill it faster (the demo commits some 1,400 times): the setting is the database's,
    # not in the dump, and changes nothing that is read back.
    server.psql(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    try:
        yield name
    finally:
        for database in server.psql(
            f"SELECT datname FROM pg_database WHERE datname LIKE '{name}%'"
        ).split():
            server.psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def application(server: Server, database: str, **extra: str) -> dict[str, str]:
    """The environment of ``manage.py`` on ``database``: production settings, tasks in-process
    (no broker), the virtual environment's ``python`` first on the PATH (the page says
    ``python manage.py``)."""
    env = app_environment(database_url=server.url(database), CELERY_BROKER_URL="")
    env = {key: value for key, value in env.items() if not key.startswith("DUPLITAROT_")}
    env["CELERY_TASK_ALWAYS_EAGER"] = "true"
    env["DJANGO_ALLOWED_HOSTS"] = "testserver"
    env.update(extra)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return server.environment(env)


def figures(server: Server, database: str) -> dict[str, Any]:
    done = run([sys.executable, "-c", FIGURES], application(server, database), what="the figures")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def script(tmp_path: Path, name: str) -> Path:
    """The block ``name`` of the page saved as an executable script, as the page says."""
    path = tmp_path / name
    path.write_text(doc_block(name), encoding="utf-8")
    path.chmod(0o755)
    return path


def test_backup_and_restore_as_documented(server: Server, scratch: str, tmp_path: Path) -> None:
    python = sys.executable
    app = application(server, scratch)
    run([python, "manage.py", "migrate", "--noinput"], app, what="migrate")
    run(
        [python, "manage.py", "demo", "--no-serve"],
        application(server, scratch, DUPLITAROT_DEMO_DATABASE_URL=server.url(scratch)),
        what="manage.py demo --no-serve",
    )
    lost_queue = application(
        server,
        scratch,
        DUPLITAROT_BACKGROUND="celery",
        CELERY_BROKER_URL="memory://localhost/",
        CELERY_TASK_ALWAYS_EAGER="false",
    )
    done = run([python, "-c", LOST_RECOMPUTE], lost_queue, what="an event left behind")
    behind = int(done.stdout.strip().splitlines()[-1])
    before = figures(server, scratch)
    assert before["behind"] == [behind]
    counts = before["counts"]
    for table in ("tournaments.TableResult", "scoring.RankingEntry", "auth.User"):
        assert counts[table] > 0, f"the demo left {table} empty: nothing would be compared"
    served = [path for path, (status, _body) in before["answers"].items() if status == 200]
    assert len(served) >= 10, f"too few public rankings to compare: {served}"

    # The backup: the script of the page, the newest BACKUP_KEEP kept, nothing else touched.
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    for old in ("duplitarot-2020-01-01_00-00-00.dump", "duplitarot-2020-01-02_00-00-00.dump"):
        (dumps / old).write_bytes(b"an old dump")
    (dumps / "notes.txt").write_text("not a dump")
    backup_env = server.environment(
        {**os.environ, "DUPLITAROT_DB": scratch, "BACKUP_DIR": str(dumps), "BACKUP_KEEP": "2"}
    )
    done = run([str(script(tmp_path, "pg-backup-script"))], backup_env, what="the backup script")
    dump = Path(done.stdout.strip().splitlines()[-1])
    assert dump.parent == dumps and dump.is_file()
    assert sorted(p.name for p in dumps.iterdir()) == sorted(
        ["duplitarot-2020-01-02_00-00-00.dump", dump.name, "notes.txt"]
    )
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600
    listing = run(["pg_restore", "--list", str(dump)], backup_env, what="pg_restore --list")
    assert "TABLE DATA public tournaments_tableresult" in listing.stdout

    # The restore: the database renamed out of the way, the dump put back under its name.
    restore_env = server.environment({**os.environ, "DUPLITAROT_DB": scratch})
    done = run(
        [str(script(tmp_path, "pg-restore-script")), str(dump)],
        restore_env,
        what="the restore script",
    )
    kept = re.search(r"kept as (\S+)", done.stdout)
    assert kept and kept.group(1).startswith(f"{scratch}_before_restore_"), done.stdout
    databases = server.psql(f"SELECT datname FROM pg_database WHERE datname LIKE '{scratch}%'")
    assert sorted(databases.split()) == sorted([scratch, kept.group(1)])

    # After the restore: the page's commands, in the application's environment.
    run(
        ["sh", "-e", str(script(tmp_path, "pg-after-restore"))],
        application(server, scratch),
        what="migrate and recompute after the restore",
    )

    after = figures(server, scratch)
    assert after["behind"] == [], "recompute --behind left standings behind their results"
    # The standings of the event left behind are computed now: its rankings, and the rows of
    # the scoring app, are new; everything else is as it was.
    mine = f"/api/v1/events/{behind}/"
    assert {p: a for p, a in after["answers"].items() if not p.startswith(mine)} == {
        p: a for p, a in before["answers"].items() if not p.startswith(mine)
    }
    status, ranking = after["answers"][f"{mine}rankings/?kind=individual"]
    assert status == 200 and len(ranking["rows"]) == 12, ranking
    assert ranking["status"]["snapshot_version"] == ranking["status"]["results_version"] > 0
    scoring = {label for label in before["counts"] if label.startswith("scoring.")}
    assert {k: v for k, v in after["counts"].items() if k not in scoring} == {
        k: v for k, v in before["counts"].items() if k not in scoring
    }
    assert after["counts"]["scoring.StandingsSnapshot"] == (
        before["counts"]["scoring.StandingsSnapshot"] + 1
    )

"""``duplitarot serve`` for real, in a subprocess, on a data folder of the test: what a director
meets on a fresh laptop, an upgrade, a second server, a restore while serving, and the demo run
beside the real evening."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.instance.serving import free_port, run_command, serve

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("services")]


def _rows(database: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute(sql).fetchall()
    db.close()
    return rows


def _set_up(served: object, code: str) -> None:
    from tests.instance.serving import Served

    assert isinstance(served, Served)
    status, _headers, _page = served.get("/setup/")
    assert status == 200
    status, _headers, _page = served.post(
        "/setup/",
        {
            "setup_code": code,
            "club_name": "Tarot Club de Lyon",
            "city": "Lyon",
            "username": "marie",
            "password1": "le-petit-au-bout",
            "password2": "le-petit-au-bout",
        },
    )
    assert status == 302, _page[-2000:]


def test_a_fresh_data_folder_serves_the_first_run_then_keeps_everything(tmp_path: Path) -> None:
    data = tmp_path / "club"
    served = serve(data)
    try:
        # The folder: the database (WAL), the generated secret key, a first backup.
        assert (data / "duplitarot.sqlite3").exists() and (data / "secret_key").exists()
        assert _rows(data / "duplitarot.sqlite3", "PRAGMA journal_mode") == [("wal",)]
        assert "migration(s) applied" in served.banner
        # Nothing to back up yet on a fresh folder (the backup precedes the migrations).
        assert not list((data / "backups").glob("duplitarot-*-start.sqlite3"))
        code = served.setup_code
        assert code is not None and f"http://localhost:{served.port}/setup/" in served.banner
        # Debug off: a real server; every page leads to the first run; static files served.
        status, headers, _page = served.get("/")
        assert status == 302 and headers["Location"] == "/setup/"
        status, headers, body = served.get("/static/js/htmx.min.js")
        assert status == 200 and "htmx" in body
        status, _headers, page = served.get("/no-such-page/")
        assert status in (302, 404) and "Traceback" not in page
        # A wrong code is refused, the right one creates the club.
        served.get("/setup/")
        status, _headers, _page = served.post("/setup/", {"setup_code": "AAAA-BBBB-CCCC-DDDD"})
        assert status == 400
        _set_up(served, code)
        status, _headers, page = served.get("/organiser/")
        assert status == 200 and "Tarot Club de Lyon" in page
        # A second server on the same folder is refused in one line, exit code 2.
        second = run_command(data, "serve", "--port", "1", "--host", "127.0.0.1")
        assert second.returncode == 2 and "already serves" in second.stderr
        # So is a restore while it serves; nothing changed.
        backup = tmp_path / "copy.sqlite3"
        sqlite3.connect(data / "duplitarot.sqlite3").backup(sqlite3.connect(backup))
        refused = run_command(data, "restore_backup", str(backup))
        assert refused.returncode == 2 and "arrêtez-le d'abord" in refused.stderr
        assert _rows(data / "duplitarot.sqlite3", "SELECT name FROM clubs_club") == [
            ("Tarot Club de Lyon",)
        ]
    finally:
        assert served.stop() == 0
    assert "duplitarot stopped." in served.log.read_text()

    # Restarted: everything is there, no setup code, another backup.
    again = serve(data)
    try:
        assert again.setup_code is None and "migration(s) applied" not in again.banner
        status, headers, _page = again.get("/")
        assert status == 200
        status, _headers, _page = again.get("/setup/")
        assert status == 302
    finally:
        again.stop()
    assert len(list((data / "backups").glob("duplitarot-*-start.sqlite3"))) == 1


def test_a_busy_port_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run_command(tmp_path / "club", "serve", "--port", str(port), "--host", "127.0.0.1")
    assert done.returncode == 2 and "already in use" in done.stderr
    assert not (tmp_path / "club" / "duplitarot.sqlite3").exists()


def test_the_demo_beside_a_real_evening_leaves_it_untouched(tmp_path: Path) -> None:
    data = tmp_path / "club"
    served = serve(data)
    try:
        code = served.setup_code
        assert code is not None
        _set_up(served, code)
        database = data / "duplitarot.sqlite3"
        before = {
            table: _rows(database, f"SELECT * FROM {table} ORDER BY 1")
            for table in ("auth_user", "clubs_club", "clubs_club_organisers")
        }
        demo = run_command(data, "demo", "--no-serve")
        assert demo.returncode == 0, demo.stderr[-3000:]
        assert (data / "demo.sqlite3").exists()
        assert _rows(data / "demo.sqlite3", "SELECT count(*) FROM clubs_club")[0][0] >= 1
        for table, rows in before.items():
            assert _rows(database, f"SELECT * FROM {table} ORDER BY 1") == rows
        status, _headers, page = served.get("/organiser/")
        assert status == 200 and "Tarot Club de Lyon" in page
    finally:
        served.stop()


def test_an_upgrade_keeps_the_data_and_backs_it_up_first(tmp_path: Path) -> None:
    """A data folder of an earlier release (the demo database of the continuity test): the
    start backs it up as it was, applies the migrations, and serves its data."""
    import gzip
    import shutil

    old = Path(__file__).resolve().parents[1] / "data" / "continuity" / "demo-00a2a26.sqlite3.gz"
    data = tmp_path / "club"
    data.mkdir()
    with gzip.open(old, "rb") as source, (data / "duplitarot.sqlite3").open("wb") as out:
        shutil.copyfileobj(source, out)
    before = _rows(data / "duplitarot.sqlite3", "SELECT name FROM tournaments_club ORDER BY 1")
    assert before
    served = serve(data)
    try:
        assert "migration(s) applied" in served.banner and served.setup_code is None
        start = next((data / "backups").glob("duplitarot-*-start.sqlite3"))
        assert _rows(start, "SELECT name FROM tournaments_club ORDER BY 1") == before
        now = _rows(data / "duplitarot.sqlite3", "SELECT name FROM clubs_club ORDER BY 1")
        assert now == before
        status, _headers, page = served.get("/")
        assert status == 200 and "Individuel" in page
    finally:
        served.stop()


def test_restore_takes_an_earlier_version_and_refuses_foreign_and_newer_databases(
    tmp_path: Path,
) -> None:
    """Another Django application's database (its superuser would become the only account)
    and a newer version's backup are refused in one line, nothing written; the backup of an
    earlier version (the continuity database) is restored and migrated at the next start; a
    database with a migration this code does not know is refused by serve, in one line."""
    import gzip
    import shutil

    old = Path(__file__).resolve().parents[1] / "data" / "continuity" / "demo-00a2a26.sqlite3.gz"
    earlier = tmp_path / "duplitarot-2025-03-14_22-41-07-finished.sqlite3"
    with gzip.open(old, "rb") as source, earlier.open("wb") as out:
        shutil.copyfileobj(source, out)
    newer = tmp_path / "newer.sqlite3"
    shutil.copyfile(earlier, newer)
    with sqlite3.connect(newer) as db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('clubs', '9999_from_a_newer_version', '2027-01-01')"
        )
    db.close()
    foreign = tmp_path / "blog.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app, name, applied)")
        db.executemany(
            "INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, '2026-01-01')",
            [("contenttypes", "0001_initial"), ("auth", "0001_initial"), ("blog", "0001_initial")],
        )
        db.execute("CREATE TABLE auth_user (id INTEGER PRIMARY KEY, username, is_superuser)")
        db.execute("INSERT INTO auth_user (username, is_superuser) VALUES ('intruder', 1)")
    db.close()

    data = tmp_path / "club"
    for refused_file, words in ((foreign, "autre application"), (newer, "plus récente")):
        refused = run_command(data, "restore_backup", str(refused_file))
        assert refused.returncode == 2, refused.stderr[-3000:]
        assert len(refused.stderr.strip().splitlines()) == 1 and words in refused.stderr
        assert not (data / "duplitarot.sqlite3").exists()
        assert not (data / "backups").exists()

    restored = run_command(data, "restore_backup", str(earlier))
    assert restored.returncode == 0, restored.stderr[-3000:]
    before = _rows(earlier, "SELECT name FROM tournaments_club ORDER BY 1")
    served = serve(data)
    try:
        assert "migration(s) applied" in served.banner and served.setup_code is None
        now = _rows(data / "duplitarot.sqlite3", "SELECT name FROM clubs_club ORDER BY 1")
        assert now == before
        status, _headers, page = served.get("/")
        assert status == 200 and "Individuel" in page
    finally:
        assert served.stop() == 0

    database = data / "duplitarot.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('clubs', '9999_from_a_newer_version', '2027-01-01')"
        )
    db.close()
    backups_before = sorted((data / "backups").iterdir())
    refused = run_command(data, "serve", "--port", str(free_port()), "--host", "127.0.0.1")
    assert refused.returncode == 2, refused.stderr[-3000:]
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "plus récente" in refused.stderr and "clubs.9999_from_a_newer_version" in refused.stderr
    assert sorted((data / "backups").iterdir()) == backups_before

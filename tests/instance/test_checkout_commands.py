"""In a developer's checkout, the instance's commands (``./dev manage backup``,
``restore_backup``, ``setup_code``) work on the data folder ``./dev serve`` serves from, never
on the checkout's own ``db.sqlite3``; before the first start they refuse in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.instance.serving import ROOT, clean_environment, serve

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("services")]


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``./dev manage ARGS``: manage.py of the checkout, debug on, no ``--data-dir``."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr[-3000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-3000:]
    return lines[0]


def test_the_instance_commands_of_a_checkout_use_the_data_folder_of_serve(
    tmp_path: Path,
) -> None:
    # The user's data folder (platformdirs reads XDG_DATA_HOME on Linux).
    env = clean_environment(XDG_DATA_HOME=str(tmp_path / "xdg"), DJANGO_DEBUG="1")
    folder = tmp_path / "xdg" / "duplitarot"
    checkout_db = ROOT / "db.sqlite3"
    checkout_before = checkout_db.stat().st_mtime_ns if checkout_db.exists() else None

    # Before the first start: nothing to back up nor to set up, said in one line each.
    line = _one_line_refusal(_manage(env, "setup_code"))
    assert "serve" in line and str(folder) in line
    line = _one_line_refusal(_manage(env, "backup"))
    assert "PostgreSQL" not in line and str(folder) in line

    served = serve(folder, env=env, name_the_folder=False)
    try:
        assert str(folder) in served.banner
        made = _manage(env, "backup")
        assert made.returncode == 0, made.stderr[-3000:]
        backup = Path(made.stdout.strip().splitlines()[-1])
        assert backup.parent == folder / "backups" and backup.exists()
        # A new setup code for the served instance: it opens the first run there.
        issued = _manage(env, "setup_code")
        assert issued.returncode == 0, issued.stderr[-3000:]
        code = issued.stdout.strip()
        served.get("/setup/")
        status, _headers, page = served.post(
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
        assert status == 302, page[-2000:]
        # A restore while it serves: refused, nothing changed.
        line = _one_line_refusal(_manage(env, "restore_backup", str(backup)))
        assert str(folder) in line
        status, _headers, page = served.get("/organiser/")
        assert status == 200 and "Tarot Club de Lyon" in page
    finally:
        assert served.stop() == 0
    restored = _manage(env, "restore_backup", str(backup))
    assert restored.returncode == 0, restored.stderr[-3000:]
    assert str(folder / "duplitarot.sqlite3") in restored.stdout
    checkout_after = checkout_db.stat().st_mtime_ns if checkout_db.exists() else None
    assert checkout_after == checkout_before

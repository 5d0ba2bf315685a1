"""The package a club installs: a wheel built from this checkout, installed into a fresh
virtual environment outside it, serving from there (``pipx install duplitarot-….whl`` does
the same: a virtual environment of its own and the ``duplitarot`` command)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.instance.serving import ROOT, clean_environment, serve

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("services")]


def _uv() -> str:
    found = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    if not Path(found).exists():
        pytest.fail("uv is missing: ./dev and .ci/run install it (pip install uv)")
    return found


def _run(*command: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]} {done.stderr[-3000:]}"
    return done.stdout


def test_the_built_wheel_installs_and_serves_outside_the_checkout(tmp_path: Path) -> None:
    uv = _uv()
    env = clean_environment(UV_PYTHON=sys.executable)
    env.pop("VIRTUAL_ENV", None)
    dist = tmp_path / "dist"
    _run(uv, "build", "--wheel", "--out-dir", str(dist), str(ROOT), cwd=tmp_path, env=env)
    wheels = list(dist.glob("duplitarot-*-py3-none-any.whl"))
    assert len(wheels) == 1
    venv = tmp_path / "venv"
    _run(uv, "venv", "--quiet", "--python", sys.executable, str(venv), cwd=tmp_path, env=env)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    _run(
        uv,
        "pip",
        "install",
        "--quiet",
        "--python",
        str(python),
        str(wheels[0]),
        cwd=tmp_path,
        env=env,
    )
    # The installed code, not this checkout's; no test or benchmark code in the package.
    where = _run(
        str(python),
        "-c",
        "import instance, config; print(instance.__file__, config.__file__)",
        cwd=tmp_path,
        env=env,
    )
    assert str(venv) in where and str(ROOT) not in where
    missing = subprocess.run(
        [str(python), "-c", "import bench"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        check=False,
    )
    assert missing.returncode != 0

    data = tmp_path / "club data"
    served = serve(data, command=[str(bindir / "duplitarot")], cwd=tmp_path, env=env)
    try:
        assert "migration(s) applied" in served.banner and served.setup_code
        status, headers, _page = served.get("/")
        assert status == 302 and headers["Location"] == "/setup/"
        status, _headers, page = served.get("/setup/")
        assert status == 200 and 'lang="fr"' in page and "setup_code" in page
        status, _headers, body = served.get("/static/js/htmx.min.js")
        assert status == 200 and len(body) > 10_000
        status, _headers, _body = served.get("/static/css/table.css")
        assert status == 200
        status, _headers, _body = served.get("/api/docs/")
        assert status == 200
    finally:
        assert served.stop() == 0
    with sqlite3.connect(data / "duplitarot.sqlite3") as db:
        applied = {app for (app,) in db.execute("SELECT DISTINCT app FROM django_migrations")}
    db.close()
    assert {"clubs", "tournaments", "scoring", "instance", "teammatch", "freedeal"} <= applied

"""A command run on a database that was never migrated says so in one line (exit code 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_archive_on_an_unmigrated_database_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "DJANGO_DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    done = subprocess.run(
        [sys.executable, "manage.py", "archive", "cup", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "database_not_migrated" in lines[0] and "migrate" in lines[0]

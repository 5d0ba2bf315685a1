"""The import contracts of pyproject.toml (``[tool.importlinter]``) hold, and each one bites.

CI runs ``lint-imports`` on the tree. Here it runs on a copy of the source (the ``.py`` files
of the root packages and pyproject.toml): the unmodified copy keeps every contract, and a copy
with one planted import breaks exactly the contract that forbids it. Each violation is planted
as a new module (a lazy import inside a function, which counts like any other), so the test
does not depend on which modules the apps have today.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONFIG = PYPROJECT["tool"]["importlinter"]
ROOT_PACKAGES: list[str] = CONFIG["root_packages"]
CONTRACTS: dict[str, str] = {c["id"]: c["name"] for c in CONFIG["contracts"]}

if importlib.util.find_spec("importlinter") is None:  # pragma: no cover - a stale environment
    pytest.fail("import-linter is missing from the environment: run `uv sync`", pytrace=False)


def source_copy(destination: Path) -> Path:
    """The root packages' ``.py`` files and pyproject.toml, copied under ``destination``."""
    for package in ROOT_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            target = destination / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    shutil.copyfile(ROOT / "pyproject.toml", destination / "pyproject.toml")
    return destination


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on ``tree``: its packages come first on the path (``-c`` puts the
    working directory there), wide output so that no contract's name is wrapped."""
    env = {**os.environ, "COLUMNS": "240", "NO_COLOR": "1"}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())",
            "--config",
            "pyproject.toml",
            "--no-cache",
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def broken_contracts(output: str) -> set[str]:
    """The names of the contracts reported broken."""
    return {
        name for name in CONTRACTS.values() if re.search(re.escape(name) + r"\s*BROKEN", output)
    }


def plant(tree: Path, module: str, statement: str) -> None:
    """A new module ``module`` of ``tree`` whose one function runs ``statement``."""
    path = tree / Path(*module.split(".")).with_suffix(".py")
    assert path.parent.is_dir() and not path.exists()
    path.write_text(f'"""Planted by the test."""\n\n\ndef planted():\n    {statement}\n')


def test_every_top_level_package_is_a_root_package() -> None:
    """A new app (the kernel, say) is checked by the contracts from the day it lands."""
    packages = {
        path.parent.name for path in ROOT.glob("*/__init__.py") if path.parent.name != "tests"
    }
    assert sorted(packages - set(ROOT_PACKAGES)) == []


def test_the_tree_keeps_every_contract(tmp_path: Path) -> None:
    result = lint_imports(source_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in result.stdout


@pytest.mark.parametrize(
    ("module", "statement", "contracts", "reported"),
    [
        pytest.param(
            "teammatch.planted",
            "from demo.services import play_outcome",
            ("no-demo-no-bench", "layers"),
            "teammatch.planted -> demo.services",
            id="an app imports demo",
        ),
        pytest.param(
            "clubs.planted",
            "from tournaments.models import Event",
            ("kernel", "layers"),
            "clubs.planted -> tournaments.models",
            id="the kernel imports a feature app",
        ),
        pytest.param(
            "scoring.planted",
            "import archives.events",
            ("archives-on-top", "layers"),
            "scoring.planted -> archives.events",
            id="a competition app imports archives",
        ),
        pytest.param(
            "demo.planted",
            "import bench.scale",
            ("no-demo-no-bench", "layers"),
            "demo.planted -> bench.scale",
            id="demo imports bench",
        ),
        pytest.param(
            "series.planted",
            "from teammatch.views import bracket_rounds",
            ("no-foreign-views", "layers"),
            "series.planted -> teammatch.views",
            id="an app imports another app's views",
        ),
        pytest.param(
            "tournaments.movements.planted",
            "from django.db import models",
            ("pure",),
            "tournaments.movements.planted -> django",
            id="a pure package imports django",
        ),
        pytest.param(
            "scoring.core.planted",
            "from scoring import models",
            ("pure",),
            "scoring.core.planted -> scoring.models",
            id="the scoring core imports its app",
        ),
        pytest.param(
            "rules.planted",
            "from tournaments.movements import schedule",
            ("pure", "layers"),
            "rules.planted -> tournaments.movements.schedule",
            id="rules imports an app",
        ),
        pytest.param(
            "tournaments.planted",
            "from scoring.services import standings_recompute",
            ("tournaments-not-scoring", "layers"),
            "tournaments.planted -> scoring.services",
            id="tournaments imports scoring",
        ),
        pytest.param(
            "tournaments.planted",
            "from freedeal.models import FreeDealTournament",
            ("layers",),
            "tournaments.planted -> freedeal.models",
            id="tournaments imports a kind above it",
        ),
        pytest.param(
            "runner.planted",
            "from scoring import services",
            ("layers",),
            "runner.planted -> scoring.services",
            id="a cycle: the runner imports scoring, which sends work to the runner",
        ),
        pytest.param(
            "instance.planted",
            "from config import urls",
            ("layers",),
            "instance.planted -> config.urls",
            id="a cycle: instance imports config, whose settings read the data folder",
        ),
    ],
)
def test_a_planted_import_breaks_its_contract(
    tmp_path: Path, module: str, statement: str, contracts: tuple[str, ...], reported: str
) -> None:
    tree = source_copy(tmp_path)
    plant(tree, module, statement)
    result = lint_imports(tree)
    assert result.returncode != 0, result.stdout
    assert broken_contracts(result.stdout) == {CONTRACTS[c] for c in contracts}, result.stdout
    assert reported in result.stdout


CYCLES_SCRIPT = """
import itertools, json, sys
import grimp
roots = json.loads(sys.argv[1])
graph = grimp.build_graph(*roots, cache_dir=None)
found = [
    [a, b]
    for a, b in itertools.combinations(roots, 2)
    if graph.direct_import_exists(importer=a, imported=b, as_packages=True)
    and graph.direct_import_exists(importer=b, imported=a, as_packages=True)
]
print(json.dumps(found))
"""


def package_cycles(tree: Path) -> list[list[str]]:
    """The pairs of top-level packages of ``tree`` that import each other (grimp's graph, the
    one lint-imports reads: lazy imports included)."""
    import json

    done = subprocess.run(
        [sys.executable, "-c", CYCLES_SCRIPT, json.dumps(ROOT_PACKAGES)],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found: list[list[str]] = json.loads(done.stdout)
    return found


def test_no_two_packages_import_each_other(tmp_path: Path) -> None:
    """The layers contract's promise, checked on the graph itself: no package cycle, and a
    planted one (the runner importing the scoring that sends it work) is seen and breaks it."""
    tree = source_copy(tmp_path)
    assert package_cycles(tree) == []
    plant(tree, "runner.planted", "from scoring import tasks")
    assert package_cycles(tree) == [["scoring", "runner"]]
    result = lint_imports(tree)
    assert result.returncode != 0, result.stdout
    assert broken_contracts(result.stdout) == {CONTRACTS["layers"]}, result.stdout

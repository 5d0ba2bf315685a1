"""The pure packages read like the rulebook: they import nothing from Django or from the apps.

Checked on the source (every import statement of every module), so a lazy import inside a
function is caught too, and a relative import is resolved against the module's package
(``from ..models import Event`` inside ``tournaments/movements/`` is ``tournaments.models``).
``tournaments`` must never import ``scoring`` either.

The checker takes the root of a source tree, so the tests can run it on a planted copy. ruff
enforces the same bans while editing (``[tool.ruff.lint.flake8-tidy-imports]`` in
pyproject.toml); the last test keeps its list in step with the apps' modules.
"""

import ast
import shutil
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A folder, or one module of an app (freedeal/seating.py: the free-deal seating and ranking).
PURE_PACKAGES = ["rules", "scoring/core", "tournaments/movements", "freedeal/seating.py"]
FRAMEWORKS = (
    "django",
    "rest_framework",
    "drf_spectacular",
    "celery",
    "kombu",
    "redis",
    "psycopg",
    "environ",
    "whitenoise",
)
APPS = (
    "clubs",
    "tournaments",
    "scoring",
    "series",
    "freedeal",
    "teammatch",
    "archives",
    "demo",
    "bench",
    "config",
    "runner",
)
FORBIDDEN_IN_PURE = FRAMEWORKS + APPS


def module_name(path: Path, root: Path) -> str:
    """Dotted name of the module stored at ``path`` under ``root`` (a package for __init__)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the module, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, node.module or ""))
                continue
            base_parts = package.split(".") if package else []
            if node.level - 1 >= len(base_parts):
                found.append((node.lineno, "." * node.level + (node.module or "")))
                continue  # beyond the top-level package: reported as is, never allowed
            base = ".".join(base_parts[: len(base_parts) - (node.level - 1)])
            if node.module:
                found.append((node.lineno, f"{base}.{node.module}"))
            else:  # from .. import models: each name may be a submodule
                found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            )
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def violations(root: Path, package: str, forbidden: tuple[str, ...], own: str) -> list[str]:
    """``path:line imports module`` for every import of ``package`` (a folder under ``root``)
    whose top-level name is forbidden, except the package ``own`` itself and its submodules.
    An unresolvable relative import (beyond the top-level package) is always a violation."""
    bad = []
    top = root / package
    for path in [top] if top.is_file() else sorted(top.rglob("*.py")):
        for lineno, module in imported_modules(path, root):
            if module == own or module.startswith(own + "."):
                continue
            if module.startswith(".") or module.split(".")[0] in forbidden:
                bad.append(f"{path.relative_to(root).as_posix()}:{lineno} imports {module}")
    return bad


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_imports_nothing_from_django_or_the_apps(package: str) -> None:
    own = package.removesuffix(".py").replace("/", ".")
    assert (ROOT / package).exists()
    assert violations(ROOT, package, FORBIDDEN_IN_PURE, own) == []


def test_tournaments_never_imports_scoring() -> None:
    assert violations(ROOT, "tournaments", ("scoring",), "tournaments") == []


def test_the_check_catches_a_lazy_django_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from django.db import models\n    return models\n")
    assert imported_modules(module, tmp_path) == [(2, "django.db")]


def test_relative_imports_are_resolved_against_the_package(tmp_path: Path) -> None:
    package = tmp_path / "tournaments" / "movements"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from .schedule import Schedule\nfrom .. import models\n")
    (package / "schedule.py").write_text(
        "from . import individual\nfrom ..models import Event\nfrom ...outside import x\n"
    )
    assert imported_modules(package / "__init__.py", tmp_path) == [
        (1, "tournaments.movements.schedule"),
        (2, "tournaments.models"),
    ]
    assert imported_modules(package / "schedule.py", tmp_path) == [
        (1, "tournaments.movements.individual"),
        (2, "tournaments.models"),
        (3, "...outside"),
    ]


@pytest.mark.parametrize(
    ("package", "planted", "reported"),
    [
        ("tournaments/movements", "from ..models import Event", "tournaments.models"),
        ("scoring/core", "from .. import models", "scoring.models"),
        ("rules", "from .django_shim import x", None),  # a sibling module: allowed
    ],
)
def test_a_relative_import_planted_in_a_copy_is_judged_by_what_it_resolves_to(
    tmp_path: Path, package: str, planted: str, reported: str | None
) -> None:
    copy = tmp_path / package
    shutil.copytree(ROOT / package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    own = package.replace("/", ".")
    assert violations(tmp_path, package, FORBIDDEN_IN_PURE, own) == []

    target = sorted(p for p in copy.glob("*.py") if p.name != "__init__.py")[0]
    source = target.read_text(encoding="utf-8")
    target.write_text(f"{source}\n\ndef planted():\n    {planted}\n", encoding="utf-8")
    line = len(source.splitlines()) + 4

    found = violations(tmp_path, package, FORBIDDEN_IN_PURE, own)
    relative = target.relative_to(tmp_path).as_posix()
    assert found == ([f"{relative}:{line} imports {reported}"] if reported else [])


def test_ruff_bans_the_frameworks_and_every_module_of_the_apps() -> None:
    """pyproject's banned-api list names every framework and every app module (not the pure
    subpackages), so ruff fails as soon as a pure package imports one of them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    banned = set(config["tool"]["ruff"]["lint"]["flake8-tidy-imports"]["banned-api"])
    expected = set(FRAMEWORKS) | set(APPS) - {"tournaments", "scoring"}
    for app, pure in (("tournaments", "movements"), ("scoring", "core")):
        for child in (ROOT / app).iterdir():
            is_module = child.suffix == ".py" and child.stem != "__init__"
            is_package = child.is_dir() and (child / "__init__.py").exists()
            if (is_module or is_package) and child.stem != pure:
                expected.add(f"{app}.{child.stem}")
    assert sorted(expected - banned) == []


@pytest.mark.parametrize(
    "package", ["rules", "clubs", "tournaments", "scoring", "series", "freedeal", "teammatch"]
)
def test_archives_come_after_every_competition(package: str) -> None:
    """The archives app reads every kind of competition; none of them imports it."""
    assert violations(ROOT, package, ("archives",), package) == []

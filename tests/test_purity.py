"""The pure packages read like the rulebook: they import nothing from Django or from the apps.

Checked on the source (every import statement of every module), so a lazy import inside a
function is caught too. ``tournaments`` must never import ``scoring`` either.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PURE_PACKAGES = ["rules", "scoring/core", "tournaments/movements"]
FORBIDDEN_IN_PURE = (
    "django",
    "rest_framework",
    "drf_spectacular",
    "celery",
    "tournaments",
    "scoring",
    "config",
)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append((node.lineno, str(node.args[0].value)))
    return found


def violations(package: str, forbidden: tuple[str, ...], allowed_self: str) -> list[str]:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for lineno, module in imported_modules(path):
            top = module.split(".")[0]
            if module == allowed_self or module.startswith(allowed_self + "."):
                continue
            if top in forbidden:
                bad.append(f"{path.relative_to(ROOT)}:{lineno} imports {module}")
    return bad


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_imports_nothing_from_django_or_the_apps(package: str) -> None:
    own = package.replace("/", ".")
    assert (ROOT / package).is_dir()
    assert violations(package, FORBIDDEN_IN_PURE, own) == []


def test_tournaments_never_imports_scoring() -> None:
    assert violations("tournaments", ("scoring",), "tournaments") == []


def test_the_check_itself_catches_a_django_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from django.db import models\n    return models\n")
    assert imported_modules(module) == [(2, "django.db")]

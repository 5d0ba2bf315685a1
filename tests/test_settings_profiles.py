"""The settings: one module per profile over a shared base, every variable documented.

``config.settings`` chooses the profile from the environment (``config.settings_developer``,
``config.settings_instance``, ``config.settings_production``); the base
(``config.settings_base``) holds what they share and no branch on the profile. Every variable
the settings read is documented in ``.env.example``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / ".env.example"
#: The modules the settings are made of, and the data folder's module they read the environment
#: through (``DUPLITAROT_DATA_DIR``, ``DUPLITAROT_BACKUP_DIR``).
SETTINGS_SOURCES = [
    *sorted((ROOT / "config").glob("settings*.py")),
    ROOT / "config" / "environment.py",
    ROOT / "instance" / "datadir.py",
]
PROFILE_WORDS = {"DATA_DIR", "DEBUG", "data_dir", "debug"}


def _constants(tree: ast.Module) -> dict[str, str]:
    """The module's string constants (``DATA_DIR_ENV = "DUPLITAROT_DATA_DIR"``)."""
    found: dict[str, str] = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found[node.targets[0].id] = node.value.value
    return found


def environment_reads(source: str) -> set[str]:
    """The variables a module reads: ``env("X")``, ``env.<cast>("X", ...)``,
    ``os.environ["X"]``, ``os.environ.get("X")``, ``environ.get("X")``, ``os.getenv("X")``
    (a module-level string constant as the name counts too)."""
    tree = ast.parse(source)
    constants = _constants(tree)

    def name_of(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        return None

    def is_environ(node: ast.expr) -> bool:
        return (isinstance(node, ast.Name) and node.id in {"environ", "env"}) or (
            isinstance(node, ast.Attribute) and node.attr in {"environ", "env"}
        )

    found: set[str] = set()
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and node.args:
            function = node.func
            named_env = isinstance(function, ast.Name) and function.id == "env"
            reads = isinstance(function, ast.Attribute) and (
                is_environ(function.value) or function.attr == "getenv"
            )
            if named_env or reads:
                name = name_of(node.args[0])
        elif isinstance(node, ast.Subscript) and is_environ(node.value):
            name = name_of(node.slice)
        if name is not None and re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
            found.add(name)
    return found


def documented() -> set[str]:
    """The variables ``.env.example`` sets or shows commented out (``# NAME=...``)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE))


def test_the_reader_finds_every_form_of_read() -> None:
    source = (
        'import os\nNAME = "E"\n'
        'a = env.int("A", default=1)\nb = env("B")\nc = os.environ["C"]\n'
        'd = os.environ.get("D", "")\ne = environ.get(NAME)\nf = os.getenv("F")\n'
        'g = settings.OTHER\nh = {"NOT_READ": 1}.get("NOT_READ")\n'
    )
    assert environment_reads(source) == {"A", "B", "C", "D", "E", "F"}


def test_every_variable_the_settings_read_is_documented_in_the_example_file() -> None:
    read: set[str] = set()
    for path in SETTINGS_SOURCES:
        read |= environment_reads(path.read_text(encoding="utf-8"))
    # The reader does see the settings' reads (a sample of each module's kind).
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "DUPLITAROT_DATA_DIR"} <= read
    assert {"DUPLITAROT_BACKUP_DIR", "DJANGO_ENV_FILE", "DUPLITAROT_FIRST_RUN_REDIRECT"} <= read
    assert sorted(read - documented()) == []


def test_the_base_has_no_branch_on_the_profile() -> None:
    """No ``if`` (nor conditional expression) of the base reads the debug flag or the data
    folder: what differs between the profiles is in their own modules."""
    tree = ast.parse((ROOT / "config" / "settings_base.py").read_text(encoding="utf-8"))
    branches = [node for node in ast.walk(tree) if isinstance(node, ast.If | ast.IfExp)]
    assert branches  # the base validates values (ranges, URL schemes)
    on_profile = [
        node.lineno
        for node in branches
        if {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)} & PROFILE_WORDS
    ]
    assert on_profile == []


PRINT = (
    "import json, django; django.setup(); from django.conf import settings as s; print(json.dumps("
    "{'debug': s.DEBUG, 'engine': s.DATABASES['default']['ENGINE'], 'background':"
    " s.DUPLITAROT_BACKGROUND, 'cache': s.CACHES['default']['BACKEND'], 'https':"
    " s.SECURE_SSL_REDIRECT, 'whitenoise': 'whitenoise.middleware.WhiteNoiseMiddleware' in"
    " s.MIDDLEWARE, 'data_dir': str(s.DATA_DIR), 'first_run': s.DUPLITAROT_FIRST_RUN_REDIRECT}))"
)


def load(module: str, tmp_path: Path, **extra: str) -> dict[str, object]:
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": module,
        "DJANGO_ENV_FILE": os.devnull,
        "PYTHONDONTWRITEBYTECODE": "1",
        **extra,
    }
    done = subprocess.run(
        [sys.executable, "-c", PRINT],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("chosen", ["config.settings", None])
def test_each_profile_by_its_own_module_or_chosen_by_the_environment(
    tmp_path: Path, chosen: str | None
) -> None:
    """The same settings whether ``config.settings`` chooses the profile or
    ``DJANGO_SETTINGS_MODULE`` names it."""
    key = {"DJANGO_SECRET_KEY": "k" * 50}
    folder = {"DUPLITAROT_DATA_DIR": str(tmp_path / "data")}
    developer = load(chosen or "config.settings_developer", tmp_path, DJANGO_DEBUG="1")
    production = load(chosen or "config.settings_production", tmp_path, **key)
    instance = load(chosen or "config.settings_instance", tmp_path, **folder)
    assert developer == {
        "debug": True,
        "engine": "django.db.backends.sqlite3",
        "background": "eager",
        "cache": "django.core.cache.backends.locmem.LocMemCache",
        "https": False,
        "whitenoise": False,
        "data_dir": "None",
        "first_run": False,
    }
    assert production == {**developer, "debug": False, "https": True, "whitenoise": True}
    assert instance == {
        "debug": False,
        "engine": "instance.sqlite",
        "background": "thread",
        "cache": "config.cache.FileCache",
        "https": False,
        "whitenoise": True,
        "data_dir": str(tmp_path / "data"),
        "first_run": True,
    }

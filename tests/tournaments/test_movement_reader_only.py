"""A stored movement is read through its one typed reader (``tournaments.movements.Schedule``,
``Event.schedule``): outside the movements package (the generators, the validator, the
hand-over of late changes) no module walks the document's rounds.

Checked on the source with ``ast``: a subscript or a ``.get`` / ``.setdefault`` / ``.pop``
naming a key only a movement document has (``schedule``, ``byes``) is a walk. The late
changes service, which rewrites the movement, may name none of the document's keys at all.
A walk planted in a copy is reported (the check bites).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("clubs", "tournaments", "scoring", "series", "freedeal", "teammatch", "demo", "bench")
READER_PACKAGE = "tournaments/movements"
#: Keys only a movement document has: naming one outside the package walks the document.
MOVEMENT_ONLY_KEYS = frozenset({"schedule", "byes"})
#: Every key of a movement document's rounds and entrants.
DOCUMENT_KEYS = MOVEMENT_ONLY_KEYS | {"entrants", "tables", "seats", "deal_set", "copy", "round"}
LATE_CHANGES = "tournaments/services/late_changes.py"
KEY_METHODS = frozenset({"get", "setdefault", "pop"})


def keys_named(path: Path, keys: frozenset[str]) -> list[tuple[int, str]]:
    """(line, key) of every ``x["key"]`` and ``x.get("key")`` of the module naming one of
    ``keys``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key = node.slice.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in KEY_METHODS
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            key = node.args[0].value
        if isinstance(key, str) and key in keys:
            found.append((node.lineno, key))
    return sorted(found)


def walks(root: Path) -> list[str]:
    """``path:line key`` of every walk of a movement document outside the reader's package."""
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if name.startswith(READER_PACKAGE + "/") or "/migrations/" in name:
                continue
            keys = DOCUMENT_KEYS if name == LATE_CHANGES else MOVEMENT_ONLY_KEYS
            found += [f"{name}:{line} {key}" for line, key in keys_named(path, keys)]
    return found


def test_no_module_outside_the_movements_package_walks_a_movement_document() -> None:
    assert walks(ROOT) == []


@pytest.mark.parametrize(
    ("module", "planted", "key"),
    [
        (LATE_CHANGES, 'event.movement["entrants"]', "entrants"),
        (LATE_CHANGES, 'document.get("tables", [])', "tables"),
        ("scoring/selectors.py", 'event.movement["schedule"]', "schedule"),
        ("series/selectors.py", 'raw_round.get("byes", [])', "byes"),
    ],
)
def test_a_walk_planted_in_a_copy_is_reported(
    tmp_path: Path, module: str, planted: str, key: str
) -> None:
    app = module.split("/")[0]
    shutil.copytree(ROOT / app, tmp_path / app, ignore=shutil.ignore_patterns("__pycache__"))
    assert walks(tmp_path) == []
    target = tmp_path / module
    source = target.read_text(encoding="utf-8")
    planted_view = f"\n\ndef planted(event, document, raw_round):\n    return {planted}\n"
    target.write_text(source + planted_view, encoding="utf-8")
    assert walks(tmp_path) == [f"{module}:{len(source.splitlines()) + 4} {key}"]

"""The shape of the freedeal app (docs/architecture.md): no query in its views and API (reads go
through ``freedeal.selectors``, writes through ``freedeal.services``); every service is
``free_deal_<entity>_<action>``, keyword-only and typed; the selectors write nothing.

Checked on the source (every call of every module), so a query slipped into a view fails here.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from freedeal import selectors, services

ROOT = Path(__file__).resolve().parents[2] / "freedeal"

# Calls that are queries (or writes) of the ORM, whatever they are called on.
ORM_CALLS = {
    "get_object_or_404", "get_list_or_404", "filter", "exclude", "select_related",
    "prefetch_related", "order_by", "values_list", "annotate", "aggregate", "exists", "count",
    "select_for_update", "refresh_from_db", "save", "delete", "bulk_create", "get_or_create",
    "update_or_create", "first", "last", "only", "defer", "distinct", "in_bulk",
}  # fmt: skip
# Writes of the ORM (a selector makes none).
ORM_WRITES = {"save", "delete", "create", "bulk_create", "update", "get_or_create",
              "update_or_create", "select_for_update"}  # fmt: skip


def calls(module: str, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, name) of every call (``f(...)`` or ``x.f(...)``) and ``.objects`` in a module."""
    tree = ast.parse((root / module).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                found.append((node.lineno, func.attr))
            elif isinstance(func, ast.Name):
                found.append((node.lineno, func.id))
        elif isinstance(node, ast.Attribute) and node.attr == "objects":
            found.append((node.lineno, "objects"))
    return found


@pytest.mark.parametrize("module", ["views.py", "api.py"])
def test_no_query_in_the_views_and_the_api(module: str) -> None:
    bad = [f"{module}:{line} {name}" for line, name in calls(module) if name in ORM_CALLS]
    bad += [f"{module}:{line} objects" for line, name in calls(module) if name == "objects"]
    assert bad == []


def test_the_check_catches_a_query(tmp_path: Path) -> None:
    (tmp_path / "views.py").write_text(
        "def view(request, pk):\n"
        "    get_object_or_404(Table, pk=pk)\n"
        "    return Tournament.objects.filter(pk=pk).first()\n"
    )
    found = {name for _line, name in calls("views.py", tmp_path)}
    assert {"objects", "filter", "first", "get_object_or_404"} <= found
    assert {"objects", "filter", "first", "get_object_or_404"} <= ORM_CALLS | {"objects"}


def test_the_selectors_write_nothing() -> None:
    assert [f"{line} {name}" for line, name in calls("selectors.py") if name in ORM_WRITES] == []


SERVICES = [
    name
    for name, function in inspect.getmembers(services, inspect.isfunction)
    if function.__module__ == services.__name__ and not name.startswith("_")
]


def test_the_services_are_the_writes_of_the_brief() -> None:
    assert set(SERVICES) == {
        "free_deal_create",
        "free_deal_settings_update",
        "free_deal_player_register",
        "free_deal_players_register",
        "free_deal_player_register_new",
        "free_deal_player_remove",
        "free_deal_start",
        "free_deal_result_enter",
        "free_deal_result_table_correct",
        "free_deal_result_director_correct",
        "free_deal_party_close",
        "free_deal_finish",
    }


@pytest.mark.parametrize("name", SERVICES)
def test_every_service_is_keyword_only_and_typed(name: str) -> None:
    signature = inspect.signature(getattr(services, name))
    assert signature.parameters
    for parameter in signature.parameters.values():
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, (name, parameter.name)
        assert parameter.annotation is not inspect.Parameter.empty, (name, parameter.name)
    assert signature.return_annotation is not inspect.Signature.empty
    assert getattr(services, name).__doc__


def test_every_public_selector_is_documented_or_obvious() -> None:
    public = [
        name
        for name, function in inspect.getmembers(selectors, inspect.isfunction)
        if function.__module__ == selectors.__name__ and name.startswith("free_deal_")
    ]
    assert len(public) >= 15
    for name in public:
        signature = inspect.signature(getattr(selectors, name))
        assert signature.return_annotation is not inspect.Signature.empty, name

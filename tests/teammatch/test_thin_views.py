"""The cups' views and API are thin: no ORM call in ``teammatch/views.py`` or
``teammatch/api.py`` (reads go through ``teammatch.selectors`` or ``clubs.access``, writes
through ``teammatch.services``), and the services module holds writes only."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from teammatch import selectors, services

APP = Path(__file__).resolve().parents[2] / "teammatch"

# Manager and queryset methods (``get`` and ``values`` are left out: dictionaries have them).
QUERYSET_METHODS = {
    "aggregate", "all", "annotate", "bulk_create", "bulk_update", "count", "create", "defer",
    "delete", "distinct", "exclude", "exists", "filter", "first", "get_or_create", "in_bulk",
    "iterator", "last", "only", "order_by", "prefetch_related", "raw", "select_for_update",
    "select_related", "update", "update_or_create", "values_list",
}  # fmt: skip
SHORTCUTS = {"get_object_or_404", "get_list_or_404"}


def orm_calls(source: str) -> list[str]:
    """Every ORM use in ``source``: managers, queryset methods, the 404 shortcuts."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("objects", "_default_manager"):
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in QUERYSET_METHODS:
                found.append(f"line {node.lineno}: .{func.attr}()")
            elif isinstance(func, ast.Name) and func.id in SHORTCUTS:
                found.append(f"line {node.lineno}: {func.id}()")
        elif isinstance(node, ast.ImportFrom) and any(a.name in SHORTCUTS for a in node.names):
            found.append(f"line {node.lineno}: imports a 404 shortcut")
    return found


@pytest.mark.parametrize("module", ["views.py", "api.py"])
def test_no_orm_call_in_the_views_and_the_api(module):
    assert orm_calls((APP / module).read_text(encoding="utf-8")) == []


def test_the_checker_sees_an_orm_call():
    planted = "def v(r):\n    return Cup.objects.filter(pk=1).first() or get_object_or_404(x)\n"
    assert len(orm_calls(planted)) == 4


def test_the_services_are_keyword_only_writes_named_entity_action():
    public = {
        name: function
        for name, function in inspect.getmembers(services, inspect.isfunction)
        if function.__module__ == services.__name__ and not name.startswith("_")
    }
    assert set(public) == {
        "cup_create",
        "cup_team_add",
        "cup_team_update",
        "cup_start",
        "cup_finish",
        "match_lineup_set",
        "room_result_enter",
        "room_result_table_correct",
        "room_result_director_correct",
        "match_quarter_close",
        "match_finish",
    }
    for name, function in public.items():
        parameters = inspect.signature(function).parameters.values()
        assert all(p.kind is p.KEYWORD_ONLY for p in parameters), name


def test_the_reads_moved_to_the_selectors():
    for name in ("match_sheets", "match_sheet", "match_labels", "rosters_of", "pure_match",
                 "result_state", "rules_deal_of", "rules_outcome", "bracket_rounds"):  # fmt: skip
        assert hasattr(selectors, name) and not hasattr(services, name), name

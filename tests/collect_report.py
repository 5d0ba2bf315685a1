"""A pytest plugin for ``tests/test_fast_loop.py``: after collection, write every test's id,
markers and fixtures as JSON to the file named by ``$DUPLITAROT_COLLECT_REPORT``, those kept
(``selected``) apart from those a ``-m`` expression left out (``deselected``).

Loaded only on request: ``pytest -p tests.collect_report --collect-only -m EXPR``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

REPORT_VARIABLE = "DUPLITAROT_COLLECT_REPORT"
_deselected: list[pytest.Item] = []


def _describe(item: pytest.Item) -> dict[str, Any]:
    return {
        "id": item.nodeid,
        "markers": sorted({mark.name for mark in item.iter_markers()}),
        "fixtures": sorted(getattr(item, "fixturenames", ())),
    }


def pytest_deselected(items: list[pytest.Item]) -> None:
    _deselected.extend(items)


def pytest_collection_finish(session: pytest.Session) -> None:
    target = os.environ.get(REPORT_VARIABLE)
    if target:
        report = {
            "selected": [_describe(item) for item in session.items],
            "deselected": [_describe(item) for item in _deselected],
        }
        Path(target).write_text(json.dumps(report), encoding="utf-8")

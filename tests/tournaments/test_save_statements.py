"""How many SQL statements a table's save costs (the live-entry path: every phone, every deal).

A count, not a timing: it pins the save path so that it does not grow unnoticed. Counted on the
table API (the phone page posts through the same service), for a deal of the open round: the
code lookup, the scope (movement, one outline of the table's deals and stored results), the
deal, the seated entrants, the write with its history line and the version bumps, the
open-round checks. The recompute request runs on commit (not inside the test's transaction).
Savepoints and transaction control are not counted. The figure measured independently on the
previous release was 14 (+ BEGIN and COMMIT); the save now reads the stored result only when
there is one (the outline says so): 11.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.builders import GARDE_46, first_play, running_event

pytestmark = pytest.mark.django_db

#: Statements of one save through the table API (measured: see the module docstring).
SAVE_STATEMENTS = 11


def _statements(queries: list[dict[str, str]]) -> list[str]:
    control = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")
    return [q["sql"] for q in queries if not q["sql"].upper().startswith(control)]


def test_a_save_costs_a_fixed_number_of_statements() -> None:
    event = running_event(tables=10, rounds=2)
    table, deal, _play = first_play(event)
    client = APIClient()
    url = f"/api/v1/tables/{table.code}/results/"
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, {"deal": deal.number, "outcome": GARDE_46}, format="json")
    assert response.status_code == 201, response.content
    statements = _statements(queries.captured_queries)
    assert len(statements) == SAVE_STATEMENTS, "\n".join(s[:120] for s in statements)

"""Every answer of the free-deal table API conforms to its OpenAPI schema (the one served at
``/api/schema/``): the documented status code, content type, headers and body, for each kind
of answer: the open party (200), stored (201), replay (200 with its header), conflict (409),
invalid (400), closed party (403), unknown code (404), throttled (429 with ``Retry-After``),
and the correction's (200, replay, 400, 403).

``tests/test_api_fuzz.py`` sends random cases to every operation; its world holds no free-deal
tournament, so here each kind of answer is reached on purpose."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.test import override_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from freedeal import services
from freedeal.models import FreeDealTable
from tests.factories import RunningFreeDealFactory

pytestmark = pytest.mark.django_db(transaction=True)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
PASSED = {"contract": "passed"}


@pytest.fixture(scope="module")
def api_schema(django_db_setup: None, django_db_blocker: Any) -> Any:
    with django_db_blocker.unblock():
        return schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())


def operation(api_schema: Any, method: str, path: str) -> Any:
    return api_schema[f"/api/v1/free-deal/tables/{path}"][method]


def header(response: Any, name: str) -> str:
    """A header of a schemathesis response (its names are lowercased, its values lists)."""
    values = response.headers.get(name.lower())
    return values[0] if isinstance(values, list) else values


def answer(api_schema: Any, method: str, path: str, status: int, **case: Any) -> Any:
    """Send one case and check its answer against the schema."""
    op = operation(api_schema, method, path)
    sent = op.Case(media_type="application/json" if "body" in case else None, **case)
    # The API answers gzip to a client that accepts it: read as one that does not.
    response = sent.call(headers={"Accept-Encoding": "identity"})
    assert response.status_code == status, response.text[:500]
    sent.validate_response(response, checks=CHECKS)
    return response


@pytest.fixture
def table() -> FreeDealTable:
    cache.clear()
    return RunningFreeDealFactory(players=5, parties=2).tables.get()


def test_the_table_reads_conform(api_schema, table) -> None:
    code = {"code": table.code}
    answer(api_schema, "GET", "{code}/", 200, path_parameters=code)
    seated = table.tournament.table_players(1, 1)
    services.free_deal_result_enter(
        table=table, deal=1, data={"contract": "garde", "taker": seated[0], "partner": seated[1],
                                   "oudlers": 2, "points": 50.5}
    )  # fmt: skip
    answer(api_schema, "GET", "{code}/", 200, path_parameters=code)


def test_every_entry_answer_conforms(api_schema, table) -> None:
    code = {"code": table.code}
    seated = table.tournament.table_players(1, 1)
    outcome = {"contract": "garde", "taker": seated[0], "partner": seated[0], "oudlers": 2,
               "points": 50, "poignees": [{"side": "attack", "size": "simple"}],
               "chelem": {"announced": False, "made_by": None}}  # fmt: skip
    results = "{code}/results/"
    body = {"deal": 1, "party": 1, "outcome": outcome}
    answer(api_schema, "POST", results, 201, path_parameters=code, body=body)
    replay = answer(api_schema, "POST", results, 200, path_parameters=code, body=body)
    assert header(replay, "Idempotent-Replayed") == "true"
    other = {**body, "outcome": {**outcome, "points": 60}}
    answer(api_schema, "POST", results, 409, path_parameters=code, body=other)
    bad = {**body, "deal": 2, "outcome": {**outcome, "points": 95}}
    answer(api_schema, "POST", results, 400, path_parameters=code, body=bad)
    answer(api_schema, "POST", results, 400, path_parameters=code, body={"deal": 2})
    later = {"deal": 2, "party": 2, "outcome": PASSED}
    answer(api_schema, "POST", results, 403, path_parameters=code, body=later)


def test_every_correction_answer_conforms(api_schema, table) -> None:
    code = {"code": table.code}
    seated = table.tournament.table_players(1, 1)
    correct = "{code}/results/{deal}/correct/"
    answer(api_schema, "POST", correct, 400, path_parameters=code | {"deal": 1}, body={})
    # a deal not entered yet is entered by its correction (200)
    answer(api_schema, "POST", correct, 200, path_parameters=code | {"deal": 1},
           body={"outcome": PASSED})  # fmt: skip
    outcome = {"contract": "prise", "taker": seated[2], "partner": seated[3], "oudlers": 1,
               "points": 51}  # fmt: skip
    answer(api_schema, "POST", correct, 200, path_parameters=code | {"deal": 1},
           body={"party": 1, "outcome": outcome})  # fmt: skip
    replay = answer(api_schema, "POST", correct, 200, path_parameters=code | {"deal": 1},
                    body={"outcome": outcome})  # fmt: skip
    assert header(replay, "Idempotent-Replayed") == "true"
    services.free_deal_party_close(tournament=table.tournament, confirm=True)
    answer(api_schema, "POST", correct, 403, path_parameters=code | {"deal": 1},
           body={"party": 1, "outcome": PASSED})  # fmt: skip


def test_unknown_codes_conform_then_throttled(api_schema) -> None:
    cache.clear()
    with override_settings(TABLE_CODE_FAILURE_RATE="1/min"):
        answer(api_schema, "GET", "{code}/", 404, path_parameters={"code": "NOPE"})
        throttled = answer(
            api_schema, "POST", "{code}/results/", 429, path_parameters={"code": "NOPE2"},
            body={"deal": 1, "outcome": PASSED},
        )  # fmt: skip
        assert int(header(throttled, "Retry-After")) >= 1
    cache.clear()

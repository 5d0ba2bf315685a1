"""One write path for every channel (``clubs.phone.phone_save``, ``clubs.api``): the three phone
pages and the three APIs of the three kinds (duplicate tables, cup rooms, free-deal tables)
share one idempotency (the same ``Idempotency-Key`` for another deal is 409
``idempotency_key_reused`` with the result the key stored, nothing written), one conflict
answer (409 with the stored result, the round, quarter or party moved on included) and one
answer shape for a refusal (RFC 9457 problem details, as the schema says)."""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.core.cache import cache
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from clubs.phone import ANSWER_SCHEMA
from freedeal import services as freedeal_services
from freedeal.models import FreeDealResult, FreeDealTournament
from teammatch import services as teammatch_services
from teammatch.models import RoomResult
from tests.builders import GARDE_46, running_event
from tests.factories import RunningFreeDealFactory
from tests.teammatch.worlds import feasible, form_data, other, running_match
from tournaments import services as tournament_services
from tournaments.models import Deal, Event, TableResult
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

KEY = "5d41402abc4b2a76b9719d911017c592"
ROOT = Path(__file__).resolve().parent.parent
GARDE_50 = {**GARDE_46, "points": 50}


# ------------------------------------------------------------------------------ the schema


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def _json_schema(node: Any, components: dict[str, Any]) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: references resolved, ``nullable`` as a null
    alternative."""
    if isinstance(node, list):
        return [_json_schema(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _json_schema(components[node["$ref"].rsplit("/", 1)[-1]], components)
    converted = {key: _json_schema(value, components) for key, value in node.items()}
    if converted.pop("nullable", False):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def answer_schema(openapi: dict[str, Any], path: str, status: int) -> dict[str, Any]:
    """The JSON Schema of the POST ``path``'s ``status`` answer (problem details)."""
    answer = openapi["paths"][path]["post"]["responses"][str(status)]
    assert list(answer["content"]) == ["application/problem+json"]
    schema = answer["content"]["application/problem+json"]["schema"]
    return dict(_json_schema(copy.deepcopy(schema), openapi["components"]["schemas"]))


def assert_conflict(openapi: dict[str, Any], path: str, response: Any, code: str) -> dict:
    """A 409 problem of ``code`` that validates against the schema of ``path``."""
    assert response.status_code == 409, response.content[:400]
    assert response["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    jsonschema.validate(body, answer_schema(openapi, path, 409))
    assert (body["code"], body["status"]) == (code, 409)
    assert body["type"].endswith(f":{code}") and body["title"] == "Conflict"
    assert "result" in body
    return body


def assert_page_conflict(response: Any, code: str) -> dict:
    assert response.status_code == 409, response.content[:400]
    body: dict[str, Any] = response.json()
    jsonschema.validate(body, ANSWER_SCHEMA)
    assert (body["status"], body["code"]) == ("refused", code)
    return body


def api_post(url: str, body: dict[str, Any], key: str | None = KEY) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    return client.post(url, body, content_type="application/json", **headers)


def page_post(url: str, data: dict[str, Any], key: str = KEY) -> Any:
    return Client().post(url, data, HTTP_ACCEPT="application/json", HTTP_IDEMPOTENCY_KEY=key)


# -------------------------------------------------------------------- the duplicate tables

TABLE_API = "/api/v1/tables/{code}/results/"


def table_deals(event: Event, table_number: int, round_number: int) -> list[Deal]:
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    return list(event.deals.filter(deal_set=play.deal_set).order_by("number"))


def table_form(deal: Deal, points: int = 46) -> dict[str, str]:
    values = {"contract": "garde", "oudlers": "2", "points": str(points), "petit_au_bout": ""}
    return {f"d{deal.number}-{name}": value for name, value in values.items()}


@pytest.fixture
def event() -> Event:
    cache.clear()
    return running_event(tables=5, rounds=4, deals_per_round=2)


def test_duplicate_table_api_key_reused_for_another_deal_is_409_with_the_keys_result(
    openapi, event
):
    table = event.tables.get(number=1)
    first, second = table_deals(event, 1, 1)
    url = TABLE_API.format(code=table.code)
    stored = api_post(url, {"deal": first.number, "outcome": GARDE_46})
    assert stored.status_code == 201 and stored["Idempotency-Key"] == KEY
    reused = api_post(url, {"deal": second.number, "outcome": GARDE_46})
    body = assert_conflict(openapi, TABLE_API, reused, "idempotency_key_reused")
    assert body["result"]["id"] == stored.json()["id"] and reused["Idempotency-Key"] == KEY
    assert TableResult.objects.count() == 1


def test_duplicate_table_page_key_reused_for_another_deal_is_409(event):
    table = event.tables.get(number=1)
    first, second = table_deals(event, 1, 1)
    url = f"/en/table/{table.code}/deal/{{number}}/"
    assert page_post(url.format(number=first.number), table_form(first)).status_code == 201
    reused = page_post(url.format(number=second.number), table_form(second))
    assert_page_conflict(reused, "idempotency_key_reused")
    assert TableResult.objects.count() == 1


def enter_everywhere_else(event: Event, deal: Deal, but: int) -> None:
    """Enter ``deal`` at every other table that plays it: its outcomes become public."""
    for play in event.schedule.plays():
        if play.deal_set == deal.deal_set and play.plays and play.table != but:
            other_table = event.tables.get(number=play.table)
            tournament_services.table_result_enter(table=other_table, deal=deal, outcome=GARDE_46)


def test_duplicate_another_outcome_after_the_round_moved_on_is_409_with_the_stored_result(
    openapi, event
):
    table = event.tables.get(number=1)
    first, second = table_deals(event, 1, 1)
    url = TABLE_API.format(code=table.code)
    stored = [api_post(url, {"deal": d.number, "outcome": GARDE_46}, key=None) for d in (first,)]
    api_post(url, {"deal": second.number, "outcome": GARDE_46}, key=None)
    enter_everywhere_else(event, first, but=1)  # first's outcomes are public now
    conflict = api_post(url, {"deal": first.number, "outcome": GARDE_50}, key=None)
    body = assert_conflict(openapi, TABLE_API, conflict, "result_exists")
    assert body["result"]["id"] == stored[0].json()["id"]
    assert body["result"]["outcome"]["points"] == 46 and body["result"]["round"] == 1
    # Another table still plays ``second``: the code may not read its outcome yet (the
    # publication rule), the conflict is the same answer with the result withheld.
    hidden = api_post(url, {"deal": second.number, "outcome": GARDE_50}, key=None)
    assert assert_conflict(openapi, TABLE_API, hidden, "result_exists")["result"] is None
    page = page_post(f"/en/table/{table.code}/deal/{second.number}/", table_form(second, 50))
    assert "50" not in assert_page_conflict(page, "result_exists")["card_html"].split("<form")[0]
    assert TableResult.objects.get(table=table, deal=first).points_half == 92


def test_duplicate_round_closed_by_the_director_is_409_with_the_stored_result(openapi, event):
    table = event.tables.get(number=1)
    first, second = table_deals(event, 1, 1)
    url = TABLE_API.format(code=table.code)
    for deal in (first, second):
        api_post(url, {"deal": deal.number, "outcome": GARDE_46}, key=None)
    enter_everywhere_else(event, first, but=1)
    event_services.round_close(event=event, round_number=1, confirm=True)
    conflict = api_post(url, {"deal": first.number, "outcome": GARDE_50}, key=None)
    body = assert_conflict(openapi, TABLE_API, conflict, "result_exists")
    assert body["result"]["outcome"]["points"] == 46


# --------------------------------------------------------------------------- the cup rooms

ROOM_API = "/api/v1/cups/rooms/{code}/results/"


@pytest.fixture
def running() -> Any:
    cache.clear()
    return running_match(deals_per_quarter=3)


def test_cup_room_api_key_reused_for_another_deal_is_409_with_the_keys_result(openapi, running):
    url = ROOM_API.format(code=running.rooms["open"].code)
    one, two = feasible(running.deal(1), "garde", 50), feasible(running.deal(2), "garde", 50)
    stored = api_post(url, {"deal": 1, "outcome": one})
    assert stored.status_code == 201, stored.content
    reused = api_post(url, {"deal": 2, "outcome": two})
    body = assert_conflict(openapi, ROOM_API, reused, "idempotency_key_reused")
    assert body["result"]["deal"] == 1 and body["result"]["outcome"] == stored.json()["outcome"]
    assert RoomResult.objects.count() == 1


def test_cup_room_page_key_reused_for_another_deal_is_409(running):
    code = running.rooms["open"].code
    one, two = feasible(running.deal(1), "garde", 50), feasible(running.deal(2), "garde", 50)
    url = f"/en/cups/room/{code}/deals/{{number}}/"
    assert page_post(url.format(number=1), form_data(1, one)).status_code == 201
    assert_page_conflict(
        page_post(url.format(number=2), form_data(2, two)), "idempotency_key_reused"
    )
    assert RoomResult.objects.count() == 1


def test_cup_another_outcome_after_the_quarter_closed_is_409_with_the_stored_result(
    openapi, running
):
    entered = {}
    for number in (1, 2, 3):
        entered[number], _row = running.enter("open", number)
        running.enter("closed", number)
    teammatch_services.match_quarter_close(match=running.match, quarter=1)
    url = ROOM_API.format(code=running.rooms["open"].code)
    conflict = api_post(url, {"deal": 1, "outcome": other(entered[1])}, key=None)
    body = assert_conflict(openapi, ROOM_API, conflict, "result_exists")
    assert body["result"]["outcome"]["points"] == entered[1]["points"]
    assert body["result"]["quarter"] == 1
    stored = RoomResult.objects.get(deal__number=1, room="open")
    assert stored.points == entered[1]["points"]


# ---------------------------------------------------------------------- the free-deal tables

FREE_DEAL_API = "/api/v1/free-deal/tables/{code}/results/"


@pytest.fixture
def tournament() -> FreeDealTournament:
    cache.clear()
    return RunningFreeDealFactory(parties=2)


def garde(taker: int, points: int = 46) -> dict[str, Any]:
    return {"contract": "garde", "taker": taker, "oudlers": 2, "points": points}


def test_free_deal_api_key_reused_for_another_deal_is_409_with_the_keys_result(openapi, tournament):
    table = tournament.tables.get()
    taker = tournament.table_players(1, 1)[0]
    url = FREE_DEAL_API.format(code=table.code)
    stored = api_post(url, {"deal": 1, "outcome": garde(taker)})
    assert stored.status_code == 201, stored.content
    reused = api_post(url, {"deal": 2, "outcome": garde(taker)})
    body = assert_conflict(openapi, FREE_DEAL_API, reused, "idempotency_key_reused")
    assert body["result"] == stored.json()
    assert FreeDealResult.objects.count() == 1


def test_free_deal_page_key_reused_for_another_deal_is_409(tournament):
    table = tournament.tables.get()
    taker = tournament.table_players(1, 1)[0]
    url = f"/en/free-deal/table/{table.code}/deal/{{number}}/"

    def form(number: int) -> dict[str, Any]:
        values = {"contract": "garde", "taker": taker, "oudlers": "2", "points": "46"}
        return {"party": 1, **{f"d{number}-{name}": v for name, v in values.items()}}

    assert page_post(url.format(number=1), form(1)).status_code == 201
    assert_page_conflict(page_post(url.format(number=2), form(2)), "idempotency_key_reused")
    assert FreeDealResult.objects.count() == 1


def test_free_deal_another_outcome_after_the_party_closed_is_409_with_the_stored_result(
    openapi, tournament
):
    table = tournament.tables.get()
    taker = tournament.table_players(1, 1)[0]
    url = FREE_DEAL_API.format(code=table.code)
    stored = api_post(url, {"deal": 1, "outcome": garde(taker)}, key=None)
    freedeal_services.free_deal_party_close(tournament=tournament, confirm=True)
    assert FreeDealTournament.objects.get(pk=tournament.pk).open_party == 2
    body = {"deal": 1, "party": 1, "outcome": garde(taker, 56)}
    conflict = assert_conflict(openapi, FREE_DEAL_API, api_post(url, body, None), "result_exists")
    assert conflict["result"] == stored.json()


# ---------------------------------------------------------------------------- the kernel


def _string_constants(tree: ast.AST) -> list[str]:
    """The module's string constants but its docstrings."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                docstrings.add(id(node.body[0].value))  # type: ignore[attr-defined]
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


APPS = ["clubs", "tournaments", "teammatch", "freedeal", "scoring", "series", "archives",
        "config", "instance", "demo"]  # fmt: skip


def test_only_the_kernels_idempotency_module_reads_the_key():
    readers = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            constants = _string_constants(ast.parse(path.read_text(encoding="utf-8")))
            if any(c.lower() in ("idempotency-key", "http_idempotency_key") for c in constants):
                readers.append(str(path.relative_to(ROOT)))
    assert readers == ["clubs/idempotency.py"]


WRITES = [
    "/api/v1/events/{event_id}/results/",
    TABLE_API,
    ROOM_API,
    "/api/v1/cups/rooms/{code}/results/correct/",
    FREE_DEAL_API,
    "/api/v1/free-deal/tables/{code}/results/{deal}/correct/",
]


@pytest.mark.parametrize("path", WRITES)
def test_every_write_declares_the_key_and_a_conflict_with_the_result(openapi, path):
    operation = openapi["paths"][path]["post"]
    headers = [p["name"] for p in operation["parameters"] if p["in"] == "header"]
    assert "Idempotency-Key" in headers
    conflict = answer_schema(openapi, path, 409)
    assert {"type", "title", "status", "detail", "code", "errors", "result"} <= set(
        conflict["required"]
    )
    for status, answer in operation["responses"].items():
        if status.startswith(("4", "5")):
            assert list(answer["content"]) == ["application/problem+json"], (path, status)


def test_a_refusal_is_a_problem_with_its_status_from_the_kernel(openapi, running):
    """A stage not open is the kernel's StageNotOpen: 403 on every API, problem details."""
    url = ROOM_API.format(code=running.rooms["open"].code)
    later = running.match.deals.filter(quarter=2).order_by("number").first()
    outcome = feasible(later, "garde", 50)
    refused = api_post(url, {"deal": later.number, "outcome": outcome}, key=None)
    assert refused.status_code == 403
    assert refused["Content-Type"] == "application/problem+json"
    body = refused.json()
    jsonschema.validate(body, answer_schema(openapi, ROOM_API, 403))
    assert (body["code"], body["status"], body["title"]) == (
        "deal_not_in_quarter",
        403,
        "Forbidden",
    )
    assert body["errors"] == {"deal": [body["detail"]]}


# ------------------------------------------------------------------ who entered, by which path


def test_each_kind_records_the_path_a_result_came_by_page_or_api(event, running, tournament):
    """The one "entered by": a phone's page is the table's path, the API the API's, in the
    three kinds (a result's ``entered_via``, as its history and archives keep it)."""
    table = event.tables.get(number=1)
    first, second = table_deals(event, 1, 1)
    page = f"/en/table/{table.code}/deal/{first.number}/"
    assert page_post(page, table_form(first), key="a" * 32).status_code == 201
    assert api_post(TABLE_API.format(code=table.code), {"deal": second.number,
                    "outcome": GARDE_46}, key=None).status_code == 201  # fmt: skip
    by_deal = {r.deal_id: r.entered_via for r in TableResult.objects.filter(table=table)}
    assert by_deal == {first.pk: "table", second.pk: "api"}

    code = running.rooms["open"].code
    one, two = feasible(running.deal(1), "garde", 50), feasible(running.deal(2), "garde", 50)
    assert (
        page_post(f"/en/cups/room/{code}/deals/1/", form_data(1, one), key="b" * 32).status_code
        == 201
    )
    assert (
        api_post(ROOM_API.format(code=code), {"deal": 2, "outcome": two}, key=None).status_code
        == 201
    )
    rooms = {r.deal.number: r.entered_via for r in RoomResult.objects.filter(room="open")}
    assert rooms == {1: "table", 2: "api"}

    free_table = tournament.tables.get()
    taker = tournament.table_players(1, 1)[0]
    values = {"contract": "garde", "taker": taker, "oudlers": "2", "points": "46"}
    form = {"party": 1, **{f"d1-{name}": v for name, v in values.items()}}
    free_page = f"/en/free-deal/table/{free_table.code}/deal/1/"
    assert page_post(free_page, form, key="c" * 32).status_code == 201
    free_api = FREE_DEAL_API.format(code=free_table.code)
    assert api_post(free_api, {"deal": 2, "outcome": garde(taker)}, key=None).status_code == 201
    corrected = api_post(f"{free_api}1/correct/", {"outcome": garde(taker, 56)}, key=None)
    assert corrected.status_code == 200, corrected.content
    free = {r.deal: r.entered_via for r in FreeDealResult.objects.filter(table=free_table)}
    assert free == {1: "api", 2: "api"}  # the last write of deal 1 came by the API
    lines = FreeDealResult.objects.get(table=free_table, deal=1).history.order_by("pk")
    assert [line.action for line in lines] == ["create", "correct"]

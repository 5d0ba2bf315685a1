"""Bad request bodies under /api/: a 4xx with a JSON body ``{"code", "detail"}``, never a 500,
nothing stored (``config/parsers.py``).

The result writes are the API's only bodies: they are posted to the organisers' endpoint
(session) and to a table's (its code), through the whole Django stack.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from config.parsers import MAX_DEPTH, MAX_DIGITS
from tests.builders import running_event
from tests.factories import ClubFactory, OrganiserFactory
from tournaments.models import Event, ResultChange, TableResult

pytestmark = pytest.mark.django_db

OUTCOME = '{"contract": "garde", "oudlers": 2, "points": 46}'
HANDLER = "clubs.api.exception_handler"


@pytest.fixture
def event() -> Event:
    return running_event(tables=3, club=ClubFactory())


@pytest.fixture
def client(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


@pytest.fixture
def exception_handler() -> Iterator[None]:
    """The settings naming :func:`clubs.api.exception_handler` as DRF's
    ``EXCEPTION_HANDLER`` (the framework's own errors and Django's body limits as JSON with a
    ``code``); a no-op once ``config/settings.py`` names it."""
    rest = {**settings.REST_FRAMEWORK, "EXCEPTION_HANDLER": HANDLER}
    with override_settings(REST_FRAMEWORK=rest):
        yield


def results_url(event: Event) -> str:
    return reverse("api:event_results", args=[event.pk])


def post(client: Client, event: Event, body: bytes | str, content_type: str = "application/json"):
    return client.post(results_url(event), body, content_type=content_type)


def assert_refused(response, status: int, code: str, event: Event) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/problem+json"
    data = response.json()
    assert data["status"] == status and data["type"].endswith(f":{code}") and data["title"]
    assert data["code"] == code and isinstance(data["detail"], str) and data["detail"]
    assert not TableResult.objects.filter(event=event).exists()
    assert not ResultChange.objects.filter(event=event).exists()
    return data


def body(deal: str = "1", table: str = "1", outcome: str = OUTCOME) -> str:
    return f'{{"deal": {deal}, "table": {table}, "outcome": {outcome}}}'


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("[" * 50_000, "json_too_deep"),
        ("[" * 50_000 + "]" * 50_000, "json_too_deep"),
        ('{"a": ' * 50_000 + "1" + "}" * 50_000, "json_too_deep"),
        (body(outcome='{"x": ' * MAX_DEPTH + "1" + "}" * MAX_DEPTH), "json_too_deep"),
        (body(deal="NaN"), "invalid_number"),
        (body(outcome='{"contract": "garde", "oudlers": 2, "points": Infinity}'), "invalid_number"),
        (body(deal="9" * 5000), "invalid_number"),
        (body(deal="9" * (MAX_DIGITS + 1)), "invalid_number"),
        (body(table="-" + "9" * 100), "invalid_number"),
        (body(outcome='{"contract": "garde", "oudlers": 2, "points": 1e999}'), "invalid_number"),
        (body(outcome='{"contract": "garde", "oudlers": 2, "points": 4' + "6" * 200 + '.0}'),
         "invalid_number"),
        ("[" + body() + "]", "not_an_object"),
        ('"deal"', "not_an_object"),
        ("42", "not_an_object"),
        ("null", "not_an_object"),
        ('{"deal": 1,', "invalid_json"),
        ("{'deal': 1}", "invalid_json"),
    ],
    ids=[
        "open-50000", "nested-arrays-50000", "nested-objects-50000", "deeper-than-limit",
        "nan", "infinity", "5000-digits", "19-digits", "negative-100-digits", "float-overflow",
        "float-200-digits", "top-level-array", "top-level-string", "top-level-number",
        "top-level-null", "truncated", "single-quotes",
    ],
)  # fmt: skip
def test_malformed_json_is_a_400_with_a_code(client, event: Event, payload: str, code: str) -> None:
    assert_refused(post(client, event, payload), 400, code, event)


@pytest.mark.parametrize(
    "payload",
    [
        b'{"deal": 1, "table": 1, "outcome": {"contract": "garde\xff"}}',
        b"\xfe\xff\x00{",
        '{"deal": 1, "table": "é"}'.encode("latin-1"),
    ],
)
def test_a_body_that_is_not_utf8_is_a_400(client, event: Event, payload: bytes) -> None:
    data = assert_refused(post(client, event, payload), 400, "invalid_encoding", event)
    assert "UTF-8" in data["detail"] or "utf-8" in data["detail"]


def test_the_largest_number_accepted_reaches_the_view_without_overflow(
    client, event: Event
) -> None:
    """18 digits pass the parser and are answered (no such deal), not an overflow (500)."""
    response = post(client, event, body(deal="9" * MAX_DIGITS))
    assert response.status_code == 400 and response.json()["code"] == "unknown_deal"
    assert not TableResult.objects.filter(event=event).exists()


def test_an_empty_body_is_a_400(client, event: Event) -> None:
    response = post(client, event, "")
    assert response.status_code == 400 and response.json()["code"]
    assert not TableResult.objects.filter(event=event).exists()


@pytest.mark.usefixtures("exception_handler")
def test_a_body_past_the_upload_limit_is_a_413(client, event: Event) -> None:
    """Larger than Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB by default): 413."""
    padding = " " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440)
    data = assert_refused(post(client, event, body() + padding), 413, "request_too_large", event)
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440) in data["detail"]


@pytest.mark.usefixtures("exception_handler")
@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1_000)
def test_the_upload_limit_is_read_at_request_time(client, event: Event) -> None:
    assert_refused(post(client, event, body() + " " * 1_000), 413, "request_too_large", event)
    response = post(client, event, body(deal="1000"))
    assert response.status_code == 400 and response.json()["code"] == "unknown_deal"


def test_a_table_phone_body_is_parsed_the_same_way(event: Event) -> None:
    table = event.tables.order_by("number").first()
    assert table is not None
    url = reverse("api:table_results", args=[table.code])
    response = Client().post(url, "[" * 50_000, content_type="application/json")
    assert_refused(response, 400, "json_too_deep", event)
    response = Client().post(url, '{"deal": NaN}', content_type="application/json")
    assert_refused(response, 400, "invalid_number", event)


# --- the framework's own errors: clubs.api.exception_handler --------------------------------


@pytest.mark.usefixtures("exception_handler")
@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/xml", "application/x-yaml", "image/png"]
)
def test_a_wrong_content_type_is_a_415_with_a_code(client, event: Event, content_type) -> None:
    response = post(client, event, body(), content_type=content_type)
    assert_refused(response, 415, "unsupported_media_type", event)


@pytest.mark.usefixtures("exception_handler")
def test_a_multipart_body_past_the_upload_limit_is_a_413(client, event: Event) -> None:
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1_000):
        response = client.post(results_url(event), {"deal": "1", "outcome": "x" * 2_000})
    assert_refused(response, 413, "request_too_large", event)


@pytest.mark.usefixtures("exception_handler")
def test_too_many_form_fields_is_a_400(client, event: Event) -> None:
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=10):
        response = client.post(results_url(event), {f"f{i}": "1" for i in range(20)})
    assert_refused(response, 400, "too_many_fields", event)


@pytest.mark.usefixtures("exception_handler")
def test_the_framework_errors_carry_their_code(event: Event) -> None:
    response = Client().post(results_url(event), body(), content_type="application/json")
    assert response.status_code in (401, 403)
    assert response.json()["code"] in ("not_authenticated", "permission_denied")
    response = Client().get(reverse("api:event", args=[event.pk + 1000]))
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    response = Client().delete(reverse("api:event", args=[event.pk]))
    assert response.status_code in (403, 405) and "code" in response.json()


def test_without_the_handler_a_body_past_the_limit_is_still_a_400(client, event: Event) -> None:
    """Django's answer to ``RequestDataTooBig`` (SuspiciousOperation): 400, not 500."""
    rest = {k: v for k, v in settings.REST_FRAMEWORK.items() if k != "EXCEPTION_HANDLER"}
    with override_settings(REST_FRAMEWORK=rest, DATA_UPLOAD_MAX_MEMORY_SIZE=1_000):
        response = client.post(results_url(event), {"deal": "1", "outcome": "x" * 2_000})
        assert response.status_code == 400
        response = post(client, event, body() + " " * 1_000)
        assert response.status_code == 400
    assert not TableResult.objects.filter(event=event).exists()

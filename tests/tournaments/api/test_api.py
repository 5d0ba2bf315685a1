"""REST API v1 of the tournaments app: reads, result writes (201/400/403/404/409), OpenAPI schema.

The rankings and hand-score endpoints are tested in tests/scoring/api.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import translation
from rest_framework.test import APIClient

from rules.errors import field_label
from tests.builders import GARDE_46, first_play, running_event
from tests.factories import OrganiserFactory, UserFactory
from tournaments.models import Event, ResultChange, TableResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return running_event(tables=5, rounds=2)


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def stored(event: Event) -> tuple:
    event.refresh_from_db()
    return event.results_version, TableResult.objects.count(), ResultChange.objects.count()


def test_table_code_entry_201_then_409_with_the_stored_result(client, event):
    table, deal, _ = first_play(event)
    url = f"/api/v1/tables/{table.code}/results/"
    response = client.post(url, {"deal": deal.number, "outcome": GARDE_46}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["value"] == 60
    assert body["marks"][deal.taker_seat] == 180
    assert sum(body["marks"].values()) == 0
    assert body["outcome"]["points"] == 46
    again = client.post(
        url, {"deal": deal.number, "outcome": {**GARDE_46, "points": 50}}, format="json"
    )
    assert again.status_code == 409
    conflict = again.json()
    assert conflict["code"] == "result_exists"
    assert conflict["result"]["id"] == body["id"]
    assert conflict["result"]["outcome"]["points"] == 46
    listed = client.get(url).json()
    assert [r["id"] for r in listed] == [body["id"]]


@pytest.mark.parametrize(
    ("payload", "key"),
    [
        (
            {"deal": 1, "outcome": {"contract": "garde", "oudlers": 2, "points": 95}},
            "outcome.points",
        ),
        (
            {"deal": 1, "outcome": {"contract": "prise", "oudlers": 2, "points": 46}},
            "outcome.contract",
        ),
        ({"deal": 1, "outcome": {"contract": "garde", "oudlers": 2}}, "outcome.points"),
        (
            {"deal": 1, "outcome": {**GARDE_46, "poignees": [{"side": "x", "size": "simple"}]}},
            "outcome.poignees[0].side",
        ),
        ({"deal": 999, "outcome": GARDE_46}, "deal"),
        ({"deal": "one", "outcome": GARDE_46}, "deal"),
        ({"deal": 1, "outcome": "garde"}, "outcome"),
        ({"outcome": GARDE_46}, "deal"),
    ],
)
def test_invalid_entry_is_400_naming_the_field_and_changes_nothing(client, event, payload, key):
    table, deal, _ = first_play(event)
    if payload.get("deal") == 1:
        payload = {**payload, "deal": deal.number}
    before = stored(event)
    response = client.post(f"/api/v1/tables/{table.code}/results/", payload, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert list(errors) == [key]
    field = key.removeprefix("outcome.")
    with translation.override("fr"):  # the API answers in French by default
        label = field_label(field, translation.gettext)
    assert errors[key][0].startswith(f"{label}: ")  # the translated name of the field
    assert stored(event) == before


def test_deal_not_scheduled_at_this_table_is_400(client, event):
    table, deal, _ = first_play(event)
    other = event.deals.exclude(deal_set=deal.deal_set).order_by("-number").first()
    sets = {play.deal_set for play in event.schedule.plays_of_table(1)}
    assert other.deal_set not in sets
    response = client.post(
        f"/api/v1/tables/{table.code}/results/",
        {"deal": other.number, "outcome": GARDE_46},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "deal_not_scheduled"
    assert list(response.json()["errors"]) == ["deal"]


def test_event_not_running_is_400(client):
    event = running_event(tables=5, rounds=2, status=Event.Status.FINISHED)
    table, deal, _ = first_play(event)
    response = client.post(
        f"/api/v1/tables/{table.code}/results/",
        {"deal": deal.number, "outcome": GARDE_46},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "event_not_running"


def test_unknown_table_code_is_404(client, event):
    response = client.post(
        "/api/v1/tables/nope/results/", {"deal": 1, "outcome": GARDE_46}, format="json"
    )
    assert response.status_code == 404


def test_organiser_entry_and_permissions(client, event):
    table, deal, _ = first_play(event)
    url = f"/api/v1/events/{event.pk}/results/"
    payload = {"deal": deal.number, "table": table.number, "outcome": GARDE_46}
    assert client.post(url, payload, format="json").status_code == 403  # anonymous
    client.force_authenticate(UserFactory())
    assert client.post(url, payload, format="json").status_code == 403  # not an organiser
    organiser = OrganiserFactory(clubs=[event.club])
    client.force_authenticate(organiser)
    response = client.post(url, {**payload, "table": 99}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["table"]
    response = client.post(url, payload, format="json")
    assert response.status_code == 201
    result = TableResult.objects.get(pk=response.json()["id"])
    assert result.entered_by == organiser
    assert result.entered_via == "api"
    assert client.post(url, payload, format="json").status_code == 200  # same outcome: replay
    other = {**payload, "outcome": {**payload["outcome"], "points": 60}}
    assert client.post(url, other, format="json").status_code == 409
    assert len(client.get(url).json()["results"]) == 1


def test_private_event_is_404_except_for_its_organisers(client, event):
    Event.objects.filter(pk=event.pk).update(public=False)
    for path in ["", "entrants/", "movement/", "deals/", "results/", "rankings/"]:
        assert client.get(f"/api/v1/events/{event.pk}/{path}").status_code == 404, path
    client.force_authenticate(OrganiserFactory(clubs=[event.club]))
    for path in ["", "entrants/", "movement/", "deals/", "results/", "rankings/"]:
        assert client.get(f"/api/v1/events/{event.pk}/{path}").status_code == 200, path


def test_reads(client, event):
    event.deals.update(cards="secret")
    events = client.get("/api/v1/events/").json()["results"]
    assert [e["id"] for e in events] == [event.pk]
    entrants = client.get(f"/api/v1/events/{event.pk}/entrants/").json()
    assert entrants["count"] == 20
    movement = client.get(f"/api/v1/events/{event.pk}/movement/").json()
    assert movement["schema"] == "duplitarot-movement/1"
    deals = client.get(f"/api/v1/events/{event.pk}/deals/").json()["results"]
    assert deals[0]["cards"] is None  # hidden while running
    client.force_authenticate(OrganiserFactory(clubs=[event.club]))
    deals = client.get(f"/api/v1/events/{event.pk}/deals/").json()["results"]
    assert deals[0]["cards"] == "secret"
    client.force_authenticate(None)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    assert client.get(f"/api/v1/events/{event.pk}/deals/").json()["results"][0]["cards"]
    table, _, _ = first_play(event)
    plan = client.get(f"/api/v1/tables/{table.code}/").json()
    assert plan["table"] == 1
    assert [r["round"] for r in plan["rounds"]] == [1, 2]
    assert {s["seat"] for s in plan["rounds"][0]["seats"]} == set("NESW")


def test_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    text = target.read_text()
    assert "/api/v1/tables/{code}/results/" in text
    assert "/api/v1/events/{event_id}/rankings/" in text


def test_schema_and_docs_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200

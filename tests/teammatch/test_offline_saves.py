"""Phones that never lose an entry (issue 23), the cup room's half of the server: stored
idempotency keys, the JSON answers of the room phone's saves, late arrivals and the cup's
list of them."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from teammatch import services
from teammatch.models import RoomEntryKey, RoomLateArrival, RoomResult
from tests.factories import OrganiserFactory
from tests.teammatch.worlds import feasible, form_data, other, running_match

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
KEY = "0cc175b9c0f1b6a831c399e269772661"
KEPT_AT = timezone.now() - datetime.timedelta(minutes=10)
PARIS_WINTER = datetime.timezone(datetime.timedelta(hours=1))
KEPT = {"HTTP_X_ENTRY_KEPT_SINCE": KEPT_AT.astimezone(PARIS_WINTER).isoformat(timespec="seconds")}


@pytest.fixture
def running():
    return running_match(deals_per_quarter=3)


def url(running, room: str = "open", tail: str = "") -> str:
    return f"/en/cups/room/{running.rooms[room].code}/{tail}"


def post(running, number: int, outcome, key: str | None = KEY, tail: str = "", **extra):
    headers = {**JSON, **extra}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    path = url(running, "open", f"deals/{number}/{tail}")
    return Client().post(path, form_data(number, outcome), **headers)


def test_stored_then_replayed_with_the_card(running):
    outcome = feasible(running.deal(1), "garde", 50)
    saved = post(running, 1, outcome)
    assert saved.status_code == 201, saved.content
    body = saved.json()
    assert (body["status"], body["code"], body["deal"]) == ("stored", "", 1)
    assert body["card_html"].startswith('<section class="deal" id="deal-1">')
    result = RoomResult.objects.get(deal__number=1, room="open")
    assert f"<strong>{result.taker_mark}</strong>" in body["card_html"]
    assert RoomEntryKey.objects.get(holder=running.rooms["open"]).result_pk == result.pk
    again = post(running, 1, outcome)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["status"] == "replayed" and again.json()["corrected"] is False


def test_a_replay_after_the_directors_correction_says_corrected(running):
    outcome = feasible(running.deal(1), "garde", 50)
    post(running, 1, outcome)
    services.room_result_director_correct(
        match=running.match, room="open", deal_number=1, outcome=other(outcome),
        actor=running.organiser, reason="misread",
    )  # fmt: skip
    again = post(running, 1, outcome)
    assert again.status_code == 200 and again.json()["corrected"] is True
    assert RoomResult.objects.get(deal__number=1, room="open").points == other(outcome)["points"]


def test_a_key_reused_for_another_outcome_or_deal_is_409(running):
    outcome = feasible(running.deal(1), "garde", 50)
    post(running, 1, outcome)
    reused = post(running, 1, other(outcome))
    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"
    elsewhere = post(running, 2, feasible(running.deal(2), "garde", 50))
    assert elsewhere.status_code == 409 and elsewhere.json()["code"] == "idempotency_key_reused"
    assert RoomResult.objects.count() == 1


def test_a_malformed_key_is_400(running):
    response = post(running, 1, feasible(running.deal(1), "garde", 50), key="x" * 300)
    assert response.status_code == 400 and response.json()["status"] == "invalid"
    assert not RoomResult.objects.exists()


def test_invalid_and_refused_answers(running):
    outcome = feasible(running.deal(1), "garde", 50)
    invalid = post(running, 1, {**outcome, "points": 95}, **KEPT)
    assert invalid.status_code == 422
    body = invalid.json()
    assert body["status"] == "invalid" and "points" in body["errors"]
    assert 'aria-invalid="true"' in body["card_html"]
    invalid_arrival = RoomLateArrival.objects.get()
    assert invalid_arrival.code == "invalid" and "points" in invalid_arrival.message  # named
    services.room_result_enter(room=running.rooms["open"], deal_number=1, outcome=outcome)
    refused = post(running, 1, other(outcome), key="k2", **KEPT)
    assert refused.status_code == 409
    assert (refused.json()["status"], refused.json()["code"]) == ("refused", "result_exists")
    later = running.match.deals.filter(quarter=2).order_by("number").first()
    quarter = post(running, later.number, feasible(later, "garde", 50), key="k3", **KEPT)
    assert quarter.status_code == 403 and quarter.json()["code"] == "deal_not_in_quarter"
    assert quarter.json()["card_html"] == ""  # the page shows the quarter being played only
    # The refusal of deal 1 replaced its invalid entry (one unhandled arrival per deal).
    codes = list(RoomLateArrival.objects.order_by("pk").values_list("code", flat=True))
    assert codes == ["result_exists", "deal_not_in_quarter"]


def test_a_late_arrival_needs_the_header_and_a_refusal(running):
    outcome = feasible(running.deal(1), "garde", 50)
    assert post(running, 1, outcome, **KEPT).status_code == 201
    assert post(running, 1, outcome, **KEPT).status_code == 200
    assert post(running, 1, other(outcome), key="k2").status_code == 409
    assert not RoomLateArrival.objects.exists()


def test_the_cup_page_lists_late_arrivals_and_its_organisers_mark_them_handled(running):
    outcome = feasible(running.deal(1), "garde", 50)
    services.room_result_enter(room=running.rooms["open"], deal_number=1, outcome=outcome)
    post(running, 1, other(outcome), **KEPT)
    arrival = RoomLateArrival.objects.get()
    director = Client()
    director.force_login(running.organiser)
    html = director.get(f"/en/organiser/cups/{running.cup.pk}/").content.decode()
    assert f'id="late-{arrival.pk}"' in html and arrival.message in html
    assert f"/en/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/deals/1/open/" in html
    handled = f"/en/organiser/cups/{running.cup.pk}/late/{arrival.pk}/handled/"
    assert handled in html
    stranger = Client()
    stranger.force_login(OrganiserFactory())
    assert stranger.post(handled).status_code == 404
    assert Client().post(handled).status_code == 302  # the login page
    arrival.refresh_from_db()
    assert not arrival.handled
    assert director.post(handled).status_code == 302
    arrival.refresh_from_db()
    assert arrival.handled
    html = director.get(f"/en/organiser/cups/{running.cup.pk}/").content.decode()
    assert 'id="late-arrivals"' not in html


def test_keys_go_with_their_room(running):
    post(running, 1, feasible(running.deal(1), "garde", 50))
    post(running, 1, other(feasible(running.deal(1), "garde", 50)), key="k2", **KEPT)
    assert RoomEntryKey.objects.count() == 1 and RoomLateArrival.objects.count() == 1
    running.rooms["open"].delete()
    assert not RoomEntryKey.objects.exists() and not RoomLateArrival.objects.exists()


def test_the_page_keeps_the_points_for_back(running):
    html = Client().get(url(running)).content.decode()
    assert 'autocomplete="off"' not in html and "csrfmiddlewaretoken" in html

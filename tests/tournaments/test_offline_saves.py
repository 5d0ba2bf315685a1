"""Phones that never lose an entry (issue 23), the duplicate table's half of the server:
stored idempotency keys (the phone page and the table API share them), the JSON answers of the
phone's saves with the deal's card, late arrivals and the director's list of them, and the
fields the Back button keeps."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from tests.builders import GARDE_46, first_play, random_outcome, running_event
from tests.factories import OrganiserFactory
from tests.tournaments.test_save_statements import SAVE_STATEMENTS, _statements
from tournaments import services
from tournaments.models import (
    Event,
    Table,
    TableEntryKey,
    TableLateArrival,
    TableResult,
)
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
KEY = "8f14e45fceea167a5a36dedd4bea2543"
# Kept ten minutes ago by the phone's clock (inside the competition's window, stored as is).
KEPT_AT = (timezone.now() - datetime.timedelta(minutes=10)).replace(microsecond=0)
KEPT = {"HTTP_X_ENTRY_KEPT_SINCE": KEPT_AT.strftime("%Y-%m-%dT%H:%M:%S.000Z")}


def form_data(number: int, **values: str) -> dict[str, str]:
    base = {"contract": "garde", "oudlers": "2", "points": "46", "petit_au_bout": ""}
    base.update(values)
    return {f"d{number}-{name}": value for name, value in base.items()}


def save_url(table: Table, number: int, action: str = "") -> str:
    return f"/en/table/{table.code}/deal/{number}/" + (f"{action}/" if action else "")


@pytest.fixture
def event() -> Event:
    return running_event(tables=4, rounds=3)


@pytest.fixture
def phone() -> Client:
    return Client()


def post_json(
    client: Client, url: str, data: dict[str, Any], key: str | None = KEY, **headers: Any
) -> Any:
    extra = {**JSON, **headers}
    if key is not None:
        extra["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(url, data, **extra)


def director_corrects(event: Event, result: TableResult) -> TableResult:
    organiser = event.club.organisers.first() or OrganiserFactory(clubs=[event.club])
    return services.table_result_director_correct(
        result=result, outcome={**GARDE_46, "points": 50}, actor=organiser, reason="misread"
    )


# ------------------------------------------------------------------------ the JSON answers


def test_a_stored_entry_answers_201_json_with_its_card_and_keeps_the_key(event, phone):
    table, deal, _play = first_play(event)
    response = post_json(phone, save_url(table, deal.number), form_data(deal.number, round="1"))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "stored" and body["code"] == "" and body["deal"] == deal.number
    assert body["message"] == f"Deal {deal.number} saved." and body["corrected"] is False
    assert body["errors"] == {} and body["fix"] == ""
    card = body["card_html"]
    assert card.startswith(f'<section class="deal" id="deal-{deal.number}">')
    assert "✓" not in card or "garde" in card.lower()
    result = TableResult.objects.get(table=table, deal=deal)
    assert f"<strong>{result.value}</strong>" in card or str(result.value) in card
    key = TableEntryKey.objects.get(holder=table, key=KEY)
    assert (key.deal, key.result_pk) == (deal.number, result.pk) and len(key.digest) == 64
    assert response["Idempotency-Key"] == KEY


def test_the_same_key_again_is_a_replay_with_nothing_written(event, phone):
    table, deal, _play = first_play(event)
    url = save_url(table, deal.number)
    post_json(phone, url, form_data(deal.number, round="1"))
    count = TableResult.objects.count()
    again = post_json(phone, url, form_data(deal.number, round="1"))
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    body = again.json()
    assert body["status"] == "replayed" and body["corrected"] is False
    assert body["message"] == f"Deal {deal.number} received."
    assert TableResult.objects.count() == count and TableEntryKey.objects.count() == 1


def test_a_lost_answers_resend_says_in_french_the_deal_was_received(event, phone):
    """Issue 31: the phone's own entry, stored, its answer lost: the resend says it arrived
    (never "nothing changed", which reads as "not saved")."""
    table, deal, _play = first_play(event)
    url = f"/table/{table.code}/deal/{deal.number}/"  # the French pages
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    assert post_json(phone, url, form_data(deal.number, round="1"), **french).status_code == 201
    again = post_json(phone, url, form_data(deal.number, round="1"), **KEPT, **french)
    assert again.status_code == 200 and again.json()["status"] == "replayed"
    assert again.json()["message"] == f"Donne {deal.number} bien reçue."
    other_phone = post_json(Client(), url, form_data(deal.number), key=KEY[::-1], **french)
    assert other_phone.json()["message"] == (
        f"Donne {deal.number} bien reçue : la même saisie était déjà enregistrée."
    )


def test_a_replay_after_the_directors_correction_says_corrected(event, phone):
    table, deal, _play = first_play(event)
    url = save_url(table, deal.number)
    post_json(phone, url, form_data(deal.number, round="1"))
    corrected = director_corrects(event, TableResult.objects.get(table=table, deal=deal))
    again = post_json(phone, url, form_data(deal.number, round="1"))
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    body = again.json()
    assert body["status"] == "replayed" and body["corrected"] is True
    assert "corrected" in body["message"]
    stored = TableResult.objects.get(table=table, deal=deal)
    assert stored.points_half == corrected.points_half == 100  # nothing written by the replay
    # without a key, the same outcome is a conflict with the director's result
    other = post_json(phone, url, form_data(deal.number, round="1"), key=None)
    assert other.status_code == 409 and other.json()["code"] == "result_exists"


def test_a_known_key_with_another_outcome_or_deal_is_409_never_a_replay(event, phone):
    table, deal, play = first_play(event)
    second = event.deals.filter(deal_set=play.deal_set).order_by("number")[1]
    post_json(phone, save_url(table, deal.number), form_data(deal.number, round="1"))
    before = list(TableResult.objects.values_list("pk", "points_half"))
    other = post_json(
        phone, save_url(table, deal.number), form_data(deal.number, points="50", round="1")
    )
    assert other.status_code == 409 and "Idempotent-Replayed" not in other
    body = other.json()
    assert (body["status"], body["code"]) == ("refused", "idempotency_key_reused")
    assert body["fix"] and body["message"]
    elsewhere = post_json(phone, save_url(table, second.number), form_data(second.number))
    assert elsewhere.status_code == 409
    assert elsewhere.json()["code"] == "idempotency_key_reused"
    assert list(TableResult.objects.values_list("pk", "points_half")) == before
    # the page without JSON: a 409 page saying so
    page = phone.post(
        save_url(table, second.number), form_data(second.number), HTTP_IDEMPOTENCY_KEY=KEY
    )
    assert page.status_code == 409 and "already used" in page.content.decode()


@pytest.mark.parametrize("key", ["", "é" * 3, "x" * 256, "tab\tkey"])
def test_a_malformed_key_is_400_invalid(event, phone, key):
    table, deal, _play = first_play(event)
    url = save_url(table, deal.number)
    response = post_json(phone, url, form_data(deal.number), key=key)
    assert response.status_code == 400
    body = response.json()
    assert (body["status"], body["code"]) == ("invalid", "invalid")
    assert "Idempotency-Key" in body["message"]
    page = phone.post(url, form_data(deal.number), HTTP_IDEMPOTENCY_KEY=key)
    assert page.status_code == 400 and "printable ASCII" in page.content.decode()
    field = phone.post(url, {**form_data(deal.number), "idempotency_key": key}, **JSON)
    assert field.status_code == 400
    assert not TableResult.objects.exists() and not TableEntryKey.objects.exists()


def test_the_form_field_carries_the_key_without_the_header(event, phone):
    table, deal, _play = first_play(event)
    data = {**form_data(deal.number, round="1"), "idempotency_key": KEY}
    saved = phone.post(save_url(table, deal.number), data)
    assert saved.status_code == 302
    assert TableEntryKey.objects.filter(holder=table, key=KEY).exists()


def test_an_invalid_entry_answers_422_with_the_errors_and_the_bound_card(event, phone):
    table, deal, _play = first_play(event)
    response = post_json(phone, save_url(table, deal.number), form_data(deal.number, points="95"))
    assert response.status_code == 422
    body = response.json()
    assert (body["status"], body["code"]) == ("invalid", "invalid")
    assert f"d{deal.number}-points" not in body["errors"]  # the form's own field names
    assert "points" in body["errors"] and body["fix"]
    assert 'aria-invalid="true"' in body["card_html"] and 'value="95"' in body["card_html"]
    assert not TableResult.objects.exists() and not TableEntryKey.objects.exists()


def test_a_conflict_is_refused_409_with_the_stored_card(event, phone):
    table, deal, _play = first_play(event)
    services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    response = post_json(phone, save_url(table, deal.number), form_data(deal.number, points="50"))
    assert response.status_code == 409
    body = response.json()
    assert (body["status"], body["code"]) == ("refused", "result_exists")
    assert "Correct this entry" in body["fix"]
    assert f'id="deal-{deal.number}"' in body["card_html"] and "<form" not in body["card_html"]
    assert not TableEntryKey.objects.exists()


def test_a_deal_of_another_round_is_refused_403(event, phone):
    table = event.tables.get(number=1)
    later = event.schedule.play(table=1, round=2)
    deal = event.deals.filter(deal_set=later.deal_set).order_by("number").first()
    response = post_json(phone, save_url(table, deal.number), form_data(deal.number))
    assert response.status_code == 403
    body = response.json()
    assert (body["status"], body["code"]) == ("refused", "round_not_open")
    assert body["card_html"].startswith(f'<section class="deal" id="deal-{deal.number}">')
    assert "<form" not in body["card_html"]  # a later round: where to sit, no form


def test_the_card_obeys_the_publication_rule(event, phone):
    """The table moves on: its earlier round's result of a deal other tables still play is
    hidden from the code; the JSON card of a replay shows "Entered" only."""
    table, deal, play = first_play(event)
    url = save_url(table, deal.number)
    assert post_json(phone, url, form_data(deal.number, round="1")).status_code == 201
    rng = random.Random(4)
    for other in event.deals.filter(deal_set=play.deal_set).exclude(pk=deal.pk):
        services.table_result_enter(table=table, deal=other, outcome=random_outcome(rng, other))
    again = post_json(phone, url, form_data(deal.number, round="1"))
    assert again.status_code == 200
    card = again.json()["card_html"]
    assert "Entered. Its outcome is shown once every table has played this deal." in card
    result = TableResult.objects.get(table=table, deal=deal)
    assert f"<strong>{result.value}</strong>" not in card and "Garde" not in card
    # the page says the same
    page = phone.get(f"/en/table/{table.code}/?round=1").content.decode()
    assert "Entered. Its outcome is shown once every table has played this deal." in page


def test_a_correction_answers_json_too(event, phone):
    table, deal, _play = first_play(event)
    post_json(phone, save_url(table, deal.number), form_data(deal.number, round="1"))
    fixed = post_json(
        phone,
        save_url(table, deal.number, "correct"),
        form_data(deal.number, points="50"),
        key="another-key",
    )
    assert fixed.status_code == 201 and fixed.json()["status"] == "stored"
    assert fixed.json()["message"] == f"Deal {deal.number} corrected."
    assert TableResult.objects.get(table=table, deal=deal).points_half == 100


def test_without_json_the_page_keeps_its_behaviour_and_honours_the_key(event, phone):
    table, deal, _play = first_play(event)
    url = save_url(table, deal.number)
    first = phone.post(url, form_data(deal.number, round="1"), HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 302 and first["Location"].endswith(f"#deal-{deal.number}")
    director_corrects(event, TableResult.objects.get(table=table, deal=deal))
    again = phone.post(url, form_data(deal.number, round="1"), HTTP_IDEMPOTENCY_KEY=KEY)
    assert again.status_code == 302  # a replay, not the conflict page
    assert "corrected" in phone.get(again["Location"]).content.decode()


# --------------------------------------------------------------------------- the table API


def test_the_api_replays_a_known_key_after_a_correction_marked_corrected(event):
    table, deal, _play = first_play(event)
    api = APIClient()
    url = f"/api/v1/tables/{table.code}/results/"
    body = {"deal": deal.number, "outcome": GARDE_46}
    first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 201
    director_corrects(event, TableResult.objects.get(table=table, deal=deal))
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["corrected"] is True and again.json()["outcome"]["points"] == 50
    reused = api.post(
        url,
        {"deal": deal.number, "outcome": {**GARDE_46, "points": 56}},
        format="json",
        HTTP_IDEMPOTENCY_KEY=KEY,
    )
    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"
    assert "Idempotent-Replayed" not in reused
    assert TableEntryKey.objects.filter(holder=table).count() == 1


def test_the_api_refuses_a_malformed_key(event):
    table, deal, _play = first_play(event)
    response = APIClient().post(
        f"/api/v1/tables/{table.code}/results/",
        {"deal": deal.number, "outcome": GARDE_46},
        format="json",
        HTTP_IDEMPOTENCY_KEY="x" * 256,
    )
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_a_save_with_a_key_costs_one_lookup_and_one_insert_more():
    event = running_event(tables=10, rounds=2)
    table, deal, _play = first_play(event)
    client = APIClient()
    url = f"/api/v1/tables/{table.code}/results/"
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            url,
            {"deal": deal.number, "outcome": GARDE_46},
            format="json",
            HTTP_IDEMPOTENCY_KEY=KEY,
        )
    assert response.status_code == 201, response.content
    statements = _statements(queries.captured_queries)
    assert len(statements) == SAVE_STATEMENTS + 2, "\n".join(s[:120] for s in statements)
    keyed = [s for s in statements if "tableentrykey" in s.lower()]
    assert len(keyed) == 2 and keyed[0].upper().startswith("SELECT")
    assert keyed[1].upper().startswith("INSERT")


def test_keys_and_late_arrivals_are_deleted_with_their_table(event, phone):
    table = event.tables.get(number=2)
    kept = event.tables.get(number=3)
    for holder in (table, kept):
        TableEntryKey.objects.create(holder=holder, key=KEY, deal=1, digest="0" * 64)
        TableLateArrival.objects.create(
            holder=holder, deal=1, code="result_exists", kept_since="2026-11-27T19:02:11Z"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        TableEntryKey.objects.create(holder=table, key=KEY, deal=2, digest="1" * 64)
    table.delete()
    assert list(TableEntryKey.objects.values_list("holder", flat=True)) == [kept.pk]
    assert list(TableLateArrival.objects.values_list("holder", flat=True)) == [kept.pk]


# ---------------------------------------------------------------------------- late arrivals


def test_a_refused_entry_kept_offline_is_recorded_as_a_late_arrival(event, phone):
    table, deal, _play = first_play(event)
    services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    data = form_data(deal.number, points="50", round="1")
    refused = post_json(phone, save_url(table, deal.number), data, **KEPT)
    assert refused.status_code == 409
    arrival = TableLateArrival.objects.get()
    assert (arrival.holder, arrival.deal, arrival.code) == (table, deal.number, "result_exists")
    assert arrival.outcome[f"d{deal.number}-points"] == "50" and not arrival.handled
    assert "csrfmiddlewaretoken" not in arrival.outcome and arrival.message
    assert arrival.kept_since == KEPT_AT and arrival.kept_since_sent == ""


def test_no_late_arrival_without_the_header_or_when_not_refused(event, phone):
    table, deal, _play = first_play(event)
    url = save_url(table, deal.number)
    assert post_json(phone, url, form_data(deal.number, round="1"), **KEPT).status_code == 201
    assert post_json(phone, url, form_data(deal.number, round="1"), **KEPT).status_code == 200
    assert post_json(phone, url, form_data(deal.number, points="50"), key=None).status_code == 409
    assert not TableLateArrival.objects.exists()


def test_an_unreadable_kept_since_never_refuses_a_save(event, phone):
    """The header comes from the phone's clock: whatever it says, the entry is stored (or
    recorded, refused, with the phone's text) as without it."""
    table, deal, _play = first_play(event)
    url = save_url(table, deal.number)
    response = post_json(
        phone, url, form_data(deal.number, round="1"), HTTP_X_ENTRY_KEPT_SINCE="yesterday"
    )
    assert response.status_code == 201 and TableResult.objects.count() == 1
    refused = post_json(
        phone, url, form_data(deal.number, points="50"), key=KEY[::-1],
        HTTP_X_ENTRY_KEPT_SINCE="yesterday",
    )  # fmt: skip
    assert refused.status_code == 409
    arrival = TableLateArrival.objects.get()
    assert arrival.kept_since_sent == "yesterday"


def _late(event: Event) -> TableLateArrival:
    table, deal, _play = first_play(event)
    services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    data = form_data(deal.number, points="50", round="1")
    post_json(Client(), save_url(table, deal.number), data, **KEPT)
    return TableLateArrival.objects.get()


def test_the_control_room_lists_late_arrivals_and_the_director_marks_them_handled(event):
    arrival = _late(event)
    director = Client()
    director.force_login(OrganiserFactory(clubs=[event.club]))
    page = director.get(f"/en/organiser/events/{event.pk}/control/")
    html = page.content.decode()
    assert 'id="late-arrivals"' in html and f'id="late-{arrival.pk}"' in html
    assert "1 late arrival to handle" in html and arrival.message in html
    assert "<dt>points</dt><dd>50</dd>" in html and "d1-" not in html.split("late-arrivals")[1]
    assert f"/en/organiser/events/{event.pk}/entry/table/1/deal/{arrival.deal}/" in html
    handled_url = f"/en/organiser/events/{event.pk}/late/{arrival.pk}/handled/"
    assert handled_url in html
    done = director.post(handled_url)
    assert done.status_code == 302
    arrival.refresh_from_db()
    assert arrival.handled
    assert 'id="late-arrivals"' not in director.get(page.request["PATH_INFO"]).content.decode()


def test_only_the_events_organisers_mark_a_late_arrival_handled(event):
    arrival = _late(event)
    url = f"/en/organiser/events/{event.pk}/late/{arrival.pk}/handled/"
    assert Client().post(url).status_code == 302  # the login page
    stranger = Client()
    stranger.force_login(OrganiserFactory())
    assert stranger.post(url).status_code == 404
    director = Client()
    director.force_login(OrganiserFactory(clubs=[event.club]))
    assert director.get(url).status_code == 405
    other_event = running_event(tables=4, rounds=3, club=event.club)
    elsewhere = f"/en/organiser/events/{other_event.pk}/late/{arrival.pk}/handled/"
    assert director.post(elsewhere).status_code == 404  # not that event's arrival
    arrival.refresh_from_db()
    assert not arrival.handled


# ----------------------------------------------------------------------------- Back button


def test_the_points_field_lets_back_keep_its_value(event, phone):
    table, _deal, _play = first_play(event)
    html = phone.get(f"/en/table/{table.code}/").content.decode()
    assert 'autocomplete="off"' not in html
    assert "csrfmiddlewaretoken" in html  # the CSRF token stays


def test_a_closed_round_refuses_with_403(event, phone):
    table, deal, _play = first_play(event)
    organiser = OrganiserFactory(clubs=[event.club])
    event_services.round_close(
        event=event, round_number=1, actor=organiser, confirm=True, reason="late"
    )
    response = post_json(phone, save_url(table, deal.number), form_data(deal.number), **KEPT)
    assert response.status_code == 403 and response.json()["code"] == "round_closed"
    assert TableLateArrival.objects.get().code == "round_closed"

"""Phones that never lose an entry (issue 23), the free-deal table's half of the server:
stored idempotency keys, the JSON answers of the table phone's saves, late arrivals and the
organiser page's list of them."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from freedeal import services
from freedeal.models import (
    FreeDealEntryKey,
    FreeDealLateArrival,
    FreeDealResult,
    FreeDealTable,
    FreeDealTournament,
)
from tests.factories import OrganiserFactory, RunningFreeDealFactory
from tests.freedeal.test_table_phone import deal_url, form, garde, page_url

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
KEY = "92eb5ffee6ae2fec3ad71c777531578f"
KEPT_AT = timezone.now() - datetime.timedelta(minutes=10)
KEPT = {"HTTP_X_ENTRY_KEPT_SINCE": KEPT_AT.strftime("%Y-%m-%dT%H:%M:%SZ")}


@pytest.fixture
def tournament() -> FreeDealTournament:
    return RunningFreeDealFactory(parties=3)


@pytest.fixture
def table(tournament: FreeDealTournament) -> FreeDealTable:
    return tournament.tables.get()


@pytest.fixture
def seated(tournament: FreeDealTournament) -> tuple[int, ...]:
    return tournament.table_players(1, 1)


def post(table, deal: int, data, key: str | None = KEY, action: str = "", **extra: Any) -> Any:
    headers = {**JSON, **extra}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return Client().post(deal_url(table, deal, action), data, **headers)


def director(tournament: FreeDealTournament) -> Any:
    return tournament.club.organisers.first() or OrganiserFactory(clubs=[tournament.club])


def test_stored_then_replayed_with_the_card(table, seated):
    saved = post(table, 1, garde(seated))
    assert saved.status_code == 201, saved.content
    body = saved.json()
    assert (body["status"], body["deal"], body["corrected"]) == ("stored", 1, False)
    assert body["card_html"].startswith('<section class="deal" id="deal-1">')
    assert "180" in body["card_html"]  # the taker's mark, as the page shows it
    result = FreeDealResult.objects.get()
    assert FreeDealEntryKey.objects.get(holder=table).result_pk == result.pk
    again = post(table, 1, garde(seated))
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["status"] == "replayed" and FreeDealResult.objects.count() == 1


def test_a_replay_after_the_directors_correction_says_corrected(tournament, table, seated):
    post(table, 1, garde(seated))
    services.free_deal_result_director_correct(
        tournament=tournament, table_number=1, party=1, deal=1,
        data={"contract": "garde", "taker": seated[0], "oudlers": 2, "points": 56},
        user=director(tournament), reason="misread",
    )  # fmt: skip
    again = post(table, 1, garde(seated))
    assert again.status_code == 200 and again.json()["corrected"] is True


def test_a_key_reused_for_another_outcome_or_deal_is_409(table, seated):
    post(table, 1, garde(seated))
    reused = post(table, 1, garde(seated, taker=1))
    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"
    elsewhere = post(table, 2, garde(seated, deal=2))
    assert elsewhere.status_code == 409 and elsewhere.json()["code"] == "idempotency_key_reused"
    assert FreeDealResult.objects.count() == 1


def test_a_malformed_key_is_400(table, seated):
    response = post(table, 1, garde(seated), key="\x7f")
    assert response.status_code == 400 and response.json()["status"] == "invalid"
    assert not FreeDealResult.objects.exists()


def test_invalid_and_refused_answers_and_late_arrivals(table, seated):
    wrong = form(1, contract="garde", taker=seated[0], oudlers="2", points="95")
    invalid = post(table, 1, wrong, **KEPT)
    assert invalid.status_code == 422 and invalid.json()["status"] == "invalid"
    assert 'aria-invalid="true"' in invalid.json()["card_html"]
    assert FreeDealLateArrival.objects.get().code == "invalid"
    services.free_deal_result_enter(
        table=table, deal=1, data={"contract": "garde", "taker": seated[0], "oudlers": 2,
                                   "points": 46}
    )  # fmt: skip
    refused = post(table, 1, garde(seated, taker=1), key="k2", **KEPT)
    assert refused.status_code == 409
    assert (refused.json()["status"], refused.json()["code"]) == ("refused", "result_exists")
    closed = post(table, 2, garde(seated, deal=2, party=3), key="k3", **KEPT)
    assert closed.status_code == 403 and closed.json()["status"] == "refused"
    # The refusal of deal 1 replaced its invalid entry (one unhandled arrival per deal).
    codes = list(FreeDealLateArrival.objects.order_by("pk").values_list("code", flat=True))
    assert codes[0] == "result_exists" and len(codes) == 2
    # without the header, or stored: nothing recorded
    assert post(table, 3, garde(seated, deal=3), key="k4", **KEPT).status_code == 201
    assert post(table, 1, garde(seated, taker=1), key="k5").status_code == 409
    assert FreeDealLateArrival.objects.count() == 2


def test_the_organiser_page_lists_late_arrivals_and_only_organisers_handle_them(
    tournament, table, seated
):
    services.free_deal_result_enter(
        table=table, deal=1, data={"contract": "garde", "taker": seated[0], "oudlers": 2,
                                   "points": 46}
    )  # fmt: skip
    post(table, 1, garde(seated, taker=1), **KEPT)
    arrival = FreeDealLateArrival.objects.get()
    organiser = Client()
    organiser.force_login(director(tournament))
    page = f"/en/organiser/free-deal/{tournament.pk}/"
    html = organiser.get(page).content.decode()
    assert f'id="late-{arrival.pk}"' in html and arrival.message in html
    assert f"/en/organiser/free-deal/{tournament.pk}/correct/1/1/1/" in html
    handled = f"/en/organiser/free-deal/{tournament.pk}/late/{arrival.pk}/handled/"
    stranger = Client()
    stranger.force_login(OrganiserFactory())
    assert stranger.post(handled).status_code == 404
    assert organiser.post(handled).status_code == 302
    arrival.refresh_from_db()
    assert arrival.handled and 'id="late-arrivals"' not in organiser.get(page).content.decode()


def test_keys_go_with_their_table(tournament, table, seated):
    FreeDealEntryKey.objects.create(holder=table, key=KEY, deal=1, digest="0" * 64)
    FreeDealLateArrival.objects.create(
        holder=table, deal=1, code="party_closed", kept_since="2026-11-27T19:02:11Z"
    )
    table.delete()  # nothing entered at it yet
    assert not FreeDealEntryKey.objects.exists() and not FreeDealLateArrival.objects.exists()


def test_the_page_keeps_the_points_for_back(table):
    html = Client().get(page_url(table)).content.decode()
    assert 'autocomplete="off"' not in html and "csrfmiddlewaretoken" in html

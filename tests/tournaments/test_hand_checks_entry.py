"""Entries checked against the prepared hands (issue #12): a duplicate result that the deal's
cards make impossible is refused naming the hand, on the table phone, the API, the director's
correction and the import, and nothing is stored; unknown cards are not checked; an improbable
but possible result is stored and listed "to check" on the control room."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.errors import DomainError
from rules.deal import deal_to_text
from tests.builders import running_event
from tests.factories import OrganiserFactory
from tests.rules.test_hand_checks import make_deal
from tournaments import services
from tournaments.hand_flags import result_flags
from tournaments.models import Deal, Event, Table, TableResult

pytestmark = pytest.mark.django_db

SEAT_EN = {"N": "North", "E": "East", "S": "South", "W": "West"}
SEAT_FR = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}
SIMPLE_FOR_THE_TAKER = {"poignee_1_side": "attack", "poignee_1_size": "simple"}


def first_deal(event: Event) -> tuple[Table, Deal]:
    play = event.schedule.play(table=1, round=1)
    assert play is not None and not play.sits_out
    deal = event.deals.filter(deal_set=play.deal_set).order_by("number").first()
    assert deal is not None
    return Table.objects.get(event=event, number=1), deal


def weak_taker(deal: Deal) -> Deal:
    """Give the étui cards where the taker holds the 21 and 6 small trumps, nothing in the
    chien: a poignée is beyond him and the attack always has at least one oudler."""
    other = next(seat for seat in "NESW" if seat != deal.taker_seat)
    cards = make_deal({deal.taker_seat: "T2 T3 T4 T5 T6 T7 T21"}, rest=other)
    deal.cards = deal_to_text(cards)
    deal.save(update_fields=["cards"])
    return deal


def form_data(deal: Deal, **values: str) -> dict[str, str]:
    base = {"contract": "garde", "oudlers": "1", "points": "55", "petit_au_bout": ""}
    base.update(values)
    return {f"d{deal.number}-{key}": value for key, value in base.items()}


@pytest.fixture
def event() -> Event:
    return running_event(tables=3, rounds=2, deals_per_round=1)


def test_the_table_phone_refuses_a_poignee_the_takers_hand_cannot_show(
    client: Client, event: Event
) -> None:
    table, deal = first_deal(event)
    weak_taker(deal)
    response = client.post(
        f"/en/table/{table.code}/deal/{deal.number}/",
        {**form_data(deal, **SIMPLE_FOR_THE_TAKER), "round": "1"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert (
        f"{SEAT_EN[deal.taker_seat]}, the taker, holds only 7 trumps with the chien (the Excuse "
        "counted): the attack cannot show a poignée of 10."
    ) in html.replace("&#x27;", "'")
    assert not TableResult.objects.filter(deal=deal).exists()
    # The same entry without the poignée is stored.
    response = client.post(
        f"/en/table/{table.code}/deal/{deal.number}/", {**form_data(deal), "round": "1"}
    )
    assert response.status_code == 302
    assert TableResult.objects.filter(deal=deal, table=table).count() == 1


def test_in_french_the_refusal_names_the_hand_in_french(client: Client, event: Event) -> None:
    """The seat is named in the page's language (the sentence's French is in the .po)."""
    table, deal = first_deal(event)
    weak_taker(deal)
    response = client.post(
        f"/table/{table.code}/deal/{deal.number}/",
        {**form_data(deal, oudlers="0", points="40"), "round": "1"},
    )
    assert response.status_code == 400
    html = response.content.decode().replace("&#x27;", "'")
    assert f"{SEAT_FR[deal.taker_seat]}, " in html and "21" in html
    assert not TableResult.objects.filter(deal=deal).exists()


def test_the_api_answers_400_with_the_code_and_stores_nothing(client: Client, event: Event) -> None:
    table, deal = first_deal(event)
    weak_taker(deal)
    before = Event.objects.get(pk=event.pk).results_version
    with translation.override("en"):
        path = reverse("api:table_results", kwargs={"code": table.code})
    response = client.post(
        path,
        data=json.dumps(
            {"deal": deal.number, "outcome": {"contract": "garde", "oudlers": 0, "points": 40}}
        ),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "hand_bouts_too_few"
    assert f"{SEAT_EN[deal.taker_seat]}, the taker, holds 21 (with the chien)" in body["detail"]
    assert list(body["errors"]) == ["outcome.oudlers"]
    assert not TableResult.objects.filter(deal=deal).exists()
    assert Event.objects.get(pk=event.pk).results_version == before


def test_a_director_correction_is_checked_too(event: Event) -> None:
    table, deal = first_deal(event)
    weak_taker(deal)
    result = services.table_result_enter(
        table=table, deal=deal, outcome={"contract": "garde", "oudlers": 1, "points": 55}
    )
    director = OrganiserFactory(clubs=[event.club])
    with pytest.raises(DomainError) as refused:
        services.table_result_director_correct(
            result=result,
            outcome={"contract": "garde", "oudlers": 1, "points": 55, "poignees": [
                {"side": "attack", "size": "simple"}]},
            actor=director,
            reason="a poignée was forgotten",
        )  # fmt: skip
    assert refused.value.code == "hand_poignee_too_few_trumps"
    assert TableResult.objects.get(pk=result.pk).poignees == []


def test_unknown_cards_are_not_checked(event: Event) -> None:
    table, deal = first_deal(event)
    weak_taker(deal)
    Deal.objects.filter(pk=deal.pk).update(cards="")
    deal.refresh_from_db()
    services.table_result_enter(
        table=table, deal=deal, outcome={"contract": "garde", "oudlers": 0, "points": 40}
    )
    assert TableResult.objects.filter(deal=deal).count() == 1


def test_an_improbable_result_is_stored_and_listed_to_check_on_the_control_room(
    event: Event,
) -> None:
    cache.clear()
    table, deal = first_deal(event)
    weak_taker(deal)
    # A chelem by a taker with 7 trumps: possible with these cards, never seen in random play
    # (a defender keeps his Excuse: 2 oudlers, 87 points).
    chelem = {
        "contract": "garde_sans",
        "oudlers": 2,
        "points": 87,
        "chelem": {"announced": False, "made_by": "attack"},
    }
    services.table_result_enter(table=table, deal=deal, outcome=chelem)
    result = TableResult.objects.select_related("deal").get(deal=deal, table=table)
    assert result.value is not None  # stored and scored
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    with translation.override("en"):
        path = reverse("organiser:control", args=[event.pk]) + "?round=1"
        entry = reverse("organiser:entry_result", args=[event.pk, table.number, deal.number])
    html = client.get(path).content.decode()
    assert 'id="to-check"' in html
    row = html.split(f'id="check-t{table.number}-d{deal.number}"', 1)[1].split("</li>", 1)[0]
    assert f'href="{entry}"' in row
    assert "87 points for the attack: 200 random plays of this deal gave it" in row
    assert f'id="cell-t{table.number}-d{deal.number}"' in html
    assert "flagged" in html.split(f'id="cell-t{table.number}-d{deal.number}"', 1)[0][-80:]
    # The range is cached: the next look computes nothing.
    assert result_flags([result], budget=0)[result.pk].reasons


def test_an_ordinary_result_is_not_flagged(event: Event) -> None:
    cache.clear()
    table, deal = first_deal(event)
    weak_taker(deal)
    services.table_result_enter(
        table=table, deal=deal, outcome={"contract": "garde", "oudlers": 1, "points": 40}
    )
    result = TableResult.objects.select_related("deal").get(deal=deal, table=table)
    assert result_flags([result]) == {}

"""A club night's set-up (issue 11): random deal seeds by default (#3), table codes without
look-alikes printed large, QR codes on a configurable public URL (#7), the taker seat set
independently of the dealer in the deals file (#9)."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from clubs.errors import DomainError
from clubs.phone_codes import PHONE_CODE_ALPHABET, new_phone_code
from rules import deal as rules_deal
from tests.builders import running_event, running_team_event
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments import services
from tournaments.models import Deal, Event, Table
from tournaments.views.printing import qr_svg

pytestmark = pytest.mark.django_db

LOOK_ALIKES = set("0O1lI")
SEED_RE = re.compile(r'name="seed" value="(\d+)"')


@pytest.fixture
def organiser():
    return OrganiserFactory(clubs=[ClubFactory(name="Tarot Club de Lyon")])


@pytest.fixture
def client_in(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


def ready_event(organiser, players: int = 12) -> Event:
    event = EventFactory(club=organiser.clubs.first(), deals_per_round=2)
    for _ in range(players):
        services.entrant_register(event=event, player=PlayerFactory())
    services.event_movement_set(event=event, tables=players // 4)
    event.refresh_from_db()
    return event


def deals_file(event: Event, takers: dict[int, str], seed: int = 3) -> SimpleUploadedFile:
    """The event's deals in the text form, a ``taker:`` line in the deals of ``takers``."""
    count = event.schedule.deal_set_count * event.deals_per_round
    blocks = []
    for number, deal in enumerate(rules_deal.generate_deals(players=4, count=count, seed=seed), 1):
        text = rules_deal.deal_to_text(deal)
        if number in takers:
            text = text.replace("\nN:", f"\ntaker: {takers[number]}\nN:", 1)
        blocks.append(f"# deal {number}\n{text}")
    data = "\n\n".join(blocks).encode()
    return SimpleUploadedFile("deals.txt", data, content_type="text/plain")


# --- #3 random seeds by default, today's date and public results -------------------------------


def test_a_new_event_proposes_today_and_public_results(client_in) -> None:
    response = client_in.get(url("organiser:event_create"))
    assert response.status_code == 200
    form = response.context["form"]
    assert form["date"].value() == timezone.localdate()
    assert form["public"].value() is True
    assert re.search(r'<input type="checkbox" name="public"[^>]*checked', response.text)


def test_a_new_simultaneous_proposes_today_public_and_a_random_seed(client_in) -> None:
    seeds = set()
    for _ in range(2):
        response = client_in.get(url("organiser:simultaneous_create"))
        assert response.status_code == 200
        form = response.context["form"]
        assert form["date"].value() == timezone.localdate() and form["public"].value() is True
        seeds.add(form["seed"].value())
    assert len(seeds) == 2 and 0 not in seeds


def test_the_deals_page_proposes_a_random_seed_and_two_events_get_different_deals(
    client_in, organiser
) -> None:
    cards = []
    for _ in range(2):
        event = ready_event(organiser)
        page = client_in.get(url("organiser:deals", event.pk))
        assert page.status_code == 200
        proposed = int(SEED_RE.search(page.text)[1])
        assert proposed != 0
        # The organiser keeps the proposed seed.
        response = client_in.post(url("organiser:deals", event.pk), {"seed": proposed})
        assert response.status_code == 302
        event.refresh_from_db()
        assert event.seed == proposed
        cards.append(Deal.objects.get(event=event, number=1).cards)
        # Shown on the deals page and printed on the hand diagrams.
        page = client_in.get(url("organiser:deals", event.pk))
        assert f"These deals were generated from the seed {proposed}." in page.text
        assert SEED_RE.search(page.text)[1] == str(proposed)  # regenerating keeps them
        hands = client_in.get(url("organiser:print_hands", event.pk))
        assert hands.status_code == 200 and f"Deal seed: {proposed}" in hands.text
    assert cards[0] != cards[1]


def test_an_empty_seed_draws_a_random_one(client_in, organiser) -> None:
    event = ready_event(organiser)
    response = client_in.post(url("organiser:deals", event.pk), {"seed": ""})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.seed != 0
    generated = rules_deal.generate_deals(players=4, count=1, seed=event.seed)[0]
    assert Deal.objects.get(event=event, number=1).cards == rules_deal.deal_to_text(generated)


def test_imported_deals_show_no_seed(client_in, organiser) -> None:
    event = ready_event(organiser)
    assert client_in.post(url("organiser:deals", event.pk), {"seed": 77}).status_code == 302
    response = client_in.post(
        url("organiser:deals_import", event.pk), {"file": deals_file(event, {})}
    )
    assert response.status_code == 302
    event.refresh_from_db()
    page = client_in.get(url("organiser:deals", event.pk))
    assert "These deals were imported (no seed)." in page.text
    assert "seed 77" not in page.text
    hands = client_in.get(url("organiser:print_hands", event.pk))
    assert "Imported deals" in hands.text and "Deal seed" not in hands.text


# --- #9 the taker seat, independent of the dealer ----------------------------------------------


def test_an_imported_deal_sets_its_taker_seat_independently_of_the_dealer(
    client_in, organiser
) -> None:
    event = ready_event(organiser)
    response = client_in.post(
        url("organiser:deals_import", event.pk), {"file": deals_file(event, {1: "S", 2: "O"})}
    )
    assert response.status_code == 302
    deals = {d.number: d for d in Deal.objects.filter(event=event)}
    assert (deals[1].dealer_seat, deals[1].taker_seat) == ("N", "S")  # not E, the default
    assert (deals[2].dealer_seat, deals[2].taker_seat) == ("E", "W")  # O: Ouest
    assert (deals[3].dealer_seat, deals[3].taker_seat) == ("S", "W")  # no line: the default
    # Printed on the étui (hand diagrams) and listed on the deals page.
    hands = client_in.get(url("organiser:print_hands", event.pk)).text
    first = hands.split("Deal 1 (deal set 1)")[1].split("Deal 2 (deal set 1)")[0]
    assert "Dealer: North · Taker seat: South" in first
    assert re.search(r"<h3>N · dealer</h3>", first) and re.search(r"<h3>S · taker</h3>", first)


@pytest.mark.parametrize(
    ("takers", "message"),
    [
        ({2: "X"}, "Deal 2 (line 11): the taker seat must be N, E, S or W (O), not &#x27;X&#x27;."),
        ({3: "S\ntaker: E"}, "Deal 3 (line 20): a second taker line."),
    ],
)
def test_a_wrong_taker_line_is_refused_with_its_line(
    client_in, organiser, takers: dict[int, str], message: str
) -> None:
    event = ready_event(organiser)
    response = client_in.post(
        url("organiser:deals_import", event.pk), {"file": deals_file(event, takers)}
    )
    assert response.status_code == 400
    assert message in response.text
    assert not Deal.objects.filter(event=event).exists()


def test_a_team_event_keeps_the_movements_taker_seat() -> None:
    event = running_team_event(format=Event.Format.TRIPLETTE, teams=4)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)
    event = Event.objects.get(pk=event.pk)
    seat = event.schedule.team_taker_seat()
    other = next(s for s in "NESW" if s != seat)
    text = deals_file(event, {1: other}).read().decode()
    with pytest.raises(DomainError) as refused:
        services.event_deals_import(event=event, text=text)
    assert refused.value.code == "team_taker_seat"
    services.event_deals_import(event=event, text=deals_file(event, {1: seat}).read().decode())
    assert set(Deal.objects.filter(event=event).values_list("taker_seat", flat=True)) == {seat}


# --- #7 table codes and the public URL of the QR codes -----------------------------------------


def test_new_table_codes_avoid_look_alikes_and_carry_40_bits() -> None:
    assert not LOOK_ALIKES & set(PHONE_CODE_ALPHABET)
    assert len(set(PHONE_CODE_ALPHABET)) == len(PHONE_CODE_ALPHABET)
    codes = {new_phone_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert set(code) <= set(PHONE_CODE_ALPHABET)
        assert len(PHONE_CODE_ALPHABET) ** len(code) >= 2**40
    event = running_event(tables=3)
    for code in Table.objects.filter(event=event).values_list("code", flat=True):
        assert not LOOK_ALIKES & set(code) and code == code.upper()


def test_an_existing_code_with_look_alikes_still_opens_its_table() -> None:
    event = running_event(tables=3)
    table = Table.objects.filter(event=event).first()
    Table.objects.filter(pk=table.pk).update(code="fZlcFjLlezzm")
    response = Client().get(url("table:entry", "fZlcFjLlezzm"))
    assert response.status_code == 200


def table_cards(client: Client, event: Event, **extra: str) -> str:
    response = client.get(url("organiser:print_tables", event.pk), **extra)
    assert response.status_code == 200
    return response.text


def test_the_table_card_prints_its_code_large_and_qr_of_the_request_host(
    client_in, organiser
) -> None:
    event = ready_event(organiser)
    text = table_cards(client_in, event, HTTP_HOST="127.0.0.1:8000")
    for table in Table.objects.filter(event=event):
        assert f'<strong class="code">{table.code}</strong>' in text
        entry = f"http://127.0.0.1:8000/table/{table.code}/"
        assert entry in text and str(qr_svg(entry)) in text


def test_the_qr_codes_use_the_configured_public_url(client_in, organiser, settings) -> None:
    settings.DUPLITAROT_PUBLIC_URL = "http://192.168.1.20:8000"
    event = ready_event(organiser)
    text = table_cards(client_in, event, HTTP_HOST="127.0.0.1:8000")
    assert "127.0.0.1" not in text
    for table in Table.objects.filter(event=event):
        entry = f"http://192.168.1.20:8000/table/{table.code}/"
        assert entry in text and str(qr_svg(entry)) in text


def test_a_simultaneous_gives_its_seed_or_its_import_to_its_sections() -> None:
    parent = services.simultaneous_create(
        club=ClubFactory(), name="Simultané", date=timezone.localdate(), format="individual",
        deals_per_round=2, rounds=3,
    )  # fmt: skip
    assert parent.seed != 0  # no seed given: a random one
    child = services.section_create(simultaneous=parent, club=ClubFactory(), name="Brest")
    assert child.seed == parent.seed
    services.event_deals_generate(event=Event.objects.get(pk=parent.pk), seed=99)
    child.refresh_from_db()
    assert child.seed == 99
    text = "\n\n".join(
        rules_deal.deal_to_text(deal)
        for deal in rules_deal.generate_deals(players=4, count=6, seed=5)
    )
    services.event_deals_import(event=Event.objects.get(pk=parent.pk), text=text)
    child.refresh_from_db()
    assert child.seed == 0 and services.deals.deals_seed(child) is None


# --- #9: dealer and taker seat set independently on the deals page ------------------------


def test_the_organiser_sets_a_deals_dealer_and_taker_independently() -> None:
    club = ClubFactory()
    organiser = OrganiserFactory(clubs=[club])
    event = running_event(tables=3, status=Event.Status.DRAFT, club=club)
    client = Client()
    client.force_login(organiser)
    deal = Deal.objects.filter(event=event).order_by("number").first()
    assert deal is not None
    page = client.get(f"/en/organiser/events/{event.pk}/deals/").content.decode()
    assert f'form="seats-{deal.number}"' in page and 'name="taker_seat"' in page
    url = f"/en/organiser/events/{event.pk}/deals/{deal.number}/seats/"
    answer = client.post(url, {"dealer_seat": "S", "taker_seat": "S"})
    assert answer.status_code == 302
    deal.refresh_from_db()
    assert (deal.dealer_seat, deal.taker_seat) == ("S", "S")  # no longer the seat after
    refused = client.post(url, {"dealer_seat": "S", "taker_seat": "X"})
    assert refused.status_code == 400
    deal.refresh_from_db()
    assert deal.taker_seat == "S"
    services.event_start(event=event)
    started = client.post(url, {"dealer_seat": "N", "taker_seat": "E"})
    assert started.status_code == 400  # the deals of a running event no longer change
    deal.refresh_from_db()
    assert (deal.dealer_seat, deal.taker_seat) == ("S", "S")

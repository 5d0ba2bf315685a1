"""The paper score sheets (feuilles de table, issue 23): a table without a phone fills in the
sheet of its round, the players sign it, the director types it into the entry grid. One A4 page
per table for a round, or one table's; organisers of the event only; a round or a table that
does not exist is a clear 404, never a 500."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.builders import running_event
from tests.factories import OrganiserFactory
from tournaments.models import Deal, Entrant, Event, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return running_event(tables=7, rounds=6, deals_per_round=4)


@pytest.fixture
def organiser(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def sheets_url(event: Event, round_number: int, table: int | None = None) -> str:
    url = f"/en/organiser/events/{event.pk}/print/score-sheets/round/{round_number}/"
    return url + (f"table/{table}/" if table is not None else "")


def sections(html: str) -> list[str]:
    return re.findall(r'<section class="page score-sheet".*?</section>', html, re.S)


def test_a_round_has_one_sheet_per_playing_table_with_players_deals_and_boxes(
    event: Event, organiser: Client
) -> None:
    page = organiser.get(sheets_url(event, 2))
    assert page.status_code == 200
    html = page.content.decode()
    rnd = event.schedule.round(2)
    assert rnd is not None
    playing = sorted(play.table for play in rnd.tables if not play.sits_out)
    found = sections(html)
    assert [int(n) for n in re.findall(r'data-table="(\d+)" data-round="2"', html)] == playing
    assert len(found) == len(playing)
    play = next(p for p in rnd.tables if p.table == playing[0])
    sheet = found[0]
    assert event.name in sheet and "Table 1" in sheet and "Round 2" in sheet
    slots = {e.slot: e for e in Entrant.objects.filter(event=event).select_related("player")}
    for seat, name in (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")):
        row = re.search(rf'<tr class="seat-{seat}">(.*?)</tr>', sheet, re.S)
        assert row is not None and name in row.group(1)
        assert str(slots[play.seats[seat]]) in row.group(1)
    deals = list(Deal.objects.filter(event=event, deal_set=play.deal_set).order_by("number"))
    numbers = [int(n) for n in re.findall(r'<div class="sheet-deal" data-deal="(\d+)"', sheet)]
    assert numbers == [deal.number for deal in deals] and len(numbers) == 4
    for deal in deals:
        block = re.search(rf'data-deal="{deal.number}">(.*?)</div>', sheet, re.S)
        assert block is not None
        text = block.group(1)
        assert f"Deal {deal.number}" in text and "Not played" in text
        assert str(slots[play.seats[deal.taker_seat]]) in text  # the taker, named
        for label in ("Garde", "Garde sans", "Garde contre", "Oudlers", "Points"):
            assert label in text
        for label in ("Petit au bout", "Poignée 1", "Poignée 2", "Chelem", "Attack", "Defence"):
            assert label in text
        for size in ("simple", "double", "triple"):
            assert size in text
        assert text.count('class="box"') >= 20
    assert sheet.count("Signature") == 4


def test_one_table_of_a_round(event: Event, organiser: Client) -> None:
    page = organiser.get(sheets_url(event, 3, 4))
    assert page.status_code == 200
    found = sections(page.content.decode())
    assert len(found) == 1 and 'data-table="4" data-round="3"' in found[0]


def test_the_sheets_are_french_by_default(event: Event, organiser: Client) -> None:
    url = sheets_url(event, 1, 1).removeprefix("/en")
    html = organiser.get(url).content.decode()
    # The tarot words the catalogue already has (the sheet's own new sentences join it with
    # their French from /tmp/light-pages-fr.json: "Feuille de table"...).
    for word in ("Donne", "Preneur", "Bouts", "Petit au bout", "Chelem", "Attaque", "Défense"):
        assert word in html, word
    assert "Garde sans" in html and "Garde contre" in html and "Non jouée" in html


def test_the_printing_pages_lead_to_the_sheets(event: Event, organiser: Client) -> None:
    dashboard = organiser.get(f"/en/organiser/events/{event.pk}/").content.decode()
    index_url = f"/en/organiser/events/{event.pk}/print/score-sheets/"
    assert f'href="{index_url}"' in dashboard
    cards = organiser.get(f"/en/organiser/events/{event.pk}/print/tables/").content.decode()
    assert f'href="{index_url}"' in cards
    index = organiser.get(index_url)
    assert index.status_code == 200
    html = index.content.decode()
    assert f'href="{sheets_url(event, 1)}"' in html and f'href="{sheets_url(event, 6, 7)}"' in html
    grid = organiser.get(f"/en/organiser/events/{event.pk}/entry/round/2/").content.decode()
    assert f'href="{sheets_url(event, 2)}"' in grid


@pytest.mark.parametrize(
    ("round_number", "table", "message"),
    [
        (9, None, "Round 9 is not in the movement"),
        (9, 1, "Round 9 is not in the movement"),
        (1, 99, "Table 99 does not play in round 1."),
    ],
)
def test_a_round_or_a_table_that_does_not_exist_is_a_clear_404(
    event: Event, organiser: Client, round_number: int, table: int | None, message: str
) -> None:
    page = organiser.get(sheets_url(event, round_number, table))
    assert page.status_code == 404
    html = page.content.decode()
    assert message in html and 'id="sheets-round-1"' in html


def test_a_sit_out_table_has_no_sheet(organiser: Client) -> None:
    # 26 players at 7 tables: two seats are phantoms, one table sits out each round.
    event = running_event(tables=7, rounds=6, deals_per_round=2, players=26)
    rnd = event.schedule.round(1)
    assert rnd is not None
    idle = [play.table for play in rnd.tables if play.sits_out]
    if not idle:
        pytest.skip("this movement seats every table")
    organiser.force_login(OrganiserFactory(clubs=[event.club]))
    page = organiser.get(sheets_url(event, 1, idle[0]))
    assert page.status_code == 404
    all_sheets = sections(organiser.get(sheets_url(event, 1)).content.decode())
    assert len(all_sheets) == len(rnd.tables) - len(idle)


def test_only_the_event_s_organisers_see_the_sheets(event: Event) -> None:
    url = sheets_url(event, 1)
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    stranger = Client()
    stranger.force_login(OrganiserFactory())
    assert stranger.get(url).status_code == 404
    assert stranger.get(sheets_url(event, 1, 1)).status_code == 404
    table = Table.objects.get(event=event, number=1)
    # The table's phone code opens no sheet either: only its own page.
    assert Client().get(f"/table/{table.code}/").status_code == 200

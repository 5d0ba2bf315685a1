"""Pages of a live Swiss quadrette event: rounds not paired yet read "paired at the close of
round N" (table cards, route cards, control room, table phone, public movement page), the
director chooses live or pre-paired where the movement is set, and the control room says when
a round is paired or unpaired."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from tests.builders import enter_round
from tests.factories import OrganiserFactory
from tests.tournaments.test_swiss_live import live_event, team_setup
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db

PENDING = "Paired at the close of round {}"


def director(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def test_printouts_control_room_and_public_page_show_the_pending_rounds() -> None:
    event = live_event(teams=6, rounds=3)
    client = director(event)
    for url in (
        f"/en/organiser/events/{event.pk}/print/tables/",
        f"/en/organiser/events/{event.pk}/print/routes/",
        f"/en/organiser/events/{event.pk}/control/",
        f"/en/events/{event.pk}/movement/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert PENDING.format(1) in html and PENDING.format(2) in html, url
    public = Client().get(f"/en/events/{event.pk}/movement/").content.decode()
    assert PENDING.format(2) in public


def test_the_deal_set_routes_list_the_rounds_not_paired_yet_at_every_table() -> None:
    event = live_event(teams=6, rounds=3)
    html = director(event).get(f"/en/organiser/events/{event.pk}/print/deal-sets/")
    assert html.status_code == 200
    sections = html.content.decode().split('class="page deal-set-route"')[1:]
    assert len(sections) == 3
    # deal set 1 is played in round 1 (paired); deal sets 2 and 3 in the pending rounds 2, 3,
    # at each of the six tables (three matches of two tables)
    assert PENDING.format(1) not in sections[0]
    for number, section in ((2, sections[1]), (3, sections[2])):
        assert PENDING.format(number - 1) in section
        assert all(f"Table {table}" in section for table in range(1, 7))


def test_closing_pairs_the_next_round_and_the_pages_show_it(client: Client) -> None:
    event = live_event(teams=6, rounds=3)
    organiser = director(event)
    enter_round(event, 1, random.Random(3))
    response = organiser.post(f"/en/organiser/events/{event.pk}/control/round/1/close/")
    assert response.status_code == 302
    page = organiser.get(response["Location"]).content.decode()
    assert "Round 2 is paired from the standings after round 1." in page
    assert PENDING.format(1) not in page and PENDING.format(2) in page
    cards = organiser.get(f"/en/organiser/events/{event.pk}/print/tables/").content.decode()
    assert PENDING.format(1) not in cards and PENDING.format(2) in cards
    # reopening round 1 unpairs round 2 (no result there yet)
    response = organiser.post(f"/en/organiser/events/{event.pk}/control/round/1/reopen/")
    page = organiser.get(response["Location"]).content.decode()
    assert "Round 2 is no longer paired: it will be paired at the close of round 1." in page
    assert Event.objects.get(pk=event.pk).schedule.pending_rounds == (2, 3)


def test_the_table_phone_says_the_next_round_is_paired_at_the_close(client: Client) -> None:
    event = live_event(teams=6, rounds=3)
    table = Table.objects.get(event=event, number=1)
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    url = f"/en/table/{table.code}/"
    for deal in event.deals.filter(deal_set=play.deal_set):
        data = {"contract": "garde", "oudlers": "2", "points": "46", "petit_au_bout": ""}
        posted = {f"d{deal.number}-{key}": value for key, value in data.items()}
        client.post(f"{url}deal/{deal.number}/", {**posted, "round": "1"})
    html = client.get(url + "?round=1").content.decode()
    block = re.search(r'<section class="next-places".*?</section>', html, re.S)
    assert block is not None
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block.group(0)))
    assert "Last round" not in text
    assert text.count("Round 2 · Paired at the close of round 1") == 4
    assert "data-table" not in block.group(0)


def test_the_movement_page_offers_live_or_prepaired_for_quadrettes_only() -> None:
    event = team_setup(Event.Format.QUADRETTE, 10)
    client = director(event)
    url = f"/en/organiser/events/{event.pk}/movement/"
    html = client.get(url + "?rounds=5&seed=0").content.decode()
    assert 'name="swiss"' in html
    assert "Live Swiss pairing over 5 rounds" in html
    html = client.get(url + "?rounds=5&seed=0&swiss=prepaired").content.decode()
    assert "Live Swiss pairing over" not in html
    triplettes = team_setup(Event.Format.TRIPLETTE, 8)
    html = director(triplettes).get(f"/en/organiser/events/{triplettes.pk}/movement/")
    assert 'name="swiss"' not in html.content.decode()
    refused = director(triplettes).get(
        f"/en/organiser/events/{triplettes.pk}/movement/?seed=0&swiss=live"
    )
    assert "Live Swiss pairing is for quadrette events only." in refused.content.decode()

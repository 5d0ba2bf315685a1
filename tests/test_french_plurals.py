"""French counts agree with their number ("1 résultat saisi", "80 manquants", "1 table sur 4"),
labels take the French colon ("Classement : CSV"), the register's filter reads "Tous / Actifs /
Inactifs"."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.services import standings_recompute
from tests.builders import GARDE_46, first_play, running_event
from tests.factories import ClubFactory, OrganiserFactory
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"


def text(html: str) -> str:
    """The page's text, tags dropped and spaces folded (the no-break ones kept)."""
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", "", html))


def one_result_entered() -> Event:
    event = running_event(tables=4, rounds=2)
    table, deal, _play = first_play(event)
    services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def test_one_result_is_singular_on_the_public_pages() -> None:
    event = one_result_entered()
    _table, deal, _play = first_play(event)
    page = text(Client().get(f"/events/{event.pk}/").content.decode())
    assert re.search(r"\b1 résultat saisi sur \d+", page), page
    assert "1 résultats" not in page
    sheet = text(Client().get(f"/events/{event.pk}/deals/{deal.number}/").content.decode())
    assert "1 table sur 4 a un résultat" in sheet
    assert "1 tables" not in sheet


def test_the_exports_take_a_french_colon() -> None:
    event = one_result_entered()
    page = Client().get(f"/events/{event.pk}/").content.decode()
    assert f"Classement{NNBSP}:" in text(page)
    assert "Classement:" not in text(page)


def test_the_control_room_counts_missing_results_in_the_plural() -> None:
    event = one_result_entered()
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    page = text(client.get(f"/organiser/events/{event.pk}/control/").content.decode())
    match = re.search(r"(\d+) ?manquants?\b", page)
    assert match is not None, page
    assert int(match.group(1)) > 1
    assert match.group(0).endswith("manquants")


def test_the_register_filter_reads_in_the_plural() -> None:
    club = ClubFactory()
    client = Client()
    client.force_login(OrganiserFactory(clubs=[club]))
    page = client.get(f"/organiser/clubs/{club.pk}/register/").content.decode()
    options = re.findall(r"<option value=\"[01]?\"[^>]*>([^<]+)</option>", page)
    assert options[:3] == ["Tous", "Actifs", "Inactifs"], options

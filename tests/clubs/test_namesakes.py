"""Before a guest is created by hand, the register's lines of the same names (case, accents and
punctuation ignored, in either order) are named with their licence and offered instead: on the
register's page, an event's players page, a substitution and a free-deal tournament. The
director may still add a new guest (``confirm_new``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import Club, Membership, Player
from clubs.register import register_namesakes
from freedeal.models import FreeDealTournament
from tests.builders import running_event
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments.models import Entrant, EntrantChange

pytestmark = pytest.mark.django_db


def url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


@pytest.fixture
def club() -> Club:
    club = ClubFactory(name="Tarot Club de Brest")
    PlayerFactory(club=club, last_name="GUÉRIN", first_name="Chloé", licence="0412345")
    return club


def director(club: Club) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[club]))
    return client


def guerins() -> int:
    return Player.objects.filter(last_name_folded="guerin").count()


@pytest.mark.parametrize(
    ("last", "first"),
    [("Guerin", "Chloe"), ("guérin", "chloé"), ("GUERIN", "CHLOE"), ("Chloé", "Guérin")],
)
def test_the_event_page_names_her_and_offers_to_register_her(
    club: Club, last: str, first: str
) -> None:
    event = EventFactory(club=club)
    client = director(club)
    add = url("organiser:player_add", event.pk)
    page = client.post(add, {"last_name": last, "first_name": first, "licence": ""})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="namesakes"' in html and "GUÉRIN Chloé" in html and "0412345" in html
    assert "Register GUÉRIN Chloé instead" in html
    assert guerins() == 1 and not event.entrants.exists()
    # taking her: the button posts her to the registration of known players
    guerin = Player.objects.get(licence="0412345")
    assert f'name="player" value="{guerin.pk}"' in html
    client.post(url("organiser:player_register", event.pk), {"player": guerin.pk})
    assert [entrant.player for entrant in event.entrants.all()] == [guerin]


def test_the_director_may_still_add_a_new_guest(club: Club) -> None:
    event = EventFactory(club=club)
    client = director(club)
    data = {"last_name": "Guerin", "first_name": "Chloe", "licence": ""}
    page = client.post(url("organiser:player_add", event.pk), data).content.decode()
    assert 'name="confirm_new" value="1"' in page and 'value="Guerin"' in page
    answer = client.post(url("organiser:player_add", event.pk), {**data, "confirm_new": "1"})
    assert answer.status_code == 302
    assert guerins() == 2
    assert event.entrants.get().player.licence is None


def test_no_warning_for_a_licence_or_the_guest_reused(club: Club) -> None:
    assert register_namesakes(club=club, first_name="Chloe", last_name="Guerin")
    assert not register_namesakes(club=club, first_name="Chloe", last_name="Guerin", licence="9")
    assert not register_namesakes(club=club, first_name="Anne", last_name="Guerin")
    assert not register_namesakes(club=ClubFactory(), first_name="Chloé", last_name="GUÉRIN")
    guest = PlayerFactory(club=club, last_name="Le Gall", first_name="Yann", licence=None)
    # the same names but for case: register_player_add reuses that guest, nothing to ask
    assert not register_namesakes(club=club, first_name="YANN", last_name="le gall")
    # spelt otherwise: a new guest would be created, the line is named
    (line,) = register_namesakes(club=club, first_name="Yann", last_name="LEGALL")
    assert line.player == guest
    Membership.objects.filter(player=guest).update(active=False)
    assert not register_namesakes(
        club=club, first_name="Yann", last_name="LEGALL", active_only=True
    )


def test_the_register_page_names_her_line(club: Club) -> None:
    client = director(club)
    add = url("clubs:register_add", club.pk)
    page = client.post(add, {"last_name": "Chloe", "first_name": "Guerin", "licence": ""})
    html = page.content.decode()
    assert page.status_code == 200 and "0412345" in html and 'id="namesakes"' in html
    line = Membership.objects.get(club=club, player__licence="0412345")
    assert url("clubs:register_line", club.pk, line.pk) in html
    assert guerins() == 1
    data = {"last_name": "Chloe", "first_name": "Guerin", "licence": "", "confirm_new": "1"}
    assert client.post(add, data).status_code == 302
    assert guerins() == 1 and Player.objects.filter(last_name="Chloe").count() == 1


def test_a_free_deal_tournament_names_her(club: Club) -> None:
    tournament = FreeDealTournament.objects.create(club=club, name="Jeudi", date="2026-12-03")
    client = director(club)
    action = url("freedeal:organiser_action", tournament.pk, "register_new")
    page = client.post(action, {"last_name": "Guerin", "first_name": "Chloe", "licence": ""})
    html = page.content.decode()
    assert page.status_code == 200 and "Register GUÉRIN Chloé instead" in html
    assert not tournament.players.exists()
    data = {"last_name": "Guerin", "first_name": "Chloe", "licence": "", "confirm_new": "1"}
    client.post(action, data)
    assert tournament.players.get().player.licence is None and guerins() == 2


def test_a_substitute_names_her_first() -> None:
    event = running_event(tables=3, rounds=3, deals_per_round=1)
    guerin = PlayerFactory(club=event.club, last_name="GUÉRIN", first_name="Chloé")
    client = director(event.club)
    replaced = Entrant.objects.filter(event=event, phantom=False).first()
    assert replaced is not None
    substitute = url("organiser:entrant_substitute", event.pk, replaced.pk)
    data = {"from_round": "2", "first_name": "chloe", "last_name": "guerin"}
    page = client.post(substitute, data).content.decode()
    assert 'id="substitute-choice"' in page and str(guerin) in page
    assert 'id="substitute-new"' in page and not EntrantChange.objects.exists()
    assert client.post(substitute, {**data, "confirm_new": "1"}).status_code == 302
    assert EntrantChange.objects.get().replacement.player.last_name == "guerin"

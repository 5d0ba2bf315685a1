"""Registering the evening's players at once: ticked in the search results, or the players of
the last evening with one confirmation; a free-deal tournament alike (several club players,
the players of its last tournament)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import Club, Membership, Player
from freedeal.models import FreeDealTournament
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments import services
from tournaments.models import Event
from tournaments.services.registration import MAX_AT_ONCE

pytestmark = pytest.mark.django_db

LAST_NAMES = ["VIDAL", "ÉTIENNE", "GIRAUD", "Gaillard", "Dupré", "DUPRE", "LEGALL",
              "Le Gall", "d'Harcourt", "BÉRARD", "ROUX", "GARÇON", "Martin", "Petit", "Noël",
              "Simon"]  # fmt: skip


def url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


@pytest.fixture
def club() -> Club:
    club = ClubFactory()
    for index, last in enumerate(LAST_NAMES):
        PlayerFactory(club=club, last_name=last, first_name=f"Joueur{index:02d}")
    return club


def director(club: Club) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[club]))
    return client


def last_evening(club: Club) -> Event:
    event = EventFactory(club=club, date=dt.date(2026, 11, 26), name="Jeudi 26")
    services.entrants_register(event=event, players=list(Player.objects.filter(club=club)))
    return event


def test_the_players_of_the_last_evening_with_one_confirmation(club: Club) -> None:
    last_evening(club)
    EventFactory(club=club, date=dt.date(2026, 12, 10))  # a later one: not the last evening
    tonight = EventFactory(club=club, date=dt.date(2026, 12, 3), name="Jeudi 3")
    absent = Player.objects.get(last_name="Simon")
    Membership.objects.filter(player=absent).update(active=False)  # left the club: not offered
    client = director(club)
    page = client.get(url("organiser:players", tonight.pk)).content.decode()
    assert 'id="last-evening"' in page and "Register these 15 players" in page
    ticked = re.findall(r'name="player" value="(\d+)" checked', page)
    assert len(ticked) == 15
    answer = client.post(url("organiser:player_register", tonight.pk), {"player": ticked})
    assert answer.status_code == 302
    entrants = list(tonight.entrants.order_by("slot").select_related("player"))
    assert len(entrants) == 15 and absent not in [e.player for e in entrants]
    # slots in French order of the names (Dupré Joueur04 before DUPRE Joueur05: the letters of
    # both names first)
    names = [e.player.last_name for e in entrants]
    assert names[:6] == ["BÉRARD", "d'Harcourt", "Dupré", "DUPRE", "ÉTIENNE", "Gaillard"]
    follow = client.get(url("organiser:players", tonight.pk)).content.decode()
    assert "15 players registered." in follow and 'id="last-evening"' not in follow


def test_ticked_in_the_search_results(club: Club) -> None:
    tonight = EventFactory(club=club)
    client = director(club)
    results = client.get(
        url("organiser:players", tonight.pk), {"q": "du"}, headers={"HX-Request": "true"}
    ).content.decode()
    boxes = re.findall(r'type="checkbox" name="player" value="(\d+)"', results)
    assert len(boxes) == 2 and "Register the ticked players" in results  # DUPRE, Dupré
    client.post(url("organiser:player_register", tonight.pk), {"player": boxes})
    assert tonight.entrants.count() == 2
    # ticked again with a new one: the registered ones are left as they were
    roux = Player.objects.get(last_name="ROUX")
    client.post(url("organiser:player_register", tonight.pk), {"player": [*boxes, roux.pk]})
    assert tonight.entrants.count() == 3


def test_bounded_and_refused_as_a_whole(club: Club) -> None:
    tonight = EventFactory(club=club)
    client = director(club)
    many = client.post(
        url("organiser:player_register", tonight.pk), {"player": list(range(MAX_AT_ONCE + 1))}
    )
    assert many.status_code == 400 and not tonight.entrants.exists()
    stranger = PlayerFactory()  # another club's register: not offered
    mixed = [Player.objects.get(last_name="ROUX").pk, stranger.pk]
    answer = client.post(url("organiser:player_register", tonight.pk), {"player": mixed})
    assert answer.status_code == 400 and not tonight.entrants.exists()


def test_a_free_deal_tournament_takes_several_and_its_last_players(club: Club) -> None:
    client = director(club)
    thursday = FreeDealTournament.objects.create(club=club, name="Jeudi", date="2026-11-26")
    chosen = list(Player.objects.filter(club=club).order_by("pk")[:5])
    action = url("freedeal:organiser_action", thursday.pk, "register")
    assert client.post(action, {"player": [p.pk for p in chosen]}).status_code == 302
    assert thursday.players.count() == 5
    assert list(thursday.players.order_by("number").values_list("number", flat=True)) == [
        1, 2, 3, 4, 5
    ]  # fmt: skip
    tonight = FreeDealTournament.objects.create(club=club, name="Jeudi 3", date="2026-12-03")
    page = client.get(url("freedeal:organiser_detail", tonight.pk)).content.decode()
    assert 'id="last-tournament"' in page and "Register these 5 players" in page
    ticked = re.findall(r'name="player" value="(\d+)" checked', page)
    client.post(url("freedeal:organiser_action", tonight.pk, "register"), {"player": ticked})
    assert sorted(e.player_id for e in tonight.players.all()) == sorted(p.pk for p in chosen)

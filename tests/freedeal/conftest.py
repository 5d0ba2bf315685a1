"""Fixtures of the freedeal tests: a club with its organiser and players; the browser's
``new_page`` from tests/browser/conftest.py."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, Player
from clubs.register import register_player_add
from freedeal import services
from freedeal.models import FreeDealTournament
from tests.browser.conftest import new_page  # noqa: F401  (the browser test's fixture)

TODAY = datetime.date(2026, 11, 23)


@pytest.fixture
def club(db: None) -> Club:
    return Club.objects.create(name="Tarot Club de Test", city="Lyon")


@pytest.fixture
def organiser(club: Club) -> object:
    user = get_user_model().objects.create_user("orga", password="pw-orga-123")
    club.organisers.add(user)
    return user


@pytest.fixture
def players(club: Club) -> list[Player]:
    return [
        register_player_add(club=club, first_name=f"Joueur{n}", last_name=f"Nom{n:02d}").player
        for n in range(1, 21)
    ]


def make_tournament(
    club: Club, players: list[Player], count: int, *, start: bool = True, **options: object
) -> FreeDealTournament:
    tournament = services.free_deal_create(
        club=club,
        name="Donnes libres",
        date=TODAY,
        public=bool(options.pop("public", True)),
        seed=int(options.pop("seed", 7)),  # type: ignore[call-overload]
        **options,  # type: ignore[arg-type]
    )
    for player in players[:count]:
        services.free_deal_player_register(tournament=tournament, player=player)
    if start:
        tournament = services.free_deal_start(tournament=tournament)
    return tournament

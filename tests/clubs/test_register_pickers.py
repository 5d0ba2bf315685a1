"""The competitions' pickers offer only the active players of the competition's club
register (a section of a simultaneous: its own club's)."""

from __future__ import annotations

import pytest

from clubs.models import Membership
from freedeal.selectors import free_deal_registrable_players
from teammatch.selectors import club_players
from tests.factories import (
    ClubFactory,
    CupFactory,
    EventFactory,
    FreeDealTournamentFactory,
    PlayerFactory,
)
from tournaments.selectors import event_register_players, players_search

pytestmark = pytest.mark.django_db


def test_pickers_offer_the_active_players_of_the_club_register_only() -> None:
    club = ClubFactory()
    active = PlayerFactory(club=club, last_name="Actif")
    inactive = PlayerFactory(club=club, last_name="Actif")
    Membership.objects.filter(player=inactive).update(active=False)
    PlayerFactory(last_name="Actif")  # another club's
    visitor = PlayerFactory(last_name="Actif")  # another club's, also on this register
    Membership.objects.create(club=club, player=visitor)
    expected = {active, visitor}
    assert set(club_players(CupFactory(club=club))) == expected
    assert set(free_deal_registrable_players(FreeDealTournamentFactory(club=club))) == expected
    event = EventFactory(club=club)
    assert set(event_register_players(event)) == expected
    assert set(players_search(query="actif", club=club, exclude_event=event)) == expected

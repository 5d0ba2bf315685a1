"""Lookups of the cups' selectors: a row of another cup is not found (404), never shown."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.test import Client

from clubs.errors import DomainError
from teammatch import selectors, services
from tests.factories import CupFactory, CupMatchFactory, CupTeamFactory, OrganiserFactory

pytestmark = pytest.mark.django_db


def test_a_match_or_a_team_of_another_cup_is_not_found():
    match = CupMatchFactory()
    elsewhere = CupFactory()
    assert selectors.cup_match_or_404(match.cup, match.pk) == match
    with pytest.raises(Http404):
        selectors.cup_match_or_404(elsewhere, match.pk)
    assert selectors.cup_team_or_404(match.cup, match.team_a_id) == match.team_a
    with pytest.raises(Http404):
        selectors.cup_team_or_404(elsewhere, match.team_a_id)


def test_a_waiting_match_has_an_empty_sheet_and_takes_no_lineup():
    match = CupMatchFactory()
    sheet = selectors.match_sheet(match, directs=True)
    assert (sheet.quarters, sheet.total, sheet.pm_a) == ([], 0, 0)
    assert selectors.match_deal(match, 1) is None
    with pytest.raises(Http404):
        selectors.match_deal_or_404(match, 1)
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=match, quarter=1, seats={})
    assert refused.value.code == "match_not_playing"


def test_the_bracket_api_follows_the_kernel_access_rule():
    """A private cup's bracket: its directors only (404 for anybody else)."""
    private, public = CupFactory(), CupFactory(public=True)
    organiser = OrganiserFactory(clubs=[private.club])
    anonymous = Client()
    assert anonymous.get(f"/api/v1/cups/{public.pk}/bracket/").status_code == 200
    assert anonymous.get(f"/api/v1/cups/{private.pk}/bracket/").status_code == 404
    director = Client()
    director.force_login(organiser)
    assert director.get(f"/api/v1/cups/{private.pk}/bracket/").status_code == 200


def test_player_labels_tell_namesakes_apart():
    team = CupTeamFactory()
    first, second, third = (m.player for m in team.members.order_by("pk")[:3])
    second.last_name, second.first_name = first.last_name, first.first_name
    labels = selectors.player_labels([first, second, third, first])
    # By their ids: a licence never reaches the public pages nor the rooms' phones.
    assert labels[first.pk] == f"{first} ({first.pk})"
    assert labels[second.pk] == f"{second} ({second.pk})"
    assert labels[third.pk] == str(third)
    assert len(labels) == 3

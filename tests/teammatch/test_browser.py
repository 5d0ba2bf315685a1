"""A room phone at 390×844 enters a deal: taps the contract and the bouts, types the points,
saves; the page never scrolls sideways. Debian's Chromium driven by Playwright (see
tests/browser/conftest.py, imported by this folder's conftest)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from teammatch import services
from teammatch.models import CupMatch, MatchDeal, MatchRoom, RoomResult
from tests.factories import DEFAULT_PASSWORD
from tests.teammatch.worlds import club_with_players, cup_with_teams, feasible, members, seats_for

PHONE = {"width": 390, "height": 844}
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_room_phone_enters_a_deal_at_390px(live_server: Any, new_page: Any) -> None:
    club, players, _ = club_with_players(8)
    cup, _teams = cup_with_teams(club, players, (4, 4), deals_per_quarter=3, public=True)
    services.cup_start(cup=cup)
    match = CupMatch.objects.get(cup=cup)
    services.match_lineup_set(
        match=match, quarter=1, seats=seats_for(match, members(match.team_a), members(match.team_b))
    )
    room = MatchRoom.objects.get(match=match, room="closed")
    deal = MatchDeal.objects.get(match=match, number=2)
    outcome = feasible(deal, "garde_sans", 48)
    label = {"garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}

    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    page.goto(f"{live_server.url}/en/cups/room/{room.code}/")
    assert page.locator("h1").inner_text().startswith("Closed room")
    assert no_sideways_scroll(page)
    section = page.locator("#deal-2")
    section.locator("label.segment", has_text=re.compile(rf"^{label[outcome['contract']]}$")).tap()
    section.locator("label.segment", has_text=re.compile(rf"^{outcome['oudlers']}$")).tap()
    field = page.locator("#id_d2-points")
    field.tap()
    field.fill(str(outcome["points"]))
    section.get_by_role("button", name="Save").tap()
    page.wait_for_url(re.compile(r"/cups/room/.+/#deal-2$"))
    result = RoomResult.objects.get(deal=deal, room="closed")
    assert (result.contract, result.oudlers, result.points) == (
        outcome["contract"],
        outcome["oudlers"],
        outcome["points"],
    )
    assert "✓" in page.locator("#deal-2 h2").inner_text()
    assert page.locator("#correct-2").is_visible()
    assert no_sideways_scroll(page)
    # the organiser's match screen and the public sheet fit the phone too
    page.goto(f"{live_server.url}/en/cups/{cup.pk}/matches/{match.pk}/")
    assert no_sideways_scroll(page)
    page.goto(f"{live_server.url}/en/cups/{cup.pk}/")
    assert no_sideways_scroll(page)


def test_organiser_screens_fit_a_phone(live_server: Any, new_page: Any) -> None:
    club, players, organiser = club_with_players(8)
    cup, _teams = cup_with_teams(club, players, (4, 4), deals_per_quarter=2, public=True)
    services.cup_start(cup=cup)
    match = CupMatch.objects.get(cup=cup)
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    page.goto(f"{live_server.url}/en/login/?next=/en/organiser/cups/")
    page.fill("#id_username", organiser.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/en/organiser/cups/$"))
    for path in (
        "/en/organiser/cups/",
        "/en/organiser/cups/new/",
        f"/en/organiser/cups/{cup.pk}/",
        f"/en/organiser/cups/{cup.pk}/matches/{match.pk}/",
        f"/en/organiser/cups/{cup.pk}/matches/{match.pk}/deals/1/open/",
    ):
        page.goto(f"{live_server.url}{path}")
        assert no_sideways_scroll(page), path

"""A room phone at 390×844 enters a deal: taps the contract and the bouts, types the points,
sees the deal's value and the taker's mark computed by the server before saving (the live
preview), saves; a second phone of the room that enters another outcome for that deal is shown
the stored result, nothing changed, and the way to correct it. The page never scrolls
sideways. Debian's Chromium driven by Playwright (see tests/browser/conftest.py, imported by
this folder's conftest)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs.outcomes import outcome_score
from teammatch import selectors, services
from teammatch.models import CupMatch, MatchDeal, MatchRoom, RoomResult
from tests.browser.conftest import answered
from tests.factories import DEFAULT_PASSWORD
from tests.teammatch.worlds import club_with_players, cup_with_teams, feasible, members, seats_for

PHONE = {"width": 390, "height": 844}
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def tap_outcome(page: Any, number: int, contract: str, oudlers: int, points: int) -> None:
    """Tap the contract and the bouts, type the points: what a player does."""
    section = page.locator(f"#deal-{number}")
    section.locator("label.segment", has_text=re.compile(rf"^{contract}$")).tap()
    section.locator("label.segment", has_text=re.compile(rf"^{oudlers}$")).tap()
    field = page.locator(f"#id_d{number}-points")
    field.tap()
    field.fill("")
    field.press_sequentially(str(points))


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
    # a second phone of the room opens the page before the first one saves
    second = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB")
    second.goto(f"{live_server.url}/en/cups/room/{room.code}/")
    assert page.locator("h1").inner_text().startswith("Closed room")
    assert no_sideways_scroll(page)
    tap_outcome(page, 2, label[outcome["contract"]], outcome["oudlers"], outcome["points"])
    # the live preview: the server's value and taker's mark, before anything is saved
    preview = page.locator("#preview-2 .preview-marks")
    preview.wait_for()
    expected = outcome_score(deal=selectors.rules_deal_of(deal), outcome=outcome)
    assert f"Deal value: {expected.value}" in preview.inner_text()
    assert str(expected.marks[expected.taker_seat]) in preview.inner_text()
    assert not RoomResult.objects.exists()
    assert no_sideways_scroll(page)
    page.locator("#deal-2").get_by_role("button", name="Save").tap()
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
    # the second phone enters another outcome for deal 2: a conflict, nothing changed
    history = list(result.history.values_list("pk", flat=True))
    tap_outcome(second, 2, label[outcome["contract"]], outcome["oudlers"], outcome["points"] + 2)
    second.locator("#deal-2").get_by_role("button", name="Save").tap()
    # the phone script shows the refusal at the deal, with the stored result
    refusal = answered(second, 2, "refused")
    assert "deal 2 in the closed room is already stored" in refusal.inner_text()
    assert f"{outcome['points']} points" in second.locator("#deal-2").inner_text()
    assert no_sideways_scroll(second)
    assert list(result.history.values_list("pk", flat=True)) == history
    assert RoomResult.objects.get(pk=result.pk).points == outcome["points"]
    # it may correct the stored result: the link opens the form filled with it
    second.locator("#correct-2").tap()
    second.wait_for_url(re.compile(r"\?correct=2#deal-2$"))
    assert second.locator("#id_d2-points").input_value() == str(outcome["points"])
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

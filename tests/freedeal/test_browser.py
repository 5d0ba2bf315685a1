"""A table phone of 5 at 390 px (Chromium, French): the page fits the window, a deal is entered
with the one-tap choices (contract, taker, called King, oudlers) and the points, the live
preview shows each player's mark before anything is saved, and the marks the rules engine
computed are stored and shown. A second phone still showing the deal's form then enters another
outcome: the conflict page says so and shows the stored result, nothing changes, and its link
opens the explicit correction."""

from __future__ import annotations

from typing import Any

import pytest

from freedeal.models import FreeDealChange, FreeDealResult
from tests.browser.conftest import answered
from tests.freedeal.conftest import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDER_THAN_WINDOW = "() => document.documentElement.scrollWidth > window.innerWidth"


def test_table_of_five_enters_a_deal_at_390px(club, players, new_page: Any, live_server) -> None:
    tournament = make_tournament(club, players, 14)
    table = tournament.tables.filter(size=5).order_by("number").first()
    assert table is not None
    seated = tournament.table_players(1, table.number)
    url = f"{live_server.url}/free-deal/table/{table.code}/"
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    other = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page.goto(url)
    other.goto(url)  # a second phone at the table, opened before the deal is saved
    assert not page.evaluate(WIDER_THAN_WINDOW)
    form = page.locator("#form-1")

    def tap(name: str, value: object, on: Any = form) -> None:
        on.locator(
            "label.segment", has=on.page.locator(f"input[name='d1-{name}'][value='{value}']")
        ).click()

    tap("contract", "garde")
    tap("taker", seated[0])
    tap("partner", seated[2])
    tap("oudlers", 2)
    form.locator("input[name='d1-points']").fill("50")
    form.locator("input[name='d1-points']").press("Tab")  # a change: the preview asks
    # The live preview: the server's marks under the tournament's rules, nothing stored yet.
    preview = page.locator("#preview-1")
    preview.locator("table.marks").wait_for()
    page.wait_for_function("() => document.querySelector('#preview-1').innerText.includes('136')")
    assert preview.inner_text().count("-68") == 3
    assert not FreeDealResult.objects.exists()
    assert not page.evaluate(WIDER_THAN_WINDOW)
    form.locator("button[type=submit]").click()
    page.wait_for_url("**#deal-1")
    result = FreeDealResult.objects.get()
    assert result.taker == seated[0] and result.partner == seated[2]
    assert result.marks[str(seated[0])] == 136 and result.marks[str(seated[2])] == 68
    assert page.locator("#deal-1").inner_text().count("-68") == 3
    assert page.locator("#correct-1").is_visible()
    assert not page.evaluate(WIDER_THAN_WINDOW)

    # The second phone enters another outcome for deal 1: a conflict, nothing changed.
    stale = other.locator("#form-1")
    tap("contract", "garde", stale)
    tap("taker", seated[1], stale)
    tap("partner", seated[3], stale)
    tap("oudlers", 1, stale)
    stale.locator("input[name='d1-points']").fill("40")
    stale.locator("button[type=submit]").click()
    # The phone script shows the refusal at the deal, with the stored result.
    alert = answered(other, 1, "refused")
    assert alert.is_visible() and "1" in alert.inner_text()
    assert other.locator("#deal-1").inner_text().count("-68") == 3
    assert not other.evaluate(WIDER_THAN_WINDOW)
    result.refresh_from_db()
    assert result.taker == seated[0] and FreeDealChange.objects.count() == 1
    # Its link opens the explicit correction of the stored result.
    other.locator("#correct-1").click()
    other.locator("#form-1.correction").wait_for()
    assert other.locator(f"input[name='d1-taker'][value='{seated[0]}']").is_checked()


def test_every_page_fits_a_phone(club, players, organiser, new_page: Any, live_server) -> None:
    from demo.free_deals import build_demo
    from tests.freedeal.conftest import TODAY

    tournament = build_demo(club=club, players=players, seed=2, today=TODAY)
    code = tournament.tables.order_by("number").first().code  # type: ignore[union-attr]
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "pw-orga-123")
    page.locator("main button[type=submit], main input[type=submit]").first.click()
    page.wait_for_load_state()
    pk = tournament.pk
    for path in (
        "/free-deal/",
        f"/free-deal/{pk}/",
        f"/free-deal/{pk}/seating/",
        f"/free-deal/{pk}/players/1/",
        f"/free-deal/table/{code}/",
        "/organiser/free-deal/",
        "/organiser/free-deal/new/",
        f"/organiser/free-deal/{pk}/",
        f"/organiser/free-deal/{pk}/correct/1/1/1/",
    ):
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        assert page.url == live_server.url + path, page.url
        assert not page.evaluate(WIDER_THAN_WINDOW), path

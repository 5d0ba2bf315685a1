"""A table phone of 5 at 390 px (Chromium, French): the page fits the window, a deal is entered
with the one-tap choices (contract, taker, called King, oudlers) and the points, and the marks
the rules engine computed are stored and shown."""

from __future__ import annotations

from typing import Any

import pytest

from freedeal.models import FreeDealResult
from tests.freedeal.conftest import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WIDER_THAN_WINDOW = "() => document.documentElement.scrollWidth > window.innerWidth"


def test_table_of_five_enters_a_deal_at_390px(club, players, new_page: Any, live_server) -> None:
    tournament = make_tournament(club, players, 14)
    table = tournament.tables.filter(size=5).order_by("number").first()
    assert table is not None
    seated = tournament.table_players(1, table.number)
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page.goto(f"{live_server.url}/free-deal/table/{table.code}/")
    assert not page.evaluate(WIDER_THAN_WINDOW)
    form = page.locator("#form-1")
    form.locator("label.segment", has=page.locator("input[value='garde']")).click()
    form.locator(
        "label.segment", has=page.locator(f"input[name='d1-taker'][value='{seated[0]}']")
    ).click()
    form.locator(
        "label.segment", has=page.locator(f"input[name='d1-partner'][value='{seated[2]}']")
    ).click()
    form.locator("label.segment", has=page.locator("input[name='d1-oudlers'][value='2']")).click()
    form.locator("input[name='d1-points']").fill("50")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**#deal-1")
    result = FreeDealResult.objects.get()
    assert result.taker == seated[0] and result.partner == seated[2]
    assert result.marks[str(seated[0])] == 136 and result.marks[str(seated[2])] == 68
    assert page.locator("#deal-1").inner_text().count("-68") == 3
    assert not page.evaluate(WIDER_THAN_WINDOW)


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

"""A table's phone at 390×844 in French (issue #11, "at the table").

The players tap the contract and the bouts (segmented radio buttons, no select), type the
points on a decimal keypad, see the marks before saving, save. A refused entry brings the page
back to that deal's form with its error, not to the top. After the round's last deal, each
player reads where to go next: table and seat from the movement. Debian's Chromium is driven
headless by Playwright's sync API against pytest-django's ``live_server``.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from tests.browser.conftest import answered
from tests.builders import running_event
from tournaments.models import Deal, Entrant, Event, Table, TableResult

PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("TABLE_PHONE_SHOTS")  # a folder: screenshots for a reviewer
SEATS_FR = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(new_page: Any) -> Any:
    """A headless Chromium page with a phone-sized touch screen, in French."""
    return new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")


def deals_at(event: Event, table_number: int, round_number: int) -> list[Deal]:
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    return list(event.deals.filter(deal_set=play.deal_set).order_by("number"))


def inside_viewport(page: Any, selector: str) -> bool:
    """Whether the whole box of ``selector`` is on screen (a phone shows it without scrolling)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def tap_deal(phone: Any, deal: Deal, contract: str, bouts: str, points: str) -> None:
    """Tap the contract and the bouts, type the points: what a player does."""
    section = phone.locator(f"#deal-{deal.number}")
    section.locator("label.segment", has_text=re.compile(rf"^{contract}$")).tap()
    section.locator("label.segment", has_text=re.compile(rf"^{bouts}$")).tap()
    field = phone.locator(f"#id_d{deal.number}-points")
    field.tap()
    field.fill("")
    field.press_sequentially(points)


def save(phone: Any, deal: Deal) -> None:
    phone.locator(f"#deal-{deal.number}").get_by_role("button", name="Enregistrer").tap()


def test_a_table_taps_its_round_and_sees_where_to_go_next(live_server: Any, phone: Any) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=3)
    table = Table.objects.get(event=event, number=1)
    first, second, third = deals_at(event, 1, 1)
    phone.goto(f"{live_server.url}/table/{table.code}/")
    assert phone.locator("html").get_attribute("lang") == "fr"
    assert phone.get_by_role("heading", name=re.compile(r"Table 1 · Position 1")).is_visible()
    # Big touch targets: every segment and the save button at least 44 px high.
    for selector in (f"#deal-{first.number} label.segment", f"#form-{first.number} .primary"):
        box = phone.locator(selector).first.bounding_box()
        assert box is not None and box["height"] >= 44, selector
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Deal 1: Garde sans, 2 bouts, 48 points; the marks show before anything is saved.
    tap_deal(phone, first, "Garde sans", "2", "48")
    if SHOTS:
        phone.locator(f"#preview-{first.number} table.marks").wait_for()
        phone.screenshot(path=f"{SHOTS}/table-preview.png")
    assert phone.locator(f"#id_d{first.number}-contract-garde_sans").is_checked()
    assert phone.locator(f"#id_d{first.number}-oudlers-2").is_checked()
    assert phone.locator(f"#id_d{first.number}-points").get_attribute("inputmode") == "decimal"
    # "Poignées, chelem" looks like something to tap: a bordered row with an opening arrow.
    look = phone.locator(f"#deal-{first.number} details summary").evaluate(
        "s => { const c = getComputedStyle(s), m = getComputedStyle(s, '::before');"
        " return [c.borderTopStyle, c.borderTopWidth, m.content]; }"
    )
    assert look[0] == "solid" and look[1] != "0px", look
    assert look[2] not in ("none", "normal", ""), look
    marks = phone.locator(f"#preview-{first.number} table.marks")
    marks.wait_for()
    cells = marks.locator("tr").nth(1).locator("td").all_inner_texts()
    expected = {seat: (384 if seat == first.taker_seat else -128) for seat in "NESW"}
    assert [int(text.replace("\u2212", "-")) for text in cells] == [expected[s] for s in "NESW"]
    assert not TableResult.objects.filter(table=table).exists()
    save(phone, first)
    answered(phone, first.number)  # the phone script's answer, in place (no reload)
    phone.wait_for_url(re.compile(rf"/table/{table.code}/#deal-{first.number}$"))
    assert phone.get_by_text(f"Donne {first.number} enregistrée.").is_visible()
    stored = TableResult.objects.get(table=table, deal=first)
    assert (stored.contract, stored.oudlers, stored.value) == ("garde_sans", 2, 128)

    # Deal 2: a plain Garde.
    tap_deal(phone, second, "Garde", "2", "46")
    save(phone, second)
    answered(phone, second.number)
    assert TableResult.objects.get(table=table, deal=second).value == 60
    assert phone.locator("#next-places").count() == 0  # a deal is still to enter

    # Deal 3, refused (95 points): the page comes back at that deal's form, with its error.
    tap_deal(phone, third, "Garde contre", "1", "95")
    save(phone, third)
    answered(phone, third.number, "refused")
    assert phone.evaluate("window.scrollY") > 0
    assert inside_viewport(phone, f"#form-{third.number}")
    error = phone.locator(f"#id_d{third.number}-points-error")
    assert error.is_visible() and "91" in error.inner_text()
    # The field in error has the focus (the keypad opens on it), the page still on the deal.
    phone.wait_for_function(
        f"document.activeElement && document.activeElement.id === 'id_d{third.number}-points'"
    )
    # The refused number is selected: the digits typed replace it (never "9560").
    phone.keyboard.type("60")
    assert phone.input_value(f"#id_d{third.number}-points") == "60"
    assert inside_viewport(phone, f"#form-{third.number}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # recap
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/table-refused.png")
    assert phone.locator(f"#id_d{third.number}-contract-garde_contre").is_checked()
    assert not TableResult.objects.filter(table=table, deal=third).exists()

    # Corrected, saved: the round is over at this table, and each player sees where to go.
    tap_deal(phone, third, "Garde contre", "1", "60")
    save(phone, third)
    phone.wait_for_url(re.compile(r"#next-places$"))
    assert TableResult.objects.filter(table=table).count() == 3
    block = phone.locator("#next-places")
    assert block.is_visible() and inside_viewport(phone, "#next-places")
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/table-next.png")
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    rows = block.locator("li.next-place")
    assert rows.count() == 4
    for seat, slot in play.seats.items():
        entrant = Entrant.objects.get(event=event, slot=slot)
        following = next(
            p for p in event.schedule.round(2).tables if slot in p.seats.values()
        )  # fmt: skip
        next_seat = next(s for s, other in following.seats.items() if other == slot)
        row = block.locator(f"li[data-entrant='{entrant.pk}']")
        text = re.sub(r"\s+", " ", row.inner_text())
        assert str(entrant) in text, text
        assert f"Table {following.table} · Place {SEATS_FR[next_seat]}" in text, (seat, text)

    # Round 2 is the last: once entered, the table is thanked.
    phone.goto(f"{live_server.url}/table/{table.code}/")
    last_deals = deals_at(event, 1, 2)
    for deal in last_deals:
        tap_deal(phone, deal, "Garde", "2", "46")
        save(phone, deal)
        anchor = "next-places" if deal == last_deals[-1] else f"deal-{deal.number}"
        phone.wait_for_url(re.compile(rf"#{anchor}$"))
    assert phone.locator("#next-places").is_visible()
    assert phone.locator("#next-places li.next-place").count() == 0

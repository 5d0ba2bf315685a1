"""A table's phone at 390×844 in French (issue #11, "at the table").

The players tap the contract and the bouts (segmented radio buttons, no select), type the
points on a decimal keypad, see the marks before saving, save. A refused entry brings the page
back to that deal's form with its error, not to the top. After the round's last deal, each
player reads where to go next: table and seat from the movement. Debian's Chromium is driven
headless by Playwright's sync API against the served instance (``tests.browser.served``), the
phone on ``club.test``.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from tests.browser import world
from tests.browser.conftest import answered
from tests.browser.served import ServedInstance
from tournaments.models import Entrant, Event

PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("TABLE_PHONE_SHOTS")  # a folder: screenshots for a reviewer
SEATS_FR = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}
pytestmark = [pytest.mark.browser]


@pytest.fixture
def phone(new_page: Any) -> Any:
    """A headless Chromium page with a phone-sized touch screen, in French."""
    return new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")


def next_places(event_id: int, table_number: int, round_number: int) -> list[dict[str, Any]]:
    """(In the instance) where each player of the table goes after the position: entrant,
    name, next table and seat."""
    event = Event.objects.get(pk=event_id)
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None
    places = []
    for slot in play.seats.values():
        entrant = Entrant.objects.get(event=event, slot=slot)
        following = next(
            p for p in event.schedule.round(round_number + 1).tables if slot in p.seats.values()
        )  # fmt: skip
        seat = next(s for s, other in following.seats.items() if other == slot)
        places.append(
            {"entrant": entrant.pk, "name": str(entrant), "table": following.table, "seat": seat}
        )
    return places


def inside_viewport(page: Any, selector: str) -> bool:
    """Whether the whole box of ``selector`` is on screen (a phone shows it without scrolling)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def tap_deal(phone: Any, deal: int, contract: str, bouts: str, points: str) -> None:
    """Tap the contract and the bouts, type the points of deal number ``deal``: what a player
    does."""
    section = phone.locator(f"#deal-{deal}")
    section.locator("label.segment", has_text=re.compile(rf"^{contract}$")).tap()
    section.locator("label.segment", has_text=re.compile(rf"^{bouts}$")).tap()
    field = phone.locator(f"#id_d{deal}-points")
    field.tap()
    field.fill("")
    field.press_sequentially(points)


def save(phone: Any, deal: int) -> None:
    phone.locator(f"#deal-{deal}").get_by_role("button", name="Enregistrer").tap()


def test_a_table_taps_its_round_and_sees_where_to_go_next(
    served: ServedInstance, phone: Any
) -> None:
    room = served.call(world.running_table, tables=3, rounds=2, deals_per_round=3)
    code = room["code"]
    first, second, third = (deal["number"] for deal in room["deals"]["1"])
    taker = room["deals"]["1"][0]["taker_seat"]
    phone.goto(f"{served.phone_url}/table/{code}/")
    assert phone.locator("html").get_attribute("lang") == "fr"
    assert phone.get_by_role("heading", name=re.compile(r"Table 1 · Position 1")).is_visible()
    # Big touch targets: every segment and the save button at least 44 px high.
    for selector in (f"#deal-{first} label.segment", f"#form-{first} .primary"):
        box = phone.locator(selector).first.bounding_box()
        assert box is not None and box["height"] >= 44, selector
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Deal 1: Garde sans, 2 bouts, 48 points; the marks show before anything is saved.
    tap_deal(phone, first, "Garde sans", "2", "48")
    if SHOTS:
        phone.locator(f"#preview-{first} table.marks").wait_for()
        phone.screenshot(path=f"{SHOTS}/table-preview.png")
    assert phone.locator(f"#id_d{first}-contract-garde_sans").is_checked()
    assert phone.locator(f"#id_d{first}-oudlers-2").is_checked()
    assert phone.locator(f"#id_d{first}-points").get_attribute("inputmode") == "decimal"
    # "Poignées, chelem" looks like something to tap: a bordered row with an opening arrow.
    look = phone.locator(f"#deal-{first} details summary").evaluate(
        "s => { const c = getComputedStyle(s), m = getComputedStyle(s, '::before');"
        " return [c.borderTopStyle, c.borderTopWidth, m.content]; }"
    )
    assert look[0] == "solid" and look[1] != "0px", look
    assert look[2] not in ("none", "normal", ""), look
    marks = phone.locator(f"#preview-{first} table.marks")
    marks.wait_for()
    cells = marks.locator("tr").nth(1).locator("td").all_inner_texts()
    expected = {seat: (384 if seat == taker else -128) for seat in "NESW"}
    assert [int(text.replace("\u2212", "-")) for text in cells] == [expected[s] for s in "NESW"]
    assert served.call(world.results, room["table"]) == []
    save(phone, first)
    answered(phone, first)  # the phone script's answer, in place (no reload)
    phone.wait_for_url(re.compile(rf"/table/{code}/#deal-{first}$"))
    assert phone.get_by_text(f"Donne {first} enregistrée.").is_visible()
    [stored] = served.call(world.results, room["table"])
    assert (stored["contract"], stored["oudlers"], stored["value"]) == ("garde_sans", 2, 128)

    # Deal 2: a plain Garde.
    tap_deal(phone, second, "Garde", "2", "46")
    save(phone, second)
    answered(phone, second)
    assert served.call(world.results, room["table"])[1]["value"] == 60
    assert phone.locator("#next-places").count() == 0  # a deal is still to enter

    # Deal 3, refused (95 points): the page comes back at that deal's form, with its error.
    tap_deal(phone, third, "Garde contre", "1", "95")
    save(phone, third)
    answered(phone, third, "refused")
    assert phone.evaluate("window.scrollY") > 0
    assert inside_viewport(phone, f"#form-{third}")
    error = phone.locator(f"#id_d{third}-points-error")
    assert error.is_visible() and "91" in error.inner_text()
    # The field in error has the focus (the keypad opens on it), the page still on the deal.
    phone.wait_for_function(
        f"document.activeElement && document.activeElement.id === 'id_d{third}-points'"
    )
    # The refused number is selected: the digits typed replace it (never "9560").
    phone.keyboard.type("60")
    assert phone.input_value(f"#id_d{third}-points") == "60"
    assert inside_viewport(phone, f"#form-{third}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # recap
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/table-refused.png")
    assert phone.locator(f"#id_d{third}-contract-garde_contre").is_checked()
    assert len(served.call(world.results, room["table"])) == 2

    # Corrected, saved: the round is over at this table, and each player sees where to go.
    tap_deal(phone, third, "Garde contre", "1", "60")
    save(phone, third)
    phone.wait_for_url(re.compile(r"#next-places$"))
    assert len(served.call(world.results, room["table"])) == 3
    block = phone.locator("#next-places")
    assert block.is_visible() and inside_viewport(phone, "#next-places")
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/table-next.png")
    rows = block.locator("li.next-place")
    assert rows.count() == 4
    for place in served.call(next_places, room["event"], 1, 1):
        row = block.locator(f"li[data-entrant='{place['entrant']}']")
        text = re.sub(r"\s+", " ", row.inner_text())
        assert place["name"] in text, text
        assert f"Table {place['table']} · Place {SEATS_FR[place['seat']]}" in text, text

    # Round 2 is the last: once entered, the table is thanked.
    phone.goto(f"{served.phone_url}/table/{code}/")
    last_deals = [deal["number"] for deal in room["deals"]["2"]]
    for deal in last_deals:
        tap_deal(phone, deal, "Garde", "2", "46")
        save(phone, deal)
        anchor = "next-places" if deal == last_deals[-1] else f"deal-{deal}"
        phone.wait_for_url(re.compile(rf"#{anchor}$"))
    assert phone.locator("#next-places").is_visible()
    assert phone.locator("#next-places li.next-place").count() == 0

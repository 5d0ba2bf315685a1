"""Browser walk-through of the director's control room and the round life cycle (issue #11).

- The organiser entry grid saves a partly filled round (its inputs used to be ``required``:
  the browser refused to send the form until every row was filled).
- The control room shows what is missing and refreshes itself (htmx) when a table enters a
  deal on its phone; the table corrects its own entry; the director closes the round (refused
  with the list, then confirmed), the phone then says the round is closed; finishing with
  results missing goes through a confirmation page listing them; the finished event is
  reopened with a reason, and the history shows it.

Debian's Chromium (``apt-get install chromium``), headless, driven by Playwright's sync API
against the served instance (``tests.browser.served``), the phone on ``club.test``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import world
from tests.browser.conftest import answered
from tests.browser.served import ORGANISER, ORGANISER_PASSWORD, ServedInstance
from tournaments.models import ResultChange, TableResult

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def log_in(page: Any, base: str) -> None:
    """The club's organiser logs in (in English)."""
    page.goto(f"{base}/en/login/?next=/en/organiser/")
    page.fill("#id_username", ORGANISER)
    page.fill("#id_password", ORGANISER_PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/en/organiser/$"))


def last_change(table_id: int, deal: int) -> dict[str, Any]:
    """(In the instance) the points of table ``table_id``'s result for ``deal`` and its last
    recorded change."""
    result = TableResult.objects.get(table_id=table_id, deal__number=deal)
    change = ResultChange.objects.filter(result=result).order_by("pk").last()
    assert change is not None
    return {
        "points_half": result.points_half,
        "action": change.action,
        "actor_label": change.actor_label,
    }


def fill_phone_deal(phone: Any, deal: int, points: str) -> None:
    prefix = f"#id_d{deal}"
    phone.check(f"{prefix}-contract-garde")
    phone.check(f"{prefix}-oudlers-2")
    phone.fill(f"{prefix}-points", points)


def test_the_entry_grid_saves_a_partly_filled_round(served: ServedInstance, new_page: Any) -> None:
    room = served.call(world.running_table, tables=5, rounds=3, deals_per_round=2)
    page = new_page(viewport=DESKTOP)
    log_in(page, served.url)
    page.goto(f"{served.url}/en/organiser/events/{room['event']}/entry/round/1/")
    assert page.locator("form.grid-entry [required]").count() == 0
    first, second = (deal["number"] for deal in room["deals"]["1"])
    for deal, points in ((first, "46"), (second, "30")):
        row = f"#id_t1-d{deal}"
        page.select_option(f"{row}-oudlers", "2")
        page.fill(f"{row}-points", points)
    page.get_by_role("button", name="Save the filled rows").click()
    page.wait_for_url(re.compile(r"/entry/round/1/$"))
    assert page.get_by_text("2 results saved.").is_visible()
    stored = served.call(world.results, room["table"])
    assert [(r["deal"], r["points_half"]) for r in stored] == [(first, 92), (second, 60)]
    assert stored[0]["entered_via"] == "organiser"
    assert sum(len(served.call(world.results, t)) for t in room["tables"].values()) == 2


def test_a_round_is_watched_corrected_closed_and_the_event_finished_and_reopened(
    served: ServedInstance, new_page: Any
) -> None:
    room = served.call(world.running_table, tables=3, rounds=2, deals_per_round=1)
    event = room["event"]
    base, phone_base = served.url, served.phone_url
    director = new_page(viewport=DESKTOP)
    log_in(director, base)
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    code = room["code"]
    deal = room["deals"]["1"][0]["number"]

    # The control room: round 1, nothing entered yet.
    director.goto(f"{base}/en/organiser/events/{event}/control/")
    cell = director.locator(f"#cell-t1-d{deal}")
    assert "missing" in (cell.get_attribute("class") or "")
    assert director.locator("#total-entered").inner_text() == "0/6"

    # Table 1 enters its deal on the phone, then corrects its own entry.
    phone.goto(f"{phone_base}/en/table/{code}/")
    fill_phone_deal(phone, deal, "46")
    phone.locator(f"#deal-{deal}").get_by_role("button", name="Save").click()
    answered(phone, deal)
    # The round's last deal: the phone script opens the page again (the recap): let it finish.
    phone.wait_for_load_state("networkidle")
    phone.goto(f"{phone_base}/en/table/{code}/?round=1")
    phone.locator(f"#correct-{deal}").click()
    # Still in play at the other tables: the form does not show the stored outcome.
    assert phone.locator(f"#id_d{deal}-points").input_value() == ""
    fill_phone_deal(phone, deal, "50")
    phone.get_by_role("button", name="Save the correction").click()
    answered(phone, deal)
    assert served.call(last_change, room["table"], deal) == {
        "points_half": 100,
        "action": "correct",
        "actor_label": "table 1",
    }

    # The board refreshes itself (htmx) without a reload.
    director.wait_for_function(
        f"document.querySelector('#cell-t1-d{deal}').classList.contains('entered')",
        timeout=25_000,
    )
    assert director.locator("#total-entered").inner_text() == "1/6"

    # Closing round 1 is refused with the list, then confirmed.
    director.locator("#close-round").click()
    assert director.locator(".missing-item").count() == 2
    director.locator("#confirm-close").click()
    director.wait_for_url(re.compile(r"/control/\?round=1$"))
    assert served.call(world.event_state, event)["closed_rounds"] == [1]

    # Table 2's phone: round 1 is closed, the table is in round 2.
    phone.goto(f"{phone_base}/en/table/{room['codes']['2']}/?round=1")
    assert phone.get_by_text("This round is closed: ask the director.").is_visible()
    (missed,) = served.call(world.deals_at, event, 2, 1)
    assert phone.locator(f"#id_d{missed['number']}-points").count() == 0

    # Finishing with results missing: the confirmation page lists them.
    director.goto(f"{base}/en/organiser/events/{event}/")
    director.locator("#finish-event").click()
    director.wait_for_url(re.compile(r"/finish/$"))
    assert director.locator(".missing-item").count() == 5
    director.locator("#confirm-finish").click()
    director.wait_for_url(re.compile(rf"/organiser/events/{event}/$"))
    assert served.call(world.event_state, event)["status"] == "finished"

    # Reopening, with a reason, recorded in the history.
    director.locator("#reopen-event").click()
    director.fill("input[name=reason]", "table 3 forgot a deal")
    director.locator("#confirm-reopen").click()
    director.wait_for_url(re.compile(r"/control/$"))
    assert served.call(world.event_state, event)["status"] == "running"
    director.goto(f"{base}/en/organiser/events/{event}/entry/history/")
    log = director.locator("#event-log")
    assert log.get_by_text("Event reopened").is_visible()
    assert log.get_by_text("table 3 forgot a deal").is_visible()
    assert log.get_by_text("Round 1 closed").is_visible()

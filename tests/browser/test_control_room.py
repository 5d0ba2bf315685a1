"""Browser walk-through of the director's control room and the round life cycle (issue #11).

- The organiser entry grid saves a partly filled round (its inputs used to be ``required``:
  the browser refused to send the form until every row was filled).
- The control room shows what is missing and refreshes itself (htmx) when a table enters a
  deal on its phone; the table corrects its own entry; the director closes the round (refused
  with the list, then confirmed), the phone then says the round is closed; finishing with
  results missing goes through a confirmation page listing them; the finished event is
  reopened with a reason, and the history shows it.

Debian's Chromium (``apt-get install chromium``), headless, driven by Playwright's sync API
against pytest-django's ``live_server``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import answered
from tests.builders import running_event
from tests.factories import DEFAULT_PASSWORD, OrganiserFactory
from tournaments.models import Deal, Event, ResultChange, Table, TableResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def log_in(page: Any, base: str, event: Event) -> None:
    organiser = OrganiserFactory(clubs=[event.club])
    page.goto(f"{base}/en/login/?next=/en/organiser/")
    page.fill("#id_username", organiser.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/en/organiser/$"))


def deals_at(event: Event, table_number: int, round_number: int) -> list[Deal]:
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    return list(event.deals.filter(deal_set=play.deal_set).order_by("number"))


def fill_phone_deal(phone: Any, deal: Deal, points: str) -> None:
    prefix = f"#id_d{deal.number}"
    phone.check(f"{prefix}-contract-garde")
    phone.check(f"{prefix}-oudlers-2")
    phone.fill(f"{prefix}-points", points)


def test_the_entry_grid_saves_a_partly_filled_round(live_server: Any, new_page: Any) -> None:
    event = running_event(tables=5, rounds=3, deals_per_round=2)
    page = new_page(viewport=DESKTOP)
    log_in(page, live_server.url, event)
    page.goto(f"{live_server.url}/en/organiser/events/{event.pk}/entry/round/1/")
    assert page.locator("form.grid-entry [required]").count() == 0
    first, second = deals_at(event, 1, 1)
    for deal, points in ((first, "46"), (second, "30")):
        row = f"#id_t1-d{deal.number}"
        page.select_option(f"{row}-oudlers", "2")
        page.fill(f"{row}-points", points)
    page.get_by_role("button", name="Save the filled rows").click()
    page.wait_for_url(re.compile(r"/entry/round/1/$"))
    assert page.get_by_text("2 results saved.").is_visible()
    stored = TableResult.objects.filter(event=event).order_by("deal__number")
    assert [(r.table.number, r.deal.number, r.points_half) for r in stored] == [
        (1, first.number, 92),
        (1, second.number, 60),
    ]
    assert stored[0].entered_via == "organiser"


def test_a_round_is_watched_corrected_closed_and_the_event_finished_and_reopened(
    live_server: Any, new_page: Any
) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=1)
    base = live_server.url
    director = new_page(viewport=DESKTOP)
    log_in(director, base, event)
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    table = Table.objects.get(event=event, number=1)
    (deal,) = deals_at(event, 1, 1)

    # The control room: round 1, nothing entered yet.
    director.goto(f"{base}/en/organiser/events/{event.pk}/control/")
    cell = director.locator(f"#cell-t1-d{deal.number}")
    assert "missing" in (cell.get_attribute("class") or "")
    assert director.locator("#total-entered").inner_text() == "0/6"

    # Table 1 enters its deal on the phone, then corrects its own entry.
    phone.goto(f"{base}/en/table/{table.code}/")
    fill_phone_deal(phone, deal, "46")
    phone.locator(f"#deal-{deal.number}").get_by_role("button", name="Save").click()
    answered(phone, deal.number)
    # The round's last deal: the phone script opens the page again (the recap): let it finish.
    phone.wait_for_load_state("networkidle")
    phone.goto(f"{base}/en/table/{table.code}/?round=1")
    phone.locator(f"#correct-{deal.number}").click()
    # Still in play at the other tables: the form does not show the stored outcome.
    assert phone.locator(f"#id_d{deal.number}-points").input_value() == ""
    fill_phone_deal(phone, deal, "50")
    phone.get_by_role("button", name="Save the correction").click()
    answered(phone, deal.number)
    result = TableResult.objects.get(table=table, deal=deal)
    assert result.points_half == 100
    change = ResultChange.objects.filter(result=result).order_by("pk").last()
    assert change is not None and change.action == "correct" and change.actor_label == "table 1"

    # The board refreshes itself (htmx) without a reload.
    director.wait_for_function(
        f"document.querySelector('#cell-t1-d{deal.number}').classList.contains('entered')",
        timeout=25_000,
    )
    assert director.locator("#total-entered").inner_text() == "1/6"

    # Closing round 1 is refused with the list, then confirmed.
    director.locator("#close-round").click()
    assert director.locator(".missing-item").count() == 2
    director.locator("#confirm-close").click()
    director.wait_for_url(re.compile(r"/control/\?round=1$"))
    assert Event.objects.get(pk=event.pk).closed_rounds == [1]

    # Table 2's phone: round 1 is closed, the table is in round 2.
    other = Table.objects.get(event=event, number=2)
    phone.goto(f"{base}/en/table/{other.code}/?round=1")
    assert phone.get_by_text("This round is closed: ask the director.").is_visible()
    (missed,) = deals_at(event, 2, 1)
    assert phone.locator(f"#id_d{missed.number}-points").count() == 0

    # Finishing with results missing: the confirmation page lists them.
    director.goto(f"{base}/en/organiser/events/{event.pk}/")
    director.locator("#finish-event").click()
    director.wait_for_url(re.compile(r"/finish/$"))
    assert director.locator(".missing-item").count() == 5
    director.locator("#confirm-finish").click()
    director.wait_for_url(re.compile(rf"/organiser/events/{event.pk}/$"))
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED

    # Reopening, with a reason, recorded in the history.
    director.locator("#reopen-event").click()
    director.fill("input[name=reason]", "table 3 forgot a deal")
    director.locator("#confirm-reopen").click()
    director.wait_for_url(re.compile(r"/control/$"))
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    director.goto(f"{base}/en/organiser/events/{event.pk}/entry/history/")
    log = director.locator("#event-log")
    assert log.get_by_text("Event reopened").is_visible()
    assert log.get_by_text("table 3 forgot a deal").is_visible()
    assert log.get_by_text("Round 1 closed").is_visible()

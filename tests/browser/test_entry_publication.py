"""Browser walk-through of result entry and publication (issue #5 acceptance).

On a phone-sized screen a table enters one deal on its entry page, sees the marks before
saving, saves; the public ranking then shows the new result (the standings recompute runs on
commit, eagerly in-process as in the embedded default). The public pages render in French and
in English, and the language switch moves between them. Debian's Chromium
(``apt-get install chromium``) is driven headless by Playwright's sync API against the served
instance (``tests.browser.served``), the phone on ``club.test``.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from scoring.models import RankingEntry
from scoring.services import standings_recompute
from tests.browser import world
from tests.browser.conftest import answered
from tests.browser.served import ServedInstance
from tests.builders import enter_round, running_event
from tournaments.models import Deal, Entrant, Table, TableResult

PHONE = {"width": 390, "height": 844}
pytestmark = [pytest.mark.browser]


@pytest.fixture
def phone(new_page: Any) -> Any:
    """A headless Chromium page with a phone-sized viewport."""
    return new_page(viewport=PHONE, is_mobile=True, has_touch=True)


def three_rounds_entered() -> dict[str, Any]:
    """(In the instance) a running 5-table individual event with its first three rounds
    entered and scored; table 1 and its deal of round 4."""
    event = running_event(tables=5, deals_per_round=1, club=world.club())
    rng = random.Random(17)
    for round_number in (1, 2, 3):
        enter_round(event, round_number, rng)
    standings_recompute(event_id=event.pk)
    table = Table.objects.get(event=event, number=1)
    play = event.schedule.play(table=1, round=4)
    assert play is not None
    deal = Deal.objects.get(event=event, deal_set=play.deal_set)
    return {
        "pk": event.pk,
        "table": table.pk,
        "code": table.code,
        "deal": deal.number,
        "taker_seat": deal.taker_seat,
    }


def results_count(event_id: int) -> int:
    """(In the instance) how many results the event has."""
    return TableResult.objects.filter(event_id=event_id).count()


def taker_deals_played(event_id: int, table_id: int, deal: int) -> int:
    """(In the instance) the organisers' ranking's count of deals played by the taker of
    table ``table_id``'s result for ``deal``."""
    result = TableResult.objects.get(event_id=event_id, table_id=table_id, deal__number=deal)
    taker = getattr(result, f"seat_{result.deal.taker_seat.lower()}")
    entry = RankingEntry.objects.get(
        event_id=event_id, kind="individual", entrant=taker, published=False
    )
    return int(entry.deals_played)


def rename_a_player(event_id: int) -> int:
    """(In the instance) an entrant of the event renamed Zoé Rivière; the entrant's id."""
    entrant = (
        Entrant.objects.filter(event_id=event_id, phantom=False).select_related("player").first()
    )
    assert entrant is not None and entrant.player is not None
    player = entrant.player
    player.first_name, player.last_name = "Zoé", "Rivière"
    player.save(update_fields=["first_name", "last_name"])  # (update() may not rename)
    return int(entrant.pk)


@pytest.fixture
def event(served: ServedInstance) -> dict[str, Any]:
    return dict(served.call(three_rounds_entered))


def test_a_table_enters_a_deal_and_the_public_ranking_shows_it(
    served: ServedInstance, phone: Any, event: dict[str, Any]
) -> None:
    deal = event["deal"]
    ranking_url = f"{served.phone_url}/en/events/{event['pk']}/ranking/"

    # The public ranking is open on another screen of the room before the deal is entered.
    screen = phone.context.new_page()
    screen.goto(ranking_url)
    assert screen.locator("html").get_attribute("lang") == "en"
    assert screen.get_by_text("15 of 25 results entered").is_visible()

    # The table's phone: the first deal still to enter is round 4's.
    phone.goto(f"{served.phone_url}/en/table/{event['code']}/")
    assert phone.get_by_role("heading", name=re.compile(r"Table 1 · Round 4")).is_visible()
    prefix = f"#id_d{deal}"
    phone.check(f"{prefix}-contract-garde_sans")
    phone.check(f"{prefix}-oudlers-2")
    phone.fill(f"{prefix}-points", "48")
    phone.locator(f"{prefix}-points").press("Tab")

    # Garde sans, 2 oudlers, 48 points: made by 7, (25 + 7) x 4 = 128 per defender.
    preview = phone.locator(f"#preview-{deal} table.marks")
    preview.wait_for()
    taker = event["taker_seat"]
    marks_row = preview.locator("tr").nth(1)
    cells = marks_row.locator("td").all_inner_texts()
    expected = {seat: (384 if seat == taker else -128) for seat in "NESW"}
    assert [int(text.replace("\u2212", "-")) for text in cells] == [
        expected[seat] for seat in "NESW"
    ]
    assert served.call(results_count, event["pk"]) == 15  # nothing saved yet

    phone.locator(f"#deal-{deal}").get_by_role("button", name="Save").click()
    answered(phone, deal)
    assert phone.get_by_text(f"Deal {deal} saved.").is_visible()
    [result] = [r for r in served.call(world.results, event["table"]) if r["deal"] == deal]
    assert result["value"] == 128 and result["contract"] == "garde_sans"

    # The open ranking refreshes itself (htmx, every 15 s) without a reload.
    screen.get_by_text("16 of 25 results entered").wait_for(timeout=25_000)
    screen.close()

    # The standings are brought up to date (the server's runner recomputes them within about a
    # second of the save). The public ranking counts only the deals every table has played: in
    # this movement each deal goes round all five tables, so none is finished yet and the page
    # says so; the organisers' ranking counts the new deal.
    deadline = time.monotonic() + 60
    while served.call(taker_deals_played, event["pk"], event["table"], deal) != 4:
        assert time.monotonic() < deadline, "the standings were not recomputed"
        time.sleep(0.5)
    phone.goto(ranking_url)
    assert phone.get_by_text("16 of 25 results entered").is_visible()
    assert phone.locator(".badge.provisional").first.is_visible()
    assert phone.get_by_text("Ranking on 0 of the 5 deals", exact=False).is_visible()
    assert phone.locator("table.ranking tbody tr").count() == 0


def test_public_pages_in_french_and_english(
    served: ServedInstance, phone: Any, event: dict[str, Any]
) -> None:
    pk = event["pk"]
    base = f"{served.phone_url}/events/{pk}/"
    phone.goto(base + "ranking/")
    assert phone.locator("html").get_attribute("lang") == "fr"
    assert phone.locator("#ranking-live[data-hx-trigger='every 15s']").count() == 1

    # The language switch keeps the page and moves it under /en/.
    phone.locator(".lang-switch button[value='en']").click()
    phone.wait_for_url(re.compile(rf"/en/events/{pk}/ranking/"))
    assert phone.locator("html").get_attribute("lang") == "en"
    assert phone.get_by_role("heading", name=re.compile("Ranking")).is_visible()

    for path in ("", "deals/", "deals/1/", "players/", "movement/", "ranking/projector/"):
        for prefix in ("/", "/en/"):
            response = phone.goto(f"{served.phone_url}{prefix}events/{pk}/{path}")
            assert response is not None and response.status == 200, prefix + path
            lang = "en" if prefix == "/en/" else "fr"
            assert phone.locator("html").get_attribute("lang") == lang
    # The projector mode scrolls itself (after a pause at the top).
    phone.set_viewport_size({"width": 1280, "height": 360})
    phone.goto(f"{served.phone_url}/events/{pk}/ranking/projector/")
    assert phone.evaluate("window.scrollY") == 0
    phone.wait_for_function("window.scrollY > 20", timeout=15_000)
    phone.set_viewport_size(PHONE)

    # The player search on a phone leads to the score card.
    entrant = served.call(rename_a_player, pk)
    phone.goto(f"{served.phone_url}/en/events/{pk}/players/")
    phone.fill("#player-search", "rivière")
    phone.get_by_role("button", name="Search").click()
    phone.wait_for_url(re.compile(rf"/en/events/{pk}/players/{entrant}/"))
    assert phone.get_by_role("heading", name=re.compile("RIVIÈRE Zoé")).is_visible()
    assert phone.locator("table.scorecard tbody tr.main").count() == 3  # three rounds played

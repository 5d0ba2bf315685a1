"""A table's phone refuses a result the étui's cards make impossible, naming the hand (issue
#12): the taker holds the 21, the table taps 0 bouts, the page comes back at that deal with
the refusal naming the taker's seat, and nothing is stored."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import answered
from tests.browser.test_table_phone import PHONE, SEATS_FR, deals_at, save, tap_deal
from tests.builders import running_event
from tests.tournaments.test_hand_checks_entry import weak_taker
from tournaments.models import Table, TableResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(new_page: Any) -> Any:
    return new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")


def test_a_table_taps_an_outcome_the_cards_forbid_and_sees_the_hand_named(
    live_server: Any, phone: Any
) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=1)
    table = Table.objects.get(event=event, number=1)
    (deal,) = deals_at(event, 1, 1)
    weak_taker(deal)  # the taker holds the 21
    phone.goto(f"{live_server.url}/table/{table.code}/")
    tap_deal(phone, deal, "Garde", "0", "40")
    save(phone, deal)
    answered(phone, deal.number, "refused")
    section = phone.locator(f"#deal-{deal.number}")
    text = re.sub(r"\s+", " ", section.inner_text())
    assert f"{SEATS_FR[deal.taker_seat]}, " in text and "21" in text, text
    assert not TableResult.objects.filter(deal=deal).exists()
    # One bout is possible with these cards: saved.
    tap_deal(phone, deal, "Garde", "1", "40")
    save(phone, deal)
    phone.wait_for_url(re.compile(r"#next-places$"))
    assert TableResult.objects.filter(deal=deal, table=table).count() == 1

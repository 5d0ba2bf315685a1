"""A table's phone refuses a result the étui's cards make impossible, naming the hand (issue
#12): the taker holds the 21, the table taps 0 bouts, the page comes back at that deal with
the refusal naming the taker's seat, and nothing is stored. Against the served instance."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import world
from tests.browser.conftest import answered
from tests.browser.served import ServedInstance
from tests.browser.test_table_phone import PHONE, SEATS_FR, save, tap_deal
from tests.tournaments.test_hand_checks_entry import weak_taker
from tournaments.models import Deal

pytestmark = [pytest.mark.browser]


@pytest.fixture
def phone(new_page: Any) -> Any:
    return new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")


def taker_holds_the_21(deal_id: int) -> None:
    """(In the instance) the étui's cards: the taker holds the 21 and six small trumps."""
    weak_taker(Deal.objects.get(pk=deal_id))


def test_a_table_taps_an_outcome_the_cards_forbid_and_sees_the_hand_named(
    served: ServedInstance, phone: Any
) -> None:
    room = served.call(world.running_table, tables=3, rounds=2, deals_per_round=1)
    (deal,) = room["deals"]["1"]
    served.call(taker_holds_the_21, deal["pk"])
    number = deal["number"]
    phone.goto(f"{served.phone_url}/table/{room['code']}/")
    tap_deal(phone, number, "Garde", "0", "40")
    save(phone, number)
    answered(phone, number, "refused")
    section = phone.locator(f"#deal-{number}")
    text = re.sub(r"\s+", " ", section.inner_text())
    assert f"{SEATS_FR[deal['taker_seat']]}, " in text and "21" in text, text
    assert served.call(world.results, room["table"]) == []
    # One bout is possible with these cards: saved.
    tap_deal(phone, number, "Garde", "1", "40")
    save(phone, number)
    phone.wait_for_url(re.compile(r"#next-places$"))
    assert len(served.call(world.results, room["table"])) == 1

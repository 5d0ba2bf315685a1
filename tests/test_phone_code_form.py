"""The table code typed on the home page: the fallback of a phone that cannot scan the card's
QR code opens the phone page of a code of any kind, in any case, spaces and dashes left out; an
unknown code says so in French and counts one failure in the code throttle; a valid code is
never throttled."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from teammatch.models import MatchRoom, RoomName
from tests.factories import CupMatchFactory, RunningFreeDealFactory, TableFactory

pytestmark = pytest.mark.django_db


def _code_page(client: Client, typed: str) -> Any:
    with translation.override("fr"):  # the French page, at /code/
        address = reverse("phone_code")
    return client.get(address, {"code": typed}, HTTP_ACCEPT_LANGUAGE="fr")


def test_the_home_page_offers_the_code_field_in_french() -> None:
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'action="{reverse("phone_code")}"' in page
    assert 'name="code"' in page
    assert "À une table ? Tapez le code imprimé sur sa carte :" in page


def test_a_code_of_each_kind_typed_in_lower_case_opens_its_phone() -> None:
    table = TableFactory()
    room = MatchRoom.objects.create(match=CupMatchFactory(), room=RoomName.OPEN)
    free = RunningFreeDealFactory().tables.get()
    client = Client(REMOTE_ADDR="127.0.0.21")
    with translation.override("fr"):
        addresses = [
            (table.code, reverse("table:entry", args=[table.code])),
            (room.code, reverse("teammatch:room", args=[room.code])),
            (free.code, reverse("freedeal:table", args=[free.code])),
        ]
    for code, address in addresses:
        typed = f" {code[:4].lower()} {code[4:].lower()}-"  # in groups, lower case
        answer = _code_page(client, typed)
        assert answer.status_code == 302, (code, answer.status_code)
        assert answer["Location"] == address


@override_settings(TABLE_CODE_FAILURE_RATE="2/min")
def test_an_unknown_code_is_said_counted_and_a_valid_code_still_opens() -> None:
    table = TableFactory()
    client = Client(REMOTE_ADDR="127.0.0.22")
    first = _code_page(client, "nope12")
    assert first.status_code == 404
    text = first.content.decode()
    assert "Aucune table n&#x27;a ce code : vérifiez-le sur la carte." in text
    assert 'value="nope12"' in text  # the field keeps what was typed
    assert _code_page(client, "nope13").status_code == 404
    throttled = _code_page(client, "nope14")
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    # A valid code is never throttled, and it counts no failure.
    assert _code_page(client, table.code.lower()).status_code == 302


def test_nothing_typed_leads_back_home_and_a_long_paste_is_cut() -> None:
    client = Client(REMOTE_ADDR="127.0.0.23")
    with translation.override("fr"):
        home = reverse("public:home")
    assert _code_page(client, "   ")["Location"] == home
    answer = _code_page(client, "X" * 5000)
    assert answer.status_code == 404
    page = answer.content.decode()
    assert 'value="' + "X" * 40 + '"' in page  # the field shows what was read of it

"""The live preview of a deal (table phones of the three kinds) says nothing of a field not
filled in yet: "Points : Ce champ est obligatoire" as soon as the bouts were tapped was an error
before the table had finished. What was typed wrong is named with the French colon."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.builders import running_event
from tests.factories import RunningFreeDealFactory
from tests.teammatch.worlds import running_match
from tournaments.models import Table

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"
REQUIRED = ("obligatoire", "required")


def test_the_table_preview_waits_for_the_points() -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=2)
    table = Table.objects.get(event=event, number=1)
    deal = event.deals.order_by("number").first()
    assert deal is not None
    url = f"/table/{table.code}/deal/{deal.number}/preview/"
    tapped = {f"d{deal.number}-contract": "garde", f"d{deal.number}-oudlers": "2"}
    preview = Client().post(url, tapped)
    html = preview.content.decode()
    assert not any(word in html for word in REQUIRED), html
    assert "errorlist" not in html
    wrong = Client().post(url, {**tapped, f"d{deal.number}-points": "95"}).content.decode()
    assert f"Points{NNBSP}: " in wrong and "Points: " not in wrong


def test_the_room_preview_waits_for_the_points() -> None:
    match = running_match(deals_per_quarter=3)
    url = f"/cups/room/{match.rooms['open'].code}/deals/1/preview/"
    tapped = {"d1-contract": "garde", "d1-oudlers": "2", "d1-petit_au_bout": ""}
    preview = Client().post(url, tapped)
    html = preview.content.decode()
    assert not any(word in html for word in REQUIRED), html
    assert "Valeur de la donne" not in html  # no value of an incomplete deal either
    wrong = Client().post(url, {**tapped, "d1-points": "95"}).content.decode()
    assert f"Points{NNBSP}: " in wrong and "Points: " not in wrong


def test_the_free_deal_preview_waits_for_the_fields() -> None:
    table = RunningFreeDealFactory().tables.get()
    preview = Client().post(f"/free-deal/table/{table.code}/deal/1/preview/", {})
    html = preview.content.decode()
    assert not any(word in html for word in REQUIRED), html
    assert "errorlist" not in html

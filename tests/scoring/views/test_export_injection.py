"""Exports never hand a spreadsheet a formula: names that look like one stay text.

OWASP CSV injection: a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return gets a leading ``'`` in the CSV; in the XLSX every text cell is a string (with Excel's
quote prefix), never a formula. Numbers, negative marks included, stay numbers.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal, InvalidOperation
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from clubs.exports import is_formula_like
from clubs.models import Player
from tests.builders import team_event
from tests.factories import OrganiserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://x","y")'
SUM = "@SUM(1)"
TEAM = "+cmd|' /C calc'!A0"
LICENCE = "-2+3"
TAB = "\tTAB"


@pytest.fixture
def event() -> Event:
    """A finished triplette whose players, team and licence look like formulas."""
    event = team_event(format=Event.Format.TRIPLETTE, teams=4)
    players = [entrant.player for entrant in event.entrants.order_by("slot")]
    assert all(isinstance(player, Player) for player in players)
    first, second, third, fourth = players[:4]
    assert first and second and third and fourth
    first.last_name = HYPERLINK
    second.last_name = SUM
    third.licence = LICENCE
    fourth.last_name = TAB
    for player in (first, second, third, fourth):
        player.save()
    team = event.teams.order_by("number").first()
    assert team is not None
    team.name = TEAM
    team.save()
    return event


def texts(event: Event) -> set[str]:
    """The dangerous texts as the exports show them (a player's name is ``LAST First``)."""
    names = {str(entrant) for entrant in event.entrants.select_related("player")}
    shown = {name for name in names if is_formula_like(name)}
    assert len(shown) == 3  # the hyperlink, the sum and the tab
    return shown | {TEAM, LICENCE}


def is_number(text: str) -> bool:
    try:
        Decimal(text)
    except InvalidOperation:
        return False
    return True


def read_csv(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8").removeprefix("\ufeff")
    return list(csv.reader(io.StringIO(text, newline="")))


def read_xlsx(content: bytes) -> Worksheet:
    sheet = load_workbook(io.BytesIO(content)).active
    assert isinstance(sheet, Worksheet)
    return sheet


def assert_no_formula(sheet: Worksheet) -> list[Any]:
    """Every cell is a string, a number or empty; returns the string values."""
    strings = []
    for row in sheet.iter_rows():
        for cell in row:
            assert cell.data_type != "f", cell.coordinate
            if isinstance(cell.value, str):
                assert cell.data_type == "s"
                if is_formula_like(cell.value):
                    assert cell.quotePrefix, cell.coordinate
                strings.append(cell.value)
    return strings


@pytest.mark.parametrize("what", ["ranking", "results"])
def test_csv_escapes_text_cells_that_start_like_a_formula(
    client: Client, event: Event, what: str
) -> None:
    expected = texts(event)
    if what == "results":
        expected -= {TEAM, LICENCE}  # results name the players only
    client.force_login(OrganiserFactory(clubs=[event.club]))  # the licences are theirs
    header, *rows = read_csv(client.get(f"/en/events/{event.pk}/export/{what}.csv").content)
    cells = [cell for row in rows for cell in row]
    # Only numbers (negative marks) may start with a sign; no text starts like a formula.
    assert all(is_number(cell) for cell in cells if is_formula_like(cell))
    for text in expected:
        assert "'" + text in cells
        assert text not in cells
    # Negative marks are numbers, not text: written as they are.
    column = {name: index for index, name in enumerate(header)}
    marks = "Marks" if what == "ranking" else "Mark N"
    values = [int(row[column[marks]]) for row in rows if row[column[marks]]]
    assert any(value < 0 for value in values)


@pytest.mark.parametrize("what", ["ranking", "results"])
def test_xlsx_holds_no_formula_and_numbers_stay_numbers(
    client: Client, event: Event, what: str
) -> None:
    expected = texts(event)
    if what == "results":
        expected -= {TEAM, LICENCE}
    client.force_login(OrganiserFactory(clubs=[event.club]))  # the licences are theirs
    sheet = read_xlsx(client.get(f"/en/events/{event.pk}/export/{what}.xlsx").content)
    strings = assert_no_formula(sheet)
    # Shown as typed: the original characters, stored as a string.
    assert expected <= set(strings)
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[0]
    numeric = ["Marks", "Percentage"] if what == "ranking" else ["Mark N", "Percentage N"]
    for name in numeric:
        values = [row[header.index(name)] for row in rows[1:]]
        assert values and all(isinstance(value, int | float) for value in values), name
    marks = [row[header.index(numeric[0])] for row in rows[1:]]
    assert any(isinstance(value, int) and value < 0 for value in marks)

"""Exports: rankings and all table results as CSV (parsed back) and XLSX (loaded by openpyxl)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client
from openpyxl import load_workbook

from scoring.models import HandScore, RankingEntry
from tests.builders import scored_event
from tournaments.models import Event, TableResult

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def event() -> Event:
    """Every round played: every deal is finished, so its results may be exported."""
    return scored_event(tables=5, deals_per_round=1)


def read_csv(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8")
    assert text.startswith("\ufeff")  # spreadsheet programs detect UTF-8 by the BOM
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def test_results_csv_has_one_row_per_table_result(client: Client, event: Event) -> None:
    response = client.get(f"/en/events/{event.pk}/export/results.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="{event.name.lower().replace(" ", "-")}-{event.pk}-results.csv"'
    )
    header, *rows = read_csv(response.content)
    assert header[:7] == ["Deal", "Round", "Table", "Player N", "Player E", "Player S",
                          "Player W"]  # fmt: skip
    assert len(rows) == TableResult.objects.filter(event=event).count() == 25
    column = {name: index for index, name in enumerate(header)}
    for row in rows:
        result = TableResult.objects.get(event=event, deal__number=int(row[column["Deal"]]),
                                         table__number=int(row[column["Table"]]))  # fmt: skip
        assert int(row[column["Value"]]) == result.value
        assert int(row[column["Mark N"]]) == result.mark_n
        assert row[column["Player N"]] == str(result.seat_n)
        assert Decimal(row[column["Points"]]) == Decimal(result.points_half) / 2
        score = HandScore.objects.get(result=result, seat="E")
        assert Decimal(row[column["Percentage E"]]) == score.percentage
        marks = [int(row[column[f"Mark {seat}"]]) for seat in "NESW"]
        assert sum(marks) == 0


def test_ranking_csv_and_xlsx_hold_every_ranking_line(client: Client, event: Event) -> None:
    expected = RankingEntry.objects.filter(event=event).count()
    assert expected == 2 * 20  # individual + per line
    _header, *rows = read_csv(client.get(f"/events/{event.pk}/export/ranking.csv").content)
    assert len(rows) == expected
    response = client.get(f"/en/events/{event.pk}/export/ranking.xlsx")
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"].endswith(f'-{event.pk}-ranking.xlsx"')
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][:5] == ("Ranking", "Line", "Rank", "Name", "Team")  # no licence: public
    assert len(values) == expected + 1
    best = RankingEntry.objects.filter(event=event, kind="individual").order_by("rank").first()
    assert best is not None
    first = values[1]
    assert first[2] == best.rank
    assert first[3] == str(best.entrant)
    assert first[values[0].index("Percentage")] == pytest.approx(float(best.percentage))


def test_results_xlsx_holds_numbers(client: Client, event: Event) -> None:
    response = client.get(f"/en/events/{event.pk}/export/results.xlsx")
    assert response["Content-Type"] == XLSX
    rows = list(load_workbook(io.BytesIO(response.content)).active.iter_rows(values_only=True))
    assert len(rows) == 26
    header = rows[0]
    value = header.index("Value")
    assert all(isinstance(row[value], int) for row in rows[1:])

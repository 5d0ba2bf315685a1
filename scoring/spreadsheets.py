"""Spreadsheet downloads of any table of rows, as CSV or XLSX: the one writer of every export
(an event's rankings and results in ``scoring.views.exports``, a series' ranking in
``series.views``). Here rather than in a views module so that any app may write its exports.

The CSV is UTF-8 with a byte-order mark (so spreadsheet programs guess the encoding right) and
follows the active language's number format: in English a comma separator and a dot as decimal
separator, in French (a decimal comma) a semicolon separator and decimal commas. The XLSX holds
real numbers. Text that a spreadsheet would run as a formula is never one (OWASP's CSV injection
guidance): a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets
a leading single quote in the CSV, and in the XLSX every text cell is stored as a string (with
Excel's quote prefix for those starting that way). Numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.http import HttpResponse
from django.utils import formats
from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def is_formula_like(value: Any) -> bool:
    """Whether ``value`` is text a spreadsheet would read as a formula (numbers never are)."""
    return isinstance(value, str) and value.startswith(FORMULA_TRIGGERS)


def _csv_value(value: Any, decimal_separator: str = ".") -> Any:
    if value is None:
        return ""
    if is_formula_like(value):
        return "'" + value
    if isinstance(value, Decimal | float):
        return format(value, "f" if isinstance(value, Decimal) else "").replace(
            ".", decimal_separator
        )
    return value


def csv_dialect() -> tuple[str, str]:
    """(field separator, decimal separator) of the active language's spreadsheets.

    A language writing decimal commas (French) separates fields with semicolons.
    """
    decimal_separator = str(formats.get_format("DECIMAL_SEPARATOR"))
    return (";" if decimal_separator == "," else ","), decimal_separator


def csv_response(
    filename: str, header: Sequence[str], rows: Sequence[Sequence[Any]]
) -> HttpResponse:
    delimiter, decimal_separator = csv_dialect()
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_value(value, decimal_separator) for value in row])
    response = HttpResponse(buffer.getvalue(), content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def _xlsx_value(value: Any) -> Any:
    # openpyxl stores Decimal as a number; keep it a float so every reader sees a number.
    if isinstance(value, Decimal):
        return float(value)
    return value


def _xlsx_cell(sheet: Worksheet, row: int, column: int, value: Any) -> None:
    cell = sheet.cell(row=row, column=column, value=value)
    if isinstance(value, str):
        # openpyxl stores a str starting with "=" as a formula: every text is a string.
        cell.data_type = "s"
        if is_formula_like(value):
            # Excel's "'" prefix: shown as typed, and still text if the cell is edited.
            cell.quotePrefix = True


def xlsx_response(
    filename: str, title: str, header: Sequence[str], rows: Sequence[Sequence[Any]]
) -> HttpResponse:
    workbook = Workbook()
    sheet = workbook.worksheets[0]
    sheet.title = title[:31]
    for row_index, row in enumerate([header, *rows], start=1):
        for column_index, value in enumerate(row, start=1):
            _xlsx_cell(sheet, row_index, column_index, _xlsx_value(value))
    sheet.freeze_panes = "A2"
    for index, label in enumerate(header, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = max(8, min(28, len(label) + 4))
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}.xlsx"'
    return response

"""The printed ranking and frequency sheets: how their lines are laid out on A4 sheets.

Plain objects built from the rows the pages already show (``scoring.presentation``); no query
here. The layout is decided here, not left to the browser, so that a sheet is never cut in the
middle and the number of sheets is known in advance (the browser test prints them to PDF and
counts the pages):

- the ranking for the wall: :data:`RANKING_FIRST_PAGE` lines on the first sheet (under the
  event's heading), :data:`RANKING_NEXT_PAGES` on each following one, at a fixed line height
  (the names are cut with an ellipsis rather than wrapped); a per-line ranking flows from one
  line to the next, a line's heading counting :data:`RANKING_HEADING_LINES` lines;
- the frequency sheets: one or two deals per sheet, two when their estimated heights (at the
  fixed row heights of the print stylesheet, in millimetres) fit in :data:`SHEET_HEIGHT_MM`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.presentation import Frequency, ResultRow, seat_label

RANKING_FIRST_PAGE = 20
RANKING_NEXT_PAGES = 24
RANKING_HEADING_LINES = 3  # its heading and its own header row

# The frequency sheets' print stylesheet (scoring/paper/frequencies.html) in millimetres.
SHEET_HEIGHT_MM = 262.0
DEAL_HEAD_MM = 16.0  # the deal's title and its facts line
RESULTS_HEAD_MM = 7.0
RESULT_ROW_MM = 9.0
FREQUENCIES_HEAD_MM = 19.0  # its title (13) and header row (6)
FREQUENCY_ROW_MM = 6.0
BETWEEN_DEALS_MM = 8.0


@dataclass
class RankingBlock:
    """A run of ranking rows on one sheet, under its line's heading (``label``, per-line
    rankings only); ``continued``: the line began on the sheet before."""

    label: str
    rows: list[Any]
    continued: bool = False


@dataclass
class RankingPage:
    number: int
    blocks: list[RankingBlock] = field(default_factory=list)


def ranking_pages(
    groups: Sequence[tuple[str, Sequence[Any]]],
    first: int = RANKING_FIRST_PAGE,
    following: int = RANKING_NEXT_PAGES,
) -> list[RankingPage]:
    """The ranking ``groups`` (``(label, rows)``: one unlabelled group, or one per line) laid
    out on sheets of ``first`` then ``following`` lines; a labelled group's heading takes
    :data:`RANKING_HEADING_LINES` lines and never ends a sheet alone."""
    pages = [RankingPage(1)]
    room = first
    for label, rows in groups:
        heading = RANKING_HEADING_LINES if label else 0
        pending = list(rows)
        continued = False
        while True:
            if room - heading < 1:  # not even one line under the heading: next sheet
                pages.append(RankingPage(len(pages) + 1))
                room = following
            take = pending[: room - heading]
            pages[-1].blocks.append(RankingBlock(label, take, continued))
            room -= heading + len(take)
            pending = pending[len(take) :]
            continued = True
            if not pending:
                break
    return pages


@dataclass
class DealSheet:
    """One deal's frequency sheet: its rows (every table's result) and frequencies."""

    deal: Any
    rows: list[ResultRow]
    frequencies: list[Frequency]

    @property
    def taker_label(self) -> str:
        return seat_label(self.deal.taker_seat)

    @property
    def dealer_label(self) -> str:
        return seat_label(self.deal.dealer_seat)

    @property
    def height_mm(self) -> float:
        return (
            DEAL_HEAD_MM
            + RESULTS_HEAD_MM
            + RESULT_ROW_MM * len(self.rows)
            + (FREQUENCIES_HEAD_MM + FREQUENCY_ROW_MM * len(self.frequencies))
        )


def deal_sheets_pages(sheets: Iterable[DealSheet]) -> list[list[DealSheet]]:
    """The deals two to a sheet when both fit, else one (in deal order)."""
    pages: list[list[DealSheet]] = []
    for sheet in sheets:
        last = pages[-1] if pages else None
        if (
            last is not None
            and len(last) == 1
            and last[0].height_mm + BETWEEN_DEALS_MM + sheet.height_mm <= SHEET_HEIGHT_MM
        ):
            last.append(sheet)
        else:
            pages.append([sheet])
    return pages

"""Downloads of an event: its rankings and all its table results, as CSV or XLSX.

The CSV is UTF-8 with a byte-order mark (so spreadsheet programs guess the encoding right) and
follows the active language's number format, as a spreadsheet of that language reads it: in
English a comma separator and a dot as decimal separator, in French (a decimal comma) a
semicolon separator and decimal commas. The XLSX holds real numbers. Seats are named by their
letters in the active language (W is "O" in French). Both come from
the same rows, built from the snapshot and the table results with a bounded number of queries,
and are written by ``clubs.exports`` (the one writer of every export).
Column headers follow the active language. Text that a spreadsheet would run as a formula
(a player, team or licence such as ``=HYPERLINK(...)``, ``@SUM(...)``, ``+cmd|...``, ``-2+3``) is
never one: following OWASP's CSV injection guidance, a text cell starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a leading single quote in the CSV, and in the XLSX
every text cell is stored as a string (with Excel's quote prefix for those starting that way),
never as a formula. Numbers (negative marks, percentages) are not text and stay numbers. For
anybody but the event's organisers, the results export leaves out the deals whose outcomes are
not public yet (``tournaments.publication.deals_hidden_from``), and the ranking export the
players' licences. Rows and labels are those of the pages (``scoring.presentation``), read
through ``scoring.selectors``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.access import user_directs, visible_or_404
from clubs.exports import csv_response, xlsx_response
from clubs.outcomes import seat_letter
from scoring.models import RankingEntry
from scoring.presentation import result_rows, seat_label
from scoring.selectors import event_family, ranking_rows, results_with_scores
from tournaments.models import SEATS, Event
from tournaments.publication import deals_hidden_from

Table = tuple[list[str], list[list[Any]]]


def ranking_table(event: Event, *, simultaneous: bool = False, complete: bool = False) -> Table:
    """One row per ranking line: individual, per line, then team (the kinds the event has).

    A simultaneous's overall ranking gains a Section column (the entrant's or team's section).
    The published ranking (deals finished everywhere), or for ``complete`` (the event's
    organisers) the ranking on every entered deal, with the players' licences (theirs only to
    see: nobody else's export has the column).
    """
    header = [
        _("Ranking"),
        _("Line"),
        _("Rank"),
        _("Name"),
        *([_("Licence")] if complete else []),
        _("Team"),
        _("Percentage"),
        _("Penalty"),
        _("Marks"),
        _("Deals played"),
        _("Points de match"),
        _("Victory points"),
    ]
    if simultaneous:
        header.insert(0, _("Section"))
    kinds = [RankingEntry.Kind.INDIVIDUAL, RankingEntry.Kind.LINE]
    if event.is_team_event:
        kinds.insert(0, RankingEntry.Kind.TEAM)
    rows: list[list[Any]] = []
    for kind in kinds:
        for entry in ranking_rows(event, kind, sections=simultaneous, complete=complete):
            if entry.team is not None and entry.entrant_id is None:
                name, licence, team = entry.team.name, "", entry.team.name
            else:
                entrant = entry.entrant
                player = entrant.player if entrant else None
                name = str(entrant) if entrant else ""
                licence = (player.licence or "") if player else ""
                team = entrant.team.name if entrant and entrant.team else ""
            rows.append(
                [
                    *([getattr(entry, "section_name", "")] if simultaneous else []),
                    str(RankingEntry.Kind(kind).label),
                    seat_label(entry.line) if entry.line else "",
                    entry.rank,
                    name,
                    *([licence] if complete else []),
                    team,
                    entry.percentage,
                    entry.penalty,
                    entry.marks_total,
                    entry.deals_played,
                    entry.points_de_match,
                    entry.victory_points,
                ]
            )
    return header, rows


def results_table(
    event: Event,
    hidden_deals: frozenset[int] | set[int] = frozenset(),
    *,
    simultaneous: bool = False,
) -> Table:
    """One row per table result, with the players, the outcome, marks and percentages.

    The results of the deals numbered in ``hidden_deals`` are left out. A simultaneous's
    export holds every section's results, with a Section column.
    """
    header = [_("Deal"), _("Round"), _("Table")]
    letters = [seat_letter(seat) for seat in SEATS]
    header += [_("Player %(seat)s") % {"seat": letter} for letter in letters]
    header += [
        _("Kind"),
        _("Taker seat"),
        _("Contract"),
        _("Oudlers"),
        _("Points"),
        _("Petit au bout"),
        _("Poignées"),
        _("Chelem"),
        _("Value"),
    ]
    header += [_("Mark %(seat)s") % {"seat": letter} for letter in letters]
    header += [_("Percentage %(seat)s") % {"seat": letter} for letter in letters]
    rows: list[list[Any]] = []
    if simultaneous:
        header.insert(0, _("Section"))
    results = results_with_scores(event, hidden_deals, simultaneous=simultaneous)
    for row in result_rows(results, with_scores=True):
        result = row.result
        taker = row.taker
        rows.append(
            [
                *([getattr(result, "section_name", "")] if simultaneous else []),
                row.deal_number,
                result.round_number,
                row.table_number,
                *(cell.name for cell in row.seats),
                row.kind_label,
                seat_letter(taker.seat) if taker else "",
                row.contract_label,
                result.oudlers,
                row.points,
                row.petit_au_bout_label,
                row.poignees_label,
                row.chelem_label,
                result.value,
                *(cell.mark for cell in row.seats),
                *(
                    cell.percentage if cell.percentage is not None else cell.artificial
                    for cell in row.seats
                ),
            ]
        )
    return header, rows


def _export(request: HttpRequest, event_id: int, fmt: str, what: str) -> HttpResponse:
    if fmt not in ("csv", "xlsx"):
        raise Http404(_("Exports exist as csv or xlsx."))
    event = visible_or_404(request, Event, event_id)
    simultaneous = event_family(event).is_simultaneous
    if what == "ranking":
        complete = user_directs(request.user, event)
        header, rows = ranking_table(event, simultaneous=simultaneous, complete=complete)
        title = _("Ranking")
    else:
        hidden = deals_hidden_from(event, directs=user_directs(request.user, event))
        header, rows = results_table(event, hidden, simultaneous=simultaneous)
        title = _("Results")
    filename = f"{slugify(event.name) or 'event'}-{event.pk}-{what}"
    if fmt == "csv":
        return csv_response(filename, header, rows)
    return xlsx_response(filename, title, header, rows)


@require_GET
def ranking_export(request: HttpRequest, event_id: int, fmt: str) -> HttpResponse:
    return _export(request, event_id, fmt, "ranking")


@require_GET
def results_export(request: HttpRequest, event_id: int, fmt: str) -> HttpResponse:
    return _export(request, event_id, fmt, "results")

"""Paper for the room: the ranking to pin on the wall and the frequency sheets, A4.

Organiser pages (``clubs.access.directs``), reached from the event's dashboard and from the
public pages' print links; what they print is what the public sees, never more, even to the
organiser who prints them: the published ranking (``scoring.selectors.ranking_rows`` without
``complete``: the deals still in play somewhere are not counted) and the frequency sheets of
the deals whose outcomes are public (``tournaments.publication.deal_outcomes_public``). The
ranking says "final ranking" only once the standings are complete (the event finished, every
result counted: ``StandingsStatus.provisional``), "provisional ranking" before. The layout on
the sheets is decided by ``scoring.paper``.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from clubs.access import directs
from scoring.models import RankingEntry
from scoring.paper import DealSheet, deal_sheets_pages, ranking_pages
from scoring.presentation import (
    ResultRow,
    frequencies,
    ranking_lines,
    ranking_views,
    result_rows,
    seat_label,
)
from scoring.selectors import (
    event_family,
    ranking_kinds,
    ranking_rows,
    results_with_scores,
    standings_status,
)
from scoring.views.public import page_context
from tournaments.models import SEATS, Event
from tournaments.publication import deal_outcomes_public, deal_summaries


@login_required
@require_GET
@directs(Event)
def print_ranking(request: HttpRequest, event: Event) -> HttpResponse:
    """The published ranking (``?view=`` a ranking kind, as the ranking page) on A4 sheets."""
    kinds = ranking_kinds(event)
    view = request.GET.get("view", "")
    if view not in kinds:
        view = kinds[0]
    status = standings_status(event)
    family = event_family(event)
    sections = family.is_simultaneous
    entries = ranking_rows(event, view, sections=sections)
    if view == RankingEntry.Kind.LINE:
        groups = [(str(label), rows) for label, rows in ranking_lines(entries)]
    else:
        groups = [("", entries)]
    context = page_context(
        event,
        status,
        family,
        view=view,
        views=ranking_views(kinds),
        entries=entries,
        pages=ranking_pages(groups),
        sections=sections,
        show_vp=event.format == Event.Format.QUADRETTE and view == RankingEntry.Kind.TEAM,
        team_column=event.is_team_event and view != RankingEntry.Kind.TEAM,
    )
    return render(request, "scoring/paper/ranking.html", context)


@login_required
@require_GET
@directs(Event)
def print_frequencies(request: HttpRequest, event: Event) -> HttpResponse:
    """The frequency sheets of the published deals, one or two to an A4 sheet."""
    family = event_family(event)
    summaries = deal_summaries(event)
    hidden = {s.deal.number for s in summaries if not deal_outcomes_public(event, s)}
    results = results_with_scores(event, hidden, simultaneous=family.is_simultaneous)
    by_deal: dict[int, list[ResultRow]] = defaultdict(list)
    for row in result_rows(results, with_scores=True):
        by_deal[row.deal_number].append(row)
    sheets = [
        DealSheet(
            summary.deal, by_deal[summary.deal.number], frequencies(by_deal[summary.deal.number])
        )
        for summary in summaries
        if summary.deal.number not in hidden and by_deal.get(summary.deal.number)
    ]
    seats = [seat_label(seat) for seat in SEATS]
    context = page_context(
        event,
        standings_status(event),
        family,
        pages=deal_sheets_pages(sheets),
        sheets=sheets,
        withheld=len(hidden),
        seat_labels=seats,
    )
    return render(request, "scoring/paper/frequencies.html", context)

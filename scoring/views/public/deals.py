"""The deals of an event and the frequency sheet of one deal (every table's result of it).

A simultaneous's frequency sheet holds every section's results of the deal (all its copies),
each row labelled with its section and table; a section's links to it. Whether outcomes are
shown follows ``tournaments.publication`` across the whole simultaneous.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.views.decorators.http import require_GET

from clubs.access import user_directs, visible_or_404
from scoring.presentation import (
    distribution_chart,
    frequencies,
    frequency_index,
    labelled_hands,
    result_rows,
    seat_label,
    viewer_line,
)
from scoring.selectors import (
    deal_neighbours,
    deal_of,
    deal_results,
    event_family,
    load_hand_scores,
    simultaneous_deal_results,
    standings_status,
)
from scoring.views.public import page_context
from tournaments.models import Event
from tournaments.presentation import deal_diagram
from tournaments.publication import deal_outcomes_public, deal_summaries, deal_summary


@require_GET
def deal_list(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    context = page_context(
        event,
        standings_status(event),
        deals=deal_summaries(event),
        directs=user_directs(request.user, event),
    )
    return render(request, "scoring/public/deals.html", context)


def viewer_entrant_id(request: HttpRequest) -> int | None:
    """The player whose line the frequency sheet shows first, if known: ``?entrant=<id>``
    (the previous and next deals' links keep it), else the player of the score card the viewer
    came from (a same-site referrer: the score card's deal links are plain). Anything else, or
    a value that is no id: nobody. Only which row is pointed out depends on it, never what is
    published."""
    if "entrant" in request.GET:
        value = request.GET["entrant"]
        return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None
    referrer = urlsplit(request.headers.get("referer", ""))
    if referrer.netloc != request.get_host():
        return None
    try:
        match = resolve(referrer.path)
    except Resolver404:
        return None
    if match.view_name != "public:scorecard":
        return None
    entrant_id = match.kwargs.get("entrant_id")
    return entrant_id if isinstance(entrant_id, int) else None


@require_GET
def deal_sheet(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    family = event_family(event)
    deal = deal_of(event, number)
    if deal is None:
        raise Http404
    if family.is_simultaneous:
        results = simultaneous_deal_results(event, number)
    else:
        results = deal_results(deal)
    summary = deal_summary(event, deal, entered=len(results))
    # A table still to play this deal (in any section of a simultaneous) must not learn any
    # other table's outcome of it.
    outcomes_shown = deal_outcomes_public(event, summary) or user_directs(request.user, event)
    if outcomes_shown:
        load_hand_scores(results)
    rows = result_rows(results, with_scores=outcomes_shown)
    # The frequencies (table and chart) exist only while the outcomes are shown.
    frequency_table = frequencies(rows) if outcomes_shown else []
    viewer_id = viewer_entrant_id(request)
    mine = viewer_line(rows, viewer_id)
    previous_number, next_number = deal_neighbours(event, number)
    # Never leak the cards of a deal that some table has still to play.
    diagram = deal_diagram(deal) if summary.finished and deal.cards else None
    context = page_context(
        event,
        standings_status(event),
        family,
        deal=deal,
        rows=rows,
        summary=summary,
        outcomes_shown=outcomes_shown,
        frequencies=frequency_table,
        distribution_chart=(
            distribution_chart(frequency_table, frequency_index(frequency_table, mine))
            if frequency_table
            else None
        ),
        mine=mine,
        # The previous and next deals keep the player's line in view.
        entrant_query=f"?entrant={viewer_id}" if viewer_id is not None else "",
        scheduled=summary.scheduled,
        finished=summary.finished,
        diagram=diagram,
        hands=labelled_hands(diagram) if diagram else [],
        taker_seat_label=seat_label(deal.taker_seat),
        dealer_seat_label=seat_label(deal.dealer_seat),
        previous_number=previous_number,
        next_number=next_number,
    )
    return render(request, "scoring/public/deal.html", context)

"""Finding a player, and a player's personal score card.

From a simultaneous's page the search spans every section, and a score card is always shown on
the pages of the player's own section (the simultaneous's URL redirects there); a section's
score card adds the player's overall rank.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from clubs.access import user_directs, visible_or_404
from scoring.models import RankingEntry
from scoring.presentation import (
    progress_chart,
    round_progress,
    score_card_lines,
    score_card_totals,
    seat_label,
)
from scoring.selectors import (
    event_family,
    hand_scores_for_entrant,
    overall_rank,
    ranked_count,
    ranking_entries_of,
    real_entrant,
    search_entrants,
    search_simultaneous_entrants,
    section_entrant,
    standings_status,
)
from scoring.views.public import page_context
from tournaments.models import Event
from tournaments.publication import deals_hidden_from

# Players listed at most by a search across a simultaneous's sections (refine beyond).
SIMULTANEOUS_SEARCH_LIMIT = 100


@require_GET
def player_list(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    family = event_family(event)
    query = request.GET.get("q", "").strip()
    # A licence is the organisers' to see: only they find a player by it.
    licences = user_directs(request.user, event)
    if family.is_simultaneous:
        # Every section's players; the whole list only on request (it may be thousands long).
        found = (
            search_simultaneous_entrants(
                event, query, SIMULTANEOUS_SEARCH_LIMIT + 1, licences=licences
            )
            if query
            else []
        )
        entrants, more = found[:SIMULTANEOUS_SEARCH_LIMIT], len(found) > SIMULTANEOUS_SEARCH_LIMIT
    else:
        entrants, more = search_entrants(event, query, licences=licences), False
    if query and len(entrants) == 1:
        return redirect(
            "public:scorecard", event_id=entrants[0].event_id, entrant_id=entrants[0].pk
        )
    context = page_context(event, None, family, query=query, entrants=entrants, more=more,
                           limit=SIMULTANEOUS_SEARCH_LIMIT, licences=licences)  # fmt: skip
    return render(request, "scoring/public/players.html", context)


@require_GET
def score_card(request: HttpRequest, event_id: int, entrant_id: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    family = event_family(event)
    if family.is_simultaneous:
        found = section_entrant(event, entrant_id)
        if found is None:
            raise Http404
        return redirect("public:scorecard", event_id=found.event_id, entrant_id=found.pk)
    entrant = real_entrant(event, entrant_id)
    if entrant is None:
        raise Http404
    complete = user_directs(request.user, event)
    hidden_deals = deals_hidden_from(event, directs=complete)
    lines = score_card_lines(hand_scores_for_entrant(event, entrant), hidden_deals)
    entries = {entry.kind: entry for entry in ranking_entries_of(event, entrant, complete=complete)}
    individual = entries.get(RankingEntry.Kind.INDIVIDUAL)
    line_entry = entries.get(RankingEntry.Kind.LINE)
    marks_total, mean_percentage = score_card_totals(lines, individual)
    # The progress chart reads only the lines the card shows (never a deal still in play).
    progress = round_progress(lines)
    overall_place, overall_count = (
        overall_rank(family.simultaneous, entrant, complete=complete)
        if family.simultaneous
        else (None, 0)
    )
    context = page_context(
        event,
        standings_status(event),
        family,
        entrant=entrant,
        lines=lines,
        ranking_entry=individual,
        line_entry=line_entry,
        line_label=seat_label(line_entry.line) if line_entry and line_entry.line else "",
        marks_total=marks_total,
        mean_percentage=mean_percentage,
        ranked_count=ranked_count(event, complete=complete),
        complete=complete,
        overall_rank=overall_place,
        overall_count=overall_count,
        progress=progress,
        progress_chart=progress_chart(progress) if progress else None,
        hidden_count=sum(1 for line in lines if line.hidden),
    )
    return render(request, "scoring/public/scorecard.html", context)

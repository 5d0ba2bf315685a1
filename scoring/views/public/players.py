"""Finding a player, and a player's personal score card."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from scoring.models import RankingEntry
from scoring.presentation import score_card_lines, score_card_totals, seat_label
from scoring.selectors import (
    hand_scores_for_entrant,
    ranked_count,
    ranking_entries_of,
    real_entrants,
    search_entrants,
    standings_status,
)
from scoring.views.public import page_context
from tournaments.access import user_directs, visible_event_or_404
from tournaments.publication import deals_hidden_from


@require_GET
def player_list(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    query = request.GET.get("q", "").strip()
    entrants = search_entrants(event, query)
    if query and len(entrants) == 1:
        return redirect("public:scorecard", event_id=event.pk, entrant_id=entrants[0].pk)
    context = page_context(event, query=query, entrants=entrants)
    return render(request, "scoring/public/players.html", context)


@require_GET
def score_card(request: HttpRequest, event_id: int, entrant_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    entrant = get_object_or_404(real_entrants(event), pk=entrant_id)
    hidden_deals = deals_hidden_from(event, directs=user_directs(request.user, event))
    lines = score_card_lines(hand_scores_for_entrant(event, entrant), hidden_deals)
    entries = {entry.kind: entry for entry in ranking_entries_of(event, entrant)}
    individual = entries.get(RankingEntry.Kind.INDIVIDUAL)
    line_entry = entries.get(RankingEntry.Kind.LINE)
    marks_total, mean_percentage = score_card_totals(lines, individual)
    context = page_context(
        event,
        standings_status(event),
        entrant=entrant,
        lines=lines,
        ranking_entry=individual,
        line_entry=line_entry,
        line_label=seat_label(line_entry.line) if line_entry and line_entry.line else "",
        marks_total=marks_total,
        mean_percentage=mean_percentage,
        ranked_count=ranked_count(event),
    )
    return render(request, "scoring/public/scorecard.html", context)

"""The movement page: who plays where, round by round, and which deals each table plays.

A simultaneous has no movement of its own: its page leads to each section's. The rounds of a
live Swiss not paired yet are listed with the round at whose close they are paired.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from clubs.access import visible_or_404
from scoring.presentation import movement_rounds
from scoring.selectors import entrants_by_slot, event_family
from scoring.views.public import page_context
from tournaments.models import Event
from tournaments.presentation import etui_copies_text


@require_GET
def movement(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    family = event_family(event)
    pending: tuple[int, ...] = ()
    copies = ""
    if family.is_simultaneous:
        rounds = []
    else:
        # How many copies of each étui the tables play at the same time.
        copies = etui_copies_text(event.schedule.copies_per_deal_set())
        rounds = movement_rounds(event.schedule, event.deals_per_round, entrants_by_slot(event))
        pending = event.schedule.pending_rounds  # live Swiss: paired at the previous close
    context = page_context(
        event, None, family, schedule=rounds, pending_rounds=pending, copies=copies
    )
    return render(request, "scoring/public/movement.html", context)

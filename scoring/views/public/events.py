"""The list of public events and an event's home page (figures, progress, links).

A simultaneous's home lists its sections (club, status, progress) instead of a movement.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from clubs.access import user_directs, visible_or_404
from scoring.selectors import (
    event_family,
    event_figures,
    public_events,
    sections_progress,
    simultaneous_figures,
    standings_status,
)
from scoring.views.public import page_context
from tournaments.models import Event


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Public events, running first, then finished (then announced drafts made public)."""
    return render(request, "home.html", {"events": public_events()})


@require_GET
def event_home(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    family = event_family(event)
    status = standings_status(event)
    if family.is_simultaneous:
        context = page_context(
            event,
            status,
            family,
            figures=simultaneous_figures(event),
            sections=sections_progress(family.sections, status),
            directs=user_directs(request.user, event),
        )
        return render(request, "scoring/public/simultaneous.html", context)
    context = page_context(event, status, family, figures=event_figures(event))
    return render(request, "scoring/public/event.html", context)

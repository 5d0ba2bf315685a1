"""The list of public events and an event's home page (figures, progress, links)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.selectors import event_figures, public_events, standings_status
from scoring.views.public import page_context
from tournaments.access import visible_event_or_404


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Public events, running first, then finished (then announced drafts made public)."""
    return render(request, "home.html", {"events": public_events()})


@require_GET
def event_home(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    status = standings_status(event)
    context = page_context(event, status, figures=event_figures(event))
    return render(request, "scoring/public/event.html", context)

"""The round clock: the director's actions (control room) and the clock as pages read it.

``event_clock`` (anyone who may see the event: the projector) and ``table_clock`` (a table
code: the table's phone) answer the clock as JSON with the server's instant of the answer
(``now_ms``): a page estimates its offset from the server's clock with it (the round trip
halved) and counts the time left down from ``ends_at_ms`` on its own clock corrected by that
offset, so a phone whose clock is wrong still shows the right time left. Nothing of it is a
deal's figure; it is never cached.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from clubs.access import directs, visible_or_404
from clubs.errors import DomainError
from clubs.phone_codes import phone_page
from tournaments.models import Event, Table
from tournaments.services.clock import clock_change, clock_read
from tournaments.table_scope import table_for_code
from tournaments.views.control import _control_context, _control_url


def _clock_json(event: Event) -> JsonResponse:
    response = JsonResponse(clock_read(event).as_json())
    add_never_cache_headers(response)
    return response


@require_GET
def event_clock(request: HttpRequest, pk: int) -> HttpResponse:
    return _clock_json(visible_or_404(request, Event, pk))


@require_GET
@phone_page(table_for_code, lambda: _("No table has this code."))
def table_clock(request: HttpRequest, table: Table) -> HttpResponse:
    return _clock_json(table.event)


DONE = {
    "set": gettext_lazy("Time per position saved."),
    "start": gettext_lazy("The clock runs."),
    "pause": gettext_lazy("The clock is paused."),
    "resume": gettext_lazy("The clock runs again."),
    "extend": gettext_lazy("Time added."),
    "stop": gettext_lazy("The clock is stopped."),
}


@login_required
@require_POST
@directs(Event)
def clock_action(request: HttpRequest, event: Event) -> HttpResponse:
    """The director's clock action (``action``: set, start, pause, resume, extend, stop)."""
    raw_round = request.POST.get("round") or ""
    action = request.POST.get("action") or ""
    try:
        clock_change(
            event=event,
            action=action,
            minutes=request.POST.get("minutes"),
            round_number=int(raw_round) if raw_round.isdigit() else None,
        )
    except DomainError as error:
        context = _control_context(request, event)
        context["error"] = error.message
        status = 409 if error.code in ("event_not_running", "clock_not_running") else 400
        if error.code == "clock_not_paused":
            status = 409
        return render(request, "tournaments/organiser/control.html", context, status=status)
    messages.success(request, str(DONE[action]))
    return redirect(_control_url(event, int(raw_round) if raw_round.isdigit() else None) + "#clock")

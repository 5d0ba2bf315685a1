"""The round clock: the director's actions (control room) and the clock as pages read it.

``event_clock`` (anyone who may see the event: the projector) and ``table_clock`` (a table
code: the table's phone) answer the clock as JSON with the server's instant of the answer
(``now_ms``): a page estimates its offset from the server's clock with it (the round trip
halved) and counts the time left down from ``ends_at_ms`` on its own clock corrected by that
offset, so a phone whose clock is wrong still shows the right time left. The table's answer
also gives the table's own position (``table_round``). Nothing of it is a deal's figure; it
is never cached.
"""

from __future__ import annotations

from typing import Any

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
from tournaments.table_scope import TableScope, table_for_code
from tournaments.views.control import _control_context, _control_url


def _clock_json(answer: dict[str, Any]) -> JsonResponse:
    response = JsonResponse(answer)
    add_never_cache_headers(response)
    return response


@require_GET
def event_clock(request: HttpRequest, pk: int) -> HttpResponse:
    return _clock_json(clock_read(visible_or_404(request, Event, pk)).as_json())


@require_GET
@phone_page(table_for_code, lambda: _("No table has this code."))
def table_clock(request: HttpRequest, table: Table) -> HttpResponse:
    """The clock as the table's phone reads it, with the table's own position
    (``table_round``: None once it has finished every position): a phone whose table is at
    another position than the clock's shows its position and no countdown."""
    answer = clock_read(table.event).as_json()
    answer["table_round"] = TableScope.for_save(table).open_round
    return _clock_json(answer)


DONE = {
    "set": gettext_lazy("Time per position saved."),
    "start": gettext_lazy("The clock runs."),
    "pause": gettext_lazy("The clock is paused."),
    "resume": gettext_lazy("The clock runs again."),
    "extend": gettext_lazy("Time added."),
    "stop": gettext_lazy("The clock is stopped."),
}


def _number(raw: str | None) -> int | None:
    raw = (raw or "").strip()
    return int(raw) if raw.isdigit() and len(raw) <= 4 else None


@login_required
@require_POST
@directs(Event)
def clock_action(request: HttpRequest, event: Event) -> HttpResponse:
    """The director's clock action: ``action`` (set, start, pause, resume, extend, stop), or a
    start button (``start``: the position it starts). The clock's form carries the
    auto-advance box (``auto``, with ``auto_field`` saying the box was there: unticked is
    off). ``round``: the round the control room showed, where it comes back."""
    started = _number(request.POST.get("start"))
    action = "start" if started is not None else request.POST.get("action") or ""
    shown = _number(request.POST.get("round"))
    if action == "start" and started is None:
        started = shown
    auto = request.POST.get("auto") == "1" if request.POST.get("auto_field") else None
    try:
        clock_change(
            event=event,
            action=action,
            minutes=request.POST.get("minutes"),
            round_number=started,
            auto_advance=auto,
        )
    except DomainError as error:
        context = _control_context(request, event)
        context["error"] = error.message
        conflict = ("event_not_running", "clock_not_running", "clock_not_paused")
        status = 409 if error.code in conflict else 400
        return render(request, "tournaments/organiser/control.html", context, status=status)
    messages.success(request, str(DONE[action]))
    return redirect(_control_url(event, shown) + "#clock")

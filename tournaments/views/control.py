"""The director's control room and the event's life cycle (login + directing the event).

- ``control`` (``?round=n``): per round, every table with its deals entered, missing or
  awaiting a defender's confirmation; each cell one click from the table's entry (the entry
  grid of the round, the correction of a result). The board is an htmx fragment refreshed
  every 10 seconds: the same URL answers the whole page or, to an ``HX-Request``, the fragment
  (``Vary: HX-Request``), as the public ranking does. Results the deal's cards make
  improbable are listed "to check" with the reason and a link to correct them
  (``tournaments.hand_flags``; flagged, never refused).
- ``missing``: the printable list of what is missing (A4), every round or ``?round=n``.
- the **late arrivals** (``clubs.late_arrivals``): entries a table's phone kept offline and
  that were refused when they arrived, listed above the board (50 to a page, ``?late=n``, a
  page the board's refresh keeps) until the director marks one handled
  (``late_arrival_handled``, POST), with the outcome sent and a link to the deal's result
  page at that table.
- ``round_close`` / ``round_reopen`` (POST): the round life cycle. Closing a round with
  results missing is refused with the list (409) unless the director confirms it
  (``confirm``); a closed round is no longer written with a table code.
- ``event_finish`` (GET: the confirmation page listing what is missing; POST) and
  ``event_reopen`` (GET: the page asking why; POST): finishing with results missing needs the
  confirmation; reopening a finished event is kept in the history with its reason.

The services (:mod:`tournaments.services.events`) decide; a refusal re-renders the page with
its message and a 4xx status.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import late_arrivals
from clubs.access import directs
from clubs.errors import DomainError
from clubs.late_arrivals import LateList, LateRow
from tournaments import phone_entry
from tournaments.hand_flags import result_flags
from tournaments.models import Event
from tournaments.services import events as event_services
from tournaments.services.clock import clock_panel
from tournaments.services.events import ResultsMissing, RoundState, results_board

REFRESH_SECONDS = 10
REASON_MAX = 500


def _reason(request: HttpRequest) -> str:
    return (request.POST.get("reason") or "").strip()[:REASON_MAX]


def _confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") in ("1", "on", "true", "yes")


def current_round(board: list[RoundState]) -> int | None:
    """The round the control room shows first: the first one not closed with results
    missing, else the last not closed, else the last."""
    for rnd in board:
        if not rnd.closed and not rnd.complete:
            return rnd.number
    open_rounds = [rnd.number for rnd in board if not rnd.closed]
    if open_rounds:
        return open_rounds[-1]
    return board[-1].number if board else None


def _control_url(event: Event, round_number: int | None, late: int | None = None) -> str:
    url = reverse("organiser:control", args=[event.pk])
    query = {"round": round_number, "late": late if late and late > 1 else None}
    params = urlencode({name: value for name, value in query.items() if value})
    return f"{url}?{params}" if params else url


def _selected_round(request: HttpRequest, board: list[RoundState]) -> RoundState | None:
    raw = request.GET.get("round") or ""
    wanted = int(raw) if raw.isdigit() else current_round(board)
    return next((rnd for rnd in board if rnd.number == wanted), None)


def _to_check(selected: RoundState | None) -> list[dict[str, Any]]:
    """The selected round's results to check (``tournaments.hand_flags``): each cell's
    ``flag`` is set, and the list gives table, deal and reasons in table order."""
    if selected is None:
        return []
    states = [(table, state) for table in selected.tables for state in table.deals]
    flags = result_flags(state.result for _table, state in states if state.result is not None)
    rows = []
    for table, state in states:
        flag = flags.get(state.result.pk) if state.result is not None else None
        state.flag = flag  # type: ignore[attr-defined]
        if flag is not None:
            rows.append({"table": table.table, "deal": state.deal, "reasons": flag.reasons})
    return rows


def late_list(request: HttpRequest, event: Event, round_number: int | None) -> LateList:
    """The page of the event's late arrivals to handle the request asks for (``?late=n``), as
    the control room lists them (its links keep the round shown)."""

    def row(arrival: Any) -> LateRow:
        return LateRow(
            arrival=arrival,
            where=str(arrival.holder),
            fix_url=reverse(
                "organiser:entry_result", args=[event.pk, arrival.holder.number, arrival.deal]
            ),
            handled_url=reverse("organiser:late_arrival_handled", args=[event.pk, arrival.pk]),
        )

    def url(page: int) -> str:
        return _control_url(event, round_number, late=page)

    arrivals = phone_entry.event_late_arrivals(event)
    return late_arrivals.late_list(arrivals, late_arrivals.page_param(request), row, url)


def _control_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    board = results_board(event)
    selected = _selected_round(request, board)
    late = late_list(request, event, selected.number if selected else None)
    totals = {
        "expected": sum(rnd.expected for rnd in board),
        "entered": sum(rnd.entered for rnd in board),
        "missing": sum(rnd.missing for rnd in board),
        "unconfirmed": sum(rnd.unconfirmed for rnd in board),
    }
    return {
        "event": event,
        "board": board,
        "selected": selected,
        "to_check": _to_check(selected),
        "totals": totals,
        "running": event.status == Event.Status.RUNNING,
        "refresh": REFRESH_SECONDS,
        "clock_panel": clock_panel(event),
        "late": late,
        "refresh_url": _control_url(event, selected.number if selected else None, late=late.number),
    }


@login_required
@require_GET
@directs(Event)
def control(request: HttpRequest, event: Event) -> HttpResponse:
    """The control room (see the module docstring); the htmx fragment to an HX-Request."""
    context = _control_context(request, event)
    template = "tournaments/organiser/control.html"
    if request.headers.get("HX-Request"):
        template = "tournaments/organiser/control_board.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_POST
@directs(Event)
def late_arrival_handled(request: HttpRequest, event: Event, arrival: int) -> HttpResponse:
    """The director has dealt with late arrival ``arrival``: it leaves the list."""
    if not phone_entry.late_arrival_handled(event, arrival):
        raise Http404(_("No such late arrival."))
    messages.success(request, _("Late arrival marked handled."))
    return redirect(_control_url(event, None))


@login_required
@require_GET
@directs(Event)
def missing(request: HttpRequest, event: Event) -> HttpResponse:
    """The printable list of missing results (every round, or ``?round=n``)."""
    board = results_board(event)
    raw = request.GET.get("round") or ""
    if raw.isdigit():
        board = [rnd for rnd in board if rnd.number == int(raw)]
    rounds = [rnd for rnd in board if not rnd.complete]
    context = {"event": event, "rounds": rounds, "round": int(raw) if raw.isdigit() else None}
    return render(request, "tournaments/organiser/control_missing.html", context)


def _refused_page(
    request: HttpRequest, event: Event, error: DomainError, *, action: str, **extra: Any
) -> HttpResponse:
    """The confirmation page of ``action`` (``close_round``, ``finish``) listing what is
    missing (409), or the refusal's message (400 / 409)."""
    board = error.board if isinstance(error, ResultsMissing) else []
    context = {
        "event": event,
        "action": action,
        "error": error,
        "board": board,
        "missing_rounds": board,
        "pending_rounds": error.pending if isinstance(error, ResultsMissing) else (),
        "reason": _reason(request),
        **extra,
    }
    status = 409 if isinstance(error, ResultsMissing) or error.code == "event_not_running" else 400
    template = (
        "tournaments/organiser/finish.html"
        if action == "finish"
        else "tournaments/organiser/control_close.html"
    )
    return render(request, template, context, status=status)


@login_required
@require_POST
@directs(Event)
def round_close(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    try:
        closed = event_services.round_close(
            event=event, round_number=number, actor=request.user,
            confirm=_confirmed(request), reason=_reason(request),
        )  # fmt: skip
    except DomainError as error:
        return _refused_page(request, event, error, action="close_round", round_number=number)
    messages.success(request, _("Round %(round)s is closed.") % {"round": number})
    if closed.schedule.live_swiss and number + 1 in closed.schedule.round_numbers:  # live Swiss
        messages.info(request, _("Round %(next)s is paired from the standings after round "
                                 "%(round)s.") % {"next": number + 1, "round": number})  # fmt: skip
    return redirect(_control_url(event, number))


@login_required
@require_POST
@directs(Event)
def round_reopen(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    paired = event.schedule.round_numbers
    try:
        reopened = event_services.round_reopen(
            event=event, round_number=number, actor=request.user, reason=_reason(request)
        )
    except DomainError as error:
        context = _control_context(request, event)
        context["error"] = error.message
        return render(request, "tournaments/organiser/control.html", context, status=409)
    messages.success(request, _("Round %(round)s is open again.") % {"round": number})
    for later in sorted(set(paired) - set(reopened.schedule.round_numbers)):  # live Swiss
        text = _("Round %(round)s is no longer paired: it will be paired at the close of "
                 "round %(last)s.")  # fmt: skip
        messages.info(request, text % {"round": later, "last": later - 1})
    return redirect(_control_url(event, number))


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def event_finish(request: HttpRequest, event: Event) -> HttpResponse:
    """GET: what finishing would leave missing, and the confirmation; POST: finish."""
    if request.method == "GET":
        incomplete = [rnd for rnd in results_board(event) if not rnd.complete]
        pending = event.schedule.pending_rounds
        if event.status != Event.Status.RUNNING:
            incomplete, pending = [], ()
        context = {
            "event": event,
            "missing_rounds": incomplete,
            "pending_rounds": pending,
            "error": None,
            "reason": "",
        }
        return render(request, "tournaments/organiser/finish.html", context)
    try:
        event_services.event_finish(
            event=event, actor=request.user, confirm=_confirmed(request), reason=_reason(request)
        )
    except DomainError as error:
        return _refused_page(request, event, error, action="finish")
    messages.success(request, _("The event is finished."))
    return redirect("organiser:event", pk=event.pk)


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def event_reopen(request: HttpRequest, event: Event) -> HttpResponse:
    """GET: the page asking why; POST: the finished event runs again (kept in the history)."""
    error = None
    status = 200
    if request.method == "POST":
        try:
            event_services.event_reopen(event=event, actor=request.user, reason=_reason(request))
        except DomainError as refused:
            error, status = refused.message, 409
        else:
            messages.success(
                request, _("The event is running again: tables can enter their results.")
            )
            return redirect("organiser:control", pk=event.pk)
    context = {"event": event, "error": error, "reason": _reason(request)}
    return render(request, "tournaments/organiser/finish_reopen.html", context, status=status)

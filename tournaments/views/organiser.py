"""Organiser screens: event setup step by step, registration, teams, movement, deals, start.

Thin views: forms parse, services decide and store, selectors read. Every view needs a login;
an event's views receive it from :func:`clubs.access.directs`, so another club's
event is a 404. A refused operation (``DomainError``) re-renders the page with its errors
and status 400; nothing stored changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import clubs_directed_by, directs, user_directs_a_club
from clubs.errors import DomainError
from clubs.forms import add_error
from clubs.models import Player
from clubs.register import register_namesakes, register_player_add
from tournaments import forms, movements, presentation, selectors, services
from tournaments.models import Entrant, Event, Seat
from tournaments.services import late_changes
from tournaments.views import control


def _steps(event: Event, state: selectors.EventSetupState) -> list[dict[str, Any]]:
    """The setup steps with their state, for the step bar and the dashboard."""

    def step(key: str, label: str, done: bool, url: str, detail: str) -> dict[str, Any]:
        url = reverse(url, args=[event.pk])
        return {"key": key, "label": label, "done": done, "url": url, "detail": detail}

    schedule = event.schedule
    steps = [
        step("details", _("Details"), True, "organiser:event_edit",
             f"{event.get_format_display()} · {formats.date_format(event.date)}"),
        step("players", _("Players"), state.players_ok, "organiser:players",
             _("%(count)s registered") % {"count": state.entrant_count}),
        step("teams", _("Teams"), state.teams_ok, "organiser:teams",
             _("%(teams)s teams, %(loose)s players without a team")
             % {"teams": state.team_count, "loose": state.players_without_team}),
        step("movement", _("Movement"), state.has_movement, "organiser:movement",
             _("%(tables)s tables, %(rounds)s rounds, %(sets)s deal sets")
             % {"tables": schedule.table_count, "rounds": schedule.planned_rounds,
                "sets": schedule.deal_set_count}
             if schedule else _("to choose")),
        step("deals", _("Deals"), state.deals_ok, "organiser:deals",
             _("%(found)s of %(needed)s deals")
             % {"found": state.deal_count, "needed": state.deals_expected}),
        step("start", _("Start"), event.status != Event.Status.DRAFT, "organiser:event",
             event.get_status_display()),
    ]  # fmt: skip
    return [s for s in steps if s["key"] != "teams" or event.is_team_event]


def _render(
    request: HttpRequest,
    template: str,
    event: Event,
    step: str,
    context: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    state = selectors.event_setup_state(event)
    context = {
        "event": event,
        "state": state,
        "steps": _steps(event, state),
        "step": step,
        "is_draft": event.status == Event.Status.DRAFT,
        **context,
    }
    return render(request, template, context, status=status)


# --- home and event ----------------------------------------------------------------------


@login_required
def home(request: HttpRequest) -> HttpResponse:
    events = selectors.events_directed_with_counts(request.user)
    has_clubs = user_directs_a_club(request.user)
    return render(
        request, "tournaments/organiser/home.html", {"events": events, "has_clubs": has_clubs}
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_create(request: HttpRequest) -> HttpResponse:
    clubs = clubs_directed_by(request.user)
    form = forms.EventCreateForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(**form.cleaned_data)
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Event created. Now register the players."))
            return redirect("organiser:players", pk=event.pk)
    status = 400 if form.errors else 200
    return render(
        request,
        "tournaments/organiser/event_form.html",
        {"form": form, "has_clubs": user_directs_a_club(request.user)},
        status=status,
    )


@login_required
@directs(Event)
def event_dashboard(request: HttpRequest, event: Event) -> HttpResponse:
    problems = selectors.event_start_problems(event) if event.status == Event.Status.DRAFT else []
    tables = [
        {"table": table, "entry_url": f"/table/{table.code}/"}
        for table in (selectors.event_tables(event) if event.movement else [])
    ]
    return _render(
        request,
        "tournaments/organiser/event_dashboard.html",
        event,
        "start",
        {"problems": problems, "tables": tables},
    )


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    initial = {
        "name": event.name,
        "date": event.date,
        "deals_per_round": event.deals_per_round,
        "public": event.public,
        "opponent_confirmation": event.opponent_confirmation,
    }
    form = forms.EventDetailsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_update(event=event, **form.cleaned_data)
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Details saved."))
            return redirect("organiser:event", pk=event.pk)
    return _render(
        request,
        "tournaments/organiser/event_edit.html",
        event,
        "details",
        {"form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
@directs(Event)
def event_start(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        services.event_start(event=event)
    except DomainError as error:
        problems = list(error.details) or [error.message]  # the list, without its heading
        for problem in problems:
            messages.error(request, problem)
        return _render(
            request,
            "tournaments/organiser/event_dashboard.html",
            event,
            "start",
            {"problems": problems},
            status=409,
        )
    messages.success(request, _("The event has started."))
    return redirect("organiser:event", pk=event.pk)


# ``organiser:event_finish``: the confirmation page listing what is missing, then the finish
# (with the control room, whose round life cycle it completes).
event_finish = control.event_finish


# --- players -----------------------------------------------------------------------------


def _players_page(
    request: HttpRequest, event: Event, *, status: int = 200, **context: Any
) -> HttpResponse:
    search = forms.PlayerSearchForm(request.GET or None)
    found = []
    if search.is_valid() and search.cleaned_data["q"]:
        found = selectors.players_search(
            query=search.cleaned_data["q"], club=event.club_id, exclude_event=event
        )
    entrants = selectors.event_real_entrants(event)
    previous, previous_players = (
        selectors.previous_event_players(event)
        if event.status == Event.Status.DRAFT
        else (None, [])
    )
    page = {
        "entrants": entrants,
        "previous_event": previous,
        "previous_players": previous_players,
        **_late_change_context(event, entrants),
        "player_form": forms.PlayerForm(club=event.club),
        "import_form": forms.PlayersImportForm(),
        "search_form": search,
        "found": found,
        **context,
    }
    return _render(
        request, "tournaments/organiser/players.html", event, "players", page, status=status
    )


@login_required
@directs(Event)
def players(request: HttpRequest, event: Event) -> HttpResponse:
    if request.headers.get("HX-Request") and "q" in request.GET:
        search = forms.PlayerSearchForm(request.GET)
        found = selectors.players_search(
            query=search.data.get("q", ""), club=event.club_id, exclude_event=event
        )
        return render(
            request,
            "tournaments/organiser/_search_results.html",
            {"event": event, "found": found, "searched": True},
        )
    return _players_page(request, event)


def _name_kept(player: Player) -> str:
    return _("Licence %(licence)s is %(player)s's: he keeps the name the register knows.") % {
        "licence": player.licence,
        "player": player,
    }


def _stale_notice(request: HttpRequest, had_movement: bool, event: Event) -> None:
    if had_movement and not selectors.event_has_movement(event):
        messages.warning(request, _("The entrants changed: regenerate the movement."))


@login_required
@require_POST
@directs(Event)
def player_add(request: HttpRequest, event: Event) -> HttpResponse:
    """Register a player typed by hand: he joins the register of the event's club (a known
    licence registers that player, under his stored name), its member or, a player of
    another club, without home club."""
    form = forms.PlayerForm(request.POST, club=event.club)
    had_movement = event.movement is not None
    if form.is_valid():
        data = form.cleaned_data
        namesakes = [] if data["confirm_new"] else register_namesakes(
            club=event.club, first_name=data["first_name"], last_name=data["last_name"],
            licence=data["licence"], active_only=True,
        )  # fmt: skip
        if namesakes:
            return _players_page(request, event, player_form=form, namesakes=namesakes)
        try:
            added = register_player_add(
                club=event.club,
                first_name=data["first_name"],
                last_name=data["last_name"],
                licence=data["licence"],
                series=data["series"],
                member=data["club"] is not None,
            )
            player = added.player
            services.entrant_register(event=event, player=player)
        except DomainError as error:
            add_error(form, error)
        else:
            if added.name_differs:
                messages.warning(request, _name_kept(player))
            messages.success(request, _("%(player)s registered.") % {"player": player})
            _stale_notice(request, had_movement, event)
            return redirect("organiser:players", pk=event.pk)
    return _players_page(request, event, player_form=form, status=400)


@login_required
@require_POST
@directs(Event)
def player_register(request: HttpRequest, event: Event) -> HttpResponse:
    """Register the known players ticked in the search or in the last evening's list (one or
    several, one confirmation)."""
    form = forms.PlayerRegisterForm(request.POST, players=selectors.event_register_players(event))
    had_movement = event.movement is not None
    if form.is_valid():
        chosen = list(form.cleaned_data["player"])
        try:
            added = services.entrants_register(event=event, players=chosen)
        except DomainError as error:
            for message in error.messages:
                messages.error(request, message)
            return _players_page(request, event, status=400)
        if not added:
            refusal = (
                _("%(player)s is already registered.") % {"player": chosen[0]}
                if len(chosen) == 1
                else _("These players are already registered.")
            )
            messages.error(request, refusal)
            return _players_page(request, event, status=400)
        if len(added) == 1:
            messages.success(request, _("%(player)s registered.") % {"player": added[0].player})
        else:
            count = len(added)
            messages.success(
                request,
                ngettext("%(count)s player registered.", "%(count)s players registered.", count)
                % {"count": count},
            )
        if len(added) < len(chosen):
            messages.info(request, _("The players already registered were left as they were."))
        _stale_notice(request, had_movement, event)
        return redirect("organiser:players", pk=event.pk)
    refused = [str(message) for message in form.errors.get("player", [])]
    messages.error(request, " ".join(refused) or _("Choose a known player."))
    return _players_page(request, event, status=400)


@login_required
@require_POST
@directs(Event)
def players_import(request: HttpRequest, event: Event) -> HttpResponse:
    """Register the players of a CSV file and show the per-line report."""
    form = forms.PlayersImportForm(request.POST, request.FILES)
    had_movement = event.movement is not None
    if form.is_valid():
        try:
            report = services.players_import_csv(event=event, file=form.cleaned_data["file"])
        except DomainError as error:
            add_error(form, error)
        else:
            _stale_notice(request, had_movement, event)
            return _players_page(
                request,
                event,
                import_report=report,
                status=200 if report.ok or report.registered else 400,
            )
    return _players_page(request, event, import_form=form, status=400)


@login_required
@require_POST
@directs(Event)
def entrant_withdraw(request: HttpRequest, event: Event, entrant_pk: int) -> HttpResponse:
    entrant = selectors.event_entrant(event, entrant_pk)
    if entrant is None:
        raise Http404
    had_movement = event.movement is not None
    try:
        services.entrant_withdraw(entrant=entrant)
    except DomainError as error:
        messages.error(request, " ".join(error.messages))
        return _players_page(request, event, status=409)
    messages.success(request, _("%(player)s withdrawn.") % {"player": entrant})
    _stale_notice(request, had_movement, event)
    return redirect("organiser:players", pk=event.pk)


# --- late changes (running event) ----------------------------------------------------------


@dataclass(frozen=True)
class _EntrantRow:
    """A line of the players page: the entrant and, in a running event, his late changes."""

    entrant: Entrant
    change: Any = None  # his EntrantChange: replaced or withdrawn
    replaces: Any = None  # the EntrantChange by which he came in as a substitute
    first_round: int | None = None  # the first round he may still be replaced from


def _late_change_context(event: Event, entrants: list[Entrant]) -> dict[str, Any]:
    """The players page's rows, and the late changes of a running event."""
    if event.status != Event.Status.RUNNING:
        return {"rows": [_EntrantRow(entrant) for entrant in entrants], "late_changes": []}
    changes = late_changes.event_late_changes(event)
    by_entrant = {change.entrant_id: change for change in changes}
    by_replacement = {change.replacement_id: change for change in changes}
    last = late_changes.last_rounds_played(event)
    rounds = [*event.schedule.round_numbers, *event.schedule.pending_rounds]  # live Swiss
    rows = []
    for entrant in entrants:
        replaces = by_replacement.get(entrant.pk)
        first = max(replaces.from_round if replaces else 1, last.get(entrant.pk, 0) + 1)
        rows.append(
            _EntrantRow(
                entrant,
                change=by_entrant.get(entrant.pk),
                replaces=replaces,
                first_round=first if first in rounds else None,
            )
        )
    return {"rows": rows, "late_changes": changes, "last_round": max(rounds, default=0)}


def _late_entrant(event: Event, entrant_pk: int) -> Entrant:
    entrant = selectors.event_entrant(event, entrant_pk, real=True)
    if entrant is None:
        raise Http404
    return entrant


def _from_round(request: HttpRequest) -> int:
    raw = request.POST.get("from_round", "").strip()
    if not raw.isdigit() or len(raw) > 4:
        raise DomainError(
            "round_required",
            _("Give the round (a number) from which the change applies."),
            field="from_round",
        )
    return int(raw)


def _late_refused(request: HttpRequest, event: Event, error: DomainError) -> HttpResponse:
    for message in error.messages:
        messages.error(request, message)
    return _players_page(request, event, status=400)


def _substitute_player(request: HttpRequest, event: Event) -> Player | list[Player]:
    """The substitute chosen (a known player's pk), created (first and last name), or found by
    a search (``q``): one match is chosen, several are returned for the director to choose; a
    new guest whose names the register already holds (``register_namesakes``) is created only
    once the director saw them (``confirm_new``): they are returned to choose from first."""
    data = request.POST
    chosen = data.get("player", "").strip()
    if chosen:
        player = selectors.player_by_pk(int(chosen)) if chosen.isdigit() else None
        if player is None:
            raise DomainError("unknown_player", _("Choose a known player."), field="player")
        return player
    first_name, last_name = data.get("first_name", ""), data.get("last_name", "")
    if first_name.strip() or last_name.strip():
        namesakes = [] if data.get("confirm_new") else register_namesakes(
            club=event.club, first_name=first_name, last_name=last_name,
            licence=data.get("licence", ""), active_only=True,
        )  # fmt: skip
        if namesakes:
            return [line.player for line in namesakes]
        return register_player_add(
            club=event.club,
            first_name=first_name,
            last_name=last_name,
            licence=data.get("licence", ""),
        ).player
    query = data.get("q", "").strip()[:80]
    if not query:
        raise DomainError(
            "substitute_required",
            _("Give the substitute: a name or licence to search, or a new player's names."),
            field="player",
        )
    found = selectors.players_search(query=query, club=event.club_id, exclude_event=event)
    if not found:
        raise DomainError(
            "no_player_found",
            _("No known player matches “%(query)s” (or he is already in this event).")
            % {"query": query},
            field="player",
        )
    return found[0] if len(found) == 1 else found


@login_required
@require_POST
@directs(Event)
def entrant_substitute(request: HttpRequest, event: Event, entrant_pk: int) -> HttpResponse:
    """A substitute replaces the entrant from a round to the end (a running event)."""
    entrant = _late_entrant(event, entrant_pk)
    reason = request.POST.get("reason", "").strip()[:500]
    try:
        from_round = _from_round(request)
        with transaction.atomic():  # a new player is kept only if the substitution is
            player = _substitute_player(request, event)
            if isinstance(player, list):
                typed = {k: request.POST.get(k, "")[:80] for k in ("first_name", "last_name")}
                return _players_page(
                    request,
                    event,
                    candidates=player,
                    candidate_for=entrant,
                    candidate_round=from_round,
                    candidate_reason=reason,
                    # the names typed, when the candidates are the register's namesakes
                    candidate_new=typed if any(v.strip() for v in typed.values()) else None,
                )
            late_changes.entrant_substitute(
                event=event,
                entrant=entrant,
                player=player,
                from_round=from_round,
                actor=request.user,
                reason=reason,
            )
    except DomainError as error:
        return _late_refused(request, event, error)
    messages.success(
        request,
        _("%(substitute)s replaces %(player)s from round %(round)s.")
        % {"substitute": player, "player": entrant, "round": from_round},
    )
    return redirect("organiser:players", pk=event.pk)


@login_required
@require_POST
@directs(Event)
def entrant_forfeit(request: HttpRequest, event: Event, entrant_pk: int) -> HttpResponse:
    """The entrant withdraws (forfait) from a round on: his seat becomes a phantom."""
    entrant = _late_entrant(event, entrant_pk)
    reason = request.POST.get("reason", "").strip()[:500]
    try:
        from_round = _from_round(request)
        late_changes.entrant_withdraw_late(
            event=event, entrant=entrant, from_round=from_round, actor=request.user, reason=reason
        )
    except DomainError as error:
        return _late_refused(request, event, error)
    messages.success(
        request,
        _("%(player)s withdraws from round %(round)s: his tables sit out from then on.")
        % {"player": entrant, "round": from_round},
    )
    return redirect("organiser:players", pk=event.pk)


# --- teams -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def teams(request: HttpRequest, event: Event) -> HttpResponse:
    if not event.is_team_event:
        messages.info(request, _("Individual events have no teams."))
        return redirect("organiser:event", pk=event.pk)
    form = forms.TeamForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            services.team_create(
                event=event,
                name=form.cleaned_data["name"],
                entrants=list(form.cleaned_data["members"]),
            )
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Team created."))
            return redirect("organiser:teams", pk=event.pk)
    return _render(
        request,
        "tournaments/organiser/teams.html",
        event,
        "teams",
        {
            "form": form,
            "teams": selectors.event_teams(event),
            "team_size": event.team_size,
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
@directs(Event)
def teams_auto(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        created = services.teams_build_in_order(event=event)
    except DomainError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(count)s teams created.") % {"count": len(created)})
    return redirect("organiser:teams", pk=event.pk)


@login_required
@require_POST
@directs(Event)
def team_delete(request: HttpRequest, event: Event, team_pk: int) -> HttpResponse:
    team = selectors.event_team(event, team_pk)
    if team is None:
        raise Http404
    try:
        services.team_delete(team=team)
    except DomainError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Team dissolved."))
    return redirect("organiser:teams", pk=event.pk)


# --- movement ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def movement(request: HttpRequest, event: Event) -> HttpResponse:
    """Show the proposed movement with its quality report; POST stores the previewed one.

    The preview posts back the exact document it showed (generators may search within a time
    box), and the service validates it again before storing: what is seen is what is stored.
    """
    context: dict[str, Any] = {}
    status = 200
    if request.method == "POST":
        form = forms.MovementForm(request.POST)
        if form.is_valid():
            try:
                report = services.event_movement_set(
                    event=event,
                    tables=form.cleaned_data["tables"],
                    rounds=form.cleaned_data["rounds"],
                    seed=form.cleaned_data["seed"] or 0,
                    movement=form.cleaned_data["document"],
                    swiss=form.cleaned_data["swiss"] or None,
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Movement saved."))
                for warning in report.warnings:
                    messages.warning(
                        request, presentation.movement_warning_text(warning.code, warning.message)
                    )
                return redirect("organiser:deals", pk=event.pk)
        status = 400
    else:
        form, status = _movement_preview(event, request.GET, context)
    context["form"] = form
    context["import_form"] = forms.MovementImportForm()
    return _render(
        request, "tournaments/organiser/movement.html", event, "movement", context, status=status
    )


@login_required
@require_POST
@directs(Event)
def movement_import(request: HttpRequest, event: Event) -> HttpResponse:
    """Store a movement document uploaded as a file (validated like a generated one)."""
    form = forms.MovementImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            services.event_movement_set(event=event, movement=form.cleaned_data["file"])
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Movement saved."))
            return redirect("organiser:deals", pk=event.pk)
    return _render(
        request,
        "tournaments/organiser/movement.html",
        event,
        "movement",
        {"form": forms.MovementForm(), "import_form": form},
        status=400,
    )


def _movement_preview(
    event: Event, query: Any, context: dict[str, Any]
) -> tuple[forms.MovementForm, int]:
    """Fill ``context`` with the stored movement's report and a preview (draft events)."""
    if event.movement:
        context["stored_report"] = movements.validate(event.movement)
    if event.status != Event.Status.DRAFT:
        return forms.MovementForm(), 200
    try:
        proposal = services.event_movement_propose(event=event)
    except DomainError as error:
        context["proposal_error"] = error.messages
        return forms.MovementForm(), 200
    initial = {"tables": proposal.get("tables"), "rounds": proposal.get("rounds"), "seed": 0}
    form = forms.MovementForm(query or None, initial=initial)
    if query and not form.is_valid():
        return form, 400
    if event.movement and not query:
        return form, 200  # a stored movement: preview others on demand only
    if query:
        try:
            doc = services.event_movement_build(
                event=event,
                tables=form.cleaned_data["tables"],
                rounds=form.cleaned_data["rounds"],
                seed=form.cleaned_data["seed"] or 0,
                swiss=form.cleaned_data["swiss"] or None,
            )
        except DomainError as error:
            context["preview_error"] = error.messages
            return form, 200
    else:
        doc = proposal["document"]  # the proposal already generated and validated it
    context["preview"] = doc
    context["preview_json"] = json.dumps(doc, separators=(",", ":"))
    context["preview_report"] = movements.validate(doc)
    return form, 200


# --- deals -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def deals(request: HttpRequest, event: Event) -> HttpResponse:
    """Generate the deals from a seed (POST here) or import them (see :func:`deals_import`)."""
    generate = forms.DealsGenerateForm(request.POST or None, initial={"seed": event.seed})
    if request.method == "POST" and generate.is_valid():
        try:
            created = services.event_deals_generate(
                event=event,
                seed=generate.cleaned_data["seed"],
                imposed_contract=generate.cleaned_data["imposed_contract"],
            )
        except DomainError as error:
            add_error(generate, error)
        else:
            messages.success(request, _("%(count)s deals generated.") % {"count": len(created)})
            return redirect("organiser:event", pk=event.pk)
    return _deals_page(
        request, event, generate, forms.DealsImportForm(), status=400 if generate.errors else 200
    )


@login_required
@require_POST
@directs(Event)
def deal_seats(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Set one deal's dealer and taker seat (draft events; the deals page's row form)."""
    form = forms.DealSeatsForm(request.POST)
    if form.is_valid():
        try:
            services.deal_seats_set(event=event, number=number, **form.cleaned_data)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("Deal %(deal)s: dealer and taker seat saved.") % {"deal": number}
            )
            return redirect("organiser:deals", pk=event.pk)
    else:
        messages.error(request, _("Choose a seat (N, E, S, W) for the dealer and the taker."))
    return _deals_page(
        request, event, forms.DealsGenerateForm(initial={"seed": event.seed}),
        forms.DealsImportForm(), status=400,
    )  # fmt: skip


def _deals_page(
    request: HttpRequest,
    event: Event,
    generate: forms.DealsGenerateForm,
    import_form: forms.DealsImportForm,
    status: int = 200,
) -> HttpResponse:
    return _render(
        request,
        "tournaments/organiser/deals.html",
        event,
        "deals",
        {
            "generate_form": generate,
            "import_form": import_form,
            "deals": selectors.event_deals(event),
            # A draft individual event's deals: dealer and taker seat editable per deal.
            "seats_editable": event.status == Event.Status.DRAFT and not event.is_team_event,
            "seat_choices": Seat.choices,
        },
        status=status,
    )


@login_required
@require_POST
@directs(Event)
def deals_import(request: HttpRequest, event: Event) -> HttpResponse:
    form = forms.DealsImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            created = services.event_deals_import(
                event=event,
                text=form.cleaned_data["file"],
                imposed_contract=form.cleaned_data["imposed_contract"],
            )
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("%(count)s deals imported.") % {"count": len(created)})
            return redirect("organiser:event", pk=event.pk)
    return _deals_page(
        request, event, forms.DealsGenerateForm(initial={"seed": event.seed}), form, status=400
    )

"""Pages of the cups: public bracket and match sheets, the room phones, the organiser's screens.

- Public pages show a public cup to everybody and a private one to its club's organisers (a
  preview); anybody else gets a 404. While a match is in play the public sees only the deals
  finished in both rooms (``services.match_sheet(everything=False)``); organisers see all.
- A room phone needs no account: the room's secret code is its key (as a table's code).
- Organiser screens need a login (else the login page), then an organiser of the cup's club
  (``clubs.access.clubs_directed_by``): a cup of another club is a 404, and a user who
  organises no club gets a 403.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.access import (
    clubs_directed_by,
    directed_by,
    directed_or_404,
    user_directs,
    visible_to,
)
from clubs.errors import DomainError
from clubs.forms import add_error
from clubs.models import Player
from teammatch import services
from teammatch.forms import CupForm, LineupForm, TeamForm
from teammatch.models import (
    Cup,
    CupMatch,
    CupTeam,
    MatchDeal,
    MatchRoom,
    QuarterLineup,
    RoomName,
    RoomResult,
    RoomResultChange,
)
from teammatch.presentation import decided_text, round_name
from tournaments.forms.results import CorrectionForm, DealOutcomeForm

# ---------------------------------------------------------------------------------------------
# Access


def _match_of(cup: Cup, match_id: int) -> CupMatch:
    return get_object_or_404(
        CupMatch.objects.select_related("cup", "team_a", "team_b", "winner"),
        cup=cup,
        pk=match_id,
    )


# ---------------------------------------------------------------------------------------------
# Shared context


def bracket_rounds(cup: Cup, *, everything: bool) -> list[dict[str, Any]]:
    """The bracket round by round; each match with its (published) PM so far."""
    matches = list(
        CupMatch.objects.filter(cup=cup)
        .select_related("team_a", "team_b", "winner")
        .order_by("round", "slot")
    )
    played = [m for m in matches if m.team_a_id and m.team_b_id and not m.bye]
    sheets = services.match_sheets(played, cup, everything=everything)
    rounds: dict[int, list[dict[str, Any]]] = {}
    count = 0
    for match in matches:
        count = max(count, match.round)
        rounds.setdefault(match.round, []).append({"match": match, "sheet": sheets.get(match.pk)})
    return [
        {"number": number, "name": round_name(number, count), "matches": rounds[number]}
        for number in sorted(rounds)
    ]


# ---------------------------------------------------------------------------------------------
# Public pages


@require_GET
def cup_index(request: HttpRequest) -> HttpResponse:
    cups = visible_to(request.user, Cup)
    return render(request, "teammatch/public/index.html", {"cups": cups})


@require_GET
def cup_bracket(request: HttpRequest, cup_id: int) -> HttpResponse:
    cup = get_object_or_404(visible_to(request.user, Cup), pk=cup_id)
    everything = user_directs(request.user, cup)
    context = {
        "cup": cup,
        "rounds": bracket_rounds(cup, everything=everything),
        "everything": everything,
        "decided": {m.pk: decided_text(m) for m in CupMatch.objects.filter(cup=cup)},
    }
    if request.headers.get("HX-Request"):
        return render(request, "teammatch/public/_bracket.html", context)
    return render(request, "teammatch/public/bracket.html", context)


@require_GET
def match_page(request: HttpRequest, cup_id: int, match_id: int) -> HttpResponse:
    cup = get_object_or_404(visible_to(request.user, Cup), pk=cup_id)
    match = _match_of(cup, match_id)
    if match.bye or not (match.team_a_id and match.team_b_id):
        return redirect("teammatch:bracket", cup_id=cup.pk)
    everything = user_directs(request.user, cup)
    return render(
        request,
        "teammatch/public/match.html",
        {
            "cup": cup,
            "match": match,
            "sheet": services.match_sheet(match, everything=everything),
            "everything": everything,
            "decided": decided_text(match),
        },
    )


# ---------------------------------------------------------------------------------------------
# Room phone


def _room_or_404(code: str) -> MatchRoom:
    return get_object_or_404(
        MatchRoom.objects.select_related("match__cup", "match__team_a", "match__team_b"),
        code=code,
    )


def _room_context(room: MatchRoom, forms: dict[int, DealOutcomeForm], correct: int | None) -> Any:
    match = room.match
    lineup = (
        QuarterLineup.objects.filter(match=match, quarter=match.quarter)
        .select_related(*QuarterLineup.SEAT_FIELDS)
        .first()
    )
    playing = match.status == CupMatch.Status.PLAYING
    writable = playing and lineup is not None and not lineup.closed
    results = {r.deal_id: r for r in RoomResult.objects.filter(match=match, room=room.room)}
    cards = []
    for deal in MatchDeal.objects.filter(match=match, quarter=match.quarter).order_by("number"):
        result = results.get(deal.pk)
        form = forms.get(deal.number)
        correcting = (
            writable and result is not None and (correct == deal.number or form is not None)
        )
        if form is None and writable and (result is None or correcting):
            initial = DealOutcomeForm.initial_of(result.outcome) if result else {}
            form = DealOutcomeForm(
                deal=services.rules_deal_of(deal), initial=initial, prefix=f"d{deal.number}"
            )
        cards.append(
            {
                "deal": deal,
                "result": result,
                "form": form if writable else None,
                "correcting": correcting,
                "correctable": writable and result is not None,
            }
        )
    entered = sum(1 for card in cards if card["result"])
    taker_team = match.team_a if room.room == RoomName.OPEN else match.team_b
    defence_team = match.team_b if room.room == RoomName.OPEN else match.team_a
    return {
        "room": room,
        "match": match,
        "cup": match.cup,
        "lineup": lineup,
        "taker": lineup.taker(room.room) if lineup else None,
        "defenders": lineup.defenders(room.room) if lineup else [],
        "taker_team": taker_team,
        "defence_team": defence_team,
        "cards": cards,
        "entered": entered,
        "writable": writable,
        "playing": playing,
    }


@require_GET
def room_phone(request: HttpRequest, code: str) -> HttpResponse:
    room = _room_or_404(code)
    correct = request.GET.get("correct", "")
    context = _room_context(room, {}, int(correct) if correct.isdigit() else None)
    return render(request, "teammatch/room.html", context)


@require_POST
def room_deal_save(request: HttpRequest, code: str, number: int) -> HttpResponse:
    room = _room_or_404(code)
    deal = MatchDeal.objects.filter(match=room.match, number=number).first()
    if deal is None:
        context = _room_context(room, {}, None)
        context["error"] = _("This match has no deal %(deal)s.") % {"deal": number}
        return render(request, "teammatch/room.html", context, status=404)
    form = DealOutcomeForm(
        request.POST, deal=services.rules_deal_of(deal), prefix=f"d{deal.number}"
    )
    if form.is_valid():
        try:
            services.room_result_enter(room=room, deal_number=number, outcome=form.outcome())
        except DomainError as error:
            if error.field and error.field != "deal":
                add_error(form, error)
            else:
                context = _room_context(_room_or_404(code), {}, None)
                context["error"] = error.message
                return render(request, "teammatch/room.html", context, status=409)
        else:
            messages.success(request, _("Deal %(deal)s saved.") % {"deal": number})
            url = reverse("teammatch:room", args=[code])
            return redirect(f"{url}#deal-{number}")
    context = _room_context(_room_or_404(code), {number: form}, number)
    return render(request, "teammatch/room.html", context, status=400)


# ---------------------------------------------------------------------------------------------
# Organiser screens


def _require_organiser(request: HttpRequest) -> QuerySet[Any]:
    clubs = clubs_directed_by(request.user)
    if not clubs.exists():
        raise PermissionDenied(_("You organise no club."))
    return clubs


@login_required
@require_GET
def organiser_list(request: HttpRequest) -> HttpResponse:
    _require_organiser(request)
    cups = directed_by(request.user, Cup)
    return render(request, "teammatch/organiser/list.html", {"cups": cups})


@login_required
@require_http_methods(["GET", "POST"])
def organiser_create(request: HttpRequest) -> HttpResponse:
    clubs = _require_organiser(request)
    form = CupForm(request.POST or None, clubs=clubs)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                cup = services.create_cup(
                    club=data["club"],
                    name=data["name"],
                    date=data["date"],
                    public=data["public"],
                    deals_per_quarter=data["deals_per_quarter"],
                    pm_scale=data["pm_scale"],
                    tie_break=data["tie_break"],
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Cup created."))
                return redirect("teammatch:organiser_cup", cup_id=cup.pk)
        status = 400
    return render(request, "teammatch/organiser/create.html", {"form": form}, status=status)


def _club_players(cup: Cup) -> QuerySet[Player]:
    return Player.objects.filter(club=cup.club)


def _cup_context(cup: Cup, team_form: TeamForm | None = None) -> dict[str, Any]:
    teams = CupTeam.objects.filter(cup=cup).prefetch_related("members__player")
    return {
        "cup": cup,
        "teams": teams,
        "team_form": team_form or TeamForm(players=_club_players(cup)),
        "rounds": bracket_rounds(cup, everything=True) if cup.status != Cup.Status.DRAFT else [],
        "decided": {m.pk: decided_text(m) for m in CupMatch.objects.filter(cup=cup)},
        "everything": True,
        "organiser": True,
    }


@login_required
@require_http_methods(["GET", "POST"])
def organiser_cup(request: HttpRequest, cup_id: int) -> HttpResponse:
    """The cup: its teams (a POST adds one), start, the bracket with links to each match."""
    cup = directed_or_404(request, Cup, cup_id)
    if request.method == "POST":
        form = TeamForm(request.POST, players=_club_players(cup))
        if form.is_valid():
            try:
                services.add_team(
                    cup=cup, name=form.cleaned_data["name"], players=form.cleaned_data["players"]
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Team added."))
                return redirect("teammatch:organiser_cup", cup_id=cup.pk)
        return render(request, "teammatch/organiser/cup.html", _cup_context(cup, form), status=400)
    return render(request, "teammatch/organiser/cup.html", _cup_context(cup))


@login_required
@require_http_methods(["GET", "POST"])
def organiser_team(request: HttpRequest, cup_id: int, team_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    team = get_object_or_404(CupTeam, cup=cup, pk=team_id)
    initial = {"name": team.name, "players": [m.player_id for m in team.members.all()]}
    form = TeamForm(request.POST or None, initial=initial, players=_club_players(cup))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.update_team(
                    team=team, name=form.cleaned_data["name"], players=form.cleaned_data["players"]
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Team saved."))
                return redirect("teammatch:organiser_cup", cup_id=cup.pk)
        status = 400
    context = {"cup": cup, "team": team, "form": form}
    return render(request, "teammatch/organiser/team.html", context, status=status)


def _refused(request: HttpRequest, error: DomainError) -> None:
    for line in error.messages:
        messages.error(request, line)


@login_required
@require_POST
def organiser_start(request: HttpRequest, cup_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    try:
        services.start_cup(cup)
    except DomainError as error:
        _refused(request, error)
        return render(request, "teammatch/organiser/cup.html", _cup_context(cup), status=409)
    messages.success(request, _("The cup has started."))
    return redirect("teammatch:organiser_cup", cup_id=cup.pk)


@login_required
@require_POST
def organiser_finish_cup(request: HttpRequest, cup_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    try:
        services.finish_cup(cup)
    except DomainError as error:
        _refused(request, error)
        return render(request, "teammatch/organiser/cup.html", _cup_context(cup), status=409)
    messages.success(request, _("The cup is finished."))
    return redirect("teammatch:organiser_cup", cup_id=cup.pk)


def _match_players(match: CupMatch) -> QuerySet[Player]:
    return Player.objects.filter(
        cup_teams__in=[t for t in (match.team_a_id, match.team_b_id) if t]
    ).distinct()


def _match_context(
    request: HttpRequest,
    match: CupMatch,
    lineup_forms: dict[int, LineupForm] | None = None,
) -> dict[str, Any]:
    lineups = {lu.quarter: lu for lu in QuarterLineup.objects.filter(match=match)}
    players = _match_players(match)
    forms = []
    for quarter in range(1, 5):
        lineup = lineups.get(quarter)
        editable = match.status == CupMatch.Status.PLAYING and quarter >= match.quarter
        form = (lineup_forms or {}).get(quarter)
        if form is None and editable:
            initial = (
                {name: getattr(lineup, f"{name}_id") for name in QuarterLineup.SEAT_FIELDS}
                if lineup
                else {}
            )
            form = LineupForm(players=players, initial=initial, prefix=f"q{quarter}")
        forms.append({"quarter": quarter, "lineup": lineup, "form": form if editable else None})
    rooms = []
    for room in MatchRoom.objects.filter(match=match):
        url = request.build_absolute_uri(reverse("teammatch:room", args=[room.code]))
        rooms.append({"room": room, "url": url})
    sheet = services.match_sheet(match, everything=True)
    progress = [
        {
            "quarter": q.number,
            "open": sum(1 for d in q.deals if d.open),
            "closed": sum(1 for d in q.deals if d.closed),
            "total": len(q.deals),
        }
        for q in sheet.quarters
    ]
    return {
        "cup": match.cup,
        "match": match,
        "lineup_forms": forms,
        "rooms": rooms,
        "sheet": sheet,
        "progress": progress,
        "decided": decided_text(match),
        "everything": True,
    }


@login_required
@require_GET
def organiser_match(request: HttpRequest, cup_id: int, match_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    match = _match_of(cup, match_id)
    return render(request, "teammatch/organiser/match.html", _match_context(request, match))


@login_required
@require_POST
def organiser_lineup(
    request: HttpRequest, cup_id: int, match_id: int, quarter: int
) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    match = _match_of(cup, match_id)
    if not 1 <= quarter <= 4:
        return render(request, "404.html", status=404)
    form = LineupForm(request.POST, players=_match_players(match), prefix=f"q{quarter}")
    if form.is_valid():
        try:
            services.set_lineup(match=match, quarter=quarter, seats=form.seats())
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(
                request, _("Line-up of quarter %(quarter)s saved.") % {"quarter": quarter}
            )
            return redirect("teammatch:organiser_match", cup_id=cup.pk, match_id=match.pk)
    context = _match_context(request, match, {quarter: form})
    if not any(line["form"] is form for line in context["lineup_forms"]):
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, str(message))
    return render(request, "teammatch/organiser/match.html", context, status=400)


@login_required
@require_POST
def organiser_close_quarter(
    request: HttpRequest, cup_id: int, match_id: int, quarter: int
) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    match = _match_of(cup, match_id)
    try:
        services.close_quarter(match=match, quarter=quarter)
    except DomainError as error:
        _refused(request, error)
        context = _match_context(request, match)
        return render(request, "teammatch/organiser/match.html", context, status=409)
    messages.success(request, _("Quarter %(quarter)s closed.") % {"quarter": quarter})
    return redirect("teammatch:organiser_match", cup_id=cup.pk, match_id=match.pk)


@login_required
@require_POST
def organiser_finish_match(request: HttpRequest, cup_id: int, match_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    match = _match_of(cup, match_id)
    try:
        services.finish_match(match=match)
    except DomainError as error:
        _refused(request, error)
        context = _match_context(request, match)
        return render(request, "teammatch/organiser/match.html", context, status=409)
    messages.success(request, _("Match finished."))
    return redirect("teammatch:organiser_match", cup_id=cup.pk, match_id=match.pk)


@login_required
@require_http_methods(["GET", "POST"])
def organiser_result(
    request: HttpRequest, cup_id: int, match_id: int, number: int, room: str
) -> HttpResponse:
    """The director enters or corrects a room's result of a deal, with a reason."""
    cup = directed_or_404(request, Cup, cup_id)
    match = _match_of(cup, match_id)
    deal = get_object_or_404(MatchDeal, match=match, number=number)
    if room not in RoomName.values:
        return render(request, "404.html", status=404)
    result = RoomResult.objects.filter(deal=deal, room=room).first()
    initial = DealOutcomeForm.initial_of(result.outcome) if result else {}
    form = CorrectionForm(request.POST or None, deal=services.rules_deal_of(deal), initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.room_result_director(
                    match=match,
                    room=room,
                    deal_number=number,
                    outcome=form.outcome(),
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Result saved."))
                url = reverse("teammatch:organiser_match", args=[cup.pk, match.pk])
                return redirect(f"{url}#deal-{number}")
        status = 400
    history = RoomResultChange.objects.filter(result=result).order_by("at", "pk") if result else []
    context = {
        "cup": cup,
        "match": match,
        "deal": deal,
        "room_name": RoomName(room).label,
        "result": result,
        "form": form,
        "history": history,
        "writable": match.status == CupMatch.Status.PLAYING,
    }
    return render(request, "teammatch/organiser/result.html", context, status=status)

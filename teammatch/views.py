"""Pages of the cups: public bracket and match sheets, the room phones, the organiser's screens.

Thin views: reads through :mod:`teammatch.selectors` (or ``clubs.access``), writes through
:mod:`teammatch.services`; no ORM call here.

- Public pages show a public cup to everybody and a private one to its club's organisers (a
  preview); anybody else gets a 404. What a viewer may see of the results is
  ``teammatch.publication``'s (the public: only the deals entered in both rooms; directors:
  everything).
- A room phone needs no account: the room's secret code is its key (as a table's code),
  looked up through the kernel (``clubs.phone_codes.phone_page``: an unknown code is a 404,
  too many unknown codes from one address a 429). The page is the kernel's phone skeleton
  (``clubs/phone/page.html``, one ``PhoneCard`` per deal of the quarter being played):

  - ``cups/room/<code>/`` the quarter's deals: a form for each deal still to enter, the
    room's own stored results (never the other room's), ``?correct=<n>`` opens the
    correction form of deal n;
  - ``…/deals/<n>/preview/`` (htmx) the deal's value and the taker's mark this outcome would
    give, or the errors naming their fields (422), nothing stored;
  - ``…/deals/<n>/`` enters a deal: the same outcome again is a replay (nothing written, the
    page says it was already saved), another outcome for an entered deal a conflict (409:
    the page shows the stored result and, while the room may still correct it, the link to
    correct); nothing stored changes;
  - ``…/deals/<n>/correct/`` corrects the room's own entry until the quarter is closed (403
    once closed, or for the director's result), kept in the history with the room's label.
- Organiser screens need a login (else the login page), then an organiser of the cup's club
  (``clubs.access``): a cup of another club is a 404, and a user who organises no club gets a
  403.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import late_arrivals
from clubs.access import directed_by, directed_or_404, user_directs, visible_or_404, visible_to
from clubs.errors import DomainError, StageNotOpen
from clubs.forms import add_error, error_field
from clubs.late_arrivals import LateList, LateRow
from clubs.outcome_forms import CorrectionForm, DealOutcomeForm
from clubs.outcomes import seat_letter
from clubs.phone import PhoneCard, SaveAnswer, flash, json_answer, phone_save, wants_json
from clubs.phone_codes import phone_page
from teammatch import selectors, services
from teammatch.errors import NotOwnEntry, RoomResultConflict, RoomResultReplay
from teammatch.forms import CupForm, LineupForm, TeamForm
from teammatch.models import Cup, CupMatch, MatchRoom, RoomName
from teammatch.phone_entry import ROOM_ENTRY, cup_late_arrivals, late_arrival_handled
from teammatch.presentation import decided_text

# ---------------------------------------------------------------------------------------------
# Public pages


@require_GET
def cup_index(request: HttpRequest) -> HttpResponse:
    cups = visible_to(request.user, Cup)
    return render(request, "teammatch/public/index.html", {"cups": cups})


@require_GET
def cup_bracket(request: HttpRequest, cup_id: int) -> HttpResponse:
    cup = visible_or_404(request, Cup, cup_id)
    directs = user_directs(request.user, cup)
    context = {
        "cup": cup,
        "rounds": selectors.bracket_rounds(cup, directs=directs),
        "everything": directs,
    }
    if request.headers.get("HX-Request"):
        return render(request, "teammatch/public/_bracket.html", context)
    return render(request, "teammatch/public/bracket.html", context)


@require_GET
def match_page(request: HttpRequest, cup_id: int, match_id: int) -> HttpResponse:
    cup = visible_or_404(request, Cup, cup_id)
    match = selectors.cup_match_or_404(cup, match_id)
    if match.bye or not (match.team_a_id and match.team_b_id):
        return redirect("teammatch:bracket", cup_id=cup.pk)
    directs = user_directs(request.user, cup)
    return render(
        request,
        "teammatch/public/match.html",
        {
            "cup": cup,
            "match": match,
            "sheet": selectors.match_sheet(match, directs=directs),
            "everything": directs,
            "decided": decided_text(match),
        },
    )


# ---------------------------------------------------------------------------------------------
# Room phone

_by_room_code = phone_page(selectors.room_for_code, lambda: _("No room has this code."))


def _deal_prefix(number: int) -> str:
    return f"d{number}"


def _room_url(room: MatchRoom) -> str:
    return reverse("teammatch:room", args=[room.code])


def _number_param(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() else None


def _taker_line(page: Any, deal: Any) -> str:
    """Who takes the deal, as the player list names him (the room's taker, at the étui's taker
    seat), not a bare seat letter."""
    seat = seat_letter(deal.taker_seat)
    if page.taker is None:
        return str(_("taker %(seat)s") % {"seat": seat})
    return str(_("taker: %(name)s, seat %(seat)s") % {"name": page.taker, "seat": seat})


def _room_cards(
    room: MatchRoom,
    page: Any,
    *,
    bound: DealOutcomeForm | None = None,
    correct: int | None = None,
) -> tuple[list[PhoneCard], bool]:
    """The cards of the room's page as of now (the page's and, one at a time, the JSON
    answers' of a save), and whether ``bound`` is shown on one of them."""
    url = _room_url(room)
    cards = []
    shown = False
    for deal in page.deals:
        number = deal.number
        result = page.results.get(number)
        correctable = page.may_correct(number)
        correcting = correctable and correct == number
        form = None
        focus = None
        if (page.writable and result is None) or correcting:
            if bound is not None and bound.deal.number == number:
                form, shown = bound, True
                focus = next((name for name in bound.errors if name in bound.fields), None)
            else:
                initial = (
                    DealOutcomeForm.initial_of(result.outcome) if correcting and result else {}
                )
                form = DealOutcomeForm(
                    deal=selectors.rules_deal_of(deal), initial=initial, prefix=_deal_prefix(number)
                )
        save = "teammatch:room_deal_correct" if correcting else "teammatch:room_deal"
        cards.append(
            PhoneCard(
                number=number,
                title=_("Deal %(n)s") % {"n": number},
                subtitle=_taker_line(page, deal),
                done=result is not None,
                form=form,
                correcting=correcting,
                save_url=reverse(save, args=[room.code, number]),
                preview_url=reverse("teammatch:room_deal_preview", args=[room.code, number]),
                fields_template="tournaments/entry/_table_deal_fields.html",
                focus=focus,
                result=result,
                result_template="teammatch/room/_card_result.html",
                correct_url=f"{url}?correct={number}" if correctable else None,
                cancel_url=url,
            )
        )
    return cards, shown


def _render_room_page(
    request: HttpRequest,
    room: MatchRoom,
    *,
    bound: DealOutcomeForm | None = None,
    correct: int | None = None,
    status: int = 200,
    error: str | None = None,
    conflict: RoomResultConflict | None = None,
) -> HttpResponse:
    """The room's page as of now; ``bound`` shows a refused form with its errors, ``correct``
    (a deal number) the correction form of that deal, ``conflict`` the stored result an entry
    ran into."""
    page = selectors.room_page(room)
    url = _room_url(room)
    cards, shown = _room_cards(room, page, bound=bound, correct=correct)
    if bound is not None and not shown and bound.errors and error is None:
        error = " ".join(bound.named_errors())
    conflict_url = None
    if conflict is not None and page.may_correct(conflict.result.deal.number):
        conflict_url = f"{url}?correct={conflict.result.deal.number}"
    context = {
        "page": page,
        "room": page.room,
        "match": page.match,
        "cup": page.cup,
        "cards": cards,
        "error": error,
        "conflict": conflict,
        "conflict_correct_url": conflict_url,
    }
    return render(request, "teammatch/room.html", context, status=status)


def _room_card_html(
    request: HttpRequest,
    room: MatchRoom,
    number: int,
    *,
    bound: DealOutcomeForm | None = None,
    correct: int | None = None,
) -> str:
    """Deal ``number``'s card as the room's page renders it now ("" when the page does not
    show that deal: another quarter's)."""
    page = selectors.room_page(room)
    cards, _shown = _room_cards(room, page, bound=bound, correct=correct)
    card = next((c for c in cards if c.number == number), None)
    if card is None:
        return ""
    return render_to_string("clubs/phone/_card.html", {"card": card}, request=request)


@require_GET
@_by_room_code
def room_phone(request: HttpRequest, room: MatchRoom) -> HttpResponse:
    return _render_room_page(request, room, correct=_number_param(request.GET.get("correct")))


@require_POST
@_by_room_code
def room_deal_preview(request: HttpRequest, room: MatchRoom, number: int) -> HttpResponse:
    """htmx: the value and the taker's mark this outcome would give (the scoring the save
    uses), or its errors naming their fields (422); nothing stored. Only the deals of the
    quarter being played: the hand checks speak of the cards."""
    deal = selectors.match_deal_or_404(room.match, number)
    if deal.quarter != room.match.quarter:
        message = _("Deal %(deal)s is not in quarter %(quarter)s, the quarter being played.") % {
            "deal": number,
            "quarter": room.match.quarter,
        }
        context: dict[str, Any] = {"errors": [message]}
        return render(request, "teammatch/room/_preview.html", context, status=403)
    form = DealOutcomeForm(
        request.POST, deal=selectors.rules_deal_of(deal), prefix=_deal_prefix(number)
    )
    if not form.is_valid() or form.scored is None:
        # Only what was typed: a field not filled in yet is no error while the room taps.
        context = {"errors": form.named_errors(required=False), "incomplete": True}
        return render(request, "teammatch/room/_preview.html", context, status=422)
    scored = form.scored
    context = {"value": scored.value, "taker_mark": scored.marks[scored.taker_seat]}
    return render(request, "teammatch/room/_preview.html", context)


def _room_write(
    request: HttpRequest, room: MatchRoom, number: int, *, correcting: bool
) -> HttpResponse:
    """Enter (or correct) deal ``number`` through the kernel's phone save (the stored key, the
    late arrivals); a page or a redirect as before, or JSON to ``Accept: application/json``."""
    deal = selectors.match_deal(room.match, number)
    if deal is None:
        message = _("This match has no deal %(deal)s.") % {"deal": number}
        if wants_json(request):
            unknown = SaveAnswer("refused", number, 404, code="unknown_deal", message=message)
            return json_answer(unknown, "")
        return _render_room_page(request, room, status=404, error=message)
    form = DealOutcomeForm(
        request.POST, deal=selectors.rules_deal_of(deal), prefix=_deal_prefix(number)
    )
    write = services.room_result_table_correct if correcting else services.room_result_enter

    def on_form(error: DomainError) -> bool:
        if error_field(form, error.field) and not isinstance(error, StageNotOpen | NotOwnEntry):
            add_error(form, error)
            return True
        return False

    answer = phone_save(
        request, ROOM_ENTRY, holder=room, deal=number, form=form, on_form=on_form,
        outcome=lambda: form.outcome(),
        write=lambda: write(room=room, deal_number=number, outcome=form.outcome()),
        saved=_("Deal %(deal)s corrected.") if correcting else _("Deal %(deal)s saved."),
    )  # fmt: skip
    invalid_form = answer.status == "invalid" and bool(form.errors)
    correct = number if correcting else None
    if wants_json(request):
        bound = form if invalid_form else None
        card = _room_card_html(
            request, room, number, bound=bound, correct=correct if bound else None
        )
        return json_answer(answer, card)
    if answer.status in ("stored", "replayed"):
        flash(request, answer)
        return redirect(f"{_room_url(room)}#deal-{number}")
    error = answer.error
    assert error is not None
    if isinstance(error, RoomResultConflict):
        return _render_room_page(request, room, status=409, conflict=error)
    if correcting and isinstance(error, StageNotOpen | NotOwnEntry):
        return _render_room_page(request, room, status=403, error=error.message)
    if invalid_form:
        return _render_room_page(request, room, bound=form, correct=correct, status=400)
    if correcting and error.code != "idempotency_key_reused":
        return _render_room_page(request, room, status=400, error=error.message)
    return _render_room_page(request, room, status=409, error=error.message)


@require_POST
@_by_room_code
def room_deal_save(request: HttpRequest, room: MatchRoom, number: int) -> HttpResponse:
    return _room_write(request, room, number, correcting=False)


@require_POST
@_by_room_code
def room_deal_correct(request: HttpRequest, room: MatchRoom, number: int) -> HttpResponse:
    """The room corrects its own entry of deal ``number``
    (``services.room_result_table_correct``)."""
    return _room_write(request, room, number, correcting=True)


# ---------------------------------------------------------------------------------------------
# Organiser screens


def _require_organiser(request: HttpRequest) -> QuerySet[Any]:
    if not selectors.organises_a_club(request.user):
        raise PermissionDenied(_("You organise no club."))
    return selectors.organised_clubs(request.user)


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
                cup = services.cup_create(
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


def _late_list(cup: Cup, page: str = "") -> LateList:
    """Page ``page`` of the cup's late arrivals to handle (``clubs.late_arrivals``), as its
    page lists them."""

    def row(arrival: Any) -> LateRow:
        return LateRow(
            arrival=arrival,
            where=str(arrival.holder),
            fix_url=reverse(
                "teammatch:organiser_result",
                args=[cup.pk, arrival.holder.match_id, arrival.deal, arrival.holder.room],
            ),
            handled_url=reverse("teammatch:organiser_late_handled", args=[cup.pk, arrival.pk]),
        )

    def url(number: int) -> str:
        return reverse("teammatch:organiser_cup", args=[cup.pk]) + f"?late={number}"

    return late_arrivals.late_list(cup_late_arrivals(cup), page, row, url)


def _cup_context(
    cup: Cup, team_form: TeamForm | None = None, late_page: str = ""
) -> dict[str, Any]:
    started = cup.status != Cup.Status.DRAFT
    return {
        "late": _late_list(cup, late_page) if started else None,
        "cup": cup,
        "teams": selectors.cup_teams(cup),
        "team_form": team_form or TeamForm(players=selectors.club_players(cup)),
        "rounds": selectors.bracket_rounds(cup, directs=True) if started else [],
        "everything": True,
        "organiser": True,
    }


@login_required
@require_http_methods(["GET", "POST"])
def organiser_cup(request: HttpRequest, cup_id: int) -> HttpResponse:
    """The cup: its teams (a POST adds one), start, the bracket with links to each match."""
    cup = directed_or_404(request, Cup, cup_id)
    if request.method == "POST":
        form = TeamForm(request.POST, players=selectors.club_players(cup))
        if form.is_valid():
            try:
                services.cup_team_add(
                    cup=cup, name=form.cleaned_data["name"], players=form.cleaned_data["players"]
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Team added."))
                return redirect("teammatch:organiser_cup", cup_id=cup.pk)
        return render(request, "teammatch/organiser/cup.html", _cup_context(cup, form), status=400)
    context = _cup_context(cup, late_page=late_arrivals.page_param(request))
    return render(request, "teammatch/organiser/cup.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def organiser_team(request: HttpRequest, cup_id: int, team_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    team = selectors.cup_team_or_404(cup, team_id)
    initial = {"name": team.name, "players": selectors.team_player_ids(team)}
    form = TeamForm(request.POST or None, initial=initial, players=selectors.club_players(cup))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.cup_team_update(
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
def organiser_late_handled(request: HttpRequest, cup_id: int, arrival: int) -> HttpResponse:
    """The director has dealt with late arrival ``arrival`` of the cup: it leaves the list."""
    cup = directed_or_404(request, Cup, cup_id)
    if not late_arrival_handled(cup, arrival):
        raise Http404(_("No such late arrival."))
    messages.success(request, _("Late arrival marked handled."))
    return redirect("teammatch:organiser_cup", cup_id=cup.pk)


@login_required
@require_POST
def organiser_start(request: HttpRequest, cup_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    try:
        services.cup_start(cup=cup)
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
        services.cup_finish(cup=cup)
    except DomainError as error:
        _refused(request, error)
        return render(request, "teammatch/organiser/cup.html", _cup_context(cup), status=409)
    messages.success(request, _("The cup is finished."))
    return redirect("teammatch:organiser_cup", cup_id=cup.pk)


def _match_context(
    request: HttpRequest,
    match: CupMatch,
    lineup_forms: dict[int, LineupForm] | None = None,
) -> dict[str, Any]:
    control = selectors.match_control(match)
    forms = []
    for quarter in range(1, 5):
        lineup = control.lineups.get(quarter)
        editable = match.status == CupMatch.Status.PLAYING and quarter >= match.quarter
        form = (lineup_forms or {}).get(quarter)
        if form is None and editable:
            initial = (
                {name: getattr(lineup, f"{name}_id") for name in lineup.SEAT_FIELDS}
                if lineup
                else {}
            )
            form = LineupForm(players=control.players, initial=initial, prefix=f"q{quarter}")
        forms.append({"quarter": quarter, "lineup": lineup, "form": form if editable else None})
    rooms = [
        {"room": room, "url": request.build_absolute_uri(_room_url(room))} for room in control.rooms
    ]
    return {
        "cup": match.cup,
        "match": match,
        "lineup_forms": forms,
        "rooms": rooms,
        "sheet": control.sheet,
        "progress": control.progress,
        "decided": decided_text(match),
        "everything": True,
    }


@login_required
@require_GET
def organiser_match(request: HttpRequest, cup_id: int, match_id: int) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    match = selectors.cup_match_or_404(cup, match_id)
    return render(request, "teammatch/organiser/match.html", _match_context(request, match))


@login_required
@require_POST
def organiser_lineup(
    request: HttpRequest, cup_id: int, match_id: int, quarter: int
) -> HttpResponse:
    cup = directed_or_404(request, Cup, cup_id)
    match = selectors.cup_match_or_404(cup, match_id)
    if not 1 <= quarter <= 4:
        return render(request, "404.html", status=404)
    form = LineupForm(request.POST, players=selectors.match_players(match), prefix=f"q{quarter}")
    if form.is_valid():
        try:
            services.match_lineup_set(match=match, quarter=quarter, seats=form.seats())
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
    match = selectors.cup_match_or_404(cup, match_id)
    try:
        services.match_quarter_close(match=match, quarter=quarter)
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
    match = selectors.cup_match_or_404(cup, match_id)
    try:
        services.match_finish(match=match)
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
    match = selectors.cup_match_or_404(cup, match_id)
    deal = selectors.match_deal_or_404(match, number)
    if room not in RoomName.values:
        return render(request, "404.html", status=404)
    result = selectors.room_result(deal, room)
    initial = DealOutcomeForm.initial_of(result.outcome) if result else {}
    form = CorrectionForm(request.POST or None, deal=selectors.rules_deal_of(deal), initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            url = reverse("teammatch:organiser_match", args=[cup.pk, match.pk])
            try:
                services.room_result_director_correct(
                    match=match,
                    room=room,
                    deal_number=number,
                    outcome=form.outcome(),
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except RoomResultReplay:
                messages.info(request, _("The stored result is this very one: nothing changed."))
                return redirect(f"{url}#deal-{number}")
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Result saved."))
                return redirect(f"{url}#deal-{number}")
        status = 400
    context = {
        "cup": cup,
        "match": match,
        "deal": deal,
        "room_name": RoomName(room).label,
        "result": result,
        "form": form,
        "history": selectors.room_result_history(result) if result else [],
        "writable": match.status == CupMatch.Status.PLAYING,
    }
    return render(request, "teammatch/organiser/result.html", context, status=status)

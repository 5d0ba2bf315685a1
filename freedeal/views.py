"""Pages of free-deal tournaments (thin: reads through ``freedeal.selectors``, writes through
``freedeal.services``; no query of their own).

- Public (a public tournament for everybody, a private one for its club's organisers, else
  404): the index, the ranking, the seating, a player's card; "provisional" comes from
  ``freedeal.publication``.
- Table phone (no account: the table's secret code is the credential, looked up through the
  kernel's throttled path, ``clubs.phone_codes.phone_page``), on the kernel's phone skeleton
  (``clubs/phone/page.html`` with ``clubs.phone.PhoneCard``s):

  - ``free-deal/table/<code>/``: the open party at that table, one card per deal: an entered
    deal shows its result and a "Correct this entry" link (``?correct=<n>`` opens its
    correction form), a deal still to enter its form;
  - ``.../deal/<n>/preview/`` (htmx): each player's mark this outcome would give, computed by
    the rules engine under the tournament's ruleset, or the errors naming their fields (422);
    nothing stored;
  - ``.../deal/<n>/``: enters the deal. The very outcome already stored is a replay (nothing
    written; back to the table, "already saved"); another outcome for an entered deal is a
    conflict (409: the stored result, nothing changed, and the link to correct it while the
    party is open); outside the open party, 403;
  - ``.../deal/<n>/correct/``: the explicit correction of an entered deal of the open party,
    kept in the history as the table's.
- Organiser (login, then an organiser of the tournament's club, else 404): the list, the
  creation, the tournament's page (settings, registration, start, table codes, progress,
  results grid, close a party, finish) and the director's correction of a deal (any time,
  with a reason).

A refused operation shows the service's translated message with a 4xx (never a 500).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import late_arrivals
from clubs.access import directs, user_directs, visible_or_404
from clubs.errors import DomainError, NotOwnEntry, StageNotOpen
from clubs.forms import add_error, error_field
from clubs.late_arrivals import LateList, LateRow
from clubs.phone import PhoneCard, flash, json_answer, phone_save, wants_json
from clubs.phone_codes import phone_page
from clubs.register import register_namesakes
from freedeal import outcomes, selectors, services
from freedeal.errors import PartyNotOpen, ResultConflict, ResultReplay
from freedeal.forms import (
    ConfirmForm,
    CorrectionForm,
    DealForm,
    NewPlayerForm,
    RegisterForm,
    TournamentForm,
)
from freedeal.models import FreeDealResult, FreeDealTable, FreeDealTournament
from freedeal.phone_entry import (
    FREE_DEAL_ENTRY,
    late_arrival_handled,
    tournament_late_arrivals,
)
from freedeal.publication import free_deal_publication
from freedeal.selectors import TablePage


def _ruleset_text(tournament: FreeDealTournament) -> str:
    ruleset = outcomes.ruleset_of(tournament)
    text = _(ruleset.name.label)
    if ruleset.pousse_multiplier is not None:
        text += " · " + _("pousse ×%(m)s") % {"m": ruleset.pousse_multiplier}
    if ruleset.flambeuse:
        text += " · " + _("flambeuse at tables of 5")
    return text


def _tie_break_text(tournament: FreeDealTournament) -> str:
    if tournament.tie_break == FreeDealTournament.TieBreak.BEST_PARTY:
        return _(
            "Ranked by the sum of the marks; equal totals are separated by the better best "
            "party (the highest mark of one party), then share the place."
        )
    return _("Ranked by the sum of the marks; equal totals share the place.")


def _common(tournament: FreeDealTournament) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "ruleset_text": _ruleset_text(tournament),
        "tie_break_text": _tie_break_text(tournament),
    }


# --------------------------------------------------------------------------- public
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.free_deal_list_visible(request.user)
    return render(request, "freedeal/index.html", {"tournaments": tournaments})


def _visible(request: HttpRequest, pk: int) -> FreeDealTournament:
    return visible_or_404(request, FreeDealTournament, pk)


def _publication_context(request: HttpRequest, tournament: FreeDealTournament) -> dict[str, Any]:
    directs_it = user_directs(request.user, tournament)
    return {"publication": free_deal_publication(tournament, directs=directs_it)}


@require_GET
def ranking_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    ranking = selectors.free_deal_ranking(tournament)
    context = _common(tournament) | _publication_context(request, tournament)
    context |= {
        "ranking": ranking,
        "party_numbers": list(range(1, ranking.parties + 1)),
        "lines": [{"row": row, "entry": ranking.entries[row.player]} for row in ranking.rows],
    }
    return render(request, "freedeal/ranking.html", context)


@require_GET
def seating_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    context = _common(tournament) | {"parties": selectors.free_deal_seating(tournament)}
    return render(request, "freedeal/seating.html", context)


@require_GET
def player_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _visible(request, pk)
    entry = selectors.free_deal_entry(tournament, number)
    if entry is None:
        raise Http404(_("No such player."))
    cards = selectors.free_deal_player_card(tournament, number)
    context = _common(tournament) | _publication_context(request, tournament)
    context |= {"entry": entry, "cards": cards, "total": sum(card.mark for card in cards)}
    return render(request, "freedeal/player.html", context)


# --------------------------------------------------------------------------- table phone
@dataclass
class TableCard(PhoneCard):
    """A deal on the table phone (the kernel's card, with the names its result shows)."""

    marks: list[tuple[int, str, int]] = field(default_factory=list)
    taker: str = ""
    partner: str = ""


def _table_url(table: FreeDealTable) -> str:
    return reverse("freedeal:table", args=[table.code])


def _prefix(deal: int) -> str:
    return f"d{deal}"


def _deal_form(
    page: TablePage, deal: int, data: Any = None, initial: dict[str, Any] | None = None
) -> DealForm:
    return DealForm(
        data,
        initial=initial or {},
        tournament=page.tournament,
        seated=page.seated,
        names=page.names,
        prefix=_prefix(deal),
    )


def _table_cards(
    table: FreeDealTable,
    page: TablePage,
    *,
    bound: DealForm | None = None,
    bound_deal: int | None = None,
    correct: int | None = None,
) -> list[TableCard]:
    """The cards of the open party at ``table`` as of now (the page's and, one at a time, the
    JSON answers' of a save)."""
    url = _table_url(table)
    cards: list[TableCard] = []
    for deal in page.deals:
        stored = deal.result
        correcting = stored is not None and correct == deal.number
        form = None
        focus = None
        if stored is None or correcting:
            if bound is not None and bound_deal == deal.number:
                form = bound
                focus = next((name for name in bound.errors if name in bound.fields), None)
            else:
                initial = DealForm.initial_of(stored) if correcting else None
                form = _deal_form(page, deal.number, initial=initial)
        route = "freedeal:table_correct" if correcting else "freedeal:table_deal"
        cards.append(
            TableCard(
                number=deal.number,
                title=_("Deal %(n)s") % {"n": deal.number},
                subtitle=_("dealer %(name)s") % {"name": deal.dealer_name},
                done=stored is not None,
                form=form,
                correcting=correcting,
                save_url=reverse(route, args=[table.code, deal.number]),
                preview_url=reverse("freedeal:table_preview", args=[table.code, deal.number]),
                fields_template="freedeal/_deal_fields.html",
                hidden_inputs={"party": page.party},
                focus=focus,
                result=stored,
                result_template="freedeal/_card_result.html",
                correct_url=f"{url}?correct={deal.number}" if stored is not None else None,
                cancel_url=url,
                marks=page.marks(stored) if stored is not None else [],
                taker=page.names.get(stored.taker or 0, "") if stored is not None else "",
                partner=page.names.get(stored.partner or 0, "") if stored is not None else "",
            )
        )
    return cards


def _render_table_page(
    request: HttpRequest,
    table: FreeDealTable,
    *,
    bound: DealForm | None = None,
    bound_deal: int | None = None,
    correct: int | None = None,
    status: int = 200,
    error: str | None = None,
) -> HttpResponse:
    """The open party at ``table``; ``bound`` re-shows the form of ``bound_deal`` with its
    errors; ``correct`` (a deal number) opens the correction form of that entered deal."""
    page = selectors.free_deal_table_page(table)
    cards = _table_cards(table, page, bound=bound, bound_deal=bound_deal, correct=correct)
    context = _common(page.tournament) | {
        "table": table,
        "party": page.party,
        "page": page,
        "cards": cards,
        "complete": bool(page.deals) and all(d.result is not None for d in page.deals),
        "error": error,
    }
    return render(request, "freedeal/table.html", context, status=status)


def _deal_card_html(
    request: HttpRequest,
    table: FreeDealTable,
    deal: int,
    *,
    bound: DealForm | None = None,
    correct: int | None = None,
) -> str:
    """Deal ``deal``'s card as the table's page renders it now (the open party's; "" when no
    party is open)."""
    page = selectors.free_deal_table_page(table)
    cards = _table_cards(
        table, page, bound=bound, bound_deal=deal if bound else None, correct=correct
    )
    card = next((c for c in cards if c.number == deal), None)
    if card is None:
        return ""
    return render_to_string("clubs/phone/_card.html", {"card": card}, request=request)


def _posted_party(request: HttpRequest, tournament: FreeDealTournament) -> int | None:
    """The party the phone's page showed (its hidden ``party``), else the open one; None when
    neither names a party of the tournament."""
    raw = str(request.POST.get("party", "")).strip()
    if raw.isdigit() and tournament.seating and 1 <= int(raw) <= tournament.parties:
        return int(raw)
    return tournament.open_party


def _whole_number(value: Any) -> int | None:
    raw = str(value or "").strip()
    return int(raw) if raw.isdigit() else None


def _party_refusal(tournament: FreeDealTournament, party: int | None) -> PartyNotOpen:
    return PartyNotOpen(party=party, open_party=tournament.open_party, running=tournament.running)


def _bound_form(
    request: HttpRequest, table: FreeDealTable, party: int, deal: int
) -> tuple[TablePage, DealForm]:
    """The form posted for ``deal``, for the table's seating in ``party``."""
    tournament = table.tournament
    page = TablePage(
        tournament=tournament,
        table=table,
        party=party,
        seated=tournament.table_players(party, table.number),
        names=selectors.free_deal_names(tournament),
        deals=[],
    )
    return page, _deal_form(page, deal, request.POST)


def _unknown_deal(tournament: FreeDealTournament) -> str:
    return _("A party has deals 1 to %(max)s.") % {"max": tournament.deals_per_party}


def _render_conflict(
    request: HttpRequest, table: FreeDealTable, conflict: ResultConflict
) -> HttpResponse:
    """409: the stored result of the deal, nothing changed; the link to correct it while its
    party is open at the table."""
    stored = conflict.result
    tournament = table.tournament
    names = selectors.free_deal_names(tournament)
    seated = tournament.table_players(stored.party, table.number)
    correct_url = None
    if stored.party == tournament.open_party:
        correct_url = f"{_table_url(table)}?correct={stored.deal}#deal-{stored.deal}"
    context = _common(tournament) | {
        "table": table,
        "result": stored,
        "message": conflict.message,
        "taker": names.get(stored.taker or 0, ""),
        "partner": names.get(stored.partner or 0, ""),
        "marks": [(n, names.get(n, ""), stored.mark_of(n)) for n in seated],
        "correct_url": correct_url,
        "back": _table_url(table) + f"#deal-{stored.deal}",
    }
    return render(request, "freedeal/conflict.html", context, status=409)


_by_table_code = phone_page(
    selectors.free_deal_table_for_code, lambda: _("No table has this code.")
)


@require_GET
@_by_table_code
def table_phone(request: HttpRequest, table: FreeDealTable) -> HttpResponse:
    return _render_table_page(request, table, correct=_whole_number(request.GET.get("correct")))


@require_POST
@_by_table_code
def table_deal_preview(request: HttpRequest, table: FreeDealTable, deal: int) -> HttpResponse:
    """htmx: each player's mark this outcome would give, or the errors naming their fields
    (422); nothing stored."""
    tournament = table.tournament
    party = _posted_party(request, tournament)
    context: dict[str, Any] = {"scored": None, "errors": []}
    if party is None:
        context["errors"] = [_party_refusal(tournament, None).message]
    elif not 1 <= deal <= tournament.deals_per_party:
        context["errors"] = [
            DomainError("unknown_deal", _unknown_deal(tournament), "deal").describe()
        ]
    else:
        page, form = _bound_form(request, table, party, deal)
        if form.is_valid() and form.scored is not None:
            scored = form.scored
            context["scored"] = scored
            context["marks"] = [(n, name, int(scored["marks"][str(n)])) for n, name in page.players]
        else:
            # Only what was typed: a field not filled in yet is no error while the table taps.
            context["errors"] = form.named_errors(required=False)
    status = 200 if context["scored"] is not None else 422
    return render(request, "freedeal/_preview.html", context, status=status)


def _table_write(
    request: HttpRequest, table: FreeDealTable, deal: int, *, correcting: bool
) -> HttpResponse:
    """Enter (or correct) ``deal`` through the kernel's phone save (the stored key, the late
    arrivals); a page or a redirect as before, or JSON to ``Accept: application/json``."""
    tournament = table.tournament
    party = _posted_party(request, tournament)
    form: DealForm | None = None
    refusal: DomainError | None = None
    if party is None:
        refusal = _party_refusal(tournament, None)
    elif not 1 <= deal <= tournament.deals_per_party:
        refusal = DomainError("unknown_deal", _unknown_deal(tournament), field="deal")
    else:
        _page, form = _bound_form(request, table, party, deal)
        if not form.is_valid() and party != tournament.open_party:
            refusal = _party_refusal(tournament, party)  # the page showed a party closed since
    write = (
        services.free_deal_result_table_correct if correcting else services.free_deal_result_enter
    )

    def on_form(error: DomainError) -> bool:
        mine = form is not None and error_field(form, error.field)
        if mine and form is not None and not isinstance(error, StageNotOpen | NotOwnEntry):
            add_error(form, error)
            return True
        return False

    def values() -> dict[str, Any]:
        return form.values() if form is not None else {}

    answer = phone_save(
        request, FREE_DEAL_ENTRY, holder=table, deal=deal, form=form, on_form=on_form,
        refusal=refusal, late_scope={"party": party or 0},
        outcome=lambda: {"party": party, **values()},
        write=lambda: write(table=table, deal=deal, data=values(), party=party),
        saved=_("Deal %(deal)s corrected.") if correcting else _("Deal %(deal)s saved."),
    )  # fmt: skip
    invalid_form = answer.status == "invalid" and form is not None and bool(form.errors)
    correct = deal if correcting else None
    if wants_json(request):
        bound = form if invalid_form else None
        card = _deal_card_html(
            request, table, deal, bound=bound, correct=correct if bound else None
        )
        return json_answer(answer, card)
    if answer.status in ("stored", "replayed"):
        flash(request, answer)
        return redirect(_table_url(table) + f"#deal-{deal}")
    error = answer.error
    assert error is not None
    if isinstance(error, ResultConflict):
        return _render_conflict(request, table, error)
    if isinstance(error, StageNotOpen | NotOwnEntry):
        return _render_table_page(request, table, status=403, error=error.message)
    if invalid_form:
        return _render_table_page(
            request, table, bound=form, bound_deal=deal, correct=correct, status=400
        )
    status = 409 if error.code == "idempotency_key_reused" else 400
    text = error.message if form is None else error.describe()
    return _render_table_page(request, table, correct=correct, status=status, error=text)


@require_POST
@_by_table_code
def table_deal_save(request: HttpRequest, table: FreeDealTable, deal: int) -> HttpResponse:
    return _table_write(request, table, deal, correcting=False)


@require_POST
@_by_table_code
def table_deal_correct(request: HttpRequest, table: FreeDealTable, deal: int) -> HttpResponse:
    """The table corrects its entry of ``deal`` (the open party, until the director closes
    it); the history keeps the table's correction."""
    return _table_write(request, table, deal, correcting=True)


# --------------------------------------------------------------------------- organiser
@login_required
@require_GET
def organiser_list(request: HttpRequest) -> HttpResponse:
    context = {
        "tournaments": selectors.free_deal_list_directed(request.user),
        "can_create": selectors.free_deal_may_create(request.user),
    }
    return render(request, "freedeal/organiser_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def organiser_create(request: HttpRequest) -> HttpResponse:
    if not selectors.free_deal_may_create(request.user):
        raise Http404(_("You organise no club."))
    clubs = selectors.free_deal_creator_clubs(request.user)
    form = TournamentForm(request.POST or None, clubs=clubs)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                tournament = services.free_deal_create(
                    club=data["club"],
                    name=data["name"],
                    date=data["date"],
                    ruleset=form.ruleset(),
                    parties=data["parties"],
                    deals_per_party=data["deals_per_party"],
                    tie_break=data["tie_break"],
                    public=data["public"],
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Tournament created: register its players."))
                return redirect("freedeal:organiser_detail", tournament.pk)
        status = 400
    return render(request, "freedeal/organiser_form.html", {"form": form}, status=status)


def _late_list(tournament: FreeDealTournament, page: str) -> LateList:
    """Page ``page`` of the tournament's late arrivals to handle (``clubs.late_arrivals``),
    as its page lists them; the correction link opens the party the phone sent (else the
    open one)."""

    def row(arrival: Any) -> LateRow:
        party = arrival.party or _whole_number((arrival.outcome or {}).get("party"))
        if party is None or not 1 <= party <= tournament.parties:
            party = tournament.open_party or 1
        fix_url = reverse(
            "freedeal:organiser_correct",
            args=[tournament.pk, party, arrival.holder.number, arrival.deal],
        )
        return LateRow(
            arrival=arrival,
            where=_("Table %(number)s") % {"number": arrival.holder.number},
            fix_url=fix_url,
            handled_url=reverse(
                "freedeal:organiser_late_handled", args=[tournament.pk, arrival.pk]
            ),
        )

    def url(number: int) -> str:
        return reverse("freedeal:organiser_detail", args=[tournament.pk]) + f"?late={number}"

    return late_arrivals.late_list(tournament_late_arrivals(tournament), page, row, url)


def _detail_context(tournament: FreeDealTournament, request: HttpRequest) -> dict[str, Any]:
    context = _common(tournament) | {
        "entries": list(selectors.free_deal_entries(tournament).values()),
        "settings_form": TournamentForm(initial=TournamentForm.initial_of(tournament)),
        "register_form": RegisterForm(tournament=tournament),
        "new_player_form": NewPlayerForm(),
        "confirm_form": ConfirmForm(),
    }
    if tournament.status == FreeDealTournament.Status.DRAFT:
        previous, players = selectors.free_deal_previous_players(tournament)
        context |= {"previous_tournament": previous, "previous_players": players}
    if tournament.status != FreeDealTournament.Status.DRAFT:
        context |= {
            "tables": [
                {"table": t, "url": request.build_absolute_uri(_table_url(t))}
                for t in selectors.free_deal_tables(tournament)
            ],
            "progress": selectors.free_deal_progress(tournament),
            "grid": selectors.free_deal_results_grid(tournament),
            "missing": selectors.free_deal_open_party_missing(tournament),
            "late": _late_list(tournament, late_arrivals.page_param(request)),
        }
    return context


@login_required
@require_GET
@directs(FreeDealTournament)
def organiser_detail(request: HttpRequest, tournament: FreeDealTournament) -> HttpResponse:
    return render(request, "freedeal/organiser_detail.html", _detail_context(tournament, request))


def _refused(
    request: HttpRequest, tournament: FreeDealTournament, error: DomainError, **extra: Any
) -> HttpResponse:
    context = _detail_context(tournament, request) | {"errors": error.messages} | extra
    return render(request, "freedeal/organiser_detail.html", context, status=400)


def _action(
    request: HttpRequest, tournament: FreeDealTournament, action: str
) -> HttpResponse | str:
    """Carry out one button of the tournament's page: the success message, or the page
    refusing the form (400); a refused service raises its :class:`DomainError`."""
    if action == "settings":
        form = TournamentForm(request.POST)
        if not form.is_valid():
            invalid = DomainError("invalid", _("Check the settings."))
            return _refused(request, tournament, invalid, settings_form=form)
        data = form.cleaned_data
        services.free_deal_settings_update(
            tournament=tournament,
            name=data["name"],
            date=data["date"],
            ruleset=form.ruleset(),
            parties=data["parties"],
            deals_per_party=data["deals_per_party"],
            tie_break=data["tie_break"],
            public=data["public"],
        )
        return _("Settings saved.")
    if action == "register":
        register = RegisterForm(request.POST, tournament=tournament)
        if not register.is_valid():
            invalid = DomainError("invalid", _("Choose a player of the club."))
            return _refused(request, tournament, invalid, register_form=register)
        added = services.free_deal_players_register(
            tournament=tournament, players=list(register.cleaned_data["player"])
        )
        count = len(added)
        return ngettext("%(count)s player registered.", "%(count)s players registered.", count) % {
            "count": count
        }
    if action == "register_new":
        new = NewPlayerForm(request.POST)
        if not new.is_valid():
            invalid = DomainError("invalid", _("Give the player's first and last names."))
            return _refused(request, tournament, invalid, new_player_form=new)
        data = new.names_data()
        namesakes = [] if new.cleaned_data["confirm_new"] else register_namesakes(
            club=tournament.club, first_name=data["first_name"], last_name=data["last_name"],
            licence=data["licence"], active_only=True,
        )  # fmt: skip
        if namesakes:
            context = _detail_context(tournament, request)
            context |= {"new_player_form": new, "namesakes": namesakes}
            return render(request, "freedeal/organiser_detail.html", context)
        services.free_deal_player_register_new(tournament=tournament, **data)
        return _("Player registered.")
    if action == "unregister":
        number = _whole_number(request.POST.get("number"))
        if number is None:
            raise DomainError("unknown_player", _("No such player."))
        services.free_deal_player_remove(tournament=tournament, number=number)
        return _("Player removed.")
    if action == "start":
        services.free_deal_start(tournament=tournament)
        return _("Tournament started: the seating is ready.")
    if action == "close_party":
        confirm = bool(request.POST.get("confirm"))
        party = services.free_deal_party_close(tournament=tournament, confirm=confirm)
        return _("Party %(party)s closed.") % {"party": party}
    if action == "finish":
        services.free_deal_finish(tournament=tournament)
        return _("Tournament finished: the ranking is final.")
    raise Http404(_("Unknown action."))


@login_required
@require_POST
@directs(FreeDealTournament)
def organiser_action(
    request: HttpRequest, tournament: FreeDealTournament, action: str
) -> HttpResponse:
    """One of the tournament page's buttons (``action`` from the URL)."""
    try:
        done = _action(request, tournament, action)
    except DomainError as error:
        return _refused(request, tournament, error)
    if isinstance(done, HttpResponse):
        return done
    messages.success(request, done)
    return redirect("freedeal:organiser_detail", tournament.pk)


@login_required
@require_POST
@directs(FreeDealTournament)
def organiser_late_handled(
    request: HttpRequest, tournament: FreeDealTournament, arrival: int
) -> HttpResponse:
    """The director has dealt with late arrival ``arrival``: it leaves the list."""
    if not late_arrival_handled(tournament, arrival):
        raise Http404(_("No such late arrival."))
    messages.success(request, _("Late arrival marked handled."))
    return redirect("freedeal:organiser_detail", tournament.pk)


@login_required
@require_http_methods(["GET", "POST"])
@directs(FreeDealTournament)
def organiser_correct(
    request: HttpRequest, tournament: FreeDealTournament, party: int, table: int, deal: int
) -> HttpResponse:
    """The director enters or corrects a deal of a party begun, with a reason (history)."""
    table_obj = selectors.free_deal_table_by_number(tournament, table)
    if (
        table_obj is None
        or tournament.status == FreeDealTournament.Status.DRAFT
        or not 1 <= party <= tournament.parties
        or not 1 <= deal <= tournament.deals_per_party
        or (tournament.open_party is not None and party > tournament.open_party)
    ):
        raise Http404(_("No such deal."))
    seated = tournament.table_players(party, table)
    names = selectors.free_deal_names(tournament)
    result: FreeDealResult | None = selectors.free_deal_result(table_obj, party, deal)
    form = CorrectionForm(
        request.POST or None,
        initial=DealForm.initial_of(result),
        tournament=tournament,
        seated=seated,
        names=names,
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.free_deal_result_director_correct(
                    tournament=tournament,
                    table_number=table,
                    party=party,
                    deal=deal,
                    data=form.values(),
                    user=request.user,  # type: ignore[arg-type]
                    reason=form.cleaned_data["reason"],
                )
            except ResultReplay:
                messages.info(request, _("Identical to the stored result: nothing changed."))
                return redirect("freedeal:organiser_detail", tournament.pk)
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Correction saved."))
                return redirect("freedeal:organiser_detail", tournament.pk)
        status = 400
    context = _common(tournament) | {
        "form": form,
        "party": party,
        "table": table_obj,
        "deal": deal,
        "result": result,
        "history": selectors.free_deal_result_history(result),
        "seated": [(n, names.get(n, "")) for n in seated],
    }
    return render(request, "freedeal/organiser_correct.html", context, status=status)

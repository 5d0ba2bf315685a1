"""Pages of free-deal tournaments.

- Public (a public tournament for everybody, a private one for its club's organisers, else
  404): the index, the ranking, the seating, a player's card.
- Table phone (no account: the table's secret code is the credential): the open party's deals
  of that table, one form per deal, corrections until the party is closed.
- Organiser (login, then an organiser of the tournament's club, else 404): the list, the
  creation, the tournament's page (settings, registration, start, table codes, progress,
  results grid, close a party, finish) and the director's correction of a deal.

A refused operation shows the service's translated message with a 400 (never a 500).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.access import clubs_directed_by, directed_by, visible_to
from clubs.errors import DomainError
from clubs.forms import add_error
from freedeal import selectors, services
from freedeal.forms import (
    ConfirmForm,
    CorrectionForm,
    DealForm,
    NewPlayerForm,
    RegisterForm,
    TournamentForm,
)
from freedeal.models import FreeDealResult, FreeDealTable, FreeDealTournament


def _names(tournament: FreeDealTournament) -> dict[int, str]:
    return {number: str(entry.player) for number, entry in selectors.entries(tournament).items()}


def _ruleset_text(tournament: FreeDealTournament) -> str:
    ruleset = services.ruleset_of(tournament)
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


def _seating_rows(tournament: FreeDealTournament) -> list[dict[str, Any]]:
    by_number = selectors.entries(tournament)
    return [
        {
            "party": index + 1,
            "tables": [
                {"number": t + 1, "players": [by_number[n] for n in table]}
                for t, table in enumerate(party)
            ],
        }
        for index, party in enumerate(tournament.seating or [])
    ]


# --------------------------------------------------------------------------- public
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    tournaments = visible_to(request.user, FreeDealTournament)[:200]
    return render(request, "freedeal/index.html", {"tournaments": tournaments})


def _visible(request: HttpRequest, pk: int) -> FreeDealTournament:
    return get_object_or_404(visible_to(request.user, FreeDealTournament), pk=pk)


@require_GET
def ranking_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    ranking = selectors.ranking(tournament)
    context = _common(tournament) | {
        "ranking": ranking,
        "party_numbers": list(range(1, ranking.parties + 1)),
        "lines": [{"row": row, "entry": ranking.entries[row.player]} for row in ranking.rows],
    }
    return render(request, "freedeal/ranking.html", context)


@require_GET
def seating_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    context = _common(tournament) | {"parties": _seating_rows(tournament)}
    return render(request, "freedeal/seating.html", context)


@require_GET
def player_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _visible(request, pk)
    entry = tournament.players.select_related("player").filter(number=number).first()
    if entry is None:
        raise Http404(_("No such player."))
    cards = selectors.player_card(tournament, number)
    context = _common(tournament) | {
        "entry": entry,
        "cards": cards,
        "total": sum(card.mark for card in cards),
    }
    return render(request, "freedeal/player.html", context)


# --------------------------------------------------------------------------- table phone
def _phone_context(
    table: FreeDealTable, forms: dict[int, DealForm] | None = None
) -> dict[str, Any]:
    tournament = table.tournament
    party = tournament.open_party
    names = _names(tournament)
    context = _common(tournament) | {"table": table, "party": party, "cards": []}
    if party is None:
        return context
    seated = tournament.table_players(party, table.number)
    results = {
        r.deal: r for r in FreeDealResult.objects.filter(table=table, party=party).order_by("deal")
    }
    cards = []
    for deal in range(1, tournament.deals_per_party + 1):
        result = results.get(deal)
        form = (forms or {}).get(deal) or DealForm(
            initial=DealForm.initial_of(result),
            tournament=tournament,
            seated=seated,
            names=names,
            prefix=f"d{deal}",
        )
        cards.append(
            {
                "deal": deal,
                "result": result,
                "dealer": names.get(services.default_dealer(seated, deal), ""),
                "taker": names.get(result.taker or 0, "") if result else "",
                "partner": names.get(result.partner or 0, "") if result else "",
                "marks": [(n, names.get(n, ""), result.mark_of(n)) for n in seated]
                if result
                else [],
                "form": form,
            }
        )
    context |= {
        "seated": [(n, names.get(n, "")) for n in seated],
        "cards": cards,
        "totals": [
            (n, names.get(n, ""), sum(r.mark_of(n) for r in results.values())) for n in seated
        ],
    }
    return context


@require_GET
def table_phone(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(FreeDealTable.objects.select_related("tournament__club"), code=code)
    return render(request, "freedeal/table.html", _phone_context(table))


@require_POST
def table_deal_save(request: HttpRequest, code: str, deal: int) -> HttpResponse:
    table = get_object_or_404(FreeDealTable.objects.select_related("tournament__club"), code=code)
    tournament = table.tournament
    party = tournament.open_party
    if party is None or not 1 <= deal <= tournament.deals_per_party:
        context = _phone_context(table) | {
            "error": _("This deal cannot be entered: the party is closed or the deal unknown.")
        }
        return render(request, "freedeal/table.html", context, status=400)
    form = DealForm(
        request.POST,
        tournament=tournament,
        seated=tournament.table_players(party, table.number),
        names=_names(tournament),
        prefix=f"d{deal}",
    )
    if form.is_valid():
        try:
            services.enter_from_table(table, deal, form.values())
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Deal %(deal)s saved.") % {"deal": deal})
            return redirect(reverse("freedeal:table", args=[code]) + f"#deal-{deal}")
    context = _phone_context(table, {deal: form}) | {"refused": deal}
    return render(request, "freedeal/table.html", context, status=400)


# --------------------------------------------------------------------------- organiser
def _directed(request: HttpRequest, pk: int) -> FreeDealTournament:
    return get_object_or_404(directed_by(request.user, FreeDealTournament), pk=pk)


@login_required
@require_GET
def organiser_list(request: HttpRequest) -> HttpResponse:
    tournaments = directed_by(request.user, FreeDealTournament)
    return render(
        request,
        "freedeal/organiser_list.html",
        {"tournaments": tournaments, "can_create": clubs_directed_by(request.user).exists()},
    )


@login_required
@require_http_methods(["GET", "POST"])
def organiser_create(request: HttpRequest) -> HttpResponse:
    clubs = clubs_directed_by(request.user)
    if not clubs.exists():
        raise Http404(_("You organise no club."))
    form = TournamentForm(request.POST or None, clubs=clubs)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                tournament = services.create_tournament(
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


def _detail_context(tournament: FreeDealTournament, request: HttpRequest) -> dict[str, Any]:
    context = _common(tournament) | {
        "entries": list(selectors.entries(tournament).values()),
        "settings_form": TournamentForm(initial=TournamentForm.initial_of(tournament)),
        "register_form": RegisterForm(tournament=tournament),
        "new_player_form": NewPlayerForm(),
        "confirm_form": ConfirmForm(),
    }
    if tournament.status != FreeDealTournament.Status.DRAFT:
        tables = list(tournament.tables.order_by("number"))
        context |= {
            "tables": [
                {
                    "table": t,
                    "url": request.build_absolute_uri(reverse("freedeal:table", args=[t.code])),
                }
                for t in tables
            ],
            "progress": selectors.progress(tournament),
            "grid": _grid(tournament, tables),
            "missing": selectors_missing(tournament),
        }
    return context


def selectors_missing(tournament: FreeDealTournament) -> list[tuple[int, int]]:
    party = tournament.open_party
    return services.missing_deals(tournament, party) if party else []


def _grid(tournament: FreeDealTournament, tables: list[FreeDealTable]) -> list[dict[str, Any]]:
    """Per party, per table: each deal's result (or None) for the results grid."""
    results = {
        (r.party, r.table_id, r.deal): r
        for r in FreeDealResult.objects.filter(tournament=tournament)
    }
    names = _names(tournament)
    last = tournament.open_party or tournament.parties
    return [
        {
            "party": party,
            "tables": [
                {
                    "table": t,
                    "players": [
                        (n, names.get(n, "")) for n in tournament.table_players(party, t.number)
                    ],
                    "deals": [
                        (deal, results.get((party, t.pk, deal)))
                        for deal in range(1, tournament.deals_per_party + 1)
                    ],
                }
                for t in tables
            ],
        }
        for party in range(1, last + 1)
    ]


@login_required
@require_GET
def organiser_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _directed(request, pk)
    return render(request, "freedeal/organiser_detail.html", _detail_context(tournament, request))


def _refused(
    request: HttpRequest, tournament: FreeDealTournament, error: DomainError, **extra: Any
) -> HttpResponse:
    context = _detail_context(tournament, request) | {"errors": error.messages} | extra
    return render(request, "freedeal/organiser_detail.html", context, status=400)


@login_required
@require_POST
def organiser_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """One of the tournament page's buttons (``action`` from the URL)."""
    tournament = _directed(request, pk)
    try:
        if action == "settings":
            form = TournamentForm(request.POST)
            if not form.is_valid():
                return _refused(
                    request,
                    tournament,
                    DomainError("invalid", _("Check the settings.")),
                    settings_form=form,
                )
            data = form.cleaned_data
            services.update_settings(
                tournament,
                name=data["name"],
                date=data["date"],
                ruleset=form.ruleset(),
                parties=data["parties"],
                deals_per_party=data["deals_per_party"],
                tie_break=data["tie_break"],
                public=data["public"],
            )
            messages.success(request, _("Settings saved."))
        elif action == "register":
            register = RegisterForm(request.POST, tournament=tournament)
            if not register.is_valid():
                return _refused(
                    request,
                    tournament,
                    DomainError("invalid", _("Choose a player of the club.")),
                    register_form=register,
                )
            services.register_player(tournament, register.cleaned_data["player"])
            messages.success(request, _("Player registered."))
        elif action == "register_new":
            new = NewPlayerForm(request.POST)
            if not new.is_valid():
                return _refused(
                    request,
                    tournament,
                    DomainError("invalid", _("Give the player's first and last names.")),
                    new_player_form=new,
                )
            services.register_new_player(tournament, **new.cleaned_data)
            messages.success(request, _("Player registered."))
        elif action == "unregister":
            try:
                number = int(request.POST.get("number", ""))
            except ValueError:
                raise DomainError("unknown_player", _("No such player.")) from None
            services.unregister_player(tournament, number)
            messages.success(request, _("Player removed."))
        elif action == "start":
            services.start(tournament)
            messages.success(request, _("Tournament started: the seating is ready."))
        elif action == "close_party":
            party = services.close_party(tournament, confirm=bool(request.POST.get("confirm")))
            messages.success(request, _("Party %(party)s closed.") % {"party": party})
        elif action == "finish":
            services.finish(tournament)
            messages.success(request, _("Tournament finished: the ranking is final."))
        else:
            raise Http404(_("Unknown action."))
    except DomainError as error:
        return _refused(request, tournament, error)
    return redirect("freedeal:organiser_detail", tournament.pk)


@login_required
@require_http_methods(["GET", "POST"])
def organiser_correct(
    request: HttpRequest, pk: int, party: int, table: int, deal: int
) -> HttpResponse:
    tournament = _directed(request, pk)
    table_obj = get_object_or_404(tournament.tables, number=table)
    if (
        tournament.status == FreeDealTournament.Status.DRAFT
        or not 1 <= party <= tournament.parties
        or not 1 <= deal <= tournament.deals_per_party
        or (tournament.open_party is not None and party > tournament.open_party)
    ):
        raise Http404(_("No such deal."))
    seated = tournament.table_players(party, table)
    result = FreeDealResult.objects.filter(table=table_obj, party=party, deal=deal).first()
    form = CorrectionForm(
        request.POST or None,
        initial=DealForm.initial_of(result),
        tournament=tournament,
        seated=seated,
        names=_names(tournament),
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.director_correct(
                    tournament,
                    table_number=table,
                    party=party,
                    deal=deal,
                    data=form.values(),
                    user=request.user,  # type: ignore[arg-type]
                    reason=form.cleaned_data["reason"],
                )
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Correction saved."))
                return redirect("freedeal:organiser_detail", tournament.pk)
        status = 400
    history = result.history.order_by("at", "pk") if result else []
    context = _common(tournament) | {
        "form": form,
        "party": party,
        "table": table_obj,
        "deal": deal,
        "result": result,
        "history": history,
        "seated": [(n, _names(tournament).get(n, "")) for n in seated],
    }
    return render(request, "freedeal/organiser_correct.html", context, status=status)

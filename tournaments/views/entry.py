"""Result entry: the phone page at a table, the organiser's grid and the director's actions.

Table side (no account: the table code from the QR code on the table card is the credential,
scoped to the table's open round by :mod:`tournaments.table_scope`):

- ``/table/<code>/`` shows a round (the open one, or ``?round=n``), who sits where and, in the
  open round only, one short form per deal still to enter; the taker seat comes from the étui;
  an imposed contract is preset and enforced; a recap of the round's results the code may read
  (an earlier round: only the deals played at every table; a later round: none);
- ``/table/<code>/deal/<n>/preview/`` (htmx) validates with ``rules`` and answers the marks per
  seat, or the errors per field (422), before anything is saved;
- ``/table/<code>/deal/<n>/`` saves a deal of the open round (another round's: 403, the open
  round shown with the reason); a second device gets a 409 page showing the stored result
  when it entered another outcome; the same outcome sent again (a double tap, a resend after a
  lost answer, even once the round is over) saves nothing and goes back to the table saying it
  was already stored, identical;
- ``/table/<code>/deal/<n>/confirm/``: a defender confirms (when the event asks for it), in the
  open round;
- ``/table/<code>/deal/<n>/correct/`` corrects the table's own entry (``?correct=<n>`` on the
  page shows its form) of the open round or an earlier one, until the director closes that
  round; a closed round's write is a 403 saying "this round is closed: ask the director".

An unknown code is a 404; too many of them from one address a 429 (``Retry-After``), while a
valid code always opens its table.

Organiser side (login + directing the event, else 404): the entry grid of a round (all tables ×
deals, compact inputs in tab order), the director's actions on one (table, deal) — correct,
artificial scores, not played, each with a required reason — penalties, and the append-only
history. The forms live in :mod:`clubs.outcome_forms` (a deal's outcome, its correction) and
:mod:`tournaments.forms.results` (the director's decisions); a refused write (``DomainError``)
is shown on the form field it names. The grid's inputs are not ``required``: a partly filled
round is saved, its empty rows skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import directs, user_directs
from clubs.errors import DomainError, NotOwnEntry, StageNotOpen
from clubs.forms import add_error, error_field
from clubs.outcome_forms import CorrectionForm, DealOutcomeForm
from clubs.phone import PhoneCard, SaveAnswer, flash, json_answer, phone_save, wants_json
from clubs.phone_codes import phone_page
from tournaments import forms, presentation, selectors, services, table_scope
from tournaments.errors import ResultConflict, ResultReplay
from tournaments.forms import ArtificialForm, ReasonForm
from tournaments.models import (
    SEATS,
    Deal,
    Entrant,
    Event,
    Seat,
    Table,
    TableResult,
)
from tournaments.phone_entry import TABLE_ENTRY
from tournaments.selectors import TableRound
from tournaments.selectors.printouts import RouteRow
from tournaments.services.events import event_log
from tournaments.table_scope import RoundNotOpen, TableScope, table_for_code

# ----------------------------------------------------------------------------- table side


def _deal_or_404(table: Table, number: int) -> Deal:
    deal = selectors.deal_by_number(table.event_id, number)
    if deal is None:
        raise Http404
    return deal


def _deal_prefix(deal: Deal) -> str:
    return f"d{deal.number}"


def _table_url(table: Table, round_number: int | None = None) -> str:
    url = reverse("table:entry", args=[table.code])
    return f"{url}?round={round_number}" if round_number else url


def _round_param(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() else None


@dataclass
class TableCard(PhoneCard):
    """A deal on the table's phone page (the kernel's card, with the outcome of its result)."""

    @property
    def outcome(self) -> dict[str, Any] | None:
        return selectors.result_outcome(self.result) if self.result is not None else None


def _deal_subtitle(deal: Deal) -> str:
    """ "taker N", and the contract the étui imposes if any."""
    text = _("taker %(seat)s") % {"seat": presentation.seat_letter(deal.taker_seat)}
    if deal.imposed_contract:
        text += " · " + _("%(contract)s imposed") % {
            "contract": deal.get_imposed_contract_display()
        }
    return text


@dataclass
class DealCard:
    """One deal on the table page (or one cell of the grid): its stored result, or its form."""

    deal: Deal
    result: TableResult | None
    form: DealOutcomeForm | None
    hidden: bool = False  # a result is stored, but the table code may not read it yet
    correctable: bool = False  # the table code may correct this stored result
    correcting: bool = False  # ``form`` corrects the stored result (posted to deal_correct)
    focus: str | None = None  # a refused entry: its first field in error (autofocused)

    @property
    def outcome(self) -> dict[str, Any] | None:
        return selectors.result_outcome(self.result) if self.result is not None else None


def _round_recap(play: Any, results: dict[int, TableResult]) -> dict[str, Any]:
    totals = dict.fromkeys(SEATS, 0)
    rows = []
    for deal in play.deals:
        result = results.get(deal.pk)
        if result is None:
            continue
        rows.append(result)
        if result.kind == TableResult.Kind.PLAYED:
            for seat, mark in result.seat_marks().items():
                totals[seat] += mark or 0
    return {"rows": rows, "totals": [totals[s] for s in SEATS]}


@dataclass(frozen=True)
class NextPlace:
    """Where a player of the table goes after this round, from the movement (route card)."""

    seat: str  # the seat the player holds this round
    entrant: Entrant
    row: RouteRow | None  # the player's next round (None: this was the player's last round)
    then: RouteRow | None = None  # after a bye: the next round the player plays

    @property
    def seat_label(self) -> str:
        return str(Seat(self.row.seat).label) if self.row is not None and self.row.seat else ""

    @property
    def then_seat_label(self) -> str:
        return str(Seat(self.then.seat).label) if self.then is not None and self.then.seat else ""


def _next_places(event: Event, play: TableRound) -> list[NextPlace]:
    """For each real player seated at the table in ``play``: the next round of the player's
    route card (:func:`tournaments.selectors.event_route_cards`): table and seat, or a bye
    (then the round after it), or none (the player's last round)."""
    routes = {card.entrant.pk: card.rows for card in selectors.event_route_cards(event)}
    places = []
    for seat, entrant in play.seat_list:
        if entrant.phantom:
            continue
        later = sorted(
            (row for row in routes.get(entrant.pk, []) if row.round > play.round_number),
            key=lambda row: row.round,
        )
        row = later[0] if later else None
        then = next((r for r in later if not r.bye), None) if row is not None and row.bye else None
        places.append(NextPlace(seat=seat, entrant=entrant, row=row, then=then))
    return places


def _round_done(scope: TableScope, play: TableRound) -> bool:
    """Whether the table has finished ``play``: every deal entered (and confirmed where the
    event asks for it), or a phantom sat there; never a round ahead of the open one."""
    if scope.is_later(play.round_number) or play.missing:
        return False
    return play.sits_out or play.round_number != scope.open_round


def _table_cards(
    scope: TableScope,
    play: TableRound,
    *,
    bound: DealOutcomeForm | None = None,
    correct: int | None = None,
) -> list[TableCard]:
    """The cards of ``play`` as the table's code sees them now (the page's and, one at a
    time, the JSON answers' of a save): ``bound`` re-shows a form with its errors, ``correct``
    (a deal number) the correction form of that deal."""
    table = scope.table
    writable = scope.writable_round == play.round_number and not play.sits_out
    visible = scope.visible_results(play)
    table_url = _table_url(table, play.round_number)
    cards: list[TableCard] = []
    for deal in play.deals:
        result = visible.get(deal.pk)
        stored = play.results.get(deal.pk)
        form = None
        focus = None
        correctable = stored is not None and scope.may_correct(play.round_number, stored)
        correcting = correctable and correct == deal.number
        if (writable and stored is None) or correcting:
            if bound is not None and bound.deal.number == deal.number:  # the table's event's deals
                form = bound
                focus = next((name for name in bound.errors if name in bound.fields), None)
            else:
                # A correction shows the stored outcome only where the code may read it.
                initial = DealOutcomeForm.initial_of(
                    selectors.result_outcome(result) if correcting and result else None
                )
                form = DealOutcomeForm(deal=deal, prefix=_deal_prefix(deal), initial=initial)
        cards.append(
            TableCard(
                number=deal.number,
                title=_("Deal %(n)s") % {"n": deal.number},
                subtitle=_deal_subtitle(deal),
                form=form,
                correcting=correcting,
                save_url=reverse(
                    "table:deal_correct" if correcting else "table:deal_save",
                    args=[table.code, deal.number],
                ),
                preview_url=reverse("table:deal_preview", args=[table.code, deal.number]),
                fields_template="tournaments/entry/_table_deal_fields.html",
                hidden_inputs={} if correcting else {"round": play.round_number},
                focus=focus,
                result=result,
                result_template="tournaments/entry/_card_result.html",
                hidden=result is None and stored is not None,
                correct_url=f"{table_url}&correct={deal.number}" if correctable else None,
                cancel_url=table_url,
                extra_template="tournaments/entry/_card_confirm.html",
            )
        )
    return cards


def _card_context(scope: TableScope, play: TableRound) -> dict[str, Any]:
    """What the cards' templates read besides the card (the confirmation form's)."""
    return {
        "event": scope.event,
        "table": scope.table,
        "play": play,
        "writable": scope.writable_round == play.round_number and not play.sits_out,
        "seats": SEATS,
    }


def _render_table_page(
    request: HttpRequest,
    scope: TableScope,
    *,
    round_number: int | None = None,
    bound: DealOutcomeForm | None = None,
    status: int = 200,
    error: str | None = None,
    correct: int | None = None,
) -> HttpResponse:
    """The table page at ``round_number`` (else the current round); ``bound`` re-shows a form
    with its errors; ``correct`` (a deal number) shows the correction form of that deal."""
    table = scope.table
    event = table.event
    plays = scope.plays
    if not plays:
        raise Http404(_("This table plays no round in the movement."))
    if round_number is None:
        play = scope.current
    else:
        play = scope.play(round_number)
        if play is None:
            raise Http404(_("No such round at this table."))
    assert play is not None
    running = scope.running
    writable = scope.writable_round == play.round_number and not play.sits_out
    visible = scope.visible_results(play)
    cards = _table_cards(scope, play, bound=bound, correct=correct)
    next_places = _next_places(event, play) if _round_done(scope, play) else []
    context = {
        **_card_context(scope, play),
        "plays": plays,
        "cards": cards,
        "running": running,
        "open_round": scope.open_round,
        "later": scope.is_later(play.round_number),
        "earlier": not writable and not scope.is_later(play.round_number),
        "recap": _round_recap(play, visible),
        "complete": not play.missing,
        "closed": scope.is_closed(play.round_number),
        "error": error,
        "table_url": _table_url(table),
        "next_places": next_places,
        "last_round": bool(next_places) and all(place.row is None for place in next_places),
        "clock_url": reverse("table:clock", args=[table.code]),
    }
    return render(request, "tournaments/entry/table.html", context, status=status)


def _deal_card_html(
    request: HttpRequest,
    table: Table,
    deal: Deal,
    *,
    bound: DealOutcomeForm | None = None,
    correct: int | None = None,
) -> str:
    """Deal ``deal``'s card as the table page renders it now for this code (the JSON answer
    of a save): read afresh, so it obeys the publication rule as the page does."""
    scope = TableScope.of(table)
    round_number = scope.round_of(deal)
    play = scope.play(round_number) if round_number is not None else None
    if play is None:
        return ""
    cards = _table_cards(scope, play, bound=bound, correct=correct)
    card = next((c for c in cards if c.number == deal.number), None)
    if card is None:
        return ""
    context = {**_card_context(scope, play), "card": card}
    return render_to_string("clubs/phone/_card.html", context, request=request)


def _table_actor(request: HttpRequest, table: Table) -> Any:
    """The signed-in user if he directs the table's event, else None.

    On the table pages the table code is the credential: another account (a player signed in
    on his phone) counts for nothing, so the event's opponent confirmation still applies.
    """
    return request.user if user_directs(request.user, table.event) else None


_by_table_code = phone_page(table_for_code, lambda: _("No table has this code."))


@require_http_methods(["GET"])
@_by_table_code
def table_entry(request: HttpRequest, table: Table) -> HttpResponse:
    scope = TableScope.of(table)
    return _render_table_page(
        request,
        scope,
        round_number=_round_param(request.GET.get("round")),
        correct=_round_param(request.GET.get("correct")),
    )


@require_POST
@_by_table_code
def deal_preview(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    """htmx: the marks per seat this outcome would give, or its errors (422), nothing saved
    (nothing stored is read either: any deal of the table's event may be previewed)."""
    deal = _deal_or_404(table, number)
    form = DealOutcomeForm(request.POST, deal=deal, prefix=_deal_prefix(deal))
    valid = form.is_valid()
    context = {
        "form": form,
        "deal": deal,
        "scored": form.scored if valid else None,
        "seats": SEATS,
        # Only what was typed: a field not filled in yet is no error while the table taps.
        "errors": [] if valid else form.named_errors(required=False),
    }
    return render(request, "tournaments/entry/_preview.html", context, status=200 if valid else 422)


def _table_save(
    request: HttpRequest,
    table: Table,
    scope: TableScope,
    deal: Deal,
    form: DealOutcomeForm,
    *,
    correcting: bool,
) -> SaveAnswer:
    """Save (or correct) ``deal`` from ``form`` through the kernel's phone save (the stored
    key, the late arrivals)."""
    actor = _table_actor(request, table)
    write = table_scope.correct if correcting else table_scope.enter

    def on_form(error: DomainError) -> bool:
        if error_field(form, error.field) and not isinstance(error, StageNotOpen | NotOwnEntry):
            add_error(form, error)
            return True
        return False

    return phone_save(
        request, TABLE_ENTRY, holder=table, deal=deal.number, form=form, on_form=on_form,
        outcome=lambda: form.outcome(),
        write=lambda: write(scope, deal=deal, outcome=form.outcome(), actor=actor, via="table"),
        saved=_("Deal %(deal)s corrected.") if correcting else _("Deal %(deal)s saved."),
    )  # fmt: skip


def _json_table_answer(
    request: HttpRequest, table: Table, deal: Deal, answer: SaveAnswer, form: DealOutcomeForm,
    *, correcting: bool,
) -> HttpResponse:  # fmt: skip
    """The JSON answer of a save, with the deal's card as the page shows it now."""
    bound = form if answer.status == "invalid" and form.is_bound and form.errors else None
    correct = deal.number if correcting and bound is not None else None
    card = _deal_card_html(request, table, deal, bound=bound, correct=correct)
    return json_answer(answer, card)


@require_POST
@_by_table_code
def deal_save(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    deal = _deal_or_404(table, number)
    scope = TableScope.of(table)
    form = DealOutcomeForm(request.POST, deal=deal, prefix=_deal_prefix(deal))
    round_number = _round_param(request.POST.get("round"))
    if round_number is not None and scope.play(round_number) is None:
        round_number = None
    answer = _table_save(request, table, scope, deal, form, correcting=False)
    if wants_json(request):
        return _json_table_answer(request, table, deal, answer, form, correcting=False)
    error = answer.error
    if answer.status == "stored":
        flash(request, answer)
        result = answer.result
        return redirect(_table_url(table, result.round_number) + _anchor_after(table, result, deal))
    if answer.replayed:
        flash(request, answer)
        return redirect(_table_url(table, answer.result.round_number) + f"#deal-{deal.number}")
    assert error is not None
    if isinstance(error, ResultConflict):
        stored = error.result
        correct_url = None
        if scope.may_correct(stored.round_number, stored):
            correct_url = (
                f"{_table_url(table, stored.round_number)}&correct={deal.number}#deal-{deal.number}"
            )
        context = {
            "event": table.event,
            "table": table,
            "deal": deal,
            "hidden": error.hidden,  # an earlier round's outcome the code may not read yet
            "result": None if error.hidden else stored,
            "outcome": None if error.hidden else selectors.result_outcome(stored),
            "seats": SEATS,
            "back": _table_url(table, round_number),
            "correct_url": correct_url,
        }
        return render(request, "tournaments/entry/conflict.html", context, status=409)
    if isinstance(error, StageNotOpen):
        return _render_table_page(request, scope, status=403, error=error.message)
    if answer.status == "invalid" and form.is_bound and form.errors:
        return _render_table_page(request, scope, round_number=round_number, bound=form, status=400)
    status = 409 if error.code == "idempotency_key_reused" else 400
    return _render_table_page(
        request, scope, round_number=round_number, status=status, error=error.describe()
    )


def _anchor_after(table: Table, result: TableResult, deal: Deal) -> str:
    """Where the page opens after ``deal`` is saved: the "where to go next" block once the
    table's round is done, else the deal itself."""
    scope = TableScope.of(table)
    play = scope.play(result.round_number)
    if play is not None and _round_done(scope, play):
        return "#next-places"
    return f"#deal-{deal.number}"


@require_POST
@_by_table_code
def deal_correct(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    """The table corrects its own entry of ``deal`` (``tournaments.table_scope.correct``)."""
    deal = _deal_or_404(table, number)
    scope = TableScope.of(table)
    round_number = scope.round_of(deal)
    form = DealOutcomeForm(request.POST, deal=deal, prefix=_deal_prefix(deal))
    answer = _table_save(request, table, scope, deal, form, correcting=True)
    if wants_json(request):
        return _json_table_answer(request, table, deal, answer, form, correcting=True)
    error = answer.error
    if answer.status in ("stored", "replayed"):
        # One message whether it changed or not: a result the code may not read stays unread.
        messages.success(request, _("Deal %(deal)s saved.") % {"deal": deal.number})
        return redirect(_table_url(table, answer.result.round_number) + f"#deal-{deal.number}")
    assert error is not None
    if isinstance(error, StageNotOpen | NotOwnEntry):  # a closed round, a later one, the director's
        return _render_table_page(
            request, scope, round_number=round_number, status=403, error=error.message
        )
    if answer.status == "invalid" and form.is_bound and form.errors:
        return _render_table_page(
            request, scope, round_number=round_number, bound=form, status=400, correct=number
        )
    status = 409 if error.code == "idempotency_key_reused" else 400
    return _render_table_page(
        request, scope, round_number=round_number, status=status, error=error.describe()
    )


@require_POST
@_by_table_code
def deal_confirm(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    deal = _deal_or_404(table, number)
    result = selectors.table_deal_result(table, deal)
    if result is None:
        raise Http404
    scope = TableScope.of(table)
    if scope.running and result.round_number != scope.open_round:
        refused = RoundNotOpen(deal, result.round_number, scope.open_round)
        return _render_table_page(request, scope, status=403, error=refused.message)
    actor = _table_actor(request, table)
    try:
        services.table_result_confirm(result=result, seat=request.POST.get("seat", ""), actor=actor)
    except DomainError as error:
        return _render_table_page(
            request, scope, round_number=result.round_number, status=400, error=error.describe()
        )
    messages.success(request, _("Deal %(deal)s confirmed.") % {"deal": deal.number})
    return redirect(_table_url(table, result.round_number) + f"#deal-{deal.number}")


# -------------------------------------------------------------------------- organiser side


@dataclass
class GridRow:
    table: Table
    seats: list[tuple[str, Entrant | None]]
    cells: list[DealCard]


def _grid_rows(event: Event, round_number: int, data: Any = None) -> list[GridRow]:
    """The tables of a round with one cell per deal: its result, or a form (none at sit-outs)."""
    rnd = event.schedule.round(round_number)
    if rnd is None or not rnd.tables:
        raise Http404(_("No such round in the movement."))
    grid = selectors.round_grid(event, round_number)
    deals_by_set: dict[int, list[Deal]] = {}
    rows = []
    for play in rnd.tables:
        table = grid.tables.get(play.table)
        if table is None:
            continue
        if play.deal_set not in deals_by_set:
            deals_by_set[play.deal_set] = selectors.deals_of_set(event, play.deal_set)
        cells = []
        for deal in deals_by_set[play.deal_set]:
            result = grid.results.get((table.pk, deal.pk))
            form = None
            if result is None and not play.sits_out:
                # No ``required`` attribute: the browser must let a partly filled round be
                # sent (its empty rows are skipped, :func:`_grid_save`).
                form = DealOutcomeForm(
                    data,
                    deal=deal,
                    prefix=f"t{table.number}-d{deal.number}",
                    use_required_attribute=False,
                )
            cells.append(DealCard(deal=deal, result=result, form=form))
        seats = [(seat, grid.entrants.get(play.seats[seat])) for seat in SEATS]
        rows.append(GridRow(table=table, seats=seats, cells=cells))
    return rows


def _grid_save(rows: list[GridRow], actor: Any) -> tuple[int, int]:
    """Save every filled cell of the grid; refused ones keep their errors. (saved, failed)"""
    saved = failed = 0
    for row in rows:
        for cell in row.cells:
            form = cell.form
            if form is None or form.is_blank():
                continue
            if not form.is_valid():
                failed += 1
                continue
            try:
                services.table_result_enter(
                    table=row.table, deal=cell.deal, outcome=form.outcome(), actor=actor,
                    via="organiser",
                )  # fmt: skip
                saved += 1
            except ResultReplay:  # entered meanwhile with this very outcome: as good as saved
                saved += 1
            except ResultConflict as conflict:
                form.add_error(None, conflict.describe())
                failed += 1
            except DomainError as error:
                add_error(form, error)
                failed += 1
    return saved, failed


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def entry_grid(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """All tables × deals of a round; a POST saves every filled row (errors kept per row)."""
    rows = _grid_rows(event, number, request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        saved, failed = _grid_save(rows, request.user)
        if not failed:
            messages.success(request, _("%(count)s results saved.") % {"count": saved})
            return redirect("organiser:entry_grid", pk=event.pk, number=number)
        status = 400
        if saved:
            messages.success(request, _("%(count)s results saved.") % {"count": saved})
        messages.error(
            request, _("%(count)s entries refused: see the rows marked below.") % {"count": failed}
        )
        # Show the saved ones as stored, keep the refused ones with their errors.
        refused = {
            (row.table.pk, cell.deal.pk): cell.form
            for row in rows
            for cell in row.cells
            if cell.form is not None
        }
        rows = _grid_rows(event, number)
        for row in rows:
            for cell in row.cells:
                form = refused.get((row.table.pk, cell.deal.pk))
                if cell.result is None and form is not None:
                    cell.form = form
    context = {
        "event": event,
        "round_number": number,
        "rows": rows,
        "rounds": event.schedule.round_numbers,
        "closed": number in (event.closed_rounds or []),
        "seats": SEATS,
    }
    return render(request, "tournaments/entry/grid.html", context, status=status)


def _director_decide(
    action: str,
    form: Any,
    *,
    event: Event,
    table: Table,
    deal: Deal,
    result: TableResult | None,
    actor: Any,
) -> None:
    """Carry out the director's ``action`` on (table, deal) with the valid ``form``."""
    reason = form.cleaned_data["reason"]
    if action == "artificial":
        services.table_result_assign_artificial(
            event=event, table=table, deal=deal, actor=actor, reason=reason,
            percentages=form.percentages(),
        )  # fmt: skip
    elif action == "not_played":
        services.table_result_mark_not_played(
            event=event, table=table, deal=deal, actor=actor, reason=reason
        )
    elif result is None:
        services.table_result_enter(
            table=table, deal=deal, outcome=form.outcome(), actor=actor, via="organiser",
            reason=reason,
        )  # fmt: skip
    else:
        services.table_result_director_correct(
            result=result, outcome=form.outcome(), actor=actor, reason=reason
        )


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def result_actions(
    request: HttpRequest, event: Event, table_number: int, deal_number: int
) -> HttpResponse:
    """The director's actions on one (table, deal): correct, artificial, not played."""
    table = selectors.table_by_number(event, table_number)
    deal = selectors.deal_by_number(event.pk, deal_number)
    if table is None or deal is None:
        raise Http404
    result = selectors.result_with_seats(table, deal)
    outcome = selectors.result_outcome(result) if result is not None else None
    action = request.POST.get("action") if request.method == "POST" else None

    def bound_if(name: str) -> Any:
        return request.POST if action == name else None

    director_forms: dict[str, Any] = {
        "correct": CorrectionForm(
            bound_if("correct"), deal=deal, director=True, prefix="correct",
            initial=DealOutcomeForm.initial_of(outcome),
        ),
        "artificial": ArtificialForm(bound_if("artificial"), prefix="artificial"),
        "not_played": ReasonForm(bound_if("not_played"), prefix="not_played"),
    }  # fmt: skip
    status = 200
    if action:
        form = director_forms.get(action)
        if form is not None and form.is_valid():
            try:
                _director_decide(
                    action, form, event=event, table=table, deal=deal, result=result,
                    actor=request.user,
                )  # fmt: skip
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(
                    request,
                    _("Deal %(deal)s at table %(table)s updated.")
                    % {"deal": deal.number, "table": table.number},
                )
                return redirect(
                    "organiser:entry_result",
                    pk=event.pk,
                    table_number=table.number,
                    deal_number=deal.number,
                )
        status = 400
    history = selectors.result_history(result) if result is not None else []
    context = {
        "event": event,
        "table": table,
        "deal": deal,
        "result": result,
        "outcome": outcome,
        "seats": SEATS,
        **director_forms,
        "history": history,
    }
    return render(request, "tournaments/entry/result.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
@directs(Event)
def penalties(request: HttpRequest, event: Event) -> HttpResponse:
    form = forms.PenaltyForm(request.POST or None, event=event)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.penalty_record(event=event, actor=request.user, **form.cleaned_data)
            except DomainError as error:
                add_error(form, error)
            else:
                messages.success(request, _("Penalty recorded."))
                return redirect("organiser:penalties", pk=event.pk)
        status = 400
    context = {"event": event, "form": form, "penalties": selectors.event_penalties(event)}
    return render(request, "tournaments/entry/penalties.html", context, status=status)


@login_required
@require_http_methods(["GET"])
@directs(Event)
def history(request: HttpRequest, event: Event) -> HttpResponse:
    """The append-only history of the event's results and its penalties."""
    context = {
        "event": event,
        "changes": selectors.event_result_changes(event),
        "penalties": selectors.event_penalties(event),
        "event_log": event_log(event),
        "rounds": event.schedule.round_numbers,
    }
    return render(request, "tournaments/entry/history.html", context)

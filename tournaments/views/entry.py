"""Result entry: the phone page at a table, the organiser's grid and the director's actions.

Table side (no account: the table code from the QR code on the table card is the credential):

- ``/table/<code>/`` shows a round (the first with results missing, or ``?round=n``), who sits
  where and one short form per deal still to enter; the taker seat comes from the étui; an
  imposed contract is preset and enforced; a recap of the round once entered;
- ``/table/<code>/deal/<n>/preview/`` (htmx) validates with ``rules`` and answers the marks per
  seat, or the errors per field (422), before anything is saved;
- ``/table/<code>/deal/<n>/`` saves; a second device gets a 409 page showing the stored result;
- ``/table/<code>/deal/<n>/confirm/``: a defender confirms (when the event asks for it).

Organiser side (login + organiser of the event's club, else 404): the entry grid of a round
(all tables × deals, compact inputs in tab order), the director's actions on one (table, deal)
— correct, artificial scores, not played, each with a required reason — penalties, and the
append-only history. Forms map ``ResultError.field`` to the form field at fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.models import (
    SEATS,
    Contract,
    Deal,
    Entrant,
    Event,
    Penalty,
    ResultChange,
    Seat,
    Side,
    Table,
    TableResult,
    Team,
)
from tournaments.selectors import events_for_user, user_directs
from tournaments.services.results import (
    ResultConflict,
    ResultError,
    ScoredOutcome,
    deals_of_set,
    outcome_score,
    penalty_record,
    result_outcome,
    round_tables,
    table_plays,
    table_result_assign_artificial,
    table_result_confirm,
    table_result_correct,
    table_result_mark_not_played,
    table_result_submit,
)

DUPLICATE_CONTRACTS = [
    (Contract.GARDE.value, Contract.GARDE.label),
    (Contract.GARDE_SANS.value, Contract.GARDE_SANS.label),
    (Contract.GARDE_CONTRE.value, Contract.GARDE_CONTRE.label),
]
SIDE_CHOICES = [("", "—"), *Side.choices]
POIGNEE_SIZES = [
    ("", "—"),
    ("simple", gettext_lazy("simple")),
    ("double", gettext_lazy("double")),
    ("triple", gettext_lazy("triple")),
]
ARTIFICIAL_CHOICES = [("60", "60 %"), ("50", "50 %"), ("40", "40 %")]
POIGNEE_SLOTS = (1, 2)


# ---------------------------------------------------------------------------------- forms


def form_field_for(error_field: str | None, form: forms.Form) -> str | None:
    """The form field of a ``ResultError.field``: ``poignees[1].size`` → ``poignee_2_size``."""
    if not error_field:
        return None
    match = re.fullmatch(r"poignees\[(\d+)\](?:\.(side|size))?", error_field)
    if match:
        name = f"poignee_{int(match.group(1)) + 1}_{match.group(2) or 'side'}"
        return name if name in form.fields else "poignee_1_side"
    if error_field.startswith("poignees"):
        return "poignee_1_side"
    if error_field.startswith("chelem"):
        return "chelem_announced" if error_field.endswith("announced") else "chelem_made_by"
    if error_field.startswith("percentages."):
        return error_field.split(".", 1)[1]
    top = re.split(r"[.\[]", error_field, maxsplit=1)[0]
    return top if top in form.fields else None


def add_result_error(form: forms.Form, error: ResultError) -> None:
    form.add_error(form_field_for(error.field, form), error.message)


class DealOutcomeForm(forms.Form):
    """One deal's outcome. Validated by ``rules`` in ``clean`` (marks kept in ``scored``)."""

    taker_seat = forms.ChoiceField(label=gettext_lazy("Taker"), choices=Seat.choices)
    contract = forms.ChoiceField(label=gettext_lazy("Contract"), choices=DUPLICATE_CONTRACTS)
    oudlers = forms.TypedChoiceField(
        label=gettext_lazy("Oudlers"),
        choices=[("", "—")] + [(n, str(n)) for n in range(4)],
        coerce=int,
    )
    points = forms.CharField(
        label=gettext_lazy("Points"),
        max_length=6,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 4, "autocomplete": "off"}),
    )
    petit_au_bout = forms.ChoiceField(
        label=gettext_lazy("Petit au bout"), choices=SIDE_CHOICES, required=False
    )
    poignee_1_side = forms.ChoiceField(
        label=gettext_lazy("Poignée 1"), choices=SIDE_CHOICES, required=False
    )
    poignee_1_size = forms.ChoiceField(
        label=gettext_lazy("size"), choices=POIGNEE_SIZES, required=False
    )
    poignee_2_side = forms.ChoiceField(
        label=gettext_lazy("Poignée 2"), choices=SIDE_CHOICES, required=False
    )
    poignee_2_size = forms.ChoiceField(
        label=gettext_lazy("size"), choices=POIGNEE_SIZES, required=False
    )
    chelem_announced = forms.BooleanField(label=gettext_lazy("Chelem announced"), required=False)
    chelem_made_by = forms.ChoiceField(
        label=gettext_lazy("Chelem made by"), choices=SIDE_CHOICES, required=False
    )

    COMPACT_FIELDS = ("contract", "oudlers", "points", "petit_au_bout")

    def __init__(self, *args: Any, deal: Deal, director: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deal = deal
        self.director = director
        self.scored: ScoredOutcome | None = None
        self.fields["taker_seat"].initial = deal.taker_seat
        if not director:
            # The étui names the taker seat: shown, never changed at the table.
            self.fields["taker_seat"].disabled = True
        if deal.imposed_contract:
            self.fields["contract"].choices = [
                (deal.imposed_contract, Contract(deal.imposed_contract).label)
            ]
            self.fields["contract"].initial = deal.imposed_contract
        else:
            self.fields["contract"].initial = Contract.GARDE.value

    def is_blank(self) -> bool:
        """Neither oudlers nor points given (the grid skips such rows)."""
        return not any(
            (self.data.get(self.add_prefix(name)) or "").strip() for name in ("oudlers", "points")
        )

    def outcome(self) -> dict[str, Any]:
        data = self.cleaned_data
        poignees = []
        for slot in POIGNEE_SLOTS:
            side, size = data.get(f"poignee_{slot}_side"), data.get(f"poignee_{slot}_size")
            if side or size:
                poignee = {}
                if side:
                    poignee["side"] = side
                if size:
                    poignee["size"] = size
                poignees.append(poignee)
        return {
            "taker_seat": data.get("taker_seat") or self.deal.taker_seat,
            "contract": data["contract"],
            "oudlers": data["oudlers"],
            "points": data["points"],
            "petit_au_bout": data.get("petit_au_bout") or None,
            "poignees": poignees,
            "chelem": {
                "announced": bool(data.get("chelem_announced")),
                "made_by": data.get("chelem_made_by") or None,
            },
        }

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            self.scored = outcome_score(
                deal=self.deal, outcome=self.outcome(), director=self.director
            )
        except ResultError as error:
            add_result_error(self, error)
        return cleaned

    def named_errors(self) -> list[str]:
        """Every error as one line naming its field (for summaries and the preview)."""
        lines = []
        for name, errors in self.errors.items():
            label = self.fields[name].label if name in self.fields else ""
            for error in errors:
                lines.append(f"{label}: {error}" if label else str(error))
        return lines


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=1000
    )


class CorrectionForm(DealOutcomeForm):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=1000
    )


class ArtificialForm(ReasonForm):
    N = forms.ChoiceField(label=gettext_lazy("North"), choices=ARTIFICIAL_CHOICES, initial="50")
    E = forms.ChoiceField(label=gettext_lazy("East"), choices=ARTIFICIAL_CHOICES, initial="50")
    S = forms.ChoiceField(label=gettext_lazy("South"), choices=ARTIFICIAL_CHOICES, initial="50")
    W = forms.ChoiceField(label=gettext_lazy("West"), choices=ARTIFICIAL_CHOICES, initial="50")


class PenaltyForm(ReasonForm):
    entrant = forms.ModelChoiceField(
        label=gettext_lazy("Player"), queryset=Entrant.objects.none(), required=False
    )
    team = forms.ModelChoiceField(
        label=gettext_lazy("Team"), queryset=Team.objects.none(), required=False
    )
    points = forms.DecimalField(
        label=gettext_lazy("Percentage points"), max_digits=5, decimal_places=2, min_value=0
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = Entrant.objects.filter(
            event=event, phantom=False
        ).select_related("player")
        self.fields["team"].queryset = Team.objects.filter(event=event)
        if not event.is_team_event:
            del self.fields["team"]


# ----------------------------------------------------------------------------- table side


def _table_or_404(code: str) -> Table:
    return get_object_or_404(Table.objects.select_related("event__club"), code=code)


def _deal_or_404(table: Table, number: int) -> Deal:
    return get_object_or_404(Deal, event_id=table.event_id, number=number)


def _deal_prefix(deal: Deal) -> str:
    return f"d{deal.number}"


def _table_url(table: Table, round_number: int | None = None) -> str:
    url = reverse("entry-table", args=[table.code])
    return f"{url}?round={round_number}" if round_number else url


@dataclass
class DealCard:
    """One deal on the table page: its stored result, or its form."""

    deal: Deal
    result: TableResult | None
    form: DealOutcomeForm | None

    @property
    def outcome(self) -> dict[str, Any] | None:
        return result_outcome(self.result) if self.result is not None else None


def _round_recap(play: Any) -> dict[str, Any]:
    totals = dict.fromkeys(SEATS, 0)
    rows = []
    for deal in play.deals:
        result = play.results.get(deal.pk)
        if result is None:
            continue
        rows.append(result)
        if result.kind == TableResult.Kind.PLAYED:
            for seat, mark in result.seat_marks().items():
                totals[seat] += mark or 0
    return {"rows": rows, "totals": [totals[s] for s in SEATS]}


def _render_table_page(
    request: HttpRequest,
    table: Table,
    *,
    round_number: int | None = None,
    bound: DealOutcomeForm | None = None,
    status: int = 200,
    error: str | None = None,
) -> HttpResponse:
    event = table.event
    plays = table_plays(table)
    if not plays:
        raise Http404(_("This table plays no round in the movement."))
    play = None
    if round_number is not None:
        play = next((p for p in plays if p.round_number == round_number), None)
        if play is None:
            raise Http404(_("No such round at this table."))
    if play is None:
        play = next((p for p in plays if p.missing), plays[-1])
    running = event.status == Event.Status.RUNNING
    cards = []
    for deal in play.deals:
        result = play.results.get(deal.pk)
        form = None
        if result is None and running and not play.sits_out:
            if bound is not None and bound.deal.pk == deal.pk:
                form = bound
            else:
                form = DealOutcomeForm(deal=deal, prefix=_deal_prefix(deal))
        cards.append(DealCard(deal=deal, result=result, form=form))
    context = {
        "event": event,
        "table": table,
        "plays": plays,
        "play": play,
        "cards": cards,
        "running": running,
        "recap": _round_recap(play),
        "complete": not play.missing,
        "error": error,
        "seats": SEATS,
        "awaiting": [c.result for c in cards if c.result is not None and not c.result.confirmed],
    }
    return render(request, "tournaments/entry/table.html", context, status=status)


def _table_actor(request: HttpRequest, table: Table) -> Any:
    """The signed-in user if he directs the table's event, else None.

    On the table pages the table code is the credential: another account (a player signed in
    on his phone) counts for nothing, so the event's opponent confirmation still applies.
    """
    return request.user if user_directs(request.user, table.event) else None


@require_http_methods(["GET"])
def table_entry(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    raw = request.GET.get("round")
    round_number = int(raw) if raw and raw.isdigit() else None
    return _render_table_page(request, table, round_number=round_number)


@require_POST
def deal_preview(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """htmx: the marks per seat this outcome would give, or its errors (422), nothing saved."""
    table = _table_or_404(code)
    deal = _deal_or_404(table, number)
    form = DealOutcomeForm(request.POST, deal=deal, prefix=_deal_prefix(deal))
    valid = form.is_valid()
    context = {"form": form, "deal": deal, "scored": form.scored if valid else None, "seats": SEATS}
    return render(request, "tournaments/entry/_preview.html", context, status=200 if valid else 422)


@require_POST
def deal_save(request: HttpRequest, code: str, number: int) -> HttpResponse:
    table = _table_or_404(code)
    deal = _deal_or_404(table, number)
    form = DealOutcomeForm(request.POST, deal=deal, prefix=_deal_prefix(deal))
    play_round = request.POST.get("round")
    round_number = int(play_round) if play_round and play_round.isdigit() else None
    if not form.is_valid():
        return _render_table_page(request, table, round_number=round_number, bound=form, status=400)
    actor = _table_actor(request, table)
    try:
        result = table_result_submit(
            table=table, deal=deal, outcome=form.outcome(), actor=actor, via="table"
        )
    except ResultConflict as conflict:
        context = {
            "event": table.event,
            "table": table,
            "deal": deal,
            "result": conflict.result,
            "outcome": result_outcome(conflict.result),
            "seats": SEATS,
            "back": _table_url(table, round_number),
        }
        return render(request, "tournaments/entry/conflict.html", context, status=409)
    except ResultError as error:
        if error.field and form_field_for(error.field, form):
            add_result_error(form, error)
            return _render_table_page(
                request, table, round_number=round_number, bound=form, status=400
            )
        return _render_table_page(
            request, table, round_number=round_number, status=400, error=error.describe()
        )
    messages.success(request, _("Deal %(deal)s saved.") % {"deal": deal.number})
    return redirect(_table_url(table, result.round_number) + f"#deal-{deal.number}")


@require_POST
def deal_confirm(request: HttpRequest, code: str, number: int) -> HttpResponse:
    table = _table_or_404(code)
    deal = _deal_or_404(table, number)
    result = get_object_or_404(TableResult, table=table, deal=deal)
    seat = request.POST.get("seat", "")
    actor = _table_actor(request, table)
    try:
        table_result_confirm(result=result, seat=seat, actor=actor)
    except ResultError as error:
        return _render_table_page(
            request, table, round_number=result.round_number, status=400, error=error.describe()
        )
    messages.success(request, _("Deal %(deal)s confirmed.") % {"deal": deal.number})
    return redirect(_table_url(table, result.round_number) + f"#deal-{deal.number}")


# -------------------------------------------------------------------------- organiser side


def _directed_event_or_404(request: HttpRequest, pk: int) -> Event:
    return get_object_or_404(events_for_user(request.user), pk=pk)


@dataclass
class GridCell:
    table: Table
    deal: Deal
    result: TableResult | None
    form: DealOutcomeForm | None

    @property
    def outcome(self) -> dict[str, Any] | None:
        return result_outcome(self.result) if self.result is not None else None


@dataclass
class GridRow:
    table: Table
    seats: list[tuple[str, Entrant | None]]
    cells: list[GridCell]


def _grid_rows(event: Event, round_number: int, data: Any = None) -> list[GridRow]:
    entries = round_tables(event, round_number)
    if not entries:
        raise Http404(_("No such round in the movement."))
    tables = {t.number: t for t in Table.objects.filter(event=event)}
    entrants = {e.slot: e for e in Entrant.objects.filter(event=event).select_related("player")}
    results = {
        (r.table_id, r.deal_id): r
        for r in TableResult.objects.filter(event=event, round_number=round_number)
    }
    deals_by_set: dict[int, list[Deal]] = {}
    rows = []
    for entry in entries:
        table = tables.get(entry["table"])
        if table is None:
            continue
        deal_set = int(entry["deal_set"])
        if deal_set not in deals_by_set:
            deals_by_set[deal_set] = deals_of_set(event, deal_set)
        seats = [(s, entrants.get(int(entry["seats"][s]))) for s in SEATS if s in entry["seats"]]
        sits_out = any(e is not None and e.phantom for _, e in seats)
        cells = []
        for deal in deals_by_set[deal_set]:
            result = results.get((table.pk, deal.pk))
            form = None
            if result is None and not sits_out:
                form = DealOutcomeForm(data, deal=deal, prefix=f"t{table.number}-d{deal.number}")
            cells.append(GridCell(table=table, deal=deal, result=result, form=form))
        rows.append(GridRow(table=table, seats=seats, cells=cells))
    return rows


@login_required
@require_http_methods(["GET", "POST"])
def entry_grid(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """All tables × deals of a round; a POST saves every filled row (errors kept per row)."""
    event = _directed_event_or_404(request, pk)
    rows = _grid_rows(event, number, request.POST if request.method == "POST" else None)
    rounds = sorted(int(r["round"]) for r in (event.movement or {}).get("schedule", []))
    status = 200
    if request.method == "POST":
        saved = 0
        failed = 0
        for row in rows:
            for cell in row.cells:
                form = cell.form
                if form is None or form.is_blank():
                    continue
                if not form.is_valid():
                    failed += 1
                    continue
                try:
                    table_result_submit(
                        table=cell.table,
                        deal=cell.deal,
                        outcome=form.outcome(),
                        actor=request.user,
                        via="organiser",
                    )
                    saved += 1
                except ResultConflict as conflict:
                    form.add_error(None, conflict.describe())
                    failed += 1
                except ResultError as error:
                    add_result_error(form, error)
                    failed += 1
        if not failed:
            messages.success(request, _("%(count)s results saved.") % {"count": saved})
            return redirect("entry-grid", pk=event.pk, number=number)
        status = 400
        if saved:
            messages.success(request, _("%(count)s results saved.") % {"count": saved})
        messages.error(
            request, _("%(count)s entries refused: see the rows marked below.") % {"count": failed}
        )
        # Show the saved ones as stored, keep the refused ones with their errors.
        fresh = {(c.table.pk, c.deal.pk): c for r in rows for c in r.cells if c.form is not None}
        rows = _grid_rows(event, number)
        for row in rows:
            for cell in row.cells:
                old = fresh.get((cell.table.pk, cell.deal.pk))
                if cell.result is None and old is not None and old.form is not None:
                    cell.form = old.form
    context = {
        "event": event,
        "round_number": number,
        "rows": rows,
        "rounds": rounds,
        "seats": SEATS,
    }
    return render(request, "tournaments/entry/grid.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def result_actions(
    request: HttpRequest, pk: int, table_number: int, deal_number: int
) -> HttpResponse:
    """The director's actions on one (table, deal): correct, artificial, not played."""
    event = _directed_event_or_404(request, pk)
    table = get_object_or_404(Table, event=event, number=table_number)
    deal = get_object_or_404(Deal, event=event, number=deal_number)
    result = (
        TableResult.objects.filter(table=table, deal=deal)
        .select_related(
            "deal", "table", "seat_n__player", "seat_e__player", "seat_s__player", "seat_w__player"
        )
        .first()
    )
    initial = {}
    outcome = result_outcome(result) if result is not None else None
    if outcome:
        initial = {
            "taker_seat": outcome["taker_seat"],
            "contract": outcome["contract"],
            "oudlers": outcome["oudlers"],
            "points": outcome["points"],
            "petit_au_bout": outcome["petit_au_bout"] or "",
            "chelem_announced": outcome["chelem"]["announced"],
            "chelem_made_by": outcome["chelem"]["made_by"] or "",
        }
        for index, poignee in enumerate(outcome["poignees"][:2], start=1):
            initial[f"poignee_{index}_side"] = poignee["side"]
            initial[f"poignee_{index}_size"] = poignee["size"]
    action = request.POST.get("action") if request.method == "POST" else None
    post = request.POST if request.method == "POST" else None
    correct = CorrectionForm(
        post if action == "correct" else None,
        deal=deal,
        director=True,
        prefix="correct",
        initial=initial,
    )
    artificial = ArtificialForm(post if action == "artificial" else None, prefix="artificial")
    not_played = ReasonForm(post if action == "not_played" else None, prefix="not_played")
    status = 200
    if action:
        try:
            if action == "correct" and correct.is_valid():
                reason = correct.cleaned_data["reason"]
                if result is None:
                    saved = table_result_submit(
                        table=table,
                        deal=deal,
                        outcome=correct.outcome(),
                        actor=request.user,
                        via="organiser",
                    )
                else:
                    saved = table_result_correct(
                        result=result, outcome=correct.outcome(), actor=request.user, reason=reason
                    )
            elif action == "artificial" and artificial.is_valid():
                saved = table_result_assign_artificial(
                    event=event,
                    table=table,
                    deal=deal,
                    actor=request.user,
                    reason=artificial.cleaned_data["reason"],
                    percentages={s: artificial.cleaned_data[s] for s in SEATS},
                )
            elif action == "not_played" and not_played.is_valid():
                saved = table_result_mark_not_played(
                    event=event,
                    table=table,
                    deal=deal,
                    actor=request.user,
                    reason=not_played.cleaned_data["reason"],
                )
            else:
                saved = None
        except ResultError as error:
            target = {"correct": correct, "artificial": artificial}.get(action, not_played)
            add_result_error(target, error)
            saved = None
        if saved is not None:
            messages.success(
                request,
                _("Deal %(deal)s at table %(table)s updated.")
                % {"deal": deal.number, "table": table.number},
            )
            return redirect(
                "entry-result", pk=event.pk, table_number=table.number, deal_number=deal.number
            )
        status = 400
    history = (
        list(
            ResultChange.objects.filter(result=result).select_related("actor").order_by("at", "pk")
        )
        if result is not None
        else []
    )
    context = {
        "event": event,
        "table": table,
        "deal": deal,
        "result": result,
        "outcome": outcome,
        "seats": SEATS,
        "correct": correct,
        "artificial": artificial,
        "not_played": not_played,
        "history": history,
    }
    return render(request, "tournaments/entry/result.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def penalties(request: HttpRequest, pk: int) -> HttpResponse:
    event = _directed_event_or_404(request, pk)
    form = PenaltyForm(request.POST or None, event=event)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                penalty_record(
                    event=event,
                    entrant=form.cleaned_data.get("entrant"),
                    team=form.cleaned_data.get("team"),
                    points=form.cleaned_data["points"],
                    reason=form.cleaned_data["reason"],
                    actor=request.user,
                )
            except ResultError as error:
                add_result_error(form, error)
            else:
                messages.success(request, _("Penalty recorded."))
                return redirect("entry-penalties", pk=event.pk)
        status = 400
    rows = Penalty.objects.filter(event=event).select_related(
        "entrant__player", "team", "created_by"
    )
    context = {"event": event, "form": form, "penalties": rows}
    return render(request, "tournaments/entry/penalties.html", context, status=status)


@login_required
@require_http_methods(["GET"])
def history(request: HttpRequest, pk: int) -> HttpResponse:
    """The append-only history of the event's results and its penalties."""
    event = _directed_event_or_404(request, pk)
    changes = (
        ResultChange.objects.filter(event=event)
        .select_related("result__deal", "result__table", "actor")
        .order_by("-at", "-pk")
    )
    rows = Penalty.objects.filter(event=event).select_related(
        "entrant__player", "team", "created_by"
    )
    rounds = sorted(int(r["round"]) for r in (event.movement or {}).get("schedule", []))
    context = {"event": event, "changes": changes, "penalties": rows, "rounds": rounds}
    return render(request, "tournaments/entry/history.html", context)

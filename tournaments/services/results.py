"""Table results and director decisions: the only code that writes ``TableResult``.

Vocabulary: an *outcome* is what a table reports for one deal, in the input shape of
``rules.scoring.outcome_from_dict`` (``contract``, ``oudlers``, ``points``, ``petit_au_bout``,
``poignees``, ``chelem``) plus an optional ``taker_seat``
(default: the étui's, ``Deal.taker_seat``).
Duplicate tarot is played at 4 players, so ``players`` is 4 and need not be sent.

Invariants kept here:

- a result is accepted (or confirmed) only for a running event and a deal the movement schedules
  at that table (the round and the seated entrants are copied from the movement document);
- every writer takes the event row lock (``select_for_update``) first, before touching any
  ``TableResult`` row: results, ``event_finish`` and the standings recompute are serialised on
  that one lock (a single lock order: no deadlock), and a result never commits into an event
  finished meanwhile (the status is re-checked under the lock);
- one result per (deal, table): the database constraint is the final guard, a second device gets
  :class:`ResultConflict` carrying the stored result, never a silent overwrite;
- every write stores the marks computed by ``rules``, bumps ``Event.results_version`` in the same
  transaction, appends a ``ResultChange`` (who, when, why, before/after) and sends
  ``tournaments.signals.results_changed`` **on commit** (``scoring`` recomputes the standings);
- invalid input raises :class:`ResultError` naming the field; nothing stored changes.

Choices of this project:

- duplicate events reject Prise (the contract is at least a Garde) [default]; an imposed contract
  (``Deal.imposed_contract``) must be the one played; the taker seat is the étui's at the table
  (only a director correction may name another seat);
- opponent confirmation (``Event.opponent_confirmation``): a result entered without an organiser
  account (table phone, table code on the API) is stored unconfirmed until a defender confirms it
  (:func:`table_result_confirm`, from a defender's seat only, while the event runs). Unconfirmed
  results are shown but **not scored** and do not count as entered; results entered or corrected
  by a user who directs the event (:func:`user_directs`) are confirmed at once: any other account
  is no credential here, the table code is;
- a table at which a phantom is seated sits out that round: nothing is expected there, and
  nothing is stored there (neither by the table nor by a director decision);
- penalties are append-only ``Penalty`` rows (they carry who, when and why themselves).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from rules.errors import RuleError
from rules.scoring import outcome_from_dict, score_deal, seat_marks
from tournaments.models import (
    SEATS,
    Contract,
    Deal,
    Entrant,
    Event,
    Penalty,
    ResultChange,
    Table,
    TableResult,
    Team,
)
from tournaments.selectors import user_directs
from tournaments.signals import results_changed

PLAYERS_AT_A_TABLE = 4
ARTIFICIAL_CHOICES = (Decimal("60"), Decimal("50"), Decimal("40"))
ENTRY_VIAS = ("table", "organiser", "api")

User = AbstractBaseUser | AnonymousUser | None


class ResultError(Exception):
    """A refused result write. ``field`` names the input at fault (None: the request as a whole).

    ``message`` is translated; ``code`` is stable for API clients and tests.
    """

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        self.code = code
        self.message = message
        self.field = field
        super().__init__(self.describe())

    def describe(self) -> str:
        """The message naming its field: ``points: 95 is outside 0..91``."""
        return f"{self.field}: {self.message}" if self.field else self.message


class ResultConflict(ResultError):
    """A result for that deal and table is already stored; ``result`` is the stored one."""

    def __init__(self, result: TableResult) -> None:
        self.result = result
        super().__init__(
            "result_exists",
            _("a result for deal %(deal)s at table %(table)s is already stored")
            % {"deal": result.deal.number, "table": result.table.number},
            field="deal",
        )


# ----------------------------------------------------------------------------- movement


@dataclass(frozen=True)
class ScheduledPlay:
    """Where the movement puts a deal set: the round and the slot sitting at each seat."""

    round_number: int
    seat_slots: dict[str, int]


def scheduled_play(event: Event, table_number: int, deal_set: int) -> ScheduledPlay | None:
    """The (round, seats) at which ``table_number`` plays ``deal_set``, or None."""
    for round_entry in (event.movement or {}).get("schedule", []):
        for entry in round_entry.get("tables", []):
            if entry.get("table") == table_number and entry.get("deal_set") == deal_set:
                seats = {seat: int(slot) for seat, slot in entry.get("seats", {}).items()}
                return ScheduledPlay(round_number=int(round_entry["round"]), seat_slots=seats)
    return None


def round_tables(event: Event, round_number: int) -> list[dict[str, Any]]:
    """The movement's table entries of one round (``table``, ``seats``, ``deal_set``, ``copy``)."""
    for round_entry in (event.movement or {}).get("schedule", []):
        if round_entry.get("round") == round_number:
            return sorted(round_entry.get("tables", []), key=lambda entry: entry["table"])
    return []


def deals_of_set(event: Event, deal_set: int) -> list[Deal]:
    return list(event.deals.filter(deal_set=deal_set).order_by("number"))


def _seated_entrants(event: Event, play: ScheduledPlay) -> dict[str, Entrant]:
    by_slot = {
        e.slot: e
        for e in Entrant.objects.filter(event=event, slot__in=list(play.seat_slots.values()))
    }
    seated: dict[str, Entrant] = {}
    for seat in SEATS:
        slot = play.seat_slots.get(seat)
        entrant = by_slot.get(slot) if slot is not None else None
        if entrant is None:
            raise ResultError(
                "movement_incomplete",
                _("the movement seats slot %(slot)s at %(seat)s but no entrant holds it")
                % {"slot": slot, "seat": seat},
                field="table",
            )
        seated[seat] = entrant
    return seated


def table_sits_out(seated: Mapping[str, Entrant]) -> bool:
    """A table with a phantom plays nothing that round (its real players have a bye)."""
    return any(entrant.phantom for entrant in seated.values())


# ------------------------------------------------------------------------------ outcome


@dataclass(frozen=True)
class ScoredOutcome:
    """A validated outcome ready to store: field values and the marks per seat."""

    taker_seat: str
    fields: dict[str, Any]
    marks: dict[str, int]
    value: int


def _rule_error(error: RuleError) -> ResultError:
    field = error.field
    if field in {"seats"}:
        field = "taker_seat"
    return ResultError(error.code, error.translated(_), field=field)


def outcome_score(
    *, deal: Deal, outcome: Mapping[str, Any], director: bool = False
) -> ScoredOutcome:
    """Validate ``outcome`` for ``deal`` with ``rules`` and compute its marks (no write).

    Used by the services before saving and by the entry page to show the marks instantly.
    """
    if not isinstance(outcome, Mapping):
        raise ResultError("invalid_type", _("expected an object"), field="outcome")
    data = dict(outcome)
    taker_seat = data.pop("taker_seat", None) or deal.taker_seat
    if taker_seat not in SEATS:
        raise ResultError(
            "unknown_seat",
            _("%(seat)s is not a seat (N, E, S, W)") % {"seat": taker_seat},
            field="taker_seat",
        )
    if taker_seat != deal.taker_seat and not director:
        raise ResultError(
            "taker_seat_mismatch",
            _("the étui names %(seat)s as the taker seat of this deal") % {"seat": deal.taker_seat},
            field="taker_seat",
        )
    data.setdefault("players", PLAYERS_AT_A_TABLE)
    try:
        parsed = outcome_from_dict(data)
        if parsed.players != PLAYERS_AT_A_TABLE:
            raise ResultError(
                "players_not_four", _("duplicate tarot is played at 4 players"), field="players"
            )
        score = score_deal(parsed)
        marks = seat_marks(score, SEATS, taker_seat)
    except RuleError as error:
        raise _rule_error(error) from error
    contract = parsed.contract.value
    if contract == Contract.PRISE:
        raise ResultError(
            "prise_not_allowed",
            _("duplicate events are played at least at Garde (Prise is not allowed)"),
            field="contract",
        )
    if deal.imposed_contract and contract != deal.imposed_contract:
        raise ResultError(
            "contract_imposed",
            _("this deal's contract is imposed: %(contract)s")
            % {"contract": Contract(deal.imposed_contract).label},
            field="contract",
        )
    fields = {
        "taker_seat": taker_seat,
        "contract": contract,
        "oudlers": parsed.oudlers,
        "points_half": parsed.points_half,
        "petit_au_bout": parsed.petit_au_bout.value if parsed.petit_au_bout else "",
        "poignees": [{"side": p.side.value, "size": p.size.value} for p in parsed.poignees],
        "chelem_announced": parsed.chelem.announced,
        "chelem_made_by": parsed.chelem.made_by.value if parsed.chelem.made_by else "",
        "won": score.won,
        "margin": score.margin,
        "value": score.value,
        "mark_n": marks["N"],
        "mark_e": marks["E"],
        "mark_s": marks["S"],
        "mark_w": marks["W"],
    }
    return ScoredOutcome(taker_seat=taker_seat, fields=fields, marks=marks, value=score.value)


_OUTCOME_FIELDS = (
    "taker_seat",
    "contract",
    "oudlers",
    "points_half",
    "petit_au_bout",
    "poignees",
    "chelem_announced",
    "chelem_made_by",
    "won",
    "margin",
    "value",
    "mark_n",
    "mark_e",
    "mark_s",
    "mark_w",
)
_ARTIFICIAL_FIELDS = ("artificial_n", "artificial_e", "artificial_s", "artificial_w")


def result_outcome(result: TableResult) -> dict[str, Any] | None:
    """The stored outcome of a played result in the input shape (``taker_seat`` included)."""
    if result.kind != TableResult.Kind.PLAYED or result.points_half is None:
        return None
    half = result.points_half
    return {
        "taker_seat": result.taker_seat,
        "contract": result.contract,
        "oudlers": result.oudlers,
        "points": half // 2 if half % 2 == 0 else half / 2,
        "petit_au_bout": result.petit_au_bout or None,
        "poignees": list(result.poignees or []),
        "chelem": {"announced": result.chelem_announced, "made_by": result.chelem_made_by or None},
    }


def result_state(result: TableResult) -> dict[str, Any]:
    """A JSON picture of a result, as kept in the history (``before``/``after``)."""
    return {
        "kind": result.kind,
        "round": result.round_number,
        "outcome": result_outcome(result),
        "value": result.value,
        "marks": result.seat_marks(),
        "artificial": {
            seat: (str(v) if v is not None else None)
            for seat, v in result.seat_artificial().items()
        },
        "seats": result.seat_entrant_ids(),
        "confirmed": result.confirmed,
        "director_assigned": result.director_assigned,
    }


# ------------------------------------------------------------------------------ helpers


def _actor_user(actor: User) -> Any:
    if actor is None or not getattr(actor, "is_authenticated", False):
        return None
    return actor


def _actor_label(actor: User, fallback: str) -> str:
    user = _actor_user(actor)
    if user is None:
        return fallback
    return str(user.get_username())[:120]


def _locked_event(event_id: int) -> Event:
    """The event row, locked until commit: the first lock every result writer takes."""
    return Event.objects.select_for_update().get(pk=event_id)


def _bump_results_version(event_id: int) -> int:
    """Bump the event's version (row-locks it until commit) and announce it on commit."""
    Event.objects.filter(pk=event_id).update(results_version=F("results_version") + 1)
    version = Event.objects.values_list("results_version", flat=True).get(pk=event_id)
    transaction.on_commit(
        lambda: results_changed.send(sender=Event, event_id=event_id, results_version=version)
    )
    return int(version)


def _record(
    result: TableResult,
    action: str,
    actor: User,
    reason: str,
    before: dict[str, Any] | None,
    label: str,
) -> ResultChange:
    return ResultChange.objects.create(
        event_id=result.event_id,
        result=result,
        action=action,
        actor=_actor_user(actor),
        actor_label=_actor_label(actor, label),
        reason=reason,
        before=before,
        after=result_state(result),
    )


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ResultError("reason_required", _("a reason is required"), field="reason")
    return reason


def _require_running(event: Event) -> None:
    if event.status != Event.Status.RUNNING:
        raise ResultError(
            "event_not_running", _("the event is not running: results cannot be entered")
        )


def _require_directable(event: Event) -> None:
    if event.status == Event.Status.DRAFT:
        raise ResultError(
            "event_not_started", _("the event has not started: no result can be recorded yet")
        )


def _check_table_deal(table: Table, deal: Deal) -> None:
    if deal.event_id != table.event_id:
        raise ResultError(
            "deal_not_in_event", _("this deal is not part of the table's event"), field="deal"
        )


def _schedule_or_error(
    event: Event, table: Table, deal: Deal
) -> tuple[ScheduledPlay, dict[str, Entrant]]:
    play = scheduled_play(event, table.number, deal.deal_set)
    if play is None:
        raise ResultError(
            "deal_not_scheduled",
            _("deal %(deal)s is not played at table %(table)s in any round")
            % {"deal": deal.number, "table": table.number},
            field="deal",
        )
    seated = _seated_entrants(event, play)
    return play, seated


def _require_table_plays(seated: Mapping[str, Entrant]) -> None:
    if table_sits_out(seated):
        raise ResultError(
            "table_sits_out",
            _("a phantom sits at this table: it plays nothing this round"),
            field="table",
        )


def _stored(deal: Deal, table: Table) -> TableResult | None:
    return (
        TableResult.objects.select_related("deal", "table").filter(deal=deal, table=table).first()
    )


def _seat_fields(seated: Mapping[str, Entrant]) -> dict[str, Entrant]:
    return {
        "seat_n": seated["N"],
        "seat_e": seated["E"],
        "seat_s": seated["S"],
        "seat_w": seated["W"],
    }


# ------------------------------------------------------------------------------ services


def table_result_submit(
    *, table: Table, deal: Deal, outcome: Mapping[str, Any], actor: User = None, via: str = "table"
) -> TableResult:
    """Store the outcome of ``deal`` played at ``table``; raise :class:`ResultError` if refused.

    Raises :class:`ResultConflict` (with the stored result) when the deal is already entered.
    """
    if via not in ENTRY_VIAS:
        raise ValueError(f"unknown entry channel {via!r}")
    event = Event.objects.get(pk=table.event_id)
    _check_table_deal(table, deal)
    _require_running(event)  # early and unlocked: a fast, clear answer
    play, seated = _schedule_or_error(event, table, deal)
    _require_table_plays(seated)
    existing = _stored(deal, table)
    if existing is not None:
        raise ResultConflict(existing)
    scored = outcome_score(deal=deal, outcome=outcome)
    confirmed = user_directs(actor, event) or not event.opponent_confirmation
    with transaction.atomic():
        # The event may have been finished since the early check: decide under its lock.
        event = _locked_event(event.pk)
        _require_running(event)
        try:
            # A savepoint: a concurrent device may have stored the same (deal, table) meanwhile.
            with transaction.atomic():
                result = TableResult.objects.create(
                    event=event,
                    deal=deal,
                    table=table,
                    round_number=play.round_number,
                    kind=TableResult.Kind.PLAYED,
                    confirmed=confirmed,
                    entered_by=_actor_user(actor),
                    entered_via=via,
                    **_seat_fields(seated),
                    **scored.fields,
                )
        except IntegrityError as error:
            stored = _stored(deal, table)
            if stored is None:  # another constraint failed: not a duplicate
                raise
            raise ResultConflict(stored) from error
        _record(
            result,
            ResultChange.Action.CREATE,
            actor,
            "",
            None,
            _("table %(table)s") % {"table": table.number},
        )
        _bump_results_version(event.pk)
    return result


def table_result_confirm(*, result: TableResult, seat: str, actor: User = None) -> TableResult:
    """A defender (at ``seat``) confirms an unconfirmed result; it is then scored.

    Refused unless the event is running, the result is a played one not yet confirmed, and
    ``seat`` is a defender's seat of that result (an entrant sits there, neither the taker nor
    a phantom).
    """
    if seat not in SEATS:
        raise ResultError(
            "unknown_seat", _("%(seat)s is not a seat (N, E, S, W)") % {"seat": seat}, field="seat"
        )
    with transaction.atomic():
        _require_running(_locked_event(result.event_id))
        locked = TableResult.objects.select_for_update().get(pk=result.pk)
        if locked.kind != TableResult.Kind.PLAYED:
            raise ResultError("not_confirmable", _("only a played result is confirmed"))
        if locked.confirmed:
            raise ResultError("already_confirmed", _("this result is already confirmed"))
        if seat == locked.taker_seat:
            raise ResultError(
                "taker_cannot_confirm",
                _("a defender confirms the result, not the taker"),
                field="seat",
            )
        defender: Entrant | None = getattr(locked, f"seat_{seat.lower()}")
        if defender is None or defender.phantom:
            raise ResultError(
                "seat_not_seated",
                _("nobody plays at %(seat)s in this result: a defender confirms it")
                % {"seat": seat},
                field="seat",
            )
        before = result_state(locked)
        locked.confirmed = True
        locked.save(update_fields=["confirmed", "updated_at"])
        _record(
            locked,
            ResultChange.Action.CONFIRM,
            actor,
            "",
            before,
            _("defender at %(seat)s") % {"seat": seat},
        )
        _bump_results_version(locked.event_id)
    return locked


def table_result_correct(
    *, result: TableResult, outcome: Mapping[str, Any], actor: User, reason: str
) -> TableResult:
    """The director replaces a result by another outcome (a real, director-assigned result)."""
    reason = _require_reason(reason)
    with transaction.atomic():
        _locked_event(result.event_id)
        locked = (
            TableResult.objects.select_for_update()
            .select_related("deal", "event")
            .get(pk=result.pk)
        )
        _require_directable(locked.event)
        scored = outcome_score(deal=locked.deal, outcome=outcome, director=True)
        before = result_state(locked)
        for name, value in scored.fields.items():
            setattr(locked, name, value)
        for name in _ARTIFICIAL_FIELDS:
            setattr(locked, name, None)
        locked.kind = TableResult.Kind.PLAYED
        locked.director_assigned = True
        locked.confirmed = True
        locked.save()
        _record(locked, ResultChange.Action.CORRECT, actor, reason, before, "")
        _bump_results_version(locked.event_id)
    return locked


def _director_result(
    event: Event, table: Table, deal: Deal
) -> tuple[TableResult, bool, dict[str, Any] | None]:
    """The locked result of (deal, table), or a new unsaved one seated from the movement.

    Refused where the table sits out (a phantom is seated): nothing is expected there, and a
    stored decision would make the deal's seats count twice in the standings.
    """
    if table.event_id != event.pk:
        raise ResultError(
            "table_not_in_event", _("this table is not part of the event"), field="table"
        )
    _check_table_deal(table, deal)
    play, seated = _schedule_or_error(event, table, deal)
    _require_table_plays(seated)
    existing = TableResult.objects.select_for_update().filter(deal=deal, table=table).first()
    if existing is not None:
        return existing, False, result_state(existing)
    fresh = TableResult(
        event=event, deal=deal, table=table, round_number=play.round_number, **_seat_fields(seated)
    )
    return fresh, True, None


def _clear_outcome(result: TableResult) -> None:
    for name in _OUTCOME_FIELDS:
        setattr(result, name, [] if name == "poignees" else None)
    for name in ("taker_seat", "contract", "petit_au_bout", "chelem_made_by"):
        setattr(result, name, "")
    result.chelem_announced = False


def _percentage(value: object, seat: str) -> Decimal:
    field = f"percentages.{seat}"
    if value is None or value == "":
        raise ResultError("missing_field", _("this field is required"), field=field)
    try:
        number = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        raise ResultError(
            "invalid_type",
            _("expected a number, got %(value)s") % {"value": repr(value)},
            field=field,
        ) from None
    if not number.is_finite() or not Decimal(0) <= number <= Decimal(100):
        raise ResultError(
            "percentage_out_of_range",
            _("%(value)s is outside 0..100") % {"value": value},
            field=field,
        )
    return number.quantize(Decimal("0.01"))


def _director_decision(
    *,
    event: Event,
    table: Table,
    deal: Deal,
    actor: User,
    reason: str,
    kind: str,
    action: str,
    artificial: Mapping[str, Decimal | None],
) -> TableResult:
    """A director's decision replacing any outcome at (deal, table): artificial or not played.

    Takes the event lock, keeps the history (before/after, who, why) and bumps the version.
    """
    with transaction.atomic():
        event = _locked_event(event.pk)
        _require_directable(event)
        result, created, before = _director_result(event, table, deal)
        _clear_outcome(result)
        result.kind = kind
        result.artificial_n, result.artificial_e = artificial["N"], artificial["E"]
        result.artificial_s, result.artificial_w = artificial["S"], artificial["W"]
        result.director_assigned = True
        result.confirmed = True
        if created:
            result.entered_by = _actor_user(actor)
            result.entered_via = "organiser"
        result.save()
        _record(result, action, actor, reason, before, "")
        _bump_results_version(event.pk)
    return result


def table_result_assign_artificial(
    *,
    event: Event,
    table: Table,
    deal: Deal,
    percentages: Mapping[str, Any],
    actor: User,
    reason: str,
) -> TableResult:
    """Artificial scores per seat (e.g. 60 / 50 / 40): kept out of the real comparison."""
    reason = _require_reason(reason)
    values = {seat: _percentage(percentages.get(seat), seat) for seat in SEATS}
    return _director_decision(
        event=event, table=table, deal=deal, actor=actor, reason=reason,
        kind=TableResult.Kind.ARTIFICIAL, action=ResultChange.Action.ARTIFICIAL,
        artificial=values,
    )  # fmt: skip


def table_result_mark_not_played(
    *, event: Event, table: Table, deal: Deal, actor: User, reason: str
) -> TableResult:
    """The deal was not played at that table: it counts as scheduled (Neuberg), never compared."""
    reason = _require_reason(reason)
    return _director_decision(
        event=event, table=table, deal=deal, actor=actor, reason=reason,
        kind=TableResult.Kind.NOT_PLAYED, action=ResultChange.Action.NOT_PLAYED,
        artificial=dict.fromkeys(SEATS),
    )  # fmt: skip


def penalty_record(
    *,
    event: Event,
    points: Any,
    reason: str,
    actor: User,
    entrant: Entrant | None = None,
    team: Team | None = None,
) -> Penalty:
    """Deduct ``points`` percentage points from an entrant's (or a team's) event percentage."""
    reason = _require_reason(reason)
    if (entrant is None) == (team is None):
        raise ResultError("penalty_target", _("name either an entrant or a team"), field="entrant")
    if entrant is not None and entrant.event_id != event.pk:
        raise ResultError(
            "entrant_not_in_event", _("this entrant is not part of the event"), field="entrant"
        )
    if team is not None and team.event_id != event.pk:
        raise ResultError(
            "team_not_in_event", _("this team is not part of the event"), field="team"
        )
    try:
        amount = Decimal(str(points).strip().replace(",", "."))
    except InvalidOperation:
        raise ResultError(
            "invalid_type",
            _("expected a number, got %(value)s") % {"value": repr(points)},
            field="points",
        ) from None
    if not amount.is_finite() or not Decimal(0) < amount <= Decimal(100):
        raise ResultError(
            "penalty_out_of_range",
            _("a penalty is more than 0 and at most 100 percentage points"),
            field="points",
        )
    with transaction.atomic():
        event = _locked_event(event.pk)
        _require_directable(event)
        penalty = Penalty.objects.create(
            event=event,
            entrant=entrant,
            team=team,
            points=amount.quantize(Decimal("0.01")),
            reason=reason,
            created_by=_actor_user(actor),
        )
        _bump_results_version(event.pk)
    return penalty


def result_history(event: Event) -> list[ResultChange]:
    """The append-only history of an event, oldest first."""
    return list(
        ResultChange.objects.filter(event=event)
        .select_related("result__deal", "result__table", "actor")
        .order_by("at", "pk")
    )


# ---------------------------------------------------------------------------------- reads


@dataclass
class TablePlay:
    """What one table plays in one round: who sits where, the deals, the results stored."""

    round_number: int
    deal_set: int
    seats: dict[str, Entrant]
    deals: list[Deal]
    results: dict[int, TableResult]  # Deal.pk -> stored result

    @property
    def sits_out(self) -> bool:
        return table_sits_out(self.seats)

    @property
    def missing(self) -> list[Deal]:
        """Deals still to enter (none when a phantom sits here)."""
        if self.sits_out:
            return []
        return [deal for deal in self.deals if deal.pk not in self.results]

    @property
    def seat_list(self) -> list[tuple[str, Entrant]]:
        return [(seat, self.seats[seat]) for seat in SEATS if seat in self.seats]


def table_plays(table: Table) -> list[TablePlay]:
    """Every round of ``table`` from the movement, with entrants, deals and results (3 queries)."""
    event = table.event
    entrants = {
        e.slot: e
        for e in Entrant.objects.filter(event=event).select_related("player__club", "team")
    }
    deals_by_set: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(event=event).order_by("number"):
        deals_by_set.setdefault(deal.deal_set, []).append(deal)
    results = {
        r.deal_id: r
        for r in TableResult.objects.filter(table=table).select_related("deal", "table")
    }
    plays = []
    for round_entry in sorted(
        (event.movement or {}).get("schedule", []), key=lambda entry: entry["round"]
    ):
        for entry in round_entry.get("tables", []):
            if entry.get("table") != table.number:
                continue
            seats = {
                seat: entrants[int(slot)]
                for seat, slot in entry.get("seats", {}).items()
                if int(slot) in entrants
            }
            deals = deals_by_set.get(int(entry["deal_set"]), [])
            plays.append(
                TablePlay(
                    round_number=int(round_entry["round"]),
                    deal_set=int(entry["deal_set"]),
                    seats=seats,
                    deals=deals,
                    results={d.pk: results[d.pk] for d in deals if d.pk in results},
                )
            )
    return plays

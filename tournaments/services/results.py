"""Table results and director decisions: the only code that writes ``TableResult``.

Vocabulary: an *outcome* is what a table reports for one deal, in the input shape of
``rules.scoring.outcome_from_dict`` (``contract``, ``oudlers``, ``points``, ``petit_au_bout``,
``poignees``, ``chelem``) plus an optional ``taker_seat``
(default: the étui's, ``Deal.taker_seat``).
Duplicate tarot is played at 4 players, so ``players`` is 4 and need not be sent.

Invariants kept here:

- a result is accepted (or confirmed) only for a running event and a deal the movement schedules
  at that table (the round and the seated entrants are copied from ``Event.schedule``);
- writers never wait for scoring: a writer locks only what guards its result (the
  ``TableResult`` row it changes, the (deal, table) unique constraint) and, as its last
  statement, bumps ``Event.results_version`` where the event's status still allows the write
  (:func:`_commit_version`). That row lock is held only from the bump to the commit, so
  versions are given in commit order; ``event_finish`` takes the same row lock, so a result never
  commits into an event finished meanwhile. The standings recompute takes no lock a writer
  needs (``scoring.services``);
- one result per (deal, table): the database constraint is the final guard, a second device gets
  :class:`ResultConflict` carrying the stored result, never a silent overwrite; the same
  outcome sent again (a retry after a lost answer, a double tap) gets its subclass
  :class:`ResultReplay` and writes nothing (no version bump, no history line);
- every write stores the marks computed by ``rules``, bumps ``Event.results_version`` in the same
  transaction and stamps the rows it wrote with the new version (``TableResult.version``: the
  recompute rescores only the deals changed since its snapshot), appends a ``ResultChange``
  (who, when, why, before/after) and sends
  ``tournaments.signals.results_changed`` **on commit** (``scoring`` recomputes the standings);
- invalid input raises :class:`~tournaments.errors.DomainError` naming the field; nothing
  stored changes.

Choices of this project:

- the duplicate restrictions of ``rules.duplicate``: 4 players, at least Garde [default], the
  imposed contract (``Deal.imposed_contract``) if any; the taker seat is the étui's at the table
  (only a director correction may name another seat);
- when the deal's cards are known (``Deal.cards``), the outcome is checked against them
  (``rules.hand_checks``: a poignée, the oudlers, a chelem or a petit au bout the hands make
  impossible is refused naming the hand); unknown cards are not checked. No query beyond the
  deal's row, no simulation here: what is only improbable is flagged off the write path
  (``tournaments.hand_flags``);
- opponent confirmation (``Event.opponent_confirmation``): a result entered without an organiser
  account (table phone, table code on the API) is stored unconfirmed until a defender confirms it
  (:func:`table_result_confirm`, from a defender's seat only, while the event runs). Unconfirmed
  results are shown but **not scored** and do not count as entered; results entered or corrected
  by a user who directs the event (``clubs.access.user_directs``) are confirmed at once:
  any other account is no credential here, the table code is;
- a table corrects its own entry (:func:`table_result_table_correct`: a played result it
  entered itself, never a director's) while the event runs and until the director closes the
  round (``refuse_closed_round``, checked under the event's lock); the table code's scope
  (``tournaments.table_scope``) decides which rounds it may reach;
- a table at which a phantom is seated sits out that round (``TablePlay.sits_out``): nothing is
  expected there, and nothing is stored there (neither by the table nor by a director decision);
- penalties are append-only ``Penalty`` rows (they carry who, when and why themselves);
  artificial percentages and penalty points are read by ``rules.numbers`` (exact hundredths).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from clubs.access import UserLike, user_directs
from clubs.errors import DomainError
from clubs.history import Author, EnteredVia, entered_by_set, history_write
from clubs.outcomes import ScoredOutcome, outcome_score
from rules.errors import RuleError
from rules.numbers import as_decimal, penalty_hundredths, percentage_hundredths
from tournaments.errors import ResultConflict, ResultReplay
from tournaments.models import (
    SEATS,
    Deal,
    Entrant,
    EntrantChange,
    Event,
    Penalty,
    ResultChange,
    Table,
    TableResult,
    Team,
)
from tournaments.movements import TablePlay
from tournaments.selectors import TableRound, result_outcome
from tournaments.signals import results_changed

ENTRY_VIAS = (EnteredVia.TABLE, EnteredVia.ORGANISER, EnteredVia.API)

User = UserLike | None


def _seated_entrants(
    event: Event, play: TablePlay, known: Mapping[int, Entrant] | None = None
) -> dict[str, Entrant]:
    """The entrants ``play`` seats, by seat; ``known``: the entrants of those slots already
    read (by slot), else read now."""
    by_slot = known
    if by_slot is None:
        rows = Entrant.objects.filter(event=event, slot__in=play.slots).order_by()
        by_slot = {e.slot: e for e in rows}
    seated: dict[str, Entrant] = {}
    for seat in SEATS:
        slot = play.seats[seat]
        entrant = by_slot.get(slot)
        if entrant is None:
            raise DomainError(
                "movement_incomplete",
                _("the movement seats slot %(slot)s at %(seat)s but no entrant holds it")
                % {"slot": slot, "seat": seat},
                field="table",
            )
        seated[seat] = entrant
    return seated


# ------------------------------------------------------------------------------ outcome


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


def _commit_version(
    event: Event, *, running_only: bool, results: Sequence[TableResult] = ()
) -> int:
    """The last statement of every results write: bump the ``results_version`` of the event's
    scoring event (the event itself, or its simultaneous) if the event's status still allows
    the write, stamp ``results`` with the new version, and announce it on commit. Raises (so
    the transaction rolls back) when the event was finished, or is a draft.

    The bump row-locks the scoring event until commit: keep it last, so the lock is held for
    milliseconds, and versions follow commit order. A section's own row is share-locked, so
    that ``event_finish`` (which locks it for update) and a write never cross.
    """
    allowed = [Event.Status.RUNNING]
    if not running_only:
        allowed.append(Event.Status.FINISHED)
    table = Event._meta.db_table
    statuses = ", ".join(["%s"] * len(allowed))
    scoring_id = event.scoring_event_id
    with connection.cursor() as cursor:
        if scoring_id == event.pk:
            cursor.execute(
                f"UPDATE {table} SET results_version = results_version + 1 "
                f"WHERE id = %s AND status IN ({statuses}) RETURNING results_version",
                [event.pk, *allowed],
            )
        else:
            lock = " FOR SHARE" if connection.features.has_select_for_update else ""
            cursor.execute(f"SELECT status FROM {table} WHERE id = %s{lock}", [event.pk])
            (status,) = cursor.fetchone()
            cursor.execute(
                f"UPDATE {table} SET results_version = results_version + 1 "
                "WHERE id = %s AND %s IN (" + statuses + ") RETURNING results_version",
                [scoring_id, status, *allowed],
            )
        row = cursor.fetchone()
    if row is None:  # the status changed since the early check: say which way
        current = Event.objects.get(pk=event.pk)
        (_require_running if running_only else _require_directable)(current)
        raise AssertionError(f"event {event.pk}: results_version not bumped")
    version = int(row[0])
    if results:
        TableResult.objects.filter(pk__in=[result.pk for result in results]).update(version=version)
        for result in results:
            result.version = version
    transaction.on_commit(
        lambda: results_changed.send(sender=Event, event_id=scoring_id, results_version=version)
    )
    return version


def refuse_closed_round(event: Event, round_number: int) -> None:
    """Raise ``round_closed`` if the director has closed ``round_number`` of ``event``.

    Called by the table code's writes inside their transaction, after
    :func:`_commit_version`: the event row is then locked (or share-locked, for a section),
    and :func:`tournaments.services.events.round_close` locks it for update, so a table's
    write and the closing of its round never cross.
    """
    closed = Event.objects.values_list("closed_rounds", flat=True).get(pk=event.pk)
    if round_number in (closed or []):
        raise DomainError(
            "round_closed",
            _("round %(round)s is closed: ask the director") % {"round": round_number},
            field="deal",
        )


def _record(
    result: TableResult,
    action: str,
    actor: User,
    reason: str,
    before: dict[str, Any] | None,
    label: str,
) -> ResultChange:
    return history_write(
        ResultChange, result=result, action=action, author=Author(user=actor, label=label),
        reason=reason, before=before, after=result_state(result), event_id=result.event_id,
    )  # fmt: skip


def _table_label(table: Table) -> str:
    return _("table %(table)s") % {"table": table.number}


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", _("a reason is required"), field="reason")
    return reason


def _require_running(event: Event) -> None:
    if event.status != Event.Status.RUNNING:
        raise DomainError(
            "event_not_running", _("the event is not running: results cannot be entered")
        )


def _require_directable(event: Event) -> None:
    if event.status == Event.Status.DRAFT:
        raise DomainError(
            "event_not_started", _("the event has not started: no result can be recorded yet")
        )


def _check_table_deal(table: Table, deal: Deal) -> None:
    if deal.event_id != table.event_id:
        raise DomainError(
            "deal_not_in_event", _("this deal is not part of the table's event"), field="deal"
        )


def _scheduled_play(
    event: Event, table: Table, deal: Deal, known: TableRound | None = None
) -> tuple[TablePlay, dict[str, Entrant]]:
    """Where the movement has ``table`` play ``deal`` and who sits there; refused if nowhere,
    or if the table sits out that round. ``known``: that table round as already read (its
    seated entrants are not read again)."""
    play = event.schedule.play_of_deal_set(table=table.number, deal_set=deal.deal_set)
    if play is None:
        raise DomainError(
            "deal_not_scheduled",
            _("deal %(deal)s is not played at table %(table)s in any round")
            % {"deal": deal.number, "table": table.number},
            field="deal",
        )
    entrants = None
    if known is not None and (known.round_number, known.deal_set) == (play.round, play.deal_set):
        entrants = {e.slot: e for e in known.seats.values()}
    seated = _seated_entrants(event, play, entrants)
    if play.sits_out:
        raise DomainError(
            "table_sits_out",
            _("a phantom sits at this table: it plays nothing this round"),
            field="table",
        )
    return play, seated


def _refuse_changed_seating(
    event: Event, table: Table, deal: Deal, round_number: int, seated: dict[str, Entrant]
) -> None:
    """Under the event's lock (after ``_commit_version``): a substitution or a withdrawal
    (``tournaments.services.late_changes``, which takes the same lock) committed since the
    seating was read must not leave a result under the old players. Events without such a
    change pay one indexed query."""
    if not EntrantChange.objects.filter(event_id=event.pk, from_round__lte=round_number).exists():
        return
    current = Event.objects.get(pk=event.pk)  # the movement as committed now
    try:
        now = _scheduled_play(current, table, deal)[1]
    except DomainError:
        now = {}
    if {seat: e.pk for seat, e in now.items()} != {seat: e.pk for seat, e in seated.items()}:
        raise DomainError(
            "seating_changed",
            _(
                "The players of this table changed meanwhile (a substitution or a withdrawal): "
                "reload the page and enter the deal again."
            ),
            field="table",
        )


def _stored(deal: Deal, table: Table) -> TableResult | None:
    return (
        TableResult.objects.select_related("deal", "table").filter(deal=deal, table=table).first()
    )


# What a table reports: a resend is a replay when these (and the poignées) equal the stored ones.
_REPLAY_FIELDS = (
    "taker_seat",
    "contract",
    "oudlers",
    "points_half",
    "petit_au_bout",
    "chelem_announced",
    "chelem_made_by",
)


def _same_outcome(stored: TableResult, scored: ScoredOutcome) -> bool:
    """Whether ``stored`` is a played result with the outcome ``scored`` would store."""

    def poignees(items: Any) -> list[tuple[str, str]]:
        return sorted((p["side"], p["size"]) for p in items or [])

    if stored.kind != TableResult.Kind.PLAYED:
        return False
    return all(getattr(stored, name) == scored.fields[name] for name in _REPLAY_FIELDS) and (
        poignees(stored.poignees) == poignees(scored.fields["poignees"])
    )


def _already_stored(stored: TableResult, scored: ScoredOutcome | None) -> ResultConflict:
    """The refusal for an entry of a (deal, table) already stored: a replay if identical."""
    if scored is not None and _same_outcome(stored, scored):
        return ResultReplay(stored)
    return ResultConflict(stored)


def _seat_fields(seated: Mapping[str, Entrant]) -> dict[str, Entrant]:
    return {
        "seat_n": seated["N"],
        "seat_e": seated["E"],
        "seat_s": seated["S"],
        "seat_w": seated["W"],
    }


# ------------------------------------------------------------------------------ services


def table_result_enter(
    *,
    table: Table,
    deal: Deal,
    outcome: Mapping[str, Any],
    actor: User = None,
    via: str = "table",
    refuse_closed: bool = False,
    known: TableRound | None = None,
    none_stored: bool = False,
    reason: str = "",
) -> TableResult:
    """Store the outcome of ``deal`` played at ``table``; raise :class:`DomainError` if refused.
    ``reason``: why the director enters it (kept in the history line), if he says.

    Raises :class:`ResultConflict` (with the stored result) when the deal is already entered,
    :class:`ResultReplay` (its subclass) when with this very outcome: then nothing is written.
    ``refuse_closed`` (a table code's write): refused (``round_closed``) in a round the
    director has closed, even one closed while this write ran.
    ``known`` (the table code's scope): the table's round of ``deal`` as the caller read it
    just before (``selectors.table_rounds``), its seated entrants and stored result then not
    read again; ``none_stored``: the caller has just read that no result of ``deal`` is stored
    at ``table``. A result stored since is caught by the (deal, table) constraint.
    """
    if via not in ENTRY_VIAS:
        raise ValueError(f"unknown entry channel {via!r}")
    # The table's event as its caller read it (the entry path reads it with the table), else
    # read now; the status is only checked early here, _commit_version decides under the lock.
    if Table._meta.get_field("event").is_cached(table):
        event = table.event
    else:
        event = Event.objects.defer("movement").get(pk=table.event_id)
    _check_table_deal(table, deal)
    _require_running(event)  # early and unlocked: a fast, clear answer
    play, seated = _scheduled_play(event, table, deal, known)
    existing: TableResult | None
    if none_stored:
        existing = None
    elif known is not None and known.deal_set == deal.deal_set:
        existing = known.results.get(deal.pk)
    else:
        existing = _stored(deal, table)
    if existing is not None:
        try:
            resent: ScoredOutcome | None = outcome_score(deal=deal, outcome=outcome)
        except DomainError:  # an invalid entry is no resend: the stored result wins
            resent = None
        raise _already_stored(existing, resent)
    scored = outcome_score(deal=deal, outcome=outcome)
    confirmed = user_directs(actor, event) or not event.opponent_confirmation
    try:
        with transaction.atomic():
            result = TableResult.objects.create(
                event=event,
                deal=deal,
                table=table,
                round_number=play.round,
                kind=TableResult.Kind.PLAYED,
                confirmed=confirmed,
                **Author(user=actor, label=_table_label(table), via=via).fields(),
                **_seat_fields(seated),
                **scored.fields,
            )
            _record(
                result,
                ResultChange.Action.CREATE,
                actor,
                reason.strip(),
                None,
                _("table %(table)s") % {"table": table.number},
            )
            # The event may be finished meanwhile: _commit_version decides, last, under its lock.
            _commit_version(event, running_only=True, results=[result])
            _refuse_changed_seating(event, table, deal, play.round, seated)
            if refuse_closed:
                refuse_closed_round(event, play.round)
    except IntegrityError as error:
        # A concurrent device stored the same (deal, table) since the check above.
        stored = _stored(deal, table)
        if stored is None:  # another constraint failed: not a duplicate
            raise
        raise _already_stored(stored, scored) from error
    return result


def table_result_confirm(*, result: TableResult, seat: str, actor: User = None) -> TableResult:
    """A defender (at ``seat``) confirms an unconfirmed result; it is then scored.

    Refused unless the event is running, the result is a played one not yet confirmed, and
    ``seat`` is a defender's seat of that result (an entrant sits there, neither the taker nor
    a phantom).
    """
    if seat not in SEATS:
        raise DomainError(
            "unknown_seat", _("%(seat)s is not a seat (N, E, S, W)") % {"seat": seat}, field="seat"
        )
    event = Event.objects.get(pk=result.event_id)
    _require_running(event)  # early: a fast, clear answer
    with transaction.atomic():
        locked = TableResult.objects.select_for_update().get(pk=result.pk)
        if locked.kind != TableResult.Kind.PLAYED:
            raise DomainError("not_confirmable", _("only a played result is confirmed"))
        if locked.confirmed:
            raise DomainError("already_confirmed", _("this result is already confirmed"))
        if seat == locked.taker_seat:
            raise DomainError(
                "taker_cannot_confirm",
                _("a defender confirms the result, not the taker"),
                field="seat",
            )
        defender: Entrant | None = getattr(locked, f"seat_{seat.lower()}")
        if defender is None or defender.phantom:
            raise DomainError(
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
        _commit_version(event, running_only=True, results=[locked])
    return locked


def table_result_director_correct(
    *, result: TableResult, outcome: Mapping[str, Any], actor: User, reason: str
) -> TableResult:
    """The director replaces a result by another outcome (a real, director-assigned result)."""
    reason = _require_reason(reason)
    with transaction.atomic():
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
        entered_by_set(locked, Author(user=actor, via=EnteredVia.ORGANISER))
        locked.save()
        _record(locked, ResultChange.Action.CORRECT, actor, reason, before, "")
        _commit_version(locked.event, running_only=False, results=[locked])
    return locked


def table_result_table_correct(
    *, result: TableResult, outcome: Mapping[str, Any], actor: User = None, via: str = "table"
) -> TableResult:
    """The table corrects its own entry (``tournaments.table_scope.correct`` decides where).

    Refused unless the event runs, the round is not closed (:func:`refuse_closed_round`) and
    the result is a played one the table entered itself (a director's decision or entry is
    the director's to correct). The same outcome again is a :class:`ResultReplay` (nothing
    written). Otherwise the outcome replaces the stored one, ``entered_via`` names the
    channel, and the history keeps a correction by the table (before/after); in an event that
    asks for the opponent confirmation, the corrected result awaits a defender again (unless
    the director made it).
    """
    if via not in ENTRY_VIAS:
        raise ValueError(f"unknown entry channel {via!r}")
    event = Event.objects.get(pk=result.event_id)
    _require_running(event)  # early: a fast, clear answer
    with transaction.atomic():
        locked = (
            TableResult.objects.select_for_update()
            .select_related("deal", "table")
            .get(pk=result.pk)
        )
        if (
            locked.kind != TableResult.Kind.PLAYED
            or locked.director_assigned
            or (locked.entered_via not in ("table", "api"))
        ):
            raise DomainError(
                "not_own_entry",
                _("the director recorded this result: ask the director to correct it"),
                field="deal",
            )
        scored = outcome_score(deal=locked.deal, outcome=outcome)
        if _same_outcome(locked, scored):
            raise ResultReplay(locked)
        before = result_state(locked)
        for name, value in scored.fields.items():
            setattr(locked, name, value)
        locked.confirmed = user_directs(actor, event) or not event.opponent_confirmation
        entered_by_set(locked, Author(user=actor, label=_table_label(locked.table), via=via))
        locked.save()
        _record(
            locked,
            ResultChange.Action.CORRECT,
            actor,
            "",
            before,
            _("table %(table)s") % {"table": locked.table.number},
        )
        _commit_version(event, running_only=True, results=[locked])
        refuse_closed_round(event, locked.round_number)
    return locked


def _director_result(
    event: Event, table: Table, deal: Deal
) -> tuple[TableResult, bool, dict[str, Any] | None]:
    """The locked result of (deal, table), or a new unsaved one seated from the movement.

    Refused where the table sits out (a phantom is seated): nothing is expected there, and a
    stored decision would make the deal's seats count twice in the standings.
    """
    if table.event_id != event.pk:
        raise DomainError(
            "table_not_in_event", _("this table is not part of the event"), field="table"
        )
    _check_table_deal(table, deal)
    play, seated = _scheduled_play(event, table, deal)
    existing = TableResult.objects.select_for_update().filter(deal=deal, table=table).first()
    if existing is not None:
        return existing, False, result_state(existing)
    fresh = TableResult(
        event=event, deal=deal, table=table, round_number=play.round, **_seat_fields(seated)
    )
    return fresh, True, None


def _clear_outcome(result: TableResult) -> None:
    for name in _OUTCOME_FIELDS:
        setattr(result, name, [] if name == "poignees" else None)
    for name in ("taker_seat", "contract", "petit_au_bout", "chelem_made_by"):
        setattr(result, name, "")
    result.chelem_announced = False


def _percentage(value: object, seat: str) -> Decimal:
    try:
        return as_decimal(percentage_hundredths(value, field=f"percentages.{seat}"))
    except RuleError as error:
        raise DomainError.from_rule(error) from error


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

    Locks the result row (or creates it), keeps the history (before/after, who, why) and bumps
    the version.
    """
    event = Event.objects.get(pk=event.pk)
    _require_directable(event)  # early: a fast, clear answer
    for attempt in range(2):
        try:
            with transaction.atomic():
                result, _created, before = _director_result(event, table, deal)
                _clear_outcome(result)
                result.kind = kind
                result.artificial_n, result.artificial_e = artificial["N"], artificial["E"]
                result.artificial_s, result.artificial_w = artificial["S"], artificial["W"]
                result.director_assigned = True
                result.confirmed = True
                entered_by_set(result, Author(user=actor, via=EnteredVia.ORGANISER))
                result.save()
                _record(result, action, actor, reason, before, "")
                _commit_version(event, running_only=False, results=[result])
            return result
        except IntegrityError:
            # A table stored this (deal, table) since we looked: decide on the stored row.
            if attempt:
                raise
    raise AssertionError("unreachable")


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
        raise DomainError("penalty_target", _("name either an entrant or a team"), field="entrant")
    if entrant is not None and entrant.event_id != event.pk:
        raise DomainError(
            "entrant_not_in_event", _("this entrant is not part of the event"), field="entrant"
        )
    if team is not None and team.event_id != event.pk:
        raise DomainError(
            "team_not_in_event", _("this team is not part of the event"), field="team"
        )
    try:
        amount = as_decimal(penalty_hundredths(points, field="points"))
    except RuleError as error:
        raise DomainError.from_rule(error) from error
    event = Event.objects.get(pk=event.pk)
    _require_directable(event)  # early: a fast, clear answer
    with transaction.atomic():
        penalty = Penalty.objects.create(
            event=event,
            entrant=entrant,
            team=team,
            points=amount,
            reason=reason,
            created_by=_actor_user(actor),
        )
        _commit_version(event, running_only=False)
    return penalty

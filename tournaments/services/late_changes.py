"""Late changes after the start: a substitute replaces a player, or a player withdraws.

Both are written into the movement itself, which stays the single source of truth of who sits
where (``Event.schedule``): from round *r* on, the seat's route (its tables, seats and deal
sets, round by round) is held by a **new slot**, and the old slot sits in the ``byes``; before
*r* the new slot is in the ``byes``. The document stays valid (every slot present once per
round, the line kept, no replay, no new meeting) and is checked by the validator again. The
hand-over is the pure :func:`tournaments.movements.hand_over`, which reads the document through
the typed reader (``Schedule``): this module never walks the document itself.

- **Substitute** (:func:`entrant_substitute`): the new slot is the substitute's own entrant
  (his player, the replaced player's line and team). From round *r* on every table, phone page,
  table card and route card names him; the results of those rounds are his (the seats of a
  result are copied from the movement when it is entered); the replaced player keeps the
  results of the rounds he played.
- **Withdrawal** (:func:`entrant_withdraw_late`, *forfait*): the new slot is a **phantom**.
  A table where a phantom sits *sits out* (``TablePlay.sits_out``), exactly as the phantom
  tables of a movement for a player count that is not a multiple of 4: nothing is expected or
  stored there, its three real players have a bye that round. The sit-outs are fair: the
  withdrawn seat meets each other player at most as often as the movement's meetings allow
  (once in a line movement), so nobody sits out twice because of one withdrawal, and a bye
  costs nothing (a player's percentage is the mean over the deals he played). The deals those
  tables would have played are scheduled once less (Neuberg's N, ``Schedule.tables_per_deal_set``).

**Live Swiss** (quadrettes): a round not paired yet has no seats to hand over; the change is
kept in the movement's ``swiss`` key (``movements.replace_in_pending``) and the pairing at the
close of the round before seats the substitute where the team's rotation seats the replaced
player.

**Ranking** (the spec's individual rule, docs/domain/duplicate.md: a player's percentage is
the mean of his per-deal percentages over the deals he played): the replaced player and the
substitute are two entrants, each ranked on his own deals, each with his own score card; a
withdrawn player keeps his line, ranked on the rounds he played. A team event ranks the team
(the substitute joins the replaced player's team), as before. Nothing in ``scoring`` changes:
the recompute reads the movement and the entrants.

**Recompute**: the change bumps the scoring event's ``results_version`` (like a result, or
``tournaments.services.common.comparison_changed``) and announces it on commit; a withdrawal
also stamps the stored results of the deals whose scheduled count changed with the new
version, so that the incremental recompute rescores them (their Neuberg N changed).

**History**: an :class:`~tournaments.models.EntrantChange` row (who, from which round, by whom,
why) and the director's ``LogEntry`` on the event, as ``tournaments.services.events`` keeps
its actions.

Refused, with nothing changed: an event that is not running; a round outside the movement; an
entrant who already has results in that round or later (choose the next round); an entrant
already replaced or withdrawn, or a substitute before his own first round; a substitute already
in the event; a withdrawal in a team event (a team cannot play with an empty seat: replace the
player); a change the validator refuses.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F, Max, Q
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Player
from tournaments import movements
from tournaments.models import Deal, Entrant, EntrantChange, Event, TableResult
from tournaments.movements import HandOver
from tournaments.services.common import locked
from tournaments.services.history import log_director_action
from tournaments.signals import results_changed

#: The ``action`` of the event's ``LogEntry`` for each kind of change.
LOG_ACTIONS = {
    EntrantChange.Kind.SUBSTITUTE: "substitute",
    EntrantChange.Kind.WITHDRAWAL: "withdraw",
}

_SEAT_FIELDS = ("seat_n", "seat_e", "seat_s", "seat_w")


def _seated_in(entrant_id: int) -> Q:
    query = Q()
    for name in _SEAT_FIELDS:
        query |= Q(**{f"{name}_id": entrant_id})
    return query


def last_rounds_played(event: Event) -> dict[int, int]:
    """Per entrant pk, the last round in which a result of ``event`` seats him."""
    last: dict[int, int] = {}
    for name in _SEAT_FIELDS:
        rows = (
            TableResult.objects.filter(event=event, **{f"{name}__isnull": False})
            .values(name)
            .annotate(last=Max("round_number"))
            .order_by()
        )
        for row in rows:
            pk = int(row[name])
            last[pk] = max(last.get(pk, 0), int(row["last"]))
    return last


def event_late_changes(event: Event) -> list[EntrantChange]:
    """The late changes of ``event``, by round, with the players and the director loaded."""
    return list(
        EntrantChange.objects.filter(event=event)
        .select_related("entrant__player", "replacement__player", "actor")
        .order_by("from_round", "pk")
    )


# ------------------------------------------------------------------------------ checks


def _require_running(event: Event) -> None:
    if event.status != Event.Status.RUNNING:
        raise DomainError(
            "event_not_running",
            _("A player is replaced or withdrawn only while the event is running."),
        )


def _check_round(event: Event, entrant: Entrant, from_round: int) -> None:
    schedule = event.schedule
    rounds = [*schedule.round_numbers, *schedule.pending_rounds]
    if from_round not in rounds:
        raise DomainError(
            "round_out_of_range",
            _("Round %(round)s is not a round of the movement (1 to %(last)s).")
            % {"round": from_round, "last": max(rounds, default=0)},
            field="from_round",
        )
    if EntrantChange.objects.filter(entrant=entrant).exists():
        raise DomainError(
            "already_changed",
            _("%(player)s has already been replaced or has withdrawn.") % {"player": entrant},
            field="entrant",
        )
    replaced = EntrantChange.objects.filter(replacement=entrant).first()
    if replaced is not None and from_round < replaced.from_round:
        raise DomainError(
            "before_substitution",
            _("%(player)s plays from round %(round)s only.")
            % {"player": entrant, "round": replaced.from_round},
            field="from_round",
        )
    played = (
        TableResult.objects.filter(event=event, round_number__gte=from_round)
        .filter(_seated_in(entrant.pk))
        .aggregate(last=Max("round_number"))["last"]
    )
    if played is not None:
        raise DomainError(
            "round_has_results",
            _(
                "%(player)s already has results in round %(played)s: the change can start "
                "from round %(next)s at the earliest."
            )
            % {"player": entrant, "played": played, "next": played + 1},
            field="from_round",
        )
    # a team member keeps his place in the rounds of a live Swiss not paired yet
    seated = (from_round in schedule.pending_rounds and entrant.team_id is not None) or any(
        entrant.slot in play.slots for play in schedule.plays() if play.round >= from_round
    )
    if not seated:
        raise DomainError(
            "no_seat_left",
            _("%(player)s has no seat from round %(round)s on.")
            % {"player": entrant, "round": from_round},
            field="from_round",
        )


def _entrant_of(event: Event, entrant: Entrant) -> Entrant:
    row = (
        Entrant.objects.select_related("player", "team")
        .filter(pk=entrant.pk, event=event, phantom=False)
        .first()
    )
    if row is None:
        raise DomainError("unknown_entrant", _("This player is not in the event."), field="entrant")
    return row


# ------------------------------------------------------------------------------ the movement


def _handed_over(event: Event, entrant: Entrant, from_round: int, phantom: bool) -> HandOver:
    """The event's movement where a new slot holds ``entrant``'s seats from ``from_round`` on
    (:func:`tournaments.movements.hand_over`: read through the typed reader)."""
    if not event.movement:
        raise DomainError("no_movement", _("The event has no movement."))
    return movements.hand_over(
        event.movement, slot=entrant.slot, from_round=from_round, phantom=phantom
    )


def _store_movement(event: Event, document: dict[str, Any]) -> None:
    report = movements.validate(document)
    if not report.ok:
        raise DomainError(
            "movement_invalid",
            _("This change would leave the movement with hard errors:"),
            details=[str(error) for error in report.errors],
        )
    event.movement = document
    event.save(update_fields=["movement", "updated_at"])


def _republish(event: Event, deal_sets: set[int]) -> None:
    """Bump the scoring event's ``results_version`` (the standings must be recomputed) and
    stamp with it the stored results of ``deal_sets``' deals, whose comparison changed."""
    scoring_id = event.scoring_event_id
    bumped = (
        Event.objects.filter(pk=scoring_id)
        .exclude(status=Event.Status.DRAFT)
        .update(results_version=F("results_version") + 1)
    )
    if not bumped:
        return
    version = Event.objects.values_list("results_version", flat=True).get(pk=scoring_id)
    if deal_sets:
        numbers = Deal.objects.filter(event=event, deal_set__in=deal_sets).values("number")
        members = Event.objects.filter(Q(pk=scoring_id) | Q(simultaneous_id=scoring_id))
        TableResult.objects.filter(event__in=members.values("pk"), deal__number__in=numbers).update(
            version=version
        )
    transaction.on_commit(
        lambda: results_changed.send(sender=Event, event_id=scoring_id, results_version=version)
    )


def _log(change: EntrantChange, actor: Any) -> None:
    """Keep the change in the event's history of director's actions (a signed-in user)."""
    log_director_action(
        change.event,
        actor,
        LOG_ACTIONS[EntrantChange.Kind(change.kind)],
        round_number=change.from_round,
        reason=change.reason,
        entrant=change.entrant_id,
        player=str(change.entrant),
        replacement=change.replacement_id,
        substitute=str(change.replacement) if not change.replacement.phantom else "",
    )


def _record(
    event: Event,
    kind: str,
    entrant: Entrant,
    replacement: Entrant,
    from_round: int,
    actor: Any,
    reason: str,
) -> EntrantChange:
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    change = EntrantChange.objects.create(
        event=event,
        kind=kind,
        entrant=entrant,
        replacement=replacement,
        from_round=from_round,
        actor=user,
        reason=reason,
    )
    _log(change, actor)
    return change


# ------------------------------------------------------------------------------ the changes


@transaction.atomic
def entrant_substitute(
    *,
    event: Event,
    entrant: Entrant,
    player: Player,
    from_round: int,
    actor: Any = None,
    reason: str = "",
) -> EntrantChange:
    """``player`` replaces ``entrant`` from round ``from_round`` to the end (see the module
    docstring); returns the recorded change, whose ``replacement`` is the substitute."""
    event = locked(event)
    _require_running(event)
    entrant = _entrant_of(event, entrant)
    _check_round(event, entrant, from_round)
    if Entrant.objects.filter(event=event, player=player).exists():
        raise DomainError(
            "already_registered",
            _("%(player)s is already in this event.") % {"player": player},
            field="player",
        )
    handed = _handed_over(event, entrant, from_round, phantom=False)
    document, slot = handed.document, handed.slot
    if from_round in event.schedule.pending_rounds:
        # live Swiss: the round is paired at the close of the one before, seating the substitute
        try:
            document = movements.replace_in_pending(document, entrant.slot, slot, from_round)
        except movements.MovementError as exc:  # pragma: no cover - the checks above hold
            raise DomainError("movement_invalid", str(exc)) from exc
    _store_movement(event, document)
    substitute = Entrant.objects.create(
        event=event, slot=slot, player=player, team=entrant.team, line=entrant.line
    )
    change = _record(
        event, EntrantChange.Kind.SUBSTITUTE, entrant, substitute, from_round, actor, reason
    )
    _republish(event, set())  # the rankings list the substitute; no comparison changed
    return change


@transaction.atomic
def entrant_withdraw_late(
    *, event: Event, entrant: Entrant, from_round: int, actor: Any = None, reason: str = ""
) -> EntrantChange:
    """``entrant`` withdraws (forfait) from round ``from_round`` on: his seat becomes a phantom
    and its tables sit out (see the module docstring); returns the recorded change."""
    event = locked(event)
    _require_running(event)
    if event.is_team_event:
        raise DomainError(
            "team_withdrawal",
            _("A team cannot play with an empty seat: replace the player by a substitute."),
        )
    entrant = _entrant_of(event, entrant)
    _check_round(event, entrant, from_round)
    before = event.schedule
    lost = {
        play.deal_set
        for play in before.playing()
        if play.round >= from_round and entrant.slot in play.slots
    }
    handed = _handed_over(event, entrant, from_round, phantom=True)
    _store_movement(event, handed.document)
    slot = handed.slot
    phantom = Entrant.objects.create(
        event=event, slot=slot, player=None, phantom=True, line=entrant.line
    )
    change = _record(
        event, EntrantChange.Kind.WITHDRAWAL, entrant, phantom, from_round, actor, reason
    )
    _republish(event, lost)
    return change

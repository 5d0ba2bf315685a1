"""The free-deal table as a kind of phone entry (``clubs.phone.PhoneEntry``): its stored
idempotency keys (:class:`~freedeal.models.FreeDealEntryKey`), its late arrivals
(:class:`~freedeal.models.FreeDealLateArrival`), the state of a result a key compares (what
the history keeps of it) and which refusals are 403 (a party not open, the tournament not
running, a result the director recorded) rather than 409.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from clubs.errors import DomainError, NotOwnEntry, StageNotOpen
from clubs.late_arrivals import mark_handled, unhandled
from clubs.models import EntryKey
from clubs.phone import PhoneEntry
from freedeal.models import (
    FreeDealEntryKey,
    FreeDealLateArrival,
    FreeDealResult,
    FreeDealTournament,
)
from freedeal.outcomes import result_state as history_state


def result_state(result: FreeDealResult) -> Any:
    """What a stored key compares of a result: what the history keeps of it."""
    return history_state(result)


def stored_now(record: EntryKey) -> FreeDealResult | None:
    """The result a known key stored, as it is now (its table loaded)."""
    if record.result_pk is None:
        return None
    return FreeDealResult.objects.select_related("table").filter(pk=record.result_pk).first()


def refusal_status(error: DomainError) -> int:
    return 403 if isinstance(error, StageNotOpen | NotOwnEntry) else 409


FREE_DEAL_ENTRY = PhoneEntry(
    keys=FreeDealEntryKey,
    late=FreeDealLateArrival,
    state=result_state,
    stored_now=stored_now,
    refusal_status=refusal_status,
    competition=lambda table: table.tournament,
    context_fields=frozenset({"party"}),
)


def tournament_late_arrivals(tournament: FreeDealTournament) -> QuerySet[FreeDealLateArrival]:
    """The tournament's late arrivals not handled yet, oldest first (their table loaded)."""
    arrivals: QuerySet[FreeDealLateArrival] = unhandled(
        FreeDealLateArrival, holder__tournament=tournament
    )
    return arrivals


def late_arrival_handled(tournament: FreeDealTournament, pk: int) -> bool:
    """Mark the tournament's late arrival ``pk`` handled; False when it has no such one."""
    return mark_handled(FreeDealLateArrival, pk, holder__tournament=tournament)

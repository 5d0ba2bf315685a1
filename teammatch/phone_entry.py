"""The cup room as a kind of phone entry (``clubs.phone.PhoneEntry``): its stored idempotency
keys (:class:`~teammatch.models.RoomEntryKey`), its late arrivals
(:class:`~teammatch.models.RoomLateArrival`), the state of a result a key compares (its
outcome) and which refusals are 403 (a quarter not open, a result the director recorded, the
match not in play) rather than 409.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from clubs.errors import DomainError, NotOwnEntry, StageNotOpen
from clubs.late_arrivals import mark_handled, unhandled
from clubs.models import EntryKey
from clubs.phone import PhoneEntry
from teammatch.models import Cup, RoomEntryKey, RoomLateArrival, RoomResult

FORBIDDEN_CODES = frozenset({"match_not_playing"})


def result_state(result: RoomResult) -> Any:
    """What a stored key compares of a result: its outcome."""
    return result.outcome


def stored_now(record: EntryKey) -> RoomResult | None:
    """The result a known key stored, as it is now (its deal loaded)."""
    if record.result_pk is None:
        return None
    return RoomResult.objects.select_related("deal").filter(pk=record.result_pk).first()


def refusal_status(error: DomainError) -> int:
    if isinstance(error, StageNotOpen | NotOwnEntry) or error.code in FORBIDDEN_CODES:
        return 403
    return 409


ROOM_ENTRY = PhoneEntry(
    keys=RoomEntryKey,
    late=RoomLateArrival,
    state=result_state,
    stored_now=stored_now,
    refusal_status=refusal_status,
    competition=lambda room: room.match.cup,
    context_fields=frozenset(),
)


def cup_late_arrivals(cup: Cup) -> QuerySet[RoomLateArrival]:
    """The cup's late arrivals not handled yet, oldest first (their room and match loaded)."""
    arrivals: QuerySet[RoomLateArrival] = unhandled(RoomLateArrival, holder__match__cup=cup)
    return arrivals


def late_arrival_handled(cup: Cup, pk: int) -> bool:
    """Mark the cup's late arrival ``pk`` handled; False when the cup has no such one."""
    return mark_handled(RoomLateArrival, pk, holder__match__cup=cup)

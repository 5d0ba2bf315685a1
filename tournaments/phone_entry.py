"""The duplicate table as a kind of phone entry (``clubs.phone.PhoneEntry``): its stored
idempotency keys (:class:`~tournaments.models.TableEntryKey`, shared by the table's phone page
and the table API), its late arrivals (:class:`~tournaments.models.TableLateArrival`), the
state of a result a key compares (its outcome) and which refusals are 403 (a round not open or
closed, a result the director recorded, the event not running) rather than 409.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from clubs.errors import DomainError, NotOwnEntry, StageNotOpen
from clubs.late_arrivals import mark_handled, unhandled
from clubs.models import EntryKey
from clubs.phone import PhoneEntry
from tournaments import selectors
from tournaments.models import Event, TableEntryKey, TableLateArrival, TableResult

FORBIDDEN_CODES = frozenset({"event_not_running", "event_not_started"})


def result_state(result: TableResult) -> Any:
    """What a stored key compares of a result: its outcome (None for a director's decision)."""
    return selectors.result_outcome(result)


def stored_now(record: EntryKey) -> TableResult | None:
    """The result a known key stored, as it is now (its deal and table loaded)."""
    if record.result_pk is None:
        return None
    return TableResult.objects.select_related("deal", "table").filter(pk=record.result_pk).first()


def refusal_status(error: DomainError) -> int:
    if isinstance(error, StageNotOpen | NotOwnEntry) or error.code in FORBIDDEN_CODES:
        return 403
    return 409


TABLE_ENTRY = PhoneEntry(
    keys=TableEntryKey,
    late=TableLateArrival,
    state=result_state,
    stored_now=stored_now,
    refusal_status=refusal_status,
    competition=lambda table: table.event,
    context_fields=frozenset({"round"}),
)


def event_late_arrivals(event: Event) -> QuerySet[TableLateArrival]:
    """The event's late arrivals not handled yet, oldest first."""
    arrivals: QuerySet[TableLateArrival] = unhandled(TableLateArrival, holder__event=event)
    return arrivals


def late_arrival_handled(event: Event, pk: int) -> bool:
    """Mark the event's late arrival ``pk`` handled; False when the event has no such one."""
    return mark_handled(TableLateArrival, pk, holder__event=event)

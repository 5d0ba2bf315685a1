"""What the setup services share: the event row lock, the draft rule, a stale movement, and
the announcement that a simultaneous's comparison changed.

Every setup change takes the event row lock first (``select_for_update``): concurrent changes
of one event are serialised, and each re-checks the event's status under the lock.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from tournaments.models import Deal, Entrant, Event, Table
from tournaments.signals import results_changed


def locked(event: Event) -> Event:
    """Re-read ``event`` under a row lock (serialises concurrent setup changes)."""
    return Event.objects.select_for_update().get(pk=event.pk)


def require_draft(event: Event) -> None:
    """The setup of an event changes only before its start."""
    if event.status != Event.Status.DRAFT:
        raise DomainError(
            "event_started", _("The event has already started: its setup can no longer change.")
        )


def movement_stale(event: Event) -> None:
    """Drop the movement (and its phantoms) after an entrant change (event locked, draft)."""
    if event.movement is None:
        return
    event.movement = None
    event.save(update_fields=["movement", "updated_at"])
    Entrant.objects.filter(event=event, phantom=True).delete()
    comparison_changed(event)


def comparison_changed(event: Event) -> None:
    """A section's tables changed (its movement set or dropped, or the section removed): the
    number of tables that play each deal of its simultaneous changes (Neuberg's N), so the
    simultaneous's standings must be recomputed even without a new result. Bumps its
    ``results_version`` and announces it on commit, like a result does."""
    parent_id = event.simultaneous_id
    if parent_id is None:
        return
    updated = Event.objects.filter(pk=parent_id).exclude(status=Event.Status.DRAFT)
    if not updated.update(results_version=F("results_version") + 1):
        return  # nothing published yet before the first section starts
    version = Event.objects.values_list("results_version", flat=True).get(pk=parent_id)
    transaction.on_commit(
        lambda: results_changed.send(sender=Event, event_id=parent_id, results_version=version)
    )


def require_own_tables(event: Event) -> None:
    """Players, teams and a movement belong to a section, never to its simultaneous."""
    if is_simultaneous(event):
        raise DomainError(
            "simultaneous_has_sections",
            _(
                "A simultaneous has no players, teams or tables of its own: "
                "set them up in each of its sections."
            ),
        )


def is_simultaneous(event: Event) -> bool:
    """Whether ``event`` is a simultaneous: it has sections, or (before its first section) it
    holds deals without a movement and without ever having had tables.

    A plain event gets deals only after its movement (``_deal_count``), and its tables are
    created with the movement and kept when a later entrant change drops the movement: only a
    simultaneous holds deals and no table. (A model flag would say it in one read.)
    """
    if event.simultaneous_id is not None:
        return False
    if Event.objects.filter(simultaneous_id=event.pk).exists():
        return True
    return (
        not event.movement
        and Deal.objects.filter(event=event).exists()
        and not Table.objects.filter(event=event).exists()
    )

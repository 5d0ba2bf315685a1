"""What the setup services share: the event row lock, the draft rule, a stale movement.

Every setup change takes the event row lock first (``select_for_update``): concurrent changes
of one event are serialised, and each re-checks the event's status under the lock.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import Entrant, Event


def locked(event: Event) -> Event:
    """Re-read ``event`` under a row lock (serialises concurrent setup changes)."""
    return Event.objects.select_for_update().get(pk=event.pk)


def require_draft(event: Event) -> None:
    """The setup of an event changes only before its start."""
    if event.status != Event.Status.DRAFT:
        raise TournamentError(
            "event_started", _("The event has already started: its setup can no longer change.")
        )


def movement_stale(event: Event) -> None:
    """Drop the movement (and its phantoms) after an entrant change (event locked, draft)."""
    if event.movement is None:
        return
    event.movement = None
    event.save(update_fields=["movement", "updated_at"])
    Entrant.objects.filter(event=event, phantom=True).delete()

"""Events: create, change the details of a draft, start, finish.

An event is a draft while it is set up (registration, teams, movement, deals: see the sibling
modules), running once started (results are entered), finished at the end. It starts only when
:func:`tournaments.selectors.event_start_problems` finds nothing missing; those problems are
the ``details`` of the refusal.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import Club, Deal, Event
from tournaments.selectors import event_start_problems
from tournaments.services.common import locked, require_draft


def _check_deals_per_round(deals_per_round: int) -> None:
    if not 1 <= deals_per_round <= 12:
        raise TournamentError(
            "deals_per_round_out_of_range",
            _("Deals per round must be between 1 and 12."),
            field="deals_per_round",
        )


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: dt.date,
    format: str,
    deals_per_round: int = 4,
    public: bool = False,
    opponent_confirmation: bool = False,
) -> Event:
    """A draft event."""
    if format not in Event.Format.values:
        raise TournamentError("unknown_format", _("Unknown format."), field="format")
    _check_deals_per_round(deals_per_round)
    if not name.strip():
        raise TournamentError("name_required", _("The event needs a name."), field="name")
    return Event.objects.create(
        club=club,
        name=name.strip(),
        date=date,
        format=format,
        deals_per_round=deals_per_round,
        public=public,
        opponent_confirmation=opponent_confirmation,
    )


@transaction.atomic
def event_update(
    *,
    event: Event,
    name: str,
    date: dt.date,
    deals_per_round: int,
    public: bool,
    opponent_confirmation: bool = False,
) -> Event:
    """Change the details of a draft event (a change of deals per round drops the deals)."""
    event = locked(event)
    require_draft(event)
    _check_deals_per_round(deals_per_round)
    if deals_per_round != event.deals_per_round:
        Deal.objects.filter(event=event).delete()
    event.name, event.date, event.public = name.strip(), date, public
    event.deals_per_round, event.opponent_confirmation = deals_per_round, opponent_confirmation
    event.save()
    return event


@transaction.atomic
def event_start(*, event: Event) -> Event:
    """draft → running, once movement, entrants and every deal set are ready."""
    event = locked(event)
    problems = event_start_problems(event)
    if problems:
        raise TournamentError("event_not_ready", _("The event cannot start yet."), details=problems)
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status", "updated_at"])
    return event


@transaction.atomic
def event_finish(*, event: Event) -> Event:
    """running → finished."""
    event = locked(event)
    if event.status != Event.Status.RUNNING:
        raise TournamentError("event_not_running", _("Only a running event can be finished."))
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status", "updated_at"])
    return event

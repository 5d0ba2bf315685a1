"""Events: create, change the details of a draft, start, finish.

An event is a draft while it is set up (registration, teams, movement, deals: see the sibling
modules), running once started (results are entered), finished at the end. It starts only when
:func:`tournaments.selectors.event_start_problems` finds nothing missing; those problems are
the ``details`` of the refusal.

Sections of a simultaneous (``tournaments.services.sections``): a section starts only with
its simultaneous's deals and a movement of exactly the simultaneous's rounds
(:func:`section_start_problems`); its first start also starts the simultaneous (draft →
running), and the last section to finish finishes it, in the same transaction. A simultaneous
is never started nor finished directly. The deals per round of a simultaneous and of its
sections are fixed (every section plays the same deal sets).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import Club, Deal, Event
from tournaments.movements import Schedule
from tournaments.selectors import event_start_problems
from tournaments.services.common import locked, require_draft
from tournaments.services.deals import is_simultaneous, simultaneous_rounds
from tournaments.signals import results_changed


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
    simultaneous = is_simultaneous(event)
    event = locked(event)
    require_draft(event)
    _check_deals_per_round(deals_per_round)
    if deals_per_round != event.deals_per_round:
        if simultaneous or event.is_section:
            raise TournamentError(
                "simultaneous_deals_per_round",
                _(
                    "Every section of a simultaneous plays the same deal sets: the deals per "
                    "round cannot change."
                ),
                field="deals_per_round",
            )
        Deal.objects.filter(event=event).delete()
    event.name, event.date, event.public = name.strip(), date, public
    event.deals_per_round, event.opponent_confirmation = deals_per_round, opponent_confirmation
    event.save()
    return event


def section_movement_problem(section: Event, schedule: Schedule) -> str | None:
    """Why ``schedule`` cannot be the movement of ``section`` (None: it can).

    A section plays deals of its simultaneous only: its movement's deal sets are among the
    simultaneous's S sets (it holds S × dpr deals), in the order and the number of rounds the
    section's own movement chooses (a line movement on T tables uses T sets, each table
    playing as many of them as there are rounds); in team formats the étuis name the taker
    seat, so the movement must seat the taking member there.
    """
    if section.simultaneous_id is None or not schedule:
        return None
    parent = Event.objects.get(pk=section.simultaneous_id)
    sets = simultaneous_rounds(parent)
    if schedule.deal_set_count > sets:
        return _(
            "The simultaneous holds %(sets)s deal sets (étuis): this movement needs "
            "%(found)s. Choose fewer tables or rounds, or give the simultaneous more deal sets."
        ) % {"sets": sets, "found": schedule.deal_set_count}
    if section.is_team_event:
        taker = (
            Deal.objects.filter(event=parent)
            .order_by("number")
            .values_list("taker_seat", flat=True)
            .first()
        )
        if taker is not None and schedule.team_taker_seat() != taker:
            return _(
                "The étuis of the simultaneous name %(seat)s as taker seat: the movement must "
                "seat the taking member there."
            ) % {"seat": taker}
    return None


def _deal_rows(event_id: int) -> list[tuple[object, ...]]:
    return list(
        Deal.objects.filter(event_id=event_id)
        .order_by("number")
        .values_list("number", "deal_set", "dealer_seat", "taker_seat", "imposed_contract", "cards")
    )


def section_start_problems(event: Event) -> list[str]:
    """What prevents ``event`` from starting as a section or a simultaneous (translated)."""
    if event.simultaneous_id is None:
        if is_simultaneous(event):
            return [_("A simultaneous starts with its sections: start each section.")]
        return []
    parent = Event.objects.get(pk=event.simultaneous_id)
    problems: list[str] = []
    if parent.status == Event.Status.FINISHED:
        problems.append(_("The simultaneous is finished: no section can start."))
    parent_deals = _deal_rows(parent.pk)
    if not parent_deals:
        problems.append(_("The simultaneous has no deals yet."))
        return problems
    if _deal_rows(event.pk) != parent_deals:
        problems.append(_("The deals of this section differ from the simultaneous's."))
    problem = section_movement_problem(event, event.schedule)
    if problem is not None:
        problems.append(problem)
    return problems


@transaction.atomic
def event_start(*, event: Event) -> Event:
    """draft → running, once movement, entrants and every deal set are ready.

    A section's first start also starts its simultaneous; a simultaneous never starts itself.
    """
    if event.simultaneous_id is None and is_simultaneous(event):
        raise TournamentError(
            "simultaneous_start", _("A simultaneous starts with its sections: start each section.")
        )
    event = locked(event)
    problems = event_start_problems(event) + section_start_problems(event)
    if problems:
        raise TournamentError("event_not_ready", _("The event cannot start yet."), details=problems)
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status", "updated_at"])
    if event.simultaneous_id is not None:
        # Section, then simultaneous: the order every writer locks them in.
        parent = Event.objects.select_for_update().get(pk=event.simultaneous_id)
        if parent.status == Event.Status.DRAFT:
            parent.status = Event.Status.RUNNING
            parent.save(update_fields=["status", "updated_at"])
    return event


@transaction.atomic
def event_finish(*, event: Event) -> Event:
    """running → finished; the last section to finish finishes its simultaneous too."""
    if event.simultaneous_id is None and is_simultaneous(event):
        raise TournamentError(
            "simultaneous_finish",
            _("A simultaneous finishes with its last section: finish each section."),
        )
    event = locked(event)
    if event.status != Event.Status.RUNNING:
        raise TournamentError("event_not_running", _("Only a running event can be finished."))
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status", "updated_at"])
    if event.simultaneous_id is not None:
        parent = Event.objects.select_for_update().get(pk=event.simultaneous_id)
        unfinished = (
            Event.objects.filter(simultaneous_id=parent.pk)
            .exclude(status=Event.Status.FINISHED)
            .exists()
        )
        if parent.status == Event.Status.RUNNING and not unfinished:
            parent.status = Event.Status.FINISHED
            parent.save(update_fields=["status", "updated_at"])
    # The final standings are always produced, and they publish what finishing made public
    # (``tournaments.publication``: a closed event or section withholds no deal any more): a
    # new results version, which the recompute brings the snapshot to even when it was behind
    # (a lost task, a broker outage).
    scoring_id = event.scoring_event_id
    Event.objects.filter(pk=scoring_id).update(results_version=F("results_version") + 1)
    version = Event.objects.values_list("results_version", flat=True).get(pk=scoring_id)
    if scoring_id == event.pk:
        event.results_version = version
    transaction.on_commit(
        lambda: results_changed.send(sender=Event, event_id=scoring_id, results_version=version)
    )
    return event

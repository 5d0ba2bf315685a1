"""Simultaneous tournaments: one event split into sections that all play the same deals.

Vocabulary (``Event`` docstring): a *simultaneous* is an event holding the deals every section
plays and the overall standings; it has no movement, tables or entrants of its own. A
*section* (``Event.simultaneous`` set) is a full event of its own — club and organisers,
entrants, movement, tables, entry, status, pages — playing **copies** of the simultaneous's
deals (same numbers, deal sets, cards, dealer and taker seats, imposed contract).

Rules kept by the services (here and in the generic ones they extend):

- a simultaneous is created with its R rounds of deals (R × ``deals_per_round`` deals,
  generated from a seed; they may be regenerated or imported while no section has started:
  ``event_deals_generate``/``event_deals_import``, which copy them to every draft section);
  individual and triplette only (a quadrette match pairs two tables of one room);
- a section copies the simultaneous's format, date, deals per round, publication, opponent
  confirmation and ranking options, and its deals; it never generates deals of its own;
- a section starts with a movement of exactly R rounds on deal sets 1..R
  (``events.section_movement_problem``); its first start starts the simultaneous, the last
  section to finish finishes it (``event_start``/``event_finish``). A simultaneous is never
  started nor finished directly, and results are entered on sections only;
- who directs what: ``clubs.access`` (the simultaneous's directors direct every
  section; a section's club organisers direct that section only).

Results of a section can also be imported from a file: :mod:`tournaments.services.imports`.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club
from rules.deal import random_seed
from tournaments.models import Deal, Event
from tournaments.services.common import (
    comparison_changed,
    is_simultaneous,
    locked,
    require_draft,
)
from tournaments.services.deals import (
    check_rounds,
    deals_replace_generated,
    section_deal_copies,
    simultaneous_rounds,
)
from tournaments.services.events import (
    event_create,
    section_movement_problem,
    section_start_problems,
)

SIMULTANEOUS_FORMATS = (Event.Format.INDIVIDUAL, Event.Format.TRIPLETTE)

__all__ = [
    "SIMULTANEOUS_FORMATS",
    "is_simultaneous",
    "section_create",
    "section_delete",
    "section_movement_problem",
    "section_start_problems",
    "simultaneous_create",
    "simultaneous_rounds",
]


@transaction.atomic
def simultaneous_create(
    *,
    club: Club,
    name: str,
    date: dt.date,
    format: str,
    deals_per_round: int,
    rounds: int,
    public: bool = False,
    opponent_confirmation: bool = False,
    seed: int | None = None,
    imposed_contract: str = "",
) -> Event:
    """A draft simultaneous holding its ``rounds`` × ``deals_per_round`` deals (from ``seed``,
    a random one when None); its sections are added with :func:`section_create`."""
    if format == Event.Format.QUADRETTE:
        raise DomainError(
            "simultaneous_quadrette",
            _(
                "A simultaneous cannot be played in quadrettes: a quadrette match pairs two "
                "tables of one room."
            ),
            field="format",
        )
    rounds = check_rounds(rounds)
    event = event_create(
        club=club,
        name=name,
        date=date,
        format=format,
        deals_per_round=deals_per_round,
        public=public,
        opponent_confirmation=opponent_confirmation,
    )
    deals_replace_generated(
        event,
        seed=random_seed() if seed is None else seed,
        count=rounds * deals_per_round,
        imposed_contract=imposed_contract,
    )
    return event


def _require_simultaneous(event: Event) -> None:
    if event.is_section or not is_simultaneous(event):
        raise DomainError(
            "not_simultaneous",
            _("This event is not a simultaneous: sections are added to a simultaneous."),
        )


@transaction.atomic
def section_create(*, simultaneous: Event, club: Club, name: str) -> Event:
    """A draft section of ``simultaneous`` for ``club``, with copies of its deals.

    Refused once the simultaneous is finished; a section may join a running simultaneous
    (sections start at different times).
    """
    _require_simultaneous(simultaneous)
    parent = locked(simultaneous)
    if parent.status == Event.Status.FINISHED:
        raise DomainError(
            "simultaneous_finished",
            _("The simultaneous is finished: no section can be added."),
        )
    name = name.strip()
    if not name:
        raise DomainError("name_required", _("The section needs a name."), field="name")
    if len(name) > Event._meta.get_field("name").max_length:  # type: ignore[operator]
        raise DomainError("name_too_long", _("The name is at most 200 characters."), field="name")
    if Event.objects.filter(simultaneous=parent, name__iexact=name).exists():
        raise DomainError(
            "section_name_taken",
            _("The simultaneous already has a section named %(name)s.") % {"name": name},
            field="name",
        )
    section = Event.objects.create(
        club=club,
        name=name,
        date=parent.date,
        format=parent.format,
        deals_per_round=parent.deals_per_round,
        public=parent.public,
        opponent_confirmation=parent.opponent_confirmation,
        ranking=parent.ranking,
        pm_scale=parent.pm_scale,
        seed=parent.seed,
        simultaneous=parent,
    )
    deals = list(Deal.objects.filter(event=parent).order_by("number"))
    Deal.objects.bulk_create(section_deal_copies(section, deals))
    return section


@transaction.atomic
def section_delete(*, section: Event) -> None:
    """Remove a draft section (its entrants, movement, tables and deal copies).

    When every remaining section is finished, the running simultaneous finishes too.
    """
    if not section.is_section:
        raise DomainError("not_section", _("This event is not a section of a simultaneous."))
    section = locked(section)
    require_draft(section)
    assert section.simultaneous_id is not None
    parent = Event.objects.select_for_update().get(pk=section.simultaneous_id)
    had_tables = bool(section.movement)
    section.delete()
    if had_tables:
        comparison_changed(section)  # its tables no longer count as playing the deals
    remaining = Event.objects.filter(simultaneous=parent)
    if (
        parent.status == Event.Status.RUNNING
        and remaining.exists()
        and not remaining.exclude(status=Event.Status.FINISHED).exists()
    ):
        parent.status = Event.Status.FINISHED
        parent.save(update_fields=["status", "updated_at"])

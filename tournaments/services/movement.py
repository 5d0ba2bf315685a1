"""The movement of an event: proposed, generated, validated, stored and bound to the entrants.

- The movement stored on an event always passed the validator: a movement with a hard error is
  refused and nothing changes.
- Setting the movement renumbers the real entrants onto the movement's real slots in
  registration order (team events: team by team, members in registration order) and creates
  phantom entrants (``player=None``) for the phantom slots. Tables 1..T exist afterwards; rows
  of tables that already existed (and their codes, printed on the table cards) are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from tournaments import movements
from tournaments.models import Entrant, Event, Table, Team
from tournaments.movements import Schedule
from tournaments.movements.document import Entrant as Slot
from tournaments.services.common import (
    comparison_changed,
    locked,
    require_draft,
    require_own_tables,
)
from tournaments.services.events import section_movement_problem
from tournaments.services.swiss import swiss_mode

SLOT_SHIFT = 1_000_000  # temporary offset used to renumber slots without unique clashes


def _entrant_count_for_movement(event: Event) -> int:
    if event.is_team_event:
        count = Team.objects.filter(event=event).count()
    else:
        count = Entrant.objects.filter(event=event, phantom=False).count()
    if count == 0:
        raise DomainError("no_entrants", _("Register the entrants before choosing the movement."))
    return count


def event_movement_propose(*, event: Event) -> dict[str, Any]:
    """The movement package's proposal for the current entrants.

    A dict with ``kind``, ``tables``, ``rounds``, ``phantoms``, ``parameters`` and the
    validated ``document`` (see ``tournaments.movements.propose``).
    """
    count = _entrant_count_for_movement(event)
    try:
        proposal = movements.propose(event.format, count)
    except movements.MovementError as exc:
        raise DomainError(
            "no_movement", _("No movement can be proposed: %(reason)s") % {"reason": exc}
        ) from exc
    return dict(proposal)


def event_movement_build(
    *,
    event: Event,
    tables: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
    swiss: str | None = None,
) -> dict[str, Any]:
    """Generate (without storing) the movement for the current entrants.

    ``swiss`` (quadrettes with fewer rounds than a round robin): ``live`` (the default when it
    applies) or ``prepaired``; see :func:`tournaments.services.swiss.swiss_mode`.
    """
    count = _entrant_count_for_movement(event)
    mode = swiss_mode(event, count, rounds, swiss)
    try:
        doc = movements.generate(
            event.format, count, tables=tables, rounds=rounds, seed=seed, swiss=mode
        )
    except (movements.MovementError, ValueError, TypeError) as exc:
        # The pure package speaks English; the sentence around its reason is translated.
        raise DomainError(
            "no_movement", _("No movement for these parameters: %(reason)s") % {"reason": exc}
        ) from exc
    return doc


@transaction.atomic
def event_movement_set(
    *,
    event: Event,
    tables: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
    movement: dict[str, Any] | None = None,
    swiss: str | None = None,
) -> movements.ValidationReport:
    """Generate (or take ``movement``), validate, store and bind the event's movement.

    Refuses any movement with a hard error (``movement_invalid``, the errors in ``details``):
    nothing changes. Returns the validator's report.
    """
    event = locked(event)
    require_draft(event)
    require_own_tables(event)
    doc = (
        movement
        if movement is not None
        else event_movement_build(event=event, tables=tables, rounds=rounds, seed=seed, swiss=swiss)
    )
    report = movements.validate(doc)
    if not report.ok:
        raise DomainError(
            "movement_invalid",
            _("The movement has hard errors and cannot be used:"),
            details=[str(error) for error in report.errors],
        )
    problem = movements.live_problem(doc)
    if problem is not None:
        raise DomainError(
            "movement_invalid",
            _("The movement has hard errors and cannot be used:"),
            details=[problem],
        )
    schedule = Schedule.from_document(doc)
    if schedule.format != event.format:
        raise DomainError(
            "movement_format",
            _("This movement is for another format (%(format)s).") % {"format": schedule.format},
        )
    problem = section_movement_problem(event, schedule)
    if problem is not None:
        raise DomainError("movement_section", problem)
    _bind_entrants(event, schedule)
    _sync_tables(event, schedule)
    event.movement = doc
    event.save(update_fields=["movement", "updated_at"])
    comparison_changed(event)
    return report


def _bind_entrants(event: Event, schedule: Schedule) -> None:
    real_slots = schedule.real_entrants
    Entrant.objects.filter(event=event, phantom=True).delete()
    entrants = list(Entrant.objects.filter(event=event).select_related("team").order_by("slot"))
    if event.is_team_event:
        ordered = _team_order(event, entrants, real_slots)
    else:
        if len(entrants) != len(real_slots):
            raise DomainError(
                "movement_player_count",
                _("The movement seats %(slots)s players but %(players)s are registered.")
                % {"slots": len(real_slots), "players": len(entrants)},
            )
        ordered = entrants
    Entrant.objects.filter(event=event).update(slot=F("slot") + SLOT_SHIFT)
    for entrant, slot in zip(ordered, real_slots, strict=True):
        entrant.slot = slot.id
        entrant.line = slot.line or ""
    Entrant.objects.bulk_update(ordered, ["slot", "line"])
    Entrant.objects.bulk_create(
        Entrant(event=event, slot=slot.id, player=None, phantom=True, line=slot.line or "")
        for slot in schedule.entrants
        if slot.phantom
    )


def _team_incomplete(size: int) -> DomainError:
    return DomainError(
        "team_incomplete", _("Every team must have %(size)s members.") % {"size": size}
    )


def _team_order(event: Event, entrants: list[Entrant], real_slots: Sequence[Slot]) -> list[Entrant]:
    """Entrants in the order of the movement's real slots: team by team, members by slot."""
    size = event.team_size
    assert size is not None
    loose = [e for e in entrants if e.team_id is None]
    if loose:
        raise DomainError(
            "players_without_team",
            _("%(count)s registered players are not in a team.") % {"count": len(loose)},
        )
    by_team: dict[int, list[Entrant]] = {}
    for entrant in entrants:
        assert entrant.team is not None
        by_team.setdefault(entrant.team.number, []).append(entrant)
    if any(len(members) != size for members in by_team.values()):
        raise _team_incomplete(size)
    doc_teams: dict[int | None, list[Slot]] = {}
    for slot in real_slots:
        doc_teams.setdefault(slot.team, []).append(slot)
    if len(doc_teams) != len(by_team):
        raise DomainError(
            "movement_team_count",
            _("The movement has %(slots)s teams but %(teams)s are registered.")
            % {"slots": len(doc_teams), "teams": len(by_team)},
        )
    # The real slots are visited in id order; each movement team takes the next real team.
    assigned: dict[int | None, list[Entrant]] = {}
    for doc_team, members in zip(doc_teams, (by_team[n] for n in sorted(by_team)), strict=True):
        if len(doc_teams[doc_team]) != len(members):
            raise _team_incomplete(size)
        assigned[doc_team] = list(members)
    return [assigned[slot.team].pop(0) for slot in real_slots]


def _sync_tables(event: Event, schedule: Schedule) -> None:
    table_count = schedule.table_count
    existing = set(Table.objects.filter(event=event).values_list("number", flat=True))
    Table.objects.filter(event=event, number__gt=table_count).delete()
    Table.objects.bulk_create(
        Table(event=event, number=n) for n in range(1, table_count + 1) if n not in existing
    )

"""Teams of a team event: 3 members in triplette, 4 in quadrette (``Event.team_size``).

A team is made of registered entrants of its event, each in one team at most; teams are
numbered in creation order. Any change of the teams before the start makes the movement stale.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from tournaments.models import Entrant, Event, Team
from tournaments.services.common import locked, movement_stale, require_draft, require_own_tables


def _team_size(event: Event) -> int:
    if event.team_size is None:
        raise DomainError("individual_event", _("Individual events have no teams."))
    return event.team_size


def _next_number(event: Event) -> int:
    return (Team.objects.filter(event=event).aggregate(m=Max("number"))["m"] or 0) + 1


@transaction.atomic
def team_create(*, event: Event, name: str, entrants: Sequence[Entrant]) -> Team:
    """A team of registered entrants (3 for triplette, 4 for quadrette), numbered next."""
    event = locked(event)
    require_draft(event)
    require_own_tables(event)
    size = _team_size(event)
    if len(entrants) != size or len({e.pk for e in entrants}) != size:
        raise DomainError(
            "team_size",
            _("A team has exactly %(size)s different members.") % {"size": size},
            field="members",
        )
    pks = [e.pk for e in entrants]
    rows = list(Entrant.objects.select_for_update().filter(pk__in=pks, event=event, phantom=False))
    if len(rows) != size:
        raise DomainError(
            "member_not_registered",
            _("Every member must be registered in this event."),
            field="members",
        )
    taken = [e for e in rows if e.team_id is not None]
    if taken:
        raise DomainError(
            "member_in_a_team",
            _("Already in a team: %(names)s.") % {"names": ", ".join(str(e) for e in taken)},
            field="members",
        )
    name = name.strip()
    if not name:
        raise DomainError("name_required", _("The team needs a name."), field="name")
    if Team.objects.filter(event=event, name__iexact=name).exists():
        raise DomainError("team_name_taken", _("Another team already has this name."), field="name")
    team = Team.objects.create(event=event, number=_next_number(event), name=name)
    Entrant.objects.filter(pk__in=pks).update(team=team)
    movement_stale(event)
    return team


@transaction.atomic
def team_delete(*, team: Team) -> None:
    """Dissolve a team before the start (its members stay registered)."""
    event = locked(team.event)
    require_draft(event)
    Entrant.objects.filter(team=team).update(team=None)
    team.delete()
    movement_stale(event)


@transaction.atomic
def teams_build_in_order(*, event: Event) -> list[Team]:
    """Group the players without a team into teams in registration order."""
    event = locked(event)
    require_draft(event)
    size = _team_size(event)
    free = list(
        Entrant.objects.filter(event=event, phantom=False, team__isnull=True)
        .select_related("player")
        .order_by("slot")
    )
    if not free or len(free) % size:
        raise DomainError(
            "teams_cannot_form",
            _("%(count)s players without a team cannot form teams of %(size)s.")
            % {"count": len(free), "size": size},
        )
    teams = []
    for start in range(0, len(free), size):
        members = free[start : start + size]
        team = Team.objects.create(
            event=event,
            number=_next_number(event),
            name=" / ".join(m.player.last_name for m in members if m.player is not None)[:120],
        )
        Entrant.objects.filter(pk__in=[m.pk for m in members]).update(team=team)
        teams.append(team)
    movement_stale(event)
    return teams

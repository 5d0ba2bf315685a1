"""Reads of the organiser's setup: events directed, entrants, teams, players, deals, readiness.

Who may see which event is decided by :mod:`clubs.access`; these selectors take the
event (or the user) as given. Every selector owns its ``select_related``/``prefetch_related``:
no query per row. The movement is read through ``Event.schedule``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from clubs.access import UserLike, directed_by
from clubs.models import Club, Player
from clubs.selectors import people_matching, register_active_players
from tournaments import movements
from tournaments.models import Deal, Entrant, Event, Table, Team


def events_directed_with_counts(user: UserLike) -> QuerySet[Event]:
    """The events ``user`` directs, with their number of real entrants (``entrant_count``)."""
    return directed_by(user, Event).annotate(
        entrant_count=Count("entrants", filter=Q(entrants__phantom=False), distinct=True)
    )


def event_tables(event: Event) -> list[Table]:
    return list(Table.objects.filter(event=event).order_by("number"))


def event_entrants(event: Event) -> QuerySet[Entrant]:
    """The event's entrants in slot order, with player, club and team loaded (phantoms too)."""
    return (
        Entrant.objects.filter(event=event).select_related("player__club", "team").order_by("slot")
    )


def event_real_entrants(event: Event) -> list[Entrant]:
    """The registered (non-phantom) entrants in French order of their names."""
    return list(
        Entrant.objects.filter(event=event, phantom=False)
        .select_related("player__club", "team")
        .order_by(F("player__name_sort_key").asc(nulls_last=True), "slot")
    )


def event_teams(event: Event) -> list[Team]:
    """The event's teams with their members (players loaded), by number."""
    members = Entrant.objects.select_related("player").order_by("slot")
    return list(
        Team.objects.filter(event=event)
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("number")
    )


def event_register_players(event: Event) -> QuerySet[Player]:
    """The players an organiser may register in ``event``: the active players of its club's
    register (a section: its own club's)."""
    return register_active_players(event.club_id)


def players_search(
    *, query: str, club: Club | int, exclude_event: Event | None = None, limit: int = 20
) -> list[Player]:
    """The active players of ``club``'s register whose names contain every word of ``query``
    (case and accents ignored) or whose licence does (not yet in ``exclude_event``), in French
    order."""
    if not query.split():
        return []
    players = people_matching(register_active_players(club), query)
    if exclude_event is not None:
        players = players.exclude(entries__event=exclude_event)
    return list(players[:limit])


def previous_event_players(event: Event) -> tuple[Event | None, list[Player]]:
    """The last evening: the latest other event of ``event``'s club (by date, then creation)
    not later than it and with registered players, and those of its players still active on
    the register and not in ``event`` yet, in French order (a few queries)."""
    previous = (
        Event.objects.filter(club=event.club_id, date__lte=event.date)
        .exclude(pk=event.pk)
        .filter(entrants__phantom=False, entrants__player__isnull=False)
        .defer("movement")
        .order_by("-date", "-pk")
        .first()
    )
    if previous is None:
        return None, []
    players = (
        register_active_players(event.club_id)
        .filter(entries__event=previous)
        .exclude(entries__event=event)
        .distinct()
    )
    return previous, list(players)


def event_deals(event: Event) -> QuerySet[Deal]:
    """The event's deals, by number."""
    return Deal.objects.filter(event=event).order_by("number")


def event_deal_count(event: Event) -> int:
    """How many deals ``event`` has."""
    return Deal.objects.filter(event=event).count()


def event_entrant(event: Event, pk: int, *, real: bool = False) -> Entrant | None:
    """Entrant ``pk`` of ``event`` (player, club and team loaded), or None; ``real``: None for
    a phantom too."""
    entrants = event_entrants(event)
    if real:
        entrants = entrants.filter(phantom=False)
    return entrants.filter(pk=pk).first()


def event_team(event: Event, pk: int) -> Team | None:
    """Team ``pk`` of ``event``, or None."""
    return Team.objects.filter(event=event, pk=pk).first()


def event_has_movement(event: Event) -> bool:
    """Whether ``event`` has a stored movement now (read again: a change may have cleared it)."""
    return Event.objects.filter(pk=event.pk, movement__isnull=False).exists()


def player_by_pk(pk: int) -> Player | None:
    """Player ``pk`` of the register (his club loaded), or None."""
    return Player.objects.select_related("club").filter(pk=pk).first()


def deal_by_number(event_id: int, number: int) -> Deal | None:
    """Deal ``number`` of the event, or None."""
    return Deal.objects.filter(event_id=event_id, number=number).first()


def table_by_number(event: Event, number: int) -> Table | None:
    """Table ``number`` of ``event``, or None."""
    return Table.objects.filter(event=event, number=number).first()


def deals_of_set(event: Event, deal_set: int) -> list[Deal]:
    """The deals of one deal set (étui), by number."""
    return list(Deal.objects.filter(event=event, deal_set=deal_set).order_by("number"))


# --- readiness ---------------------------------------------------------------------------


@dataclass
class EventSetupState:
    """What is ready and what is missing before an event can start."""

    entrant_count: int
    team_count: int
    players_without_team: int
    incomplete_teams: int
    has_movement: bool
    deal_sets: int
    deal_count: int
    deals_expected: int
    deal_sets_missing: list[int] = field(default_factory=list)

    @property
    def players_ok(self) -> bool:
        return self.entrant_count > 0

    @property
    def teams_ok(self) -> bool:
        return self.team_count > 0 and self.players_without_team == 0 and not self.incomplete_teams

    @property
    def deals_ok(self) -> bool:
        return (
            self.has_movement
            and self.deal_count == self.deals_expected
            and not self.deal_sets_missing
        )


def event_setup_state(event: Event) -> EventSetupState:
    entrants = list(
        Entrant.objects.filter(event=event, phantom=False).values_list("team_id", flat=True)
    )
    size = event.team_size
    teams = Team.objects.filter(event=event).annotate(n=Count("members"))
    incomplete = sum(1 for t in teams if size is not None and t.n != size)
    deal_sets = event.schedule.deal_set_count
    per_set = Counter(Deal.objects.filter(event=event).values_list("deal_set", flat=True))
    missing = [k for k in range(1, deal_sets + 1) if per_set[k] != event.deals_per_round]
    return EventSetupState(
        entrant_count=len(entrants),
        team_count=len(teams),
        players_without_team=sum(1 for team_id in entrants if team_id is None),
        incomplete_teams=incomplete,
        has_movement=bool(event.movement),
        deal_sets=deal_sets,
        deal_count=per_set.total(),
        deals_expected=deal_sets * event.deals_per_round,
        deal_sets_missing=missing,
    )


def event_start_problems(event: Event) -> list[str]:
    """Everything that prevents the event from starting, translated (empty: it can start)."""
    problems: list[str] = []
    if event.status != Event.Status.DRAFT:
        problems.append(_("The event is not a draft."))
    state = event_setup_state(event)
    if state.entrant_count == 0:
        problems.append(_("No entrant is registered."))
    if event.is_team_event and not state.teams_ok:
        problems.append(_("Every player must be in a complete team."))
    if not event.movement:
        problems.append(_("The movement is missing (or must be regenerated after a change)."))
        return problems
    if not movements.validate(event.movement).ok:
        problems.append(_("The stored movement has hard errors."))
    schedule = event.schedule
    bound = set(Entrant.objects.filter(event=event).values_list("slot", flat=True))
    if schedule.slots != bound:
        problems.append(_("The entrants do not match the movement: regenerate it."))
    if Table.objects.filter(event=event).count() != schedule.table_count:
        problems.append(_("The tables do not match the movement: regenerate it."))
    if not state.deals_ok:
        problems.append(
            _("Deals are missing: %(found)s of %(needed)s (deal sets %(sets)s).")
            % {
                "found": state.deal_count,
                "needed": state.deals_expected,
                "sets": ", ".join(str(k) for k in state.deal_sets_missing) or "-",
            }
        )
    return problems

"""Reads for the organiser side: who may see which event, entrants, setup state, printouts.

Permission rule: an organiser sees (and changes) only the events of the clubs where he is one
of ``Club.organisers``; a superuser sees every event. Views fetch events through
:func:`events_for_user` so an event of another club is a 404, never a 403 that leaks it exists.

Printouts are derived from the stored movement document (schema ``duplitarot-movement/1``):
``schedule`` is the single source of truth, entrant slots are mapped to the event's
:class:`~tournaments.models.Entrant` rows (phantom slots print as "phantom"). Every selector
here owns its ``select_related``/``prefetch_related``: no query per row.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Prefetch, Q, QuerySet

from tournaments import movements
from tournaments.models import SEATS, Club, Deal, Entrant, Event, Player, Table, Team

TEAM_SIZES = {Event.Format.TRIPLETTE: 3, Event.Format.QUADRETTE: 4}

UserLike = AbstractBaseUser | AnonymousUser


def clubs_for_user(user: UserLike) -> QuerySet[Club]:
    """The clubs whose events ``user`` organises (all clubs for a superuser)."""
    if not user.is_authenticated:
        return Club.objects.none()
    if getattr(user, "is_superuser", False):
        return Club.objects.all()
    return Club.objects.filter(organisers=user)


def events_for_user(user: UserLike) -> QuerySet[Event]:
    """The events ``user`` may see and change as an organiser."""
    if not user.is_authenticated:
        return Event.objects.none()
    events = Event.objects.select_related("club")
    if getattr(user, "is_superuser", False):
        return events
    return events.filter(club__organisers=user).distinct()


def user_directs(user: UserLike | None, event: Event) -> bool:
    """Whether ``user`` directs ``event``: an organiser of its club, or a superuser."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return event.club.organisers.filter(pk=user.pk).exists()


def events_for_user_with_counts(user: UserLike) -> QuerySet[Event]:
    """:func:`events_for_user` with the number of real entrants (``entrant_count``)."""
    return events_for_user(user).annotate(
        entrant_count=Count("entrants", filter=Q(entrants__phantom=False), distinct=True)
    )


def event_tables(event: Event) -> list[Table]:
    return list(Table.objects.filter(event=event).order_by("number"))


def event_entrants(event: Event) -> list[Entrant]:
    """The event's entrants in slot order, with player, club and team loaded."""
    return list(
        Entrant.objects.filter(event=event).select_related("player__club", "team").order_by("slot")
    )


def event_real_entrants(event: Event) -> list[Entrant]:
    """The registered (non-phantom) entrants in registration (slot) order."""
    return [e for e in event_entrants(event) if not e.phantom]


def event_teams(event: Event) -> list[Team]:
    """The event's teams with their members (players loaded), by number."""
    members = Entrant.objects.select_related("player").order_by("slot")
    return list(
        Team.objects.filter(event=event)
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("number")
    )


def players_search(
    *, query: str, exclude_event: Event | None = None, limit: int = 20
) -> list[Player]:
    """Known players whose name or licence contains ``query`` (not yet in ``exclude_event``)."""
    terms = query.split()
    if not terms:
        return []
    players = Player.objects.select_related("club")
    for term in terms:
        players = players.filter(
            Q(last_name__icontains=term)
            | Q(first_name__icontains=term)
            | Q(licence__icontains=term)
        )
    if exclude_event is not None:
        players = players.exclude(entries__event=exclude_event)
    return list(players.order_by("last_name", "first_name")[:limit])


# --- setup state -------------------------------------------------------------------------


@dataclass(frozen=True)
class SetupStep:
    key: str
    done: bool
    detail: str


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
            and not (self.deal_sets_missing)
        )


def event_setup_state(event: Event) -> EventSetupState:
    entrants = list(
        Entrant.objects.filter(event=event, phantom=False).values_list("team_id", flat=True)
    )
    size = TEAM_SIZES.get(event.format)
    teams = Team.objects.filter(event=event).annotate(n=Count("members"))
    incomplete = sum(1 for t in teams if size is not None and t.n != size)
    movement = event.movement or {}
    deal_sets = int(movement.get("deal_sets", 0)) if movement else 0
    per_set: dict[int, int] = defaultdict(int)
    deal_count = 0
    for deal_set in Deal.objects.filter(event=event).values_list("deal_set", flat=True):
        per_set[deal_set] += 1
        deal_count += 1
    missing = [k for k in range(1, deal_sets + 1) if per_set.get(k, 0) != event.deals_per_round]
    return EventSetupState(
        entrant_count=len(entrants),
        team_count=len(teams),
        players_without_team=sum(1 for team_id in entrants if team_id is None),
        incomplete_teams=incomplete,
        has_movement=bool(movement),
        deal_sets=deal_sets,
        deal_count=deal_count,
        deals_expected=deal_sets * event.deals_per_round,
        deal_sets_missing=missing,
    )


# --- printouts ---------------------------------------------------------------------------
#
# The movement package derives the per-table, per-entrant and per-deal-set views (and decides
# which tables are *played*: a table holding a phantom is a sit-out table, its real entrants
# have a bye); here its entrant ids are replaced by the event's Entrant rows.


@dataclass(frozen=True)
class SeatView:
    seat: str
    entrant: Entrant | None  # None only if a slot had no Entrant row (never once bound)

    @property
    def label(self) -> str:
        return str(self.entrant) if self.entrant is not None else "?"


@dataclass
class TableRoundView:
    round: int
    deal_set: int
    copy: int
    played: bool
    seats: list[SeatView]


@dataclass
class TableCard:
    table: Table
    rounds: list[TableRoundView]


@dataclass
class RouteRow:
    round: int
    table: int | None  # None: not seated at all this round
    seat: str
    deal_set: int | None
    bye: bool  # sits out: not seated, or seated at a sit-out table
    opponents: list[Entrant | None]


@dataclass
class RouteCard:
    entrant: Entrant
    rows: list[RouteRow]


@dataclass
class DealSetRoute:
    deal_set: int
    deal_numbers: list[int]
    rows: list[tuple[int, list[tuple[int, int]]]]  # (round, [(table, copy), ...]) played only


def _slot_map(event: Event) -> dict[int, Entrant]:
    return {e.slot: e for e in event_entrants(event)}


def event_table_cards(event: Event) -> list[TableCard]:
    """One card per table that plays at least once: round → deal set and seated entrants."""
    if not event.movement:
        return []
    slots = _slot_map(event)
    tables = {t.number: t for t in Table.objects.filter(event=event)}
    cards = []
    for card in movements.table_cards(event.movement):
        rounds = [
            TableRoundView(
                round=int(r["round"]),
                deal_set=int(r["deal_set"]),
                copy=int(r["copy"]),
                played=bool(r["played"]),
                seats=[SeatView(seat, slots.get(int(r["seats"][seat]))) for seat in SEATS],
            )
            for r in sorted(card["rounds"], key=lambda r: int(r["round"]))
        ]
        number = int(card["table"])
        if number in tables and any(r.played for r in rounds):
            cards.append(TableCard(tables[number], rounds))
    return cards


def event_route_cards(event: Event) -> list[RouteCard]:
    """One card per real entrant: round → table, seat, deal set and opponents (or bye)."""
    if not event.movement:
        return []
    slots = _slot_map(event)
    seated: dict[tuple[int, int], dict[str, int]] = {}  # (round, table) → seat → slot
    for rnd in event.movement["schedule"]:
        for tab in rnd["tables"]:
            seated[(int(rnd["round"]), int(tab["table"]))] = {
                seat: int(slot) for seat, slot in tab["seats"].items()
            }
    cards = []
    for route in movements.route_cards(event.movement):
        entrant = slots.get(int(route["entrant"]))
        if entrant is None or entrant.phantom:
            continue
        rows = []
        for r in route["rounds"]:
            table = r["table"]
            around = seated.get((int(r["round"]), int(table)), {}) if table else {}
            opponents = (
                []
                if r["bye"]
                else [slots.get(slot) for seat, slot in around.items() if seat != r["seat"]]
            )
            rows.append(
                RouteRow(
                    round=int(r["round"]),
                    table=table,
                    seat=r["seat"] or "",
                    deal_set=r["deal_set"],
                    bye=bool(r["bye"]),
                    opponents=opponents,
                )
            )
        cards.append(RouteCard(entrant, rows))
    return sorted(cards, key=lambda c: c.entrant.slot)


def event_deal_set_routes(event: Event) -> list[DealSetRoute]:
    """One route per deal set: round → the tables (and copies) that play it."""
    if not event.movement:
        return []
    dpr = event.deals_per_round
    routes = []
    for route in movements.deal_set_routes(event.movement):
        per_round: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for r in route["rounds"]:
            if r["played"]:
                per_round[int(r["round"])].append((int(r["table"]), int(r["copy"])))
        k = int(route["deal_set"])
        routes.append(
            DealSetRoute(
                deal_set=k,
                deal_numbers=list(range((k - 1) * dpr + 1, k * dpr + 1)),
                rows=[(n, sorted(per_round[n])) for n in sorted(per_round)],
            )
        )
    return routes


def event_deals(event: Event, deal_numbers: Iterable[int] | None = None) -> list[Deal]:
    deals = Deal.objects.filter(event=event).order_by("number")
    if deal_numbers is not None:
        deals = deals.filter(number__in=list(deal_numbers))
    return list(deals)

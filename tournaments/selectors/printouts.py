"""Printouts of the movement: table cards, player route cards, deal-set routes, and the paper
score sheets (feuilles de table) of a round.

Read from ``Event.schedule`` (the typed movement); entrant slots are mapped to the event's
:class:`~tournaments.models.Entrant` rows. A table holding a phantom is a sit-out table: it is
printed but not *played*, and the real entrants seated there have a bye. A live Swiss round not
paired yet (``Schedule.pending_rounds``) is listed as *pending* (paired at the close of the
round before it): on a table card with its deal set (round r plays deal set r) and no seats, on
a route card without table or seat.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tournaments.models import SEATS, Deal, Entrant, Event, Seat, Table
from tournaments.movements import deal_numbers
from tournaments.selectors.setup import event_entrants


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
    pending: bool = False  # live Swiss: paired at the close of the round before


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
    pending: bool = False  # live Swiss: not paired yet (at the close of the round before)


@dataclass
class RouteCard:
    entrant: Entrant
    rows: list[RouteRow]


@dataclass
class DealSetRoute:
    deal_set: int
    deal_numbers: list[int]
    rows: list[tuple[int, list[tuple[int, int]]]]  # (round, [(table, copy), ...]) played only
    # live Swiss: the round not paired yet that plays this deal set (every table, copy = table)
    pending_round: int | None = None
    pending_tables: list[int] = field(default_factory=list)


def _slot_map(event: Event) -> dict[int, Entrant]:
    return {e.slot: e for e in event_entrants(event)}


def event_table_cards(event: Event) -> list[TableCard]:
    """One card per table that plays at least once: round → deal set and seated entrants."""
    schedule = event.schedule
    slots = _slot_map(event)
    cards = []
    for table in Table.objects.filter(event=event).order_by("number"):
        rounds = [
            TableRoundView(
                round=play.round,
                deal_set=play.deal_set,
                copy=play.copy,
                played=play.plays,
                seats=[SeatView(seat, slots.get(play.seats[seat])) for seat in SEATS],
            )
            for play in schedule.plays_of_table(table.number)
        ]
        rounds += [
            TableRoundView(n, n, table.number, played=False, seats=[], pending=True)
            for n in schedule.pending_rounds
        ]
        if any(r.played for r in rounds):
            cards.append(TableCard(table, rounds))
    return cards


def event_route_cards(event: Event) -> list[RouteCard]:
    """One card per real entrant: round → table, seat, deal set and opponents (or bye)."""
    schedule = event.schedule
    slots = _slot_map(event)
    rows: dict[int, list[RouteRow]] = defaultdict(list)
    for rnd in schedule.rounds:
        for play in rnd.tables:
            for seat, slot in play.seats.items():
                opponents = [] if play.sits_out else [
                    slots.get(other) for at, other in play.seats.items() if at != seat
                ]  # fmt: skip
                rows[slot].append(
                    RouteRow(rnd.number, play.table, seat, play.deal_set, play.sits_out, opponents)
                )
        for slot in rnd.byes:
            rows[slot].append(RouteRow(rnd.number, None, "", None, True, []))
    for number in schedule.pending_rounds:
        for entrant in schedule.entrants:
            rows[entrant.id].append(RouteRow(number, None, "", None, False, [], pending=True))
    return [
        RouteCard(slots[entrant.id], rows[entrant.id])
        for entrant in schedule.entrants
        if entrant.id in slots and not slots[entrant.id].phantom
    ]


def event_deal_set_routes(event: Event) -> list[DealSetRoute]:
    """One route per deal set: round → the tables (and copies) that play it."""
    schedule = event.schedule
    per_set: dict[int, dict[int, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    for play in schedule.playing():
        per_set[play.deal_set][play.round].append((play.table, play.copy))
    return [
        DealSetRoute(
            deal_set=k,
            deal_numbers=list(deal_numbers(k, event.deals_per_round)),
            rows=[(n, sorted(tables)) for n, tables in sorted(per_set[k].items())],
            # a live Swiss round r plays deal set r at every table (docs/swiss.md)
            pending_round=k if k in schedule.pending_rounds else None,
            pending_tables=list(range(1, schedule.table_count + 1))
            if k in schedule.pending_rounds
            else [],
        )
        for k in range(1, schedule.deal_set_count + 1)
    ]


@dataclass
class SheetDeal:
    """One deal of a paper score sheet: its number and, once the deals are prepared, the
    taker seat and the imposed contract its étui names."""

    number: int
    taker_seat: str = ""
    taker: Entrant | None = None
    imposed_contract: str = ""


@dataclass
class ScoreSheet:
    """The paper score sheet (feuille de table) of one table for one round: the players by
    seat and one box per deal of the étui, for a table without a phone."""

    table: Table
    round: int
    deal_set: int
    copy: int
    seats: list[SeatView]
    deals: list[SheetDeal]

    @property
    def named_seats(self) -> list[tuple[SeatView, str]]:
        """Each seat with its name (North, East...), in the language of the request."""
        return [(view, str(Seat(view.seat).label)) for view in self.seats]


def event_score_sheets(
    event: Event, round_number: int, table_number: int | None = None
) -> list[ScoreSheet] | None:
    """The score sheets of round ``round_number``: every table that plays it (sit-out tables
    have nothing to enter), or only table ``table_number``. None when the round is not in the
    movement (or not paired yet); an empty list when the table does not play that round."""
    rnd = event.schedule.round(round_number)
    if rnd is None or not rnd.tables:
        return None
    plays = [
        play
        for play in rnd.tables
        if not play.sits_out and (table_number is None or play.table == table_number)
    ]
    if not plays:
        return []
    slots = _slot_map(event)
    tables = {
        t.number: t for t in Table.objects.filter(event=event, number__in=[p.table for p in plays])
    }
    deals = {
        d.number: d
        for d in Deal.objects.filter(event=event, deal_set__in={p.deal_set for p in plays})
    }
    sheets = []
    for play in sorted(plays, key=lambda p: p.table):
        table = tables.get(play.table)
        if table is None:
            continue
        seated = {seat: slots.get(play.seats[seat]) for seat in SEATS}
        sheet_deals = []
        for number in deal_numbers(play.deal_set, event.deals_per_round):
            deal = deals.get(number)
            if deal is None:
                sheet_deals.append(SheetDeal(number))
                continue
            sheet_deals.append(
                SheetDeal(
                    number,
                    taker_seat=deal.taker_seat,
                    taker=seated.get(deal.taker_seat),
                    imposed_contract=deal.imposed_contract or "",
                )
            )
        sheets.append(
            ScoreSheet(
                table=table,
                round=play.round,
                deal_set=play.deal_set,
                copy=play.copy,
                seats=[SeatView(seat, seated[seat]) for seat in SEATS],
                deals=sheet_deals,
            )
        )
    return sheets

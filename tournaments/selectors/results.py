"""Reads of table results: what a table plays round by round, and a stored outcome.

A *table round* is one table in one round as the entry page and the API show it: the
entrants seated (from ``Event.schedule``), the deals of its étui and the results stored. A
table where a phantom is seated sits out that round: nothing is expected there. A *round
grid* is what the organiser's entry grid of one round reads (tables, entrants, results).
Also here: the results of an event or a table, their append-only history (``ResultChange``)
and the event's penalties. Each selector owns its ``select_related``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, FilteredRelation, Q, QuerySet

from tournaments.models import (
    SEATS,
    Deal,
    Entrant,
    Event,
    Penalty,
    ResultChange,
    Table,
    TableResult,
)


@dataclass
class TableRound:
    """What one table plays in one round: who sits where, the deals, the results stored."""

    round_number: int
    deal_set: int
    sits_out: bool  # a phantom is seated: nothing is played here this round
    seats: dict[str, Entrant]
    deals: list[Deal]
    results: dict[int, TableResult]  # Deal.pk -> stored result

    @property
    def missing(self) -> list[Deal]:
        """Deals still to enter (none when a phantom sits here)."""
        if self.sits_out:
            return []
        return [deal for deal in self.deals if deal.pk not in self.results]

    @property
    def seat_list(self) -> list[tuple[str, Entrant]]:
        return [(seat, self.seats[seat]) for seat in SEATS if seat in self.seats]


def table_rounds(table: Table) -> list[TableRound]:
    """Every round of ``table`` in the movement, with entrants, deals and results (3 queries).
    Each result gets the deal and the table loaded here (``table`` itself), not read again."""
    event = table.event
    plays = event.schedule.plays_of_table(table.number)
    # Only the entrants this table seats (a few dozen), not the event's (thousands): the
    # table phone reads this on every save.
    slots = {slot for play in plays for slot in play.seats.values()}
    entrants = {
        e.slot: e
        for e in Entrant.objects.filter(event=event, slot__in=slots).select_related(
            "player__club", "team"
        )
    }
    deals_by_set: dict[int, list[Deal]] = {}
    deals_by_pk: dict[int, Deal] = {}
    sets = {play.deal_set for play in plays}
    for deal in Deal.objects.filter(event=event, deal_set__in=sets).order_by("number"):
        deals_by_set.setdefault(deal.deal_set, []).append(deal)
        deals_by_pk[deal.pk] = deal
    cache_deal = TableResult._meta.get_field("deal").set_cached_value
    cache_table = TableResult._meta.get_field("table").set_cached_value
    results: dict[int, TableResult] = {}
    for r in TableResult.objects.filter(table=table):
        loaded = deals_by_pk.get(r.deal_id)
        if loaded is None:  # not a deal of this table's rounds: never shown
            continue
        cache_deal(r, loaded)
        cache_table(r, table)
        results[r.deal_id] = r
    rounds = []
    for play in plays:
        deals = deals_by_set.get(play.deal_set, [])
        rounds.append(
            TableRound(
                round_number=play.round,
                deal_set=play.deal_set,
                sits_out=play.sits_out,
                seats={s: entrants[slot] for s, slot in play.seats.items() if slot in entrants},
                deals=deals,
                results={d.pk: results[d.pk] for d in deals if d.pk in results},
            )
        )
    return rounds


@dataclass
class TableOutline:
    """What a save needs to know of a table's rounds (1 query, no model instance): the deals
    of each deal set it plays (pks, by number) and the confirmation state of each of those
    deals' results stored there (by deal pk)."""

    deals_by_set: dict[int, list[int]]
    confirmed: dict[int, bool]


def table_outline(table: Table) -> TableOutline:
    """The deals of ``table``'s deal sets and its results of them, as plain values."""
    event = table.event
    sets = {play.deal_set for play in event.schedule.plays_of_table(table.number)}
    rows = (
        Deal.objects.filter(event=event, deal_set__in=sets)
        .annotate(here=FilteredRelation("results", condition=Q(results__table=table)))
        .order_by("number")
        .values_list("pk", "deal_set", "here__pk", "here__confirmed")
    )
    deals_by_set: dict[int, list[int]] = {}
    confirmed: dict[int, bool] = {}
    for pk, deal_set, result_pk, result_confirmed in rows:
        deals_by_set.setdefault(deal_set, []).append(pk)
        if result_pk is not None:
            confirmed[pk] = bool(result_confirmed)
    return TableOutline(deals_by_set=deals_by_set, confirmed=confirmed)


def table_positions(event: Event) -> dict[int, int | None]:
    """Each table's *position* (by table number): the round it plays now, as its code's open
    round (``tournaments.table_scope.open_round_of``) says it: the first round of its schedule,
    neither closed nor a sit-out, where a deal of its étui has no result that counts yet (with
    the opponent confirmation, an unconfirmed one does not); None once the table has finished
    every round. 2 queries of counts, whatever the event's size."""
    deals_per_set = dict(
        Deal.objects.filter(event=event)
        .order_by()
        .values("deal_set")
        .annotate(count=Count("pk"))
        .values_list("deal_set", "count")
    )
    counted = TableResult.objects.filter(event=event)
    if event.opponent_confirmation:
        counted = counted.filter(confirmed=True)
    done = {
        (table, deal_set): count
        for table, deal_set, count in counted.order_by()
        .values("table__number", "deal__deal_set")
        .annotate(count=Count("pk"))
        .values_list("table__number", "deal__deal_set", "count")
    }
    closed = {int(number) for number in event.closed_rounds or []}
    positions: dict[int, int | None] = {}
    for play in event.schedule.plays():  # round by round: a table's first open round stays
        positions.setdefault(play.table, None)
        if positions[play.table] is not None or play.sits_out or play.round in closed:
            continue
        if done.get((play.table, play.deal_set), 0) < deals_per_set.get(play.deal_set, 0):
            positions[play.table] = play.round
    return dict(sorted(positions.items()))


@dataclass
class RoundGrid:
    """What the entry grid of one round reads (3 queries)."""

    tables: dict[int, Table]  # Table.number -> table
    entrants: dict[int, Entrant]  # slot -> entrant (player loaded)
    results: dict[tuple[int, int], TableResult]  # (Table.pk, Deal.pk) -> stored result


def round_grid(event: Event, round_number: int) -> RoundGrid:
    """The event's tables and entrants, and the results stored for round ``round_number``."""
    return RoundGrid(
        tables={t.number: t for t in Table.objects.filter(event=event)},
        entrants={e.slot: e for e in Entrant.objects.filter(event=event).select_related("player")},
        results={
            (r.table_id, r.deal_id): r
            for r in TableResult.objects.filter(event=event, round_number=round_number)
        },
    )


def result_with_seats(table: Table, deal: Deal) -> TableResult | None:
    """The result stored for (table, deal), with deal, table and seated players loaded."""
    return (
        TableResult.objects.filter(table=table, deal=deal)
        .select_related(
            "deal", "table", "seat_n__player", "seat_e__player", "seat_s__player", "seat_w__player"
        )
        .first()
    )


def table_deal_result(table: Table, deal: Deal) -> TableResult | None:
    """The result stored for (table, deal), or None."""
    return TableResult.objects.filter(table=table, deal=deal).first()


def phone_tables() -> QuerySet[Table]:
    """The tables a phone code may open, their event and club loaded. The movement document is
    deferred: the schedule comes from the per-process cache (``Event.schedule``), not from
    decoding a 200-table document on every save."""
    return Table.objects.select_related("event__club").defer("event__movement")


def stored_result(pk: int) -> TableResult:
    """A stored result with its deal and table loaded (as the API answers it)."""
    return TableResult.objects.select_related("deal", "table").get(pk=pk)


def event_results(event: Event, *, hidden_deals: Collection[int] = ()) -> QuerySet[TableResult]:
    """The event's results but those of the deal numbers ``hidden_deals``, by deal and table;
    for a simultaneous, every section's (by deal, section, table)."""
    if event.movement is None and Event.objects.filter(simultaneous_id=event.pk).exists():
        results = TableResult.objects.filter(event__simultaneous=event)
        order = ["deal__number", "event_id", "table__number"]
    else:
        results = TableResult.objects.filter(event=event)
        order = ["deal__number", "table__number"]
    return (
        results.exclude(deal__number__in=hidden_deals)
        .select_related("deal", "table")
        .order_by(*order)
    )


def table_results(table: Table) -> QuerySet[TableResult]:
    """The results stored at ``table``, by round and deal."""
    return (
        TableResult.objects.filter(table=table)
        .select_related("deal", "table")
        .order_by("round_number", "deal__number")
    )


def result_history(result: TableResult) -> list[ResultChange]:
    """The append-only history of one result, oldest first (actor loaded)."""
    return list(
        ResultChange.objects.filter(result=result).select_related("actor").order_by("at", "pk")
    )


def event_result_changes(event: Event) -> QuerySet[ResultChange]:
    """Every change to the event's results, newest first (deal, table and actor loaded)."""
    return (
        ResultChange.objects.filter(event=event)
        .select_related("result__deal", "result__table", "actor")
        .order_by("-at", "-pk")
    )


def event_penalties(event: Event) -> QuerySet[Penalty]:
    """The event's penalties (entrant's player, team and author loaded)."""
    return Penalty.objects.filter(event=event).select_related(
        "entrant__player", "team", "created_by"
    )


def result_outcome(result: TableResult) -> dict[str, Any] | None:
    """The stored outcome of a played result in the input shape (``taker_seat`` included)."""
    if result.kind != TableResult.Kind.PLAYED or result.points_half is None:
        return None
    half = result.points_half
    return {
        "taker_seat": result.taker_seat,
        "contract": result.contract,
        "oudlers": result.oudlers,
        "points": half // 2 if half % 2 == 0 else half / 2,
        "petit_au_bout": result.petit_au_bout or None,
        "poignees": list(result.poignees or []),
        "chelem": {"announced": result.chelem_announced, "made_by": result.chelem_made_by or None},
    }

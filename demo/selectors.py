"""Reads for the demo's printout: what to point a newcomer at in each event."""

from __future__ import annotations

from django.db.models import Count

from scoring.models import RankingEntry
from tournaments.models import Deal, Event, Table, TableResult


def finished_deal(event: Event) -> int | None:
    """A deal with a result at every table that plays it (its hands are shown)."""
    entered = dict(
        TableResult.objects.filter(event=event)
        .values("deal__number")
        .annotate(n=Count("id"))
        .values_list("deal__number", "n")
    )
    plays = event.schedule.tables_per_deal_set()
    for deal in Deal.objects.filter(event=event).order_by("number"):
        if entered.get(deal.number, 0) >= plays.get(deal.deal_set, 1):
            return deal.number
    return None


def table_in_play(event: Event, round_number: int) -> Table | None:
    """A table of round ``round_number`` that has not entered all its deals."""
    rnd = event.schedule.round(round_number)
    if rnd is None:
        return None
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    for play in rnd.playing:
        table = tables.get(play.table)
        if table is None:
            continue
        entered = TableResult.objects.filter(
            event=event, table=table, round_number=round_number
        ).count()
        if entered < event.deals_per_round:
            return table
    return None


def ranking_leader(event: Event) -> int | None:
    """The entrant id at the top of the individual ranking (``None`` before any standings)."""
    return (
        RankingEntry.objects.filter(event=event, kind=RankingEntry.Kind.INDIVIDUAL, published=True)
        .order_by("rank", "pk")
        .values_list("entrant_id", flat=True)
        .first()
    )

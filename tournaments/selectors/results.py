"""Reads of table results: what a table plays round by round, and a stored outcome.

A *table round* is one table in one round as the entry page and the API show it: the
entrants seated (from ``Event.schedule``), the deals of its étui and the results stored. A
table where a phantom is seated sits out that round: nothing is expected there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.models import SEATS, Deal, Entrant, Table, TableResult


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
    """Every round of ``table`` in the movement, with entrants, deals and results (3 queries)."""
    event = table.event
    entrants = {
        e.slot: e
        for e in Entrant.objects.filter(event=event).select_related("player__club", "team")
    }
    deals_by_set: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(event=event).order_by("number"):
        deals_by_set.setdefault(deal.deal_set, []).append(deal)
    results = {
        r.deal_id: r
        for r in TableResult.objects.filter(table=table).select_related("deal", "table")
    }
    rounds = []
    for play in event.schedule.plays_of_table(table.number):
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

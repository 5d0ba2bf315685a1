"""When the per-table outcomes of a deal may be published: the duplicate rule, in one place.

Vocabulary (shared/domain/duplicate.md): a deal is played at several tables in different rounds
(every table the movement gives its deal set to). A deal is *finished* once it has a result of
any kind (played, artificial, not played) at every such table.

Invariant: while some table has still to play a deal, nobody but the event's organisers may see
another table's outcome of it (contract, oudlers, points, value, marks, percentages, cards):
:func:`deal_outcomes_public` is the one rule the public pages, the exports and both APIs apply
(finished deals, or every deal of a finished event). Rankings are not concerned: they are
published live. Lives in ``tournaments`` (it reads only tournaments rows) so that the
tournaments API can apply it: ``tournaments`` never imports ``scoring``; ``scoring.selectors``
re-exports it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.models import Deal, Event, TableResult

# ---------------------------------------------------------------------------- movement


@dataclass(frozen=True)
class TablePlan:
    """One table in one round of the movement: who sits where, which deal set."""

    round: int
    table: int
    seats: dict[str, int]  # seat -> entrant slot
    deal_set: int
    real: bool  # False when a phantom sits there: the table is not played


@dataclass(frozen=True)
class RoundPlan:
    number: int
    tables: list[TablePlan]
    byes: list[int]


def movement_rounds(event: Event) -> list[RoundPlan]:
    """The event's stored movement document as round plans (empty before it is set)."""
    movement = event.movement or {}
    phantoms = {
        int(entrant["id"]) for entrant in movement.get("entrants", []) if entrant.get("phantom")
    }
    rounds: list[RoundPlan] = []
    for round_doc in movement.get("schedule", []):
        number = int(round_doc["round"])
        tables = [
            TablePlan(
                round=number,
                table=int(table_doc["table"]),
                seats={seat: int(slot) for seat, slot in table_doc["seats"].items()},
                deal_set=int(table_doc["deal_set"]),
                real=not any(int(slot) in phantoms for slot in table_doc["seats"].values()),
            )
            for table_doc in round_doc.get("tables", [])
        ]
        tables.sort(key=lambda plan: plan.table)
        byes = [int(slot) for slot in round_doc.get("byes", [])]
        rounds.append(RoundPlan(number=number, tables=tables, byes=byes))
    rounds.sort(key=lambda plan: plan.number)
    return rounds


def scheduled_tables_per_deal_set(rounds: Iterable[RoundPlan]) -> Counter[int]:
    """How many real tables play each deal set over the whole event."""
    return Counter(
        plan.deal_set for round_plan in rounds for plan in round_plan.tables if plan.real
    )


# ------------------------------------------------------------------ deal publication


@dataclass
class DealSummary:
    """How many tables the movement schedules a deal on, and how many have a result for it."""

    deal: Deal
    scheduled: int
    entered: int

    @property
    def finished(self) -> bool:
        """A result of any kind at every scheduled table: the deal can no longer leak."""
        return self.scheduled > 0 and self.entered >= self.scheduled


def deal_summaries(event: Event, rounds: Sequence[RoundPlan] | None = None) -> list[DealSummary]:
    """Every deal of the event with its scheduled and entered table counts (two queries)."""
    if rounds is None:
        rounds = movement_rounds(event)
    scheduled = scheduled_tables_per_deal_set(rounds)
    entered = Counter(TableResult.objects.filter(event=event).values_list("deal_id", flat=True))
    return [
        DealSummary(
            deal=deal, scheduled=scheduled.get(deal.deal_set, 0), entered=entered.get(deal.pk, 0)
        )
        for deal in Deal.objects.filter(event=event).order_by("number")
    ]


def deal_outcomes_public(event: Event, summary: DealSummary) -> bool:
    """Whether anybody may see the per-table outcomes of ``summary.deal``: THE rule.

    Once the deal is finished (a result at every scheduled table), or once the event is.
    """
    return summary.finished or event.status == Event.Status.FINISHED


def deals_open_for_public(event: Event, summaries: Sequence[DealSummary] | None = None) -> set[int]:
    """Numbers of the deals whose per-table outcomes anybody may see."""
    if summaries is None:
        summaries = deal_summaries(event)
    return {summary.deal.number for summary in summaries if deal_outcomes_public(event, summary)}


def deals_hidden_from(
    event: Event, *, directs: bool, summaries: Sequence[DealSummary] | None = None
) -> set[int]:
    """Numbers of the deals whose per-table outcomes must be withheld from a viewer.

    ``directs``: the viewer organises the event (its club's organiser or a superuser, as told
    by the caller's access helper); organisers always see everything. Empty once the event is
    finished, without a query.
    """
    if directs or event.status == Event.Status.FINISHED:
        return set()
    if summaries is None:
        summaries = deal_summaries(event)
    return {
        summary.deal.number for summary in summaries if not deal_outcomes_public(event, summary)
    }

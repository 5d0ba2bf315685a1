"""When the per-table outcomes of a deal may be published: the duplicate rule, in one place.

Vocabulary (shared/domain/duplicate.md): a deal is played at several tables in different rounds
(every table the movement gives its deal set to). A deal is *finished* once it has a result of
any kind (played, artificial, not played) at every such table.

Invariant: while some table has still to play a deal, nobody but the event's organisers may see
another table's outcome of it (contract, oudlers, points, value, marks, percentages, cards):
:func:`deal_outcomes_public` is the one rule the public pages, the exports and both APIs apply
(finished deals, or every deal of a finished event). Rankings are not concerned: they are
published live. Lives in ``tournaments`` (it reads only tournaments rows) so that the
tournaments API can apply it: ``tournaments`` never imports ``scoring``. The tables scheduled
on a deal are those of ``Event.schedule`` that really play its deal set.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tournaments.models import Deal, Event, TableResult


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


def deal_summary(event: Event, deal: Deal, entered: int) -> DealSummary:
    """The summary of ``deal`` when ``entered`` tables have a result for it."""
    scheduled = event.schedule.tables_per_deal_set().get(deal.deal_set, 0)
    return DealSummary(deal=deal, scheduled=scheduled, entered=entered)


def deal_summaries(event: Event) -> list[DealSummary]:
    """Every deal of the event with its scheduled and entered table counts (two queries)."""
    scheduled = event.schedule.tables_per_deal_set()
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


def deals_hidden_from(event: Event, *, directs: bool) -> set[int]:
    """Numbers of the deals whose per-table outcomes must be withheld from a viewer.

    ``directs``: the viewer organises the event (its club's organiser or a superuser, as told
    by the caller's access helper); organisers always see everything. Empty once the event is
    finished, without a query.
    """
    if directs or event.status == Event.Status.FINISHED:
        return set()
    return {
        summary.deal.number
        for summary in deal_summaries(event)
        if not deal_outcomes_public(event, summary)
    }

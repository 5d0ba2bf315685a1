"""When the per-table outcomes of a deal may be published: the duplicate rule, in one place.

Vocabulary (docs/domain/duplicate.md): a deal is played at several tables in different rounds
(every table the movement gives its deal set to). A deal is *finished* once it has a result of
any kind (played, artificial, not played) at every such table.

Invariant: while some table has still to play a deal, nobody but the event's organisers may see
another table's outcome of it (contract, oudlers, points, value, marks, percentages, cards):
:func:`deal_outcomes_public` is the one rule the public pages, the exports and both APIs apply
(finished deals, or every deal of a finished event). The published rankings and score card
totals count only the deals it opens (the recompute, ``scoring.services``, ranks them apart from
the organisers' complete ranking), so that no total reveals a deal in play. Lives in
``tournaments`` (it reads only tournaments rows) so that the tournaments API can apply it:
``tournaments`` never imports ``scoring``. The tables scheduled on a deal are those of
``Event.schedule`` that really play its deal set.

Simultaneous tournaments (``Event`` docstring): the copies of a deal (same number) are compared
across every section, so the rule spans the whole simultaneous, on the simultaneous's pages and
on every section's alike. A deal is finished once every section is *done* with it
(:class:`SectionPlay`): the section is finished, or it has started and each of its tables
scheduled on the deal has a result. A section not started yet counts as still to play every
deal (its movement may still change), and a finished section does not open the deals the
others are still playing: only the whole simultaneous being done does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db.models import Count

from tournaments.models import Deal, Event, TableResult, load_schedules


@dataclass(frozen=True)
class SectionPlay:
    """How far one section of a simultaneous is with one deal (its copy of the deal)."""

    section_id: int
    scheduled: int  # the section's tables that play the deal
    entered: int  # of them, those with a result
    started: bool  # the section is running or finished
    closed: bool  # the section is finished: nobody there plays any more

    @property
    def done(self) -> bool:
        """Nobody in this section will play the deal (any more)."""
        return self.closed or (self.started and self.entered >= self.scheduled)


@dataclass
class DealSummary:
    """How many tables the movement schedules a deal on, and how many have a result for it.

    ``scheduled`` and ``entered`` are the event's own (for a simultaneous, the sum over its
    sections). In a simultaneous (or one of its sections), ``sections`` tells how far every
    section is with the deal, and only they decide whether it is finished.
    """

    deal: Deal
    scheduled: int
    entered: int
    sections: tuple[SectionPlay, ...] = ()

    @property
    def in_simultaneous(self) -> bool:
        return bool(self.sections)

    @property
    def scheduled_everywhere(self) -> int:
        """Tables scheduled on the deal over the whole simultaneous (the event's own else)."""
        return sum(s.scheduled for s in self.sections) if self.sections else self.scheduled

    @property
    def entered_everywhere(self) -> int:
        return sum(s.entered for s in self.sections) if self.sections else self.entered

    @property
    def sections_to_play(self) -> int:
        """Sections that have still to play the deal (one not started counts)."""
        return sum(1 for s in self.sections if not s.done)

    @property
    def finished(self) -> bool:
        """A result at every scheduled table (of every section): the deal can no longer leak."""
        if self.sections:
            return self.scheduled_everywhere > 0 and all(s.done for s in self.sections)
        return self.scheduled > 0 and self.entered >= self.scheduled


def _sections_sharing_deals(event: Event) -> list[Event] | None:
    """The sections whose tables play ``event``'s deals when it is a simultaneous or one of its
    sections (``event`` included), by pk, without their movements; ``None`` for an ordinary
    event.

    One query, none for an event with a movement that is no section (a simultaneous has none).
    """
    if event.simultaneous_id is not None:
        parent = event.simultaneous_id
    elif event.pk is not None and (
        "movement" in event.get_deferred_fields() or event.movement is None
    ):
        # (a deferred movement is not loaded for this: the query below tells)
        parent = event.pk
    else:
        return None
    sections = list(
        Event.objects.filter(simultaneous_id=parent)
        .only("id", "status", "updated_at", "simultaneous_id")
        .order_by("pk")
    )
    return sections or None


def _tables_per_deal_set(sections: Sequence[Event]) -> dict[int, Counter[int]]:
    """Each section's tables per deal set (``Schedule.tables_per_deal_set``), by pk; the
    movements not parsed yet in this process are read in one query (``load_schedules``)."""
    load_schedules(sections)
    return {section.pk: section.schedule.tables_per_deal_set() for section in sections}


def _section_plays(
    sections: Sequence[Event],
    tables_per_set: Mapping[int, Counter[int]],
    deal: Deal,
    entered: Mapping[tuple[int, int], int],
) -> tuple[SectionPlay, ...]:
    """Every section's play of ``deal`` (copies share number and deal set); ``entered`` counts
    results by (section pk, deal number)."""
    return tuple(
        SectionPlay(
            section_id=section.pk,
            scheduled=tables_per_set.get(section.pk, Counter()).get(deal.deal_set, 0),
            entered=entered.get((section.pk, deal.number), 0),
            started=section.status != Event.Status.DRAFT,
            closed=section.status == Event.Status.FINISHED,
        )
        for section in sections
    )


def _own(event: Event, plays: tuple[SectionPlay, ...]) -> tuple[int, int]:
    """The event's own (scheduled, entered): its section's, or the sum for the simultaneous."""
    mine = [play for play in plays if play.section_id == event.pk] or list(plays)
    return sum(p.scheduled for p in mine), sum(p.entered for p in mine)


def _entered_by_section(
    sections: Sequence[Event], number: int | None = None
) -> Counter[tuple[int, int]]:
    """Results per (section pk, deal number) over ``sections`` (of deal ``number`` only)."""
    results = TableResult.objects.filter(event_id__in=[section.pk for section in sections])
    if number is not None:
        results = results.filter(deal__number=number)
    counts = results.order_by().values("event_id", "deal__number").annotate(count=Count("id"))
    return Counter({(row["event_id"], row["deal__number"]): row["count"] for row in counts})


def deal_summary(event: Event, deal: Deal, entered: int) -> DealSummary:
    """The summary of ``deal`` when ``entered`` tables of ``event`` have a result for it (in a
    simultaneous, two or three more queries count every section's)."""
    sections = _sections_sharing_deals(event)
    if sections is None:
        scheduled = event.schedule.tables_per_deal_set().get(deal.deal_set, 0)
        return DealSummary(deal=deal, scheduled=scheduled, entered=entered)
    tables_per_set = _tables_per_deal_set(sections)
    plays = _section_plays(
        sections, tables_per_set, deal, _entered_by_section(sections, deal.number)
    )
    scheduled, _counted = _own(event, plays)
    return DealSummary(deal=deal, scheduled=scheduled, entered=entered, sections=plays)


def deal_summaries(event: Event) -> list[DealSummary]:
    """Every deal of the event with its scheduled and entered table counts (two queries; three
    or four in a simultaneous, where every section's counts come along)."""
    sections = _sections_sharing_deals(event)
    deals = Deal.objects.filter(event=event).order_by("number")
    if sections is None:
        scheduled = event.schedule.tables_per_deal_set()
        entered = Counter(
            {
                row["deal_id"]: row["count"]
                for row in TableResult.objects.filter(event=event)
                .order_by()
                .values("deal_id")
                .annotate(count=Count("id"))
            }
        )
        return [
            DealSummary(
                deal=deal,
                scheduled=scheduled.get(deal.deal_set, 0),
                entered=entered.get(deal.pk, 0),
            )
            for deal in deals
        ]
    by_section = _entered_by_section(sections)
    tables_per_set = _tables_per_deal_set(sections)
    summaries: list[DealSummary] = []
    for deal in deals:
        plays = _section_plays(sections, tables_per_set, deal, by_section)
        own_scheduled, own_entered = _own(event, plays)
        summaries.append(DealSummary(deal, own_scheduled, own_entered, plays))
    return summaries


def deal_outcomes_public(event: Event, summary: DealSummary) -> bool:
    """Whether anybody may see the per-table outcomes of ``summary.deal``: THE rule.

    Once the deal is finished (a result at every scheduled table), or once the event is. In a
    simultaneous, once every section is done with the deal: a section's own status opens
    nothing (``summary.finished`` already counts each finished section as done).
    """
    if summary.in_simultaneous:
        return summary.finished
    return summary.finished or event.status == Event.Status.FINISHED


def deals_hidden_from(event: Event, *, directs: bool) -> set[int]:
    """Numbers of the deals whose per-table outcomes must be withheld from a viewer.

    ``directs``: the viewer organises the event (its club's organiser or a superuser, as told
    by the caller's access helper); organisers always see everything. Empty once an ordinary
    event is finished, without a query; in a simultaneous (or a section of one), the deals some
    section has still to play.
    """
    if directs:
        return set()
    if (
        event.status == Event.Status.FINISHED
        and event.simultaneous_id is None
        and event.movement is not None
    ):
        return set()
    return {
        summary.deal.number
        for summary in deal_summaries(event)
        if not deal_outcomes_public(event, summary)
    }

"""Reads of simultaneous tournaments: a simultaneous's sections with their progress, the
simultaneous of a section, how many sections it has.

A *simultaneous* is an ``Event`` whose sections (``Event.simultaneous``) play copies of its
deals; each section is an event of its own club. Access is :mod:`clubs.access`'s (a section is
also directed by the simultaneous's club); these selectors take the event as given.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from tournaments.models import Event, TableResult


@dataclass(frozen=True)
class SectionRow:
    """One section on its simultaneous's page."""

    event: Event
    tables: int
    entrants: int
    entered: int
    expected: int

    @property
    def progress(self) -> int:
        """Percentage of the expected results entered (0 before the movement)."""
        return round(100 * self.entered / self.expected) if self.expected else 0


def section_rows(simultaneous: Event) -> list[SectionRow]:
    """The sections with their counts: one query for the sections, one for their results."""
    sections = list(
        Event.objects.filter(simultaneous=simultaneous)
        .select_related("club")
        .annotate(real=Count("entrants", filter=Q(entrants__phantom=False), distinct=True))
        .order_by("name", "pk")
    )
    entered = dict(
        TableResult.objects.filter(event__simultaneous=simultaneous, confirmed=True)
        .values("event_id")
        .annotate(n=Count("id"))
        .values_list("event_id", "n")
    )
    return [
        SectionRow(
            event=section,
            tables=section.schedule.table_count,
            entrants=section.real,
            entered=entered.get(section.pk, 0),
            expected=section.schedule.playing_count() * section.deals_per_round,
        )
        for section in sections
    ]


def section_count(simultaneous: Event) -> int:
    """How many sections ``simultaneous`` has."""
    return Event.objects.filter(simultaneous=simultaneous).count()


def simultaneous_of(section: Event) -> Event:
    """The simultaneous ``section`` belongs to, its club loaded (``section`` is a section)."""
    if section.simultaneous_id is None:
        raise ValueError(f"event {section.pk} is not a section")
    return Event.objects.select_related("club").get(pk=section.simultaneous_id)

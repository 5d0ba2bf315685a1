"""Reads of series: the events an organiser may add, an event of a series, and the series
ranking over the counted events. Who sees or directs which series is :mod:`clubs.access`'s
(``visible_to`` / ``directed_by`` / ``visible_or_404`` / ``directed_or_404``), as for every
kind of competition.

**What counts** (the publication rule, docs/series.md): an event of the series counts once it
is public, finished, and its published standings are up to date (not behind a pending
recompute): the ranking read is then its final one. A running or draft event, a private one,
or one whose final standings are still being computed is listed, not counted. Each counted
event's ranking is read through ``scoring.selectors.ranking_rows`` (the published rows, the
read path of the event's own pages), never recomputed.

**Whose result**: in an individual event (or a simultaneous, or a section), each player's
place and percentage in the individual ranking; in a team event (triplette, quadrette), each
member's is his team's place and percentage (every member of the team, substitutes included,
shares the team's result: a league ranks what the player's team achieved).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from clubs.access import UserLike, directed_by, visible_to
from clubs.models import Player
from scoring.models import RankingEntry
from scoring.selectors import ranking_rows, standings_status
from series.core import PERCENTAGE, EventResult, Standing, series_standings
from series.models import Series, SeriesEvent
from tournaments.models import Event

# Why an event of the series is not counted (None: counted).
NOT_PUBLIC = "not_public"
NOT_FINISHED = "not_finished"
UPDATING = "updating"


def series_addable_events(
    series: Series, user: UserLike | None, *, limit: int | None = None
) -> QuerySet[Event]:
    """The events ``user`` may add to ``series``, the latest first (at most ``limit``): his
    club's events (a club series: the ones he directs), or every event he may see (a league
    series), not in the series yet. ``series.services.series_event_add`` still judges the
    event (one of a simultaneous already in it...)."""
    if series.league:
        events = visible_to(user, Event)
    else:
        events = directed_by(user, Event).filter(club=series.club_id)
    events = (
        events.exclude(series_entries__series=series)
        .select_related("club")
        .defer("movement")
        .order_by("-date", "name")
    )
    return events if limit is None else events[:limit]


def series_has_addable_events(series: Series, user: UserLike | None) -> bool:
    """Whether ``user`` has an event left to add to ``series``."""
    return series_addable_events(series, user).exists()


def series_event(series: Series, event_pk: int) -> Event | None:
    """Event ``event_pk`` if it is in ``series``, else None."""
    return series.events.select_related("club").defer("movement").filter(pk=event_pk).first()


@dataclass(frozen=True)
class SeriesEventLine:
    """An event of the series, with why it does not count yet (``reason`` None: counted)."""

    event: Event
    reason: str | None
    players: int = 0

    @property
    def counted(self) -> bool:
        return self.reason is None


def series_event_lines(series: Series) -> list[SeriesEventLine]:
    """The series' events, oldest first, each with whether it counts (two queries per finished
    public event for its standings status)."""
    lines = []
    entries = SeriesEvent.objects.filter(series=series).select_related("event__club")
    for entry in entries.defer("event__movement").order_by("event__date", "event__name", "pk"):
        lines.append(SeriesEventLine(entry.event, _not_counted(entry.event)))
    return lines


def _not_counted(event: Event) -> str | None:
    if not event.public:
        return NOT_PUBLIC
    if event.status != Event.Status.FINISHED:
        return NOT_FINISHED
    status = standings_status(event)
    if not status.finished or status.behind:
        # a section whose simultaneous is still running, or a recompute still pending
        return UPDATING
    return None


def event_final_results(event: Event) -> list[EventResult]:
    """Every player's final place and percentage at ``event`` (see the module docstring)."""
    if event.is_team_event:
        rows = ranking_rows(event, RankingEntry.Kind.TEAM)
        return [
            EventResult(event.pk, member.player_id, row.rank, row.percentage)
            for row in rows
            if row.team is not None
            for member in row.team.members.all()
            if member.player_id is not None and not member.phantom
        ]
    return [
        EventResult(event.pk, row.entrant.player_id, row.rank, row.percentage)
        for row in ranking_rows(event, RankingEntry.Kind.INDIVIDUAL)
        if row.entrant is not None and row.entrant.player_id is not None
    ]


@dataclass(frozen=True)
class SeriesRanking:
    """The series ranking as pages, exports and the API show it."""

    series: Series
    events: list[SeriesEventLine]
    standings: list[Standing]
    players: dict[int, Player] = field(default_factory=dict)

    @property
    def ranked(self) -> list[Standing]:
        return [line for line in self.standings if line.ranked]

    @property
    def unranked(self) -> list[Standing]:
        return [line for line in self.standings if not line.ranked]

    @property
    def counted_events(self) -> list[Event]:
        return [line.event for line in self.events if line.counted]

    @property
    def events_by_pk(self) -> dict[int, Event]:
        return {line.event.pk: line.event for line in self.events}


def series_ranking(series: Series) -> SeriesRanking:
    """The ranking of ``series`` over its counted events' final rankings."""
    lines = series_event_lines(series)
    results: list[EventResult] = []
    counted: list[SeriesEventLine] = []
    for line in lines:
        if not line.counted:
            counted.append(line)
            continue
        rows = event_final_results(line.event)
        if series.method == PERCENTAGE:
            # (a ranking row always carries its percentage; none would make no average)
            rows = [row for row in rows if row.percentage is not None]
        counted.append(SeriesEventLine(line.event, None, len(rows)))
        results.extend(rows)
    players = Player.objects.select_related("club").in_bulk({row.player_id for row in results})
    names = {pk: player.name_sort_key for pk, player in players.items()}
    standings = series_standings(results, series.formula, [line.event.pk for line in lines], names)
    return SeriesRanking(series, counted, standings, players)

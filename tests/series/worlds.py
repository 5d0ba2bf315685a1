"""Events with final published standings for the series tests, built row by row.

``finished_event`` stores what a recompute publishes for a finished event (a snapshot up to
date with the event's results, ``RankingEntry`` rows) without playing deals, so a test states
each player's place and percentage by hand; the series reads them through
``scoring.selectors`` as it reads a real event's (tests/series/test_views.py also plays one).
"""

from __future__ import annotations

from decimal import Decimal

from clubs.models import Club, Player
from scoring.models import RankingEntry, StandingsSnapshot
from tests.factories import EntrantFactory, EventFactory, TeamFactory
from tournaments.models import Event


def finished_event(
    club: Club,
    rows: list[tuple[Player, int, str]],
    *,
    name: str = "",
    status: str = Event.Status.FINISHED,
    public: bool = True,
    behind: bool = False,
    day: int = 1,
) -> Event:
    """An individual event of ``club`` whose published ranking is ``rows`` (player, place,
    percentage); ``behind``: its results changed after the snapshot (a recompute pending)."""
    import datetime as dt

    event = EventFactory(
        club=club,
        name=name or f"Tournoi {day}",
        status=status,
        public=public,
        date=dt.date(2026, 9, day),
        results_version=3,
    )
    StandingsSnapshot.objects.create(event=event, results_version=2 if behind else 3, complete=True)
    for player, place, percentage in rows:
        entrant = EntrantFactory(event=event, player=player)
        RankingEntry.objects.create(
            event=event,
            kind=RankingEntry.Kind.INDIVIDUAL,
            rank=place,
            entrant=entrant,
            percentage=Decimal(percentage),
        )
    return event


def finished_team_event(
    club: Club, teams: list[tuple[list[Player], int, str]], *, day: int = 1
) -> Event:
    """A finished triplette of ``club``: (members, team place, team percentage) per team; each
    member's own individual row is the reverse order (so a test tells which one is read)."""
    import datetime as dt

    event = EventFactory(
        club=club,
        name=f"Triplette {day}",
        status=Event.Status.FINISHED,
        public=True,
        format=Event.Format.TRIPLETTE,
        date=dt.date(2026, 9, day),
    )
    StandingsSnapshot.objects.create(event=event, results_version=0, complete=True)
    count = sum(len(members) for members, _place, _pct in teams)
    individual = count
    for number, (members, place, percentage) in enumerate(teams, start=1):
        team = TeamFactory(event=event, number=number, name=f"Team {number}")
        RankingEntry.objects.create(
            event=event,
            kind=RankingEntry.Kind.TEAM,
            rank=place,
            team=team,
            percentage=Decimal(percentage),
        )
        for player in members:
            entrant = EntrantFactory(event=event, player=player, team=team)
            RankingEntry.objects.create(
                event=event,
                kind=RankingEntry.Kind.INDIVIDUAL,
                rank=individual,
                entrant=entrant,
                percentage=Decimal("50.00"),
            )
            individual -= 1
    return event

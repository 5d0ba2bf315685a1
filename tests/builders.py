"""Builders of whole events for the tests, set up through the services like a director would.

Row-level objects (clubs, players, bare events) come from :mod:`tests.factories`; this module
builds events that are ready to play or already scored:

- ``running_event``: an individual event whose movement is the generator's
  (``tournaments.movements.generate_individual`` through ``services.event_movement_set``),
  players registered, deals generated from a seed, started (or left in draft, or finished).
  With 5 or 7 tables the generator gives the classic line rotation (N stays, S +1, E +2, W +3
  tables per round); tests read seats and deal sets from ``event.schedule``, never assume them.
- ``running_team_event``: a triplette or quadrette event set up the same way;
  ``team_event``: the same, every deal entered, scored and finished.
- ``random_outcome``: a legal random outcome (Garde or above, consistent oudlers and points),
  one the deal's cards allow when given the deal.
- ``enter_round``: a random outcome for every deal of one round at every table.
- ``scored_event``: a running individual event with its first rounds entered and the standings
  recomputed, so pages read a genuine snapshot.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from clubs.models import Club
from clubs.outcomes import prepared_hands
from rules.feasibility import random_table_outcome
from rules.hand_checks import fitting_outcome
from scoring.services import standings_recompute
from tests.factories import ClubFactory, PlayerFactory
from tournaments import services
from tournaments.models import SEATS, Deal, Event, Table
from tournaments.movements import TablePlay

EVENT_DATE = dt.date(2026, 12, 5)


def _started(event: Event, status: str, seed: int) -> Event:
    services.event_deals_generate(event=event, seed=seed)
    event = Event.objects.get(pk=event.pk)
    if status == Event.Status.DRAFT:
        return event
    event = services.event_start(event=event)
    if status == Event.Status.FINISHED:
        event = services.event_finish(event=event)
    return Event.objects.get(pk=event.pk)


def running_event(
    *,
    tables: int = 5,
    rounds: int | None = None,
    deals_per_round: int = 2,
    players: int | None = None,
    seed: int = 0,
    status: str = Event.Status.RUNNING,
    opponent_confirmation: bool = False,
    club: Club | None = None,
    movement: dict[str, Any] | None = None,
) -> Event:
    """A public individual event on ``tables`` tables with the generator's movement.

    ``players`` defaults to 4·tables (fewer adds phantoms); ``movement`` (a generator's
    document) replaces the generated one; ``status`` draft leaves it unstarted (movement and
    deals set), finished finishes it.
    """
    club = club or ClubFactory()
    event = services.event_create(
        club=club,
        name=f"Individual {tables} tables",
        date=EVENT_DATE,
        format=Event.Format.INDIVIDUAL,
        deals_per_round=deals_per_round,
        public=True,
        opponent_confirmation=opponent_confirmation,
    )
    if movement is not None:
        players = sum(1 for entry in movement["entrants"] if not entry["phantom"])
    for _ in range(4 * tables if players is None else players):
        services.entrant_register(event=event, player=PlayerFactory(club=club))
    services.event_movement_set(
        event=event, tables=tables, rounds=rounds, seed=seed, movement=movement
    )
    return _started(event, status, seed)


def random_outcome(rng: random.Random, deal: Deal | None = None) -> dict[str, Any]:
    """A 4-player outcome some real deal produces (``rules.feasibility``); with ``deal``, one
    its cards allow too (``rules.hand_checks.fitting_outcome``)."""
    hands = prepared_hands(deal.cards) if deal is not None else None
    taker = SEATS.index(deal.taker_seat) if deal is not None else 0
    return fitting_outcome(lambda: random_table_outcome(rng), hands, taker)


def enter_round(event: Event, round_number: int, rng: random.Random) -> int:
    """Enter every deal of one round at every table; returns how many results were stored."""
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    stored = 0
    for play in event.schedule.round(round_number).tables:
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
            services.table_result_enter(
                table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal)
            )
            stored += 1
    return stored


def scored_event(
    *, tables: int = 5, deals_per_round: int = 2, rounds_played: int | None = None, seed: int = 7
) -> Event:
    """A running individual event, its first ``rounds_played`` rounds (default all) scored."""
    event = running_event(tables=tables, deals_per_round=deals_per_round)
    rng = random.Random(seed)
    played = event.schedule.round_numbers if rounds_played is None else range(1, rounds_played + 1)
    for round_number in played:
        enter_round(event, round_number, rng)
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def running_team_event(
    *,
    format: str,
    teams: int,
    deals_per_round: int = 1,
    seed: int = 5,
    movement: dict[str, Any] | None = None,
) -> Event:
    """A running triplette or quadrette event: teams of registered players, the generator's
    movement (or ``movement``, bound team by team in slot order), deals generated, started."""
    size = 3 if format == Event.Format.TRIPLETTE else 4
    club = ClubFactory()
    event = services.event_create(club=club, name=f"{format} {teams}", date=EVENT_DATE,
                                  format=format, deals_per_round=deals_per_round,
                                  public=True)  # fmt: skip
    entrants = [
        services.entrant_register(event=event, player=PlayerFactory(club=club))
        for _ in range(teams * size)
    ]
    for index in range(teams):
        services.team_create(event=event, name=f"Team {index + 1}",
                             entrants=entrants[index * size : (index + 1) * size])  # fmt: skip
    services.event_movement_set(event=event, seed=seed, movement=movement)
    return _started(event, Event.Status.RUNNING, seed)


def team_event(*, format: str, teams: int, deals_per_round: int = 1, seed: int = 5) -> Event:
    """A finished team event set up through the services, every deal entered and scored."""
    event = running_team_event(
        format=format, teams=teams, deals_per_round=deals_per_round, seed=seed
    )
    rng = random.Random(seed)
    for round_number in event.schedule.round_numbers:
        enter_round(event, round_number, rng)
    event = services.event_finish(event=Event.objects.get(pk=event.pk))
    standings_recompute(event_id=event.pk)  # the final standings
    return Event.objects.get(pk=event.pk)


GARDE_46 = {"contract": "garde", "oudlers": 2, "points": 46}  # a made Garde, value 60


def first_play(event: Event) -> tuple[Table, Deal, TablePlay]:
    """Table 1, the first deal it plays in round 1, and that play of the movement."""
    table = event.tables.get(number=1)
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    deal = event.deals.filter(deal_set=play.deal_set).order_by("number").first()
    assert deal is not None
    return table, deal, play

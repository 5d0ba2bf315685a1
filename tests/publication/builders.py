"""Scored events for the publication tests: real results through the services, real snapshot.

``scored_event`` builds a running individual event with H5's line-movement builder, enters a
legal random outcome for every deal of the first ``rounds_played`` rounds through
``table_result_submit`` and recomputes the standings, so the pages read a genuine snapshot.
"""

from __future__ import annotations

import random

from scoring.services import standings_recompute
from tests.api.event_builder import build_running_event, random_outcome
from tournaments.models import Deal, Event, Table
from tournaments.services.results import table_result_submit


def enter_round(event: Event, round_number: int, rng: random.Random) -> int:
    """Enter every deal of one round at every table; returns how many results were stored."""
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    deals = list(Deal.objects.filter(event=event))
    stored = 0
    for round_doc in event.movement["schedule"]:
        if round_doc["round"] != round_number:
            continue
        for entry in round_doc["tables"]:
            for deal in deals:
                if deal.deal_set == entry["deal_set"]:
                    table_result_submit(
                        table=tables[entry["table"]], deal=deal, outcome=random_outcome(rng)
                    )
                    stored += 1
    return stored


def scored_event(
    *, tables: int = 5, deals_per_round: int = 2, rounds_played: int | None = None, seed: int = 7
) -> Event:
    event = build_running_event(tables=tables, deals_per_round=deals_per_round)
    rng = random.Random(seed)
    played = tables if rounds_played is None else rounds_played
    for round_number in range(1, played + 1):
        enter_round(event, round_number, rng)
    standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    return event


def team_event(*, format: str, teams: int, deals_per_round: int = 1, seed: int = 5) -> Event:
    """A finished team event set up through the services, every deal entered and scored."""
    import datetime as dt

    from tests.factories import ClubFactory, PlayerFactory
    from tournaments import services as setup

    size = 3 if format == Event.Format.TRIPLETTE else 4
    club = ClubFactory()
    event = setup.event_create(club=club, name=f"{format} {teams}", date=dt.date(2026, 12, 5),
                               format=format, deals_per_round=deals_per_round,
                               public=True)  # fmt: skip
    entrants = [
        setup.entrant_register(event=event, player=PlayerFactory(club=club))
        for _ in range(teams * size)
    ]
    for index in range(teams):
        setup.team_create(event=event, name=f"Team {index + 1}",
                          entrants=entrants[index * size : (index + 1) * size])  # fmt: skip
    setup.event_movement_set(event=event, seed=seed)
    setup.event_deals_generate(event=event, seed=seed)
    event = setup.event_start(event=Event.objects.get(pk=event.pk))
    rng = random.Random(seed)
    rounds = sorted({r["round"] for r in event.movement["schedule"]})
    for round_number in rounds:
        enter_round(event, round_number, rng)
    standings_recompute(event_id=event.pk)
    return setup.event_finish(event=Event.objects.get(pk=event.pk))

"""What a club's instance reads of the competitions: those whose table cards are in use (the
serve command), and what the backup schedule watches (results changed, positions finished)."""

from __future__ import annotations

from django.db.models import Count, Max, Sum

from clubs.models import CompetitionStatus
from freedeal.models import FreeDealResult, FreeDealTournament
from teammatch.models import Cup, RoomResult
from tournaments.models import Event, TableResult, load_schedules


def competitions_with_cards() -> list[str]:
    """The competitions not finished whose table cards (QR codes) may be printed already."""
    names: list[str] = []
    unfinished = {"status__in": [CompetitionStatus.DRAFT, CompetitionStatus.RUNNING]}
    for event in Event.objects.filter(tables__isnull=False, **unfinished).distinct():
        names.append(f"{event.name} ({event.date:%d/%m/%Y})")
    for cup in Cup.objects.filter(matches__rooms__isnull=False, **unfinished).distinct():
        names.append(f"{cup.name} ({cup.date:%d/%m/%Y})")
    for free in FreeDealTournament.objects.filter(tables__isnull=False, **unfinished).distinct():
        names.append(f"{free.name} ({free.date:%d/%m/%Y})")
    return names


def results_fingerprint() -> tuple[object, ...]:
    """What changes whenever a result of any competition is entered, corrected or deleted:
    the events' results versions, and each kind's result count, highest id and latest change
    (four aggregate queries; the backup schedule compares two of them)."""
    events = Event.objects.aggregate(version=Sum("results_version"), count=Count("id"))
    tables = TableResult.objects.aggregate(count=Count("id"), top=Max("id"), at=Max("updated_at"))
    rooms = RoomResult.objects.aggregate(count=Count("id"), top=Max("id"), at=Max("updated"))
    free = FreeDealResult.objects.aggregate(count=Count("id"), top=Max("id"), at=Max("updated_at"))
    return tuple(
        value
        for row in (events, tables, rooms, free)
        for value in (row[key] for key in sorted(row))
    )


def positions_finished() -> set[tuple[int, int]]:
    """The (event, round) pairs of the running events where every table has entered every
    deal of that round (a position finished at every table: the tables move on by themselves,
    nobody closes it)."""
    events = {
        event.pk: event
        for event in Event.objects.filter(status=CompetitionStatus.RUNNING).defer("movement")
    }
    load_schedules(list(events.values()))
    counts = (
        TableResult.objects.filter(event_id__in=list(events))
        .values_list("event_id", "round_number")
        .annotate(entered=Count("id"))
    )
    finished: set[tuple[int, int]] = set()
    for event_id, round_number, entered in counts:
        event = events[event_id]
        expected = event.schedule.playing_count(round_number) * event.deals_per_round
        if expected and entered >= expected:
            finished.add((event_id, round_number))
    return finished

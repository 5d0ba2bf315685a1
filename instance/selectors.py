"""What the serve command reads of the competitions: those whose table cards are in use."""

from __future__ import annotations

from clubs.models import CompetitionStatus
from freedeal.models import FreeDealTournament
from teammatch.models import Cup
from tournaments.models import Event


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

"""The one status machine of every kind of competition (``clubs.services``).

Every kind (duplicate events, team-match cups, free-deal tournaments) moves along
``Competition.TRANSITIONS`` through :func:`clubs.services.competition_status_change`; a refused
change names the kind in its code (``event_not_running``, ``cup_not_draft``...).
"""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction

from clubs.errors import DomainError
from clubs.models import Competition
from clubs.services import competition_lock, competition_require, competition_status_change
from freedeal.models import FreeDealTournament
from teammatch.models import Cup
from tests.factories import ClubFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DRAFT, RUNNING, FINISHED = (
    Competition.Status.DRAFT,
    Competition.Status.RUNNING,
    Competition.Status.FINISHED,
)
KINDS = {
    "event": lambda club: Event.objects.create(
        club=club, name="Individuel", date=datetime.date(2026, 11, 1), format="individual"
    ),
    "cup": lambda club: Cup.objects.create(
        club=club, name="Coupe", date=datetime.date(2026, 11, 2)
    ),
    "free_deal": lambda club: FreeDealTournament.objects.create(
        club=club, name="Donnes libres", date=datetime.date(2026, 11, 3)
    ),
}


def make(kind: str, status: str = DRAFT) -> Competition:
    competition: Competition = KINDS[kind](ClubFactory())
    if status != DRAFT:
        type(competition)._default_manager.filter(pk=competition.pk).update(status=status)
        competition.refresh_from_db()
    return competition


def change(competition: Competition, to: str) -> Competition:
    with transaction.atomic():
        return competition_status_change(competition=competition_lock(competition), to=to)


@pytest.mark.parametrize("kind", KINDS)
def test_start_finish_reopen_along_the_transitions(kind: str) -> None:
    competition = make(kind)
    assert competition.provisional and not competition.running
    assert change(competition, RUNNING).status == RUNNING
    assert type(competition)._default_manager.get(pk=competition.pk).running
    finished = change(competition, FINISHED)
    assert finished.finished and not finished.provisional
    assert change(finished, RUNNING).status == RUNNING


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("status", "to", "code"),
    [
        (RUNNING, RUNNING, "not_draft"),  # started twice
        (FINISHED, FINISHED, "not_running"),  # finished twice
        (DRAFT, FINISHED, "not_running"),  # finished before it started
        (DRAFT, DRAFT, "not_finished"),  # nothing goes back to draft
        (RUNNING, DRAFT, "not_draft"),
    ],
)
def test_a_refused_change_names_the_kind_and_changes_nothing(
    kind: str, status: str, to: str, code: str
) -> None:
    competition = make(kind, status)
    with pytest.raises(DomainError) as refused:
        change(competition, to)
    assert refused.value.code == f"{kind}_{code}"
    assert refused.value.message
    assert type(competition)._default_manager.get(pk=competition.pk).status == status


@pytest.mark.parametrize("kind", KINDS)
def test_require_refuses_any_other_status_with_the_kind_s_code(kind: str) -> None:
    competition = make(kind, RUNNING)
    competition_require(competition, RUNNING)
    for status, code in ((DRAFT, "not_draft"), (FINISHED, "not_finished")):
        with pytest.raises(DomainError) as refused:
            competition_require(competition, status)
        assert refused.value.code == f"{kind}_{code}"


@pytest.mark.django_db(transaction=True)  # no test transaction around it
def test_a_change_outside_a_transaction_is_a_programming_error() -> None:
    competition = make("cup")
    with pytest.raises(RuntimeError):
        competition_status_change(competition=competition, to=RUNNING)
    assert Cup.objects.get(pk=competition.pk).status == DRAFT


def test_an_event_s_change_also_moves_its_updated_at() -> None:
    event = make("event")
    before = event.updated_at
    assert change(event, RUNNING).updated_at > before

"""``clubs.access``: the one rule of who directs and who sees, on every kind of competition.

Every kind (:data:`KINDS`: a duplicate event, a section of a simultaneous, a team-match cup, a
free-deal tournament, a season series), public and private, against every role
(:data:`ROLES`), through every helper: ``directed_by``, ``visible_to``, ``user_directs``,
``directed_or_404``, ``visible_or_404`` and the ``directs`` decorator; then
``clubs_directed_by`` / ``user_directs_a_club`` per role.

The rule: the organisers of the competition's club direct it, and a superuser; a section is
also directed by the organisers of its simultaneous's club; everybody sees a public
competition, a private one only its directors. Each case also holds a private competition of
the same kind of another club (the decoy) that only that club's organisers (and a superuser,
and for a section the simultaneous's club) direct and see, so that a query letting more
through fails.

Cups and free-deal tournaments are created with ``Model.objects.create`` (their factories are
being added elsewhere); events and series come from ``tests.factories``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.test import RequestFactory

from clubs.access import (
    clubs_directed_by,
    directed_by,
    directed_or_404,
    directs,
    user_directs,
    user_directs_a_club,
    visible_or_404,
    visible_to,
)
from clubs.models import Club
from freedeal.models import FreeDealTournament
from series.models import Series
from teammatch.models import Cup
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, SeriesFactory, UserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 10, 3)


def _event(club: Club, public: bool, world: World) -> Event:
    return EventFactory(club=club, public=public)


def _section(club: Club, public: bool, world: World) -> Event:
    """A section of ``club`` in a public simultaneous of the simultaneous's club."""
    simultaneous = EventFactory(club=world.federation, public=True, name="Simultané")
    return EventFactory(club=club, public=public, simultaneous=simultaneous)


def _cup(club: Club, public: bool, world: World) -> Cup:
    return Cup.objects.create(club=club, name=f"Coupe {club.name}", date=DAY, public=public)


def _free_deal(club: Club, public: bool, world: World) -> FreeDealTournament:
    return FreeDealTournament.objects.create(
        club=club, name=f"Donnes libres {club.name}", date=DAY, public=public
    )


def _series(club: Club, public: bool, world: World) -> Series:
    return SeriesFactory(club=club, public=public)


#: kind -> (model, builder of a row of a club, public or not)
KINDS: dict[str, tuple[type[Any], Callable[[Club, bool, World], Any]]] = {
    "event": (Event, _event),
    "section": (Event, _section),
    "cup": (Cup, _cup),
    "free_deal": (FreeDealTournament, _free_deal),
    "series": (Series, _series),
}

ROLES = (
    "anonymous",
    "plain_user",  # signed in, organises no club
    "own_organiser",  # an organiser of the competition's club
    "other_organiser",  # an organiser of another club (the decoy's)
    "federation_organiser",  # an organiser of the simultaneous's club (directs its sections)
    "superuser",
)


@dataclass
class World:
    own: Club
    other: Club
    federation: Club
    users: dict[str, Any]


@pytest.fixture
def world() -> World:
    own = ClubFactory(name="Tarot Lyon")
    other = ClubFactory(name="Tarot Vienne")
    federation = ClubFactory(name="Comité du Rhône")
    users = {
        "anonymous": AnonymousUser(),
        "plain_user": UserFactory(),
        "own_organiser": OrganiserFactory(clubs=[own]),
        "other_organiser": OrganiserFactory(clubs=[other]),
        "federation_organiser": OrganiserFactory(clubs=[federation]),
        "superuser": UserFactory(is_superuser=True, is_staff=True),
    }
    return World(own, other, federation, users)


def expected_directs(kind: str, role: str, club: str = "own") -> bool:
    """The rule, written out: who directs a competition of the ``own`` (or ``other``) club."""
    if role in (f"{club}_organiser", "superuser"):
        return True
    return kind == "section" and role == "federation_organiser"


def _request(user: Any) -> HttpRequest:
    request = RequestFactory().get("/")
    request.user = user
    return request


CASES = [
    pytest.param(kind, role, public, id=f"{kind}-{role}-{'public' if public else 'private'}")
    for kind in KINDS
    for role in ROLES
    for public in (True, False)
]


@pytest.mark.parametrize(("kind", "role", "public"), CASES)
def test_who_directs_and_who_sees_every_kind(
    world: World, kind: str, role: str, public: bool
) -> None:
    model, build = KINDS[kind]
    row = build(world.own, public, world)
    decoy = build(world.other, False, world)  # private, of the other organiser's club
    user = world.users[role]
    directs_row = expected_directs(kind, role)
    sees_row = public or directs_row
    directs_decoy = expected_directs(kind, role, "other")
    pair = [row.pk, decoy.pk]

    directed = set(directed_by(user, model).filter(pk__in=pair).values_list("pk", flat=True))
    visible = set(visible_to(user, model).filter(pk__in=pair).values_list("pk", flat=True))
    assert directed == {pk for pk, ok in ((row.pk, directs_row), (decoy.pk, directs_decoy)) if ok}
    assert visible == {pk for pk, ok in ((row.pk, sees_row), (decoy.pk, directs_decoy)) if ok}
    assert user_directs(user, row) is directs_row
    assert user_directs(user, decoy) is directs_decoy

    request = _request(user)
    if directs_row:
        assert directed_or_404(request, model, row.pk) == row
    else:
        with pytest.raises(Http404):
            directed_or_404(request, model, row.pk)
    if sees_row:
        assert visible_or_404(request, model, row.pk) == row
    else:
        with pytest.raises(Http404):
            visible_or_404(request, model, row.pk)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("role", ROLES)
def test_the_directs_decorator_hands_the_view_its_competition_or_404(
    world: World, kind: str, role: str
) -> None:
    model, build = KINDS[kind]
    row = build(world.own, True, world)  # public: seeing is not directing
    seen: list[Any] = []

    @directs(model)
    def view(request: HttpRequest, competition: Any, extra: str = "") -> HttpResponse:
        seen.append((competition, extra))
        return HttpResponse("ok")

    request = _request(world.users[role])
    if expected_directs(kind, role):
        assert view(request, pk=row.pk, extra="x").status_code == 200
        assert seen == [(row, "x")]
    else:
        with pytest.raises(Http404):
            view(request, pk=row.pk)
        assert seen == []


@pytest.mark.parametrize("kind", KINDS)
def test_an_unknown_pk_is_a_404_even_for_a_superuser(world: World, kind: str) -> None:
    model, build = KINDS[kind]
    row = build(world.own, True, world)
    request = _request(world.users["superuser"])
    for helper in (directed_or_404, visible_or_404):
        with pytest.raises(Http404):
            helper(request, model, row.pk + 1000)


@pytest.mark.parametrize("kind", KINDS)
def test_no_user_at_all_sees_the_public_ones_and_directs_none(world: World, kind: str) -> None:
    """``None`` (a task, a command: no request) reads like an anonymous visitor."""
    model, build = KINDS[kind]
    public, private = build(world.own, True, world), build(world.own, False, world)
    pair = [public.pk, private.pk]
    assert list(visible_to(None, model).filter(pk__in=pair).values_list("pk", flat=True)) == [
        public.pk
    ]
    assert not directed_by(None, model).filter(pk__in=pair).exists()
    assert not user_directs(None, public)


def test_a_section_is_directed_by_its_simultaneous_club_but_not_the_other_way_round(
    world: World,
) -> None:
    section = _section(world.own, False, world)
    simultaneous = section.simultaneous
    assert simultaneous is not None
    simultaneous.public = False
    simultaneous.save(update_fields=["public"])
    federation, own = world.users["federation_organiser"], world.users["own_organiser"]
    assert user_directs(federation, section) and user_directs(federation, simultaneous)
    assert user_directs(own, section) and not user_directs(own, simultaneous)
    assert set(directed_by(own, Event)) == {section}
    assert set(directed_by(federation, Event)) == {section, simultaneous}
    assert set(visible_to(own, Event)) == {section}


@pytest.mark.parametrize(
    ("role", "clubs"),
    [
        ("anonymous", set()),
        ("plain_user", set()),
        ("own_organiser", {"Tarot Lyon"}),
        ("other_organiser", {"Tarot Vienne"}),
        ("federation_organiser", {"Comité du Rhône"}),
        ("superuser", {"Tarot Lyon", "Tarot Vienne", "Comité du Rhône"}),
    ],
)
def test_the_clubs_a_user_directs(world: World, role: str, clubs: set[str]) -> None:
    user = world.users[role]
    assert {club.name for club in clubs_directed_by(user)} == clubs
    assert user_directs_a_club(user) is bool(clubs)


def test_no_user_directs_no_club() -> None:
    ClubFactory()
    assert not clubs_directed_by(None).exists()
    assert not user_directs_a_club(None)


def test_an_organiser_of_two_clubs_directs_both_and_only_them(world: World) -> None:
    both = OrganiserFactory(clubs=[world.own, world.other])
    assert set(clubs_directed_by(both)) == {world.own, world.other}
    for kind, (model, build) in KINDS.items():
        rows = [build(club, False, world) for club in (world.own, world.other, world.federation)]
        if kind == "section":  # their simultaneous is the federation's: not directed by both
            rows = rows[:2]
        directed = set(directed_by(both, model).filter(pk__in=[r.pk for r in rows]))
        assert directed == set(rows[:2]), kind

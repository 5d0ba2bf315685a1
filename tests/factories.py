"""Shared factory_boy factories for the Django models (any test may import and extend them).

Conventions: every factory builds a valid row with the fewest related rows possible;
``OrganiserFactory`` makes a user who organises the club given (``clubs=[club]``) or a new one;
``EventFactory`` makes a draft individual event with 4 deals per round; ``SeriesFactory`` a
private club series ranked by points (10, 8, 6, 5, 4, 3, 2, 1), and ``SeriesEventFactory`` one
of its events (written row by row: ``series.services`` judges what an organiser adds);
``FreeDealTournamentFactory`` a draft public free-deal tournament (``players=N`` registers N new
players of its club through the services), ``RunningFreeDealFactory`` one of 4 players started
(its seating drawn and its tables created by ``freedeal.services.free_deal_start``);
``CupFactory`` a draft team-match cup (2 deals per quarter, fixed seeds), ``CupTeamFactory`` a
team of it seeded after the others with a roster of 4 new players of the cup's club
(``players=[...]`` gives them), ``CupMatchFactory`` a waiting match of two new teams
(``teammatch.services.cup_start`` builds real brackets, deals and rooms).
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from factory.django import DjangoModelFactory

from clubs.models import Club, Membership, Player
from freedeal.models import FreeDealPlayer, FreeDealTournament
from series.models import Series, SeriesEvent
from teammatch.models import Cup, CupMatch, CupTeam, CupTeamPlayer
from tournaments.models import SEATS, Deal, Entrant, Event, Table, Team
from tournaments.movements import deal_set_of

DEFAULT_PASSWORD = "tarot-pass-123"


@functools.cache
def _default_password_hash() -> str:
    return make_password(DEFAULT_PASSWORD)


class ClubFactory(DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Club {n}")
    city = "Lyon"


class UserFactory(DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    # Hashing is slow on purpose; every user shares one hash of DEFAULT_PASSWORD.
    password = factory.LazyFunction(lambda: _default_password_hash())


class OrganiserFactory(UserFactory):
    """A user who organises ``clubs`` (a new club when none is given)."""

    username = factory.Sequence(lambda n: f"organiser{n}")

    @factory.post_generation
    def clubs(obj: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create:
            return
        for club in extracted if extracted is not None else [ClubFactory()]:
            club.organisers.add(obj)


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player
        skip_postgeneration_save = True

    first_name = factory.Sequence(lambda n: f"Prénom{n}")
    last_name = factory.Sequence(lambda n: f"Nom{n}")
    licence = factory.Sequence(lambda n: f"L{n:07d}")
    club = factory.SubFactory(ClubFactory)
    series = "3"

    @factory.post_generation
    def register(obj: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        """The player is on his home club's register, active (``register=False``: on none)."""
        if create and obj.club_id is not None and extracted is not False:
            Membership.objects.get_or_create(club_id=obj.club_id, player=obj)


class EventFactory(DjangoModelFactory):
    class Meta:
        model = Event

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Tournoi {n}")
    date = factory.LazyFunction(lambda: dt.date(2026, 12, 5))
    format = Event.Format.INDIVIDUAL
    deals_per_round = 4


class TeamFactory(DjangoModelFactory):
    class Meta:
        model = Team

    event = factory.SubFactory(EventFactory, format=Event.Format.TRIPLETTE)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.LazyAttribute(lambda t: f"Team {t.number}")


class EntrantFactory(DjangoModelFactory):
    """A registered player (slot = next free slot of the event)."""

    class Meta:
        model = Entrant

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    slot = factory.LazyAttribute(
        lambda e: (
            (
                Entrant.objects.filter(event=e.event)
                .order_by("-slot")
                .values_list("slot", flat=True)
                .first()
                or 0
            )
            + 1
        )
    )


class DealFactory(DjangoModelFactory):
    """A deal without cards; dealer and taker follow the services' rotation convention."""

    class Meta:
        model = Deal

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    deal_set = factory.LazyAttribute(lambda d: deal_set_of(d.number, d.event.deals_per_round))
    dealer_seat = factory.LazyAttribute(lambda d: SEATS[(d.number - 1) % 4])
    taker_seat = factory.LazyAttribute(lambda d: SEATS[d.number % 4])


class TableFactory(DjangoModelFactory):
    class Meta:
        model = Table

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeriesFactory(DjangoModelFactory):
    class Meta:
        model = Series

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Challenge {n}")
    season = "2026-2027"
    method = Series.Method.POINTS
    points_table = factory.LazyFunction(lambda: [10, 8, 6, 5, 4, 3, 2, 1])


class SeriesEventFactory(DjangoModelFactory):
    """An event of the series' club in the series."""

    class Meta:
        model = SeriesEvent

    series = factory.SubFactory(SeriesFactory)
    event = factory.SubFactory(EventFactory, club=factory.SelfAttribute("..series.club"))


def _free_deal_register(obj: FreeDealTournament, create: bool, count: int | None) -> None:
    from freedeal.services import free_deal_player_register

    if not create or not count:
        return
    for _ in range(int(count)):
        free_deal_player_register(tournament=obj, player=PlayerFactory(club=obj.club))


def _free_deal_start(obj: FreeDealTournament, create: bool, start: bool | None) -> None:
    from freedeal.services import free_deal_start

    if create and start:
        free_deal_start(tournament=obj)
        obj.refresh_from_db()


class FreeDealTournamentFactory(DjangoModelFactory):
    """A draft public free-deal tournament: 5 parties of 4 deals, FFT rules, seed 7.

    ``players=N``: N new players of its club registered (numbers 1..N); ``start=True``: then
    started (seating, tables)."""

    class Meta:
        model = FreeDealTournament
        skip_postgeneration_save = True

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Donnes libres {n}")
    date = factory.LazyFunction(lambda: dt.date(2026, 11, 23))
    public = True
    parties = 5
    deals_per_party = 4
    seed = 7

    @factory.post_generation
    def players(obj: FreeDealTournament, create: bool, extracted: Any, **kwargs: Any) -> None:
        _free_deal_register(obj, create, extracted)

    @factory.post_generation
    def start(obj: FreeDealTournament, create: bool, extracted: Any, **kwargs: Any) -> None:
        _free_deal_start(obj, create, extracted)


class RunningFreeDealFactory(FreeDealTournamentFactory):
    """A started free-deal tournament: 4 players (one table) unless ``players`` says more."""

    @factory.post_generation
    def players(obj: FreeDealTournament, create: bool, extracted: Any, **kwargs: Any) -> None:
        _free_deal_register(obj, create, 4 if extracted is None else extracted)

    @factory.post_generation
    def start(obj: FreeDealTournament, create: bool, extracted: Any, **kwargs: Any) -> None:
        _free_deal_start(obj, create, True if extracted is None else extracted)


class FreeDealPlayerFactory(DjangoModelFactory):
    """A registered player of a draft tournament (the next number)."""

    class Meta:
        model = FreeDealPlayer

    tournament = factory.SubFactory(FreeDealTournamentFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..tournament.club"))
    number = factory.LazyAttribute(lambda e: e.tournament.players.count() + 1)


class CupFactory(DjangoModelFactory):
    """A draft team-match cup: 2 deals per quarter, fixed deal and tie-break seeds."""

    class Meta:
        model = Cup

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Coupe {n}")
    date = factory.LazyFunction(lambda: dt.date(2026, 11, 21))
    deals_per_quarter = 2
    deal_seed = 11
    tie_break_seed = 7


class CupTeamFactory(DjangoModelFactory):
    """A team of a cup, seeded after the others, with a roster of 4 new players of the cup's
    club (``players=[...]`` gives the roster, ``players__count=n`` its size)."""

    class Meta:
        model = CupTeam
        skip_postgeneration_save = True

    cup = factory.SubFactory(CupFactory)
    seed = factory.LazyAttribute(lambda t: CupTeam.objects.filter(cup=t.cup).count() + 1)
    name = factory.LazyAttribute(lambda t: f"Team {t.seed}")

    @factory.post_generation
    def players(obj: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create:
            return
        players = extracted
        if players is None:
            players = [PlayerFactory(club=obj.cup.club) for _ in range(kwargs.get("count", 4))]
        CupTeamPlayer.objects.bulk_create(
            CupTeamPlayer(cup=obj.cup, team=obj, player=player) for player in players
        )


class CupMatchFactory(DjangoModelFactory):
    """A match of a cup's first round between two new teams, waiting (no deals, no rooms)."""

    class Meta:
        model = CupMatch

    cup = factory.SubFactory(CupFactory)
    round = 1
    slot = factory.Sequence(lambda n: n)
    team_a = factory.SubFactory(CupTeamFactory, cup=factory.SelfAttribute("..cup"))
    team_b = factory.SubFactory(CupTeamFactory, cup=factory.SelfAttribute("..cup"))

"""Series reads: the events an organiser may add, an event of a series, the event lines and
each event's final results as the ranking reads them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring.models import RankingEntry
from series import selectors, services
from series.selectors import (
    NOT_FINISHED,
    NOT_PUBLIC,
    UPDATING,
    event_final_results,
    series_event_lines,
    series_ranking,
)
from tests.factories import (
    ClubFactory,
    EntrantFactory,
    EventFactory,
    OrganiserFactory,
    PlayerFactory,
    SeriesEventFactory,
    SeriesFactory,
    UserFactory,
)
from tests.series.worlds import finished_event, finished_team_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    own, other = ClubFactory(name="Tarot Lyon"), ClubFactory(name="Tarot Vienne")
    return {
        "own": own,
        "other": other,
        "organiser": OrganiserFactory(clubs=[own]),
        "events": {
            "old": EventFactory(club=own, name="Ancien", date=dt.date(2026, 9, 1)),
            "new": EventFactory(club=own, name="Récent", date=dt.date(2026, 11, 1)),
            "private_own": EventFactory(club=own, name="Privé", date=dt.date(2026, 10, 1)),
            "public_other": EventFactory(
                club=other, name="Open", public=True, date=dt.date(2026, 10, 2)
            ),
            "private_other": EventFactory(club=other, name="Secret", date=dt.date(2026, 10, 3)),
        },
    }


def _names(events) -> list[str]:
    return [event.name for event in events]


def test_a_club_series_offers_its_clubs_events_not_in_it_the_latest_first(clubs):
    series = SeriesFactory(club=clubs["own"])
    SeriesEventFactory(series=series, event=clubs["events"]["old"])
    offered = selectors.series_addable_events(series, clubs["organiser"])
    assert _names(offered) == ["Récent", "Privé"]
    assert selectors.series_has_addable_events(series, clubs["organiser"])


def test_a_league_series_offers_every_event_the_organiser_may_see(clubs):
    series = SeriesFactory(club=clubs["own"], league=True)
    offered = selectors.series_addable_events(series, clubs["organiser"])
    assert _names(offered) == ["Récent", "Open", "Privé", "Ancien"]  # not the other's private


def test_the_offer_is_limited_and_loads_the_club(clubs, django_assert_num_queries):
    series = SeriesFactory(club=clubs["own"], league=True)
    with django_assert_num_queries(1):
        offered = list(selectors.series_addable_events(series, clubs["organiser"], limit=2))
        assert [event.club.name for event in offered] == ["Tarot Lyon", "Tarot Vienne"]
    assert _names(offered) == ["Récent", "Open"]


@pytest.mark.parametrize("who", ["anonymous", "plain_user", "other_organiser"])
def test_nobody_but_a_director_is_offered_a_club_series_events(clubs, who):
    series = SeriesFactory(club=clubs["own"])
    user = {
        "anonymous": AnonymousUser(),
        "plain_user": UserFactory(),
        "other_organiser": OrganiserFactory(clubs=[clubs["other"]]),
    }[who]
    assert list(selectors.series_addable_events(series, user)) == []
    assert not selectors.series_has_addable_events(series, user)


def test_a_superuser_is_offered_the_clubs_events_of_a_club_series(clubs):
    series = SeriesFactory(club=clubs["own"])
    superuser = UserFactory(is_superuser=True)
    assert _names(selectors.series_addable_events(series, superuser)) == [
        "Récent",
        "Privé",
        "Ancien",
    ]


def test_nothing_left_to_add(clubs):
    series = SeriesFactory(club=clubs["own"])
    for key in ("old", "new", "private_own"):
        SeriesEventFactory(series=series, event=clubs["events"][key])
    assert not selectors.series_has_addable_events(series, clubs["organiser"])


def test_an_event_of_the_series_is_found_and_no_other(clubs):
    series, other_series = SeriesFactory(club=clubs["own"]), SeriesFactory(club=clubs["own"])
    SeriesEventFactory(series=series, event=clubs["events"]["old"])
    SeriesEventFactory(series=other_series, event=clubs["events"]["new"])
    assert selectors.series_event(series, clubs["events"]["old"].pk) == clubs["events"]["old"]
    assert selectors.series_event(series, clubs["events"]["new"].pk) is None
    assert selectors.series_event(series, 999_999) is None


def test_the_event_lines_say_why_an_event_does_not_count_oldest_first():
    club = ClubFactory()
    player = PlayerFactory(club=club)
    series = SeriesFactory(club=club)
    events = [
        finished_event(club, [(player, 1, "60.00")], name="Recalcul", day=20, behind=True),
        finished_event(club, [(player, 1, "60.00")], name="Compté", day=2),
        finished_event(club, [(player, 1, "60.00")], name="Privé", day=5, public=False),
        finished_event(club, [], name="Brouillon", day=9, status=Event.Status.DRAFT),
    ]
    for event in events:
        SeriesEventFactory(series=series, event=event)
    lines = series_event_lines(series)
    assert [(line.event.name, line.reason, line.counted) for line in lines] == [
        ("Compté", None, True),
        ("Privé", NOT_PUBLIC, False),
        ("Brouillon", NOT_FINISHED, False),
        ("Recalcul", UPDATING, False),
    ]


def test_a_section_waiting_for_its_simultaneous_is_not_counted_yet():
    club = ClubFactory()
    simultaneous = EventFactory(club=club, public=True, status=Event.Status.RUNNING)
    section = finished_event(club, [(PlayerFactory(), 1, "55.00")], name="Section")
    Event.objects.filter(pk=section.pk).update(simultaneous=simultaneous)
    series = SeriesFactory(club=club, league=True)
    SeriesEventFactory(series=series, event=section)
    assert [line.reason for line in series_event_lines(series)] == [UPDATING]


def test_final_results_skip_guests_without_a_player_and_phantoms():
    club = ClubFactory()
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    event = finished_event(club, [(a, 1, "58.00"), (b, 2, "42.00")])
    guest = EntrantFactory(event=event, player=None, phantom=True)
    RankingEntry.objects.create(event=event, kind=RankingEntry.Kind.INDIVIDUAL, rank=3,
                                entrant=guest, percentage=Decimal("40.00"))  # fmt: skip
    results = event_final_results(event)
    assert [(r.player_id, r.place, r.percentage) for r in results] == [
        (a.pk, 1, Decimal("58.00")),
        (b.pk, 2, Decimal("42.00")),
    ]


def test_a_team_events_final_results_give_every_member_the_teams_place():
    club = ClubFactory()
    members = [PlayerFactory(club=club) for _ in range(6)]
    event = finished_team_event(club, [(members[:3], 1, "54.00"), (members[3:], 2, "46.00")])
    results = {r.player_id: (r.place, r.percentage) for r in event_final_results(event)}
    assert results == {
        **{p.pk: (1, Decimal("54.00")) for p in members[:3]},
        **{p.pk: (2, Decimal("46.00")) for p in members[3:]},
    }


def test_an_average_ignores_a_row_without_percentage_and_counts_the_others():
    club = ClubFactory()
    a, b = PlayerFactory(club=club, last_name="Arnaud"), PlayerFactory(club=club, last_name="Bos")
    event = finished_event(club, [(a, 1, "60.00"), (b, 2, "40.00")])
    RankingEntry.objects.filter(event=event, entrant__player=b).update(percentage=None)
    series = services.series_create(club=club, name="Moyenne", method="percentage",
                                    points_table=[])  # fmt: skip
    services.series_event_add(series=series, event=event)
    ranking = series_ranking(series)
    assert [(s.player_id, s.score) for s in ranking.standings] == [(a.pk, Decimal("60.00"))]
    assert [line.players for line in ranking.events] == [1]


def test_the_ranking_splits_ranked_and_unranked_and_knows_its_events():
    club = ClubFactory()
    a, b = PlayerFactory(club=club, last_name="Arnaud"), PlayerFactory(club=club, last_name="Bos")
    first = finished_event(club, [(a, 1, "60.00"), (b, 2, "40.00")], day=1)
    second = finished_event(club, [(a, 2, "45.00")], day=8)
    running = finished_event(club, [(b, 1, "70.00")], day=9, status=Event.Status.RUNNING)
    series = services.series_create(club=club, name="Saison", points_table=[10, 5],
                                    min_events=2)  # fmt: skip
    for event in (first, second, running):
        services.series_event_add(series=series, event=event)
    ranking = series_ranking(series)
    assert [(s.player_id, s.place, int(s.score)) for s in ranking.ranked] == [(a.pk, 1, 15)]
    assert [(s.player_id, s.place, int(s.score)) for s in ranking.unranked] == [(b.pk, None, 5)]
    assert ranking.counted_events == [first, second]
    assert set(ranking.events_by_pk) == {first.pk, second.pk, running.pk}
    assert set(ranking.players) == {a.pk, b.pk}


def test_the_ranking_reads_a_bounded_number_of_queries(django_assert_max_num_queries):
    """A query or two per counted event, never one per player."""
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(12)]
    series = services.series_create(club=club, name="Saison")
    for day in (1, 8, 15):
        rows = [(p, i + 1, f"{60 - i}.00") for i, p in enumerate(players)]
        services.series_event_add(series=series, event=finished_event(club, rows, day=day))
    with django_assert_max_num_queries(14):
        ranking = series_ranking(series)
    assert len(ranking.standings) == 12

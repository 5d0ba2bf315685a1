"""Series services: the formula checks and the events a series takes, with their messages."""

from __future__ import annotations

import pytest

from clubs.errors import DomainError
from series import services
from series.models import Series, SeriesEvent
from tests.factories import ClubFactory, EventFactory

pytestmark = pytest.mark.django_db

FORMULA = {"method": "points", "points_table": [10, 8, 6], "points_default": 1,
           "best_n": None, "min_events": 1}  # fmt: skip


def refusal(**changes) -> DomainError:
    with pytest.raises(DomainError) as caught:
        services.series_create(club=ClubFactory(), **{"name": "Saison", **FORMULA, **changes})
    assert not Series.objects.exists()
    return caught.value


def test_a_series_is_created_with_its_formula():
    series = services.series_create(club=ClubFactory(), name=" Challenge ", season="2026-2027",
                                    **FORMULA)  # fmt: skip
    series.refresh_from_db()
    assert series.name == "Challenge"
    assert series.formula.points_table == (10, 8, 6)
    assert series.formula.points_for(5) == 1


@pytest.mark.parametrize(
    ("changes", "code", "field", "message"),
    [
        ({"points_table": []}, "points_table_empty", "points_table",
         "the points table is empty: give at least the points of the 1st place"),
        ({"points_table": [10, -2]}, "points_negative", "points_table",
         "place 2: -2 is not a whole number of points of 0 or more"),
        ({"points_table": [5, 8]}, "points_increasing", "points_table",
         "place 2 earns more points than place 1"),
        ({"points_default": -1}, "points_negative", "points_default",
         "beyond the table: -1 is not a whole number of points of 0 or more"),
        ({"points_default": 7}, "points_increasing", "points_default",
         "the places beyond the table earn more points than place 3"),
        ({"best_n": 0}, "best_n_too_small", "best_n",
         "count at least 1 result, or leave the best results blank to count them all"),
        ({"min_events": 0}, "min_events_too_small", "min_events",
         "the minimum attendance is at least 1 event"),
        ({"method": "goals"}, "method_unknown", "method",
         "goals is not a ranking method: choose points per place or average percentage"),
        ({"name": "  "}, "name_missing", "name", "give the series a name"),
    ],
)  # fmt: skip
def test_bad_formula_data_is_refused_with_a_clear_message(changes, code, field, message):
    error = refusal(**changes)
    assert (error.code, error.field, error.message) == (code, field, message)


def test_an_average_percentage_series_needs_no_points_table():
    series = services.series_create(
        club=ClubFactory(), name="Moyenne", **{**FORMULA, "method": "percentage",
                                               "points_table": []}
    )  # fmt: skip
    assert series.method == "percentage"


def test_a_club_series_takes_only_its_clubs_events_once():
    club = ClubFactory(name="Tarot Lyon")
    series = services.series_create(club=club, name="Saison", **FORMULA)
    own = EventFactory(club=club, name="Mardi")
    services.series_event_add(series=series, event=own)
    with pytest.raises(DomainError) as twice:
        services.series_event_add(series=series, event=own)
    assert (twice.value.code, twice.value.message) == (
        "event_in_series",
        "Mardi is already in this series",
    )
    other = EventFactory(club=ClubFactory(name="Tarot Vienne"), name="Open de Vienne")
    with pytest.raises(DomainError) as foreign:
        services.series_event_add(series=series, event=other)
    assert foreign.value.code == "event_other_club"
    assert foreign.value.message == (
        "Open de Vienne is an event of Tarot Vienne: this series counts only events of Tarot Lyon"
    )
    assert list(series.events.all()) == [own]


def test_a_league_series_takes_other_clubs_events_and_cannot_turn_club_only_then():
    club = ClubFactory()
    series = services.series_create(club=club, name="Comité", league=True, **FORMULA)
    other = EventFactory(club=ClubFactory(name="Tarot Vienne"), name="Open de Vienne")
    services.series_event_add(series=series, event=other)
    with pytest.raises(DomainError) as caught:
        services.series_update(series=series, league=False)
    assert caught.value.code == "event_other_club"
    assert caught.value.field == "league"
    series.refresh_from_db()
    assert series.league


def test_a_simultaneous_and_one_of_its_sections_never_both():
    club = ClubFactory()
    series = services.series_create(club=club, name="Comité", league=True, **FORMULA)
    simultaneous = EventFactory(club=club, name="Simultané")
    section = EventFactory(club=ClubFactory(), name="Section Bron", simultaneous=simultaneous)
    services.series_event_add(series=series, event=section)
    with pytest.raises(DomainError) as caught:
        services.series_event_add(series=series, event=simultaneous)
    assert caught.value.code == "event_same_simultaneous"
    assert "Simultané and Section Bron" in caught.value.message


def test_update_checks_the_formula_and_writes_nothing_when_refused():
    series = services.series_create(club=ClubFactory(), name="Saison", **FORMULA)
    with pytest.raises(DomainError):
        services.series_update(series=series, best_n=0, name="Autre")
    series.refresh_from_db()
    assert (series.name, series.best_n) == ("Saison", None)
    services.series_update(series=series, best_n=4, method="percentage")
    series.refresh_from_db()
    assert (series.best_n, series.method) == (4, "percentage")


def test_remove_an_event_and_delete_a_series_keep_the_events():
    club = ClubFactory()
    series = services.series_create(club=club, name="Saison", **FORMULA)
    event = EventFactory(club=club)
    services.series_event_add(series=series, event=event)
    services.series_event_remove(series=series, event=event)
    assert not SeriesEvent.objects.exists()
    with pytest.raises(DomainError) as caught:
        services.series_event_remove(series=series, event=event)
    assert caught.value.code == "event_not_in_series"
    services.series_event_add(series=series, event=event)
    services.series_delete(series=series)
    assert not Series.objects.exists()
    event.refresh_from_db()

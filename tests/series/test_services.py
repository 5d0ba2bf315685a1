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


# ------------------------------------------------------------------- every refusal, its code


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"points_table": list(range(501, 0, -1))}, "points_table_too_long", "points_table"),
        ({"points_table": [10, 2.5]}, "points_negative", "points_table"),
        ({"points_table": [10, True]}, "points_negative", "points_table"),
        ({"points_default": 0.5}, "points_negative", "points_default"),
        ({"best_n": -3}, "best_n_too_small", "best_n"),
        ({"best_n": "2"}, "best_n_too_small", "best_n"),
        ({"min_events": None}, "min_events_too_small", "min_events"),
        ({"min_events": False}, "min_events_too_small", "min_events"),
        ({"name": ""}, "name_missing", "name"),
    ],
)
def test_more_bad_data_is_refused_on_its_field_and_nothing_is_created(changes, code, field):
    error = refusal(**changes)
    assert (error.code, error.field) == (code, field)


def test_the_points_table_of_500_places_is_the_longest_taken():
    table = list(range(500, 0, -1))
    series = services.series_create(club=ClubFactory(), name="Open", **{**FORMULA,
                                    "points_table": table, "points_default": 0})  # fmt: skip
    assert len(series.points_table) == 500
    with pytest.raises(DomainError) as caught:
        services.series_update(series=series, points_table=[*table, 0])
    assert caught.value.message == "the points table lists 501 places, more than 500"
    series.refresh_from_db()
    assert len(series.points_table) == 500


def test_equal_points_for_neighbouring_places_and_beyond_the_table_are_allowed():
    series = services.series_create(club=ClubFactory(), name="Plat", **{**FORMULA,
                                    "points_table": [5, 5, 2], "points_default": 2})  # fmt: skip
    assert series.formula.points_for(2) == 5 and series.formula.points_for(9) == 2


def test_an_average_percentage_series_ignores_a_bad_points_table():
    """Only the points method reads the table: a percentage series is not refused for it."""
    series = services.series_create(club=ClubFactory(), name="Moyenne", **{**FORMULA,
                                    "method": "percentage", "points_table": [1, 9],
                                    "points_default": 50})  # fmt: skip
    assert series.method == "percentage"


def test_the_formula_check_is_the_admins_too():
    with pytest.raises(DomainError) as caught:
        services.series_formula_check(method="points", points_table=[3, 4], points_default=0,
                                      best_n=None, min_events=1)  # fmt: skip
    assert caught.value.code == "points_increasing"
    services.series_formula_check(method="percentage", points_table=[], points_default=0,
                                  best_n=2, min_events=3)  # fmt: skip


def test_a_series_takes_keyword_arguments_only_and_knows_its_fields():
    club = ClubFactory()
    with pytest.raises(TypeError):
        services.series_create(club, "Saison")  # type: ignore[misc]
    series = services.series_create(club=club, name="Saison")
    assert (series.method, series.points_table, series.min_events) == (
        "points",
        [10, 8, 6, 5, 4, 3, 2, 1],
        1,
    )
    with pytest.raises(TypeError):
        services.series_update(series=series, colour="red")  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"points_table": [1, 2]}, "points_increasing"),
        ({"points_default": -1}, "points_negative"),
        ({"best_n": 0}, "best_n_too_small"),
        ({"min_events": 0}, "min_events_too_small"),
        ({"method": "goals"}, "method_unknown"),
        ({"name": " "}, "name_missing"),
    ],
)
def test_an_update_refused_changes_nothing(changes, code):
    series = services.series_create(club=ClubFactory(), name="Saison", public=True, **FORMULA)
    with pytest.raises(DomainError) as caught:
        services.series_update(series=series, season="2027", **changes)
    assert caught.value.code == code
    series.refresh_from_db()
    assert (series.name, series.season, series.points_table, series.best_n) == (
        "Saison",
        "",
        [10, 8, 6],
        None,
    )


def test_an_update_changes_only_the_fields_given():
    series = services.series_create(club=ClubFactory(), name="Saison", season="2026",
                                    **FORMULA)  # fmt: skip
    services.series_update(series=series, public=True, name=" Challenge ")
    series.refresh_from_db()
    assert (series.name, series.season, series.public, series.points_table) == (
        "Challenge",
        "2026",
        True,
        [10, 8, 6],
    )


def test_a_league_series_without_other_clubs_events_may_turn_club_only():
    club = ClubFactory()
    series = services.series_create(club=club, name="Comité", league=True, **FORMULA)
    services.series_event_add(series=series, event=EventFactory(club=club))
    services.series_update(series=series, league=False)
    series.refresh_from_db()
    assert not series.league


def test_turning_club_only_names_the_other_clubs_event():
    series = services.series_create(club=ClubFactory(), name="Comité", league=True, **FORMULA)
    services.series_event_add(
        series=series, event=EventFactory(club=ClubFactory(name="Tarot Vienne"), name="Open")
    )
    with pytest.raises(DomainError) as caught:
        services.series_update(series=series, league=False)
    assert caught.value.message == (
        "Open is an event of Tarot Vienne: remove it first, or let events of other clubs count"
    )


def test_a_section_cannot_join_a_series_holding_its_simultaneous():
    club = ClubFactory()
    series = services.series_create(club=club, name="Comité", league=True, **FORMULA)
    simultaneous = EventFactory(club=club, name="Simultané")
    section = EventFactory(club=club, name="Section Lyon", simultaneous=simultaneous)
    services.series_event_add(series=series, event=simultaneous)
    with pytest.raises(DomainError) as caught:
        services.series_event_add(series=series, event=section)
    assert (caught.value.code, caught.value.field) == ("event_same_simultaneous", "event")
    assert caught.value.message == (
        "Section Lyon and Simultané belong to the same simultaneous: add one of them only"
    )
    assert list(series.events.all()) == [simultaneous]


def test_two_sections_of_one_simultaneous_may_both_count():
    """Their players differ (each section seats its own club's): nobody counts twice."""
    club = ClubFactory()
    series = services.series_create(club=club, name="Comité", league=True, **FORMULA)
    simultaneous = EventFactory(club=club)
    first = EventFactory(club=club, simultaneous=simultaneous)
    second = EventFactory(club=ClubFactory(), simultaneous=simultaneous)
    services.series_event_add(series=series, event=first)
    services.series_event_add(series=series, event=second)
    assert set(series.events.all()) == {first, second}


def test_an_event_added_meanwhile_by_another_request_is_refused(monkeypatch):
    """The unique constraint decides a race: the loser gets the same refusal as a repeat."""
    from django.db import IntegrityError

    club = ClubFactory()
    series = services.series_create(club=club, name="Saison", **FORMULA)
    event = EventFactory(club=club, name="Mardi")

    def raced(**kwargs):
        raise IntegrityError("unique_series_event")

    monkeypatch.setattr(SeriesEvent.objects, "create", raced)
    with pytest.raises(DomainError) as caught:
        services.series_event_add(series=series, event=event)
    assert (caught.value.code, caught.value.message) == (
        "event_in_series",
        "Mardi is already in this series",
    )


def test_removing_an_event_of_another_series_is_refused_and_keeps_it():
    club = ClubFactory()
    first = services.series_create(club=club, name="Saison", **FORMULA)
    second = services.series_create(club=club, name="Coupe", **FORMULA)
    event = EventFactory(club=club, name="Mardi")
    services.series_event_add(series=first, event=event)
    with pytest.raises(DomainError) as caught:
        services.series_event_remove(series=second, event=event)
    assert (caught.value.code, caught.value.field, caught.value.message) == (
        "event_not_in_series",
        "event",
        "Mardi is not in this series",
    )
    assert list(first.events.all()) == [event]


def test_deleting_a_series_keeps_its_events_and_the_other_series():
    club = ClubFactory()
    doomed = services.series_create(club=club, name="Saison", **FORMULA)
    kept = services.series_create(club=club, name="Coupe", **FORMULA)
    event = EventFactory(club=club)
    for series in (doomed, kept):
        services.series_event_add(series=series, event=event)
    services.series_delete(series=doomed)
    assert list(Series.objects.all()) == [kept]
    assert list(SeriesEvent.objects.values_list("series_id", "event_id")) == [(kept.pk, event.pk)]

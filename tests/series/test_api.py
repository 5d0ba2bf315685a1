"""``GET /api/v1/series/<id>/ranking/``: the series ranking as the public page shows it."""

from __future__ import annotations

import pytest
from django.test import Client

from series import services
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tests.series.worlds import finished_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def series():
    club = ClubFactory(name="Tarot Lyon")
    a = PlayerFactory(club=club, last_name="Arnaud", first_name="Anne")
    b = PlayerFactory(club=club, last_name="Bernard", first_name="Bob")
    e1 = finished_event(club, [(a, 1, "61.00"), (b, 2, "39.00")], day=1)
    e2 = finished_event(club, [(b, 1, "57.00"), (a, 2, "43.00")], day=8)
    running = finished_event(club, [(b, 1, "80.00")], day=9, status=Event.Status.RUNNING)
    series = services.series_create(club=club, name="Moyenne", season="2026", public=True,
                                     method="percentage", points_table=[], points_default=0,
                                     best_n=None, min_events=1)  # fmt: skip
    for event in (e1, e2, running):
        services.series_event_add(series=series, event=event)
    return series


def test_the_api_gives_the_ranking_and_the_events(series):
    response = Client().get(f"/api/v1/series/{series.pk}/ranking/")
    assert response.status_code == 200
    data = response.json()
    assert (data["name"], data["season"], data["club"]) == ("Moyenne", "2026", "Tarot Lyon")
    assert data["formula"] == {"method": "percentage", "points_table": [], "points_default": 0,
                               "best_n": None, "min_events": 1}  # fmt: skip
    assert [(e["counted"], e["not_counted_because"]) for e in data["events"]] == [
        (True, None),
        (True, None),
        (False, "not_finished"),
    ]
    # Arnaud (61 + 43) / 2 = 52.00, Bernard (39 + 57) / 2 = 48.00; the running 80 % is not read
    assert [(row["place"], row["name"], row["score"]) for row in data["ranking"]] == [
        (1, "ARNAUD Anne", "52.00"),
        (2, "BERNARD Bob", "48.00"),
    ]
    first = data["ranking"][0]
    assert (first["events_played"], first["results_counted"], first["club"]) == (
        2,
        2,
        "Tarot Lyon",
    )
    assert [(r["place"], r["percentage"], r["counted"]) for r in first["results"]] == [
        (1, "61.00", True),
        (2, "43.00", True),
    ]


def test_a_private_or_unknown_series_is_a_404_but_for_its_organisers(series):
    services.series_update(series=series, public=False)
    url = f"/api/v1/series/{series.pk}/ranking/"
    assert Client().get(url).status_code == 404
    other = Client()
    other.force_login(OrganiserFactory())
    assert other.get(url).status_code == 404
    own = Client()
    own.force_login(OrganiserFactory(clubs=[series.club]))
    assert own.get(url).status_code == 200
    assert Client().get("/api/v1/series/999999/ranking/").status_code == 404
    assert Client().post(url).status_code in (403, 405)


def test_the_endpoint_is_in_the_schema_and_the_api_root(series):
    schema = Client().get("/api/schema/?format=json").json()
    assert "/api/v1/series/{series_id}/ranking/" in schema["paths"]
    root = Client().get("/api/v1/").json()
    assert root["endpoints"]["series_ranking"].endswith("/api/v1/series/{id}/ranking/")

"""Every page and endpoint of series against every role, on a public and a private series.

Roles: ``anonymous``; ``plain_user`` (signed in, organises no club); ``own_organiser`` (an
organiser of the series' club: he directs it); ``other_organiser`` (an organiser of another
club); ``superuser`` (directs everything). The rule (``clubs.access``): everybody sees a public
series, its directors only a private one (404 for the others, never 403); the organiser screens
need a login (else the login page), then a director (else 404, even for a public series).
Each write is checked in the database too: done for a director, nothing changed otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from series.models import Series, SeriesEvent
from tests.factories import (
    ClubFactory,
    EventFactory,
    OrganiserFactory,
    SeriesEventFactory,
    SeriesFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "plain_user", "own_organiser", "other_organiser", "superuser")
DIRECTORS = {"own_organiser", "superuser"}
VISIBILITY = (True, False)


@pytest.fixture
def world() -> dict[str, Any]:
    club = ClubFactory(name="Tarot Lyon")
    other = ClubFactory(name="Tarot Vienne")
    entry = SeriesEventFactory(series=SeriesFactory(club=club, name="Challenge"))
    return {
        "club": club,
        "series": entry.series,
        "in_series": entry.event,
        "addable": EventFactory(club=club, name="Mardi"),
        "users": {
            "anonymous": None,
            "plain_user": UserFactory(),
            "own_organiser": OrganiserFactory(clubs=[club]),
            "other_organiser": OrganiserFactory(clubs=[other]),
            "superuser": UserFactory(is_superuser=True, is_staff=True),
        },
    }


def _client(world: dict[str, Any], role: str) -> Client:
    client = Client()
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    return client


def _series(world: dict[str, Any], public: bool) -> Series:
    series: Series = world["series"]
    Series.objects.filter(pk=series.pk).update(public=public)
    series.refresh_from_db()
    return series


def _cases() -> list[Any]:
    return [
        pytest.param(role, public, id=f"{role}-{'public' if public else 'private'}")
        for role in ROLES
        for public in VISIBILITY
    ]


# --------------------------------------------------------------------------------- public


@pytest.mark.parametrize(("role", "public"), _cases())
@pytest.mark.parametrize(
    "path",
    [
        "/en/series/{pk}/",
        "/en/series/{pk}/export/ranking.csv",
        "/en/series/{pk}/export/ranking.xlsx",
        "/api/v1/series/{pk}/ranking/",
    ],
)
def test_the_ranking_its_exports_and_the_api_follow_the_visibility_rule(
    world: dict[str, Any], role: str, public: bool, path: str
) -> None:
    series = _series(world, public)
    response = _client(world, role).get(path.format(pk=series.pk))
    assert response.status_code == (200 if public or role in DIRECTORS else 404)


@pytest.mark.parametrize(("role", "public"), _cases())
def test_the_index_lists_what_the_visitor_may_see(
    world: dict[str, Any], role: str, public: bool
) -> None:
    series = _series(world, public)
    response = _client(world, role).get("/en/series/")
    assert response.status_code == 200
    listed = f'href="/en/series/{series.pk}/"' in response.content.decode()
    assert listed is (public or role in DIRECTORS)


@pytest.mark.parametrize(
    "path",
    [
        "/en/series/",
        "/en/series/{pk}/",
        "/en/series/{pk}/export/ranking.csv",
    ],
)
def test_the_public_pages_take_no_post(world: dict[str, Any], path: str) -> None:
    series = _series(world, True)
    assert _client(world, "own_organiser").post(path.format(pk=series.pk)).status_code == 405


def test_the_api_takes_no_write(world: dict[str, Any]) -> None:
    series = _series(world, True)
    client = _client(world, "own_organiser")
    url = f"/api/v1/series/{series.pk}/ranking/"
    assert client.post(url, {}).status_code == 405
    assert client.delete(url).status_code == 405


@pytest.mark.parametrize("role", ROLES)
def test_an_unknown_series_is_a_404_for_everybody(world: dict[str, Any], role: str) -> None:
    client = _client(world, role)
    unknown = world["series"].pk + 1000
    assert client.get(f"/en/series/{unknown}/").status_code == 404
    assert client.get(f"/api/v1/series/{unknown}/ranking/").status_code == 404
    if role != "anonymous":
        assert client.get(f"/en/organiser/series/{unknown}/").status_code == 404


# ------------------------------------------------------------------------------ organiser


def _login_redirect(response: Any) -> bool:
    return response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("public", VISIBILITY)
@pytest.mark.parametrize("role", ROLES)
def test_the_organiser_list_needs_a_login_and_lists_the_series_directed(
    world: dict[str, Any], role: str, public: bool
) -> None:
    series = _series(world, public)
    response = _client(world, role).get("/en/organiser/series/")
    if role == "anonymous":
        assert _login_redirect(response)
        return
    assert response.status_code == 200
    html = response.content.decode()
    assert (f'href="/en/organiser/series/{series.pk}/"' in html) is (role in DIRECTORS)
    # the "create" button only for a user who organises a club
    assert ('href="/en/organiser/series/new/"' in html) is (role != "plain_user")


@pytest.mark.parametrize(("role", "public"), _cases())
def test_the_edit_page_is_for_the_directors_only(
    world: dict[str, Any], role: str, public: bool
) -> None:
    series = _series(world, public)
    response = _client(world, role).get(f"/en/organiser/series/{series.pk}/")
    if role == "anonymous":
        assert _login_redirect(response)
    else:
        assert response.status_code == (200 if role in DIRECTORS else 404)


@pytest.mark.parametrize(("role", "public"), _cases())
def test_only_a_director_changes_the_series(world: dict[str, Any], role: str, public: bool) -> None:
    series = _series(world, public)
    form = {"name": "Renamed", "season": "", "method": "points", "points_table": "5, 3, 1",
            "points_default": "0", "best_n": "", "min_events": "1",
            "public": "on" if public else ""}  # fmt: skip
    response = _client(world, role).post(f"/en/organiser/series/{series.pk}/", form)
    series.refresh_from_db()
    if role == "anonymous":
        assert _login_redirect(response)
    elif role in DIRECTORS:
        assert response.status_code == 302
        assert (series.name, series.points_table) == ("Renamed", [5, 3, 1])
        return
    else:
        assert response.status_code == 404
    assert series.name == "Challenge"


@pytest.mark.parametrize(("role", "public"), _cases())
def test_only_a_director_adds_an_event(world: dict[str, Any], role: str, public: bool) -> None:
    series = _series(world, public)
    addable = world["addable"]
    response = _client(world, role).post(
        f"/en/organiser/series/{series.pk}/events/add/", {"event": addable.pk}
    )
    added = SeriesEvent.objects.filter(series=series, event=addable).exists()
    if role == "anonymous":
        assert _login_redirect(response)
    else:
        assert response.status_code == (302 if role in DIRECTORS else 404)
    assert added is (role in DIRECTORS)


@pytest.mark.parametrize(("role", "public"), _cases())
def test_only_a_director_removes_an_event(world: dict[str, Any], role: str, public: bool) -> None:
    series = _series(world, public)
    event = world["in_series"]
    response = _client(world, role).post(
        f"/en/organiser/series/{series.pk}/events/{event.pk}/remove/"
    )
    kept = SeriesEvent.objects.filter(series=series, event=event).exists()
    if role == "anonymous":
        assert _login_redirect(response)
    else:
        assert response.status_code == (302 if role in DIRECTORS else 404)
    assert kept is (role not in DIRECTORS)


@pytest.mark.parametrize(("role", "public"), _cases())
def test_only_a_director_deletes_the_series(world: dict[str, Any], role: str, public: bool) -> None:
    series = _series(world, public)
    response = _client(world, role).post(f"/en/organiser/series/{series.pk}/delete/")
    if role == "anonymous":
        assert _login_redirect(response)
    else:
        assert response.status_code == (302 if role in DIRECTORS else 404)
    assert Series.objects.filter(pk=series.pk).exists() is (role not in DIRECTORS)


@pytest.mark.parametrize(
    "path",
    [
        "/en/organiser/series/{pk}/events/add/",
        "/en/organiser/series/{pk}/events/{event}/remove/",
        "/en/organiser/series/{pk}/delete/",
    ],
)
def test_the_organiser_writes_take_no_get(world: dict[str, Any], path: str) -> None:
    series = world["series"]
    url = path.format(pk=series.pk, event=world["in_series"].pk)
    assert _client(world, "own_organiser").get(url).status_code == 405
    assert Series.objects.filter(pk=series.pk).exists()


@pytest.mark.parametrize(
    ("role", "status", "created"),
    [
        ("anonymous", 302, False),  # to the login page
        ("plain_user", 400, False),  # he organises no club: none to choose
        ("other_organiser", 400, False),  # not his club
        ("own_organiser", 302, True),
        ("superuser", 302, True),
    ],
)
def test_a_series_is_created_only_for_a_club_the_user_organises(
    world: dict[str, Any], role: str, status: int, created: bool
) -> None:
    form = {"name": "Nouvelle", "season": "", "club": world["club"].pk, "method": "points",
            "points_table": "3, 2, 1", "points_default": "0", "best_n": "",
            "min_events": "1"}  # fmt: skip
    client = _client(world, role)
    page = client.get("/en/organiser/series/new/")
    assert page.status_code == (302 if role == "anonymous" else 200)
    response = client.post("/en/organiser/series/new/", form)
    assert response.status_code == status
    assert Series.objects.filter(name="Nouvelle").exists() is created
    if role == "plain_user":
        assert "You organise no club: you cannot create a series." in response.content.decode()

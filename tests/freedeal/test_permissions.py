"""Who may open every free-deal page and endpoint: a public and a private tournament, each seen
by an anonymous visitor, a signed-in user who organises nothing, an organiser of another club,
an organiser of the tournament's club and a superuser.

A private tournament one may not see is a 404 (never a 403 telling it exists); the organiser's
screens send an anonymous visitor to the login page; the API publishes public tournaments only;
the table phone's page and API answer whoever has the table's code (the code is the
credential)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from freedeal.models import FreeDealTournament
from tests.factories import OrganiserFactory, RunningFreeDealFactory, UserFactory

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "no_club", "other_organiser", "organiser", "superuser")


@dataclass(frozen=True)
class Page:
    name: str
    method: str = "GET"
    kwargs: tuple[str, ...] = ("pk",)
    data: Any = None


# URL name -> (page, letters for a public tournament, letters for a private one), one letter
# per role of ROLES: A allowed (2xx), V let through but refused (400), D not found (404),
# L the login page.
PAGES = {
    "index": (Page("freedeal:index", kwargs=()), "AAAAA", "AAAAA"),
    "ranking": (Page("freedeal:ranking"), "AAAAA", "DDDAA"),
    "seating": (Page("freedeal:seating"), "AAAAA", "DDDAA"),
    "player": (Page("freedeal:player", kwargs=("pk", "number")), "AAAAA", "DDDAA"),
    "api_ranking": (Page("api:free_deal_ranking"), "AAAAA", "DDDAA"),
    "organiser_list": (Page("freedeal:organiser_list", kwargs=()), "LAAAA", "LAAAA"),
    "organiser_create": (Page("freedeal:organiser_create", kwargs=()), "LDAAA", "LDAAA"),
    "organiser_detail": (Page("freedeal:organiser_detail"), "LDDAA", "LDDAA"),
    "organiser_correct": (
        Page("freedeal:organiser_correct", kwargs=("pk", "party", "table", "deal")),
        "LDDAA",
        "LDDAA",
    ),
    "organiser_correct_post": (
        Page("freedeal:organiser_correct", "POST", ("pk", "party", "table", "deal"), {}),
        "LDDVV",
        "LDDVV",
    ),
    "organiser_finish": (
        Page("freedeal:organiser_action", "POST", ("pk", "action")),
        "LDDVV",
        "LDDVV",
    ),
    "table": (Page("freedeal:table", kwargs=("code",)), "AAAAA", "AAAAA"),
    "table_preview": (
        Page("freedeal:table_preview", "POST", ("code", "deal"), {"d1-contract": "passed"}),
        "AAAAA",
        "AAAAA",
    ),
    "api_table": (Page("api:free_deal_table", kwargs=("code",)), "AAAAA", "AAAAA"),
}


@dataclass
class World:
    tournaments: dict[str, FreeDealTournament]
    clients: dict[str, Client]


@pytest.fixture
def world() -> World:
    public = RunningFreeDealFactory(public=True)
    private = RunningFreeDealFactory(public=False, club=public.club)
    users = {
        "no_club": UserFactory(),
        "other_organiser": OrganiserFactory(),
        "organiser": OrganiserFactory(clubs=[public.club]),
        "superuser": UserFactory(is_staff=True, is_superuser=True),
    }
    clients = {"anonymous": Client()}
    for role, user in users.items():
        clients[role] = Client()
        clients[role].force_login(user)
    return World({"public": public, "private": private}, clients)


def letter(response: Any) -> str:
    status = response.status_code
    if status == 302:
        return "L" if "/login/" in response["Location"] else "A"
    if status == 404:
        return "D"
    if status == 400:
        return "V"
    if status < 300:
        return "A"
    return f"?{status}"


def url_of(page: Page, tournament: FreeDealTournament) -> str:
    values = {
        "pk": tournament.pk,
        "number": 1,
        "party": 1,
        "table": 1,
        "deal": 1,
        "action": "finish",
        "code": tournament.tables.get().code,
    }
    return reverse(page.name, kwargs={name: values[name] for name in page.kwargs})


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("visibility", ["public", "private"])
@pytest.mark.parametrize("key", sorted(PAGES))
def test_every_page_and_endpoint_for_every_role(world, key, visibility, role) -> None:
    page, public_letters, private_letters = PAGES[key]
    letters = public_letters if visibility == "public" else private_letters
    tournament = world.tournaments[visibility]
    client = world.clients[role]
    url = url_of(page, tournament)
    response = client.post(url, page.data or {}) if page.method == "POST" else client.get(url)
    assert letter(response) == letters[ROLES.index(role)], (url, response.status_code)
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.closed_parties == 0  # nothing written


@pytest.mark.parametrize("role", ROLES)
def test_the_index_lists_a_private_tournament_to_its_directors_only(world, role) -> None:
    body = world.clients[role].get(reverse("freedeal:index")).content.decode()
    shown = f'href="{reverse("freedeal:ranking", args=[world.tournaments["private"].pk])}"'
    assert (shown in body) == (role in ("organiser", "superuser"))
    assert f'href="{reverse("freedeal:ranking", args=[world.tournaments["public"].pk])}"' in body


@pytest.mark.parametrize("role", ROLES)
def test_the_organiser_list_shows_the_directed_tournaments_only(world, role) -> None:
    response = world.clients[role].get(reverse("freedeal:organiser_list"))
    if role == "anonymous":
        assert response.status_code == 302
        return
    listed = {t.pk for t in response.context["tournaments"]}
    expected = {t.pk for t in world.tournaments.values()}
    assert listed == (expected if role in ("organiser", "superuser") else set())

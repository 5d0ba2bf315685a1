"""Who may open what, on every cup page and endpoint: anonymous visitors, a signed-in user who
organises no club, the cup club's organiser, an organiser of another club and a superuser, on
a public and on a private cup.

- Public pages and the bracket API: a public cup for everybody; a private one for its
  directors only (404 for the others, never 403: a cup one may not see is not told to exist);
  the bracket API shows public cups only.
- Organiser screens: the login page first; then 404 for a cup one does not direct, 403 for the
  lists of a user who organises no club.
- Room phones (pages and API): the room's code is the credential, whatever the session; an
  unknown code is a 404 for everybody.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from teammatch.models import Cup
from tests.factories import OrganiserFactory, UserFactory
from tests.teammatch.worlds import running_match

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "user", "organiser", "other_organiser", "superuser")


@pytest.fixture(params=["public", "private"])
def world(request: Any) -> dict[str, Any]:
    running = running_match(public=request.param == "public")
    users = {
        "anonymous": None,
        "user": UserFactory(),
        "organiser": running.organiser,
        "other_organiser": OrganiserFactory(),
        "superuser": UserFactory(is_superuser=True, is_staff=True),
    }
    return {"running": running, "users": users, "public": request.param == "public"}


def client_of(world: dict[str, Any], role: str) -> Client:
    client = Client()
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    return client


def paths(world: dict[str, Any]) -> dict[str, str]:
    running = world["running"]
    cup, match = running.cup, running.match
    team = match.team_a
    base = f"/en/organiser/cups/{cup.pk}"
    return {
        "index": "/en/cups/",
        "bracket": f"/en/cups/{cup.pk}/",
        "match": f"/en/cups/{cup.pk}/matches/{match.pk}/",
        "api_bracket": f"/api/v1/cups/{cup.pk}/bracket/",
        "organiser_list": "/en/organiser/cups/",
        "organiser_create": "/en/organiser/cups/new/",
        "organiser_cup": f"{base}/",
        "organiser_team": f"{base}/teams/{team.pk}/",
        "organiser_match": f"{base}/matches/{match.pk}/",
        "organiser_result": f"{base}/matches/{match.pk}/deals/1/open/",
        "organiser_start": f"{base}/start/",
        "organiser_finish_cup": f"{base}/finish/",
        "organiser_lineup": f"{base}/matches/{match.pk}/lineup/1/",
        "organiser_close_quarter": f"{base}/matches/{match.pk}/quarters/1/close/",
        "organiser_finish_match": f"{base}/matches/{match.pk}/finish/",
    }


def expected_public(page: str, role: str, public: bool) -> int:
    if page == "index":
        return 200
    return 200 if public or role in ("organiser", "superuser") else 404


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", ["index", "bracket", "match", "api_bracket"])
def test_public_pages(world, page, role):
    answer = client_of(world, role).get(paths(world)[page])
    assert answer.status_code == expected_public(page, role, world["public"])


def test_the_index_lists_a_private_cup_to_its_directors_only(world):
    name = world["running"].cup.name
    for role in ROLES:
        listed = name in client_of(world, role).get("/en/cups/").content.decode()
        assert listed == (world["public"] or role in ("organiser", "superuser")), role


ORGANISER_GETS = {
    # page: answer per role (anonymous, user, organiser, other_organiser, superuser)
    "organiser_list": ("login", 403, 200, 200, 200),
    "organiser_create": ("login", 403, 200, 200, 200),
    "organiser_cup": ("login", 404, 200, 404, 200),
    "organiser_team": ("login", 404, 200, 404, 200),
    "organiser_match": ("login", 404, 200, 404, 200),
    "organiser_result": ("login", 404, 200, 404, 200),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", list(ORGANISER_GETS))
def test_organiser_screens(world, page, role):
    answer = client_of(world, role).get(paths(world)[page])
    want = ORGANISER_GETS[page][ROLES.index(role)]
    if want == "login":
        assert answer.status_code == 302 and "/login/" in answer["Location"]
    else:
        assert answer.status_code == want


def test_another_clubs_list_does_not_show_the_cup(world):
    page = client_of(world, "other_organiser").get("/en/organiser/cups/")
    assert world["running"].cup.name not in page.content.decode()
    mine = client_of(world, "organiser").get("/en/organiser/cups/")
    assert world["running"].cup.name in mine.content.decode()


def test_a_cup_is_created_only_in_a_club_one_organises(world):
    foreign = world["running"].cup.club  # the organiser's club, not the other's
    answer = client_of(world, "other_organiser").post(
        "/en/organiser/cups/new/",
        {"club": foreign.pk, "name": "Intrus", "date": "2026-12-01", "deals_per_quarter": 2,
         "tie_break": "net,last_quarter"},
    )  # fmt: skip
    assert answer.status_code == 400 and not Cup.objects.filter(name="Intrus").exists()


ORGANISER_POSTS = (
    "organiser_cup",
    "organiser_team",
    "organiser_result",
    "organiser_start",
    "organiser_finish_cup",
    "organiser_lineup",
    "organiser_close_quarter",
    "organiser_finish_match",
)


@pytest.mark.parametrize("role", ["anonymous", "user", "other_organiser"])
@pytest.mark.parametrize("page", ORGANISER_POSTS)
def test_organiser_actions_are_refused_to_others_and_change_nothing(world, page, role):
    from tests.teammatch.worlds import stored_state

    running = world["running"]
    before = stored_state(running.match), Cup.objects.get(pk=running.cup.pk).status
    answer = client_of(world, role).post(paths(world)[page], {"reason": "x", "name": "X"})
    if role == "anonymous":
        assert answer.status_code == 302 and "/login/" in answer["Location"]
    else:
        assert answer.status_code == 404
    assert (stored_state(running.match), Cup.objects.get(pk=running.cup.pk).status) == before


ROOM_URLS = (
    ("get", "/en/cups/room/{code}/", 200),
    ("post", "/en/cups/room/{code}/deals/1/", 400),  # an empty form
    ("post", "/en/cups/room/{code}/deals/1/correct/", 400),
    ("post", "/en/cups/room/{code}/deals/1/preview/", 422),
    ("get", "/api/v1/cups/rooms/{code}/", 200),
    ("post", "/api/v1/cups/rooms/{code}/results/", 400),  # an empty body
    ("post", "/api/v1/cups/rooms/{code}/results/correct/", 400),
)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "pattern", "status"), ROOM_URLS)
def test_the_room_code_is_the_credential_whatever_the_session(world, role, method, pattern, status):
    client = client_of(world, role)
    code = world["running"].rooms["open"].code
    assert getattr(client, method)(pattern.format(code=code)).status_code == status
    assert getattr(client, method)(pattern.format(code="UNKNOWN42")).status_code == 404

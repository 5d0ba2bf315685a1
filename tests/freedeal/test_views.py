"""freedeal pages: public and organiser pages, bad input (4xx), the table phone's first entry."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from freedeal import services
from freedeal.models import FreeDealResult, FreeDealTournament
from tests.freedeal.conftest import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def orga_client(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def stranger_client(db) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user("other", password="pw-x-123456"))
    return client


def test_public_pages_of_a_public_tournament(club, players) -> None:
    tournament = make_tournament(club, players, 9)
    client = Client()
    for url in (
        "/en/free-deal/",
        f"/en/free-deal/{tournament.pk}/",
        f"/en/free-deal/{tournament.pk}/seating/",
        f"/en/free-deal/{tournament.pk}/players/3/",
        f"/free-deal/{tournament.pk}/",
    ):
        assert client.get(url).status_code == 200, url
    assert client.get(f"/en/free-deal/{tournament.pk}/players/10/").status_code == 404
    seating = client.get(f"/en/free-deal/{tournament.pk}/seating/").content.decode()
    assert "Party 5" in seating and str(players[0]) in seating
    assert "provisional" in client.get(f"/en/free-deal/{tournament.pk}/").content.decode()


def test_private_tournament_is_hidden(club, players, orga_client, stranger_client) -> None:
    tournament = make_tournament(club, players, 4, public=False)
    for client in (Client(), stranger_client):
        assert client.get(f"/en/free-deal/{tournament.pk}/").status_code == 404
        assert client.get(f"/en/free-deal/{tournament.pk}/seating/").status_code == 404
        assert tournament.name not in client.get("/en/free-deal/").content.decode()
    assert orga_client.get(f"/en/free-deal/{tournament.pk}/").status_code == 200
    assert Client().get(f"/api/v1/free-deal/{tournament.pk}/ranking/").status_code == 404


def test_organiser_pages_need_login_and_rights(club, players, orga_client, stranger_client):
    tournament = make_tournament(club, players, 4, start=False)
    urls = [
        "/en/organiser/free-deal/",
        "/en/organiser/free-deal/new/",
        f"/en/organiser/free-deal/{tournament.pk}/",
    ]
    for url in urls:
        response = Client().get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]
    assert stranger_client.get(urls[2]).status_code == 404
    assert stranger_client.get(urls[1]).status_code == 404
    assert stranger_client.post(urls[2] + "do/start/").status_code == 404
    for url in urls:
        assert orga_client.get(url).status_code == 200
    assert orga_client.get(urls[2] + "do/start/").status_code == 405
    assert orga_client.post(urls[2] + "do/nonsense/").status_code == 404


def test_organiser_creates_registers_starts(club, players, orga_client) -> None:
    response = orga_client.post(
        "/en/organiser/free-deal/new/",
        {"club": club.pk, "name": "Vendredi", "date": "2026-11-27", "rules": "traditional",
         "pousse_multiplier": 3, "flambeuse": "on", "parties": 4, "deals_per_party": 3,
         "tie_break": "shared", "public": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    tournament = FreeDealTournament.objects.get(name="Vendredi")
    assert tournament.ruleset == {
        "name": "traditional",
        "pousse_multiplier": 3,
        "flambeuse": True,
        "version": 2,
    }
    base = f"/en/organiser/free-deal/{tournament.pk}/do/"
    bad = orga_client.post("/en/organiser/free-deal/new/", {"club": club.pk, "name": "",
                                                           "parties": 99})  # fmt: skip
    assert bad.status_code == 400
    assert orga_client.post(base + "start/").status_code == 400  # no players
    for player in players[:4]:
        assert orga_client.post(base + "register/", {"player": player.pk}).status_code == 302
    assert orga_client.post(base + "register/", {"player": players[0].pk}).status_code == 400
    assert orga_client.post(base + "register/", {"player": "x"}).status_code == 400
    response = orga_client.post(
        base + "register_new/", {"first_name": "Léa", "last_name": "Nouvelle"}
    )
    assert response.status_code == 302
    assert orga_client.post(base + "register_new/", {"first_name": ""}).status_code == 400
    assert orga_client.post(base + "unregister/", {"number": "abc"}).status_code == 400
    assert orga_client.post(base + "start/").status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.tables.get().size == 5
    page = orga_client.get(f"/en/organiser/free-deal/{tournament.pk}/").content.decode()
    assert tournament.tables.get().code in page
    assert orga_client.post(base + "finish/").status_code == 400
    response = orga_client.post(base + "close_party/")
    assert response.status_code == 400 and "misses 3 deals" in response.content.decode()
    assert orga_client.post(base + "close_party/", {"confirm": "1"}).status_code == 302


def test_settings_change_name_and_date_and_keep_the_format_once_started(
    club, players, orga_client
) -> None:
    tournament = make_tournament(club, players, 4, start=False)
    url = f"/en/organiser/free-deal/{tournament.pk}/do/settings/"
    fields = {"name": "Lundi soir", "date": "2026-11-30", "rules": "fft", "pousse_multiplier": 2,
              "parties": 3, "deals_per_party": 2, "tie_break": "best_party",
              "public": "on"}  # fmt: skip
    assert orga_client.post(url, fields).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, str(tournament.date), tournament.parties) == (
        "Lundi soir", "2026-11-30", 3
    )  # fmt: skip
    assert orga_client.post(url, {**fields, "name": "  "}).status_code == 400
    services.free_deal_start(tournament=tournament)
    refused = orga_client.post(url, {**fields, "name": "Mardi", "parties": 4})
    assert refused.status_code == 400
    tournament.refresh_from_db()
    assert (tournament.name, tournament.parties) == ("Lundi soir", 3)  # nothing written
    assert orga_client.post(url, {**fields, "name": "Mardi"}).status_code == 302
    assert FreeDealTournament.objects.get(pk=tournament.pk).name == "Mardi"


def test_table_phone_entry_and_refusals(club, players) -> None:
    tournament = make_tournament(club, players, 5)
    table = tournament.tables.get()
    s = tournament.table_players(1, 1)
    phone = Client()
    url = f"/en/free-deal/table/{table.code}/"
    page = phone.get(url).content.decode()
    assert "Called King held by" in page and "Everybody passed" in page
    assert phone.get("/en/free-deal/table/NOPE/").status_code == 404
    missing_partner = {"d1-contract": "garde", "d1-taker": s[0], "d1-oudlers": "2",
                       "d1-points": "50"}  # fmt: skip
    response = phone.post(url + "deal/1/", missing_partner)
    assert response.status_code == 400 and "called King" in response.content.decode()
    response = phone.post(url + "deal/1/", {**missing_partner, "d1-partner": s[1],
                                           "d1-points": "abc"})  # fmt: skip
    assert response.status_code == 400 and "expected a number" in response.content.decode()
    response = phone.post(url + "deal/1/", {**missing_partner, "d1-taker": "99",
                                           "d1-partner": s[1]})  # fmt: skip
    assert response.status_code == 400
    assert phone.post(url + "deal/9/", missing_partner).status_code == 400
    assert phone.get(url + "deal/1/").status_code == 405
    assert not FreeDealResult.objects.exists()
    response = phone.post(url + "deal/1/", {**missing_partner, "d1-partner": s[1]})
    assert response.status_code == 302
    assert FreeDealResult.objects.get().marks[str(s[1])] == 68
    page = phone.get(url).content.decode()
    assert "Correct this entry" in page
    services.free_deal_party_close(tournament=tournament, confirm=True)
    response = phone.post(url + "deal/2/", {**missing_partner, "d1-partner": s[1]})
    assert response.status_code == 400


def test_director_correction_page(club, players, orga_client, stranger_client) -> None:
    tournament = make_tournament(club, players, 4)
    s = tournament.table_players(1, 1)
    url = f"/en/organiser/free-deal/{tournament.pk}/correct/1/1/2/"
    assert stranger_client.get(url).status_code == 404
    assert orga_client.get(url).status_code == 200
    assert (
        orga_client.get(f"/en/organiser/free-deal/{tournament.pk}/correct/2/1/1/").status_code
        == 404
    )
    assert (
        orga_client.get(f"/en/organiser/free-deal/{tournament.pk}/correct/1/7/1/").status_code
        == 404
    )
    data = {"contract": "garde_sans", "taker": s[1], "oudlers": "1", "points": "48"}
    assert orga_client.post(url, data).status_code == 400  # no reason
    assert orga_client.post(url, {**data, "reason": "forgotten"}).status_code == 302
    result = FreeDealResult.objects.get()
    assert result.value == -112 and result.history.get().reason == "forgotten"

"""Cup pages: access (public, private, organiser of another club), bad input as 4xx, the
publication rule on public pages and the API, and the room phone's entry and correction."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from teammatch import selectors, services
from teammatch.models import Cup, CupMatch, MatchDeal, MatchRoom, RoomResult
from tests.factories import OrganiserFactory, UserFactory
from tests.teammatch.worlds import (
    club_with_players,
    cup_with_teams,
    feasible,
    members,
    seats_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    """A public two-team cup in play: quarter 1's line-up set, one deal in the open room only
    and one deal in both rooms."""
    club, players, organiser = club_with_players(8)
    cup, _teams = cup_with_teams(club, players, (4, 4), deals_per_quarter=3, public=True)
    services.cup_start(cup=cup)
    match = CupMatch.objects.get(cup=cup)
    services.match_lineup_set(
        match=match, quarter=1, seats=seats_for(match, members(match.team_a), members(match.team_b))
    )
    rooms = {r.room: r for r in MatchRoom.objects.filter(match=match)}
    deal1, deal2 = MatchDeal.objects.filter(match=match).order_by("number")[:2]
    for room in ("open", "closed"):
        services.room_result_enter(
            room=rooms[room],
            deal_number=1,
            outcome=feasible(deal1, "garde", 60 if room == "open" else 40),
        )
    services.room_result_enter(
        room=rooms["open"], deal_number=2, outcome=feasible(deal2, "garde", 70)
    )
    return cup, match, rooms, organiser


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_public_pages_apply_the_publication_rule(running):
    cup, match, _rooms, organiser = running
    page = Client().get(f"/en/cups/{cup.pk}/matches/{match.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "PM on 1 of 12 deals" in text
    sheet = page.context["sheet"]
    deal2 = sheet.quarters[0].deals[1]
    assert deal2.open is None and deal2.closed is None  # one room only: not shown
    # the organiser sees the open room's entry of deal 2
    mine = login(organiser).get(f"/en/cups/{cup.pk}/matches/{match.pk}/")
    assert mine.context["sheet"].quarters[0].deals[1].open is not None
    bracket = Client().get(f"/en/cups/{cup.pk}/")
    assert bracket.status_code == 200 and "PM on 1 of 12 deals" in bracket.content.decode()
    assert 'hx-trigger="every 15s"' in bracket.content.decode()
    assert Client().get("/en/cups/").status_code == 200


def test_private_cup_is_hidden(running):
    cup, match, _rooms, organiser = running
    Cup.objects.filter(pk=cup.pk).update(public=False)
    assert Client().get(f"/en/cups/{cup.pk}/").status_code == 404
    assert Client().get(f"/en/cups/{cup.pk}/matches/{match.pk}/").status_code == 404
    assert login(organiser).get(f"/en/cups/{cup.pk}/").status_code == 200
    url = reverse("api:cup_bracket", args=[cup.pk])
    assert Client().get(url).status_code == 404


def test_api_bracket_counts_deals_played_in_both_rooms(running):
    cup, match, _rooms, _organiser = running
    data = Client().get(reverse("api:cup_bracket", args=[cup.pk])).json()
    assert data["name"] == cup.name
    (row,) = data["matches"]
    assert row["status"] == "playing" and row["deals_counted"] == 1 and row["deals_total"] == 12
    expected = selectors.match_sheet(match, directs=False).pm_a
    assert row["pm_a"] == expected and row["quarters"][0]["deals_counted"] == 1
    assert Client().get(reverse("api:cup_bracket", args=[99999])).status_code == 404


def test_organiser_pages_need_the_club(running):
    cup, match, _rooms, organiser = running
    urls = [
        reverse("teammatch:organiser_cup", args=[cup.pk]),
        reverse("teammatch:organiser_match", args=[cup.pk, match.pk]),
        reverse("teammatch:organiser_result", args=[cup.pk, match.pk, 1, "open"]),
    ]
    for url in urls:
        assert Client().get(url).status_code == 302  # to the login page
        assert login(OrganiserFactory()).get(url).status_code == 404  # another club
        assert login(organiser).get(url).status_code == 200
    assert login(UserFactory()).get(reverse("teammatch:organiser_list")).status_code == 403
    assert login(organiser).get(reverse("teammatch:organiser_list")).status_code == 200
    assert login(organiser).get(reverse("teammatch:organiser_create")).status_code == 200


def test_room_phone_enters_and_corrects(running):
    _cup, match, rooms, _organiser = running
    code = rooms["closed"].code
    page = Client().get(f"/en/cups/room/{code}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Closed room" in text and str(members(match.team_b)[0]) in text
    deal2 = MatchDeal.objects.get(match=match, number=2)
    data = feasible(deal2, "garde_sans", 50)
    post = {
        "d2-contract": data["contract"],
        "d2-oudlers": data["oudlers"],
        "d2-points": data["points"],
    }
    saved = Client().post(f"/en/cups/room/{code}/deals/2/", post)
    assert saved.status_code == 302
    result = RoomResult.objects.get(deal=deal2, room="closed")
    assert result.contract == data["contract"]
    # a correction before the quarter closes: the link opens the deal's form, filled in
    assert 'id="correct-2"' in Client().get(f"/en/cups/room/{code}/").content.decode()
    form = Client().get(f"/en/cups/room/{code}/?correct=2").content.decode()
    assert (
        f'action="/en/cups/room/{code}/deals/2/correct/#deal-2"' in form
        and f'value="{data["points"]}"' in form
    )
    assert Client().get(f"/cups/room/{code}/").status_code == 200  # French, the default
    post["d2-points"] = data["points"] + 5
    # another outcome posted as an entry is a conflict: nothing changes
    assert Client().post(f"/en/cups/room/{code}/deals/2/", post).status_code == 409
    assert RoomResult.objects.get(pk=result.pk).points == data["points"]
    # the correction is its own action
    assert Client().post(f"/en/cups/room/{code}/deals/2/correct/", post).status_code == 302
    result.refresh_from_db()
    assert result.points == data["points"] + 5
    assert [c.action for c in result.history.order_by("pk")] == ["create", "correct"]
    # bad input: a 4xx with the message, nothing stored changes
    bad = Client().post(
        f"/en/cups/room/{code}/deals/3/", {"d3-contract": "prise", "d3-oudlers": 1, "d3-points": 50}
    )
    assert bad.status_code == 400
    bad = Client().post(
        f"/en/cups/room/{code}/deals/3/", {"d3-contract": "garde", "d3-oudlers": 1, "d3-points": 95}
    )
    assert bad.status_code == 400 and "errorlist" in bad.content.decode()
    assert not RoomResult.objects.filter(deal__number=3).exists()
    # a deal of a later quarter is refused
    later = Client().post(
        f"/en/cups/room/{code}/deals/4/", {"d4-contract": "garde", "d4-oudlers": 1, "d4-points": 60}
    )
    assert later.status_code == 409 and "not in quarter 1" in later.content.decode()
    assert Client().post(f"/en/cups/room/{code}/deals/99/", post).status_code == 404
    assert Client().get("/en/cups/room/NOPE/").status_code == 404


def test_organiser_lineup_refusal_is_shown(running):
    cup, match, _rooms, organiser = running
    a, b = members(match.team_a), members(match.team_b)
    seats = seats_for(match, a, b)
    seats["open_taker"] = b[0]
    post = {f"q2-{name}": player.pk for name, player in seats.items()}
    page = login(organiser).post(f"/en/organiser/cups/{cup.pk}/matches/{match.pk}/lineup/2/", post)
    assert page.status_code == 400
    assert "cannot take a taker seat of team Team 1 in the open room" in page.content.decode()
    assert (
        login(organiser)
        .post(f"/en/organiser/cups/{cup.pk}/matches/{match.pk}/lineup/9/", post)
        .status_code
        == 404
    )


def test_director_correction_needs_a_reason(running):
    cup, match, _rooms, organiser = running
    deal2 = MatchDeal.objects.get(match=match, number=2)
    data = feasible(deal2, "garde", 45)
    url = f"/en/organiser/cups/{cup.pk}/matches/{match.pk}/deals/2/closed/"
    post = {"contract": data["contract"], "oudlers": data["oudlers"], "points": data["points"]}
    assert login(organiser).post(url, post).status_code == 400
    assert login(organiser).post(url, {**post, "reason": "slip sheet"}).status_code == 302
    change = RoomResult.objects.get(deal=deal2, room="closed").history.get()
    assert change.reason == "slip sheet" and change.actor == organiser


def test_organiser_creates_a_cup_and_adds_teams():
    club, players, organiser = club_with_players(8)
    client = login(organiser)
    bad = client.post(
        "/en/organiser/cups/new/",
        {
            "club": club.pk,
            "name": "",
            "date": "2026-12-01",
            "deals_per_quarter": 6,
            "tie_break": "net,last_quarter",
        },
    )
    assert bad.status_code == 400
    made = client.post(
        "/en/organiser/cups/new/",
        {
            "club": club.pk,
            "name": "Interclubs",
            "date": "2026-12-01",
            "deals_per_quarter": 4,
            "tie_break": "last_quarter,net",
            "pm_scale": "10, 30, 60",
        },
    )
    assert made.status_code == 302
    cup = Cup.objects.get(name="Interclubs")
    assert cup.pm_scale == [10, 30, 60] and cup.tie_break == "last_quarter,net"
    url = f"/en/organiser/cups/{cup.pk}/"
    too_few = client.post(url, {"name": "A", "players": [p.pk for p in players[:3]]})
    assert too_few.status_code == 400 and "a team has 4 to 6 players" in too_few.content.decode()
    assert (
        client.post(url, {"name": "A", "players": [p.pk for p in players[:4]]}).status_code == 302
    )
    shared = client.post(url, {"name": "B", "players": [p.pk for p in players[3:7]]})
    assert shared.status_code == 400 and "is in both teams" in shared.content.decode()
    assert (
        client.post(url, {"name": "B", "players": [p.pk for p in players[4:8]]}).status_code == 302
    )
    assert client.post(f"{url}start/").status_code == 302
    assert CupMatch.objects.get(cup=cup).status == CupMatch.Status.PLAYING
    page = client.get(
        reverse("teammatch:organiser_match", args=[cup.pk, CupMatch.objects.get(cup=cup).pk])
    )
    assert page.status_code == 200 and "/cups/room/" in page.content.decode()


def test_the_bracket_reads_a_fixed_number_of_rows_whatever_the_matches() -> None:
    """The bracket page and API read every match's sheet in one go: 2 or 8 teams (1 or 4
    matches in play) cost the same number of queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for index, sizes in enumerate(((4, 4), (4,) * 8)):
        club, players, _organiser = club_with_players(4 * len(sizes), name=f"Club {index}")
        cup, _teams = cup_with_teams(club, players, sizes, public=True)
        services.cup_start(cup=cup)
        for path in (f"/en/cups/{cup.pk}/", f"/api/v1/cups/{cup.pk}/bracket/"):
            with CaptureQueriesContext(connection) as queries:
                assert Client().get(path).status_code == 200
            counts.append(len(queries))
    assert counts[:2] == counts[2:]

"""The director's screens of a cup: teams, start and finish, line-ups, the match control screen
(room codes and progress), the director's entry and correction with a reason and its history;
refusals come back as 4xx pages with their messages and change nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from teammatch import services
from teammatch.models import Cup, CupMatch, CupTeam, RoomResult
from tests.factories import CupFactory, CupTeamFactory, OrganiserFactory, PlayerFactory
from tests.teammatch.worlds import feasible, other, running_match, stored_state

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def director_form(outcome, reason: str = "slip sheet") -> dict:
    return {
        "contract": outcome["contract"],
        "oudlers": outcome["oudlers"],
        "points": outcome["points"],
        "reason": reason,
    }


@pytest.fixture
def running():
    return running_match()


def test_the_match_screen_shows_the_room_phones_and_their_progress(running):
    running.enter("open", 1)
    running.enter("open", 2)
    running.enter("closed", 1)
    page = login(running.organiser).get(
        f"/en/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/"
    )
    html = page.content.decode()
    for room in running.rooms.values():
        assert f"http://testserver/en/cups/room/{room.code}/" in html
    first = page.context["progress"][0]
    assert (first.quarter, first.open, first.closed, first.total) == (1, 2, 1, 2)
    assert page.context["sheet"].quarters[0].deals[1].open is not None  # everything shown


def test_the_director_enters_a_missing_result_from_his_screen(running):
    outcome = feasible(running.deal(2), "garde", 50)
    url = f"/en/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/deals/2/closed/"
    saved = login(running.organiser).post(url, director_form(outcome, "phone lost"))
    assert saved.status_code == 302 and saved["Location"].endswith("#deal-2")
    result = RoomResult.objects.get(deal__number=2, room="closed")
    assert result.entered_by_director and result.entered_by == running.organiser
    assert result.history.get().reason == "phone lost"


def test_the_director_correction_keeps_the_history_shown_on_the_page(running):
    outcome, _result = running.enter("open", 1)
    client = login(running.organiser)
    url = f"/en/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/deals/1/open/"
    assert client.post(url, director_form(other(outcome))).status_code == 302
    page = client.get(url)
    history = page.context["history"]
    assert [line.action for line in history] == ["create", "correct"]
    assert history[1].actor_label == running.organiser.username
    assert "slip sheet" in page.content.decode()


def test_the_director_sending_the_stored_outcome_changes_nothing(running):
    outcome, _ = running.enter("open", 1)
    before = stored_state(running.match)
    client = login(running.organiser)
    url = f"/en/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/deals/1/open/"
    answer = client.post(url, director_form(outcome))
    assert answer.status_code == 302
    assert stored_state(running.match) == before
    assert "nothing changed" in client.get(answer["Location"]).content.decode()


@pytest.mark.parametrize(("tail", "status"), [("deals/99/open/", 404), ("deals/1/lobby/", 404)])
def test_the_director_result_page_of_nothing_is_not_found(running, tail, status):
    url = f"/en/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/{tail}"
    assert login(running.organiser).get(url).status_code == status


def test_closing_a_quarter_with_results_missing_is_refused_with_the_list(running):
    running.enter("open", 1)
    url = f"/en/organiser/cups/{running.cup.pk}/matches/{running.match.pk}/quarters/1/close/"
    page = login(running.organiser).post(url)
    assert page.status_code == 409
    html = page.content.decode()
    assert "Results are missing" in html and "deal 1 in the closed room" in html
    assert CupMatch.objects.get(pk=running.match.pk).quarter == 1


def test_finishing_a_match_or_the_cup_too_early_is_refused(running):
    client = login(running.organiser)
    base = f"/en/organiser/cups/{running.cup.pk}"
    match = client.post(f"{base}/matches/{running.match.pk}/finish/")
    assert match.status_code == 409 and "Results are missing" in match.content.decode()
    cup = client.post(f"{base}/finish/")
    assert cup.status_code == 409
    assert "Every match must be finished before the cup." in cup.content.decode()
    assert Cup.objects.get(pk=running.cup.pk).status == Cup.Status.RUNNING


def test_a_team_is_edited_until_the_cup_starts():
    cup = CupFactory()
    organiser = OrganiserFactory(clubs=[cup.club])
    team = CupTeamFactory(cup=cup)
    newcomers = [PlayerFactory(club=cup.club) for _ in range(5)]
    client = login(organiser)
    url = f"/en/organiser/cups/{cup.pk}/teams/{team.pk}/"
    page = client.get(url)
    assert set(page.context["form"].initial["players"]) == {m.player_id for m in team.members.all()}
    saved = client.post(url, {"name": "Les Bouts", "players": [p.pk for p in newcomers]})
    assert saved.status_code == 302
    team.refresh_from_db()
    assert team.name == "Les Bouts" and team.members.count() == 5
    refused = client.post(url, {"name": "Les Bouts", "players": [p.pk for p in newcomers[:3]]})
    assert refused.status_code == 400 and "a team has 4 to 6 players" in refused.content.decode()
    CupTeamFactory(cup=cup)
    assert client.post(f"/en/organiser/cups/{cup.pk}/start/").status_code == 302
    started = client.get(url).content.decode()
    assert "The cup has started: its teams can no longer change." in started
    late = client.post(url, {"name": "Renamed", "players": [p.pk for p in newcomers]})
    assert late.status_code == 400 and CupTeam.objects.get(pk=team.pk).name == "Les Bouts"


def test_starting_a_cup_of_one_team_is_refused():
    cup = CupFactory()
    organiser = OrganiserFactory(clubs=[cup.club])
    CupTeamFactory(cup=cup)
    page = login(organiser).post(f"/en/organiser/cups/{cup.pk}/start/")
    assert page.status_code == 409
    assert Cup.objects.get(pk=cup.pk).status == Cup.Status.DRAFT
    assert not CupMatch.objects.filter(cup=cup).exists()


def test_the_bracket_refreshes_as_an_htmx_fragment(running):
    fragment = Client().get(f"/en/cups/{running.cup.pk}/", HTTP_HX_REQUEST="true")
    html = fragment.content.decode()
    assert fragment.status_code == 200 and "<html" not in html
    assert 'class="cup-bracket"' in html and running.match.team_a.name in html


def test_a_bye_has_no_match_sheet():
    cup = CupFactory(public=True)
    for _ in range(3):
        CupTeamFactory(cup=cup)
    services.cup_start(cup=cup)
    bye = CupMatch.objects.get(cup=cup, round=1, bye=True)
    answer = Client().get(f"/en/cups/{cup.pk}/matches/{bye.pk}/")
    assert answer.status_code == 302 and answer["Location"].endswith(f"/cups/{cup.pk}/")
    assert Client().get(f"/en/cups/{cup.pk}/matches/999999/").status_code == 404

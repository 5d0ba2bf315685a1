"""Team pages: triplette and quadrette rankings, quadrette match sheets (real movements)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring.models import RankingEntry, StandingsSnapshot
from tests.builders import team_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_triplette_team_ranking_lists_teams_with_their_members(client: Client) -> None:
    event = team_event(format=Event.Format.TRIPLETTE, teams=4)
    html = client.get(f"/en/events/{event.pk}/teams/").content.decode()
    entries = RankingEntry.objects.filter(event=event, kind="team").select_related("team")
    assert entries.count() == 4
    for entry in entries:
        assert f"<strong>{entry.team.name}</strong>" in html
        assert f"{entry.percentage}" in html
        for member in entry.team.members.all():
            assert f'href="/en/events/{event.pk}/players/{member.pk}/"' in html
    assert "badge final" in html
    # The live ranking opens on the team tab, with the individual tab next to it.
    ranking = client.get(f"/en/events/{event.pk}/ranking/").content.decode()
    assert "?view=team" in ranking and "?view=individual" in ranking
    assert client.get(f"/en/events/{event.pk}/matches/").status_code == 404


@pytest.mark.parametrize(("teams", "matches"), [(2, 1), (4, 2 * 3)])
def test_quadrette_match_sheets_and_pm_ranking(client: Client, teams: int, matches: int) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=teams)
    html = client.get(f"/en/events/{event.pk}/matches/").content.decode()
    assert html.count('class="card match"') == matches
    # A match sheet holds the deals the two teams played against each other: one deal set.
    sheets = StandingsSnapshot.objects.get(event=event).data["matches"]
    assert [len(sheet["deals"]) for sheet in sheets] == [event.deals_per_round] * matches
    for sheet in sheets:
        assert all(deal["net_a"] is not None for deal in sheet["deals"])
    # The page groups the sheets by the round each match carries (two matches a round).
    rounds = sorted({sheet["round"] for sheet in sheets})
    assert rounds == list(range(1, matches // (teams // 2) + 1))
    assert html.count("<h2>Round ") == len(rounds)
    for number in rounds:
        assert f"<h2>Round {number}</h2>" in html
    ranked = RankingEntry.objects.filter(event=event, kind="team")
    assert ranked.count() == teams
    assert not ranked.filter(points_de_match__isnull=True).exists()
    teams_page = client.get(f"/en/events/{event.pk}/teams/").content.decode()
    for entry in ranked:
        assert f'<td class="num">{entry.points_de_match}</td>' in teams_page


def test_team_pages_use_a_bounded_number_of_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=4, deals_per_round=2)
    entrant = event.entrants.filter(phantom=False).first()
    assert entrant is not None
    pages = ["teams/", "matches/", "ranking/", "ranking/?view=individual", "ranking/projector/",
             "movement/", "deals/1/", f"players/{entrant.pk}/", "export/ranking.xlsx"]  # fmt: skip
    for page in pages:
        with django_assert_max_num_queries(12):
            assert client.get(f"/events/{event.pk}/{page}").status_code == 200, page

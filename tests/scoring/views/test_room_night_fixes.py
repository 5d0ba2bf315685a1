"""Issue 24, "the room on the night": the small fixes, each with the test that showed it.

- The movement pages say how many copies of each étui to prepare (the tables that play a deal
  set in the same round), not only how many étuis there are.
- A final ranking (the event finished, every result counted) no longer says it refreshes
  every 15 s, nor polls: neither the ranking page nor the projector.
- The quadrette match sheets: a per-team choice (``?team=<id>``, every team still reachable),
  each match seen from the chosen team's side, and the figures signed as a tarot player reads
  them ("+12 / −12", never "12 – -12").
- The empty header cells of the organiser's dashboard and control board have an accessible
  name (visually hidden text).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import translation

from scoring.models import StandingsSnapshot
from tests.builders import running_event, running_team_event, team_event
from tests.factories import OrganiserFactory
from tournaments.models import Event, Team
from tournaments.movements import Schedule, generate_quadrette
from tournaments.presentation import etui_copies_text

pytestmark = pytest.mark.django_db


def organiser_client(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


# ------------------------------------------------------------------ copies of each étui


def test_the_movement_pages_say_how_many_copies_of_each_etui_to_prepare() -> None:
    # 4 quadrettes: 4 tables, every table plays the round's deal set at the same time.
    event = running_team_event(format=Event.Format.QUADRETTE, teams=4)
    sets = event.schedule.deal_set_count
    client = organiser_client(event)
    organiser = client.get(f"/en/organiser/events/{event.pk}/movement/").content.decode()
    public = client.get(f"/en/events/{event.pk}/movement/").content.decode()
    sentence = f"Prepare 4 copies of each étui: {sets * 4} étuis in all."
    assert sentence in organiser
    assert sentence in public


def test_a_line_movement_needs_one_copy_of_each_etui() -> None:
    event = running_event(tables=5, rounds=5)
    client = organiser_client(event)
    html = client.get(f"/en/organiser/events/{event.pk}/movement/").content.decode()
    assert "One copy of each étui: each one is played at one table at a time." in html


def test_the_copies_are_counted_per_etui_and_told_when_they_differ() -> None:
    schedule = Schedule.from_document(generate_quadrette(teams=8))
    assert set(schedule.copies_per_deal_set().values()) == {8}  # 8 tables, one set a round
    assert schedule.copies_per_deal_set().keys() == set(range(1, schedule.deal_set_count + 1))
    with translation.override("en"):
        text = etui_copies_text({1: 2, 2: 1, 3: 2})
    assert text == "Copies to prepare: étui 1 × 2, étui 2 × 1, étui 3 × 2; 5 étuis in all."
    assert etui_copies_text({}) == ""


# --------------------------------------------------------------- a final ranking stays still


def test_a_final_ranking_neither_says_it_refreshes_nor_polls(client: Client) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=2)
    for path in ("ranking/", "ranking/projector/"):
        html = client.get(f"/en/events/{event.pk}/{path}").content.decode()
        assert "badge final" in html, path
        assert "every 15 seconds" not in html, path
        assert "hx-trigger" not in html, path
    # A page opened while the ranking was provisional is told to stop polling (htmx: 286).
    response = client.get(f"/en/events/{event.pk}/ranking/", headers={"HX-Request": "true"})
    assert response.status_code == 286
    assert "badge final" in response.content.decode()


def test_a_provisional_ranking_still_refreshes(client: Client) -> None:
    event = running_event(tables=5, rounds=5)
    html = client.get(f"/en/events/{event.pk}/ranking/").content.decode()
    assert "This page updates itself every 15 seconds." in html
    assert 'hx-trigger="every 15s"' in html
    projector = client.get(f"/en/events/{event.pk}/ranking/projector/").content.decode()
    assert 'hx-trigger="every 15s"' in projector
    response = client.get(f"/en/events/{event.pk}/ranking/", headers={"HX-Request": "true"})
    assert response.status_code == 200


# -------------------------------------------------------------------- quadrette match sheets


def test_match_sheets_offer_one_team_at_a_time(client: Client) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=4)
    teams = list(Team.objects.filter(event=event).order_by("pk"))
    every = client.get(f"/en/events/{event.pk}/matches/").content.decode()
    assert every.count('class="card match"') == 6
    # The choice lists every team, with "every team" first.
    for team in teams:
        assert f'<option value="{team.pk}"' in every
    mine = teams[1]
    html = client.get(f"/en/events/{event.pk}/matches/?team={mine.pk}").content.decode()
    assert html.count('class="card match"') == 3  # one match against each other team
    assert f'<option value="{mine.pk}" selected' in html
    # Each of its matches is read from its side: its name first.
    for heading in re.findall(r"<h3>(.*?)</h3>", html, re.S):
        assert heading.strip().startswith(mine.name), heading


@pytest.mark.parametrize("value", ["abc", "0", "99999999", "-1", "1e3"])
def test_a_bad_team_choice_is_a_clear_404(client: Client, value: str) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=2)
    response = client.get(f"/en/events/{event.pk}/matches/?team={value}")
    assert response.status_code == 404
    assert "This event has no such team." in response.content.decode()
    # No choice at all: every team.
    assert client.get(f"/en/events/{event.pk}/matches/?team=").status_code == 200


def test_a_team_of_another_event_is_no_choice(client: Client) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=2)
    other = team_event(format=Event.Format.QUADRETTE, teams=2)
    foreign = Team.objects.filter(event=other).first()
    assert foreign is not None
    assert client.get(f"/en/events/{event.pk}/matches/?team={foreign.pk}").status_code == 404


def test_match_figures_are_signed_as_a_tarot_player_reads_them(client: Client) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=2, seed=11)
    sheet = StandingsSnapshot.objects.get(event=event).data["matches"][0]
    pm_a = int(sheet["pm_a"])
    assert pm_a != 0  # the seed gives a match that is not a draw
    html = client.get(f"/en/events/{event.pk}/matches/").content.decode()
    assert not re.search(r"\d\s*–\s*-\d", html)  # never "12 – -12"
    assert not re.search(r">-\d", html)  # a hyphen is no minus sign

    def signed(value: int) -> str:
        return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")

    assert f"{signed(pm_a)} / {signed(-pm_a)}" in html
    for deal in sheet["deals"]:
        assert signed(int(deal["net_a"])) in html
    # Seen from team B's side, the same match reads the other way round.
    team_b = Team.objects.get(event=event, pk=int(str(sheet["team_b"])[1:]))
    html_b = client.get(f"/en/events/{event.pk}/matches/?team={team_b.pk}").content.decode()
    assert f"{signed(-pm_a)} / {signed(pm_a)}" in html_b


# -------------------------------------------------------------- header cells have a name


class HeaderCells(HTMLParser):
    """The text of every <th> (visually hidden text counts: a screen reader reads it)."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "th":
            self.cells.append("")
            self._depth += 1
            label = dict(attrs).get("aria-label")
            if label:
                self.cells[-1] += label

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.cells[-1] += data


def header_cells(html: str) -> list[str]:
    parser = HeaderCells()
    parser.feed(html)
    return [cell.strip() for cell in parser.cells]


def test_no_header_cell_is_empty_on_the_dashboard_and_the_control_board() -> None:
    event = running_event(tables=5, rounds=5)
    client = organiser_client(event)
    for path in ("", "control/"):
        html = client.get(f"/en/organiser/events/{event.pk}/{path}").content.decode()
        cells = header_cells(html)
        assert cells, path
        assert all(cells), (path, cells)
    draft = running_event(tables=5, rounds=5, status=Event.Status.DRAFT)
    html = organiser_client(draft).get(f"/en/organiser/events/{draft.pk}/").content.decode()
    assert all(header_cells(html))


def test_with_several_copies_every_printed_copy_says_which_it_is_the_first_included() -> None:
    # 4 quadrettes: every table plays the round's étui, 4 copies of each: table 1's card says
    # "(copy 1)" as table 2's says "(copy 2)"; a line movement (one copy) names none.
    event = running_team_event(format=Event.Format.QUADRETTE, teams=4)
    client = organiser_client(event)
    cards = client.get(f"/en/organiser/events/{event.pk}/print/tables/").content.decode()
    for copy in range(1, 5):
        assert f"(copy {copy})" in cards
    sheets = client.get(f"/en/organiser/events/{event.pk}/print/score-sheets/round/1/")
    assert sheets.status_code == 200
    sheet_text = sheets.content.decode()
    assert "(copy 1)" in sheet_text and "(copy 4)" in sheet_text
    line = running_event(tables=5, rounds=5)
    plain = organiser_client(line).get(f"/en/organiser/events/{line.pk}/print/tables/")
    assert plain.status_code == 200 and "(copy" not in plain.content.decode()

"""Paper for the room (issue 24): the ranking for the wall and the frequency sheets.

They print what the public sees, even for the organiser who prints them: the published ranking
(a deal still in play somewhere is not counted), "provisional" until the standings are final,
and the sheets of the deals played at every table only. The event is a 5-table line movement,
one deal a round, deal 5 still to be played at table 1 (as in test_unfinished_deals).
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from scoring.models import RankingEntry
from scoring.paper import DealSheet, deal_sheets_pages, ranking_pages
from scoring.services import standings_recompute
from tests.builders import random_outcome, scored_event, team_event
from tests.factories import OrganiserFactory
from tournaments.models import Deal, Event, Table
from tournaments.services import events as event_services
from tournaments.services.results import table_result_enter

pytestmark = pytest.mark.django_db

OPEN_DEAL = 5


@pytest.fixture
def event() -> Event:
    event = scored_event(tables=5, deals_per_round=1, rounds_played=4, seed=3)
    rng = random.Random(8)
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    for play in event.schedule.round(5).tables:
        if play.table == 1:
            continue
        deal = Deal.objects.get(event=event, deal_set=play.deal_set)
        table_result_enter(table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal))
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def organiser(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def test_the_frequency_sheets_print_only_the_deals_played_everywhere(
    event: Event, organiser: Client
) -> None:
    html = organiser.get(f"/en/organiser/events/{event.pk}/print/frequencies/").content.decode()
    printed = sorted(int(n) for n in re.findall(r'id="deal-(\d+)"', html))
    assert printed == [1, 2, 3, 4]
    assert "1 deal still in play somewhere is not printed." in html
    # 5 tables a deal: two deals to a sheet.
    assert html.count('class="page paper-frequencies-page"') == 2


def test_the_wall_ranking_is_the_published_one_and_says_provisional(
    event: Event, organiser: Client
) -> None:
    html = organiser.get(f"/en/organiser/events/{event.pk}/print/ranking/").content.decode()
    assert "Provisional ranking" in html
    assert "Final ranking" not in html
    assert "Ranking on 4 of the 5 deals" in html
    published = RankingEntry.objects.filter(event=event, kind="individual", published=True)
    complete = RankingEntry.objects.filter(event=event, kind="individual", published=False)
    assert published.count() == 20 and complete.count() == 20
    rows = re.findall(r'<td class="num rank">(\d+)</td>\s*<td>(.*?)</td>', html)
    assert len(rows) == 20
    shown = {(int(rank), name) for rank, name in rows}
    assert shown == {(e.rank, str(e.entrant)) for e in published}


def test_a_finished_event_prints_its_final_ranking(organiser: Client, event: Event) -> None:
    deal = Deal.objects.get(event=event, number=OPEN_DEAL)
    table = Table.objects.get(event=event, number=1)
    table_result_enter(table=table, deal=deal, outcome=random_outcome(random.Random(1), deal))
    event_services.event_finish(event=Event.objects.get(pk=event.pk))
    standings_recompute(event_id=event.pk)
    html = organiser.get(f"/en/organiser/events/{event.pk}/print/ranking/").content.decode()
    assert "Final ranking" in html and "Provisional ranking" not in html
    assert event.club.name in html and "Dec. 5, 2026" in html
    sheets = organiser.get(f"/en/organiser/events/{event.pk}/print/frequencies/")
    assert sorted(map(int, re.findall(r'id="deal-(\d+)"', sheets.content.decode()))) == [
        1,
        2,
        3,
        4,
        5,
    ]


def test_the_team_wall_ranking_and_an_unknown_view(client: Client) -> None:
    event = team_event(format=Event.Format.QUADRETTE, teams=4)
    client.force_login(OrganiserFactory(clubs=[event.club]))
    base = f"/en/organiser/events/{event.pk}/print/ranking/"
    team = client.get(base).content.decode()
    assert '<th class="num">PM</th>' in team and "Final ranking" in team
    individual = client.get(base + "?view=individual").content.decode()
    assert individual.count('<td class="num rank">') == 16
    assert client.get(base + "?view=nonsense").status_code == 200  # the default view


def test_the_paper_is_offered_to_organisers_only(event: Event, organiser: Client) -> None:
    dashboard = organiser.get(f"/en/organiser/events/{event.pk}/").content.decode()
    assert 'id="print-ranking"' in dashboard and 'id="print-frequencies"' in dashboard
    for path in ("ranking/", "deals/"):
        assert "/print/" in organiser.get(f"/en/events/{event.pk}/{path}").content.decode()
        assert "/print/" not in Client().get(f"/en/events/{event.pk}/{path}").content.decode()
    visitor = Client().get(f"/en/organiser/events/{event.pk}/print/ranking/")
    assert visitor.status_code == 302 and "/login/" in visitor["Location"]
    stranger = Client()
    stranger.force_login(OrganiserFactory())
    assert stranger.get(f"/en/organiser/events/{event.pk}/print/frequencies/").status_code == 404


def test_ranking_pages_fill_the_sheets_in_order() -> None:
    counts = {
        n: [sum(len(b.rows) for b in page.blocks) for page in ranking_pages([("", range(n))])]
        for n in (0, 20, 21, 44, 45)
    }
    assert counts == {0: [0], 20: [20], 21: [20, 1], 44: [20, 24], 45: [20, 24, 1]}
    lines = ranking_pages([(line, list(range(7))) for line in "NESW"])
    assert [[(b.label, len(b.rows)) for b in page.blocks] for page in lines] == [
        [("N", 7), ("E", 7)],
        [("S", 7), ("W", 7)],
    ]


def test_deals_go_two_to_a_sheet_when_both_fit() -> None:
    def sheet(tables: int) -> DealSheet:
        return DealSheet(deal=None, rows=[None] * tables, frequencies=[None] * tables)  # type: ignore[list-item]

    assert [len(page) for page in deal_sheets_pages([sheet(5)] * 5)] == [2, 2, 1]
    assert [len(page) for page in deal_sheets_pages([sheet(9)] * 3)] == [1, 1, 1]

"""The charts of the public pages (issue 11): a player's progress on the score card and a
deal's distribution on the frequency sheet, and a player's own line on the frequency sheet.

The event is the real 5-table line movement of ``test_unfinished_deals`` (one deal per round):
rounds 1-4 entered everywhere, round 5 everywhere but at table 1, so deal 5 is still in play
(4 of 5 results). The figures the pages hand to Chart.js (``json_script``) are recomputed here
from the ``HandScore`` and ``TableResult`` rows, never from the presentation helpers; the open
deal's figures reach the organisers only. The charts' scripts are the app's own static files.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter, defaultdict
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from scoring.models import HandScore
from scoring.services import standings_recompute
from tests.builders import random_outcome, scored_event
from tests.factories import OrganiserFactory
from tournaments.models import Contract, Deal, Entrant, Event, Table, TableResult
from tournaments.services.results import table_result_enter

pytestmark = pytest.mark.django_db

OPEN_DEAL = 5
LAST_TABLE = 1
FINISHED_DEAL = 2
CHART_JS = "vendor/chartjs/chart.umd.min.js"
CHARTS = "js/charts.js"


@pytest.fixture
def event() -> Event:
    event = scored_event(tables=5, deals_per_round=1, rounds_played=4, seed=3)
    rng = random.Random(8)
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    for play in event.schedule.round(5).tables:
        if play.table == LAST_TABLE:
            continue
        deal = Deal.objects.get(event=event, deal_set=play.deal_set)
        table_result_enter(table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal))
    standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    assert TableResult.objects.filter(event=event, deal__number=OPEN_DEAL).count() == 4
    return event


@pytest.fixture
def organiser(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def chart_data(html: str, element_id: str) -> dict | None:
    found = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S
    )
    return None if found is None else json.loads(found.group(1))


def script_sources(html: str) -> list[str]:
    return re.findall(r'<script[^>]*\ssrc="([^"]+)"', html)


def open_deal_player(event: Event) -> Entrant:
    score = (
        HandScore.objects.filter(event=event, deal__number=OPEN_DEAL)
        .select_related("entrant")
        .order_by("table_number", "seat")
        .first()
    )
    assert score is not None
    return score.entrant


def expected_progress(event: Event, entrant: Entrant, hidden: set[int]) -> dict[str, list]:
    """Per round: the mean of the player's percentages, and the running mean up to it."""
    by_round: dict[int, list[Decimal]] = defaultdict(list)
    for score in HandScore.objects.filter(event=event, entrant=entrant).select_related("deal"):
        if score.deal.number not in hidden:
            by_round[score.round_number].append(score.percentage)
    rounds, per_round, cumulative, seen = [], [], [], []
    for number in sorted(by_round):
        seen += by_round[number]
        rounds.append(f"Round {number}")
        per_round.append(float(round(sum(by_round[number]) / len(by_round[number]), 2)))
        cumulative.append(float(round(sum(seen) / len(seen), 2)))
    return {"labels": rounds, "round": per_round, "cumulative": cumulative}


def figures(data: dict) -> dict[str, list]:
    sets = {dataset["key"]: dataset["data"] for dataset in data["datasets"]}
    return {"labels": data["labels"], "round": sets["round"], "cumulative": sets["cumulative"]}


def taker_mark(result: TableResult) -> int | None:
    seat = result.taker_seat or result.deal.taker_seat
    return result.seat_marks()[seat]


def expected_distribution(event: Event, number: int) -> tuple[Counter[str], dict[str, int]]:
    """Tables per (contract, value) of the deal's played results, and each one's taker mark."""
    counts: Counter[str] = Counter()
    marks: dict[str, int] = {}
    for result in TableResult.objects.filter(
        event=event, deal__number=number, kind=TableResult.Kind.PLAYED
    ).select_related("deal"):
        label = f"{Contract(result.contract).label} {result.value}"
        counts[label] += 1
        mark = taker_mark(result)
        assert mark is not None
        marks[label] = mark
    return counts, marks


# ------------------------------------------------------------------------------ score card


def test_score_card_chart_holds_the_shown_rounds_only(
    client: Client, organiser: Client, event: Event
) -> None:
    entrant = open_deal_player(event)
    url = f"/en/events/{event.pk}/players/{entrant.pk}/"
    open_round = HandScore.objects.get(
        event=event, entrant=entrant, deal__number=OPEN_DEAL
    ).round_number

    html = client.get(url).content.decode()
    assert '<canvas data-chart="progress-data"' in html
    public = chart_data(html, "progress-data")
    assert public is not None and public["type"] == "line"
    assert figures(public) == expected_progress(event, entrant, {OPEN_DEAL})
    # One deal per round: the round of the open deal is not in the public chart at all.
    assert f"Round {open_round}" not in public["labels"]
    assert len(public["labels"]) == 4
    assert "The deals still in play are not counted." in html

    full = chart_data(organiser.get(url).content.decode(), "progress-data")
    assert full is not None
    assert figures(full) == expected_progress(event, entrant, set())
    assert f"Round {open_round}" in full["labels"]
    assert len(full["labels"]) == 5


def test_score_card_chart_ends_on_the_cards_total_once_every_deal_is_public(
    client: Client, event: Event
) -> None:
    table = Table.objects.get(event=event, number=LAST_TABLE)
    deal = Deal.objects.get(event=event, number=OPEN_DEAL)
    table_result_enter(table=table, deal=deal, outcome=random_outcome(random.Random(1), deal))
    standings_recompute(event_id=event.pk)
    entrant = open_deal_player(event)
    html = client.get(f"/en/events/{event.pk}/players/{entrant.pk}/").content.decode()
    data = chart_data(html, "progress-data")
    assert data is not None
    assert figures(data) == expected_progress(event, entrant, set())
    scores = [s.percentage for s in HandScore.objects.filter(event=event, entrant=entrant)]
    mean = (sum(scores, Decimal(0)) / len(scores)).quantize(Decimal("0.01"))
    assert figures(data)["cumulative"][-1] == float(mean)
    assert f'<th class="num">{mean}</th>' in html  # the card's own total, the same figure


def test_score_card_chart_is_accessible_and_translated(client: Client, event: Event) -> None:
    entrant = open_deal_player(event)
    html = client.get(f"/events/{event.pk}/players/{entrant.pk}/").content.decode()
    assert 'role="img"' in html and 'aria-describedby="progress-table"' in html
    assert '<table class="narrow" id="progress-table">' in html
    data = chart_data(html, "progress-data")
    assert data is not None
    # French labels ("Position": a round in the project's French vocabulary).
    assert data["labels"][0] == "Position 1"
    assert data["y_title"] == "Pourcentage"


def test_score_card_without_a_shown_line_has_no_chart(client: Client) -> None:
    event = scored_event(tables=5, deals_per_round=1, rounds_played=0, seed=3)
    entrant = Entrant.objects.filter(event=event, player__isnull=False).first()
    assert entrant is not None
    html = client.get(f"/en/events/{event.pk}/players/{entrant.pk}/").content.decode()
    assert "progress-data" not in html
    assert CHART_JS not in html


# -------------------------------------------------------------------------- frequency sheet


def test_frequency_sheet_chart_counts_the_tables_of_each_value(
    client: Client, event: Event
) -> None:
    html = client.get(f"/en/events/{event.pk}/deals/{FINISHED_DEAL}/").content.decode()
    assert '<canvas data-chart="distribution-data"' in html
    data = chart_data(html, "distribution-data")
    assert data is not None and data["type"] == "bar"
    counts, marks = expected_distribution(event, FINISHED_DEAL)
    assert sum(counts.values()) == 5
    counted = data["datasets"][0]["data"]
    assert dict(zip(data["labels"], counted, strict=True)) == dict(counts)
    assert len(data["labels"]) == len(counts)
    assert data["marks"] == [marks[label] for label in data["labels"]]
    assert data["marks"] == sorted(data["marks"], reverse=True)  # the table's order
    assert data["highlight"] is None


def test_open_deal_has_no_chart_for_the_public_but_one_for_its_organisers(
    client: Client, organiser: Client, event: Event
) -> None:
    url = f"/en/events/{event.pk}/deals/{OPEN_DEAL}/"
    html = client.get(url).content.decode()
    assert chart_data(html, "distribution-data") is None
    assert "data-chart" not in html
    assert CHART_JS not in html

    data = chart_data(organiser.get(url).content.decode(), "distribution-data")
    assert data is not None
    counts, _ = expected_distribution(event, OPEN_DEAL)
    assert sum(counts.values()) == 4
    assert dict(zip(data["labels"], data["datasets"][0]["data"], strict=True)) == dict(counts)


def test_the_charts_scripts_are_the_apps_own_static_files(client: Client, event: Event) -> None:
    entrant = open_deal_player(event)
    static = "/" + settings.STATIC_URL.lstrip("/")
    for url in (
        f"/en/events/{event.pk}/deals/{FINISHED_DEAL}/",
        f"/en/events/{event.pk}/players/{entrant.pk}/",
    ):
        sources = script_sources(client.get(url).content.decode())
        assert static + CHART_JS in sources
        assert static + CHARTS in sources
        assert sources.index(static + CHART_JS) < sources.index(static + CHARTS)
        for source in sources:
            assert source.startswith(static), source
    for path in (CHART_JS, CHARTS):
        assert finders.find(path) is not None, path
    vendored = finders.find(CHART_JS)
    assert isinstance(vendored, str)
    with open(vendored, encoding="utf-8") as handle:
        assert handle.read(40).startswith("/*!\n * Chart.js v4.5.1")


# ------------------------------------------------------------------------------- my line


def my_line(html: str) -> str:
    start = html.index('id="my-line"')
    return html[start : html.index("</p>", start)]


def east_of_table_1(event: Event, number: int) -> tuple[TableResult, Entrant]:
    result = (
        TableResult.objects.filter(event=event, deal__number=number)
        .select_related("deal", "table", "seat_e")
        .order_by("table__number")
        .first()
    )
    assert result is not None and result.seat_e is not None
    return result, result.seat_e


@pytest.mark.parametrize("came_by", ["referrer", "query"])
def test_my_line_from_the_score_card(client: Client, event: Event, came_by: str) -> None:
    result, entrant = east_of_table_1(event, FINISHED_DEAL)
    card_url = f"/en/events/{event.pk}/players/{entrant.pk}/"
    card = client.get(card_url).content.decode()
    sheet = f"/en/events/{event.pk}/deals/{FINISHED_DEAL}/"
    assert f'href="{sheet}"' in card
    if came_by == "referrer":  # the score card's link, followed in a browser
        response = client.get(sheet, HTTP_REFERER=f"http://testserver{card_url}")
    else:  # the previous and next deals' links
        response = client.get(sheet, {"entrant": entrant.pk})
    html = response.content.decode()

    score = HandScore.objects.get(result=result, entrant=entrant)
    line = my_line(html)
    assert f"My line: table {result.table.number}, East" in line
    assert f"mark {result.mark_e}" in line
    assert f"{score.percentage} %" in line
    assert html.index('id="my-line"') < html.index('class="frequency')  # shown first
    data = chart_data(html, "distribution-data")
    assert data is not None
    label = f"{Contract(result.contract).label} {result.value}"
    assert data["highlight"] == data["labels"].index(label)
    assert html.count('class="mine"') == 2  # the table's row and the frequency's row
    # The previous and next deals keep the player's line.
    assert f"/deals/{FINISHED_DEAL + 1}/?entrant={entrant.pk}" in html


@pytest.mark.parametrize(
    "referrer",
    [
        "http://elsewhere.test/en/events/{event}/players/{entrant}/",  # another site
        "http://testserver/en/events/{event}/ranking/",  # not a score card
        "http://testserver/en/events/{event}/players/",
        "http://testserver/%ff%00/",
        "not a url",
    ],
)
def test_no_line_from_another_page_or_site(client: Client, event: Event, referrer: str) -> None:
    _, entrant = east_of_table_1(event, FINISHED_DEAL)
    response = client.get(
        f"/en/events/{event.pk}/deals/{FINISHED_DEAL}/",
        HTTP_REFERER=referrer.format(event=event.pk, entrant=entrant.pk),
    )
    assert response.status_code == 200
    assert 'id="my-line"' not in response.content.decode()


def test_my_line_on_an_open_deal_shows_no_outcome_to_the_public(
    client: Client, organiser: Client, event: Event
) -> None:
    entrant = open_deal_player(event)
    score = HandScore.objects.get(event=event, deal__number=OPEN_DEAL, entrant=entrant)
    result = score.result
    url = f"/en/events/{event.pk}/deals/{OPEN_DEAL}/?entrant={entrant.pk}"
    html = client.get(url).content.decode()
    line = my_line(html)
    assert f"My line: table {result.table.number}" in line
    assert "in play" in line and "mark" not in line and "%" not in line

    organiser_html = organiser.get(url).content.decode()
    line = organiser_html[organiser_html.index('id="my-line"') :]
    assert "in play" not in line[: line.index("</p>")]
    assert "mark " in line[: line.index("</p>")]


@pytest.mark.parametrize("value", ["abc", "-3", "99999999999999999999999", "١٢", "0", ""])
def test_a_bad_or_unknown_entrant_shows_no_line(client: Client, event: Event, value: str) -> None:
    response = client.get(f"/en/events/{event.pk}/deals/{FINISHED_DEAL}/", {"entrant": value})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="my-line"' not in html
    assert 'class="mine"' not in html

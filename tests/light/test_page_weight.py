"""Light phone pages (issue 23): what a phone transfers, in bytes, on a first visit and per save.

The pages are gzip-compressed for a client that accepts it (``GZipMiddleware``), the static
files are served from their precompressed copies (WhiteNoise, level 9 gzip as ``collectstatic``
writes them here), hashed and cached for ever, so a first visit fetches each asset once and a
save fetches only the page (the redirect and the page, or the JSON answer).

The byte budget: the duplicate table phone page at most 30 KB on a first visit (the page and
every asset it loads), at most 10 KB per save; the cup room phone and the free-deal table phone
alike. Sizes, not timings: ``manage.py bench_phone`` measures the times on a slow network.
"""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tests.builders import running_event, scored_event
from tests.factories import RunningFreeDealFactory
from tests.teammatch.worlds import feasible, form_data, running_match
from tournaments.models import Deal, Event, Table

pytestmark = pytest.mark.django_db

FIRST_VISIT_BUDGET = 30 * 1024
SAVE_BUDGET = 10 * 1024
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate"}
ASSET = re.compile(r'<(?:script|link)\b[^>]*?\s(?:src|href)="/static/([^"]+)"')


def transferred(response: Any) -> int:
    """The body's bytes on the wire plus the headers a server sends (status line, headers)."""
    body = b"".join(response.streaming_content) if response.streaming else response.content
    headers = sum(len(name) + len(value) + 4 for name, value in response.items()) + 17
    return len(body) + headers


def assets(html: str) -> list[str]:
    return ASSET.findall(html)


def asset_bytes(name: str) -> int:
    """An asset as WhiteNoise serves it to a browser that accepts gzip: its level-9 gzip copy
    (``collectstatic`` keeps the plain file when gzip does not make it smaller), plus headers."""
    found = finders.find(name)
    assert found, f"{name} is not a static file"
    with open(found, "rb") as source:
        raw = source.read()
    return min(len(raw), len(gzip.compress(raw, compresslevel=9))) + 300


def first_visit(client: Client, url: str) -> tuple[int, str, dict[str, int]]:
    page = client.get(url, **GZIP)
    assert page.status_code == 200 and page["Content-Encoding"] == "gzip"
    html = gzip.decompress(page.content).decode()
    weights = {name: asset_bytes(name) for name in assets(html)}
    return transferred(page) + sum(weights.values()), html, weights


def saved(client: Client, url: str, data: dict[str, Any]) -> int:
    """A save as the phone makes it without JavaScript: the POST, its redirect, the page."""
    answer = client.post(url, data, **GZIP)
    assert answer.status_code == 302, answer.status_code
    total = transferred(answer) + sum(len(f"{k}={v}&") for k, v in data.items()) + 400
    page = client.get(answer["Location"].split("#")[0], **GZIP)
    assert page.status_code == 200
    return total + transferred(page)


@pytest.fixture
def event() -> Event:
    # A club evening's individual: 24 deals in 6 rounds, 4 deals a round at each table.
    return running_event(tables=7, rounds=6, deals_per_round=4)


def test_the_duplicate_table_phone_page_is_light(event: Event) -> None:
    table = Table.objects.get(event=event, number=1)
    client = Client()
    total, html, weights = first_visit(client, f"/table/{table.code}/")
    # No htmx (js/preview.js does the one live request), no Chart.js.
    assert "htmx.min.js" not in html and "vendor/chartjs" not in " ".join(weights)
    assert total <= FIRST_VISIT_BUDGET, (total, weights)
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    deal = Deal.objects.filter(event=event, deal_set=play.deal_set).order_by("number").first()
    assert deal is not None
    data = {
        f"d{deal.number}-{key}": value
        for key, value in {"contract": "garde", "oudlers": "2", "points": "46"}.items()
    }
    assert saved(client, f"/table/{table.code}/deal/{deal.number}/", data) <= SAVE_BUDGET


def test_the_cup_room_phone_page_is_light() -> None:
    running = running_match(deals_per_quarter=6)
    client = Client()
    url = f"/cups/room/{running.rooms['open'].code}/"
    total, _html, weights = first_visit(client, url)
    assert total <= FIRST_VISIT_BUDGET, (total, weights)
    outcome = feasible(running.deal(1), "garde", 50)
    assert saved(client, url + "deals/1/", form_data(1, outcome)) <= SAVE_BUDGET


def test_the_free_deal_table_phone_page_is_light() -> None:
    tournament = RunningFreeDealFactory(parties=3)
    table = tournament.tables.order_by("pk").first()
    client = Client()
    url = reverse("freedeal:table", args=[table.code])
    total, html, weights = first_visit(client, url)
    assert total <= FIRST_VISIT_BUDGET, (total, weights)
    taker = re.search(r'name="d1-taker" value="(\d+)"', html)
    assert taker is not None
    data = {"party": "1", "d1-contract": "garde", "d1-taker": taker.group(1)}
    data |= {"d1-oudlers": "2", "d1-points": "46"}
    assert saved(client, url + "deal/1/", data) <= SAVE_BUDGET


def test_chart_js_loads_deferred_only_where_a_chart_is_drawn() -> None:
    event = scored_event(tables=5, deals_per_round=1)
    client = Client()
    sheet = client.get(f"/en/events/{event.pk}/deals/1/", **GZIP)
    assert sheet.status_code == 200 and sheet["Content-Encoding"] == "gzip"
    html = gzip.decompress(sheet.content).decode()
    assert 'data-chart="distribution-data"' in html
    scripts = re.findall(r"<script[^>]*\ssrc=\"[^\"]*(?:chartjs|charts)[^\"]*\"[^>]*>", html)
    assert len(scripts) == 2 and all(" defer" in tag for tag in scripts)
    ranking = client.get(f"/en/events/{event.pk}/ranking/", **GZIP)
    assert "chartjs" not in gzip.decompress(ranking.content).decode()


def test_the_live_ranking_fragment_is_compressed_and_varies_on_both_headers() -> None:
    event = scored_event(tables=5, deals_per_round=1, rounds_played=2)
    client = Client()
    page = client.get(f"/en/events/{event.pk}/ranking/", **GZIP)
    fragment = client.get(f"/en/events/{event.pk}/ranking/", HTTP_HX_REQUEST="true", **GZIP)
    for answer in (page, fragment):
        assert answer.status_code == 200 and answer["Content-Encoding"] == "gzip"
        vary = {part.strip() for part in answer["Vary"].split(",")}
        assert {"Accept-Encoding", "HX-Request"} <= vary
    assert len(gzip.decompress(fragment.content)) < len(gzip.decompress(page.content))
    # A client that does not accept gzip gets the plain page.
    plain = client.get(f"/en/events/{event.pk}/ranking/")
    assert "Content-Encoding" not in plain and plain.content.startswith(b"<!DOCTYPE html>")

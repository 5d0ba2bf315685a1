"""The public pages' charts render in a browser with no internet (issue 11).

Chromium opens a score card and a frequency sheet, on a phone (390×844) and on a laptop
screen, with every request to a host other than the live server aborted and recorded: the
vendored Chart.js (the app's static files) must draw each chart (a Chart instance bound to the
canvas, a canvas of non-zero size inside the window), nothing may be asked of another host, and
the phone page is no wider than the window.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from scoring.models import HandScore
from tests.builders import scored_event
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
FINISHED_DEAL = 1

CHART_STATE_JS = """(canvas) => {
  const chart = window.Chart ? window.Chart.getChart(canvas) : undefined;
  const box = canvas.getBoundingClientRect();
  return {
    chart: chart !== undefined,
    type: chart ? chart.config.type : null,
    points: chart ? chart.data.datasets[0].data.length : 0,
    width: canvas.width, height: canvas.height,
    right: box.right, inner: window.innerWidth,
    scroll: document.documentElement.scrollWidth,
  };
}"""


@pytest.fixture
def event() -> Event:
    """A running 5-table individual event, one deal per round, every round entered (so every
    deal is played everywhere: its outcomes are public)."""
    return scored_event(tables=5, deals_per_round=1, seed=23)


def offline_page(new_page: Any, base: str, viewport: dict[str, int]) -> tuple[Any, list[str]]:
    page = new_page(viewport=viewport)
    local = urlsplit(base).netloc
    outside: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if urlsplit(url).netloc == local or url.startswith(("data:", "blob:")):
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    page.route("**/*", route)
    return page, outside


def chart_state(page: Any, selector: str) -> dict[str, Any]:
    page.wait_for_selector(f'{selector}[data-chart-drawn="true"]')
    return page.eval_on_selector(selector, CHART_STATE_JS)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_charts_render_offline(
    live_server: Any, new_page: Any, event: Event, viewport: dict[str, int]
) -> None:
    score = (
        HandScore.objects.filter(event=event, deal__number=FINISHED_DEAL)
        .select_related("entrant")
        .order_by("table_number", "seat")
        .first()
    )
    assert score is not None
    entrant = score.entrant
    rounds = HandScore.objects.filter(event=event, entrant=entrant).count()
    page, outside = offline_page(new_page, live_server.url, viewport)

    page.goto(f"{live_server.url}/events/{event.pk}/players/{entrant.pk}/")
    state = chart_state(page, 'canvas[data-chart="progress-data"]')
    assert state["chart"] and state["type"] == "line"
    assert state["points"] == rounds
    assert state["width"] > 0 and state["height"] > 0
    assert state["right"] <= state["inner"] + 0.5
    assert state["scroll"] <= state["inner"]

    # From the score card to the deal: the player's own line first, then the chart.
    page.click(f'td.num a[href$="/deals/{FINISHED_DEAL}/"]')
    page.wait_for_selector("#my-line")
    mine = page.inner_text("#my-line")
    assert f"table {score.table_number}, " in mine
    assert f"{score.percentage} %".replace(".", ",") in mine  # French decimal comma
    state = chart_state(page, 'canvas[data-chart="distribution-data"]')
    assert state["chart"] and state["type"] == "bar"
    assert state["points"] >= 1
    assert state["width"] > 0 and state["height"] > 0
    assert state["right"] <= state["inner"] + 0.5
    assert state["scroll"] <= state["inner"]

    assert outside == []

"""Paper for the room (issue 24), printed to PDF by Chromium and its pages counted.

- 28 players' route cards on at most 4 A4 pages (8 to a sheet, every round on each card);
- the ranking for the wall: N lines on the pages ``scoring.paper.ranking_pages`` plans (20 on
  the first sheet, 24 on the next ones), never one more;
- the frequency sheets: one page per sheet of one or two deals, nothing spilling over.

Playwright's ``page.pdf(format="A4")`` with Debian's Chromium (print media, the pages' own
``@page`` margins); the pages are counted in the PDF's page tree (``/Type /Page`` objects, the
root ``/Count`` agreeing).
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from scoring.paper import RANKING_FIRST_PAGE, RANKING_NEXT_PAGES
from scoring.services import standings_recompute
from tests.builders import enter_round, running_event
from tests.factories import OrganiserFactory
from tournaments.models import Event
from tournaments.services import events as event_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Where the PDFs are kept for a look (the last run's).
OUT = Path("/tmp/paper-pdf")


def pdf_pages(data: bytes) -> int:
    """The number of pages of a PDF: its ``/Type /Page`` objects (not ``/Pages``), checked
    against the largest ``/Count`` of a page tree node (the root's)."""
    pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", data)]
    counts += [int(n) for n in re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", data)]
    assert data.startswith(b"%PDF")
    assert counts and max(counts) == pages, (pages, counts)
    return pages


def finished_event(tables: int) -> Event:
    """An individual event of ``tables`` tables, one deal a round, every round played, finished."""
    event = running_event(tables=tables, deals_per_round=1)
    rng = random.Random(tables)
    for number in event.schedule.round_numbers:
        enter_round(event, number, rng)
    event_services.event_finish(event=Event.objects.get(pk=event.pk))
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def organiser_page(new_page: Any, live_server: Any, event: Event) -> Any:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    page = new_page(locale="fr-FR")
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return page


def print_pdf(page: Any, url: str, name: str) -> tuple[bytes, str]:
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    data = page.pdf(format="A4", print_background=True)
    OUT.mkdir(exist_ok=True)
    (OUT / f"{name}.pdf").write_bytes(data)
    return data, page.content()


@pytest.mark.parametrize("tables", [5, 7, 12])
def test_route_cards_ranking_and_frequency_sheets_on_the_expected_pages(
    live_server: Any, new_page: Any, tables: int
) -> None:
    event = finished_event(tables)
    players = 4 * tables
    page = organiser_page(new_page, live_server, event)
    base = f"{live_server.url}/organiser/events/{event.pk}/print"

    # Route cards: 8 to a sheet up to 9 rounds, 6 up to 14: 28 players on 4 pages.
    data, html = print_pdf(page, f"{base}/routes/", f"routes-{tables}")
    assert html.count('class="route-card"') == players
    per_sheet = 8 if len(event.schedule.rounds) <= 9 else 6
    assert pdf_pages(data) == math.ceil(players / per_sheet)
    if players == 28:
        assert pdf_pages(data) <= 4

    # The ranking for the wall: every line, on the planned pages.
    data, html = print_pdf(page, f"{base}/ranking/", f"ranking-{tables}")
    assert html.count('<td class="num rank">') == players
    assert "Classement final" in html or "Final ranking" in html
    expected = 1 + max(0, math.ceil((players - RANKING_FIRST_PAGE) / RANKING_NEXT_PAGES))
    assert pdf_pages(data) == expected

    # The frequency sheets: every deal (the event is finished), one or two to a page.
    data, html = print_pdf(page, f"{base}/frequencies/", f"frequencies-{tables}")
    sheets = html.split('class="page paper-frequencies-page"')[1:]
    per_sheet = [sheet.count('class="deal-sheet"') for sheet in sheets]
    played_sets = {play.deal_set for play in event.schedule.playing()}
    assert sum(per_sheet) == len(played_sets)  # one deal an étui
    assert all(1 <= deals <= 2 for deals in per_sheet)
    assert pdf_pages(data) == len(sheets)
    if tables == 5:
        assert per_sheet == [2, 2, 1]  # five tables a deal: two deals fit on a sheet

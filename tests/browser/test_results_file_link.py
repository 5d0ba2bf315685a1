"""The results file's link on the organiser's page of a finished event, in Chromium (issue 24):
visible inside the window on a phone (390 px) and a laptop (1366 px), no page wider than the
window, and both downloads start from it (French pages)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.factories import DEFAULT_PASSWORD, OrganiserFactory
from tests.scoring import results_file_world as world

WIDTHS = (390, 1366)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_results_file_link_shows_and_downloads(live_server, new_page: Any, width: int) -> None:
    event = world.individual_event()
    organiser = OrganiserFactory(clubs=[event.club])

    tab = new_page(viewport={"width": width, "height": 900}, locale="fr-FR", accept_downloads=True)
    tab.goto(f"{live_server.url}/login/?next=/organiser/")
    tab.fill("#id_username", organiser.username)
    tab.fill("#id_password", DEFAULT_PASSWORD)
    tab.click("#login-form button[type=submit]")
    tab.wait_for_url(re.compile(r"/organiser/$"))
    tab.goto(f"{live_server.url}/organiser/events/{event.pk}/")
    assert tab.evaluate("document.documentElement.lang") == "fr"

    item = tab.locator("#results-file")
    assert item.is_visible()
    box = item.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    with tab.expect_download() as csv_download:
        tab.click("#results-file-csv")
    expected = "results-tarot-club-de-lyon-individuel-de-decembre-2026-12-05.csv"
    assert csv_download.value.suggested_filename == expected
    with open(csv_download.value.path(), encoding="utf-8") as stream:
        assert stream.readline().startswith("format,event_id,event_name,")
    with tab.expect_download() as json_download:
        tab.click("#results-file-json")
    with open(json_download.value.path(), encoding="utf-8") as stream:
        assert json.load(stream)["format"] == "duplitarot-results/1"

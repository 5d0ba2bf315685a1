"""The paper score sheets printed by Chromium (issue 23): a round's sheets are one A4 page per
table that plays it, the screen-only toolbar left out."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.builders import running_event
from tests.factories import DEFAULT_PASSWORD, OrganiserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def test_a_round_s_sheets_print_one_a4_page_per_table(
    live_server: Any, new_page: Any, tmp_path: Path
) -> None:
    event = running_event(tables=7, rounds=6, deals_per_round=4)
    organiser = OrganiserFactory(clubs=[event.club])
    page = new_page(locale="fr-FR")
    page.goto(f"{live_server.url}/login/?next=/organiser/")
    page.fill("#id_username", organiser.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/organiser/$"))
    page.goto(f"{live_server.url}/organiser/events/{event.pk}/print/score-sheets/round/2/")
    assert page.locator("section.score-sheet").count() == 7
    pdf = page.pdf(format="A4", print_background=False)
    (tmp_path / "sheets.pdf").write_bytes(pdf)
    assert len(PAGE_OBJECT.findall(pdf)) == 7
    page.goto(f"{live_server.url}/organiser/events/{event.pk}/print/score-sheets/round/2/table/3/")
    assert len(PAGE_OBJECT.findall(page.pdf(format="A4"))) == 1

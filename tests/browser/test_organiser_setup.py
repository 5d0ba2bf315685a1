"""Browser walk-through of the organiser's setup (issue #4 acceptance).

An organiser logs in, creates a 7-table individual event, imports 28 players from a CSV file,
takes the proposed 7-table movement, generates the deals and opens the table cards: 7 cards,
each listing its seated players. Debian's Chromium (``apt-get install chromium``) is driven
headless by Playwright's sync API against pytest-django's ``live_server``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.factories import DEFAULT_PASSWORD, ClubFactory, OrganiserFactory
from tournaments.models import Deal, Entrant, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def players_csv(path: Path, count: int) -> Path:
    lines = ["last_name;first_name;licence;club;series"]
    lines += [
        f"Joueur{n:02d};Prénom{n:02d};{9_000_000 + n};Tarot Club de Lyon;{1 + n % 4}"
        for n in range(1, count + 1)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8-sig")
    return path


def test_organiser_creates_event_imports_players_and_prints_table_cards(
    live_server, new_page: Any, tmp_path: Path
) -> None:
    walk_through(new_page(locale="en-GB"), live_server.url, tmp_path)


def walk_through(page: Any, base: str, tmp_path: Path) -> None:
    club = ClubFactory(name="Tarot Club de Lyon")
    organiser = OrganiserFactory(username="orga", clubs=[club])

    # Log in (English interface).
    page.goto(f"{base}/en/login/?next=/en/organiser/")
    page.fill("#id_username", organiser.username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/en/organiser/$"))

    # Step 1: details.
    page.click("text=Create an event")
    page.fill("#id_name", "Open de Lyon")
    page.fill("#id_date", "2026-12-05")
    page.select_option("#id_club", str(club.pk))
    page.select_option("#id_format", "individual")
    page.fill("#id_deals_per_round", "2")
    page.click("#event-form button[type=submit]")
    page.wait_for_url(re.compile(r"/players/$"))
    event = Event.objects.get(name="Open de Lyon")
    assert event.club == club and event.status == Event.Status.DRAFT

    # Step 2: 28 players from a CSV file.
    page.set_input_files("#import-form input[type=file]", str(players_csv(tmp_path / "p.csv", 28)))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#import-report")
    assert "Every line was imported." in page.inner_text("#import-report")
    assert page.inner_text("#entrant-count") == "(28)"
    assert Entrant.objects.filter(event=event).count() == 28

    # Step 3: the proposed movement (7 tables), with its quality report.
    page.click("#next-step")
    page.wait_for_selector("#movement-preview")
    preview = page.inner_text("#movement-preview")
    assert "7 tables" in preview and "Every hard check passes." in preview
    page.click("#movement-form button[type=submit]")
    page.wait_for_url(re.compile(r"/deals/$"))
    event.refresh_from_db()
    assert event.movement["tables"] == 7

    # Step 4: seeded deals.
    page.fill("#deals-generate-form #id_seed", "2026")
    page.click("#deals-generate-form button[type=submit]")
    page.wait_for_url(re.compile(rf"/organiser/events/{event.pk}/$"))
    expected_deals = event.movement["deal_sets"] * event.deals_per_round
    assert Deal.objects.filter(event=event).count() == expected_deals
    assert "Everything is ready." in page.content()

    # Printing: the table cards.
    page.click("#print-tables")
    page.wait_for_selector("section.table-card")
    cards = page.locator("section.table-card")
    assert cards.count() == 7
    seated = {
        slot: str(entrant.player)
        for slot, entrant in (
            (e.slot, e) for e in Entrant.objects.filter(event=event).select_related("player")
        )
    }
    for index in range(7):
        card = cards.nth(index)
        table_number = int(card.get_attribute("data-table") or 0)
        assert table_number == index + 1
        text = card.inner_text()
        assert f"Table {table_number}" in text
        assert card.locator("svg").count() == 1  # the QR code of the table's entry URL
        seats = event.schedule.play(table=table_number, round=1).seats
        for seat in ("N", "E", "S", "W"):
            assert seated[seats[seat]] in text
    # Printed: one card per A4 page, screen-only parts hidden.
    page.emulate_media(media="print")
    assert (
        page.evaluate("getComputedStyle(document.querySelector('section.table-card')).breakAfter")
        == "page"
    )
    assert not page.is_visible(".print-toolbar")

"""The club's pages, "My events" and the round's entry grid at 390 px (a phone), in French: no
page wider than the window, and the columns and tabs a director needs on screen, not hidden
to the right of a scroller (the club tabs' "Organisateurs", the events' status, the grid's
columns after "Contrat")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.builders import running_event
from tests.factories import DEFAULT_PASSWORD, OrganiserFactory, PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = 390

# What sticks out of the window without a scroller of its own (for the failure's message).
CULPRITS_JS = """() => [...document.querySelectorAll('body *')]
  .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
  .filter(el => { for (let p = el.parentElement; p; p = p.parentElement)
      if (getComputedStyle(p).overflowX !== 'visible') return false; return true; })
  .slice(0, 4).map(el => el.tagName.toLowerCase() + '.' + el.className)"""

INSIDE_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(el => el.getClientRects().length)
  .filter(el => {
    const r = el.getBoundingClientRect();
    return r.left < -0.5 || r.right > window.innerWidth + 0.5;
  })
  .map(el => el.textContent.trim())"""


def test_the_club_pages_fit_a_phone(live_server: Any, new_page: Any) -> None:
    event = running_event(tables=3, rounds=2)
    club = event.club
    club.name = "Tarot Club de Villeurbanne-Saint-Jean"
    club.save()
    PlayerFactory(club=club, last_name="GUÉRIN-DESCHAMPS", first_name="Marie-Chloé")
    organiser = OrganiserFactory(clubs=[club])
    tab = new_page(viewport={"width": WIDTH, "height": 844}, locale="fr-FR")
    tab.goto(f"{live_server.url}/login/?next=/organiser/")
    tab.fill("#id_username", organiser.username)
    tab.fill("#id_password", DEFAULT_PASSWORD)
    tab.click("#login-form button[type=submit]")
    tab.wait_for_url(re.compile(r"/organiser/$"))

    pages = {
        "home": ("/organiser/", "table.events th, table.events td"),
        "club": (f"/organiser/clubs/{club.pk}/", "nav.tabs a"),
        "register": (f"/organiser/clubs/{club.pk}/register/", "nav.tabs a"),
        "organisers": (f"/organiser/clubs/{club.pk}/organisers/", "nav.tabs a"),
        "grid": (f"/organiser/events/{event.pk}/entry/round/1/", "form.grid-entry td[data-label]"),
    }
    for name, (path, selector) in pages.items():
        tab.goto(live_server.url + path)
        tab.screenshot(path=f"/tmp/club-width-{name}.png", full_page=True)
        width = tab.evaluate("document.documentElement.scrollWidth")
        assert width <= WIDTH, (name, width, tab.evaluate(CULPRITS_JS))
        assert tab.locator(selector).count() > 0, name
        assert tab.evaluate(INSIDE_JS, selector) == [], name

    tab.goto(f"{live_server.url}/organiser/events/{event.pk}/entry/round/1/")
    labels = tab.eval_on_selector_all(
        "form.grid-entry tbody tr:first-child td[data-label]",
        "els => els.map(e => e.dataset.label)",
    )
    assert labels == ["Donne", "Preneur", "Contrat", "Bouts", "Points", "Petit au bout"]
    tab.goto(f"{live_server.url}/organiser/")
    assert tab.get_by_text("En cours").first.is_visible()
    tab.goto(f"{live_server.url}/organiser/clubs/{club.pk}/")
    assert tab.locator("nav.tabs a", has_text="Organisateurs").is_visible()

"""No page is wider than a phone (issue #11): every public and organiser page at 390×844, French.

The demo (:func:`demo.services.build_demo`: a running individual event with results, a finished
triplette and quadrette, a simultaneous with its sections, a team-match cup and a free-deal
tournament) is built once in the served instance (``tests.browser.served``), then Chromium, on
the phones' address, visits
every page that ``manage.py screenshots`` knows (:data:`ROUTES`), logged in as the demo's
organiser, and checks that the document is no wider than the window
(``scrollWidth <= innerWidth``): a wide table scrolls inside its own box or reflows. The public
event menu must show every entry inside the window (nothing hidden in a scroller), and the
frequency sheet its values, marks and percentages. A first test checks that the page list
covers every named URL of the ``public``, ``organiser``, ``series``, ``teammatch`` (team-match
cups) and ``freedeal`` (free-deal tournaments) namespaces, or says why not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from demo.management.commands.screenshots import (
    EXCLUDED,
    ROUTES,
    demo_targets,
    site_pages,
)
from demo.services import DEMO_USERNAME, build_demo
from tests.browser.served import ServedInstance

PHONE = {"width": 390, "height": 844}
PASSWORD = "phone-width-demo"
NAMESPACES = ("public", "organiser", "series", "teammatch", "freedeal")

OVERFLOW_JS = """() => {
  const width = window.innerWidth;
  const root = document.documentElement;
  if (root.scrollWidth <= width) return null;
  const culprits = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.getBoundingClientRect().right <= width + 0.5) continue;
    let parent = el.parentElement, clipped = false;
    for (; parent; parent = parent.parentElement) {
      if (getComputedStyle(parent).overflowX !== 'visible') { clipped = true; break; }
    }
    const name = el.tagName.toLowerCase() + (el.className ? '.' + el.className : '');
    if (!clipped) culprits.push(name);
    if (culprits.length >= 3) break;
  }
  return root.scrollWidth + 'px: ' + culprits.join(', ');
}"""

# Elements that must lie inside the window, not only inside the page: a scroller hides them.
OUTSIDE_JS = """(selector) => {
  const width = window.innerWidth;
  return [...document.querySelectorAll(selector)]
    .filter(el => el.getClientRects().length)
    .filter(el => {
      const r = el.getBoundingClientRect();
      return r.left < -0.5 || r.right > width + 0.5;
    })
    .map(el => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40));
}"""


def _names(patterns: list[Any], namespace: str | None = None) -> Iterator[str]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _names(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name and namespace:
            yield f"{namespace}:{entry.name}"


def test_the_page_list_covers_every_public_and_organiser_url() -> None:
    named = {
        name for name in _names(get_resolver().url_patterns) if name.split(":")[0] in NAMESPACES
    }
    listed = {name for name in ROUTES if name.split(":")[0] in NAMESPACES}
    assert named - listed - set(EXCLUDED) == set(), "add these URLs to ROUTES or EXCLUDED"
    assert set(EXCLUDED) - named == set(), "excluded URLs that no longer exist"
    assert listed - named == set(), "listed URLs that no longer exist"
    assert listed & set(EXCLUDED) == set()
    assert all(reason.strip() for reason in EXCLUDED.values())


def the_demo() -> list[dict[str, str]]:
    """(In the instance) the demo, built; every page of :data:`ROUTES`, by name and path."""
    build_demo(password=PASSWORD)
    return [{"name": page.name, "path": page.path} for page in site_pages(demo_targets())]


@pytest.mark.browser
def test_no_public_or_organiser_page_is_wider_than_a_phone(
    served: ServedInstance, new_page: Any
) -> None:
    pages = served.call(the_demo)
    assert {page["name"] for page in pages} == set(ROUTES)
    base = served.phone_url

    tab = new_page(viewport=PHONE, locale="fr-FR")
    tab.goto(f"{base}/login/?next=/organiser/")
    tab.fill("#id_username", DEMO_USERNAME)
    tab.fill("#id_password", PASSWORD)
    tab.click("#login-form button[type=submit]")
    tab.wait_for_url(re.compile(r"/organiser/$"))
    assert tab.evaluate("document.documentElement.lang") == "fr"

    problems: list[str] = []
    for page in pages:
        path, name = page["path"], page["name"]
        response = tab.goto(base + path)
        assert response is not None
        if response.status != 200:
            problems.append(f"{path} ({name}): HTTP {response.status}")
            continue
        assert tab.evaluate("window.innerWidth") == PHONE["width"]
        overflow = tab.evaluate(OVERFLOW_JS)
        if overflow is not None:
            problems.append(f"{path} ({name}): {overflow}")
        hidden = tab.evaluate(OUTSIDE_JS, ".event-nav a")
        if hidden:
            problems.append(f"{path}: event menu entries outside the window: {hidden}")
        if name == "public:deal":
            cells = tab.evaluate(OUTSIDE_JS, "table.frequency td")
            if cells:
                problems.append(f"{path}: frequency cells outside the window: {cells}")
    assert problems == [], "\n".join(problems)

    # The checks saw what they are about: the menu's Players entry, a frequency sheet's marks.
    tab.goto(base + next(p["path"] for p in pages if p["name"] == "public:ranking"))
    assert tab.locator(".event-nav a", has_text="Joueurs").is_visible()
    tab.goto(base + next(p["path"] for p in pages if p["name"] == "public:deal"))
    assert tab.locator("table.frequency td").count() > 0

"""One team's quadrette match sheets fit in two phone screens (issue 24).

The page of every match of an 8-team quadrette (7 rounds of 3 deals, as the demo's) was about
10,800 px tall at 390 px; a team now chooses its own matches (``?team=<id>``), which must fit in
two screens of 844 px, the page no wider than the phone. Debian's Chromium, headless, against
the served instance (``tests.browser.served``).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.served import ServedInstance
from tests.builders import team_event
from tournaments.models import Event, Team

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def a_quadrette() -> dict[str, int]:
    """(In the instance) an 8-team quadrette, 3 deals a round; its first team."""
    event = team_event(format=Event.Format.QUADRETTE, teams=8, deals_per_round=3)
    team = Team.objects.filter(event=event).order_by("pk").first()
    assert team is not None
    return {"event": event.pk, "team": team.pk}


def test_one_teams_match_sheets_fit_in_two_phone_screens(
    served: ServedInstance, new_page: Any
) -> None:
    built = served.call(a_quadrette)
    event, team = built["event"], built["team"]
    page = new_page(viewport=PHONE, locale="fr-FR")
    page.goto(f"{served.phone_url}/events/{event}/matches/")
    # The choice of a team, at the top of the page, leads to its own sheets.
    page.select_option("#team-choice", str(team))
    page.click("form.team-choice button[type=submit]")
    page.wait_for_url(f"**/events/{event}/matches/?team={team}")
    assert page.locator(".card.match").count() == 7  # one match a round
    height = page.evaluate("() => document.documentElement.scrollHeight")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    assert height <= 2 * PHONE["height"], height
    # Every figure is signed with a real minus sign.
    text = page.locator("main").inner_text()
    assert " -" not in text.replace(" - ", "")

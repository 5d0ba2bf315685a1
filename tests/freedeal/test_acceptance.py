"""Acceptance: 14 players through the app (services for the set-up, the table phones' pages for
the results), tables of 5, 5 and 4 in every party, nobody meeting anyone more often than
necessary, and a ranking (page, selectors, API) equal to the sum of the stored marks."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from django.test import Client
from django.urls import reverse

from demo.free_deals import simulated_entry
from freedeal import outcomes, services
from freedeal.models import FreeDealResult
from freedeal.seating import meeting_bound, meeting_counts
from freedeal.selectors import free_deal_ranking
from tests.freedeal.conftest import make_tournament

pytestmark = pytest.mark.django_db


def post_data(deal: int, entry: dict) -> dict[str, str]:
    """The table phone's form fields for a simulated entry."""
    prefix = f"d{deal}-"
    data = {prefix + "contract": entry["contract"]}
    if entry["contract"] == outcomes.PASSED:
        return data
    data |= {
        prefix + "taker": str(entry["taker"]),
        prefix + "oudlers": str(entry["oudlers"]),
        prefix + "points": str(entry["points"]),
        prefix + "petit_au_bout": entry.get("petit_au_bout") or "",
    }
    if "partner" in entry:
        data[prefix + "partner"] = str(entry["partner"])
    for slot, poignee in enumerate(entry.get("poignees") or [], start=1):
        data[f"{prefix}poignee_{slot}_side"] = poignee["side"]
        data[f"{prefix}poignee_{slot}_size"] = poignee["size"]
    chelem = entry.get("chelem") or {}
    if chelem.get("announced"):
        data[prefix + "chelem_announced"] = "on"
    data[prefix + "chelem_made_by"] = chelem.get("made_by") or ""
    petit = entry.get("petit_chelem") or {}
    if petit.get("announced"):
        data[prefix + "petit_chelem_announced"] = "on"
    if petit.get("made"):
        data[prefix + "petit_chelem_made"] = "on"
    return data


@pytest.mark.parametrize("rules", [{"name": "fft"}, {"name": "traditional"}])
def test_fourteen_players_through_the_app(club, players, rules) -> None:
    tournament = make_tournament(club, players, 14, seed=5, ruleset=rules)
    seating = tournament.seating
    assert len(seating) == 5
    for party in seating:
        assert [len(table) for table in party] == [5, 5, 4]
        assert sorted(n for table in party for n in table) == list(range(1, 15))
    assert max(meeting_counts(seating).values()) == meeting_bound(14, 5)

    phone = Client()
    rng = random.Random(42)
    tables = list(tournament.tables.order_by("number"))
    for party in range(1, 6):
        for table in tables:
            seated = tournament.table_players(party, table.number)
            for deal in range(1, 5):
                entry = simulated_entry(tournament, seated, deal, rng)
                url = reverse("freedeal:table_deal", args=[table.code, deal])
                response = phone.post("/en" + url.removeprefix("/en"), post_data(deal, entry))
                assert response.status_code == 302, response.content.decode()[:3000]
        services.free_deal_party_close(tournament=tournament)
        tournament.refresh_from_db()
    services.free_deal_finish(tournament=tournament)
    tournament.refresh_from_db()

    # Independently: every player's marks from the stored results.
    per_party: dict[int, list[int]] = defaultdict(lambda: [0] * 5)
    for result in FreeDealResult.objects.filter(tournament=tournament):
        seated = tournament.table_players(result.party, result.table.number)
        assert sorted(int(n) for n in result.marks) == sorted(seated)
        assert sum(result.marks.values()) == 0
        for number, mark in result.marks.items():
            per_party[int(number)][result.party - 1] += mark
    assert FreeDealResult.objects.filter(tournament=tournament).count() == 5 * 3 * 4
    totals = {number: sum(marks) for number, marks in per_party.items()}

    rows = free_deal_ranking(tournament).rows
    assert {row.player: row.total for row in rows} == totals
    assert {row.player: list(row.parties) for row in rows} == dict(per_party)
    assert [row.total for row in rows] == sorted(totals.values(), reverse=True)

    api = Client().get(reverse("api:free_deal_ranking", args=[tournament.pk])).json()
    assert not api["provisional"]
    assert {line["number"]: line["total"] for line in api["ranking"]} == totals

    page = Client().get(f"/en/free-deal/{tournament.pk}/")
    assert page.status_code == 200
    body = page.content.decode()
    best = max(totals, key=lambda n: totals[n])
    assert f"<strong>{totals[best]}</strong>" in body

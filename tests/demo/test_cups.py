"""The demonstration cup (demo.cups): built through the services from simulated plays."""

from __future__ import annotations

import datetime

import pytest

from demo.cups import build_demo
from teammatch import selectors
from teammatch.models import CupMatch, QuarterLineup, RoomResult
from tests.teammatch.worlds import club_with_players

pytestmark = pytest.mark.django_db


def test_demo_cup():
    club, players, _ = club_with_players(22)
    cup = build_demo(club=club, players=players, seed=3, today=datetime.date(2026, 11, 22))
    assert cup.public and cup.status == "running"
    semis = CupMatch.objects.filter(cup=cup, round=1)
    assert all(m.status == "finished" and m.winner_id for m in semis)
    final = CupMatch.objects.get(cup=cup, round=2)
    assert final.status == "playing" and final.quarter == 3
    assert {final.team_a_id, final.team_b_id} == {m.winner_id for m in semis}
    # substitutes came in: some team fields different players in quarters 1 and 2
    lineups = QuarterLineup.objects.filter(match=final).order_by("quarter")
    seated = [{getattr(lu, f"{n}_id") for n in lu.SEAT_FIELDS} for lu in lineups]
    assert seated[0] != seated[1]
    # the third quarter: 2 deals in both rooms, 2 more in the open room only
    public = selectors.match_sheet(final, directs=False)
    assert public.counted == 2 * 6 + 2 and public.total == 24
    assert RoomResult.objects.filter(match=final, deal__quarter=3).count() == 6
    for match in semis:
        assert match.pm_a == selectors.match_sheet(match, directs=False).pm_a

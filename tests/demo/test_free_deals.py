"""The demo free-deal tournament: played through the services with the rules engine's
outcomes."""

from __future__ import annotations

import pytest

from clubs.models import Club, Player
from clubs.register import register_player_add
from demo.free_deals import build_demo
from freedeal.models import FreeDealResult, FreeDealTournament
from freedeal.selectors import free_deal_ranking
from tests.freedeal.conftest import TODAY

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Tarot Club de Test", city="Lyon")


@pytest.fixture
def players(club: Club) -> list[Player]:
    return [
        register_player_add(club=club, first_name=f"Joueur{n}", last_name=f"Nom{n:02d}").player
        for n in range(1, 21)
    ]


def test_demo_is_a_late_running_public_tournament(club, players) -> None:
    tournament = build_demo(club=club, players=players, seed=3, today=TODAY)
    assert tournament.public and tournament.status == FreeDealTournament.Status.RUNNING
    assert tournament.open_party == 5 and tournament.closed_parties == 4
    assert [t.size for t in tournament.tables.order_by("number")] == [5, 5, 4]
    results = FreeDealResult.objects.filter(tournament=tournament)
    assert results.filter(party__lte=4).count() == 4 * 3 * 4
    for result in results:
        assert sum(result.marks.values()) == 0
        assert len(result.marks) == result.table.size
    assert results.exclude(value=0).exists()
    rows = free_deal_ranking(tournament).rows
    assert len(rows) == 14 and rows[0].total >= rows[-1].total

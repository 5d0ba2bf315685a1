"""Acceptance: a 4-team knockout cup (two semi-finals, a final) played through the services.

Rosters of 4 to 6 players, substitutions between quarters, every deal entered from the room
phones' service; every quarter's PM is checked against a hand computation (net = 3·(v_open −
v_closed) per deal, PM by the scale), and invalid line-ups are refused with a clear message.
"""

from __future__ import annotations

import pytest

from clubs.errors import DomainError
from teammatch import selectors, services
from teammatch.models import Cup, CupMatch, MatchDeal, MatchRoom
from tests.teammatch.worlds import (
    club_with_players,
    cup_with_teams,
    feasible,
    hand_pm,
    hand_value,
    members,
    seats_for,
)

pytestmark = pytest.mark.django_db

CONTRACTS = ("garde", "garde_sans", "garde_contre")


def rotated(players: list, quarter: int) -> list:
    """The 4 players a team fields in ``quarter``: its roster rotated (substitutes come in)."""
    shift = (quarter - 1) % len(players)
    return (players[shift:] + players[:shift])[:4]


def play_quarter(match: CupMatch, quarter: int, plan) -> tuple[int, int]:
    """Enter every deal of ``quarter`` in both rooms (``plan(deal_index) -> ((c, p), (c, p))``)
    and return the hand-computed (net, PM) of the quarter for team A."""
    rooms = {room.room: room for room in MatchRoom.objects.filter(match=match)}
    net_total = pm_total = 0
    deals = MatchDeal.objects.filter(match=match, quarter=quarter).order_by("number")
    for deal in deals:
        (c_open, p_open), (c_closed, p_closed) = plan(deal.number)
        open_outcome = feasible(deal, c_open, p_open)
        closed_outcome = feasible(deal, c_closed, p_closed)
        services.room_result_enter(
            room=rooms["open"], deal_number=deal.number, outcome=open_outcome
        )
        services.room_result_enter(
            room=rooms["closed"], deal_number=deal.number, outcome=closed_outcome
        )
        v_open = hand_value(*(open_outcome[k] for k in ("contract", "oudlers", "points")))
        v_closed = hand_value(*(closed_outcome[k] for k in ("contract", "oudlers", "points")))
        net = 3 * (v_open - v_closed)
        net_total += net
        pm_total += hand_pm(net)
    return net_total, pm_total


def varied(seed: int):
    def plan(number: int):
        k = number * 7 + seed
        return (
            (CONTRACTS[k % 3], 30 + (k * 13) % 50),
            (CONTRACTS[(k // 3) % 3], 30 + (k * 29) % 50),
        )

    return plan


def play_match(match: CupMatch, plan) -> list[tuple[int, int]]:
    a, b = members(match.team_a), members(match.team_b)
    expected = []
    for quarter in range(1, 5):
        services.match_lineup_set(
            match=match,
            quarter=quarter,
            seats=seats_for(match, rotated(a, quarter), rotated(b, quarter)),
        )
        expected.append(play_quarter(match, quarter, plan))
        sheet = selectors.match_sheet(CupMatch.objects.get(pk=match.pk), directs=False)
        assert sheet.quarters[quarter - 1].pm_a == expected[-1][1]
        assert sheet.quarters[quarter - 1].net_a == expected[-1][0]
        if quarter < 4:
            services.match_quarter_close(match=match, quarter=quarter)
    return expected


def test_four_team_knockout_with_substitutions_and_hand_computed_pm():
    club, players, _ = club_with_players(20)
    cup, _teams = cup_with_teams(club, players, (6, 5, 4, 5), deals_per_quarter=3)
    services.cup_start(cup=cup)
    semis = list(CupMatch.objects.filter(cup=cup, round=1).order_by("slot"))
    final = CupMatch.objects.get(cup=cup, round=2)
    # standard seeding: 1 v 4, 2 v 3; the final waits
    assert [(m.team_a.name, m.team_b.name) for m in semis] == [
        ("Team 1", "Team 4"),
        ("Team 2", "Team 3"),
    ]
    assert final.status == CupMatch.Status.WAITING and final.team_a is None
    assert not MatchDeal.objects.filter(match=final).exists()

    # invalid line-ups are refused with a message naming the player and seat
    semi = semis[0]
    a, b = members(semi.team_a), members(semi.team_b)
    bad = seats_for(semi, a, b)
    bad["open_defender_1"] = a[4]  # a team 1 player in a team 4 seat
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=semi, quarter=1, seats=bad)
    assert refused.value.code == "lineup_wrong_team"
    assert refused.value.field == "open_defender_1"
    assert str(a[4]) in refused.value.message and "defender seat of team Team 4" in (
        refused.value.message
    )
    twice = seats_for(semi, a, b)
    twice["closed_defender_3"] = a[0]
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=semi, quarter=1, seats=twice)
    assert refused.value.code == "lineup_player_twice"
    assert f"{a[0]} is seated twice" in refused.value.message

    results = {}
    for semi, seed in zip(semis, (1, 2), strict=True):
        expected = play_match(semi, varied(seed))
        result = services.match_finish(match=semi)
        assert [(q.net_a, q.pm_a) for q in result.quarters] == expected
        assert result.pm_a == sum(pm for _, pm in expected)
        results[semi.slot] = result

    final.refresh_from_db()
    assert final.status == CupMatch.Status.PLAYING
    assert final.team_a.name == results[0].winner and final.team_b.name == results[1].winner
    assert MatchDeal.objects.filter(match=final).count() == 12
    expected = play_match(final, varied(5))
    champion = services.match_finish(match=final)
    assert [(q.net_a, q.pm_a) for q in champion.quarters] == expected
    final.refresh_from_db()
    assert final.winner.name == champion.winner
    services.cup_finish(cup=cup)
    assert Cup.objects.get(pk=cup.pk).status == Cup.Status.FINISHED


def test_substitution_between_quarters_only():
    club, players, _ = club_with_players(12)
    cup, _teams = cup_with_teams(club, players, (6, 6), deals_per_quarter=1)
    services.cup_start(cup=cup)
    match = CupMatch.objects.get(cup=cup)
    a, b = members(match.team_a), members(match.team_b)
    services.match_lineup_set(match=match, quarter=1, seats=seats_for(match, a, b))
    play_quarter(match, 1, varied(0))
    # the quarter has results: its line-up is fixed
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=match, quarter=1, seats=seats_for(match, a[2:], b))
    assert refused.value.code == "quarter_started"
    services.match_quarter_close(match=match, quarter=1)
    # between quarters two substitutes of A come in
    lineup = services.match_lineup_set(match=match, quarter=2, seats=seats_for(match, a[2:], b))
    assert lineup.open_taker == a[2]
    assert {lineup.closed_defender_2, lineup.closed_defender_3} == {a[4], a[5]}
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=match, quarter=1, seats=seats_for(match, a, b))
    assert refused.value.code == "quarter_played"

"""Cup services: rosters, line-ups, room results, quarters, finishing (tie-breaks) and the
bracket with a bye."""

from __future__ import annotations

import pytest

from clubs.errors import DomainError
from teammatch import services
from teammatch.models import Cup, CupMatch, MatchDeal, MatchRoom, RoomResult
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


def two_teams(**options):
    club, players, organiser = club_with_players(10)
    cup, _teams = cup_with_teams(club, players, (5, 5), deals_per_quarter=1, **options)
    services.cup_start(cup=cup)
    return cup, CupMatch.objects.get(cup=cup), organiser


def play(match, quarter, open_outcome, closed_outcome):
    """Set quarter's line-up, enter its one deal in both rooms (outcomes: deal → dict)."""
    rooms = {r.room: r for r in MatchRoom.objects.filter(match=match)}
    a, b = members(match.team_a), members(match.team_b)
    services.match_lineup_set(match=match, quarter=quarter, seats=seats_for(match, a, b))
    deal = MatchDeal.objects.get(match=match, quarter=quarter)
    first = open_outcome(deal)
    services.room_result_enter(room=rooms["open"], deal_number=deal.number, outcome=first)
    second = closed_outcome(deal, first)
    services.room_result_enter(room=rooms["closed"], deal_number=deal.number, outcome=second)
    if quarter < 4:
        services.match_quarter_close(match=match, quarter=quarter)
    return first, second


def same(deal, first):
    return first


def test_roster_refusals():
    club, players, _ = club_with_players(12)
    cup, _teams = cup_with_teams(club, players, (4,))
    with pytest.raises(DomainError) as refused:
        services.cup_team_add(cup=cup, name="Big", players=players[4:11])
    assert refused.value.code == "roster_size"
    assert "team Big has 7 players; a team has 4 to 6 players" in refused.value.message
    with pytest.raises(DomainError) as refused:
        services.cup_team_add(cup=cup, name="Thief", players=players[3:7])
    assert refused.value.code == "roster_shared_player"
    assert f"{players[3]} is in both teams Thief and Team 1" in refused.value.message
    with pytest.raises(DomainError) as refused:
        services.cup_team_add(cup=cup, name="Team 1", players=players[4:8])
    assert refused.value.code == "team_name_taken"
    with pytest.raises(DomainError) as refused:
        services.cup_team_add(cup=cup, name="Lone", players=players[8:11])
    assert refused.value.code == "roster_size"
    with pytest.raises(DomainError) as refused:
        services.cup_start(cup=cup)
    assert refused.value.code == "bracket_too_few_teams"
    assert Cup.objects.get(pk=cup.pk).status == Cup.Status.DRAFT


def test_lineup_refusals_name_the_seat():
    _cup, match, _ = two_teams()
    a, b = members(match.team_a), members(match.team_b)
    empty = seats_for(match, a, b)
    empty["closed_taker"] = None
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=match, quarter=1, seats=empty)
    assert refused.value.code == "lineup_seat_empty"
    assert refused.value.message == "quarter 1: the taker seat in the closed room is empty"
    assert refused.value.field == "closed_taker"
    _club2, others, _ = club_with_players(4, name="Elsewhere")
    stranger = seats_for(match, a, b)
    stranger["open_defender_3"] = others[0]
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=match, quarter=1, seats=stranger)
    assert refused.value.code == "lineup_unknown_player"
    # two players share a name: the id tells them apart
    assert f"{others[0]} ({others[0].pk}) (defender in the open room) is not on the " in (
        refused.value.message
    )


def test_room_entry_needs_an_open_quarter_with_a_lineup():
    _cup, match, _ = two_teams()
    rooms = {r.room: r for r in MatchRoom.objects.filter(match=match)}
    deal = MatchDeal.objects.get(match=match, number=1)
    with pytest.raises(DomainError) as refused:
        services.room_result_enter(
            room=rooms["open"], deal_number=1, outcome=feasible(deal, "garde", 50)
        )
    assert refused.value.code == "no_lineup"
    with pytest.raises(DomainError) as refused:
        services.match_quarter_close(match=match, quarter=1)
    assert refused.value.code == "no_lineup"
    services.match_lineup_set(
        match=match, quarter=1, seats=seats_for(match, members(match.team_a), members(match.team_b))
    )
    with pytest.raises(DomainError) as refused:
        services.room_result_enter(
            room=rooms["open"],
            deal_number=1,
            outcome={**feasible(deal, "garde", 50), "contract": "prise"},
        )
    assert refused.value.field == "contract"
    services.room_result_enter(
        room=rooms["open"], deal_number=1, outcome=feasible(deal, "garde", 50)
    )
    with pytest.raises(DomainError) as refused:
        services.match_quarter_close(match=match, quarter=1)
    assert refused.value.code == "results_missing"
    assert "deal 1 in the closed room" in refused.value.message
    services.room_result_enter(
        room=rooms["closed"], deal_number=1, outcome=feasible(deal, "garde", 60)
    )
    services.match_quarter_close(match=match, quarter=1)
    # closed: the phone can no longer correct (another outcome is a conflict showing the
    # stored result); the director can, with a reason
    with pytest.raises(DomainError) as refused:
        services.room_result_enter(
            room=rooms["closed"], deal_number=1, outcome=feasible(deal, "garde", 30)
        )
    assert refused.value.code == "result_exists"
    with pytest.raises(DomainError) as refused:
        services.room_result_table_correct(
            room=rooms["closed"], deal_number=1, outcome=feasible(deal, "garde", 30)
        )
    assert refused.value.code == "deal_not_in_quarter"
    with pytest.raises(DomainError) as refused:
        services.room_result_director_correct(
            match=match,
            room="closed",
            deal_number=1,
            outcome=feasible(deal, "garde", 30),
            actor=None,
            reason=" ",
        )
    assert refused.value.code == "reason_required"
    corrected = services.room_result_director_correct(
        match=match,
        room="closed",
        deal_number=1,
        outcome=feasible(deal, "garde", 30),
        actor=None,
        reason="wrong points",
    )
    assert corrected.entered_by_director and corrected.history.count() == 2
    assert RoomResult.objects.get(pk=corrected.pk).points == 30


def test_finish_needs_every_deal():
    _cup, match, _ = two_teams()
    with pytest.raises(DomainError) as refused:
        services.match_finish(match=match)
    assert refused.value.code == "results_missing"


def drawn_match(order):
    """A Garde made by 75 - shift points in the closed room (B takes) against 75 in the open
    room (A takes): quarter 1 shift 10 → A's net 3·2·10 = +60 (2 PM), quarter 4 shift -9 →
    -54 (-2 PM), quarters 2 and 3 the same outcome in both rooms. PM 0, net +6 for A."""
    _cup, match, _ = two_teams(tie_break=order)
    net = pm = 0
    for quarter in range(1, 5):
        shift = {1: 10, 4: -9}.get(quarter, 0)
        first, second = play(
            match,
            quarter,
            lambda d: feasible(d, "garde", 75),
            lambda d, first, shift=shift: {**first, "points": first["points"] - shift},
        )
        v_open = hand_value(first["contract"], first["oudlers"], first["points"])
        v_closed = hand_value(second["contract"], second["oudlers"], second["points"])
        net += 3 * (v_open - v_closed)
        pm += hand_pm(3 * (v_open - v_closed))
    assert (net, pm) == (6, 0)
    return match, services.match_finish(match=match)


def test_drawn_match_decided_by_net_first():
    match, result = drawn_match("net,last_quarter")
    assert (result.pm_a, result.net_a, result.decided_by) == (0, 6, "net")
    assert result.winner == match.team_a.name
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id and match.decided_by == "net"


def test_drawn_match_decided_by_last_quarter_first():
    match, result = drawn_match("last_quarter,net")
    assert (result.pm_a, result.decided_by) == (0, "last_quarter")
    assert result.winner == match.team_b.name  # B won the last quarter by 2 PM
    match.refresh_from_db()
    assert match.winner_id == match.team_b_id


def test_all_equal_goes_to_the_seeded_coin():
    _cup, match, _ = two_teams()
    for quarter in range(1, 5):
        play(match, quarter, lambda d: feasible(d, "garde", 60), same)
    result = services.match_finish(match=match)
    assert (result.pm_a, result.net_a, result.decided_by) == (0, 0, "coin")
    assert result.winner in {match.team_a.name, match.team_b.name}


def test_three_teams_bye_then_final():
    club, players, _ = club_with_players(12)
    cup, _teams = cup_with_teams(club, players, (4, 4, 4), deals_per_quarter=1)
    services.cup_start(cup=cup)
    first = list(CupMatch.objects.filter(cup=cup, round=1).order_by("slot"))
    final = CupMatch.objects.get(cup=cup, round=2)
    # seeds 1 v bye (4), 2 v 3: seed 1 goes through to the final
    assert first[0].bye and first[0].winner.name == "Team 1" and first[0].status == "finished"
    assert final.team_a.name == "Team 1" and final.team_b is None and final.status == "waiting"
    semi = first[1]
    for quarter in range(1, 5):
        play(
            semi, quarter, lambda d: feasible(d, "garde", 70), lambda d, f: feasible(d, "garde", 45)
        )
    result = services.match_finish(match=semi)
    assert result.decided_by == "pm" and result.winner == "Team 2"  # A made more in its room
    final.refresh_from_db()
    assert final.team_b.name == "Team 2" and final.status == "playing"
    assert MatchDeal.objects.filter(match=final).count() == 4
    with pytest.raises(DomainError) as refused:
        services.match_finish(match=semi)
    assert refused.value.code == "match_not_playing"
    with pytest.raises(DomainError) as refused:
        services.cup_finish(cup=cup)
    assert refused.value.code == "matches_unfinished"

"""Every cup service: its success, and each refusal with its code, changing nothing stored."""

from __future__ import annotations

import datetime

import pytest

from clubs.errors import DomainError
from teammatch import services
from teammatch.models import (
    Cup,
    CupMatch,
    CupTeam,
    CupTeamPlayer,
    MatchDeal,
    MatchRoom,
    QuarterLineup,
    RoomResult,
)
from tests.factories import ClubFactory, CupFactory, CupTeamFactory, PlayerFactory
from tests.teammatch.worlds import (
    SCALE,
    feasible,
    lineup,
    members,
    running_match,
    seats_for,
    stored_state,
)

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 11, 21)


# ---------------------------------------------------------------------------------- cup_create


def test_cup_create_makes_a_draft_cup_with_the_usual_scale():
    club = ClubFactory()
    cup = services.cup_create(club=club, name="  Coupe  ", date=DATE, deals_per_quarter=4)
    assert (cup.name, cup.status, cup.public, cup.deals_per_quarter) == ("Coupe", "draft", False, 4)
    assert tuple(cup.pm_scale) == SCALE
    assert cup.tie_break == Cup.TieBreakOrder.NET_FIRST


def test_cup_create_keeps_the_given_scale_and_tie_break():
    cup = services.cup_create(
        club=ClubFactory(),
        name="Interclubs",
        date=DATE,
        pm_scale=[10, 30, 60],
        tie_break=Cup.TieBreakOrder.LAST_QUARTER_FIRST,
        deal_seed=3,
        tie_break_seed=4,
    )
    assert cup.pm_scale == [10, 30, 60] and cup.tie_break == "last_quarter,net"
    assert (cup.deal_seed, cup.tie_break_seed) == (3, 4)


@pytest.mark.parametrize(
    ("options", "code", "field"),
    [
        ({"name": " "}, "name_required", "name"),
        ({"deals_per_quarter": 0}, "deals_per_quarter", "deals_per_quarter"),
        ({"deals_per_quarter": 13}, "deals_per_quarter", "deals_per_quarter"),
        ({"tie_break": "coin"}, "tie_break", "tie_break"),
        ({"pm_scale": [50, 20]}, "pm_scale", "pm_scale"),
        ({"pm_scale": ["x"]}, "pm_scale", "pm_scale"),
    ],
)
def test_cup_create_refusals(options, code, field):
    arguments = {"club": ClubFactory(), "name": "Coupe", "date": DATE, **options}
    with pytest.raises(DomainError) as refused:
        services.cup_create(**arguments)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert not Cup.objects.exists()


# ----------------------------------------------------------------------- cup_team_add / update


def test_cup_team_add_seeds_the_teams_in_order():
    cup = CupFactory()
    players = [PlayerFactory(club=cup.club) for _ in range(9)]
    first = services.cup_team_add(cup=cup, name=" Les Bouts ", players=players[:4])
    second = services.cup_team_add(cup=cup, name="Excuses", players=players[4:])
    assert (first.name, first.seed, second.seed) == ("Les Bouts", 1, 2)
    assert {m.player for m in second.members.all()} == set(players[4:])


@pytest.mark.parametrize(
    ("name", "take", "code"),
    [
        ("", slice(4, 8), "name_required"),
        ("Team 1", slice(4, 8), "team_name_taken"),
        ("New", slice(4, 7), "roster_size"),
        ("New", slice(4, 11), "roster_size"),
        ("New", slice(3, 7), "roster_shared_player"),
    ],
)
def test_cup_team_add_refusals(name, take, code):
    cup = CupFactory()
    players = [PlayerFactory(club=cup.club) for _ in range(11)]
    CupTeamFactory(cup=cup, players=players[:4])
    with pytest.raises(DomainError) as refused:
        services.cup_team_add(cup=cup, name=name, players=players[take])
    assert refused.value.code == code
    assert CupTeam.objects.filter(cup=cup).count() == 1


def test_cup_team_update_renames_and_replaces_the_roster():
    cup = CupFactory()
    team = CupTeamFactory(cup=cup)
    others = [PlayerFactory(club=cup.club) for _ in range(5)]
    services.cup_team_update(team=team, name="Renamed", players=others)
    team.refresh_from_db()
    assert team.name == "Renamed"
    assert set(CupTeamPlayer.objects.filter(team=team).values_list("player", flat=True)) == {
        p.pk for p in others
    }


def test_cup_team_update_keeps_its_own_name_but_not_anothers():
    cup = CupFactory()
    first, second = CupTeamFactory(cup=cup), CupTeamFactory(cup=cup)
    roster = [m.player for m in first.members.all()]
    services.cup_team_update(team=first, name=first.name, players=roster)
    with pytest.raises(DomainError) as refused:
        services.cup_team_update(team=first, name=second.name, players=roster)
    assert refused.value.code == "team_name_taken"
    first.refresh_from_db()
    assert first.name == "Team 1"


def test_teams_are_fixed_once_the_cup_started():
    running = running_match()
    team = running.match.team_a
    roster = [m.player for m in team.members.all()]
    with pytest.raises(DomainError) as refused:
        services.cup_team_update(team=team, name="Other", players=roster)
    assert refused.value.code == "cup_started"
    newcomers = [PlayerFactory(club=running.cup.club) for _ in range(4)]
    with pytest.raises(DomainError) as refused:
        services.cup_team_add(cup=running.cup, name="Late", players=newcomers)
    assert refused.value.code == "cup_started"
    assert CupTeam.objects.filter(cup=running.cup).count() == 2


# ------------------------------------------------------------------------- cup_start / finish


def test_cup_start_opens_the_matches_with_their_deals_and_two_rooms():
    cup = CupFactory(deals_per_quarter=3)
    CupTeamFactory(cup=cup)
    CupTeamFactory(cup=cup)
    started = services.cup_start(cup=cup)
    assert started.status == Cup.Status.RUNNING
    match = CupMatch.objects.get(cup=cup)
    assert (match.status, match.quarter) == (CupMatch.Status.PLAYING, 1)
    deals = list(MatchDeal.objects.filter(match=match).order_by("number"))
    assert [d.quarter for d in deals] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    rooms = MatchRoom.objects.filter(match=match)
    assert sorted(r.room for r in rooms) == ["closed", "open"]
    assert len({r.code for r in rooms}) == 2


def test_cup_start_refusals():
    cup = CupFactory()
    CupTeamFactory(cup=cup)
    with pytest.raises(DomainError) as refused:
        services.cup_start(cup=cup)
    assert refused.value.code == "bracket_too_few_teams"
    assert not CupMatch.objects.filter(cup=cup).exists()
    CupTeamFactory(cup=cup)
    services.cup_start(cup=cup)
    with pytest.raises(DomainError) as refused:
        services.cup_start(cup=cup)
    assert refused.value.code == "cup_started"
    assert CupMatch.objects.filter(cup=cup).count() == 1


def test_cup_finish_refusals():
    cup = CupFactory()
    with pytest.raises(DomainError) as refused:
        services.cup_finish(cup=cup)
    assert refused.value.code == "cup_not_running"
    running = running_match()
    with pytest.raises(DomainError) as refused:
        services.cup_finish(cup=running.cup)
    assert refused.value.code == "matches_unfinished"
    assert Cup.objects.get(pk=running.cup.pk).status == Cup.Status.RUNNING


def _play_to_the_end(running):
    match = running.match
    a, b = members(match.team_a), members(match.team_b)
    for quarter in range(1, 5):
        if quarter > 1:
            lineup(match, quarter, a, b)
        for number in (2 * quarter - 1, 2 * quarter):
            running.enter("open", number, "garde", 60)
            running.enter("closed", number, "garde", 40)
        if quarter < 4:
            services.match_quarter_close(match=match, quarter=quarter)


def test_cup_finish_once_every_match_is_finished():
    running = running_match()
    _play_to_the_end(running)
    result = services.match_finish(match=running.match)
    running.refresh()
    assert running.match.status == CupMatch.Status.FINISHED
    assert running.match.pm_a == result.pm_a and running.match.decided_by == result.decided_by
    assert not QuarterLineup.objects.filter(match=running.match, closed=False).exists()
    services.cup_finish(cup=running.cup)
    assert Cup.objects.get(pk=running.cup.pk).status == Cup.Status.FINISHED
    with pytest.raises(DomainError) as refused:
        services.cup_finish(cup=running.cup)
    assert refused.value.code == "cup_not_running"


# --------------------------------------------------------------------------- match_lineup_set


def test_match_lineup_set_replaces_the_quarters_lineup_until_its_first_result():
    running = running_match()
    match = running.match
    a, b = members(match.team_a), members(match.team_b)
    swapped = seats_for(match, [a[1], a[0], a[2], a[3]], b)
    changed = services.match_lineup_set(match=match, quarter=1, seats=swapped)
    assert changed.open_taker == a[1]
    assert QuarterLineup.objects.filter(match=match, quarter=1).count() == 1
    running.enter("open", 1)
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=match, quarter=1, seats=seats_for(match, a, b))
    assert refused.value.code == "quarter_started" and refused.value.field == "quarter"
    # a later quarter's line-up is set in advance
    later = services.match_lineup_set(match=match, quarter=3, seats=seats_for(match, a, b))
    assert later.quarter == 3


@pytest.mark.parametrize("quarter", [0, 5])
def test_match_lineup_set_refuses_a_quarter_outside_the_match(quarter):
    running = running_match()
    a, b = members(running.match.team_a), members(running.match.team_b)
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(
            match=running.match, quarter=quarter, seats=seats_for(running.match, a, b)
        )
    assert refused.value.code == "quarter_played"


def test_match_lineup_set_needs_a_match_in_play():
    cup = CupFactory()
    for _ in range(3):
        CupTeamFactory(cup=cup)
    services.cup_start(cup=cup)
    final = CupMatch.objects.get(cup=cup, round=2)  # waits for its second team
    with pytest.raises(DomainError) as refused:
        services.match_lineup_set(match=final, quarter=1, seats={})
    assert refused.value.code == "match_not_playing"


# -------------------------------------------------------------------------- room_result_enter


@pytest.mark.parametrize(
    ("number", "change", "code", "field"),
    [
        (99, {}, "unknown_deal", "deal"),
        (3, {}, "deal_not_in_quarter", "deal"),
        (1, {"contract": "prise"}, "prise_not_allowed", "contract"),
        (1, {"points": 95}, "points_out_of_range", "points"),
        (1, {"oudlers": 4}, "too_many_oudlers", "oudlers"),
        (1, {"taker_seat": "Z"}, "unknown_seat", "taker_seat"),
        (1, {"taker_seat": "another"}, "taker_seat_mismatch", "taker_seat"),
    ],
)
def test_room_result_enter_refusals(number, change, code, field):
    running = running_match()
    deal = running.deal(1)
    if change.get("taker_seat") == "another":  # a seat the étui does not name
        change = {"taker_seat": next(seat for seat in "NESW" if seat != deal.taker_seat)}
    outcome = {**feasible(deal, "garde", 50), **change}
    with pytest.raises(DomainError) as refused:
        services.room_result_enter(room=running.rooms["open"], deal_number=number, outcome=outcome)
    assert refused.value.field == field
    assert refused.value.code == code
    assert stored_state(running.match) == ([], [])


def test_room_result_enter_needs_a_match_in_play():
    running = running_match()
    CupMatch.objects.filter(pk=running.match.pk).update(status=CupMatch.Status.FINISHED)
    with pytest.raises(DomainError) as refused:
        running.enter("open", 1)
    assert refused.value.code == "match_not_playing"
    assert not RoomResult.objects.exists()


# ------------------------------------------------------------------- room_result_director_correct


@pytest.mark.parametrize(
    ("room", "reason", "number", "code"),
    [
        ("open", "  ", 1, "reason_required"),
        ("lobby", "slip", 1, "unknown_room"),
        ("open", "slip", 99, "unknown_deal"),
        ("closed", "slip", 3, "quarter_not_open"),
    ],
)
def test_room_result_director_correct_refusals(room, reason, number, code):
    running = running_match()
    outcome = feasible(running.deal(1), "garde", 50)
    with pytest.raises(DomainError) as refused:
        services.room_result_director_correct(
            match=running.match,
            room=room,
            deal_number=number,
            outcome=outcome,
            actor=running.organiser,
            reason=reason,
        )
    assert refused.value.code == code
    assert stored_state(running.match) == ([], [])


def test_the_director_enters_a_missing_result_with_the_reason():
    running = running_match(lined_up=False)  # the director may enter before the line-up
    outcome = feasible(running.deal(2), "garde_sans", 50)
    result = services.room_result_director_correct(
        match=running.match,
        room="closed",
        deal_number=2,
        outcome=outcome,
        actor=running.organiser,
        reason="phone lost",
    )
    assert result.entered_by_director and result.entered_by_label == running.organiser.username
    assert result.entered_by == running.organiser and result.entered_via == "organiser"
    (line,) = result.history.all()
    assert (line.action, line.actor, line.reason) == ("create", running.organiser, "phone lost")


def test_the_director_cannot_change_a_finished_match():
    running = running_match()
    _play_to_the_end(running)
    services.match_finish(match=running.match)
    before = stored_state(running.match)
    with pytest.raises(DomainError) as refused:
        services.room_result_director_correct(
            match=running.match,
            room="open",
            deal_number=1,
            outcome=feasible(running.deal(1), "garde", 30),
            actor=running.organiser,
            reason="late",
        )
    assert refused.value.code == "match_not_playing"
    assert stored_state(running.match) == before


# ------------------------------------------------------------------------ match_quarter_close


def test_match_quarter_close_opens_the_next_quarter():
    running = running_match()
    for number in (1, 2):
        running.enter("open", number)
        running.enter("closed", number)
    match = services.match_quarter_close(match=running.match, quarter=1)
    assert match.quarter == 2
    assert QuarterLineup.objects.get(match=match, quarter=1).closed


@pytest.mark.parametrize(
    ("quarter", "lined_up", "code"),
    [(2, True, "not_current_quarter"), (1, False, "no_lineup"), (1, True, "results_missing")],
)
def test_match_quarter_close_refusals(quarter, lined_up, code):
    running = running_match(lined_up=lined_up)
    if lined_up:
        running.enter("open", 1)
    with pytest.raises(DomainError) as refused:
        services.match_quarter_close(match=running.match, quarter=quarter)
    assert refused.value.code == code
    running.refresh()
    assert running.match.quarter == 1
    assert not QuarterLineup.objects.filter(match=running.match, closed=True).exists()


def test_the_last_quarter_closes_once():
    running = running_match()
    _play_to_the_end(running)
    services.match_quarter_close(match=running.match, quarter=4)
    running.refresh()
    assert running.match.quarter == 4  # no fifth quarter
    with pytest.raises(DomainError) as refused:
        services.match_quarter_close(match=running.match, quarter=4)
    assert refused.value.code == "quarter_closed"


def test_match_finish_refusals():
    running = running_match()
    running.enter("open", 1)
    with pytest.raises(DomainError) as refused:
        services.match_finish(match=running.match)
    assert refused.value.code == "results_missing"
    assert "deal 1 in the closed room" in refused.value.message
    running.refresh()
    assert running.match.status == CupMatch.Status.PLAYING

"""One result-entry semantics for the room phone (the kernel's ``clubs.errors``): an entry
never overwrites a stored result; the very outcome again is a replay, another one a conflict
carrying the stored result; a correction is its own action, kept in the history with who made
it. Every refusal leaves the rows and their history exactly as they were."""

from __future__ import annotations

import pytest

from clubs.errors import EntryConflict, EntryReplay
from teammatch import services
from teammatch.errors import NotOwnEntry, QuarterNotOpen, RoomResultConflict, RoomResultReplay
from teammatch.models import MatchDeal, RoomResult, RoomResultChange
from tests.factories import UserFactory
from tests.teammatch.worlds import feasible, lineup, members, other, running_match, stored_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    return running_match()


def test_an_entry_is_stored_with_its_marks_and_one_history_line(running):
    outcome, result = running.enter("open", 1, "garde", 56)
    assert (result.room, result.deal.number, result.entered_by_director) == ("open", 1, False)
    assert (result.entered_by, result.entered_via) == (None, "table")
    assert result.outcome["points"] == outcome["points"]
    assert result.taker_mark == 3 * result.value  # the taker against three defenders
    (line,) = result.history.all()
    assert line.action == RoomResultChange.Action.CREATE
    assert line.actor_label == "open room phone" and line.actor is None
    assert line.before is None and line.after["value"] == result.value


def test_the_same_outcome_again_is_a_replay_writing_nothing(running):
    outcome, result = running.enter("open", 1)
    before = stored_state(running.match)
    with pytest.raises(RoomResultReplay) as replay:
        services.room_result_enter(room=running.rooms["open"], deal_number=1, outcome=outcome)
    assert isinstance(replay.value, EntryReplay) and replay.value.code == "result_replay"
    assert replay.value.result.pk == result.pk
    assert stored_state(running.match) == before


def test_poignees_in_another_order_are_the_same_outcome(running):
    # without its cards the étui is not hand-checked: any two poignées may be shown
    MatchDeal.objects.filter(match=running.match, number=1).update(cards="")
    base = feasible(running.deal(1), "garde", 60)
    poignees = [{"side": "attack", "size": "simple"}, {"side": "defence", "size": "simple"}]
    services.room_result_enter(
        room=running.rooms["open"], deal_number=1, outcome={**base, "poignees": poignees}
    )
    with pytest.raises(RoomResultReplay):
        services.room_result_enter(
            room=running.rooms["open"],
            deal_number=1,
            outcome={**base, "poignees": poignees[::-1]},
        )


def test_another_outcome_is_a_conflict_with_the_stored_result_and_changes_nothing(running):
    outcome, result = running.enter("closed", 2)
    before = stored_state(running.match)
    with pytest.raises(RoomResultConflict) as conflict:
        services.room_result_enter(
            room=running.rooms["closed"], deal_number=2, outcome=other(outcome)
        )
    assert isinstance(conflict.value, EntryConflict)
    assert not isinstance(conflict.value, EntryReplay)
    assert conflict.value.code == "result_exists" and conflict.value.field == "deal"
    assert conflict.value.result.pk == result.pk and conflict.value.stored.pk == result.pk
    assert "deal 2 in the closed room is already stored" in conflict.value.message
    assert stored_state(running.match) == before


def test_fifty_conflicting_entries_all_refused(running):
    outcome, _result = running.enter("open", 1)
    before = stored_state(running.match)
    refused = 0
    for shift in range(1, 51):
        changed = {**outcome, "points": (outcome["points"] + shift) % 92}
        try:
            services.room_result_enter(room=running.rooms["open"], deal_number=1, outcome=changed)
        except RoomResultReplay:
            pass  # (points wrapped round to the stored ones)
        except RoomResultConflict:
            refused += 1
    assert refused >= 49
    assert stored_state(running.match) == before


def test_an_invalid_outcome_for_an_entered_deal_is_a_conflict(running):
    outcome, _result = running.enter("open", 1)
    before = stored_state(running.match)
    with pytest.raises(RoomResultConflict):
        services.room_result_enter(
            room=running.rooms["open"], deal_number=1, outcome={**outcome, "points": 95}
        )
    assert stored_state(running.match) == before


def test_the_other_room_enters_the_same_deal_independently(running):
    outcome, _ = running.enter("open", 1)
    services.room_result_enter(room=running.rooms["closed"], deal_number=1, outcome=outcome)
    assert RoomResult.objects.filter(match=running.match, deal__number=1).count() == 2


def test_the_room_corrects_its_entry_with_a_history_line(running):
    outcome, result = running.enter("open", 1)
    corrected = services.room_result_table_correct(
        room=running.rooms["open"], deal_number=1, outcome=other(outcome)
    )
    assert corrected.pk == result.pk and corrected.outcome["points"] == other(outcome)["points"]
    create, correct = result.history.order_by("pk")
    assert (create.action, correct.action) == ("create", "correct")
    assert correct.actor_label == "open room phone" and correct.reason == ""
    assert correct.before["points"] == outcome["points"]
    assert correct.after["points"] == other(outcome)["points"]


def test_a_correction_to_the_stored_outcome_is_a_replay(running):
    outcome, _ = running.enter("open", 1)
    before = stored_state(running.match)
    with pytest.raises(RoomResultReplay):
        services.room_result_table_correct(
            room=running.rooms["open"], deal_number=1, outcome=outcome
        )
    assert stored_state(running.match) == before


def test_a_correction_of_a_deal_not_entered_enters_it(running):
    outcome = feasible(running.deal(2), "garde", 50)
    result = services.room_result_table_correct(
        room=running.rooms["closed"], deal_number=2, outcome=outcome
    )
    assert [line.action for line in result.history.all()] == ["create"]


def test_the_room_cannot_correct_the_directors_result(running):
    outcome = feasible(running.deal(1), "garde", 50)
    services.room_result_director_correct(
        match=running.match,
        room="open",
        deal_number=1,
        outcome=outcome,
        actor=running.organiser,
        reason="slip",
    )
    before = stored_state(running.match)
    with pytest.raises(NotOwnEntry) as refused:
        services.room_result_table_correct(
            room=running.rooms["open"], deal_number=1, outcome=other(outcome)
        )
    assert refused.value.code == "not_own_entry"
    assert stored_state(running.match) == before


def test_a_closed_quarter_is_corrected_by_the_director_only(running):
    opened, _ = running.enter("open", 1)
    running.enter("closed", 1)
    running.enter("open", 2)
    running.enter("closed", 2)
    services.match_quarter_close(match=running.match, quarter=1)
    before = stored_state(running.match)
    # another outcome of the stored deal is a conflict in every quarter (409 with the result)
    with pytest.raises(RoomResultConflict) as conflict:
        services.room_result_enter(room=running.rooms["open"], deal_number=1, outcome=other(opened))
    assert conflict.value.code == "result_exists"
    assert conflict.value.result.points == opened["points"]
    with pytest.raises(QuarterNotOpen) as refused:
        services.room_result_table_correct(
            room=running.rooms["open"], deal_number=1, outcome=other(opened)
        )
    assert refused.value.code == "deal_not_in_quarter"
    assert stored_state(running.match) == before
    # a resend of the stored outcome is still a replay once the quarter is closed
    with pytest.raises(RoomResultReplay):
        services.room_result_enter(room=running.rooms["open"], deal_number=1, outcome=opened)
    director = UserFactory()
    result = services.room_result_director_correct(
        match=running.match,
        room="open",
        deal_number=1,
        outcome=other(opened),
        actor=director,
        reason="slip sheet",
    )
    line = result.history.order_by("pk").last()
    assert (line.action, line.actor, line.actor_label, line.reason) == (
        "correct",
        director,
        director.username,
        "slip sheet",
    )
    assert result.entered_by_director


def test_the_last_quarter_closed_refuses_the_rooms(running):
    match = running.match
    a, b = members(match.team_a), members(match.team_b)
    for quarter in range(1, 5):
        if quarter > 1:
            lineup(match, quarter, a, b)
        numbers = [2 * quarter - 1, 2 * quarter]
        for number in numbers:
            running.enter("open", number)
            running.enter("closed", number)
        services.match_quarter_close(match=match, quarter=quarter)
    outcome = feasible(running.deal(8), "garde", 30)
    with pytest.raises(QuarterNotOpen) as refused:
        services.room_result_table_correct(
            room=running.rooms["open"], deal_number=8, outcome=outcome
        )
    assert refused.value.code == "quarter_closed"


def test_the_director_replay_writes_nothing(running):
    outcome, _ = running.enter("open", 1)
    before = stored_state(running.match)
    with pytest.raises(RoomResultReplay):
        services.room_result_director_correct(
            match=running.match,
            room="open",
            deal_number=1,
            outcome=outcome,
            actor=running.organiser,
            reason="check",
        )
    assert stored_state(running.match) == before


def test_a_refused_entry_stores_nothing():
    running = running_match(lined_up=False)
    outcome = feasible(running.deal(1), "garde", 50)
    with pytest.raises(QuarterNotOpen) as refused:
        services.room_result_enter(room=running.rooms["open"], deal_number=1, outcome=outcome)
    assert refused.value.code == "no_lineup"
    assert stored_state(running.match) == ([], [])

"""``movements.hand_over``: a late change (substitute or withdrawal) hands a slot's seats over
to a new slot from a round on; read through the typed reader, written by the document's
builders, valid whenever the document was."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.movements import (
    MovementError,
    Round,
    Schedule,
    generate_individual,
    generate_triplette,
    hand_over,
    validate,
)

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIVE_TABLES = generate_individual(tables=5)  # 20 players, 5 rounds, no phantom


def _seats(rnd: Round) -> dict[tuple[int, str], int]:
    return {(play.table, seat): slot for play in rnd.tables for seat, slot in play.seats.items()}


def test_a_substitute_holds_the_seats_from_his_round_and_the_old_slot_sits_out() -> None:
    before = Schedule.from_document(FIVE_TABLES)
    handed = hand_over(FIVE_TABLES, slot=7, from_round=3, phantom=False)
    after = Schedule.from_document(handed.document)
    assert handed.slot == 21 and after.slots == before.slots | {21}
    for old_round, new_round in zip(before.rounds, after.rounds, strict=True):
        old_seats = _seats(old_round)
        new_seats = _seats(new_round)
        if old_round.number < 3:
            assert new_seats == old_seats
            assert new_round.byes == (21,)
        else:
            assert new_seats == {key: 21 if slot == 7 else slot for key, slot in old_seats.items()}
            assert new_round.byes == (7,)
    assert [(p.deal_set, p.copy) for p in after.plays()] == [
        (p.deal_set, p.copy) for p in before.plays()
    ]
    assert validate(handed.document).ok


def test_the_new_slot_keeps_the_line_and_team_and_a_withdrawal_is_a_phantom() -> None:
    doc = generate_triplette(teams=4)
    source = next(e for e in Schedule.from_document(doc).entrants if e.id == 5)
    handed = hand_over(doc, slot=5, from_round=2, phantom=True)
    new = next(e for e in Schedule.from_document(handed.document).entrants if e.id == handed.slot)
    assert (new.line, new.team, new.phantom) == (source.line, source.team, True)


def test_the_tables_of_a_withdrawn_slot_sit_out_from_the_round_on() -> None:
    handed = hand_over(FIVE_TABLES, slot=1, from_round=4, phantom=True)
    after = Schedule.from_document(handed.document)
    for play in after.plays():
        seated = handed.slot in play.slots
        assert play.sits_out == seated
        assert not seated or play.round >= 4
    assert validate(handed.document).ok


def test_the_other_keys_are_kept_and_the_stored_document_is_not_touched() -> None:
    doc = generate_triplette(teams=4)
    doc["generator"] = {"name": "pools", "seed": 3}
    kept = copy.deepcopy(doc)
    handed = hand_over(doc, slot=2, from_round=1, phantom=False)
    assert doc == kept
    for key in ("schema", "format", "kind", "tables", "rounds", "seats", "deal_sets", "copies",
                "max_meetings", "taker_seat", "generator"):  # fmt: skip
        assert handed.document[key] == doc[key], key


def test_a_document_stored_with_text_numbers_reads_the_same() -> None:
    """The reader converts every number: a document whose slots were stored as text (an old
    export) is handed over as the same document with numbers."""
    as_text = copy.deepcopy(FIVE_TABLES)
    for raw_round in as_text["schedule"]:
        for table in raw_round["tables"]:
            table["seats"] = {seat: str(slot) for seat, slot in table["seats"].items()}
    assert (
        hand_over(as_text, slot=7, from_round=3, phantom=False).document
        == hand_over(FIVE_TABLES, slot=7, from_round=3, phantom=False).document
    )


def test_a_slot_outside_the_movement_is_refused() -> None:
    with pytest.raises(MovementError):
        hand_over(FIVE_TABLES, slot=99, from_round=1, phantom=False)
    with pytest.raises(MovementError):
        hand_over({}, slot=1, from_round=1, phantom=False)


@FAST
@given(
    tables=st.integers(4, 12),
    data=st.data(),
    phantom=st.booleans(),
)
def test_any_hand_over_of_a_full_movement_stays_valid(
    tables: int, data: st.DataObject, phantom: bool
) -> None:
    doc = generate_individual(tables=tables)
    schedule = Schedule.from_document(doc)
    slot = data.draw(st.sampled_from(sorted(schedule.slots)))
    from_round = data.draw(st.sampled_from(schedule.round_numbers))
    handed = hand_over(doc, slot=slot, from_round=from_round, phantom=phantom)
    assert validate(handed.document).ok
    after = Schedule.from_document(handed.document)
    assert all(slot not in play.slots for play in after.plays() if play.round >= from_round)
    assert all(handed.slot not in play.slots for play in after.plays() if play.round < from_round)

"""Play records as JSON (rules.record): round trips, shape errors, the first illegal card."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rules import RuleError, count_play, deal_to_text, generate_deals, outcome_from_play
from rules.play import hands_at_play, legal_cards
from rules.record import record_from_json, record_to_json, validate_record
from rules.simulation import PlayedDeal, simulate_deal


def simulated(players: int, count: int, seed: str) -> list[PlayedDeal]:
    played = [
        simulate_deal(deal, random.Random(number), taker_seat=number % players)
        for number, deal in enumerate(generate_deals(players, count, seed))
    ]
    return [one for one in played if one.record is not None]


def as_json(one: PlayedDeal) -> dict[str, Any]:
    assert one.record is not None
    data: dict[str, Any] = json.loads(json.dumps(record_to_json(one.record, one.bids)))
    return data


def error_of(data: object) -> RuleError:
    with pytest.raises(RuleError) as err:
        record, bids = record_from_json(data)
        validate_record(record, bids)
    return err.value


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulated_records_round_trip_to_the_same_outcome(players: int) -> None:
    for one in simulated(players, 60, f"record-{players}"):
        assert one.record is not None
        record, bids = record_from_json(as_json(one))
        assert record == one.record
        assert bids == one.bids
        validate_record(record, bids)
        assert outcome_from_play(record) == one.outcome
        assert count_play(record) == count_play(one.record)


def test_the_deal_may_be_given_in_its_text_form_and_bids_may_be_absent() -> None:
    one = simulated(4, 1, "text")[0]
    assert one.record is not None
    data = as_json(one)
    for key in ("players", "dealer", "hands", "chien", "bids"):
        del data[key]
    data["deal"] = deal_to_text(one.record.deal)
    record, bids = record_from_json(data)
    assert record == one.record and bids is None
    validate_record(record, bids)


def test_a_card_swapped_for_an_illegal_one_is_named_with_its_rule() -> None:
    """The first card of some trick that has an illegal alternative in the player's hand is
    swapped for it: refused on that card, naming trick, seat, card and why."""
    for one in simulated(4, 40, "swap"):
        record = one.record
        assert record is not None
        hands = hands_at_play(record)
        for number, trick in enumerate(record.tricks):
            for position, card in enumerate(trick.cards):
                seat = trick.seat_at(position, 4)
                legal = legal_cards(hands[seat], trick.cards[:position])
                illegal = [other for other in hands[seat] if other not in legal]
                if position and illegal:
                    data = as_json(one)
                    data["tricks"][number][position] = illegal[0].code
                    error = error_of(data)
                    assert error.code == "illegal_card"
                    assert error.field == f"tricks[{number}][{position}]"
                    message = error.message
                    assert f"trick {number + 1}" in message
                    assert f"seat {record.deal.seats[seat]}" in message
                    assert illegal[0].code in message
                    assert "must" in message  # the rule broken
                    return
                hands[seat].remove(card)
    raise AssertionError("no illegal alternative found")


def test_a_card_not_in_the_hand_is_named() -> None:
    one = simulated(4, 1, "not-held")[0]
    assert one.record is not None
    data = as_json(one)
    leader = one.record.tricks[0].leader
    foreign = hands_at_play(one.record)[(leader + 1) % 4][0]  # the next player's card
    data["tricks"][0][0] = foreign.code
    error = error_of(data)
    assert (error.code, error.field) == ("card_not_held", "tricks[0][0]")
    assert foreign.code in error.message


def test_a_missing_trick_names_the_first_card_it_makes_illegal() -> None:
    one = simulated(4, 1, "missing")[0]
    assert one.record is not None
    data = as_json(one)
    del data["tricks"][3]
    error = error_of(data)
    assert error.code in {"card_not_held", "illegal_card"}
    assert error.field is not None and error.field.startswith("tricks[")
    # removing the last trick leaves every card legal: the count is at fault
    data = as_json(one)
    data["tricks"].pop()
    assert (error_of(data).code, error_of(data).field) == ("wrong_trick_count", "tricks")


def test_the_auction_is_checked() -> None:
    one = simulated(4, 1, "bids")[0]
    assert one.record is not None
    data = as_json(one)
    data["bids"] = ["pass", "pass", "pass", "pass"]
    assert error_of(data).code == "passed_out"
    data["bids"] = ["garde", "prise", "pass", "pass"]
    error = error_of(data)
    assert (error.code, error.field) == ("bid_too_low", "bids[1]")
    data["bids"] = ["garde_contre", "pass", "pass", "pass"]
    if data["contract"] != "garde_contre" or data["taker"] != one.record.deal.seats[3]:
        assert error_of(data).code == "bids_mismatch"


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (lambda d: d.pop("taker"), "missing_field", "taker"),
        (lambda d: d.update(extra=1), "unknown_field", "extra"),
        (lambda d: d.update(format="other"), "unknown_format", "format"),
        (lambda d: d.update(version=2), "unknown_version", "version"),
        (lambda d: d.update(taker="Z"), "unknown_seat", "taker"),
        (lambda d: d.update(taker=3), "unknown_seat", "taker"),
        (lambda d: d.update(contract="grand"), "unknown_contract", "contract"),
        (lambda d: d.update(contract="pousse"), "contract_not_in_ruleset", "contract"),
        (lambda d: d.update(tricks={}), "invalid_type", "tricks"),
        (lambda d: d["tricks"][3].__setitem__(2, "S15"), "unknown_card", "tricks[3][2]"),
        (lambda d: d["tricks"][3].__setitem__(2, 7), "invalid_type", "tricks[3][2]"),
        (lambda d: d.update(chelem_announced="yes"), "invalid_type", "chelem_announced"),
        (lambda d: d.update(poignees=[{"seat": "N"}]), "missing_field", "poignees[0].size"),
        (lambda d: d.update(bids="pass"), "invalid_type", "bids"),
        (lambda d: d.update(ruleset="club"), "unknown_ruleset", "ruleset"),
        (lambda d: d["hands"].pop("W"), "missing_field", "hands.W"),
        (lambda d: d.update(chien="S1"), "wrong_chien_size", "chien"),
        (lambda d: d.update(players=6), "unknown_player_count", "players"),
        (lambda d: d.update(passes=[{"after_trick": 99, "cards": {}}]), "invalid_pass", None),
    ],
)
def test_shape_errors_are_rule_errors_with_a_field(change: Any, code: str, field: str) -> None:
    one = simulated(4, 1, "shape")[0]
    data = copy.deepcopy(as_json(one))
    change(data)
    error = error_of(data)
    assert error.code == code
    if field is not None:
        assert error.field == field
    else:
        assert error.field is not None and error.field.startswith("passes[0]")


def test_not_an_object() -> None:
    assert (error_of([1, 2]).code, error_of([1, 2]).field) == ("invalid_type", "record")


def test_passes_outside_the_house_rules_are_refused() -> None:
    one = simulated(4, 1, "passes")[0]
    data = as_json(one)
    data["passes"] = [{"after_trick": 0, "cards": {"N": [], "E": [], "S": [], "W": []}}]
    error = error_of(data)
    assert (error.code, error.field) == ("unexpected_pass", "passes")

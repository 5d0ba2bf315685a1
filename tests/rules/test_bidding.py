"""Bidding: speaking order, each speaks once, strictly higher bids, all-pass."""

from __future__ import annotations

import pytest

from rules import Contract, RuleError, bidding_order, bidding_result, legal_bids

P, G, GS, GC = Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE


def test_order_starts_after_the_dealer_counter_clockwise() -> None:
    # Seats clockwise N E S W (0..3): after N comes W.
    assert bidding_order(4, 0) == [3, 2, 1, 0]
    assert bidding_order(4, 2) == [1, 0, 3, 2]
    assert bidding_order(3, 0) == [2, 1, 0]
    assert bidding_order(5, 4) == [3, 2, 1, 0, 4]
    with pytest.raises(RuleError):
        bidding_order(4, 4)


def test_highest_bidder_takes() -> None:
    result = bidding_result(4, 0, [P, None, G, None])
    assert (result.taker, result.contract, result.passed_out) == (1, G, False)
    assert bidding_result(4, 0, [None, None, None, GC]).taker == 0


def test_all_pass_is_passed_out() -> None:
    result = bidding_result(4, 1, [None] * 4)
    assert result.passed_out and result.contract is None


@pytest.mark.parametrize(
    ("bids", "code"),
    [
        ([G, P, None, None], "bid_too_low"),
        ([G, G, None, None], "bid_too_low"),
        ([None, None, None], "wrong_bid_count"),
        ([None, None, None, None, None], "wrong_bid_count"),
        ([None, "garde", None, None], "unknown_contract"),
    ],
)
def test_illegal_auctions(bids: list[object], code: str) -> None:
    with pytest.raises(RuleError) as err:
        bidding_result(4, 0, bids)  # type: ignore[arg-type]
    assert err.value.code == code


def test_duplicate_floor_and_legal_bids() -> None:
    assert legal_bids(None) == [P, G, GS, GC]
    assert legal_bids(G) == [GS, GC]
    assert legal_bids(None, min_contract=G) == [G, GS, GC]
    with pytest.raises(RuleError) as err:
        bidding_result(4, 0, [P, None, None, None], min_contract=G)
    assert err.value.code == "bid_too_low"
    assert bidding_result(4, 0, [None, G, None, None], min_contract=G).contract is G

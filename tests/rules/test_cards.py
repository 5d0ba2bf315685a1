"""The 78 cards: codes, values, oudlers, order, identity."""

from __future__ import annotations

import copy
import pickle

import pytest

from rules import (
    DECK,
    EXCUSE,
    OUDLERS,
    PETIT,
    TWENTY_ONE,
    RuleError,
    Suit,
    card_points_half,
    count_oudlers,
    format_cards,
    parse_card,
    parse_cards,
    sort_cards,
)


def test_the_deck_has_78_distinct_cards_worth_91_points() -> None:
    assert len(DECK) == 78
    assert len({card.code for card in DECK}) == 78
    assert card_points_half(DECK) == 182
    assert [card.index for card in DECK] == list(range(78))
    assert sum(1 for card in DECK if card.is_trump) == 21
    assert sum(1 for card in DECK if card.is_king) == 4


def test_card_values_in_half_points() -> None:
    values = {
        code: parse_card(code).points_half
        for code in ["S14", "H13", "D12", "C11", "S10", "H1", "T1", "T21", "EX", "T20"]
    }
    assert values == {
        "S14": 9,
        "H13": 7,
        "D12": 5,
        "C11": 3,
        "S10": 1,
        "H1": 1,
        "T1": 9,
        "T21": 9,
        "EX": 9,
        "T20": 1,
    }


def test_oudlers() -> None:
    assert OUDLERS == (PETIT, TWENTY_ONE, EXCUSE)
    assert [card.code for card in DECK if card.is_oudler] == ["T1", "T21", "EX"]
    assert count_oudlers(DECK) == 3
    assert not EXCUSE.is_trump
    assert EXCUSE.suit is Suit.EXCUSE


@pytest.mark.parametrize("card", DECK, ids=[card.code for card in DECK])
def test_codes_round_trip(card: object) -> None:
    assert parse_card(str(card)) is card


def test_parsing_is_lenient_on_case_and_spaces_only() -> None:
    assert parse_card(" s14 ") is parse_card("S14")
    assert parse_card("ex") is EXCUSE
    for bad in ["S15", "S0", "T22", "T0", "X1", "", "14S", "E X"]:
        with pytest.raises(RuleError) as err:
            parse_card(bad)
        assert err.value.code == "unknown_card"


def test_format_and_parse_many_in_canonical_order() -> None:
    cards = parse_cards("EX T21 C14 S1 H13")
    assert format_cards(cards) == "S1 H13 C14 T21 EX"
    assert sort_cards(reversed(DECK)) == list(DECK)


def test_display_labels() -> None:
    assert parse_card("S14").display == "K♠"
    assert parse_card("H12").display == "C♥"
    assert parse_card("D10").display == "10♦"
    assert parse_card("C11").display == "J♣"
    assert parse_card("T21").display == "T21"
    assert EXCUSE.display == "Exc"


def test_cards_stay_singletons_through_pickle_and_copy() -> None:
    card = parse_card("D13")
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy([card])[0] is card
    assert copy.copy(card) is card

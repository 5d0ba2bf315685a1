"""Dealing: packets, chien, reproducible generation, petit sec, validation, text, diagrams."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    CHIEN_SIZE,
    DECK,
    EXCUSE,
    HAND_SIZE,
    PETIT,
    Deal,
    PoigneeSize,
    RuleError,
    deal_cards,
    deal_from_text,
    deal_to_text,
    generate_deals,
    hand_by_suit,
    hand_diagram,
    has_petit_sec,
    max_poignee,
    parse_cards,
    poignee_eligibility,
    trump_counts,
    validate_deal,
)


class UnshuffledRandom(random.Random):
    """Keeps the pack in canonical order and puts the chien after the first packets."""

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        return None

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        return list(population)[:k]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_sizes_and_78_distinct_cards(players: int) -> None:
    deal = deal_cards(players, random.Random(1))
    validate_deal(deal)
    assert len(deal.hands) == players
    assert all(len(hand) == HAND_SIZE[players] for hand in deal.hands)
    assert len(deal.chien) == CHIEN_SIZE[players]
    cards = [card for hand in (*deal.hands, deal.chien) for card in hand]
    assert sorted(cards) == list(DECK)


def test_packets_go_counter_clockwise_and_the_chien_is_never_first_nor_last() -> None:
    deal = deal_cards(4, UnshuffledRandom(), dealer=0)
    # After N (seat 0) comes W (seat 3): it receives the first packet S1 S2 S3.
    assert deal.hands[3][:3] == parse_cards("S1 S2 S3")
    # The chien took one card after each of the first 6 packets: S4, S8, S12, H2, H6, H10.
    assert deal.chien == parse_cards("S4 S8 S12 H2 H6 H10")
    assert EXCUSE not in deal.chien  # the last card of the pack went to a player
    three = deal_cards(3, UnshuffledRandom(), dealer=1)
    assert three.hands[0][:4] == parse_cards("S1 S2 S3 S4")  # 4 at a time, after seat 1


def test_first_and_last_cards_never_go_to_the_chien() -> None:
    for seed in range(300):
        rng = random.Random(seed)
        order = list(DECK)
        random.Random(seed).shuffle(order)
        deal = deal_cards(5, rng)
        assert order[0] not in deal.chien and order[-1] not in deal.chien


def test_same_seed_same_deals_and_prefix_stable() -> None:
    first = generate_deals(4, 24, "club-2026-11")
    assert first == generate_deals(4, 24, "club-2026-11")
    assert generate_deals(4, 5, "club-2026-11") == first[:5]
    assert generate_deals(4, 24, "club-2026-12") != first
    assert [deal.dealer for deal in first[:5]] == [0, 1, 2, 3, 0]
    assert {deal.dealer for deal in generate_deals(4, 6, 3, dealer=2)} == {2}


def test_known_deal_is_stable_across_runs_and_machines() -> None:
    # Pinned: random.Random with a str seed is specified (SHA-512) and portable.
    deal = generate_deals(4, 1, 42)[0]
    assert deal_to_text(deal).splitlines()[0] == "dealer: N"
    assert deal == generate_deals(4, 1, "42")[0]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_generated_deals_never_have_a_petit_sec(players: int) -> None:
    deals = generate_deals(players, 400, "petit-sec")
    assert not any(has_petit_sec(deal) for deal in deals)
    for deal in deals:
        validate_deal(deal)


def test_petit_sec_is_detected_and_kept_when_not_rejected() -> None:
    raw = generate_deals(5, 200, "sec", reject_petit_sec=False)
    with_petit_sec = [number for number, deal in enumerate(raw) if has_petit_sec(deal)]
    assert with_petit_sec  # 22, 182, 183 for this seed
    kept = generate_deals(5, 200, "sec")
    for number, (raw_deal, kept_deal) in enumerate(zip(raw, kept, strict=True)):
        assert (raw_deal == kept_deal) == (number not in with_petit_sec)
    deal = raw[0]
    hand = tuple(card for card in DECK if not card.is_trump and card is not EXCUSE)[:17]
    assert has_petit_sec(replace(deal, hands=((*hand, PETIT), *deal.hands[1:])))
    assert not has_petit_sec(replace(deal, hands=((*hand[:16], PETIT, EXCUSE), *deal.hands[1:])))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4, 5]), st.integers(0, 10**9), st.integers(0, 4))
def test_text_round_trip(players: int, seed: int, dealer: int) -> None:
    deal = deal_cards(players, random.Random(seed), dealer=dealer % players)
    text = deal_to_text(deal)
    assert deal_from_text(text) == deal
    assert deal_from_text("# deal 1\n\n" + text + "\n") == deal


def test_text_form_shape() -> None:
    deal = generate_deals(4, 1, 7)[0]
    lines = deal_to_text(deal).splitlines()
    assert [line.split(":")[0] for line in lines] == ["dealer", "N", "E", "S", "W", "chien"]
    assert len(lines[1].split()) == 19


def _error(text: str) -> RuleError:
    with pytest.raises(RuleError) as err:
        deal_from_text(text)
    return err.value


def test_bad_text_names_the_line() -> None:
    text = deal_to_text(generate_deals(4, 1, 7)[0])
    lines = text.splitlines()
    bad_card = "\n".join([*lines[:2], lines[2] + " Z9", *lines[3:]])
    error = _error(bad_card)
    assert (error.code, error.field) == ("unknown_card", "line 3")
    error = _error(text.replace("E:", "Q:"))
    assert (error.code, error.field) == ("unknown_seat", "line 3")
    error = _error(text + "\nno colon here")
    assert (error.code, error.field) == ("bad_deal_line", "line 7")
    assert _error("\n".join(lines[:-1])).code == "bad_deal_text"
    assert _error("\n".join([lines[0], lines[2], lines[1], *lines[3:]])).code == "bad_deal_text"
    moved = lines[1].split()[1]
    duplicated = "\n".join([lines[0], lines[1], lines[2] + " " + moved, *lines[3:]])
    assert _error(duplicated).code in {"wrong_hand_size", "duplicate_card"}
    assert _error(text.replace("dealer: N", "dealer: Z")).code == "unknown_seat"


def test_validate_deal_errors() -> None:
    deal = generate_deals(4, 1, 1)[0]
    cases: list[tuple[Deal, str]] = [
        (replace(deal, hands=deal.hands[:3]), "wrong_hand_count"),
        (replace(deal, hands=(deal.hands[0][:-1], *deal.hands[1:])), "wrong_hand_size"),
        (replace(deal, chien=deal.chien[:-1]), "wrong_chien_size"),
        (replace(deal, chien=(*deal.chien[:-1], deal.hands[0][0])), "duplicate_card"),
        (replace(deal, dealer=4), "invalid_dealer"),
        (replace(deal, players=6), "unknown_player_count"),
    ]
    for bad, code in cases:
        with pytest.raises(RuleError) as err:
            validate_deal(bad)
        assert err.value.code == code


def test_generation_arguments_are_checked() -> None:
    for kwargs, code in [
        ({"players": 6, "count": 1, "seed": 1}, "unknown_player_count"),
        ({"players": 4, "count": -1, "seed": 1}, "invalid_count"),
        ({"players": 4, "count": 1, "seed": 1, "dealer": 4}, "invalid_dealer"),
    ]:
        with pytest.raises(RuleError) as err:
            generate_deals(**kwargs)
        assert err.value.code == code


def test_poignee_eligibility_thresholds_per_player_count() -> None:
    trumps = [card for card in DECK if card.is_trump and card is not PETIT]
    assert max_poignee(trumps[:9], 4) is None
    assert max_poignee([*trumps[:9], EXCUSE], 4) is PoigneeSize.SIMPLE
    assert max_poignee(trumps[:13], 4) is PoigneeSize.DOUBLE
    assert max_poignee(trumps[:15], 4) is PoigneeSize.TRIPLE
    assert max_poignee(trumps[:12], 3) is None
    assert max_poignee(trumps[:13], 3) is PoigneeSize.SIMPLE
    assert max_poignee(trumps[:18], 3) is PoigneeSize.TRIPLE
    assert max_poignee(trumps[:8], 5) is PoigneeSize.SIMPLE
    assert max_poignee(trumps[:10], 5) is PoigneeSize.DOUBLE
    assert max_poignee(trumps[:13], 5) is PoigneeSize.TRIPLE
    deal = generate_deals(4, 1, 5)[0]
    counts = trump_counts(deal)
    assert set(counts) == {"N", "E", "S", "W"}
    assert sum(counts.values()) + sum(1 for card in deal.chien if card.is_trump) == 21
    eligibility = poignee_eligibility(deal)
    assert all(
        (size is None) == (counts[seat] + (EXCUSE in deal.hand_of(seat)) < 10)
        for seat, size in eligibility.items()
    )


def test_hand_by_suit_and_diagram() -> None:
    hand = parse_cards("S14 S2 S10 H13 D12 D11 T21 T1 T7 EX")
    assert hand_by_suit(hand) == {
        "S": ["K", "10", "2"],
        "H": ["Q"],
        "D": ["C", "J"],
        "C": [],
        "T": ["21", "7", "1", "Exc"],
    }
    deal = generate_deals(4, 1, 11)[0]
    diagram = hand_diagram(deal)
    for symbol in "♠♥♦♣":
        assert symbol in diagram
    assert diagram.splitlines()[0] == "N (dealer)"
    assert "chien" in diagram

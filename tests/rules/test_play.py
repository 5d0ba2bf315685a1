"""Card play: legal cards, trick winner, écart, Excuse, counting and a scripted chelem."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules import (
    DECK,
    EXCUSE,
    PETIT,
    Chelem,
    Contract,
    Deal,
    PlayRecord,
    PoigneeShown,
    PoigneeSize,
    RuleError,
    Side,
    Trick,
    count_play,
    generate_deals,
    legal_cards,
    outcome_from_play,
    parse_cards,
    score_deal,
    simulate_deal,
    trick_winner,
    validate_ecart,
    validate_play,
)


def codes(cards: list[object]) -> str:
    return " ".join(str(card) for card in cards)


@pytest.mark.parametrize(
    ("hand", "trick", "legal"),
    [
        ("S3 S10 H2 T5", "", "S3 S10 H2 T5"),
        ("S3 S10 H2 T5 EX", "S7", "S3 S10 EX"),  # follow suit, no need to win
        ("H2 T5 T9", "S7", "T5 T9"),  # must trump
        ("H2 T5 T9", "S7 T8", "T9"),  # must overtrump
        ("H2 T5 T6 EX", "S7 T8", "T5 T6 EX"),  # cannot overtrump: any trump
        ("H2 D3", "S7 T8", "H2 D3"),  # neither suit nor trump: anything
        ("T5 T12 S1", "T10", "T12"),  # trump lead: higher trump if possible
        ("T5 T7 S1", "T10 T12", "T5 T7"),
        ("S1 H1", "T10", "S1 H1"),
        ("S3 H2 T4", "EX", "S3 H2 T4"),  # Excuse led: the next card decides
        ("S3 H2 T4", "EX S7", "S3"),
        ("H2 T4", "EX S7", "T4"),  # no spade: trump
        ("EX", "S7", "EX"),
    ],
)
def test_legal_cards(hand: str, trick: str, legal: str) -> None:
    hand_cards = parse_cards(hand)
    assert codes(legal_cards(hand_cards, parse_cards(trick))) == codes(list(parse_cards(legal)))


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        ("S7 S14 S2 H14", 1),
        ("S7 T2 S14 T1", 1),
        ("EX S3 S4 T1", 3),
        ("S3 EX S2 S1", 0),
        ("T3 T1 T21 EX", 2),
        ("H5 S14 D14 C14", 0),
    ],
)
def test_trick_winner(trick: str, winner: int) -> None:
    assert trick_winner(parse_cards(trick)) == winner


def test_excuse_wins_only_when_told() -> None:
    assert trick_winner(parse_cards("EX S3 S4 S5"), excuse_wins=True) == 0
    with pytest.raises(RuleError):
        trick_winner(parse_cards("EX"))


def test_ecart_rules() -> None:
    cards = parse_cards("S14 S1 S2 S3 S4 S5 S6 H1 T2 T21 EX")
    validate_ecart(cards, parse_cards("S1 S2 S3 S4 S5 S6"), 4)
    for ecart, code in [
        ("S1 S2 S3 S4 S5", "ecart_wrong_size"),
        ("S14 S2 S3 S4 S5 S6", "ecart_forbidden_card"),
        ("T21 S2 S3 S4 S5 S6", "ecart_forbidden_card"),
        ("EX S2 S3 S4 S5 S6", "ecart_forbidden_card"),
        ("T2 S2 S3 S4 S5 S6", "ecart_trump_avoidable"),
        ("H2 S2 S3 S4 S5 S6", "ecart_card_not_held"),
    ]:
        with pytest.raises(RuleError) as err:
            validate_ecart(cards, parse_cards(ecart), 4)
        assert err.value.code == code
    # Trumps when unavoidable: only four plain non-King cards left.
    short = parse_cards("S14 H14 S1 S2 S3 S4 T2 T3 T4 T21 EX")
    validate_ecart(short, parse_cards("S1 S2 S3 S4 T2 T3"), 4)


def chelem_deal() -> Deal:
    """N holds the Petit, the Excuse and T6-T21; the other trumps are spread over E, S, W."""
    plain = [card for card in DECK if not card.is_trump and card is not EXCUSE]
    trumps = {card.rank: card for card in DECK if card.is_trump}
    north = (PETIT, EXCUSE, *(trumps[rank] for rank in range(6, 22)))
    east = (trumps[2], trumps[3], *plain[0:16])
    south = (trumps[4], *plain[16:33])
    west = (trumps[5], *plain[33:50])
    return Deal(players=4, hands=(north, east, south, west), chien=tuple(plain[50:]), dealer=2)


def simulated_chelem() -> PlayRecord:
    played = simulate_deal(
        chelem_deal(), random.Random(3), taker_seat="N", chelem_rate=1.0, poignee_rate=0.0
    )
    assert played.record is not None
    return replace(played.record, contract=Contract.GARDE_SANS, ecart=())


def test_announced_chelem_with_the_excuse_last_and_the_petit_in_the_trick_before() -> None:
    record = simulated_chelem()
    assert record.chelem_announced
    assert record.tricks[0].leader == 0  # the announcer leads
    assert record.tricks[-1].cards[0] is EXCUSE
    assert PETIT in record.tricks[-2].cards
    validate_play(record)
    outcome = outcome_from_play(record)
    assert outcome.points_half == 182 and outcome.oudlers == 3
    assert outcome.chelem == Chelem(announced=True, made_by=Side.ATTACK)
    assert outcome.petit_au_bout is Side.ATTACK
    assert score_deal(outcome).value == (25 + 55) * 4 + 10 * 4 + 400


def test_validate_play_catches_tampering() -> None:
    record = simulated_chelem()
    tricks = list(record.tricks)
    first = tricks[0]
    cases: list[tuple[PlayRecord, str]] = [
        (replace(record, tricks=(replace(first, leader=1), *tricks[1:])), "wrong_leader"),
        (replace(record, tricks=tuple(tricks[:-1])), "wrong_trick_count"),
        (replace(record, chelem_announced=False), "wrong_leader"),  # E would lead
        (replace(record, ecart=parse_cards("S1")), "ecart_not_allowed"),
    ]
    # E must play a trump on a trump lead: swap its T2 for a plain card it holds.
    east_position = next(p for p in range(4) if first.seat_at(p, 4) == 1)
    east_plain = next(card for card in record.deal.hands[1] if not card.is_trump)
    bad_cards = list(first.cards)
    bad_cards[east_position] = east_plain
    cases.append(
        (
            replace(record, tricks=(replace(first, cards=tuple(bad_cards)), *tricks[1:])),
            "illegal_card",
        )
    )
    stolen = list(first.cards)
    stolen[0] = parse_cards("T2")[0] if first.cards[0] is not parse_cards("T2")[0] else PETIT
    cases.append(
        (
            replace(record, tricks=(replace(first, cards=tuple(stolen)), *tricks[1:])),
            "card_not_held",
        )
    )
    cases.append(
        (
            replace(record, poignees=(PoigneeShown(seat=1, size=PoigneeSize.SIMPLE),)),
            "poignee_not_held",
        )
    )
    for bad, code in cases:
        with pytest.raises(RuleError) as err:
            validate_play(bad)
        assert err.value.code == code, code
    validate_play(replace(record, poignees=(PoigneeShown(seat=0, size=PoigneeSize.TRIPLE),)))


def scripted(tricks: list[tuple[int, str]], contract: Contract = Contract.GARDE_SANS) -> PlayRecord:
    deal = generate_deals(4, 1, 1)[0]
    return PlayRecord(
        deal=deal,
        taker=0,
        contract=contract,
        tricks=tuple(Trick(leader, parse_cards(cards)) for leader, cards in tricks),
    )


def test_excuse_exchange_is_settled_at_the_count() -> None:
    chien = card_half = sum(card.points_half for card in scripted([]).deal.chien)
    # N (attack) wins the first trick where W (defence) excused: W keeps 4, N gets 0.5.
    count = count_play(scripted([(0, "S14 EX S2 S3"), (0, "H14 H2 H3 H4")]))
    assert count.attack_half == card_half + (9 + 1 + 1) + 1 + (9 + 1 + 1 + 1)
    assert count.attack_oudlers == sum(1 for card in scripted([]).deal.chien if card.is_oudler)
    assert count.chelem_made_by is Side.ATTACK
    # The attack's own Excuse in a trick won by the defence: attack keeps 4, defence 0.5.
    count = count_play(scripted([(0, "EX S2 S14 S3"), (1, "H14 H2 H3 H4")]))
    assert count.attack_half == chien + 8
    assert count.chelem_made_by is Side.DEFENCE


def test_excuse_in_the_last_trick_of_a_chelem_stays_with_its_owner() -> None:
    # Defence's Excuse in the last trick of an attack chelem: the defence keeps it (4 points),
    # the attack gets the half point of the exchange.
    kept = count_play(scripted([(0, "S14 S2 S3 S4"), (0, "H14 EX H2 H3")], Contract.GARDE_CONTRE))
    assert kept.chelem_made_by is Side.ATTACK
    assert kept.attack_half == (9 + 3) + (9 + 2) + 1
    assert kept.attack_oudlers == 0
    # Attack's Excuse in the last trick after winning every trick: it wins (chelem).
    chelem = count_play(scripted([(0, "S14 S2 S3 S4"), (0, "EX H14 H2 H3")], Contract.GARDE_CONTRE))
    assert chelem.trick_winners == (0, 0)
    assert chelem.chelem_made_by is Side.ATTACK
    assert chelem.attack_half == 9 + 3 + 9 + 9 + 2


def test_petit_au_bout_goes_to_the_side_winning_the_last_trick() -> None:
    attack = count_play(scripted([(0, "S14 S2 S3 S4"), (0, "T21 T1 H2 H3")]))
    assert attack.petit_au_bout is Side.ATTACK
    defence = count_play(scripted([(0, "S14 S2 S3 S4"), (0, "T1 T21 H2 H3")]))
    assert defence.petit_au_bout is Side.DEFENCE
    none = count_play(scripted([(0, "T1 S2 S3 S4"), (0, "T21 H1 H2 H3")]))
    assert none.petit_au_bout is None


def test_five_player_partner_and_called_king() -> None:
    deal = generate_deals(5, 30, "five")
    for number, one in enumerate(deal):
        played = simulate_deal(one, random.Random(number), taker_seat=number % 5)
        assert played.record is not None and played.outcome is not None
        record = played.record
        assert record.called_card is not None
        holders = [seat for seat, hand in enumerate(one.hands) if record.called_card in hand]
        expected = holders[0] if holders and holders[0] != record.taker else None
        assert record.partner == expected
        assert played.outcome.partner == (expected is not None)
        validate_play(record)
        with pytest.raises(RuleError) as err:
            validate_play(replace(record, called_card=None))
        assert err.value.code == "invalid_called_card"

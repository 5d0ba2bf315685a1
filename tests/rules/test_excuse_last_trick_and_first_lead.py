"""Two FFT rules from docs/domain/tarot-scoring.md (issue 12, items 1 and 2).

- The Excuse played in the last trick outside a chelem changes camp, whoever wins that trick;
  at 4 players the count can then end in a half point, rounded like at 3 and 5 players.
- At 5 players the first lead may not be in the called King's suit, except with the King.

Scripted tricks check the spec's cases one by one; random complete plays (bounded in number,
each card chosen among the engine's legal cards) and the heuristic simulator check that the
rules hold on whole deals, against a count written here independently of ``rules.play``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules import (
    EXCUSE,
    Card,
    Contract,
    Deal,
    Outcome,
    PlayRecord,
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
    validate_play,
)
from rules.enums import HAND_SIZE, NEEDED_HALF_POINTS
from rules.play import (
    excuse_takes_last_trick,
    first_leader,
    hands_at_play,
    required_called_rank,
)

# --------------------------------------------------------------------------- helpers


def codes(cards: list[Card]) -> str:
    return " ".join(card.code for card in cards)


def scripted(
    deal: Deal,
    tricks: list[tuple[int, str]],
    called: Card | None = None,
) -> PlayRecord:
    """Seat 0 takes a garde contre (the chien counts for the defence): only tricks count."""
    return PlayRecord(
        deal=deal,
        taker=0,
        contract=Contract.GARDE_CONTRE,
        tricks=tuple(Trick(leader, parse_cards(cards)) for leader, cards in tricks),
        called_card=called,
    )


def four_player_deal() -> Deal:
    return generate_deals(4, 1, "excuse-last-trick")[0]


def five_player_deal_with_partner() -> tuple[Deal, Card, int]:
    """A 5-player deal, a King held by a seat other than 0 (the taker) and that seat."""
    deal = generate_deals(5, 1, "excuse-last-trick-5")[0]
    for seat in range(1, 5):
        for card in deal.hands[seat]:
            if card.is_king:
                return deal, card, seat
    raise AssertionError("the taker holds all four Kings in this fixed deal")


def winner_position(cards: tuple[Card, ...]) -> int:
    """Highest trump, else highest card of the suit led (the Excuse set aside)."""
    trumps = [(card.rank, position) for position, card in enumerate(cards) if card.is_trump]
    if trumps:
        return max(trumps)[1]
    led = next(card for card in cards if card is not EXCUSE)
    return max(
        (card.rank, position) for position, card in enumerate(cards) if card.suit is led.suit
    )[1]


def independent_count(record: PlayRecord, attack: set[int]) -> tuple[int, int]:
    """Attack half-points and oudlers of a garde sans / garde contre, with the FFT Excuse rule.

    Written from the spec, not from ``rules.play``: the Excuse wins the last trick only when its
    owner's side won every other trick; in any other trick its owner keeps it and hands over a
    half point; in the last trick outside a chelem it goes whole to the owner's opponents.
    """
    players = record.deal.players
    half = oudlers = 0
    if record.contract is Contract.GARDE_SANS:
        half += sum(card.points_half for card in record.deal.chien)
        oudlers += sum(1 for card in record.deal.chien if card.is_oudler)
    sides: list[bool] = []
    excuse: tuple[int, int, bool] | None = None  # (trick number, owner, winner in attack)
    last = len(record.tricks) - 1
    for number, trick in enumerate(record.tricks):
        winner = (trick.leader - winner_position(trick.cards)) % players
        owner = None
        if EXCUSE in trick.cards:
            owner = (trick.leader - trick.cards.index(EXCUSE)) % players
            if number == last and all(side == (owner in attack) for side in sides):
                winner = owner
        sides.append(winner in attack)
        if owner is not None:
            excuse = (number, owner, winner in attack)
        if winner in attack:
            half += sum(card.points_half for card in trick.cards if card is not EXCUSE)
            oudlers += sum(1 for card in trick.cards if card.is_oudler and card is not EXCUSE)
    if excuse is None:
        assert EXCUSE in record.deal.chien  # counted with the chien above (garde sans)
        return half, oudlers
    number, owner, winner_attack = excuse
    owner_attack = owner in attack
    chelem = all(sides) or not any(sides)
    if number == last and not chelem:
        half += 0 if owner_attack else 9  # changes camp, nothing handed over
        oudlers += 0 if owner_attack else 1
    elif owner_attack:
        half += 9 if winner_attack else 8
        oudlers += 1
    else:
        half += 1 if winner_attack else 0
    return half, oudlers


# ---------------------------------------------------------------- the spec, case by case


def test_defence_excuse_in_the_last_trick_won_by_its_own_side_goes_to_the_attack() -> None:
    """FFT (docs/domain/tarot-scoring.md, card play): played in the last trick outside a chelem,
    the Excuse changes camp: it goes to the opposing side, whoever wins that trick (even a partner
    of its owner) and no low card is given for it. Consequence: the attack's count can then end
    in a half point at 4 players too.

    4 players, seat 0 takes: the attack wins the first trick; in the last trick the defender in
    seat 3 plays the Excuse and the defender in seat 2 wins the trick.
    """
    record = scripted(four_player_deal(), [(0, "S14 S2 S3 S4"), (0, "H2 EX H14 H3")])
    count = count_play(record)
    assert count.trick_winners == (0, 2)
    assert count.chelem_made_by is None
    # First trick 9 + 3 × 1; the defence's Excuse 9 half-points, whole, with no exchange.
    assert count.attack_half == 12 + 9
    assert count.attack_half % 2 == 1  # a half point at 4 players
    assert count.attack_oudlers == 1


def test_taker_excuse_in_the_last_trick_won_by_the_partner_goes_to_the_defence() -> None:
    """FFT (docs/domain/tarot-scoring.md, card play): the Excuse in the last trick outside a chelem
    goes to the opposing side, whoever wins that trick (even when a partner of its owner wins it).

    5 players: the taker (seat 0) plays the Excuse in the last trick and his called partner
    wins it; the Excuse goes to the defence (the house rule would give it to the attack).
    """
    deal, king, partner = five_player_deal_with_partner()
    defender = next(seat for seat in range(1, 5) if seat != partner)
    # A card at position p of a trick led by seat l is played by seat (l - p) mod 5.
    first = ["S2", "S3", "S4", "S5", "S6"]
    first[(0 - defender) % 5] = "S14"
    last = ["H2", "H3", "H4", "H5", "H6"]
    last[(defender - 0) % 5] = "EX"
    last[(defender - partner) % 5] = "H14"
    record = scripted(deal, [(0, " ".join(first)), (defender, " ".join(last))], called=king)
    assert record.partner == partner
    count = count_play(record)
    assert count.trick_winners == (defender, partner)
    assert count.chelem_made_by is None
    # The partner's trick without the Excuse (King 9 + three low cards), and nothing for it.
    assert count.attack_half == 9 + 3
    assert count.attack_oudlers == 0
    assert count.defence_half == 182 - 12


def test_excuse_of_the_side_making_every_other_trick_wins_the_last() -> None:
    """FFT (docs/domain/tarot-scoring.md, card play): when the side holding the Excuse has won every
    other trick (a chelem in progress), the Excuse played in the last trick wins it. It does not
    change camp."""
    count = count_play(scripted(four_player_deal(), [(0, "S14 S2 S3 S4"), (0, "EX H14 H2 H3")]))
    assert count.trick_winners == (0, 0)
    assert count.chelem_made_by is Side.ATTACK
    assert count.attack_half == 12 + 9 + 9 + 2
    assert count.attack_oudlers == 1


def test_taker_excuse_in_the_last_trick_of_a_defence_chelem_stays_his() -> None:
    """FFT (docs/domain/tarot-scoring.md): the Excuse changes camp only outside a chelem; its
    owner keeps it otherwise (the exchange of a half-point card is settled at the count,
    [convention])."""
    count = count_play(scripted(four_player_deal(), [(0, "S2 S14 S3 S4"), (3, "H14 H2 H3 EX")]))
    assert count.trick_winners == (3, 3)
    assert count.chelem_made_by is Side.DEFENCE
    assert count.attack_half == 8
    assert count.attack_oudlers == 1


@pytest.mark.parametrize(
    ("points_half", "won", "margin", "value"),
    [(81, False, 1, -52), (83, True, 1, 52), (79, False, 2, -54), (85, True, 2, 54)],
)
def test_a_half_point_at_4_players_rounds_up_for_the_side_that_scores(
    points_half: int, won: bool, margin: int, value: int
) -> None:
    """FFT (docs/domain/tarot-scoring.md, counting step 2): a half point is rounded up, in favour
    of the side that scores (40.5 for 41 needed: lost by 1; 41.5: won by 1). At 4 players points
    are whole, except in the rare deal where the Excuse changed camp at the last trick (same
    rounding).

    4 players, garde (×2), 2 oudlers (41 needed).
    """
    score = score_deal(Outcome(4, Contract.GARDE, oudlers=2, points_half=points_half))
    assert (score.won, score.margin, score.value) == (won, margin, value)
    assert score.marks.taker == 3 * value and score.marks.defender == -value


# ------------------------------------------------------------------ 5 players: first lead


@pytest.mark.parametrize(
    ("hand", "trick", "called", "legal"),
    [
        ("S14 S3 H2 H5 T4 EX", "", "H14", "S14 S3 T4 EX"),  # no heart led
        ("H14 H2 S3", "", "H14", "H14 S3"),  # the called King itself may be led
        ("D13 D2 C4", "", "D13", "D13 C4"),  # a called Queen (taker holding four Kings)
        ("H2 S3", "EX", "H14", "H2 S3"),  # [convention] after an Excuse led: free
        ("H2 S3", "", None, "H2 S3"),  # later tricks, 3 and 4 players: no restriction
    ],
)
def test_first_lead_may_not_be_in_the_called_suit(
    hand: str, trick: str, called: str | None, legal: str
) -> None:
    """FFT (docs/domain/tarot-scoring.md, card play): at 5 players the first lead of the deal may
    not be in the suit of the called King, unless it is the called King itself."""
    called_card = parse_cards(called)[0] if called else None
    assert codes(legal_cards(parse_cards(hand), parse_cards(trick), called_card)) == legal


def test_validate_play_refuses_a_first_lead_in_the_called_suit() -> None:
    """A real 5-player deal replayed with its first card swapped for a low card of the called
    suit held by the same player: refused on that card (the rest of the record is untouched)."""
    for number, deal in enumerate(generate_deals(5, 40, "first-lead")):
        played = simulate_deal(deal, random.Random(number), taker_seat=number % 5)
        record = played.record
        assert record is not None and record.called_card is not None
        validate_play(record)
        first = record.tricks[0]
        called = record.called_card
        hand = hands_at_play(record)[first.leader]
        low = [card for card in hand if card.suit is called.suit and card != called]
        if not low:
            continue
        bad = replace(first, cards=(low[0], *first.cards[1:]))
        with pytest.raises(RuleError) as err:
            validate_play(replace(record, tricks=(bad, *record.tricks[1:])))
        assert err.value.code == "illegal_card"
        assert err.value.field == "tricks[0]"
        return
    raise AssertionError("no first leader held a low card of the called suit in 40 deals")


def test_simulated_5_player_deals_respect_the_first_lead() -> None:
    """The simulator plays the engine's legal cards: on 300 deals (greedy and whimsical
    players) no first lead is in the called suit but the called card, and every record
    passes ``validate_play``. At least one leader had a card of that suit (not vacuous)."""
    tempted = 0
    for number, deal in enumerate(generate_deals(5, 300, "first-lead-property")):
        played = simulate_deal(
            deal, random.Random(number), taker_seat=number % 5, whim=0.5 if number % 2 else 0.0
        )
        record = played.record
        assert record is not None and record.called_card is not None
        called = record.called_card
        lead = record.tricks[0].cards[0]
        assert lead.suit is not called.suit or lead == called
        leader_hand = hands_at_play(record)[record.tricks[0].leader]
        tempted += any(card.suit is called.suit and card != called for card in leader_hand)
        validate_play(record)
    assert tempted > 0


# ------------------------------------------------- random complete plays: the Excuse rule


def random_play(deal: Deal, rng: random.Random, keep_excuse: bool) -> PlayRecord:
    """A garde sans or contre by a random taker, every card chosen at random among the legal
    ones; with ``keep_excuse`` its holder keeps the Excuse for the last trick."""
    players = deal.players
    taker = rng.randrange(players)
    called: Card | None = None
    if players == 5:
        rank = required_called_rank(deal.hands[taker])
        candidates = [
            card
            for hand in deal.hands
            for card in hand
            if card.rank == rank and not card.is_trump and not card.is_excuse
        ]
        called = rng.choice(sorted(candidates, key=lambda card: card.code))
    base = PlayRecord(
        deal=deal,
        taker=taker,
        contract=rng.choice((Contract.GARDE_SANS, Contract.GARDE_CONTRE)),
        tricks=(),
        called_card=called,
    )
    attack = base.attack
    hands = [list(hand) for hand in deal.hands]
    leader = first_leader(base)
    sides: list[bool] = []
    tricks: list[Trick] = []
    last = HAND_SIZE[players] - 1
    for number in range(HAND_SIZE[players]):
        cards: list[Card] = []
        seat = leader
        for _ in range(players):
            legal = legal_cards(hands[seat], cards, called if number == 0 else None)
            if keep_excuse and len(legal) > 1:
                legal = [card for card in legal if card is not EXCUSE]
            card = rng.choice(legal)
            hands[seat].remove(card)
            cards.append(card)
            seat = (seat - 1) % players
        trick = Trick(leader, tuple(cards))
        excuse_wins = excuse_takes_last_trick(trick, players, attack, sides, number == last)
        position = cards.index(EXCUSE) if excuse_wins else winner_position(trick.cards)
        leader = trick.seat_at(position, players)
        sides.append(leader in attack)
        tricks.append(trick)
    return replace(base, tricks=tuple(tricks))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_plays_count_the_excuse_of_the_last_trick_for_the_other_camp(players: int) -> None:
    """300 random complete plays per player count (two thirds keep the Excuse to the end): each
    record is legal, the engine's count equals the independent one, both sides total 91, the
    outcome scores, and the margin is the difference rounded up for the side that scores. At 4
    players a half-point count appears exactly when the Excuse changed camp in a trick won by
    its owner's side."""
    rng = random.Random(f"excuse-last-trick-{players}")
    deals = generate_deals(players, 300, f"excuse-last-trick-{players}")
    changed_camp = odd_counts = 0
    for number, deal in enumerate(deals):
        record = random_play(deal, rng, keep_excuse=number % 3 != 0)
        validate_play(record)
        attack = set(record.attack)
        count = count_play(record)
        half, oudlers = independent_count(record, attack)
        assert (count.attack_half, count.attack_oudlers) == (half, oudlers), number
        assert count.attack_half + count.defence_half == 182
        last = record.tricks[-1]
        in_last = EXCUSE in last.cards
        no_chelem = count.chelem_made_by is None
        owner_side_won_last = False
        if in_last and no_chelem:
            changed_camp += 1
            owner = last.seat_at(last.cards.index(EXCUSE), players)
            owner_side_won_last = (owner in attack) == (count.trick_winners[-1] in attack)
        if players == 4:
            assert (count.attack_half % 2 == 1) == (in_last and no_chelem and owner_side_won_last)
            odd_counts += count.attack_half % 2
        score = score_deal(outcome_from_play(record, validate=False))
        diff = count.attack_half - NEEDED_HALF_POINTS[count.attack_oudlers]
        assert score.won == (diff >= 0)
        assert score.margin == -(-abs(diff) // 2)  # whole points, a half point rounded up
    assert changed_camp >= 100
    if players == 4:
        assert odd_counts > 0

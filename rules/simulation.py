"""Heuristic players: from a dealt hand to the marks, for tests, demos and benchmarks.

The players are simple and fast, not strong: they value their hands to bid, discard legally,
show poignées when eligible (not always), announce a chelem now and then with a monster hand,
and play only legal cards with a few greedy habits (win cheaply, give points to a winning
partner, shed low cards otherwise, never keep the Excuse for the last trick unless their side
is on its way to a chelem). They know who is in the attack, including the called partner at 5
players: the heuristics do not model hidden information.

Duplicate use: ``taker_seat`` imposes the taker (everybody else passes) and ``min_contract``
imposes a floor (at least a Garde in duplicate). Everything random comes from the ``rng``
argument, so a seeded ``random.Random`` replays the same play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules.bidding import Bid, bidding_order, bidding_result
from rules.cards import DECK, EXCUSE, PETIT, PLAIN_SUITS, TWENTY_ONE, Card
from rules.deal import Deal, max_poignee, seat_index
from rules.enums import CHIEN_SIZE, HAND_SIZE, Contract
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.play import (
    PlayRecord,
    PoigneeShown,
    Trick,
    can_discard,
    first_leader,
    hands_at_play,
    legal_cards,
    outcome_from_play,
    required_called_rank,
)
from rules.scoring import DealScore, Outcome, score_deal

# Hand strength on the 4-player scale (18 cards) at which a player bids each contract.
BID_THRESHOLDS: tuple[tuple[int, Contract], ...] = (
    (60, Contract.GARDE_CONTRE),
    (53, Contract.GARDE_SANS),
    (43, Contract.GARDE),
    (36, Contract.PRISE),
)
# Roughly one hand in a few thousand: the taker then announces a chelem (with chelem_rate).
CHELEM_STRENGTH = 66


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A simulated deal: the auction, then (unless passed out) the play, outcome and score."""

    deal: Deal
    bids: tuple[Bid, ...]
    record: PlayRecord | None
    outcome: Outcome | None
    score: DealScore | None

    @property
    def passed_out(self) -> bool:
        """Everybody passed and no taker was imposed: no play, no score."""
        return self.record is None


def hand_strength(hand: Sequence[Card], players: int) -> int:
    """A rough bidding value of a hand, scaled to 18 cards (higher is stronger)."""
    trumps = [card for card in hand if card.is_trump]
    count = len(trumps)
    strength = 2 * count + sum(1 for card in trumps if card.rank >= 16)
    if TWENTY_ONE in hand:
        strength += 10
    if PETIT in hand:
        strength += 8 if count >= 6 else 3
    if EXCUSE in hand:
        strength += 7
    for suit in PLAIN_SUITS:
        ranks = {card.rank for card in hand if card.suit is suit}
        length = len(ranks)
        if 14 in ranks:
            strength += 6
            if 13 in ranks:
                strength += 3
        if 13 in ranks:
            strength += 3
        if 12 in ranks:
            strength += 2
        if 11 in ranks:
            strength += 1
        if length >= 5:
            strength += 2 * (length - 4)
        elif length == 0 and count >= 5:
            strength += 4
        elif length == 1 and count >= 5:
            strength += 1
    return strength * 18 // HAND_SIZE[players]


def preferred_contract(hand: Sequence[Card], players: int) -> Contract | None:
    """The highest contract this hand is worth, or ``None`` (pass)."""
    strength = hand_strength(hand, players)
    for threshold, contract in BID_THRESHOLDS:
        if strength >= threshold:
            return contract
    return None


def _choose_ecart(cards: Sequence[Card], size: int) -> list[Card]:
    """Discard to create voids and bank points: short suits first, highest value first."""
    plain = [card for card in cards if card.suit in PLAIN_SUITS and can_discard(card)]
    if len(plain) >= size:
        suit_length = {suit: 0 for suit in PLAIN_SUITS}
        kings = {card.suit for card in cards if card.is_king}
        for card in cards:
            if card.suit in suit_length:
                suit_length[card.suit] += 1
        plain.sort(key=lambda card: (card.suit in kings, suit_length[card.suit], -card.points_half))
        return plain[:size]
    trumps = sorted(
        (card for card in cards if card.is_trump and can_discard(card)), key=lambda c: c.rank
    )
    return plain + trumps[: size - len(plain)]


def _choose_called_card(hand: Sequence[Card], rng: random.Random) -> Card:
    rank = required_called_rank(hand)
    options = [card for card in DECK if card.rank == rank and card.suit in PLAIN_SUITS]
    not_held = [card for card in options if card not in hand] or options
    lengths = {card.suit: sum(1 for c in hand if c.suit is card.suit) for card in not_held}
    best = max(lengths.values())
    return rng.choice([card for card in not_held if lengths[card.suit] == best])


def _beats(card: Card, best: Card) -> bool:
    if card.is_trump:
        return not best.is_trump or card.rank > best.rank
    return not best.is_trump and card.suit is best.suit and card.rank > best.rank


def _cheapest(cards: Sequence[Card]) -> Card:
    """Lowest value, then lowest rank; trumps after plain cards of equal value."""
    return min(cards, key=lambda card: (card.points_half, card.is_trump, card.rank))


class _Table:
    """Mutable play state for one simulated deal."""

    def __init__(self, record_base: PlayRecord, attack: frozenset[int]) -> None:
        self.players = record_base.deal.players
        self.hands = hands_at_play(record_base)
        self.attack = attack
        self.is_attack = [seat in attack for seat in range(self.players)]
        self.winner_sides: list[bool] = []

    def side_has_all_tricks(self, seat: int) -> bool:
        mine = self.is_attack[seat]
        return all(side == mine for side in self.winner_sides)

    def choose(self, seat: int, cards: list[Card], best: Card | None, best_seat: int) -> Card:
        hand = self.hands[seat]
        legal = legal_cards(hand, cards)
        if len(legal) == 1:
            return legal[0]
        remaining = len(hand)
        if EXCUSE in legal:
            chelem_run = self.side_has_all_tricks(seat) and bool(self.winner_sides)
            if remaining == 2 and not chelem_run:
                return EXCUSE  # never keep it for the last trick
            if remaining == 1:
                return EXCUSE
            others = [card for card in legal if card is not EXCUSE]
            if chelem_run and remaining > 1:
                legal = others
            elif best is not None and self.is_attack[best_seat] != self.is_attack[seat]:
                if all(card.points_half >= 5 for card in others) and not any(
                    _beats(card, best) for card in others
                ):
                    return EXCUSE  # protect a valuable card the trick would lose
                legal = others
            else:
                legal = others
        if best is None:
            return self._lead(seat, legal)
        if self.is_attack[best_seat] == self.is_attack[seat]:
            # Partner winning: give points without wasting trumps.
            plain = [card for card in legal if not card.is_trump]
            if plain:
                return max(plain, key=lambda card: (card.points_half, card.rank))
            return min(legal, key=lambda card: (card.is_oudler, card.rank))
        winners = [card for card in legal if _beats(card, best)]
        last_to_play = len(cards) == self.players - 1
        if winners:
            winners.sort(key=lambda card: card.rank)
            if winners[0] is PETIT and len(winners) > 1 and not last_to_play:
                return winners[1]
            return winners[0]
        return _cheapest(legal)

    def _lead(self, seat: int, legal: list[Card]) -> Card:
        hand = self.hands[seat]
        trumps = [card for card in legal if card.is_trump]
        if self.is_attack[seat] and len(trumps) * 2 >= len(hand) and len(trumps) >= 3:
            safe = [card for card in trumps if card is not PETIT] or trumps
            return max(safe, key=lambda card: card.rank)
        kings = [card for card in legal if card.is_king]
        if kings:
            return kings[0]
        plain = [card for card in legal if not card.is_trump]
        if plain:
            length = {suit: 0 for suit in PLAIN_SUITS}
            for card in plain:
                length[card.suit] += 1
            return min(plain, key=lambda card: (-length[card.suit], card.points_half, card.rank))
        safe = [card for card in legal if card is not PETIT] or legal
        return min(safe, key=lambda card: card.rank)


def simulate_deal(
    deal: Deal,
    rng: random.Random,
    taker_seat: int | str | None = None,
    min_contract: Contract | None = None,
    poignee_rate: float = 0.6,
    chelem_rate: float = 0.5,
) -> PlayedDeal:
    """Bid, discard, show poignées, play and score one deal with heuristic players.

    ``taker_seat`` (index or name) imposes the taker; ``min_contract`` imposes a floor on the
    contract (the imposed taker bids at least that, free bidders may not bid below it).
    Returns a passed-out :class:`PlayedDeal` when everybody passes and no taker is imposed.
    """
    players = deal.players
    order = bidding_order(players, deal.dealer)
    imposed: int | None
    if taker_seat is None:
        imposed = None
    elif isinstance(taker_seat, str):
        imposed = seat_index(players, taker_seat)
    elif 0 <= taker_seat < players:
        imposed = taker_seat
    else:
        raise RuleError(
            "unknown_seat",
            gettext_noop("taker %(seat)s is not a seat number"),
            {"seat": taker_seat},
            field="taker_seat",
        )
    floor = min_contract.rank if min_contract is not None else 0
    bids: list[Bid] = []
    highest: Contract | None = None
    for seat in order:
        wish = preferred_contract(deal.hands[seat], players)
        bid: Bid = None
        if imposed is not None:
            if seat == imposed:
                bid = wish if wish is not None and wish.rank >= floor else min_contract
                bid = bid or Contract.PRISE
        elif wish is not None and wish.rank >= max(floor, highest.rank + 1 if highest else 0):
            bid = wish
        if bid is not None:
            highest = bid
        bids.append(bid)
    result = bidding_result(players, deal.dealer, bids, min_contract)
    if result.taker is None or result.contract is None:
        return PlayedDeal(deal=deal, bids=tuple(bids), record=None, outcome=None, score=None)
    taker, contract = result.taker, result.contract

    ecart: tuple[Card, ...] = ()
    if contract.taker_sees_chien:
        ecart = tuple(
            _choose_ecart(list(deal.hands[taker]) + list(deal.chien), CHIEN_SIZE[players])
        )
    called = _choose_called_card(deal.hands[taker], rng) if players == 5 else None
    strength = hand_strength(deal.hands[taker], players)
    chelem_announced = strength >= CHELEM_STRENGTH and rng.random() < chelem_rate
    base = PlayRecord(
        deal=deal,
        taker=taker,
        contract=contract,
        tricks=(),
        ecart=ecart,
        called_card=called,
        chelem_announced=chelem_announced,
    )
    table = _Table(base, base.attack)
    poignees = tuple(
        PoigneeShown(seat=seat, size=size)
        for seat in range(players)
        if (size := max_poignee(table.hands[seat], players)) is not None
        and rng.random() < poignee_rate
    )

    tricks: list[Trick] = []
    leader = first_leader(base)
    hand_size = HAND_SIZE[players]
    for number in range(hand_size):
        cards: list[Card] = []
        best: Card | None = None
        best_position = -1
        seat = leader
        for position in range(players):
            card = table.choose(seat, cards, best, (leader - best_position) % players)
            table.hands[seat].remove(card)
            cards.append(card)
            if card is not EXCUSE and (best is None or _beats(card, best)):
                best, best_position = card, position
            seat = (seat - 1) % players
        winner = (leader - best_position) % players
        if number == hand_size - 1 and EXCUSE in cards:
            owner = (leader - cards.index(EXCUSE)) % players
            if table.side_has_all_tricks(owner):
                winner = owner
        tricks.append(Trick(leader=leader, cards=tuple(cards)))
        table.winner_sides.append(table.is_attack[winner])
        leader = winner

    record = PlayRecord(
        deal=deal,
        taker=taker,
        contract=contract,
        tricks=tuple(tricks),
        ecart=ecart,
        called_card=called,
        poignees=poignees,
        chelem_announced=chelem_announced,
    )
    outcome = outcome_from_play(record, validate=False)
    return PlayedDeal(
        deal=deal, bids=tuple(bids), record=record, outcome=outcome, score=score_deal(outcome)
    )

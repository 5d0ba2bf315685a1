"""Heuristic players: from a dealt hand to the marks, for tests, demos and benchmarks.

The players are simple and fast, not strong: they value their hands to bid, discard legally,
show poignées when eligible (not always), and play only legal cards with a few greedy habits
(win cheaply, give points to a winning partner, shed low cards otherwise, never keep the Excuse
for the last trick unless their side is on its way to a chelem). A taker with a strong hand
whose chelem play would win every trick (a look-ahead over the cards: he leads, draws the
trumps with master trumps, cashes the masters, the Petit last and the Excuse alone in the last
trick) announces a chelem with probability ``chelem_rate`` and otherwise plays for it
unannounced; at 3 and 4 players a taker who sees the chien makes a chelem-minded écart (the
plain cards that are not masters go, shortest suits first) when that chelem play then wins
every trick. They know who is in the attack, including the called partner at 5
players: the heuristics do not model hidden information. The legal cards and the winner of a
trick come from the rules engine itself (:func:`rules.play.legal_cards`,
:func:`rules.play.trick_winner`, :func:`rules.play.beats`).

Variety: the greedy players are deterministic, so identical cards give identical play; a
``whim`` (probability of playing any legal card instead of the greedy one) makes tables
holding the same cards play them differently (the demo uses it).

Duplicate use: ``taker_seat`` imposes the taker (everybody else passes) and ``min_contract``
imposes a floor (at least a Garde in duplicate). Everything random comes from the ``rng``
argument, so a seeded ``random.Random`` replays the same play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.bidding import Bid, bidding_order, bidding_result
from rules.cards import DECK, EXCUSE, PETIT, PLAIN_SUITS, TWENTY_ONE, Card, sort_cards
from rules.deal import Deal, deal_cards, has_petit_sec, max_poignee, next_seat, seat_index
from rules.enums import Contract
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.play import (
    CardPass,
    PlayRecord,
    PoigneeShown,
    Trick,
    beats,
    called_from_cards,
    can_discard,
    excuse_takes_last_trick,
    first_leader,
    hands_at_play,
    is_trump_trick,
    legal_cards,
    outcome_from_play,
    pass_count,
    required_called_rank,
    trick_winner,
)
from rules.ruleset import FFT, Ruleset
from rules.scoring import DealScore, Outcome, score_deal

# Hand strength on the 4-player scale (18 cards) at which a player bids each contract.
BID_THRESHOLDS: tuple[tuple[int, Contract], ...] = (
    (60, Contract.GARDE_CONTRE),
    (53, Contract.GARDE_SANS),
    (43, Contract.GARDE),
    (36, Contract.PRISE),
)
# [traditional] between Prise and Garde.
POUSSE_STRENGTH = 40
# The strength of the taker's hand at play (after the écart) from which he considers a chelem:
# he plays for it when his chelem play (:func:`_chelem_lead`) wins every trick, and announces it
# with probability ``chelem_rate``. About one deal in a thousand at 5 players (the partner
# helps), far rarer at 3 and 4 (the strongest hand taking at least a Garde on 20,000 seeded
# deals: 3 chelems at 4 players, 1 at 3; see ``measure_chelem_rate`` in the tests).
CHELEM_STRENGTH = 55


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

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks in play order (empty when passed out)."""
        return self.record.tricks if self.record is not None else ()


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
    return strength * 18 // max(len(hand), 1)


def preferred_contract(
    hand: Sequence[Card], players: int, ruleset: Ruleset = FFT
) -> Contract | None:
    """The highest contract this hand is worth among the ruleset's, or ``None`` (pass)."""
    strength = hand_strength(hand, players)
    for threshold, contract in BID_THRESHOLDS:
        if strength >= threshold:
            pousse = contract is Contract.PRISE and strength >= POUSSE_STRENGTH
            if pousse and Contract.POUSSE in ruleset.contracts:
                return Contract.POUSSE
            return contract
    return None


def _choose_ecart(cards: Sequence[Card], size: int, ruleset: Ruleset = FFT) -> list[Card]:
    """Discard to create voids and bank points: short suits first, highest value first.

    Kings go only where the ruleset allows them (traditional, version 2), their suits last;
    trumps only when unavoidable (:func:`rules.play.ecart_trumps_needed`)."""
    plain = [card for card in cards if card.suit in PLAIN_SUITS and can_discard(card, ruleset)]
    if len(plain) >= size:
        suit_length = {suit: 0 for suit in PLAIN_SUITS}
        kings = {card.suit for card in cards if card.is_king}
        for card in cards:
            if card.suit in suit_length:
                suit_length[card.suit] += 1
        plain.sort(key=lambda card: (card.suit in kings, suit_length[card.suit], -card.points_half))
        return plain[:size]
    trumps = sorted(
        (card for card in cards if card.is_trump and can_discard(card, ruleset)),
        key=lambda c: c.rank,
    )
    return plain + trumps[: size - len(plain)]


def _choose_chelem_ecart(
    cards: Sequence[Card], size: int, ruleset: Ruleset = FFT
) -> list[Card] | None:
    """A chelem-minded écart: discard the plain cards that are not masters (a higher card of
    their suit is out of ``cards``), shortest suits first to make voids, keeping the masters;
    ``None`` when the plain cards that may go are too few (trumps would go: the usual écart)."""
    held = {(card.suit, card.rank) for card in cards}
    plain = [card for card in cards if card.suit in PLAIN_SUITS and can_discard(card, ruleset)]
    if len(plain) < size:
        return None
    length = {suit: sum(1 for card in cards if card.suit is suit) for suit in PLAIN_SUITS}

    def master(card: Card) -> bool:
        return all((card.suit, rank) in held for rank in range(card.rank + 1, 15))

    plain.sort(key=lambda card: (master(card), length[card.suit], -card.points_half))
    return plain[:size]


def _choose_called_card(hand: Sequence[Card], rng: random.Random) -> Card:
    rank = required_called_rank(hand)
    options = [card for card in DECK if card.rank == rank and card.suit in PLAIN_SUITS]
    not_held = [card for card in options if card not in hand] or options
    lengths = {card.suit: sum(1 for c in hand if c.suit is card.suit) for card in not_held}
    best = max(lengths.values())
    return rng.choice([card for card in not_held if lengths[card.suit] == best])


# Precomputed sort keys (dict lookups keep the per-card cost low).
_CHEAP_KEY = {card: (card.points_half * 2 + card.is_trump) * 32 + card.rank for card in DECK}
_GIVE_KEY = {card: card.points_half * 32 + card.rank for card in DECK}
_SPARE_TRUMP_KEY = {card: card.is_oudler * 32 + card.rank for card in DECK}


def _excuse_due(hand: list[Card], legal: list[Card]) -> bool:
    """The Excuse is held with one other card: played now, or kept for the last trick."""
    return len(hand) == 2 and legal[-1] is EXCUSE


def _choose(
    hand: list[Card],
    legal: list[Card],
    best: Card | None,
    partner_winning: bool,
    last_to_play: bool,
    chelem_run: bool,
    attacker: bool,
) -> Card:
    """A greedy choice among ``legal`` (cards in canonical order)."""
    if len(legal) == 1:
        return legal[0]
    if legal[-1] is EXCUSE:
        remaining = len(hand)
        if remaining == 2 and not chelem_run:
            return EXCUSE  # never keep it for the last trick
        others = legal[:-1]
        if (
            not chelem_run
            and best is not None
            and not partner_winning
            and all(_GIVE_KEY[card] >= 5 * 32 for card in others)
            and not any(beats(card, best) for card in others)
        ):
            return EXCUSE  # protect a valuable card the trick would lose
        legal = others
        if len(legal) == 1:
            return legal[0]
    if best is None:
        return _lead(hand, legal, attacker)
    if partner_winning:
        # Give points without wasting trumps.
        if not legal[0].is_trump:
            plain = [card for card in legal if not card.is_trump]
            return max(plain, key=_GIVE_KEY.__getitem__)
        return min(legal, key=_SPARE_TRUMP_KEY.__getitem__)
    # Opponents winning: win as cheaply as possible (legal cards of one kind are in rank
    # order), keeping the Petit back unless it wins for sure, or else shed the cheapest card.
    winners = [card for card in legal if beats(card, best)]
    if winners:
        if winners[0] is PETIT and len(winners) > 1 and not last_to_play:
            return winners[1]
        return winners[0]
    return min(legal, key=_CHEAP_KEY.__getitem__)


def _lead(hand: list[Card], legal: list[Card], attacker: bool) -> Card:
    trumps = [card for card in legal if card.is_trump]
    if attacker and len(trumps) >= 3 and len(trumps) * 2 >= len(hand):
        return trumps[-1] if trumps[-1] is not PETIT else trumps[0]
    plain = [card for card in legal if not card.is_trump]
    for card in plain:
        if card.is_king:
            return card
    if plain:
        length = {suit: 0 for suit in PLAIN_SUITS}
        for card in plain:
            length[card.suit] += 1
        longest = max(length.values())
        # The lowest card of the longest suit (cards are in rank order within a suit).
        return next(card for card in plain if length[card.suit] == longest)
    if len(trumps) > 1 and trumps[0] is PETIT:
        return trumps[1]
    return trumps[0] if trumps else legal[0]


def _sure_winner(card: Card, hands: Sequence[Sequence[Card]], opponents: Sequence[int]) -> bool:
    """Whether ``card``, led now, wins the trick whatever the ``opponents`` play (full view)."""
    if card.is_excuse:
        return False
    if card.is_trump:
        return all(
            not (other.is_trump and other.rank > card.rank)
            for seat in opponents
            for other in hands[seat]
        )
    for seat in opponents:
        hand = hands[seat]
        follows = False
        for other in hand:
            if other.suit is card.suit:
                if other.rank > card.rank:
                    return False
                follows = True
        if not follows and any(other.is_trump for other in hand):
            return False
    return True


def _chelem_lead(
    hand: list[Card], legal: list[Card], hands: Sequence[Sequence[Card]], opponents: Sequence[int]
) -> Card:
    """A lead for a side on its way to a chelem: draw the opponents' trumps with master trumps,
    then cash the master cards of the plain suits, then the trumps, the Petit last (au bout)
    and the Excuse alone in the last trick."""
    cards = [card for card in legal if card is not EXCUSE] or legal
    sure = [card for card in cards if _sure_winner(card, hands, opponents)]
    opponents_trump = any(card.is_trump for seat in opponents for card in hands[seat])
    trumps = [card for card in sure if card.is_trump and card is not PETIT]
    if opponents_trump and trumps:
        return trumps[-1]
    plain = [card for card in sure if not card.is_trump]
    if plain:
        return max(plain, key=_GIVE_KEY.__getitem__)
    if trumps:
        return trumps[-1]
    if sure:
        return sure[0]  # the Petit
    return _lead(hand, cards, True)


@dataclass(slots=True)
class _Play:
    """The tricks played and (house rules) the cards passed after trump tricks."""

    tricks: list[Trick]
    passes: list[CardPass]
    attack_tricks: int


def _play_tricks(
    hands: list[list[Card]],
    leader: int,
    is_attack: Sequence[bool],
    called: Card | None,
    rng: random.Random,
    whim: float,
    chelem_play: bool,
    ruleset: Ruleset = FFT,
    announcer: int | None = None,
) -> _Play:
    """Play every trick from ``hands`` (sorted; emptied as cards are played).

    ``chelem_play``: the attack plays for a chelem (it leads with :func:`_chelem_lead` while it
    has won every trick, and makes no whimsical choice then). ``announcer``: the seat that
    announced a chelem (the house rules keep his Excuse for the last trick). **[house]** After
    a trick made only of trumps (but the last) each player passes cards drawn with ``rng`` to
    the player on his right.
    """
    players = len(hands)
    attack = frozenset(seat for seat in range(players) if is_attack[seat])
    sides = [[seat for seat in range(players) if is_attack[seat] != flag] for flag in (0, 1)]
    tricks: list[Trick] = []
    passes: list[CardPass] = []
    winner_sides: list[bool] = []
    attack_tricks = 0
    hand_size = len(hands[0])
    passing = ruleset.trump_trick_pass
    for number in range(hand_size):
        cards: list[Card] = []
        best: Card | None = None  # the card winning the trick so far (None: none but the Excuse)
        best_position = -1
        seat = leader
        chelem_on = chelem_play and attack_tricks == number
        for position in range(players):
            hand = hands[seat]
            attacker = is_attack[seat]
            legal = legal_cards(
                hand, cards, called if number == 0 else None, ruleset, seat == announcer
            )
            if (
                whim
                and not (chelem_on and attacker)
                and len(legal) > 1
                and not _excuse_due(hand, legal)
                and rng.random() < whim
            ):
                card = rng.choice(legal)
            elif chelem_on and attacker and position == 0 and len(legal) > 1:
                card = _chelem_lead(hand, legal, hands, sides[attacker])
            else:
                mine = attack_tricks if attacker else number - attack_tricks
                card = _choose(
                    hand,
                    legal,
                    best,
                    best is not None and is_attack[(leader - best_position) % players] == attacker,
                    position == players - 1,
                    number > 0 and mine == number,
                    attacker,
                )
            hand.remove(card)
            cards.append(card)
            if card is not EXCUSE and (best is None or beats(card, best)):
                best, best_position = card, position  # what trick_winner(cards) gives
            seat = (seat - 1) % players
        trick = Trick(leader=leader, cards=tuple(cards))
        excuse_wins = excuse_takes_last_trick(
            trick, players, attack, winner_sides, number == hand_size - 1
        )
        winner = trick.seat_at(trick_winner(cards, excuse_wins), players)
        tricks.append(trick)
        winner_sides.append(is_attack[winner])
        attack_tricks += is_attack[winner]
        leader = winner
        if passing and number < hand_size - 1 and is_trump_trick(trick):
            passed = tuple(
                tuple(sort_cards(rng.sample(hand, pass_count(ruleset, hand)))) for hand in hands
            )
            for giver, given in enumerate(passed):
                for card in given:
                    hands[giver].remove(card)
            for giver, given in enumerate(passed):
                receiver = hands[next_seat(players, giver)]
                receiver.extend(given)
                receiver[:] = sort_cards(receiver)
            passes.append(CardPass(after_trick=number, cards=passed))
    return _Play(tricks=tricks, passes=passes, attack_tricks=attack_tricks)


def _chelem_losses(
    hands: Sequence[Sequence[Card]],
    taker: int,
    is_attack: Sequence[bool],
    called: Card | None,
    ruleset: Ruleset,
) -> int:
    """Tricks the attack loses when the taker leads and plays for the chelem (a look-ahead
    over every hand; the house passes in it are drawn from a fixed generator, not the deal's)."""
    copies = [list(hand) for hand in hands]
    lookahead = random.Random(len(hands[0]))
    play = _play_tricks(copies, taker, is_attack, called, lookahead, 0.0, True, ruleset, taker)
    return len(play.tricks) - play.attack_tricks


def deal_for_simulation(
    players: int, rng: random.Random, dealer: int = 0, ruleset: Ruleset = FFT
) -> Deal:
    """A random deal under ``ruleset``: the dealer picks the chien size among the allowed ones
    with ``rng`` (**[house]**; one size otherwise), a deal with a petit sec is dealt again."""
    sizes = ruleset.chien_sizes(players)
    while True:
        chien_size = sizes[0] if len(sizes) == 1 else rng.choice(sizes)
        deal = deal_cards(players, rng, dealer, ruleset, chien_size)
        if not has_petit_sec(deal):
            return deal


def simulate_deal(
    deal: Deal,
    rng: random.Random,
    taker_seat: int | str | None = None,
    min_contract: Contract | None = None,
    poignee_rate: float = 0.6,
    chelem_rate: float = 0.5,
    whim: float = 0.0,
    ruleset: Ruleset = FFT,
) -> PlayedDeal:
    """Bid, discard, show poignées, play and score one deal with heuristic players.

    ``taker_seat`` (index or name) imposes the taker; ``min_contract`` imposes a floor on the
    contract (the imposed taker bids at least that, free bidders may not bid below it).
    ``whim`` is the probability that a player with a choice plays any legal card instead of
    the greedy one (never keeping the Excuse for the last trick): with ``whim > 0`` tables
    holding the same cards play them differently, as the demo's tables do.
    ``ruleset`` (the FFT's by default) sets the contracts bid (the pousse), the chien (the
    deal's), the call (after the chien, or none in the flambeuse), the poignées, the petit
    chelem (announced like a chelem when the look-ahead loses exactly one trick), the legal
    cards and the house passes.
    Returns a passed-out :class:`PlayedDeal` when everybody passes and no taker is imposed.
    """
    players = deal.players
    order = bidding_order(players, deal.dealer, ruleset)
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
        bid: Bid = None
        if imposed is not None and seat != imposed:
            bids.append(None)  # with an imposed taker everybody else passes
            continue
        wish = preferred_contract(deal.hands[seat], players, ruleset)
        if imposed is not None:
            if seat == imposed:
                bid = wish if wish is not None and wish.rank >= floor else min_contract
                bid = bid or Contract.PRISE
        elif wish is not None and wish.rank >= max(floor, highest.rank + 1 if highest else 0):
            bid = wish
        if bid is not None:
            highest = bid
        bids.append(bid)
    result = bidding_result(players, deal.dealer, bids, min_contract, ruleset)
    if result.taker is None or result.contract is None:
        return PlayedDeal(deal=deal, bids=tuple(bids), record=None, outcome=None, score=None)
    taker, contract = result.taker, result.contract

    ecart: tuple[Card, ...] = ()
    base = PlayRecord(deal=deal, taker=taker, contract=contract, tricks=(), ruleset=ruleset)
    if contract.taker_sees_chien:
        taken = list(deal.hands[taker]) + list(deal.chien)
        ecart = tuple(_choose_ecart(taken, len(deal.chien), ruleset))
        if not (players == 5 and ruleset.calls_king):
            # A chelem-minded écart when the taker's chelem play then wins every trick (or all
            # but one for a traditional petit chelem); the called King's deals keep the usual.
            chelem_ecart = _choose_chelem_ecart(taken, len(deal.chien), ruleset)
            if chelem_ecart is not None and set(chelem_ecart) != set(ecart):
                chelem_base = replace(base, ecart=tuple(chelem_ecart))
                trial = [sort_cards(hand) for hand in hands_at_play(chelem_base)]
                if hand_strength(trial[taker], players) >= CHELEM_STRENGTH:
                    trial_attack = [seat == taker for seat in range(players)]
                    losses = _chelem_losses(trial, taker, trial_attack, None, ruleset)
                    if losses == 0 or (losses == 1 and ruleset.petit_chelem):
                        ecart = tuple(chelem_ecart)
    base = replace(base, ecart=ecart)
    called: Card | None = None
    if players == 5 and ruleset.calls_king:
        called = _choose_called_card(called_from_cards(base), rng)
        base = replace(base, called_card=called)
    hands = [sort_cards(hand) for hand in hands_at_play(base)]
    attack = base.attack
    is_attack = [seat in attack for seat in range(players)]
    # A chelem is announced (or, when the announcement is not dared, played for anyway) only
    # with a strong hand whose chelem play wins every trick when the taker leads; under the
    # traditional rules a petit chelem likewise when it loses exactly one.
    chelem_announced = petit_announced = intended = False
    if hand_strength(hands[taker], players) >= CHELEM_STRENGTH:
        losses = _chelem_losses(hands, taker, is_attack, called, ruleset)
        if losses == 0:
            intended = True
            chelem_announced = rng.random() < chelem_rate
        elif losses == 1 and ruleset.petit_chelem:
            petit_announced = rng.random() < chelem_rate
            intended = petit_announced
    base = replace(base, chelem_announced=chelem_announced, petit_chelem_announced=petit_announced)
    poignees = tuple(
        PoigneeShown(seat=seat, size=size)
        for seat in range(players)
        if (size := max_poignee(hands[seat], players, ruleset)) is not None
        and rng.random() < poignee_rate
    )

    play = _play_tricks(
        hands,
        first_leader(base),
        is_attack,
        called,
        rng,
        whim,
        intended,
        ruleset,
        taker if chelem_announced else None,
    )
    record = replace(base, tricks=tuple(play.tricks), poignees=poignees, passes=tuple(play.passes))
    outcome = outcome_from_play(record, validate=False)
    return PlayedDeal(
        deal=deal, bids=tuple(bids), record=record, outcome=outcome, score=score_deal(outcome)
    )

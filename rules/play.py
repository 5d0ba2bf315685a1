"""Card play: écart, legal cards, tricks, the Excuse, and counting a played deal.

Vocabulary:

- a :class:`Trick` is the cards of one trick in play order, from its ``leader`` seat going
  counter-clockwise (the card at position ``p`` was played by seat ``leader - p`` mod n);
- a :class:`PlayRecord` is a complete deal as played: the deal, taker, contract, écart, called
  card (5 players), poignées shown, chelem announcement and every trick;
- the **attack** is the taker plus, at 5 players, the holder of the called card (nobody when
  the called card is in the chien or the taker's own hand: the taker plays alone).

Rules applied (FFT, docs/domain/tarot-scoring.md): follow suit; without it trump, overtrumping when
a trump is already in the trick; on a trump lead play a higher trump if possible; the Excuse may
be played at any time and, when led, the next card sets the suit. The Excuse never wins a trick
except the last trick when its owner's side has won every other trick (chelem). Its owner keeps
it and hands the trick's winner a half-point card.

**[FFT]** Played in the last trick outside a chelem, the Excuse changes camp: it goes (4.5
points, an oudler) to the side opposed to its owner, *whoever wins that trick*, even a partner
of its owner, and no half-point card is handed over. That is the only way a count ends in a half
point at 4 players. "Outside a chelem": no side wins every trick. When the owner's side has won
every other trick its Excuse wins the last one (above); when the other side wins every trick,
the owner keeps the Excuse as in any other trick (the exchange below).

**[FFT] 5 players:** the first lead of the deal may not be in the called card's suit, except
with the called card itself (:func:`legal_cards` with ``called_card``). **[convention]** The
restriction is on the leader's card only: after an Excuse led, the next player plays freely.

**[convention]** The Excuse exchange is settled at the count: the Excuse counts 4 (8 half
points) for its owner's side and 0.5 for the side that won its trick, even when the owner's side
never wins a trick, so the two sides always total 91.

Petit au bout: the Petit in the last trick scores for the side winning that trick; when a
chelem side takes the last trick with its Excuse, the Petit counts au bout in the trick before.

Rulesets (``PlayRecord.ruleset``, :mod:`rules.ruleset`; the FFT's by default): the contracts
(the pousse) and chien sizes a ruleset offers, its poignée thresholds, **[traditional]** the
King called after the chien is seen, the flambeuse (no call, the taker alone), the petit chelem
(announced by the taker, who then leads; made when the attack wins every trick but one);
**[house]** the trump-down rule after the Excuse and the chelem announcer's Excuse kept for the
last trick (:func:`legal_cards`), the cards passed after a trick made only of trumps
(:class:`CardPass`) and the Excuse of the last trick going to the side that wins it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.cards import EXCUSE, JACK, KING, KNIGHT, PETIT, PLAIN_SUITS, QUEEN, Card
from rules.deal import SEAT_NAMES, Deal, max_poignee, next_seat
from rules.enums import CHIEN_SIZE, TOTAL_HALF_POINTS, Contract, PoigneeSize, Side
from rules.errors import RuleError
from rules.i18n import gettext_noop, ngettext_lazy
from rules.ruleset import FFT, Ruleset
from rules.scoring import Chelem, Outcome, Poignee

# The taker calls a King; holding all four, a Queen; and so on down to the Jacks.
_CALLABLE_RANKS = (KING, QUEEN, KNIGHT, JACK)


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: ``cards`` in play order starting with seat ``leader``."""

    leader: int
    cards: tuple[Card, ...]

    def seat_at(self, position: int, players: int) -> int:
        """Seat that played the card at ``position``."""
        return (self.leader - position) % players


@dataclass(frozen=True, slots=True)
class PoigneeShown:
    """A poignée announced by ``seat`` before its first card."""

    seat: int
    size: PoigneeSize


@dataclass(frozen=True, slots=True)
class CardPass:
    """**[house]** The cards passed after trick ``after_trick`` (0-based), made only of trumps.

    ``cards[seat]`` are the cards ``seat`` passes to the player on his right (the next player,
    :func:`rules.deal.next_seat`). Each player passes ``ruleset.trump_trick_pass`` cards, or
    every card he has left when he holds fewer. Random at the table, recorded so that a
    duplicate deal replays identically. No cards are passed after the last trick (nobody holds
    any). **[convention]** At 5 players the called partner stays the player dealt the called
    card, even if that card is passed on later.
    """

    after_trick: int
    cards: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """A deal as played, from the contract to the last trick."""

    deal: Deal
    taker: int
    contract: Contract
    tricks: tuple[Trick, ...]
    ecart: tuple[Card, ...] = ()
    called_card: Card | None = None
    poignees: tuple[PoigneeShown, ...] = ()
    chelem_announced: bool = False
    # traditional: the taker announced a petit chelem (every trick but one)
    petit_chelem_announced: bool = False
    passes: tuple[CardPass, ...] = ()
    ruleset: Ruleset = FFT

    @property
    def partner(self) -> int | None:
        """The called partner's seat at 5 players (``None`` when the taker plays alone)."""
        return called_partner(self.deal, self.taker, self.called_card)

    @property
    def attack(self) -> frozenset[int]:
        partner = self.partner
        return frozenset({self.taker} if partner is None else {self.taker, partner})


@dataclass(frozen=True, slots=True)
class PlayCount:
    """What the tricks give each side (points in half-points, attack's view)."""

    attack_half: int
    attack_oudlers: int
    petit_au_bout: Side | None
    chelem_made_by: Side | None
    trick_winners: tuple[int, ...]

    @property
    def defence_half(self) -> int:
        return TOTAL_HALF_POINTS - self.attack_half


def called_partner(deal: Deal, taker: int, called_card: Card | None) -> int | None:
    """Holder of the called card in the dealt hands, unless it is the taker (or in the chien)."""
    if called_card is None:
        return None
    for seat, hand in enumerate(deal.hands):
        if called_card in hand:
            return None if seat == taker else seat
    return None


# ----------------------------------------------------------------------------- card play


def led_card(trick: Sequence[Card]) -> Card | None:
    """The card that sets the suit: the first one that is not the Excuse."""
    for card in trick:
        if card is not EXCUSE:
            return card
    return None


def legal_cards(
    hand: Sequence[Card],
    trick: Sequence[Card],
    called_card: Card | None = None,
    ruleset: Ruleset = FFT,
    chelem_announcer: bool = False,
) -> list[Card]:
    """Cards of ``hand`` that may be played on ``trick`` (cards already played, in order).

    ``called_card`` is passed for the deal's first trick at 5 players only (it is ``None`` at 3
    and 4 players): its leader may not lead the called card's suit except with the called card
    itself.

    ``ruleset`` (the FFT's by default) and ``chelem_announcer`` (the player is the taker who
    announced a chelem) bring the house rules: **[house]** ``excuse_trump_down``: once the
    Excuse has been played in the trick, a player who must play a trump (on a trump lead, or
    without the suit led) plays under the best trump of the trick if he can, else any trump;
    **[house]** ``chelem_excuse_last``: a chelem announcer holding the Excuse may play it only
    in the last trick (when it is his last card).

    In the hand's order, the Excuse (always playable, but for the chelem announcer above) last.
    Hot in simulations: the Excuse is found by its flag, not by ``EXCUSE in hand`` (each
    comparison would go through ``Card``'s rich comparison).
    """
    cards = _legal_cards(hand, trick, called_card, ruleset.excuse_trump_down)
    if chelem_announcer and ruleset.chelem_excuse_last and len(hand) > 1:
        kept = [card for card in cards if not card.is_excuse]
        return kept or [card for card in hand if not card.is_excuse]
    return cards


def _legal_cards(
    hand: Sequence[Card], trick: Sequence[Card], called_card: Card | None, trump_down: bool
) -> list[Card]:
    if not trick:
        if called_card is None:
            return list(hand)
        called_suit = called_card.suit
        allowed = [card for card in hand if card.suit is not called_suit or card == called_card]
        # 15 cards cannot all be of one 14-card suit: ``allowed`` is never empty in a real deal;
        # an impossible hand keeps every card rather than none.
        return allowed or list(hand)
    led = led_card(trick)
    if led is None:
        return list(hand)
    excuse = [card for card in hand if card.is_excuse]  # [] or [EXCUSE]
    if not led.is_trump:
        led_suit = led.suit
        follow = [card for card in hand if card.suit is led_suit]
        if follow:
            return follow + excuse
    trumps = [card for card in hand if card.is_trump]
    if not trumps:
        return list(hand)
    best = 0
    for card in trick:
        if card.is_trump and card.rank > best:
            best = card.rank
    if trump_down and best and any(card.is_excuse for card in trick):
        return ([card for card in trumps if card.rank < best] or trumps) + excuse
    return ([card for card in trumps if card.rank > best] or trumps) + excuse


def illegal_card_error(
    card: Card,
    hand: Sequence[Card],
    trick: Sequence[Card],
    number: int,
    seat: str,
    called_card: Card | None = None,
    ruleset: Ruleset = FFT,
    chelem_announcer: bool = False,
) -> RuleError:
    """The ``illegal_card`` error for ``card`` (held but not legal): trick, seat, card and why.

    ``number`` is the trick's index (0-based; the message says ``number + 1``), ``seat`` the
    seat's name. The field is ``tricks[number]``; ``params["position"]`` is the card's place.
    """
    params: dict[str, object] = {
        "number": number + 1,
        "seat": seat,
        "card": card.code,
        "position": len(trick),
    }
    led = led_card(trick)
    template = gettext_noop("trick %(number)s: %(card)s is illegal for seat %(seat)s")
    if card.is_excuse and chelem_announcer and ruleset.chelem_excuse_last:
        template = gettext_noop(
            "trick %(number)s, seat %(seat)s: %(card)s is illegal, the chelem announcer plays "
            "the Excuse only in the last trick"
        )
    elif not trick and called_card is not None:
        params["called"] = called_card.code
        template = gettext_noop(
            "trick %(number)s, seat %(seat)s: %(card)s is illegal, the first lead may not be in "
            "the called card's suit (%(called)s) except with that card"
        )
    elif led is not None:
        params["led"] = led.code
        best = max((other.rank for other in trick if other.is_trump), default=0)
        params["best"] = f"T{best}"
        has_suit = any(other.suit is led.suit for other in hand)
        if not led.is_trump and has_suit:
            template = gettext_noop(
                "trick %(number)s, seat %(seat)s: %(card)s is illegal, the suit led (%(led)s) "
                "must be followed"
            )
        elif not card.is_trump:
            template = (
                gettext_noop(
                    "trick %(number)s, seat %(seat)s: %(card)s is illegal, a trump must be "
                    "played on a trump lead (%(led)s)"
                )
                if led.is_trump
                else gettext_noop(
                    "trick %(number)s, seat %(seat)s: %(card)s is illegal, without the suit led "
                    "(%(led)s) a trump must be played"
                )
            )
        elif ruleset.excuse_trump_down and any(other.is_excuse for other in trick):
            template = gettext_noop(
                "trick %(number)s, seat %(seat)s: %(card)s is illegal, after the Excuse a trump "
                "lower than %(best)s must be played"
            )
        else:
            template = gettext_noop(
                "trick %(number)s, seat %(seat)s: %(card)s is illegal, a trump higher than "
                "%(best)s must be played"
            )
    return RuleError("illegal_card", template, params, field=f"tricks[{number}]")


def beats(card: Card, best: Card) -> bool:
    """Whether ``card``, played after ``best`` (the card winning the trick so far), takes over.

    A trump beats any plain card and lower trumps; a plain card beats only a lower card of its
    own suit; the Excuse never beats anything.
    """
    if card.is_trump:
        return not best.is_trump or card.rank > best.rank
    return card.suit is best.suit and card.rank > best.rank


def trick_winner(trick: Sequence[Card], excuse_wins: bool = False) -> int:
    """Position in ``trick`` of the winning card (so far, for an unfinished trick).

    ``excuse_wins`` is set for the last trick of a chelem whose side played the Excuse
    (:func:`excuse_takes_last_trick`).
    """
    if excuse_wins and EXCUSE in trick:
        return trick.index(EXCUSE)
    led = led_card(trick)
    if led is None:
        raise RuleError(
            "empty_trick", gettext_noop("a trick needs a card other than the Excuse"), {}
        )
    best_position = trick.index(led)
    best = led
    for position in range(best_position + 1, len(trick)):
        card = trick[position]
        if beats(card, best):
            best, best_position = card, position
    return best_position


# ---------------------------------------------------------------------------------- écart


def can_discard(card: Card, ruleset: Ruleset = FFT) -> bool:
    """Oudlers may never go to the écart; Kings neither, but under the traditional rules
    (version 2: ``ruleset.ecart_kings``), where a King may go there announced."""
    if card.is_oudler:
        return False
    return not card.is_king or ruleset.ecart_kings


def ecart_trumps_needed(cards: Iterable[Card], size: int, ruleset: Ruleset = FFT) -> int:
    """Trumps that must go to an écart of ``size`` from ``cards`` (0 unless unavoidable).

    **[traditional, version 2]** no trump goes to the écart; Kings may, so a trump is needed
    only when the plain cards, Kings included, are fewer than the écart [choice: the text
    does not foresee a hand too rich in trumps; the engine then allows the fewest trumps].
    """
    plain = sum(1 for card in cards if card.suit in PLAIN_SUITS and can_discard(card, ruleset))
    return max(0, size - plain)


def validate_ecart(
    cards: Sequence[Card],
    ecart: Sequence[Card],
    players: int,
    size: int | None = None,
    ruleset: Ruleset = FFT,
) -> None:
    """Check an écart made from ``cards`` (the taker's hand plus the chien).

    ``size`` is the chien's size (the FFT's for ``players`` when not given); ``ruleset`` the
    cards allowed there (:func:`can_discard`, :func:`ecart_trumps_needed`).
    """
    if size is None:
        size = CHIEN_SIZE[players]
    if len(ecart) != size or len(set(ecart)) != len(ecart):
        raise RuleError(
            "ecart_wrong_size",
            gettext_noop("the écart must be %(size)s distinct cards, got %(count)s"),
            {"size": size, "count": len(ecart)},
            field="ecart",
        )
    for card in ecart:
        if card not in cards:
            raise RuleError(
                "ecart_card_not_held",
                gettext_noop("%(card)s is neither in the taker's hand nor in the chien"),
                {"card": card.code},
                field="ecart",
            )
        if not can_discard(card, ruleset):
            raise RuleError(
                "ecart_forbidden_card",
                gettext_noop("%(card)s may not be discarded (no King, no oudler)"),
                {"card": card.code},
                field="ecart",
            )
    trumps = sum(1 for card in ecart if card.is_trump)
    if trumps > ecart_trumps_needed(cards, size, ruleset):
        raise RuleError(
            "ecart_trump_avoidable",
            gettext_noop("trumps may go to the écart only when unavoidable"),
            {},
            field="ecart",
        )


# ------------------------------------------------------------------------------ the record


def hands_at_play(record: PlayRecord) -> list[list[Card]]:
    """Each seat's cards when play starts (the taker's after taking the chien and the écart)."""
    hands = [list(hand) for hand in record.deal.hands]
    if record.contract.taker_sees_chien:
        taker_cards = hands[record.taker] + list(record.deal.chien)
        hands[record.taker] = [card for card in taker_cards if card not in record.ecart]
    return hands


def first_leader(record: PlayRecord) -> int:
    """The announcer of a chelem (or a petit chelem) leads; otherwise the ruleset's first
    player: the player after the dealer, or under the house rules (version 2) the player on
    the dealer's left (:meth:`rules.ruleset.Ruleset.first_player`)."""
    if record.chelem_announced or record.petit_chelem_announced:
        return record.taker
    return record.ruleset.first_player(record.deal.players, record.deal.dealer)


def _play_error(code: str, template: str, params: dict[str, object], trick: int) -> RuleError:
    return RuleError(code, template, params, field=f"tricks[{trick}]")


def validate_play(record: PlayRecord) -> None:
    """Check every step of a play record; raise :class:`RuleError` on the first fault.

    Under ``record.ruleset``: its contracts and chien sizes, its poignée thresholds, the called
    card (none in the flambeuse; seen with the chien when the King is called after it), its
    legal cards, and **[house]** the cards passed after each trick made only of trumps.
    """
    deal = record.deal
    players = deal.players
    ruleset = record.ruleset
    if not 0 <= record.taker < players:
        raise RuleError(
            "unknown_seat",
            gettext_noop("taker %(seat)s is not a seat number"),
            {"seat": record.taker},
            field="taker",
        )
    if not isinstance(record.contract, Contract):
        raise RuleError(
            "unknown_contract",
            gettext_noop("%(value)s is not one of %(choices)s"),
            {"value": repr(record.contract), "choices": ", ".join(c.value for c in Contract)},
            field="contract",
        )
    ruleset.check_contract(record.contract)
    ruleset.check_chien_size(players, len(deal.chien))
    if record.petit_chelem_announced and not ruleset.petit_chelem:
        raise RuleError(
            "petit_chelem_not_in_ruleset",
            gettext_noop("the petit chelem is not played under these rules"),
            {},
            field="petit_chelem_announced",
        )
    if record.contract.taker_sees_chien:
        validate_ecart(
            list(deal.hands[record.taker]) + list(deal.chien),
            record.ecart,
            players,
            len(deal.chien),
            ruleset,
        )
    elif record.ecart:
        raise RuleError(
            "ecart_not_allowed",
            gettext_noop("no écart in a %(contract)s: the chien stays unseen"),
            {"contract": record.contract.value},
            field="ecart",
        )
    _validate_called_card(record)
    hands = hands_at_play(record)
    names = SEAT_NAMES[players]
    shown: set[int] = set()
    for poignee in record.poignees:
        if not 0 <= poignee.seat < players or poignee.seat in shown:
            raise RuleError(
                "invalid_poignee",
                gettext_noop("seat %(seat)s cannot show a poignée here"),
                {"seat": poignee.seat},
                field="poignees",
            )
        shown.add(poignee.seat)
        best = max_poignee(hands[poignee.seat], players, ruleset)
        if best is None or list(PoigneeSize).index(best) < list(PoigneeSize).index(poignee.size):
            raise RuleError(
                "poignee_not_held",
                gettext_noop("seat %(seat)s has too few trumps for a %(size)s poignée"),
                {"seat": names[poignee.seat], "size": poignee.size.value},
                field="poignees",
            )
    passes = _passes_by_trick(record)
    attack = record.attack
    leader = first_leader(record)
    announcer = record.taker if record.chelem_announced else None
    winner_sides: list[bool] = []
    last = len(record.tricks) - 1
    for number, trick in enumerate(record.tricks):
        first_called = record.called_card if number == 0 else None
        if trick.leader != leader:
            raise _play_error(
                "wrong_leader",
                gettext_noop("trick %(number)s must be led by seat %(seat)s"),
                {"number": number + 1, "seat": names[leader]},
                number,
            )
        if len(trick.cards) != players:
            raise _play_error(
                "wrong_trick_size",
                gettext_noop("trick %(number)s has %(count)s cards"),
                {"number": number + 1, "count": len(trick.cards)},
                number,
            )
        for position, card in enumerate(trick.cards):
            seat = trick.seat_at(position, players)
            hand = hands[seat]
            if card not in hand:
                raise _play_error(
                    "card_not_held",
                    gettext_noop("trick %(number)s: seat %(seat)s does not hold %(card)s"),
                    {
                        "number": number + 1,
                        "seat": names[seat],
                        "card": card.code,
                        "position": position,
                    },
                    number,
                )
            played_before = trick.cards[:position]
            is_announcer = seat == announcer
            if card not in legal_cards(hand, played_before, first_called, ruleset, is_announcer):
                raise illegal_card_error(
                    card,
                    hand,
                    played_before,
                    number,
                    names[seat],
                    first_called,
                    ruleset,
                    is_announcer,
                )
            hand.remove(card)
        position = trick_winner(
            trick.cards,
            excuse_takes_last_trick(trick, players, attack, winner_sides, number == last),
        )
        winner = trick.seat_at(position, players)
        winner_sides.append(winner in attack)
        leader = winner
        _apply_pass(record, number, trick, hands, passes.pop(number, None))
    # Counted after the cards: a missing trick shows first as the card its absence makes
    # illegal (a card not held or not following), more telling than the count.
    hand_size = ruleset.hand_size(players, len(deal.chien))
    if len(record.tricks) != hand_size:
        raise RuleError(
            "wrong_trick_count",
            gettext_noop("%(count)s tricks instead of %(expected)s"),
            {"count": len(record.tricks), "expected": hand_size},
            field="tricks",
        )
    if passes:
        after = min(passes)
        raise RuleError(
            "unexpected_pass",
            gettext_noop("no cards are passed after trick %(number)s"),
            {"number": after + 1},
            field="passes",
        )


def is_trump_trick(trick: Trick) -> bool:
    """**[house]** A trick made only of trumps (the Excuse is not a trump)."""
    return all(card.is_trump for card in trick.cards)


def pass_count(ruleset: Ruleset, hand: Sequence[Card]) -> int:
    """**[house]** Cards a player passes after a trump trick: the ruleset's number, or every
    card he has left when he holds fewer."""
    return min(ruleset.trump_trick_pass, len(hand))


def passes_due(record: PlayRecord, number: int, trick: Trick) -> bool:
    """Whether cards are passed after trick ``number``: a trick of trumps only under a ruleset
    with ``trump_trick_pass``, and not the last trick (nobody holds a card then)."""
    return (
        record.ruleset.trump_trick_pass > 0
        and number < len(record.tricks) - 1
        and is_trump_trick(trick)
    )


def _passes_by_trick(record: PlayRecord) -> dict[int, CardPass]:
    found: dict[int, CardPass] = {}
    for index, card_pass in enumerate(record.passes):
        if card_pass.after_trick in found or not 0 <= card_pass.after_trick < len(record.tricks):
            raise RuleError(
                "invalid_pass",
                gettext_noop("pass %(index)s: after trick %(number)s is not a new trick"),
                {"index": index + 1, "number": card_pass.after_trick + 1},
                field=f"passes[{index}]",
            )
        found[card_pass.after_trick] = card_pass
    return found


def _apply_pass(
    record: PlayRecord,
    number: int,
    trick: Trick,
    hands: list[list[Card]],
    card_pass: CardPass | None,
) -> None:
    """Check and apply the cards passed after trick ``number`` (**[house]** trump tricks)."""
    players = record.deal.players
    names = SEAT_NAMES[players]
    if not passes_due(record, number, trick):
        if card_pass is not None:
            raise RuleError(
                "unexpected_pass",
                gettext_noop("no cards are passed after trick %(number)s"),
                {"number": number + 1},
                field="passes",
            )
        return
    if card_pass is None:
        raise RuleError(
            "missing_pass",
            gettext_noop(
                "trick %(number)s is made only of trumps: the cards passed after it are missing"
            ),
            {"number": number + 1},
            field="passes",
        )
    if len(card_pass.cards) != players:
        raise RuleError(
            "invalid_pass",
            gettext_noop("after trick %(number)s every player passes cards (%(players)s lists)"),
            {"number": number + 1, "players": players},
            field="passes",
        )
    for seat, cards in enumerate(card_pass.cards):
        hand = hands[seat]
        due = pass_count(record.ruleset, hand)
        if len(cards) != due or len(set(cards)) != len(cards):
            raise RuleError(
                "wrong_pass_count",
                gettext_noop("after trick %(number)s seat %(seat)s must pass %(cards)s"),
                {
                    "number": number + 1,
                    "seat": names[seat],
                    "cards": ngettext_lazy("%(number)s card", "%(number)s cards", due),
                },
                field="passes",
            )
        for card in cards:
            if card not in hand:
                raise RuleError(
                    "pass_card_not_held",
                    gettext_noop(
                        "after trick %(number)s seat %(seat)s passes %(card)s, which he does "
                        "not hold"
                    ),
                    {"number": number + 1, "seat": names[seat], "card": card.code},
                    field="passes",
                )
    for seat, cards in enumerate(card_pass.cards):
        for card in cards:
            hands[seat].remove(card)
    for seat, cards in enumerate(card_pass.cards):
        hands[next_seat(players, seat)].extend(cards)


def _validate_called_card(record: PlayRecord) -> None:
    called = record.called_card
    if record.deal.players != 5 or not record.ruleset.calls_king:
        if called is not None:
            raise RuleError(
                "called_card_not_allowed",
                gettext_noop("a card is called only at 5 players")
                if record.deal.players != 5
                else gettext_noop("no card is called in the flambeuse: the taker plays alone"),
                {},
                field="called_card",
            )
        return
    required = required_called_rank(called_from_cards(record))
    if called is None or called.suit not in PLAIN_SUITS or called.rank != required:
        raise RuleError(
            "invalid_called_card",
            gettext_noop(
                "the taker must call a card of rank %(rank)s (a King unless he holds all four)"
            ),
            {"rank": required},
            field="called_card",
        )


def called_from_cards(record: PlayRecord) -> list[Card]:
    """The cards the 5-player taker sees when he calls: his hand, plus the chien when the King
    is called after it (**[traditional]** ``king_after_chien``, a contract that shows it)."""
    cards = list(record.deal.hands[record.taker])
    if record.ruleset.king_after_chien and record.contract.taker_sees_chien:
        cards += list(record.deal.chien)
    return cards


def required_called_rank(hand: Sequence[Card]) -> int:
    """Rank the 5-player taker must call: King, or the next rank of which he lacks a card."""
    for rank in _CALLABLE_RANKS:
        if sum(1 for card in hand if card.rank == rank and card.suit in PLAIN_SUITS) < 4:
            return rank
    return JACK  # unreachable with 15 cards: kept for completeness


def excuse_takes_last_trick(
    trick: Trick,
    players: int,
    attack: frozenset[int],
    winner_sides: Sequence[bool],
    last: bool,
) -> bool:
    """The Excuse wins the last trick when its owner's side has won every other trick.

    ``winner_sides`` tells, for each trick before this one, whether the attack won it.
    """
    if not last or EXCUSE not in trick.cards:
        return False
    owner_attack = trick.seat_at(trick.cards.index(EXCUSE), players) in attack
    return all(side == owner_attack for side in winner_sides)


def count_play(record: PlayRecord) -> PlayCount:
    """Points, oudlers, petit au bout and chelem from the tricks (assumes a valid record)."""
    players = record.deal.players
    attack = record.attack
    attack_half = 0
    attack_oudlers = 0
    contract = record.contract
    if contract.taker_sees_chien:
        extra: Sequence[Card] = record.ecart
        extra_attack = True
    else:
        extra = record.deal.chien
        extra_attack = contract.chien_to_attack
    if extra_attack:
        attack_half += sum(card.points_half for card in extra)
        attack_oudlers += sum(1 for card in extra if card.is_oudler)

    winner_sides: list[bool] = []
    winners: list[int] = []
    last = len(record.tricks) - 1
    excuse_won_last = False
    for number, trick in enumerate(record.tricks):
        is_last = number == last
        excuse_wins = excuse_takes_last_trick(trick, players, attack, winner_sides, is_last)
        excuse_won_last = excuse_won_last or excuse_wins
        winner = trick.seat_at(trick_winner(trick.cards, excuse_wins), players)
        winner_attack = winner in attack
        winner_sides.append(winner_attack)
        winners.append(winner)
        # [FFT] outside a chelem the Excuse played in the last trick changes camp; [house] it
        # goes to the side that wins that trick.
        outside_chelem = is_last and any(winner_sides) and not all(winner_sides)
        to_winner = outside_chelem and record.ruleset.excuse_last_trick_to_winner
        changes_camp = outside_chelem and not to_winner
        # [traditional, house, version 2] in the last trick of a chelem (one side won every
        # trick), the other side's Excuse goes to the chelem side.
        in_chelem = is_last and (all(winner_sides) or not any(winner_sides))
        to_chelem_side = in_chelem and record.ruleset.excuse_to_chelem_side
        for position, card in enumerate(trick.cards):
            if card is EXCUSE and not excuse_wins:
                owner_attack = trick.seat_at(position, players) in attack
                if to_winner or (to_chelem_side and owner_attack != winner_attack):
                    # Whole to the side that wins the trick, nothing handed over.
                    if winner_attack:
                        attack_half += card.points_half
                        attack_oudlers += 1
                    continue
                if changes_camp:
                    # Whole to the other side, whoever won the trick; nothing handed over.
                    if not owner_attack:
                        attack_half += card.points_half
                        attack_oudlers += 1
                    continue
                if owner_attack:
                    attack_oudlers += 1
                if owner_attack == winner_attack:
                    attack_half += 9 if owner_attack else 0
                else:
                    # [convention] exchange: owner keeps 4, the trick's winner gets 0.5.
                    attack_half += 8 if owner_attack else 1
            elif winner_attack:
                attack_half += card.points_half
                attack_oudlers += 1 if card.is_oudler else 0

    if all(winner_sides):
        chelem_made_by: Side | None = Side.ATTACK
    elif not any(winner_sides):
        chelem_made_by = Side.DEFENCE
    else:
        chelem_made_by = None

    petit_au_bout: Side | None = None
    tricks = record.tricks
    if tricks and PETIT in tricks[-1].cards:
        petit_au_bout = Side.ATTACK if winner_sides[-1] else Side.DEFENCE
    elif excuse_won_last and len(tricks) >= 2 and PETIT in tricks[-2].cards:
        petit_au_bout = Side.ATTACK if winner_sides[-2] else Side.DEFENCE
    return PlayCount(
        attack_half=attack_half,
        attack_oudlers=attack_oudlers,
        petit_au_bout=petit_au_bout,
        chelem_made_by=chelem_made_by,
        trick_winners=tuple(winners),
    )


def outcome_from_play(record: PlayRecord, validate: bool = True) -> Outcome:
    """Turn a complete play record into the :class:`~rules.scoring.Outcome` a table reports.

    The outcome carries the record's ruleset, its chien size when it is not the ruleset's
    default, and under a ruleset with the petit chelem whether it was announced and made (the
    attack won every trick but one).
    """
    if validate:
        validate_play(record)
    count = count_play(record)
    attack = record.attack
    ruleset = record.ruleset
    players = record.deal.players
    chien_size = len(record.deal.chien)
    chelem = Chelem(announced=record.chelem_announced, made_by=count.chelem_made_by)
    if ruleset.petit_chelem:
        attack_tricks = sum(1 for winner in count.trick_winners if winner in attack)
        chelem = Chelem(
            announced=record.chelem_announced,
            made_by=count.chelem_made_by,
            petit_announced=record.petit_chelem_announced,
            petit_made=attack_tricks == len(record.tricks) - 1,
        )
    return Outcome(
        players=record.deal.players,
        contract=record.contract,
        oudlers=count.attack_oudlers,
        points_half=count.attack_half,
        petit_au_bout=count.petit_au_bout,
        poignees=tuple(
            Poignee(Side.ATTACK if shown.seat in attack else Side.DEFENCE, shown.size)
            for shown in record.poignees
        ),
        chelem=chelem,
        partner=record.partner is not None,
        ruleset=ruleset,
        chien_size=None if chien_size == ruleset.default_chien_size(players) else chien_size,
    )

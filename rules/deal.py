"""Deals: dealing the 78 cards, validation, text form and hand diagrams.

Vocabulary:

- a :class:`Deal` holds one hand per seat and the chien, plus the dealer's seat index;
- seats are listed **clockwise** in :data:`SEAT_NAMES` — 4 players ``N E S W`` (the duplicate
  table), 3 players ``N E S``, 5 players ``N E S W X`` (``X`` sits between W and N). Play and
  dealing go **counter-clockwise**, so the player after seat ``i`` is seat ``i - 1`` (mod n):
  after N comes W at 4 players (see :func:`next_seat`);
- **petit sec**: a hand whose only trump is the Petit, without the Excuse; such a deal is
  cancelled, so duplicate generators reject it.

Determinism: :func:`generate_deals` draws each deal from its own ``random.Random`` seeded with a
string built from the seed, the player count, the deal number and the attempt, so the same seed
gives the same deals on every run and machine, and deal ``k`` does not depend on how many deals
are asked for.

Text form (:func:`deal_to_text` / :func:`deal_from_text`)::

    dealer: N
    N: S1 S5 ... T21
    E: ...
    S: ...
    W: ...
    chien: H3 ... C12

One line per hand (cards in canonical order), then the chien; lines starting with ``#`` and
blank lines are ignored when parsing.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rules.cards import (
    DECK,
    EXCUSE,
    PETIT,
    PLAIN_SUITS,
    SUIT_SYMBOLS,
    Card,
    Suit,
    format_cards,
    parse_card,
    sort_cards,
)
from rules.enums import CHIEN_SIZE, PLAYER_COUNTS, PoigneeSize
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.ruleset import FFT, Ruleset

SEAT_NAMES: Final[dict[int, tuple[str, ...]]] = {
    3: ("N", "E", "S"),
    4: ("N", "E", "S", "W"),
    5: ("N", "E", "S", "W", "X"),
}
# Cards per packet when dealing: 3 at a time, 4 at a time at 3 players (the last packet of each
# hand is smaller when the hand size is not a multiple: the house and flambeuse hands).
PACKET_SIZE: Final = {3: 4, 4: 3, 5: 3}

Hand = tuple[Card, ...]

#: The largest seed (the forms' bound too); :func:`random_seed` draws from 1 to it.
MAX_SEED: Final = 2**62


def random_seed() -> int:
    """A fresh seed, 1 .. ``MAX_SEED`` (never 0, which a duplicate event keeps for imported
    deals), from the OS's randomness: the default seed of every kind's deals and draws."""
    return 1 + secrets.randbelow(MAX_SEED)


@dataclass(frozen=True, slots=True)
class Deal:
    """One distribution: ``hands[i]`` belongs to ``SEAT_NAMES[players][i]``."""

    players: int
    hands: tuple[Hand, ...]
    chien: Hand
    dealer: int = 0

    @property
    def seats(self) -> tuple[str, ...]:
        return SEAT_NAMES[self.players]

    def hand_of(self, seat: str) -> Hand:
        """The hand of the named seat (``"N"``...)."""
        return self.hands[seat_index(self.players, seat)]


def seat_index(players: int, seat: str) -> int:
    """Index of a seat name for this player count (RuleError if unknown)."""
    names = SEAT_NAMES.get(players, ())
    if seat not in names:
        raise RuleError(
            "unknown_seat",
            gettext_noop("%(seat)s is not a seat at %(players)s players (%(seats)s)"),
            {"seat": seat, "players": players, "seats": " ".join(names)},
            field="seat",
        )
    return names.index(seat)


def next_seat(players: int, seat: int) -> int:
    """The player after ``seat`` (counter-clockwise)."""
    return (seat - 1) % players


def seats_from(players: int, first: int) -> list[int]:
    """Every seat once, counter-clockwise, starting with ``first``."""
    return [(first - step) % players for step in range(players)]


def _check_players(players: int) -> None:
    if players not in PLAYER_COUNTS:
        raise RuleError(
            "unknown_player_count",
            gettext_noop("%(players)s players is not supported (3, 4 or 5)"),
            {"players": players},
            field="players",
        )


def _check_dealer(players: int, dealer: int) -> None:
    if not 0 <= dealer < players:
        raise RuleError(
            "invalid_dealer",
            gettext_noop("dealer %(dealer)s is not a seat number 0..%(last)s"),
            {"dealer": dealer, "last": players - 1},
            field="dealer",
        )


def deal_cards(
    players: int,
    rng: random.Random,
    dealer: int = 0,
    ruleset: Ruleset = FFT,
    chien_size: int | None = None,
) -> Deal:
    """Shuffle and deal as at the table.

    Packets of 3 cards (4 at 3 players) go counter-clockwise starting with the player after the
    dealer; the chien's cards are put aside one at a time after distinct packets, never as the
    first nor the last card of the pack. ``chien_size`` is the dealer's choice where the
    ruleset leaves one (house rules: 3, 6 or 9 cards at 3 players, 2, 6 or 10 at 4), ``None``
    the ruleset's default; the hands get the rest (RuleError ``invalid_chien_size`` for a size
    the ruleset does not allow). The FFT's deals draw exactly the same random numbers as ever.
    """
    _check_players(players)
    _check_dealer(players, dealer)
    if chien_size is None:
        chien_size = ruleset.default_chien_size(players)
    ruleset.check_chien_size(players, chien_size, field="chien_size")
    hand_size = ruleset.hand_size(players, chien_size)
    pack = list(DECK)
    rng.shuffle(pack)
    packet = PACKET_SIZE[players]
    rounds = -(-hand_size // packet)
    packets = rounds * players
    # A chien card may follow any packet but the last (so it is never the last card; it is
    # never the first card either, since the first packet comes before it).
    chien_after = set(rng.sample(range(packets - 1), chien_size))
    hands: list[list[Card]] = [[] for _ in range(players)]
    chien: list[Card] = []
    seat = next_seat(players, dealer)
    position = 0
    for number in range(packets):
        # the last round completes each hand (a smaller packet when the size is not a multiple)
        size = min(packet, hand_size - len(hands[seat]))
        hands[seat].extend(pack[position : position + size])
        position += size
        seat = next_seat(players, seat)
        if number in chien_after:
            chien.append(pack[position])
            position += 1
    return Deal(
        players=players,
        hands=tuple(tuple(sort_cards(hand)) for hand in hands),
        chien=tuple(sort_cards(chien)),
        dealer=dealer,
    )


def has_petit_sec(deal: Deal) -> bool:
    """Whether some hand's only trump is the Petit and it has no Excuse (deal cancelled)."""
    return any(hand_has_petit_sec(hand) for hand in deal.hands)


def hand_has_petit_sec(hand: Iterable[Card]) -> bool:
    trumps = [card for card in hand if card.is_trump or card.is_excuse]
    return len(trumps) == 1 and trumps[0] is PETIT


def generate_deals(
    players: int,
    count: int,
    seed: int | str,
    reject_petit_sec: bool = True,
    dealer: int | None = None,
    ruleset: Ruleset = FFT,
    chien_size: int | None = None,
) -> list[Deal]:
    """``count`` reproducible deals for ``seed`` (same seed → same deals, everywhere).

    ``dealer`` fixes the dealer of every deal; by default it rotates (deal 1 dealt by seat 0,
    deal 2 by seat 1...). Deals with a petit sec are redealt when ``reject_petit_sec``.
    ``ruleset`` and ``chien_size`` are passed to :func:`deal_cards`; the FFT's default chien
    keeps the FFT's seeds (other rulesets and chien sizes add theirs to the seed string).
    """
    _check_players(players)
    if chien_size is None:
        chien_size = ruleset.default_chien_size(players)
    ruleset.check_chien_size(players, chien_size, field="chien_size")
    variant = ""
    if not (ruleset.is_fft and chien_size == CHIEN_SIZE[players]):
        variant = f":{ruleset.name.value}:{int(ruleset.flambeuse)}:{chien_size}"
    if count < 0:
        raise RuleError(
            "invalid_count",
            gettext_noop("%(count)s is not a valid number of deals"),
            {"count": count},
            field="count",
        )
    if dealer is not None:
        _check_dealer(players, dealer)
    deals: list[Deal] = []
    for number in range(1, count + 1):
        deal_dealer = dealer if dealer is not None else (number - 1) % players
        attempt = 0
        while True:
            rng = random.Random(f"duplitarot:{players}:{seed}:{number}:{attempt}{variant}")
            deal = deal_cards(players, rng, deal_dealer, ruleset, chien_size)
            if not (reject_petit_sec and has_petit_sec(deal)):
                break
            attempt += 1
        deals.append(deal)
    return deals


def validate_deal(deal: Deal, ruleset: Ruleset = FFT) -> None:
    """78 distinct cards, the right number of hands and the right sizes, a valid dealer.

    The chien must be a size ``ruleset`` allows at this player count (the FFT's: 6, or 3 at 5
    players) and every hand holds the rest of the cards in equal shares.
    """
    _check_players(deal.players)
    if len(deal.hands) != deal.players:
        raise RuleError(
            "wrong_hand_count",
            gettext_noop("%(count)s hands for %(players)s players"),
            {"count": len(deal.hands), "players": deal.players},
            field="hands",
        )
    chien_sizes = ruleset.chien_sizes(deal.players)
    chien_size = len(deal.chien) if len(deal.chien) in chien_sizes else chien_sizes[0]
    expected = ruleset.hand_size(deal.players, chien_size)
    for seat, hand in zip(SEAT_NAMES[deal.players], deal.hands, strict=True):
        if len(hand) != expected:
            raise RuleError(
                "wrong_hand_size",
                gettext_noop("%(seat)s holds %(count)s cards instead of %(expected)s"),
                {"seat": seat, "count": len(hand), "expected": expected},
                field=seat,
            )
    if len(deal.chien) not in chien_sizes and len(chien_sizes) == 1:
        raise RuleError(
            "wrong_chien_size",
            gettext_noop("the chien has %(count)s cards instead of %(expected)s"),
            {"count": len(deal.chien), "expected": chien_sizes[0]},
            field="chien",
        )
    if len(deal.chien) not in chien_sizes:
        ruleset.check_chien_size(deal.players, len(deal.chien))
    seen: set[Card] = set()
    for card in (card for hand in (*deal.hands, deal.chien) for card in hand):
        if not isinstance(card, Card):
            raise RuleError(
                "unknown_card",
                gettext_noop("%(code)s is not a card"),
                {"code": repr(card)},
                field="card",
            )
        if card in seen:
            raise RuleError(
                "duplicate_card",
                gettext_noop("%(card)s appears twice"),
                {"card": card.code},
                field="card",
            )
        seen.add(card)
    _check_dealer(deal.players, deal.dealer)


def trump_count(hand: Iterable[Card]) -> int:
    """Trumps in a hand (the Excuse is not a trump)."""
    return sum(1 for card in hand if card.is_trump)


def max_poignee(hand: Iterable[Card], players: int, ruleset: Ruleset = FFT) -> PoigneeSize | None:
    """Largest poignée the hand may show: trumps, plus the Excuse standing in for one."""
    cards = list(hand)
    shown = trump_count(cards) + (1 if EXCUSE in cards else 0)
    best: PoigneeSize | None = None
    for size in PoigneeSize:
        if shown >= ruleset.poignee_threshold(players, size):
            best = size
    return best


def trump_counts(deal: Deal) -> dict[str, int]:
    """Trumps held per seat name."""
    return {seat: trump_count(hand) for seat, hand in zip(deal.seats, deal.hands, strict=True)}


def poignee_eligibility(deal: Deal, ruleset: Ruleset = FFT) -> dict[str, PoigneeSize | None]:
    """Largest poignée each seat could show with the dealt hand (before any chien)."""
    return {
        seat: max_poignee(hand, deal.players, ruleset)
        for seat, hand in zip(deal.seats, deal.hands, strict=True)
    }


# -------------------------------------------------------------------------------- text form


def deal_to_text(deal: Deal) -> str:
    """Stable text: ``dealer: N``, one ``SEAT: codes`` line per hand, then ``chien: codes``."""
    lines = [f"dealer: {deal.seats[deal.dealer]}"]
    lines.extend(
        f"{seat}: {format_cards(hand)}" for seat, hand in zip(deal.seats, deal.hands, strict=True)
    )
    lines.append(f"chien: {format_cards(deal.chien)}")
    return "\n".join(lines)


def _line_error(number: int, code: str, template: str, params: dict[str, object]) -> RuleError:
    return RuleError(code, template, params, field=f"line {number}")


def deal_from_text(text: str, ruleset: Ruleset = FFT) -> Deal:
    """Parse :func:`deal_to_text` output (RuleError naming the faulty line).

    The player count comes from the hands and the chien size from the chien line; both are
    validated against ``ruleset`` (a house deal with a chien of 9 needs ``ruleset=HOUSE``).
    """
    hands: dict[str, tuple[Card, ...]] = {}
    chien: tuple[Card, ...] | None = None
    dealer_name: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        label, colon, rest = line.partition(":")
        label = label.strip()
        if not colon:
            raise _line_error(
                number,
                "bad_deal_line",
                gettext_noop(
                    "expected 'SEAT: cards', 'chien: cards' or 'dealer: SEAT', got %(line)s"
                ),
                {"line": repr(line)},
            )
        if label.lower() == "dealer":
            dealer_name = rest.strip()
            continue
        try:
            cards = tuple(parse_card(code) for code in rest.split())
        except RuleError as err:
            raise _line_error(number, err.code, err.template, err.params) from None
        if label.lower() == "chien":
            if chien is not None:
                raise _line_error(number, "duplicate_line", gettext_noop("a second chien line"), {})
            chien = cards
            continue
        if label not in SEAT_NAMES[5] or label in hands:
            raise _line_error(
                number,
                "duplicate_line" if label in hands else "unknown_seat",
                gettext_noop("%(label)s is not a new seat name (N, E, S, W, X)"),
                {"label": repr(label)},
            )
        hands[label] = cards
    players = len(hands)
    if players not in PLAYER_COUNTS or tuple(hands) != SEAT_NAMES[players][: len(hands)]:
        raise RuleError(
            "bad_deal_text",
            gettext_noop("expected the hands of %(seats)s in this order, got %(got)s"),
            {
                "seats": " / ".join(" ".join(names) for names in SEAT_NAMES.values()),
                "got": " ".join(hands) or "none",
            },
            field="text",
        )
    if chien is None:
        raise RuleError(
            "bad_deal_text", gettext_noop("the chien line is missing"), {}, field="text"
        )
    dealer = 0
    if dealer_name is not None:
        dealer = seat_index(players, dealer_name)
    deal = Deal(
        players=players,
        hands=tuple(tuple(sort_cards(hands[seat])) for seat in SEAT_NAMES[players]),
        chien=tuple(sort_cards(chien)),
        dealer=dealer,
    )
    validate_deal(deal, ruleset)
    return deal


# ------------------------------------------------------------------------------- diagrams

DIAGRAM_SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.TRUMP)


def hand_by_suit(hand: Iterable[Card]) -> dict[str, list[str]]:
    """Labels per suit code, highest first: ``{"S": ["K", "10"], ..., "T": ["21", "Exc"]}``.

    Keys are always ``S H D C T`` in that order; the Excuse is listed last among the trumps.
    Meant for HTML templates (pair with :data:`rules.cards.SUIT_SYMBOLS`).
    """
    cards = list(hand)
    result: dict[str, list[str]] = {}
    for suit in DIAGRAM_SUITS:
        in_suit = sorted((card for card in cards if card.suit is suit), key=lambda card: -card.rank)
        result[suit.value] = [card.label for card in in_suit]
    if EXCUSE in cards:
        result[Suit.TRUMP.value].append(EXCUSE.label)
    return result


def hand_diagram(deal: Deal) -> str:
    """Printable diagram: one block per seat (suits with ♠♥♦♣ symbols, trumps), then the chien."""
    blocks: list[str] = []
    for index, (seat, hand) in enumerate(zip(deal.seats, deal.hands, strict=True)):
        title = f"{seat} (dealer)" if index == deal.dealer else seat
        blocks.append(_hand_block(title, hand))
    blocks.append(_hand_block("chien", deal.chien))
    return "\n\n".join(blocks)


def _hand_block(title: str, hand: Sequence[Card]) -> str:
    by_suit = hand_by_suit(hand)
    lines = [title]
    for suit in PLAIN_SUITS:
        lines.append(f"  {SUIT_SYMBOLS[suit]} {' '.join(by_suit[suit.value]) or '—'}")
    lines.append(f"  T {' '.join(by_suit[Suit.TRUMP.value]) or '—'}")
    return "\n".join(lines)

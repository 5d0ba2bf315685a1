"""The 78 cards of French tarot and their compact text codes.

Vocabulary:

- four suits — spades ``S``, hearts ``H``, diamonds ``D``, clubs ``C`` — with ranks 1 (Ace,
  lowest) to 10, then 11 Jack (valet), 12 Knight (cavalier), 13 Queen, 14 King;
- 21 trumps (atouts) ``T1`` (the *Petit*) to ``T21``, and the Excuse ``EX``;
- the three **oudlers** (bouts): ``T1``, ``T21`` and ``EX``.

Codes are stable and compact: suit letter + rank (``"S14"`` is the King of spades, ``"H1"`` the
Ace of hearts), ``"T21"``, ``"EX"``. Values are in **half-points**: oudler and King 9, Queen 7,
Knight 5, Jack 3, any other card 1; the deck totals 182 (91 points).

Invariant: there is exactly one :class:`Card` object per card (the 78 are created at import and
:func:`parse_card` returns them), so cards compare and hash by identity, which keeps the play
simulator fast. Pickling and copying preserve that identity.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Final

from rules.errors import RuleError
from rules.i18n import gettext_noop


class Suit(StrEnum):
    """Suit of a card; trumps are ``T`` and the Excuse stands alone as ``EX``."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    TRUMP = "T"
    EXCUSE = "EX"


PLAIN_SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
SUIT_SYMBOLS: Final = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
    Suit.TRUMP: "T",
    Suit.EXCUSE: "Exc",
}
JACK: Final = 11
KNIGHT: Final = 12
QUEEN: Final = 13
KING: Final = 14
# Labels of suit ranks in diagrams: K Q C(avalier) J, then the pips.
RANK_LABELS: Final = {KING: "K", QUEEN: "Q", KNIGHT: "C", JACK: "J"}
_FACE_VALUES: Final = {KING: 9, QUEEN: 7, KNIGHT: 5, JACK: 3}


class Card:
    """One of the 78 cards (a singleton: compare with ``==`` or ``is``; order by :attr:`index`).

    ``rank`` is 1..14 in a suit, 1..21 for trumps and 0 for the Excuse. ``index`` is the
    canonical position: spades, hearts, diamonds, clubs (each Ace to King), trumps 1 to 21,
    then the Excuse.
    """

    __slots__ = (
        "code",
        "index",
        "is_excuse",
        "is_king",
        "is_oudler",
        "is_trump",
        "points_half",
        "rank",
        "suit",
    )

    code: str
    index: int
    suit: Suit
    rank: int
    points_half: int
    is_trump: bool
    is_excuse: bool
    is_oudler: bool
    is_king: bool

    def __init__(self, index: int, suit: Suit, rank: int) -> None:
        self.index = index
        self.suit = suit
        self.rank = rank
        self.code = "EX" if suit is Suit.EXCUSE else f"{suit.value}{rank}"
        self.is_trump = suit is Suit.TRUMP
        self.is_excuse = suit is Suit.EXCUSE
        self.is_oudler = self.is_excuse or (self.is_trump and rank in (1, 21))
        self.is_king = suit in PLAIN_SUITS and rank == KING
        if self.is_oudler:
            self.points_half = 9
        elif suit in PLAIN_SUITS:
            self.points_half = _FACE_VALUES.get(rank, 1)
        else:
            self.points_half = 1

    @property
    def label(self) -> str:
        """Short display label without the suit: ``K``, ``10``, ``21``, ``Exc``."""
        if self.is_excuse:
            return "Exc"
        if self.is_trump:
            return str(self.rank)
        return RANK_LABELS.get(self.rank, str(self.rank))

    @property
    def display(self) -> str:
        """Display form with a suit symbol: ``K♠``, ``10♥``, ``T21``, ``Exc``."""
        if self.is_excuse:
            return "Exc"
        if self.is_trump:
            return f"T{self.rank}"
        return f"{self.label}{SUIT_SYMBOLS[self.suit]}"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in PLAIN_SUITS:
        for rank in range(1, 15):
            cards.append(Card(len(cards), suit, rank))
    for rank in range(1, 22):
        cards.append(Card(len(cards), Suit.TRUMP, rank))
    cards.append(Card(len(cards), Suit.EXCUSE, 0))
    return tuple(cards)


DECK: Final[tuple[Card, ...]] = _build_deck()
"""All 78 cards in canonical order (``DECK[card.index] is card``)."""
_BY_CODE: Final = {card.code: card for card in DECK}
PETIT: Final = _BY_CODE["T1"]
TWENTY_ONE: Final = _BY_CODE["T21"]
EXCUSE: Final = _BY_CODE["EX"]
OUDLERS: Final = (PETIT, TWENTY_ONE, EXCUSE)


def parse_card(code: str) -> Card:
    """``"S14"`` → King of spades. Case and surrounding spaces are ignored."""
    card = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
    if card is None:
        raise RuleError(
            "unknown_card",
            gettext_noop("%(code)s is not a card code (S1..S14, H.., D.., C.., T1..T21, EX)"),
            {"code": repr(code)},
            field="card",
        )
    return card


def parse_cards(text: str) -> tuple[Card, ...]:
    """Whitespace-separated codes → cards (``"S14 T21 EX"``)."""
    return tuple(parse_card(code) for code in text.split())


def format_cards(cards: Iterable[Card]) -> str:
    """Cards → space-separated codes in canonical order (the inverse of :func:`parse_cards`)."""
    return " ".join(card.code for card in sort_cards(cards))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Canonical order: spades, hearts, diamonds, clubs (Ace to King), trumps 1-21, Excuse."""
    return sorted(cards, key=_index)


def _index(card: Card) -> int:
    return card.index


def card_points_half(cards: Iterable[Card]) -> int:
    """Total value of ``cards`` in half-points."""
    return sum(card.points_half for card in cards)


def count_oudlers(cards: Iterable[Card]) -> int:
    return sum(1 for card in cards if card.is_oudler)

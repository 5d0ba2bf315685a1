"""Presentation helpers of the tournaments app: hand diagrams and card labels.

A deal's cards are stored in the text form of ``rules.deal``; :func:`deal_diagram` turns them
into the four hands and the chien by suit, with card ranks in the reader's language. The étui
printout and the public frequency sheet both show hands through it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import pgettext

from rules import deal as rules_deal
from rules.cards import PLAIN_SUITS, SUIT_SYMBOLS, Suit
from tournaments.models import SEATS, Deal


@dataclass(frozen=True)
class SuitLine:
    symbol: str
    css: str  # suit-S / suit-H / suit-D / suit-C / suit-T (site.css colours)
    cards: str


@dataclass(frozen=True)
class HandView:
    seat: str
    is_dealer: bool
    is_taker: bool
    suits: list[SuitLine]


@dataclass(frozen=True)
class DealDiagram:
    deal: Deal
    hands: list[HandView]
    chien: list[SuitLine]


def card_label(label: str) -> str:
    """A rank label of ``rules`` in the active language (French: R, D, C, V for K, Q, C, J)."""
    labels = {
        "K": pgettext("card rank (King)", "K"),
        "Q": pgettext("card rank (Queen)", "Q"),
        "C": pgettext("card rank (Knight, cavalier)", "C"),
        "J": pgettext("card rank (Jack)", "J"),
        "Exc": pgettext("card (the Excuse)", "Exc"),
    }
    return labels.get(label, label)


def _suit_lines(hand: Iterable[Any]) -> list[SuitLine]:
    by_suit = rules_deal.hand_by_suit(hand)

    def cards(code: str) -> str:
        return " ".join(card_label(label) for label in by_suit[code]) or "—"

    lines = [
        SuitLine(SUIT_SYMBOLS[suit], f"suit-{suit.value}", cards(suit.value))
        for suit in PLAIN_SUITS
    ]
    lines.append(SuitLine(SUIT_SYMBOLS[Suit.TRUMP], "suit-T", cards(Suit.TRUMP.value)))
    return lines


def deal_diagram(deal: Deal) -> DealDiagram:
    """The 4 hands and the chien of a stored deal, by suit, for preparing its étui."""
    parsed = rules_deal.deal_from_text(deal.cards)
    hands = [
        HandView(
            seat,
            seat == deal.dealer_seat,
            seat == deal.taker_seat,
            _suit_lines(parsed.hand_of(seat)),
        )
        for seat in SEATS
    ]
    return DealDiagram(deal, hands, _suit_lines(parsed.chien))

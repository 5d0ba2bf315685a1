"""Presentation helpers of the tournaments app: hand diagrams, card and seat labels, wording.

A deal's cards are stored in the text form of ``rules.deal``; :func:`deal_diagram` turns them
into the four hands and the chien by suit, with card ranks in the reader's language. The étui
printout and the public frequency sheet both show hands through it.

The rest speaks the reader's language where data keeps codes: seat letters (W is "O" in
French), a number of oudlers with its plural, a percentage with French typography (a narrow
no-break space before ``%``, as the CLDR's French number format has it), a result as the history
keeps it (``before``/``after``), and the movement validator's warnings (the pure package speaks
English; its codes are translated here).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import formats
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from clubs.outcomes import seat_letter as seat_letter
from clubs.typography import NARROW_NBSP, colon, french_typography
from rules import deal as rules_deal
from rules.cards import PLAIN_SUITS, SUIT_SYMBOLS, Suit
from tournaments.models import SEATS, Contract, Deal, TableResult

# French typography: a narrow no-break space (U+202F) before ``%`` and ``:``.


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


# ------------------------------------------------------------------------ wording


def percent_text(value: object) -> str:
    """A percentage as the reader writes it: "12,5 %" in French (no break), "12.5%" in English.

    A value that is no number (None, empty) gives an empty text.
    """
    if value is None or value == "":
        return ""
    try:
        number: Any = value if isinstance(value, int | float | Decimal) else Decimal(str(value))
    except InvalidOperation:
        return str(value)
    shown = formats.localize(number)
    return f"{shown}{NARROW_NBSP}%" if french_typography() else f"{shown}%"


def oudlers_text(count: int) -> str:
    """A number of oudlers with its plural: "1 oudler", "2 oudlers" ("1 bout", "2 bouts")."""
    return ngettext("%(o)s oudler", "%(o)s oudlers", count) % {"o": count}


def _contract_label(code: object) -> str:
    try:
        return str(Contract(str(code)).label)
    except ValueError:
        return str(code)


def result_state_text(state: Mapping[str, Any] | None) -> str:
    """A result as the history keeps it (``services.results.result_state``), in words.

    A played deal: contract, taker seat, oudlers, points and value ("Garde · preneur E ·
    1 bout · 36 points · Valeur -80"); artificial scores per seat; or "not played".
    """
    if not state:
        return ""
    kind = state.get("kind")
    if kind == TableResult.Kind.PLAYED:
        outcome = state.get("outcome") or {}
        parts = []
        if outcome:
            parts += [
                _contract_label(outcome.get("contract")),
                f"{gettext('taker')} {seat_letter(outcome.get('taker_seat'))}",
                oudlers_text(int(outcome.get("oudlers") or 0)),
                gettext("%(p)s points") % {"p": formats.localize(outcome.get("points"))},
            ]
        else:
            parts.append(str(TableResult.Kind.PLAYED.label))
        if state.get("value") is not None:
            parts.append(f"{gettext('Value')} {formats.localize(state['value'])}")
        return " · ".join(parts)
    if kind == TableResult.Kind.ARTIFICIAL:
        # In seat order: a jsonb column (PostgreSQL) keeps its keys in its own order.
        artificial = state.get("artificial") or {}
        shares = [
            f"{seat_letter(seat)} {percent_text(artificial[seat])}"
            for seat in SEATS
            if artificial.get(seat) is not None
        ]
        label = str(TableResult.Kind.ARTIFICIAL.label)
        return f"{label}{colon()} {' · '.join(shares)}" if shares else label
    if kind == TableResult.Kind.NOT_PLAYED:
        return str(TableResult.Kind.NOT_PLAYED.label)
    return str(kind)


# The movement validator's warnings (tournaments.movements.validation): code, the English
# message's pattern (its figures), and the translated sentence.
_MOVEMENT_WARNINGS: dict[str, tuple[re.Pattern[str], Any]] = {
    "max_meetings_relaxed": (
        re.compile(r"allows (?P<allowed>\d+) meetings per pair .*: (?P<default>\d+)\)"),
        gettext_lazy(
            "A pair of players may meet up to %(allowed)s× "
            "(default for this movement: %(default)s×)."
        ),
    ),
    "bye_spread": (
        re.compile(r"range (?P<min>\d+)\.\.(?P<max>\d+)"),
        gettext_lazy("Byes per player range from %(min)s to %(max)s."),
    ),
    "bye_order": (
        re.compile(r"round (?P<round>\d+):"),
        gettext_lazy(
            "Round %(round)s: a player sits out a second time before every player has sat out once."
        ),
    ),
    "bye_twice_in_a_row": (
        re.compile(r"entrant (?P<entrant>\d+) "),
        gettext_lazy("Entrant %(entrant)s sits out two rounds in a row."),
    ),
}


def movement_warning_text(code: object, message: object) -> str:
    """A warning of the movement validator in the active language (its English text if the
    code is unknown)."""
    known = _MOVEMENT_WARNINGS.get(str(code))
    if known is None:
        return str(message)
    pattern, sentence = known
    match = pattern.search(str(message))
    if match is None:
        return str(message)
    return str(sentence) % match.groupdict()


def etui_copies_text(copies: Mapping[int, int]) -> str:
    """How many copies of each étui to prepare (``Schedule.copies_per_deal_set``), as the
    director reads it before the event: one sentence, every étui named when they differ."""
    if not copies:
        return ""
    counts = set(copies.values())
    total = sum(copies.values())
    if counts == {1}:
        return gettext("One copy of each étui: each one is played at one table at a time.")
    if len(counts) == 1:
        (count,) = counts
        return gettext("Prepare %(count)s copies of each étui: %(total)s étuis in all.") % {
            "count": count,
            "total": total,
        }
    each = ", ".join(
        gettext("étui %(set)s × %(count)s") % {"set": deal_set, "count": count}
        for deal_set, count in copies.items()
    )
    return gettext("Copies to prepare: %(each)s; %(total)s étuis in all.") % {
        "each": each,
        "total": total,
    }


MINUS = "\u2212"  # the minus sign (a hyphen is no minus)


def signed(value: int | None) -> str:
    """A mark, net or points de match as a tarot player writes it: ``+12``, ``−12`` (a minus
    sign), ``0``; ``—`` when unknown (a deal still in play somewhere)."""
    if value is None:
        return "—"
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"

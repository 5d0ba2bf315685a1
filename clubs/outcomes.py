"""The outcome vocabulary every kind of competition shares (duplicate tables, cup rooms,
free-deal tables): the seats, contracts, sides and poignée sizes as stored choices, and a
seat's one-letter label. The pure rules (``rules.enums``, ``rules.duplicate``) are the values;
this module gives them their Django choices and translated labels. The API's outcome field is
:class:`clubs.api.OutcomeField`; the form of a deal's outcome is
:class:`clubs.outcome_forms.DealOutcomeForm`.

The scoring of a four-player étui's outcome (a duplicate table's, a cup room's) lives here too:
:func:`outcome_score` validates an outcome with ``rules`` against an :class:`OutcomeDeal` (any
object with the étui's taker seat, imposed contract and cards: a ``tournaments.Deal``, a cup's
:class:`EtuiDeal`) and gives a :class:`ScoredOutcome`, nothing stored. A free deal is scored by
``freedeal.outcomes`` (any ruleset, any number of players)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from django.db import models
from django.utils.translation import gettext as _gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from clubs.errors import DomainError
from rules import enums
from rules.deal import Deal as RulesDeal
from rules.deal import deal_from_text
from rules.duplicate import (
    DUPLICATE_PLAYERS,
    DUPLICATE_RULESET,
    DUPLICATE_SEATS,
    check_duplicate_play,
)
from rules.errors import RuleError
from rules.hand_checks import check_hands
from rules.scoring import outcome_from_dict, score_deal, seat_marks

SEATS = DUPLICATE_SEATS  # N, E, S, W


class Seat(models.TextChoices):
    NORTH = SEATS[0], _("North")
    EAST = SEATS[1], _("East")
    SOUTH = SEATS[2], _("South")
    WEST = SEATS[3], _("West")


class Contract(models.TextChoices):
    PRISE = enums.Contract.PRISE.value, _("Prise")
    GARDE = enums.Contract.GARDE.value, _("Garde")
    GARDE_SANS = enums.Contract.GARDE_SANS.value, _("Garde sans")
    GARDE_CONTRE = enums.Contract.GARDE_CONTRE.value, _("Garde contre")


class Side(models.TextChoices):
    ATTACK = enums.Side.ATTACK.value, _("Attack")
    DEFENCE = enums.Side.DEFENCE.value, _("Defence")


class PoigneeSize(models.TextChoices):
    SIMPLE = enums.PoigneeSize.SIMPLE.value, _("simple")
    DOUBLE = enums.PoigneeSize.DOUBLE.value, _("double")
    TRIPLE = enums.PoigneeSize.TRIPLE.value, _("triple")


def seat_letter(seat: object) -> str:
    """The one-letter label of a seat code in the active language (W is "O" in French)."""
    letters = {
        "N": pgettext("seat letter", "N"),
        "E": pgettext("seat letter", "E"),
        "S": pgettext("seat letter", "S"),
        "W": pgettext("seat letter", "W"),
    }
    return letters.get(str(seat), str(seat))


# ------------------------------------------------------------------------------ scoring


class OutcomeDeal(Protocol):
    """What scoring an outcome reads of a deal: the étui's taker seat, its imposed contract
    ("" for none) and its cards (text form, "" when unknown); and its number (the forms'
    prefix and the page's card)."""

    @property
    def number(self) -> int: ...

    @property
    def taker_seat(self) -> str: ...

    @property
    def imposed_contract(self) -> str: ...

    @property
    def cards(self) -> str: ...


@dataclass(frozen=True)
class EtuiDeal:
    """An étui as a plain value (a cup's deal): what :func:`outcome_score`, the outcome form
    and the simulated plays read."""

    number: int
    dealer_seat: str
    taker_seat: str
    cards: str = ""
    imposed_contract: str = ""


@dataclass(frozen=True)
class ScoredOutcome:
    """A validated outcome ready to store: field values and the marks per seat."""

    taker_seat: str
    fields: dict[str, Any]
    marks: dict[str, int]
    value: int


@lru_cache(maxsize=512)
def prepared_hands(cards: str) -> RulesDeal | None:
    """The deal's cards (``Deal.cards``, text form) parsed, or None when they are not known
    (empty) or unreadable: then the entry is not checked against them."""
    if not cards.strip():
        return None
    try:
        return deal_from_text(cards)
    except RuleError:
        return None


def _rule_error(error: RuleError) -> DomainError:
    return DomainError.from_rule(error, field="taker_seat" if error.field == "seats" else None)


def outcome_score(
    *, deal: OutcomeDeal, outcome: Mapping[str, Any], director: bool = False
) -> ScoredOutcome:
    """Validate ``outcome`` for ``deal`` with ``rules`` and compute its marks (no write).

    Used by every kind's services before saving (duplicate tables, cup rooms) and by the entry
    pages to show the marks instantly; ``director`` may name another taker seat than the étui's.
    """
    if not isinstance(outcome, Mapping):
        raise DomainError("invalid_type", _gettext("expected an object"), field="outcome")
    data = dict(outcome)
    taker_seat = data.pop("taker_seat", None) or deal.taker_seat
    if taker_seat not in SEATS:
        raise DomainError(
            "unknown_seat",
            _gettext("%(seat)s is not a seat (N, E, S, W)") % {"seat": taker_seat},
            field="taker_seat",
        )
    if taker_seat != deal.taker_seat and not director:
        raise DomainError(
            "taker_seat_mismatch",
            _gettext("the étui names %(seat)s as the taker seat of this deal")
            % {"seat": deal.taker_seat},
            field="taker_seat",
        )
    data.setdefault("players", DUPLICATE_PLAYERS)
    imposed = enums.Contract(deal.imposed_contract) if deal.imposed_contract else None
    try:
        parsed = outcome_from_dict(data, ruleset=DUPLICATE_RULESET)
        check_duplicate_play(contract=parsed.contract, players=parsed.players, imposed=imposed)
        score = score_deal(parsed)
        marks = seat_marks(score, SEATS, taker_seat)
        prepared = prepared_hands(deal.cards)
        if prepared is not None:
            check_hands(prepared, SEATS.index(taker_seat), parsed)
    except RuleError as error:
        raise _rule_error(error) from error
    fields = {
        "taker_seat": taker_seat,
        "contract": parsed.contract.value,
        "oudlers": parsed.oudlers,
        "points_half": parsed.points_half,
        "petit_au_bout": parsed.petit_au_bout.value if parsed.petit_au_bout else "",
        "poignees": [{"side": p.side.value, "size": p.size.value} for p in parsed.poignees],
        "chelem_announced": parsed.chelem.announced,
        "chelem_made_by": parsed.chelem.made_by.value if parsed.chelem.made_by else "",
        "won": score.won,
        "margin": score.margin,
        "value": score.value,
        "mark_n": marks["N"],
        "mark_e": marks["E"],
        "mark_s": marks["S"],
        "mark_w": marks["W"],
    }
    return ScoredOutcome(taker_seat=taker_seat, fields=fields, marks=marks, value=score.value)

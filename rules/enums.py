"""Enumerations and per-player-count tables of French tarot (FFT rules).

Vocabulary: the *attack* is the taker (plus the called partner at 5 players), the *defence* is
everybody else. Points are always handled in **half-points** (integers): the deck is worth 182.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import EnumType, StrEnum
from typing import Any, Final

from rules.i18n import gettext_noop


class Side(StrEnum):
    """One of the two camps of a deal."""

    ATTACK = "attack"
    DEFENCE = "defence"

    @property
    def other(self) -> Side:
        return Side.DEFENCE if self is Side.ATTACK else Side.ATTACK

    @property
    def label(self) -> str:
        """Display name, marked for translation (translate it with gettext when shown)."""
        return _SIDE_LABELS[self]


class _ContractType(EnumType):
    """Iterating :class:`Contract` gives the FFT's four contracts only.

    ``Contract.POUSSE`` (traditional rules) exists and parses (``Contract("pousse")``), but it
    is offered only by a ruleset that has it (``Ruleset.contracts``): every FFT list of
    contracts (choices, forms, archives, Django ``TextChoices``) stays the FFT's.
    """

    def __iter__(cls) -> Iterator[Any]:
        members: Iterator[Any] = super().__iter__()
        return (member for member in members if member.value not in _NON_FFT_VALUES)

    def __len__(cls) -> int:
        return sum(1 for _ in cls)

    def __reversed__(cls) -> Iterator[Any]:
        return reversed(list(cls))


_NON_FFT_VALUES: Final = frozenset({"pousse"})


class Contract(StrEnum, metaclass=_ContractType):
    """Contracts in increasing order (a later bid must be strictly higher).

    Iteration gives the FFT's four contracts; ``POUSSE`` (between Prise and Garde, traditional
    rules only) is reached by name or value and listed by ``Ruleset.contracts``.
    """

    PRISE = "prise"
    POUSSE = "pousse"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    @property
    def multiplier(self) -> int:
        """The FFT multiplier (the pousse's default; ``Ruleset.multiplier`` has the event's)."""
        return _CONTRACT_MULTIPLIERS[self]

    @property
    def label(self) -> str:
        """French tarot name (kept French in every language), marked for translation."""
        return _CONTRACT_LABELS[self]

    @property
    def rank(self) -> int:
        """Position among every contract (Prise 0, Pousse 1, Garde 2 ... Garde contre 4); only
        used to compare bids."""
        return _CONTRACT_ORDER.index(self)

    @property
    def chien_to_attack(self) -> bool:
        """Whether the chien (or the écart made from it) counts for the attack."""
        return self is not Contract.GARDE_CONTRE

    @property
    def taker_sees_chien(self) -> bool:
        """Prise, Pousse and Garde: the taker takes the chien and discards an écart."""
        return self in (Contract.PRISE, Contract.POUSSE, Contract.GARDE)


_CONTRACT_ORDER: Final = (
    Contract.PRISE,
    Contract.POUSSE,
    Contract.GARDE,
    Contract.GARDE_SANS,
    Contract.GARDE_CONTRE,
)
# The FFT contracts, in order (what iterating Contract gives; Django choices use it too).
FFT_CONTRACTS: Final = (Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
# Every contract of every ruleset, in order.
ALL_CONTRACTS: Final = _CONTRACT_ORDER
DEFAULT_POUSSE_MULTIPLIER: Final = 2
_CONTRACT_MULTIPLIERS: Final = {
    Contract.PRISE: 1,
    Contract.POUSSE: DEFAULT_POUSSE_MULTIPLIER,
    Contract.GARDE: 2,
    Contract.GARDE_SANS: 4,
    Contract.GARDE_CONTRE: 6,
}


class PoigneeSize(StrEnum):
    """Handful of trumps shown before one's first card."""

    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"

    @property
    def label(self) -> str:
        """Display name, marked for translation."""
        return _POIGNEE_LABELS[self]

    @property
    def bonus(self) -> int:
        """Points credited to the side that wins the deal (never multiplied)."""
        return _POIGNEE_BONUS[self]

    def threshold(self, players: int) -> int:
        """Trumps (the Excuse may stand in for one) to show at this player count."""
        return POIGNEE_THRESHOLDS[players][self]


_SIDE_LABELS: Final = {Side.ATTACK: gettext_noop("attack"), Side.DEFENCE: gettext_noop("defence")}
_CONTRACT_LABELS: Final = {
    Contract.PRISE: gettext_noop("Prise"),
    Contract.POUSSE: gettext_noop("Pousse"),
    Contract.GARDE: gettext_noop("Garde"),
    Contract.GARDE_SANS: gettext_noop("Garde sans"),
    Contract.GARDE_CONTRE: gettext_noop("Garde contre"),
}
_POIGNEE_LABELS: Final = {
    PoigneeSize.SIMPLE: gettext_noop("simple poignée"),
    PoigneeSize.DOUBLE: gettext_noop("double poignée"),
    PoigneeSize.TRIPLE: gettext_noop("triple poignée"),
}
_POIGNEE_BONUS: Final = {PoigneeSize.SIMPLE: 20, PoigneeSize.DOUBLE: 30, PoigneeSize.TRIPLE: 40}

PLAYER_COUNTS: Final = (3, 4, 5)
HAND_SIZE: Final = {3: 24, 4: 18, 5: 15}
CHIEN_SIZE: Final = {3: 6, 4: 6, 5: 3}
POIGNEE_THRESHOLDS: Final[dict[int, dict[PoigneeSize, int]]] = {
    3: {PoigneeSize.SIMPLE: 13, PoigneeSize.DOUBLE: 15, PoigneeSize.TRIPLE: 18},
    4: {PoigneeSize.SIMPLE: 10, PoigneeSize.DOUBLE: 13, PoigneeSize.TRIPLE: 15},
    5: {PoigneeSize.SIMPLE: 8, PoigneeSize.DOUBLE: 10, PoigneeSize.TRIPLE: 13},
}
TOTAL_HALF_POINTS: Final = 182
TRUMPS_AND_EXCUSE: Final = 22
# Points the attack needs, by the number of oudlers in its tricks at the end (in half-points).
NEEDED_HALF_POINTS: Final = {0: 112, 1: 102, 2: 82, 3: 72}

"""Rule systems: the FFT's (the default, and the only one for duplicate competitions), a
*traditional* one and a club's *house* rules.

A :class:`Ruleset` is a frozen value that travels wherever the player count does: dealing
(``Deal`` knows its chien), validation and scoring (``Outcome.ruleset``), legal cards and
counting (``PlayRecord.ruleset``), simulation. Every function that takes one defaults to
:data:`FFT`, so the FFT behaviour is what code that does not mention a ruleset gets.

What each system changes (the engine's docs and ``docs/rulesets.md`` give the details):

- ``fft``: the Fédération Française de Tarot's rules (``docs/domain/tarot-scoring.md``).
- ``traditional``: the *pousse* bid between Prise and Garde (its multiplier a parameter, the
  chien goes to the taker as for a Prise); the *petit chelem* (every trick but one: +300
  announced and made, −150 announced and failed); at 5 players the King is called after the
  chien is seen; optionally the 5-player *flambeuse* (14 cards each, a chien of 8, the taker
  alone against four).
- ``house`` (one widely circulated club text): the dealer picks the chien size per deal (3, 6
  or 9 cards at 3 players, 2, 6 or 10 at 4) and the hands are dealt to match; poignées of
  10/13/15 trumps at 3 players; once the Excuse has been played in a trick the following
  players who must trump go *down* (under the best trump) rather than up; a trick made only of
  trumps makes every player pass two random cards to the player on his right (recorded in the
  play record); the Excuse in the last trick goes to the side that wins that trick; a chelem
  announcer holding the Excuse must play it last.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Final

from rules.enums import (
    ALL_CONTRACTS,
    CHIEN_SIZE,
    FFT_CONTRACTS,
    POIGNEE_THRESHOLDS,
    Contract,
    PoigneeSize,
)
from rules.enums import DEFAULT_POUSSE_MULTIPLIER as DEFAULT_POUSSE_MULTIPLIER
from rules.errors import RuleError
from rules.i18n import gettext_noop

TOTAL_CARDS: Final = 78

#: The rules version a new competition stores (``ruleset_to_dict``). A stored ruleset without
#: ``"version"`` is version 1: the engine's behaviour before issue 25, kept exactly so that a
#: finished event or free-deal tournament keeps its scores on a recompute or a restore.
#: Version 2: the traditional écart (no trump; Kings allowed) and 3-player poignées 10/13/15;
#: the house first bidder and first leader on the dealer's left; under both texts the Excuse
#: of the side that loses every trick, played in the last trick, goes to the chelem side.
RULES_VERSION: Final = 2
FIRST_VERSION: Final = 1


class RulesetName(StrEnum):
    FFT = "fft"
    TRADITIONAL = "traditional"
    HOUSE = "house"

    @property
    def label(self) -> str:
        """Display name, marked for translation."""
        return _RULESET_LABELS[self]


_RULESET_LABELS: Final = {
    RulesetName.FFT: gettext_noop("FFT rules"),
    RulesetName.TRADITIONAL: gettext_noop("Traditional rules"),
    RulesetName.HOUSE: gettext_noop("House rules"),
}

# (players, allowed chien sizes, the first being the default)
_FFT_CHIENS: Final = tuple((players, (size,)) for players, size in CHIEN_SIZE.items())
_HOUSE_CHIENS: Final = ((3, (6, 3, 9)), (4, (6, 2, 10)), (5, (3,)))
# (players, (simple, double, triple))
_FFT_POIGNEES: Final = tuple(
    (players, (sizes[PoigneeSize.SIMPLE], sizes[PoigneeSize.DOUBLE], sizes[PoigneeSize.TRIPLE]))
    for players, sizes in POIGNEE_THRESHOLDS.items()
)
_HOUSE_POIGNEES: Final = ((3, (10, 13, 15)), (4, (10, 13, 15)), (5, (8, 10, 13)))
_FLAMBEUSE_CHIEN: Final = 8


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One rule system and its parameters (hashable, comparable, serialisable)."""

    name: RulesetName = RulesetName.FFT
    # traditional: the pousse bid (between Prise and Garde) and its multiplier; None: no pousse.
    pousse_multiplier: int | None = None
    # traditional: the petit chelem (every trick but one), +300 announced and made, -150 failed.
    petit_chelem: bool = False
    # traditional, 5 players: the taker calls his King after seeing the chien.
    king_after_chien: bool = False
    # traditional, 5 players: 14 cards each, a chien of 8, the taker alone against four.
    flambeuse: bool = False
    # the chien sizes the dealer may pick, per player count (the first is the default).
    chien_choices: tuple[tuple[int, tuple[int, ...]], ...] = _FFT_CHIENS
    poignee_table: tuple[tuple[int, tuple[int, int, int]], ...] = _FFT_POIGNEES
    # house: after the Excuse in a trick, the following players who must trump go under.
    excuse_trump_down: bool = False
    # house: a trick made only of trumps makes each player pass this many cards to his right.
    trump_trick_pass: int = 0
    # house: the Excuse in the last trick goes to the side that wins it (FFT: it changes camp).
    excuse_last_trick_to_winner: bool = False
    # house: a chelem announcer holding the Excuse must play it in the last trick.
    chelem_excuse_last: bool = False
    # traditional (version 2): no trump in the écart (unless unavoidable), Kings allowed there
    # (announced: the écart's Kings are shown).
    ecart_kings: bool = False
    # house (version 2): the first bidder and the first leader sit on the dealer's left.
    first_player_left_of_dealer: bool = False
    # traditional and house (version 2): the Excuse of the side that loses every trick, played
    # in the last trick, goes to the chelem side.
    excuse_to_chelem_side: bool = False
    # The rules version (RULES_VERSION): what the behaviour flags above were built from. Not
    # part of equality: two versions that play the same (the FFT's) are the same rules.
    version: int = field(default=RULES_VERSION, compare=False)

    @property
    def is_fft(self) -> bool:
        return self.name is RulesetName.FFT

    def chien_sizes(self, players: int) -> tuple[int, ...]:
        """Chien sizes allowed at ``players`` (the first is the default)."""
        if players == 5 and self.flambeuse:
            return (_FLAMBEUSE_CHIEN,)
        return dict(self.chien_choices)[players]

    def default_chien_size(self, players: int) -> int:
        return self.chien_sizes(players)[0]

    def hand_size(self, players: int, chien_size: int | None = None) -> int:
        """Cards per hand for a chien of ``chien_size`` (the default chien when ``None``)."""
        chien = self.default_chien_size(players) if chien_size is None else chien_size
        return (TOTAL_CARDS - chien) // players

    def poignee_threshold(self, players: int, size: PoigneeSize) -> int:
        """Trumps (the Excuse may stand in for one) to show for a poignée of ``size``."""
        simple, double, triple = dict(self.poignee_table)[players]
        return {PoigneeSize.SIMPLE: simple, PoigneeSize.DOUBLE: double, PoigneeSize.TRIPLE: triple}[
            size
        ]

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """The contracts this ruleset offers, lowest first (the FFT's four, plus the pousse)."""
        if self.pousse_multiplier is None:
            return FFT_CONTRACTS
        return ALL_CONTRACTS

    def multiplier(self, contract: Contract) -> int:
        """The contract's multiplier: the pousse's parameter, else 1, 2, 4 or 6.

        A contract the ruleset does not offer raises ``contract_not_in_ruleset``.
        """
        self.check_contract(contract)
        if contract is Contract.POUSSE and self.pousse_multiplier is not None:
            return self.pousse_multiplier
        return contract.multiplier

    def check_contract(self, contract: Contract, field: str = "contract") -> None:
        """RuleError ``contract_not_in_ruleset`` unless the ruleset offers ``contract``."""
        if contract not in self.contracts:
            raise RuleError(
                "contract_not_in_ruleset",
                gettext_noop(
                    "%(contract_word)s is not played under these rules "
                    "(%(ruleset_word)s: %(choices_words)s)."
                ),
                {
                    "contract_word": contract.label,
                    "ruleset_word": self.name.label,
                    "choices_words": tuple(c.label for c in self.contracts),
                },
                field=field,
            )

    def check_chien_size(self, players: int, chien_size: int, field: str = "chien") -> None:
        """RuleError ``invalid_chien_size`` unless the ruleset allows this chien size."""
        allowed = self.chien_sizes(players)
        if isinstance(chien_size, bool) or chien_size not in allowed:
            raise RuleError(
                "invalid_chien_size",
                gettext_noop(
                    "A chien of %(size)s cards is not allowed at %(players)s players "
                    "(%(ruleset_word)s: %(allowed)s)."
                ),
                {
                    "size": chien_size
                    if abs(chien_size) < 10**18
                    else format(Decimal(chien_size), ".3E"),
                    "players": players,
                    "ruleset_word": self.name.label,
                    "allowed": ", ".join(str(size) for size in sorted(allowed)),
                },
                field=field,
            )

    def first_player(self, players: int, dealer: int) -> int:
        """The first bidder and (without a chelem announcement) the first leader.

        The player after the dealer in the order of play (counter-clockwise: on his right);
        under the house rules (version 2) the player on the dealer's left.
        """
        if self.first_player_left_of_dealer:
            return (dealer + 1) % players
        return (dealer - 1) % players

    @property
    def calls_king(self) -> bool:
        """Whether the 5-player taker calls a partner (not in the flambeuse)."""
        return not self.flambeuse

    def to_dict(self) -> dict[str, object]:
        """The ruleset's name, the parameters an organiser may choose and the rules version
        (for storage; :func:`ruleset_from_dict` reads it back)."""
        data: dict[str, object] = {"name": self.name.value}
        if self.name is RulesetName.TRADITIONAL:
            data["pousse_multiplier"] = self.pousse_multiplier
            data["flambeuse"] = self.flambeuse
        data["version"] = self.version
        return data


def ruleset_to_dict(ruleset: Ruleset) -> dict[str, object]:
    """The stored form of ``ruleset``, its rules version always written (what a new
    competition stores: ``{"name": "fft", "version": 2}``)."""
    return ruleset.to_dict()


def _check_version(version: object) -> int:
    if (
        isinstance(version, bool)
        or not isinstance(version, int)
        or not FIRST_VERSION <= version <= RULES_VERSION
    ):
        raise RuleError(
            "invalid_ruleset_parameter",
            gettext_noop("The rules version must be a whole number from 1 to %(max)s."),
            {"max": RULES_VERSION},
            field="version",
        )
    return version


def fft(version: int = RULES_VERSION) -> Ruleset:
    """The FFT's rules (every version plays them the same)."""
    return Ruleset(version=_check_version(version))


FFT: Final = Ruleset()


def traditional(
    pousse_multiplier: int = DEFAULT_POUSSE_MULTIPLIER,
    flambeuse: bool = False,
    version: int = RULES_VERSION,
) -> Ruleset:
    """The traditional rules with the organiser's parameters, as of rules ``version``."""
    version = _check_version(version)
    if not isinstance(pousse_multiplier, int) or isinstance(pousse_multiplier, bool):
        raise RuleError(
            "invalid_ruleset_parameter",
            gettext_noop("The pousse multiplier must be a whole number, not %(value)s."),
            {"value": repr(pousse_multiplier)},
            field="pousse_multiplier",
        )
    if not 1 <= pousse_multiplier <= 4:
        raise RuleError(
            "invalid_ruleset_parameter",
            gettext_noop("The pousse multiplier must be between 1 and 4, not %(value)s."),
            {"value": pousse_multiplier},
            field="pousse_multiplier",
        )
    return Ruleset(
        name=RulesetName.TRADITIONAL,
        pousse_multiplier=pousse_multiplier,
        petit_chelem=True,
        king_after_chien=True,
        flambeuse=bool(flambeuse),
        # version 2: the texts' écart, poignées "the same as at four", the Excuse to the chelem
        poignee_table=_FFT_POIGNEES if version < 2 else _HOUSE_POIGNEES,
        ecart_kings=version >= 2,
        excuse_to_chelem_side=version >= 2,
        version=version,
    )


def house(version: int = RULES_VERSION) -> Ruleset:
    """The club's house rules, as of rules ``version``."""
    version = _check_version(version)
    return Ruleset(
        name=RulesetName.HOUSE,
        chien_choices=_HOUSE_CHIENS,
        poignee_table=_HOUSE_POIGNEES,
        excuse_trump_down=True,
        trump_trick_pass=2,
        excuse_last_trick_to_winner=True,
        chelem_excuse_last=True,
        first_player_left_of_dealer=version >= 2,
        excuse_to_chelem_side=version >= 2,
        version=version,
    )


TRADITIONAL: Final = traditional()
HOUSE: Final = house()


def ruleset_from_dict(
    data: Mapping[str, object] | str | None, default_version: int = FIRST_VERSION
) -> Ruleset:
    """The ruleset a stored value or a name (``"fft"``...) stands for; ``None`` is the FFT's.

    The rules version is the dict's ``"version"``; without one, ``default_version``: 1 for a
    stored value (written before versions existed: today's outcomes are kept), the current
    :data:`RULES_VERSION` for a new choice (:func:`ruleset_from_choice`).
    """
    if data is None:
        return fft(default_version)
    if isinstance(data, str):
        data = {"name": data}
    version = _check_version(data.get("version", default_version))
    name = data.get("name", RulesetName.FFT.value)
    try:
        ruleset_name = RulesetName(str(name))
    except ValueError:
        raise RuleError(
            "unknown_ruleset",
            gettext_noop("Unknown ruleset %(value)s: expected one of %(choices)s."),
            {"value": repr(name), "choices": ", ".join(n.value for n in RulesetName)},
            field="ruleset",
        ) from None
    if ruleset_name is RulesetName.FFT:
        return fft(version)
    if ruleset_name is RulesetName.HOUSE:
        return house(version)
    multiplier = data.get("pousse_multiplier", DEFAULT_POUSSE_MULTIPLIER)
    flambeuse = data.get("flambeuse", False)
    if not isinstance(flambeuse, bool):
        raise RuleError(
            "invalid_ruleset_parameter",
            gettext_noop("flambeuse must be true or false, not %(value)s."),
            {"value": repr(flambeuse)},
            field="flambeuse",
        )
    return traditional(multiplier, flambeuse, version)  # type: ignore[arg-type]


def ruleset_from_choice(data: Mapping[str, object] | str | None) -> Ruleset:
    """The ruleset of a new choice (an organiser's, a command's option): the current rules
    version unless the choice names one."""
    return ruleset_from_dict(data, default_version=RULES_VERSION)

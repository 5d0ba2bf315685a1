"""Scoring one deal of French tarot from its outcome (FFT rules, see docs/domain/tarot-scoring.md).

Vocabulary:

- an :class:`Outcome` is what a table reports after a deal: player count, contract, oudlers and
  points in the attack's tricks (``points_half``, in half-points: 40.5 points is 81), petit au
  bout, poignées shown, chelem, and (5 players) whether a partner was called;
- the deal **value** is in "defender units", signed from the attack's side;
- the **marks** are what each player writes: every defender ``-value``, the attack the opposite
  total. Marks at a table always sum to zero.

Invariants: an outcome is validated (:func:`validate_outcome`) before it is scored; every
inconsistency raises :class:`~rules.errors.RuleError` with a stable code and the field at fault.

Conventions of this project (where the FFT text is silent), marked **[convention]**:

- an announced chelem that fails while the defence wins every trick scores both the failed
  announcement (-200) and the defence's chelem (-200): -400 in all;
- the Excuse's owner always keeps it and the trick winner's side receives a half point in
  exchange, even when the owner's side makes no trick at all (the exchange is then settled at the
  count): so an attack chelem with the Excuse in defence counts 87 points for the attack, 4 for
  the defence (the traditional and house rules of version 2 give the chelem side that Excuse
  when it is played in the last trick: 91 for the attack, ``docs/rulesets.md``);
- a half point of difference is rounded up in favour of the side that scores (40.5 for 41
  needed is lost by 1, 41.5 is won by 1), as the FFT says for 3 and 5 players; at 4 players the
  count ends in a half point only when the Excuse changed camp in the last trick (outside a
  chelem, see :mod:`rules.play`), and is rounded the same way;
- a poignée is shown by one player, so a side shows at most one poignée per player in it;
- :func:`outcome_from_dict` rejects unknown keys, so a misspelt key cannot be silently ignored.

Rulesets (:mod:`rules.ruleset`, ``docs/rulesets.md``): ``Outcome.ruleset`` (default the FFT's)
and ``Outcome.chien_size`` (the chien the dealer picked under house rules; ``None`` is the
ruleset's default) change the contracts offered and their multipliers (the pousse), the
poignée thresholds, the chien counting for a side, the attack's size (the flambeuse: the taker
alone against four) and the exact bounds; the traditional *petit chelem* is part of
:class:`Chelem` (``petit_announced``, ``petit_made``):

- announced and made (the attack won every trick but one, or every trick): +300, never
  multiplied, instead of the unannounced chelem's +200 when the attack won them all;
- announced and not made: -150;
- made without being announced: no bonus [convention] (recording it is optional).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from rules.enums import (
    NEEDED_HALF_POINTS,
    PLAYER_COUNTS,
    TOTAL_HALF_POINTS,
    TRUMPS_AND_EXCUSE,
    Contract,
    PoigneeSize,
    Side,
)
from rules.errors import RuleError
from rules.feasibility import PetitChelem, is_feasible, points_bounds
from rules.i18n import PluralText, gettext_noop, ngettext_lazy
from rules.ruleset import FFT, Ruleset

__all__ = [
    "Chelem",
    "Contract",
    "DealScore",
    "Marks",
    "Outcome",
    "Poignee",
    "PoigneeSize",
    "Side",
    "format_half_points",
    "outcome_from_dict",
    "outcome_to_dict",
    "score_deal",
    "seat_marks",
    "validate_outcome",
]


@dataclass(frozen=True, slots=True)
class Poignee:
    """A handful of trumps shown by one player of ``side``."""

    side: Side
    size: PoigneeSize


@dataclass(frozen=True, slots=True)
class Chelem:
    """Chelem (slam): announced by the taker or not, and the side that won every trick.

    Traditional rules add the *petit chelem*: ``petit_announced`` (the taker announced it) and
    ``petit_made`` (the attack won every trick but one). The FFT's and house rules refuse both.
    """

    announced: bool = False
    made_by: Side | None = None
    petit_announced: bool = False
    petit_made: bool = False


NO_CHELEM = Chelem()


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one deal as reported by a table (points in half-points)."""

    players: int
    contract: Contract
    oudlers: int
    points_half: int
    petit_au_bout: Side | None = None
    poignees: tuple[Poignee, ...] = ()
    chelem: Chelem = field(default=NO_CHELEM)
    partner: bool = False
    ruleset: Ruleset = FFT
    # the chien size the dealer picked (house rules); None: the ruleset's default
    chien_size: int | None = None

    @property
    def chien(self) -> int:
        """The chien's size in this deal (the dealer's choice or the ruleset's default)."""
        if self.chien_size is not None:
            return self.chien_size
        return self.ruleset.default_chien_size(self.players)

    @property
    def points(self) -> int | float:
        """Attack points as a number (int when whole, else a .5 float) for display."""
        return self.points_half // 2 if self.points_half % 2 == 0 else self.points_half / 2


@dataclass(frozen=True, slots=True)
class Marks:
    """Marks per role. ``partner`` is None unless 5 players with a called partner."""

    taker: int
    partner: int | None
    defender: int


@dataclass(frozen=True, slots=True)
class DealScore:
    """Score of a deal: result, margin (whole points), value (defender units) and marks."""

    won: bool
    margin: int
    value: int
    marks: Marks

    def to_dict(self) -> dict[str, object]:
        """The shape of the ``expected`` objects of ``deal-scores.json``."""
        return {
            "won": self.won,
            "margin": self.margin,
            "value": self.value,
            "marks": {
                "taker": self.marks.taker,
                "partner": self.marks.partner,
                "defender": self.marks.defender,
            },
        }


def format_half_points(half: int) -> str:
    """``81`` → ``"40.5"``, ``92`` → ``"46"``."""
    return str(half // 2) if half % 2 == 0 else str(half / 2)


# --------------------------------------------------------------------------------- parsing

_KNOWN_KEYS = frozenset(
    {
        "players",
        "contract",
        "oudlers",
        "points",
        "petit_au_bout",
        "poignees",
        "chelem",
        "partner",
        "chien",
        "petit_chelem",
    }
)

_POIGNEE_KEYS = frozenset({"side", "size"})
_CHELEM_KEYS = frozenset({"announced", "made_by"})
_PETIT_CHELEM_KEYS = frozenset({"announced", "made"})

# The message of each expected shape, whole (a phrase inside another message would stay English).
_EXPECTED = {
    "a whole number": gettext_noop("expected a whole number, got %(value)s"),
    "a number": gettext_noop("expected a number, got %(value)s"),
    "true or false": gettext_noop("expected true or false, got %(value)s"),
    "a list": gettext_noop("expected a list, got %(value)s"),
    "an object": gettext_noop("expected an object, got %(value)s"),
    "an object with side and size": gettext_noop(
        "expected an object with side and size, got %(value)s"
    ),
    "an object with announced and made_by": gettext_noop(
        "expected an object with announced and made_by, got %(value)s"
    ),
    "attack, defence or null": gettext_noop("expected attack, defence or null, got %(value)s"),
    "a Poignee(side, size)": gettext_noop("expected a Poignee(side, size), got %(value)s"),
    "a Chelem(announced, made_by)": gettext_noop(
        "expected a Chelem(announced, made_by), got %(value)s"
    ),
    "an object with announced and made": gettext_noop(
        "expected an object with announced and made, got %(value)s"
    ),
    "a Ruleset": gettext_noop("expected a Ruleset, got %(value)s"),
}


# Beyond this magnitude a whole number is shown in scientific notation: Python refuses to turn
# an int of more than 4,300 digits into text, and no message needs all the digits.
_SHOWN_DIGITS = 18
_SHOWN_CHARS = 40


def shown_value(value: object) -> str:
    """``value`` as a message shows it: ``repr``, absurd numbers and long texts shortened."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**_SHOWN_DIGITS:
        return format(Decimal(value), ".3E")
    if isinstance(value, str) and len(value) > _SHOWN_CHARS:
        return repr(value[:_SHOWN_CHARS]) + "…"
    return repr(value)


def _shown_number(value: int) -> int | str:
    """A whole number for a message: itself, or shortened when absurdly large."""
    return value if abs(value) < 10**_SHOWN_DIGITS else format(Decimal(value), ".3E")


def _type_error(field_name: str, expected: str, value: object) -> RuleError:
    return RuleError(
        "invalid_type", _EXPECTED[expected], {"value": shown_value(value)}, field=field_name
    )


def _unknown_keys(data: Mapping[Any, object], known: frozenset[str], where: str) -> None:
    """RuleError ``unknown_field`` naming the first key of ``data`` not in ``known``."""
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        field_name = f"{where}.{unknown[0]}" if where else unknown[0]
        raise RuleError(
            "unknown_field",
            gettext_noop("unknown key %(key)s"),
            {"key": unknown[0][:_SHOWN_CHARS]},
            field=field_name,
        )


def _oudlers_text(count: int) -> PluralText:
    return ngettext_lazy("%(number)s oudler", "%(number)s oudlers", count)


def _points_text(half: int) -> PluralText:
    """``N points`` with the plural of each language (a half point counts as plural)."""
    return ngettext_lazy(
        "%(number)s point",
        "%(number)s points",
        half // 2 if half % 2 == 0 else 2,
        format_half_points(half),
    )


def _players_text(count: int) -> PluralText:
    return ngettext_lazy("%(number)s player", "%(number)s players", count)


def _parse_int(value: object, field_name: str) -> int:
    if isinstance(value, bool):
        raise _type_error(field_name, "a whole number", value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
        try:
            # More digits than int() reads from text: a whole number all the same.
            number = Decimal(value.strip())
        except InvalidOperation:
            number = Decimal("NaN")
        if number.is_finite() and number == number.to_integral_value():
            return int(number)
    raise _type_error(field_name, "a whole number", value)


def _shown_points(value: object, number: Decimal) -> str:
    """The points as the client wrote them, or in scientific notation when absurdly long."""
    if isinstance(value, str) and len(value.strip()) <= _SHOWN_CHARS:
        return value.strip()
    if isinstance(value, float) or (isinstance(value, int) and abs(value) < 10**_SHOWN_DIGITS):
        return str(value)
    return format(number, ".3E")


def _parse_points_half(value: object) -> int:
    """Points (int, float or numeric string) to half-points; must be a multiple of 0.5."""
    if isinstance(value, bool):
        raise _type_error("points", "a number", value)
    number: Decimal
    if isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise _type_error("points", "a number", value)
        number = Decimal(repr(value))
    elif isinstance(value, str):
        try:
            number = Decimal(value.strip().replace(",", "."))
        except InvalidOperation:
            raise _type_error("points", "a number", value) from None
        if not number.is_finite():
            raise _type_error("points", "a number", value)
    else:
        raise _type_error("points", "a number", value)
    # A number far outside 0..91 (``1e999999999``) is out of range before any arithmetic, and a
    # tiny non-zero one (``1e-999999999``) cannot be a multiple of 0.5: Decimal would overflow
    # or round it to 0.
    if number != 0 and number.adjusted() > 3:
        raise RuleError(
            "points_out_of_range",
            gettext_noop("%(points)s is outside 0..91"),
            {"points": _shown_points(value, number)},
            field="points",
        )
    doubled = number * 2
    if (number != 0 and number.adjusted() < -1) or doubled != doubled.to_integral_value():
        raise RuleError(
            "points_not_half",
            gettext_noop("%(points)s is not a multiple of 0.5"),
            {"points": _shown_points(value, number)},
            field="points",
        )
    return int(doubled)


_E = TypeVar("_E", Side, Contract, PoigneeSize)


def _parse_enum(kind: type[_E], value: object, field_name: str, code: str) -> _E:
    if isinstance(value, str):
        try:
            return kind(value.strip())
        except ValueError:
            pass
    raise RuleError(
        code,
        gettext_noop("%(value)s is not one of %(choices)s"),
        {"value": shown_value(value), "choices": ", ".join(member.value for member in kind)},
        field=field_name,
    )


def _parse_side_or_none(value: object, field_name: str) -> Side | None:
    if value is None:
        return None
    return _parse_enum(Side, value, field_name, "unknown_side")


def _parse_bool(value: object, field_name: str) -> bool:
    if isinstance(value, bool):
        return value
    raise _type_error(field_name, "true or false", value)


def outcome_from_dict(
    data: Mapping[str, object], ruleset: Ruleset = FFT, *, strict: bool = True
) -> Outcome:
    """Parse the input shape of ``deal-scores.json`` into an :class:`Outcome` of ``ruleset``.

    Required keys: ``players``, ``contract``, ``oudlers``, ``points`` (int, float or numeric
    string, a multiple of 0.5). Optional: ``petit_au_bout`` (null/"attack"/"defence"),
    ``poignees`` (list of ``{side, size}``), ``chelem`` (``{announced, made_by}``), ``partner``
    (required at 5 players when a King is called), ``chien`` (the chien size the dealer picked,
    house rules) and ``petit_chelem`` (``{announced, made}``, traditional rules).
    Only the shape is checked here; :func:`validate_outcome` checks the rules.

    An unknown key is refused everywhere (``unknown_field``, naming it: ``chelem.annouced``),
    so a misspelt key is never silently ignored. ``strict=False`` is the reading of data stored
    before the keys inside ``poignees[i]`` and ``chelem`` were checked: there, and only there,
    unknown keys are ignored as they then were.
    """
    if not isinstance(data, Mapping):
        raise _type_error("outcome", "an object", data)
    _unknown_keys(data, _KNOWN_KEYS, "")
    for key in ("players", "contract", "oudlers", "points"):
        if key not in data:
            raise RuleError("missing_field", gettext_noop("this field is required"), {}, field=key)
    players = _parse_int(data["players"], "players")
    contract = _parse_enum(Contract, data["contract"], "contract", "unknown_contract")
    oudlers = _parse_int(data["oudlers"], "oudlers")
    points_half = _parse_points_half(data["points"])
    petit_au_bout = _parse_side_or_none(data.get("petit_au_bout"), "petit_au_bout")

    raw_poignees = data.get("poignees")
    if raw_poignees is None:
        raw_poignees = []
    if not isinstance(raw_poignees, list | tuple):
        raise _type_error("poignees", "a list", raw_poignees)
    poignees: list[Poignee] = []
    for index, raw in enumerate(raw_poignees):
        where = f"poignees[{index}]"
        if not isinstance(raw, Mapping):
            raise _type_error(where, "an object with side and size", raw)
        if strict:
            _unknown_keys(raw, _POIGNEE_KEYS, where)
        for key in ("side", "size"):
            if key not in raw:
                raise RuleError(
                    "missing_field",
                    gettext_noop("this field is required"),
                    {},
                    field=f"{where}.{key}",
                )
        poignees.append(
            Poignee(
                side=_parse_enum(Side, raw["side"], f"{where}.side", "unknown_side"),
                size=_parse_enum(PoigneeSize, raw["size"], f"{where}.size", "unknown_poignee_size"),
            )
        )

    raw_chelem = data.get("chelem")
    if raw_chelem is None:
        chelem = NO_CHELEM
    elif isinstance(raw_chelem, Mapping):
        if strict:
            _unknown_keys(raw_chelem, _CHELEM_KEYS, "chelem")
        chelem = Chelem(
            announced=_parse_bool(raw_chelem.get("announced", False), "chelem.announced"),
            made_by=_parse_side_or_none(raw_chelem.get("made_by"), "chelem.made_by"),
        )
    else:
        raise _type_error("chelem", "an object with announced and made_by", raw_chelem)

    chien_size = None if data.get("chien") is None else _parse_int(data["chien"], "chien")
    raw_petit = data.get("petit_chelem")
    if raw_petit is not None:
        if not isinstance(raw_petit, Mapping):
            raise _type_error("petit_chelem", "an object with announced and made", raw_petit)
        _unknown_keys(raw_petit, _PETIT_CHELEM_KEYS, "petit_chelem")
        chelem = Chelem(
            announced=chelem.announced,
            made_by=chelem.made_by,
            petit_announced=_parse_bool(
                raw_petit.get("announced", False), "petit_chelem.announced"
            ),
            petit_made=_parse_bool(raw_petit.get("made", False), "petit_chelem.made"),
        )

    if players == 5 and "partner" not in data and ruleset.calls_king:
        # At 5 players the marks depend on it (taker x2 with a partner, x4 alone): never guessed.
        raise RuleError(
            "missing_field",
            gettext_noop(
                "at 5 players say whether a partner was called: true, or false for the taker alone"
            ),
            {},
            field="partner",
        )
    partner = _parse_bool(data.get("partner", False), "partner")
    return Outcome(
        players=players,
        contract=contract,
        oudlers=oudlers,
        points_half=points_half,
        petit_au_bout=petit_au_bout,
        poignees=tuple(poignees),
        chelem=chelem,
        partner=partner,
        ruleset=ruleset,
        chien_size=chien_size,
    )


def outcome_to_dict(outcome: Outcome) -> dict[str, object]:
    """Inverse of :func:`outcome_from_dict` (points as int when whole, else float)."""
    result: dict[str, object] = {
        "players": outcome.players,
        "contract": outcome.contract.value,
        "oudlers": outcome.oudlers,
        "points": outcome.points,
        "petit_au_bout": outcome.petit_au_bout.value if outcome.petit_au_bout else None,
        "poignees": [{"side": p.side.value, "size": p.size.value} for p in outcome.poignees],
        "chelem": {
            "announced": outcome.chelem.announced,
            "made_by": outcome.chelem.made_by.value if outcome.chelem.made_by else None,
        },
    }
    if outcome.players == 5:
        result["partner"] = outcome.partner
    # The rulesets' fields only when they say something (the FFT's dicts are unchanged); the
    # ruleset itself is the caller's (the event's), passed back to outcome_from_dict.
    if outcome.chien_size is not None:
        result["chien"] = outcome.chien_size
    if outcome.chelem.petit_announced or outcome.chelem.petit_made:
        result["petit_chelem"] = {
            "announced": outcome.chelem.petit_announced,
            "made": outcome.chelem.petit_made,
        }
    return result


# ------------------------------------------------------------------------------ validation


def _side_players(outcome: Outcome, side: Side) -> int:
    attack = 2 if outcome.players == 5 and outcome.partner else 1
    return attack if side is Side.ATTACK else outcome.players - attack


def _chien_cards_of(outcome: Outcome, side: Side) -> int:
    """Cards of the chien (or écart) counting for ``side`` without being won in tricks."""
    to_attack = outcome.contract.chien_to_attack
    if (side is Side.ATTACK) == to_attack:
        return outcome.chien
    return 0


def _validate_side_minimums(outcome: Outcome) -> None:
    """What a side holds without winning a trick bounds its points from below.

    Every card is worth at least half a point, so the chien or écart counting for a side gives it
    at least that many half-points; and a side with no point at all won no trick and kept no
    Excuse: the other side made a chelem, which must then be recorded (it changes the value).
    """
    for side in Side:
        side_half = (
            outcome.points_half if side is Side.ATTACK else TOTAL_HALF_POINTS - outcome.points_half
        )
        chien_cards = _chien_cards_of(outcome, side)
        if side_half < chien_cards:
            raise RuleError(
                "points_below_chien",
                gettext_noop(
                    "the %(side)s keeps the %(cards)s cards of the chien or écart, worth at least "
                    "%(minimum)s points"
                ),
                {"side": side.value, "cards": chien_cards,
                 "minimum": format_half_points(chien_cards)},
                field="points",
            )  # fmt: skip
        if side_half == 0 and outcome.chelem.made_by is not side.other:
            raise RuleError(
                "chelem_missing",
                gettext_noop(
                    "the %(side)s has no point at all, so the %(other)s won every trick: "
                    "record its chelem"
                ),
                {"side": side.value, "other": side.other.value},
                field="chelem",
            )


def _attack_size(outcome: Outcome) -> int:
    return _side_players(outcome, Side.ATTACK)


def _validate_chelem(outcome: Outcome) -> None:
    """A chelem leaves the other side only its kept Excuse and the chien or écart it counts."""
    made_by = outcome.chelem.made_by
    if made_by is None:
        return
    loser = made_by.other
    if outcome.petit_au_bout is loser:
        raise RuleError(
            "petit_au_bout_impossible",
            gettext_noop("the %(side)s cannot take the petit au bout without winning a trick"),
            {"side": loser.value},
            field="petit_au_bout",
        )
    if is_feasible(
        outcome.players,
        outcome.contract,
        _attack_size(outcome),
        outcome.oudlers,
        outcome.points_half,
        outcome.petit_au_bout,
        made_by,
        *_model_options(outcome),
    ):
        return
    loser_oudlers = outcome.oudlers if loser is Side.ATTACK else 3 - outcome.oudlers
    loser_half = (
        outcome.points_half if loser is Side.ATTACK else TOTAL_HALF_POINTS - outcome.points_half
    )
    raise RuleError(
        "chelem_inconsistent",
        gettext_noop(
            "a chelem by the %(side)s leaves the other side no trick, so it cannot hold "
            "%(points)s with %(oudlers)s"
        ),
        {
            "side": made_by.value,
            "points": _points_text(loser_half),
            "oudlers": _oudlers_text(loser_oudlers),
        },
        field="chelem",
    )


def _model_options(outcome: Outcome) -> tuple[Ruleset, int | None, PetitChelem]:
    """The ruleset, chien size and petit chelem arguments of :mod:`rules.feasibility`."""
    petit: PetitChelem = None
    if outcome.chelem.made_by is None:
        if outcome.chelem.petit_made:
            petit = "made"
        elif outcome.chelem.petit_announced:
            petit = "failed"
    return outcome.ruleset, outcome.chien_size, petit


def _validate_feasible(outcome: Outcome) -> None:
    """Exactly the outcomes some real deal produces (:mod:`rules.feasibility`)."""
    attack_size = _attack_size(outcome)
    arguments = (outcome.players, outcome.contract, attack_size)
    made_by = outcome.chelem.made_by
    options = _model_options(outcome)
    if is_feasible(
        *arguments, outcome.oudlers, outcome.points_half, outcome.petit_au_bout, made_by, *options
    ):
        return
    bounds = points_bounds(*arguments, outcome.oudlers, outcome.petit_au_bout, made_by, *options)
    if bounds is not None and not bounds[0] <= outcome.points_half <= bounds[1]:
        raise RuleError(
            "points_impossible",
            gettext_noop(
                "with %(oudlers)s in %(contract)s at %(players)s, the attack's cards are worth "
                "from %(minimum)s to %(maximum)s, not %(points)s"
            ),
            {
                "oudlers": _oudlers_text(outcome.oudlers),
                "minimum": format_half_points(bounds[0]),
                "maximum": _points_text(bounds[1]),
                "contract": outcome.contract.label,
                "players": _players_text(outcome.players),
                "points": format_half_points(outcome.points_half),
            },
            field="points",
        )
    if bounds is not None:
        # Inside the bounds but of a parity that the card counts exclude.
        raise RuleError(
            "points_impossible",
            gettext_noop(
                "no deal gives the attack exactly %(points)s with %(oudlers)s in %(contract)s "
                "at %(players)s: the number of cards each side takes excludes it"
            ),
            {
                "points": _points_text(outcome.points_half),
                "oudlers": _oudlers_text(outcome.oudlers),
                "contract": outcome.contract.label,
                "players": _players_text(outcome.players),
            },
            field="points",
        )
    raise RuleError(
        "petit_au_bout_impossible",
        gettext_noop(
            "no deal gives the attack %(oudlers)s with the petit au bout for the %(side)s"
        ),
        {
            "oudlers": _oudlers_text(outcome.oudlers),
            "side": (outcome.petit_au_bout or Side.ATTACK).value,
        },
        field="petit_au_bout",
    )


def _check_types(outcome: Outcome) -> None:
    """Outcomes built in code (not parsed) get the same clear errors as parsed ones."""
    for name in ("players", "oudlers", "points_half"):
        value = getattr(outcome, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise _type_error("points" if name == "points_half" else name, "a whole number", value)
    if outcome.petit_au_bout is not None and not isinstance(outcome.petit_au_bout, Side):
        raise _type_error("petit_au_bout", "attack, defence or null", outcome.petit_au_bout)
    for index, poignee in enumerate(outcome.poignees):
        if not (
            isinstance(poignee, Poignee)
            and isinstance(poignee.side, Side)
            and isinstance(poignee.size, PoigneeSize)
        ):
            raise _type_error(f"poignees[{index}]", "a Poignee(side, size)", poignee)
    chelem = outcome.chelem
    if not (
        isinstance(chelem, Chelem)
        and isinstance(chelem.announced, bool)
        and (chelem.made_by is None or isinstance(chelem.made_by, Side))
    ):
        raise _type_error("chelem", "a Chelem(announced, made_by)", chelem)
    for name in ("petit_announced", "petit_made"):
        if not isinstance(getattr(chelem, name), bool):
            raise _type_error(
                f"petit_chelem.{name.removeprefix('petit_')}",
                "true or false",
                getattr(chelem, name),
            )
    if not isinstance(outcome.partner, bool):
        raise _type_error("partner", "true or false", outcome.partner)
    if not isinstance(outcome.ruleset, Ruleset):
        raise _type_error("ruleset", "a Ruleset", outcome.ruleset)
    if outcome.chien_size is not None and (
        isinstance(outcome.chien_size, bool) or not isinstance(outcome.chien_size, int)
    ):
        raise _type_error("chien", "a whole number", outcome.chien_size)


def _validate_ruleset(outcome: Outcome) -> None:
    """The contract, chien, petit chelem and partner the outcome's ruleset allows."""
    ruleset = outcome.ruleset
    ruleset.check_contract(outcome.contract)
    if outcome.chien_size is not None:
        ruleset.check_chien_size(outcome.players, outcome.chien_size)
    chelem = outcome.chelem
    if (chelem.petit_announced or chelem.petit_made) and not ruleset.petit_chelem:
        raise RuleError(
            "petit_chelem_not_in_ruleset",
            gettext_noop("No petit chelem under these rules (%(ruleset_word)s)."),
            {"ruleset_word": ruleset.name.label},
            field="petit_chelem",
        )
    if chelem.petit_announced and chelem.announced:
        raise RuleError(
            "chelem_announcements_conflict",
            gettext_noop("The taker announces a chelem or a petit chelem, not both."),
            {},
            field="petit_chelem",
        )
    if chelem.petit_made and chelem.made_by is not None:
        raise RuleError(
            "petit_chelem_inconsistent",
            gettext_noop("A petit chelem leaves the defence one trick, so nobody won every trick."),
            {},
            field="petit_chelem",
        )
    if outcome.players == 5 and outcome.partner and not ruleset.calls_king:
        raise RuleError(
            "partner_not_allowed",
            gettext_noop("In the flambeuse the taker plays alone against four: no partner."),
            {},
            field="partner",
        )


def validate_outcome(outcome: Outcome) -> None:
    """Apply every consistency rule of docs/domain/tarot-scoring.md; raise :class:`RuleError`."""
    _check_types(outcome)
    players = outcome.players
    if players not in PLAYER_COUNTS:
        raise RuleError(
            "unknown_player_count",
            gettext_noop("tarot is played here by 3, 4 or 5 players, not %(players)s"),
            {"players": _shown_number(players)},
            field="players",
        )
    if not isinstance(outcome.contract, Contract):
        raise RuleError(
            "unknown_contract",
            gettext_noop("%(value)s is not one of %(choices)s"),
            {
                "value": shown_value(outcome.contract),
                "choices": ", ".join(c.value for c in Contract),
            },
            field="contract",
        )
    _validate_ruleset(outcome)
    if outcome.oudlers < 0:
        raise RuleError(
            "oudlers_out_of_range",
            gettext_noop("%(oudlers)s is outside 0..3"),
            {"oudlers": _shown_number(outcome.oudlers)},
            field="oudlers",
        )
    if outcome.oudlers > 3:
        raise RuleError(
            "too_many_oudlers",
            gettext_noop("%(oudlers)s oudlers: there are only 3 (Petit, 21, Excuse)"),
            {"oudlers": _shown_number(outcome.oudlers)},
            field="oudlers",
        )
    if not 0 <= outcome.points_half <= TOTAL_HALF_POINTS:
        half = outcome.points_half
        raise RuleError(
            "points_out_of_range",
            gettext_noop("%(points)s is outside 0..91"),
            {
                "points": format_half_points(half)
                if abs(half) < 10**_SHOWN_DIGITS
                else format(Decimal(half) / 2, ".3E")
            },
            field="points",
        )
    points = format_half_points(outcome.points_half)
    if players == 4 and outcome.points_half % 2 and outcome.chelem.made_by is not None:
        # A half point at 4 players comes only from the Excuse changing camp in the last trick,
        # which a chelem excludes.
        raise RuleError(
            "points_not_whole",
            gettext_noop(
                "%(points)s: at 4 players a half point comes only from the Excuse changing camp "
                "in the last trick, which cannot happen in a chelem"
            ),
            {"points": points},
            field="points",
        )
    if players == 4 and outcome.points_half % 2 and outcome.ruleset.excuse_last_trick_to_winner:
        # house rules: the Excuse never changes camp, so no half point at 4 players
        raise RuleError(
            "points_not_whole",
            gettext_noop(
                "%(points)s: under house rules the Excuse in the last trick goes to the side "
                "that wins it, so at 4 players the count is a whole number of points"
            ),
            {"points": points},
            field="points",
        )
    # The points a number of oudlers allows are the exact model's bounds, for this contract,
    # player count and attack (``_validate_feasible``): one refusal, with the exact bound.
    if outcome.petit_au_bout is Side.DEFENCE and outcome.oudlers == 3:
        raise RuleError(
            "petit_au_bout_impossible",
            gettext_noop("the defence cannot take the petit au bout when the attack has 3 oudlers"),
            {},
            field="petit_au_bout",
        )
    if outcome.petit_au_bout is Side.ATTACK and outcome.oudlers == 0:
        raise RuleError(
            "petit_au_bout_impossible",
            gettext_noop("the attack cannot take the petit au bout with 0 oudlers"),
            {},
            field="petit_au_bout",
        )
    if outcome.partner and players != 5:
        raise RuleError(
            "partner_not_allowed",
            gettext_noop("a partner is only called at 5 players"),
            {},
            field="partner",
        )
    shown = sum(outcome.ruleset.poignee_threshold(players, p.size) for p in outcome.poignees)
    if shown > TRUMPS_AND_EXCUSE:
        raise RuleError(
            "poignees_exceed_trumps",
            gettext_noop(
                "these poignées show %(shown)s trumps but only 22 exist (21 trumps and the Excuse)"
            ),
            {"shown": shown},
            field="poignees",
        )
    for side in Side:
        count = sum(1 for p in outcome.poignees if p.side is side)
        allowed = _side_players(outcome, side)
        if count > allowed:
            raise RuleError(
                "too_many_poignees",
                gettext_noop("%(count)s poignées for the %(side)s, which has %(allowed)s"),
                {"count": count, "side": side.value, "allowed": _players_text(allowed)},
                field="poignees",
            )
    _validate_side_minimums(outcome)
    _validate_chelem(outcome)
    _validate_feasible(outcome)


# --------------------------------------------------------------------------------- scoring


def _chelem_points(chelem: Chelem) -> int:
    """Chelem and petit chelem bonus from the attack's side (never multiplied)."""
    if chelem.petit_announced:
        # traditional: made (every trick but one, or every trick) +300, else -150
        if chelem.petit_made or chelem.made_by is Side.ATTACK:
            return 300
        return -150 - (200 if chelem.made_by is Side.DEFENCE else 0)
    if chelem.made_by is Side.ATTACK:
        return 400 if chelem.announced else 200
    total = -200 if chelem.announced else 0
    if chelem.made_by is Side.DEFENCE:
        total -= 200  # [convention] adds to a failed announcement: -400 in all
    return total


def score_deal(outcome: Outcome) -> DealScore:
    """Validate then score ``outcome`` (FFT counting: docs/domain/tarot-scoring.md, steps 1-8)."""
    validate_outcome(outcome)
    multiplier = outcome.ruleset.multiplier(outcome.contract)
    diff_half = outcome.points_half - NEEDED_HALF_POINTS[outcome.oudlers]
    won = diff_half >= 0
    # A half point (any player count, at 4 only after the Excuse changed camp in the last
    # trick) rounds up for the side that scores.
    margin = (abs(diff_half) + 1) // 2
    base = (25 + margin) * multiplier
    value = base if won else -base
    if outcome.petit_au_bout is not None:
        bonus = 10 * multiplier
        value += bonus if outcome.petit_au_bout is Side.ATTACK else -bonus
    poignees = sum(p.size.bonus for p in outcome.poignees)
    value += poignees if won else -poignees
    value += _chelem_points(outcome.chelem)

    if outcome.players == 4:
        marks = Marks(taker=3 * value, partner=None, defender=-value)
    elif outcome.players == 3:
        marks = Marks(taker=2 * value, partner=None, defender=-value)
    elif outcome.partner:
        marks = Marks(taker=2 * value, partner=value, defender=-value)
    else:
        marks = Marks(taker=4 * value, partner=None, defender=-value)
    return DealScore(won=won, margin=margin, value=value, marks=marks)


def seat_marks(
    score: DealScore,
    seats: Sequence[str],
    taker_seat: str,
    partner_seat: str | None = None,
) -> dict[str, int]:
    """Each seat's mark: taker, partner (5 players), defenders. The result sums to zero."""
    if len(set(seats)) != len(seats):
        raise RuleError(
            "duplicate_seat", gettext_noop("seat names must be distinct"), {}, field="seats"
        )
    if taker_seat not in seats:
        raise RuleError(
            "unknown_seat",
            gettext_noop("%(seat)s is not a seat of this table"),
            {"seat": taker_seat},
            field="taker_seat",
        )
    if (partner_seat is None) != (score.marks.partner is None):
        raise RuleError(
            "partner_mismatch",
            gettext_noop("a partner seat is needed exactly when a partner was called"),
            {},
            field="partner_seat",
        )
    if partner_seat is not None and (partner_seat not in seats or partner_seat == taker_seat):
        raise RuleError(
            "unknown_seat",
            gettext_noop("%(seat)s is not a seat of this table"),
            {"seat": partner_seat},
            field="partner_seat",
        )
    result: dict[str, int] = {}
    for seat in seats:
        if seat == taker_seat:
            result[seat] = score.marks.taker
        elif seat == partner_seat and score.marks.partner is not None:
            result[seat] = score.marks.partner
        else:
            result[seat] = score.marks.defender
    if sum(result.values()) != 0:
        raise RuleError(
            "seats_mismatch",
            gettext_noop("%(count)s seats do not match the player count of this score"),
            {"count": len(seats)},
            field="seats",
        )
    return result

"""A free-deal table's outcome, validated and scored by the rules engine (nothing stored).

The one place that turns a table's input into what a result stores, used alike by the form's
validation, the live preview of the marks, the services that save (table entry, table
correction, the director's correction) and the API. Nothing here reads or writes the database:
the ruleset is the tournament's stored one (``FreeDealTournament.ruleset``).

A result's input (``data``) is a mapping with ``taker`` (a player number of the table, or
empty when everybody passed), ``contract`` (a contract of the ruleset, or :data:`PASSED`),
``oudlers``, ``points``, ``petit_au_bout``, ``poignees`` (list of ``{side, size}``),
``chelem`` (``{announced, made_by}``), ``petit_chelem`` (``{announced, made}``, traditional
rules), ``chien`` (house rules: the dealer's chien size) and, at a table of 5 where a King is
called, ``partner``: the player who had the called King (the taker himself when he called his
own King and plays alone). The rules engine has no "everybody passed" outcome: such a deal is
stored with no taker, no outcome and every mark 0.

Two outcomes are **the same** (:func:`same_outcome`: a resend is a replay, not a conflict)
when their normalised stored forms agree: passed, contract, taker, partner and the rules
engine's outcome dict (``rules.scoring.outcome_to_dict``, which normalises the input: a points
string and a number, an empty list and no poignée, give the same dict), the poignées in any
order.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from clubs.errors import DomainError
from rules.errors import RuleError
from rules.ruleset import RULES_VERSION, Ruleset, RulesetName, ruleset_from_dict
from rules.scoring import Outcome, outcome_from_dict, outcome_to_dict, score_deal

if TYPE_CHECKING:
    from freedeal.models import FreeDealResult, FreeDealTournament

PASSED = "passed"

#: The stored fields that say what was played (the marks and the value follow from them).
OUTCOME_FIELDS = ("passed", "contract", "taker", "partner", "outcome")


def ruleset_of(tournament: FreeDealTournament) -> Ruleset:
    return ruleset_from_dict(tournament.ruleset)


def clean_ruleset(
    data: Mapping[str, object] | str | None, version: int = RULES_VERSION
) -> dict[str, object]:
    """The stored form of a ruleset choice (``{"name": ..., ..., "version": ...}``, the
    current rules version unless ``version`` says otherwise), or a translated error."""
    try:
        return ruleset_from_dict(data, default_version=version).to_dict()
    except RuleError as error:
        raise DomainError.from_rule(error, field="ruleset") from error


def ruleset_choice(name: str, pousse_multiplier: int | None, flambeuse: bool) -> dict[str, object]:
    """The stored ruleset of an organiser's choice (a name and the traditional options)."""
    data: dict[str, object] = {"name": name}
    if name == RulesetName.TRADITIONAL.value:
        data["pousse_multiplier"] = pousse_multiplier if pousse_multiplier is not None else 2
        data["flambeuse"] = flambeuse
    return clean_ruleset(data)


def default_dealer(seated: tuple[int, ...], deal: int) -> int:
    """The deal's dealer: the table's players in turn, seat order."""
    return seated[(deal - 1) % len(seated)]


def _player_number(value: object, field: str, seated: tuple[int, ...]) -> int | None:
    if value is None or str(value).strip() == "":
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        raise DomainError(
            "invalid_player", _("%(value)s is not a player number.") % {"value": value}, field
        ) from None
    if number not in seated:
        raise DomainError(
            "not_at_table",
            _("Player %(number)s does not sit at this table in this party.") % {"number": number},
            field=field,
        )
    return number


def outcome_score(
    tournament: FreeDealTournament, seated: tuple[int, ...], data: Mapping[str, Any]
) -> dict[str, Any]:
    """Validate ``data`` for a table seating ``seated`` (nothing stored): the fields to store.

    Returns ``passed``, ``taker``, ``partner``, ``contract``, ``outcome``, ``value`` and
    ``marks`` (``{"number": mark}``); a refusal is a :class:`DomainError` naming its field.
    """
    if not isinstance(data, Mapping):
        raise DomainError("invalid", _("expected an object"), field="outcome")
    contract = str(data.get("contract") or "").strip()
    if not contract:
        raise DomainError("missing_field", _("Choose the contract."), field="contract")
    if contract == PASSED:
        return {
            "passed": True,
            "taker": None,
            "partner": None,
            "contract": PASSED,
            "outcome": None,
            "value": 0,
            "marks": {str(number): 0 for number in seated},
        }
    size = len(seated)
    ruleset = ruleset_of(tournament)
    taker = _player_number(data.get("taker"), "taker", seated)
    if taker is None:
        raise DomainError("missing_field", _("Choose the taker."), field="taker")
    partner = _player_number(data.get("partner"), "partner", seated)
    calls_king = size == 5 and ruleset.calls_king
    if calls_king and partner is None:
        raise DomainError(
            "partner_required",
            _(
                "At 5 players, say who had the called King (the taker himself if he called "
                "his own King and played alone)."
            ),
            field="partner",
        )
    if not calls_king and partner is not None:
        raise DomainError(
            "partner_not_allowed",
            _("In the flambeuse the taker plays alone: no partner.")
            if size == 5
            else _("A partner is only called at 5 players."),
            field="partner",
        )
    if partner == taker:
        partner = None  # the taker called his own King: he plays alone
    poignees = data.get("poignees") or []
    if not isinstance(poignees, list | tuple):
        raise DomainError("invalid", _("expected a list"), field="poignees")
    raw: dict[str, Any] = {
        "players": size,
        "contract": contract,
        "oudlers": data.get("oudlers"),
        "points": data.get("points"),
        "petit_au_bout": data.get("petit_au_bout") or None,
        "poignees": list(poignees),
        "chelem": data.get("chelem") or None,
    }
    if size == 5:
        raw["partner"] = partner is not None
    for key in ("oudlers", "points"):
        if raw[key] is None or str(raw[key]).strip() == "":
            raise DomainError(
                "missing_field",
                _("Give the oudlers and the points of the attack."),
                field=key,
            )
    if data.get("chien") not in (None, ""):
        raw["chien"] = data.get("chien")
    petit = data.get("petit_chelem")
    if petit and not isinstance(petit, Mapping):
        raise DomainError("invalid", _("expected an object"), field="petit_chelem")
    if petit and (petit.get("announced") or petit.get("made")):
        raw["petit_chelem"] = dict(petit)
    try:
        outcome: Outcome = outcome_from_dict(raw, ruleset)
        score = score_deal(outcome)
    except RuleError as error:
        raise DomainError.from_rule(error) from error
    marks: dict[str, int] = {}
    for number in seated:
        if number == taker:
            marks[str(number)] = score.marks.taker
        elif number == partner and score.marks.partner is not None:
            marks[str(number)] = score.marks.partner
        else:
            marks[str(number)] = score.marks.defender
    assert sum(marks.values()) == 0
    return {
        "passed": False,
        "taker": taker,
        "partner": partner,
        "contract": outcome.contract.value,
        "outcome": outcome_to_dict(outcome),
        "value": score.value,
        "marks": marks,
    }


def _normal(state: Mapping[str, Any]) -> Any:
    """``state`` as the JSON column gives it back (tuples become lists...), the poignées in
    one order (the order they were listed in says nothing)."""
    plain = json.loads(json.dumps(state))
    outcome = plain.get("outcome")
    if isinstance(outcome, dict) and isinstance(outcome.get("poignees"), list):
        outcome["poignees"] = sorted(outcome["poignees"], key=lambda p: json.dumps(p))
    return plain


def same_outcome(result: FreeDealResult, scored: Mapping[str, Any]) -> bool:
    """Whether the stored ``result`` is the outcome ``scored`` (:func:`outcome_score`) would
    store (see the module docstring)."""
    stored = {name: getattr(result, name) for name in OUTCOME_FIELDS}
    sent = {name: scored[name] for name in OUTCOME_FIELDS}
    return bool(_normal(stored) == _normal(sent))


def result_state(result: FreeDealResult) -> dict[str, Any]:
    """What a history line keeps of a result (before / after)."""
    return {
        "passed": result.passed,
        "taker": result.taker,
        "partner": result.partner,
        "contract": result.contract,
        "outcome": result.outcome,
        "marks": result.marks,
    }

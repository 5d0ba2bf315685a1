"""Entries to check: results possible with the deal's cards but improbable (off the write path).

A result the cards make impossible is refused when it is saved (``rules.hand_checks`` through
``clubs.outcomes.outcome_score``). One that is only improbable is stored, and flagged here for
the director: the control room shows it "to check" with the reason and a link to correct it.

The flag rule is :func:`rules.hand_checks.hand_flags`: points more than 10 outside the range of
:data:`~rules.hand_checks.FLAG_PLAYS` seeded random legal plays of the deal (same taker, same
contract), or oudlers outside the range those plays gave.

Cost: nothing here runs when a result is saved. A deal's range depends only on its cards, taker
and contract, so it is cached (the default cache, :data:`RANGE_TTL`) under a key naming the
deal, the taker, the contract and a digest of the cards (new cards, new key). A page reads every
range it needs in one ``get_many`` and computes at most ``budget`` missing ones (each about
50 ms); the others are flagged on a later refresh (the control room refreshes every 10 s).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import gettext as _

from clubs.outcomes import prepared_hands
from rules.enums import Contract
from rules.errors import RuleError
from rules.hand_checks import SimulatedRange, hand_flags, simulated_range
from rules.scoring import outcome_from_dict
from tournaments.models import SEATS, Deal, TableResult
from tournaments.selectors import result_outcome

CACHE_PREFIX = "hand-range:v1"
RANGE_TTL = 7 * 24 * 3600
DEFAULT_BUDGET = 8


@dataclass(frozen=True)
class Flag:
    """One result to check: its reasons, translated in the active language."""

    result: TableResult
    reasons: list[str]


def range_key(deal: Deal, taker_seat: str, contract: str) -> str:
    """The cache key of the simulated range of ``deal`` for that taker and contract."""
    digest = hashlib.sha256(deal.cards.encode()).hexdigest()[:16]
    return f"{CACHE_PREFIX}:{deal.pk}:{taker_seat}:{contract}:{digest}"


def _compute(deal: Deal, taker_seat: str, contract: str) -> SimulatedRange | None:
    hands = prepared_hands(deal.cards)
    if hands is None or taker_seat not in SEATS:
        return None
    return simulated_range(hands, SEATS.index(taker_seat), Contract(contract))


def result_flags(
    results: Iterable[TableResult], *, budget: int = DEFAULT_BUDGET
) -> dict[int, Flag]:
    """The flagged ones of ``results`` (with their ``deal`` loaded), by result id.

    Only played results of deals whose cards are known are looked at. Ranges come from the
    cache; at most ``budget`` missing ones are computed and cached (see the module docstring).
    """
    wanted: list[tuple[TableResult, str]] = []
    for result in results:
        if result.kind != TableResult.Kind.PLAYED or result.points_half is None:
            continue
        if prepared_hands(result.deal.cards) is None:
            continue
        wanted.append((result, range_key(result.deal, result.taker_seat, result.contract)))
    if not wanted:
        return {}
    found = cache.get_many({key for _result, key in wanted})
    ranges: dict[str, SimulatedRange | None] = {}
    for key, value in found.items():
        try:
            ranges[key] = SimulatedRange.from_dict(value)
        except (KeyError, TypeError, ValueError):
            continue  # an old or foreign entry: computed again below
    fresh: dict[str, dict[str, int]] = {}
    for result, key in wanted:
        if key in ranges or len(fresh) >= budget:
            continue
        computed = _compute(result.deal, result.taker_seat, result.contract)
        ranges[key] = computed
        if computed is not None:
            fresh[key] = computed.to_dict()
    if fresh:
        cache.set_many(fresh, RANGE_TTL)
    flags: dict[int, Flag] = {}
    for result, key in wanted:
        seen = ranges.get(key)
        stored = result_outcome(result)
        if seen is None or stored is None:
            continue
        data = {key: value for key, value in stored.items() if key != "taker_seat"}
        try:
            outcome = outcome_from_dict({**data, "players": len(SEATS)})
        except RuleError:
            continue
        notes = hand_flags(outcome, seen)
        if notes:
            flags[result.pk] = Flag(result=result, reasons=[note.translated(_) for note in notes])
    return flags

"""Exact arithmetic of the comparison: matchpoints, Neuberg, percentages, rounding, ranks.

Matchpoints are integers; after Neuberg they are fractions ``mp_num / mp_den`` with
``mp_num = (mp + 1)·N − n`` and ``mp_den = n``. A percentage is ``100 · mp' / top`` with
``top = 2(N − 1)``, or 50 when the hand was scheduled once (``top = 0``). Everything published
is rounded **half-up (away from zero) to 0.01**, computed from the exact value, never from a
float.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction


def neuberg_matchpoints(mp: int, real: int, scheduled: int) -> tuple[int, int]:
    """``mp' = (mp + 1)·N / n − 1`` as ``(numerator, denominator)``; equals ``mp`` if n = N."""
    return (mp + 1) * scheduled - real, real


def exact_percentage(mp_num: int, mp_den: int, top: int) -> Fraction:
    """``100 · mp' / top``; a hand without comparison (top 0) scores 50."""
    if top == 0:
        return Fraction(50)
    return Fraction(100 * mp_num, mp_den * top)


def round_half_up_hundredths(value: Fraction) -> int:
    """``value`` rounded half away from zero to 0.01, in hundredths (12.345 → 1235)."""
    scaled = value * 100
    magnitude = (abs(scaled.numerator) * 2 + scaled.denominator) // (2 * scaled.denominator)
    return magnitude if scaled >= 0 else -magnitude


_DECIMAL_CACHE: dict[int, Decimal] = {}


def hundredths_to_decimal(hundredths: int) -> Decimal:
    """1235 → Decimal('12.35'); always two decimals (cached: rankings repeat few values)."""
    cached = _DECIMAL_CACHE.get(hundredths)
    if cached is None:
        cached = Decimal(hundredths).scaleb(-2)
        if len(_DECIMAL_CACHE) < 100_000:
            _DECIMAL_CACHE[hundredths] = cached
    return cached


def competition_ranks(keys: Sequence[object]) -> list[int]:
    """Ranks 1, 2, 2, 4 … for ``keys`` already sorted best first; equal keys share a rank."""
    ranks: list[int] = []
    for position, key in enumerate(keys):
        if position and key == keys[position - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(position + 1)
    return ranks

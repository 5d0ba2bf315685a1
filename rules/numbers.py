"""The numbers a director types: artificial percentages and penalty points (pure).

Both are *percentage points exact to the hundredth*: at most two decimals, handled as integer
hundredths (``60`` → ``6000``, ``1,5`` → ``150``) so that no sum ever rounds. Text may carry
surrounding spaces and a decimal comma. A number far outside any percentage (``1e999999999``,
``1e-999999999``) is refused before any arithmetic (Decimal would overflow or underflow).

- :func:`hundredths`: any such number (the scoring core adds penalties of either sign);
- :func:`percentage_hundredths`: an artificial percentage, 0..100;
- :func:`penalty_hundredths`: a penalty, more than 0 and at most 100 points.

Every refusal is a :class:`RuleError` naming ``field``, with the code ``missing_field``,
``invalid_type``, ``implausible_number``, ``too_many_decimals``, ``percentage_out_of_range`` or
``penalty_out_of_range``; its ``value`` parameter is the input as given.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from rules.errors import RuleError
from rules.i18n import gettext_noop

HUNDRED_PERCENT = 10_000  # in hundredths


def _number(value: object, field: str | None) -> Decimal:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RuleError("missing_field", gettext_noop("this field is required"), field=field)
    try:
        number = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        number = Decimal("NaN")
    if not number.is_finite():
        raise RuleError(
            "invalid_type",
            gettext_noop("expected a number, got %(value)s"),
            {"value": repr(value)},
            field=field,
        )
    return number


def hundredths(value: object, *, field: str | None = None) -> int:
    """``value`` (a number or its text) as an exact number of hundredths."""
    number = _number(value, field)
    if number != 0 and not -3 <= number.adjusted() <= 6:
        raise RuleError(
            "implausible_number",
            gettext_noop("%(value)s is not a plausible percentage"),
            {"value": str(value)},
            field=field,
        )
    scaled = number * 100
    if scaled != scaled.to_integral_value():
        raise RuleError(
            "too_many_decimals",
            gettext_noop("%(value)s has more than two decimals"),
            {"value": str(value)},
            field=field,
        )
    return int(scaled)


def percentage_hundredths(value: object, *, field: str | None = None) -> int:
    """An artificial percentage in 0..100, in hundredths (``60`` → ``6000``)."""
    amount = hundredths(value, field=field)
    if not 0 <= amount <= HUNDRED_PERCENT:
        raise RuleError(
            "percentage_out_of_range",
            gettext_noop("%(value)s is outside 0..100"),
            {"value": str(value)},
            field=field,
        )
    return amount


def penalty_hundredths(value: object, *, field: str | None = None) -> int:
    """A penalty: more than 0 and at most 100 percentage points, in hundredths."""
    amount = hundredths(value, field=field)
    if not 0 < amount <= HUNDRED_PERCENT:
        raise RuleError(
            "penalty_out_of_range",
            gettext_noop("a penalty is more than 0 and at most 100 percentage points"),
            field=field,
        )
    return amount


def as_decimal(amount: int) -> Decimal:
    """Hundredths back to a two-decimal number (``150`` → ``Decimal("1.50")``)."""
    return Decimal(amount).scaleb(-2)

"""Percentages and penalty points typed by a director: exact hundredths or a RuleError."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import RuleError
from rules.numbers import as_decimal, hundredths, penalty_hundredths, percentage_hundredths


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (60, 6000),
        ("60", 6000),
        (" 12,5 ", 1250),
        ("0.01", 1),
        (Decimal("1.50"), 150),
        ("1e2", 10000),
    ],
)
def test_percentages_read_as_hundredths(value: object, expected: int) -> None:
    assert percentage_hundredths(value, field="N") == expected


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (None, "missing_field"),
        ("  ", "missing_field"),
        ("abc", "invalid_type"),
        ("inf", "invalid_type"),
        (float("nan"), "invalid_type"),
        ("1e999999999", "implausible_number"),
        ("1e-999999999", "implausible_number"),
        ("0.001", "too_many_decimals"),
        ("60.555", "too_many_decimals"),
        ("100.5", "percentage_out_of_range"),
        (-1, "percentage_out_of_range"),
    ],
)
def test_bad_percentages_are_refused_naming_the_field(value: object, code: str) -> None:
    with pytest.raises(RuleError) as caught:
        percentage_hundredths(value, field="percentages.S")
    assert (caught.value.code, caught.value.field) == (code, "percentages.S")


def test_messages_keep_the_value_as_given() -> None:
    with pytest.raises(RuleError) as caught:
        percentage_hundredths("140", field="S")
    assert caught.value.message == "140 is outside 0..100"
    with pytest.raises(RuleError) as caught:
        hundredths("abc")
    assert caught.value.message == "expected a number, got 'abc'"
    with pytest.raises(RuleError) as caught:
        hundredths("0.125")
    assert caught.value.message == "0.125 has more than two decimals"


@pytest.mark.parametrize("value", [0, "0", -2, "100.01", "abc"])
def test_a_penalty_is_more_than_zero_and_at_most_a_hundred(value: object) -> None:
    with pytest.raises(RuleError) as caught:
        penalty_hundredths(value, field="points")
    assert caught.value.field == "points"


def test_penalties_of_either_sign_are_hundredths_for_the_core() -> None:
    assert hundredths("-2.5") == -250
    assert penalty_hundredths("1,5") == 150
    assert penalty_hundredths(100) == 10000


@given(st.integers(min_value=0, max_value=10_000))
def test_hundredths_round_trip(amount: int) -> None:
    assert percentage_hundredths(str(as_decimal(amount))) == amount
    assert percentage_hundredths(as_decimal(amount)) == amount

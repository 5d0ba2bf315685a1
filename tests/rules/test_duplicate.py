"""Duplicate restrictions: 4 players, at least Garde, the imposed contract."""

from __future__ import annotations

from typing import Any

import pytest

from rules import Contract, RuleError
from rules.duplicate import DUPLICATE_CONTRACTS, DUPLICATE_SEATS, check_duplicate_play


def test_duplicate_contracts_are_garde_and_above_in_order() -> None:
    assert DUPLICATE_CONTRACTS == (Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
    assert DUPLICATE_SEATS == ("N", "E", "S", "W")


@pytest.mark.parametrize("contract", DUPLICATE_CONTRACTS)
def test_every_duplicate_contract_may_be_played(contract: Contract) -> None:
    check_duplicate_play(contract=contract)
    check_duplicate_play(contract=contract, imposed=contract)


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"contract": Contract.GARDE, "players": 5}, "players_not_four", "players"),
        ({"contract": Contract.PRISE}, "prise_not_allowed", "contract"),
        ({"contract": Contract.PRISE, "imposed": Contract.GARDE}, "prise_not_allowed", "contract"),
        (
            {"contract": Contract.GARDE, "imposed": Contract.GARDE_SANS},
            "contract_imposed",
            "contract",
        ),
    ],
)
def test_what_a_duplicate_table_may_not_play(kwargs: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(RuleError) as caught:
        check_duplicate_play(**kwargs)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_the_imposed_contract_is_named() -> None:
    with pytest.raises(RuleError) as caught:
        check_duplicate_play(contract=Contract.GARDE, imposed=Contract.GARDE_CONTRE)
    assert caught.value.message == "this deal's contract is imposed: Garde contre"

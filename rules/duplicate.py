"""Duplicate tarot: what a duplicate table may play (pure).

In duplicate every table plays the same étuis, so an outcome is comparable only if it was
played the way the étui says:

- at 4 players (:data:`DUPLICATE_PLAYERS`; the seats are :data:`DUPLICATE_SEATS`, N E S W);
- at least at Garde: :data:`DUPLICATE_CONTRACTS` lists the contracts allowed (a Prise is not);
- at the contract the étui imposes, when it imposes one (``Deal.imposed_contract``), which is
  itself one of :data:`DUPLICATE_CONTRACTS`;
- under the FFT's rules (:data:`DUPLICATE_RULESET`): a duplicate competition stores that
  ruleset (the events service refuses any other), so every duplicate entry is read with it.

:func:`check_duplicate_play` is the one place these restrictions are enforced: the results
service checks every outcome with it, the deals service every imposed contract.
"""

from __future__ import annotations

from typing import Final

from rules.deal import SEAT_NAMES
from rules.enums import Contract
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.ruleset import FFT

DUPLICATE_PLAYERS: Final = 4
DUPLICATE_SEATS: Final = SEAT_NAMES[DUPLICATE_PLAYERS]
DUPLICATE_CONTRACTS: Final = tuple(c for c in Contract if c.rank >= Contract.GARDE.rank)
DUPLICATE_RULESET: Final = FFT


def check_duplicate_play(
    *,
    contract: Contract,
    players: int = DUPLICATE_PLAYERS,
    imposed: Contract | None = None,
) -> None:
    """Refuse a play a duplicate table may not make (see the module docstring).

    Raises :class:`RuleError` ``players_not_four`` (field ``players``),
    ``contract_not_in_ruleset`` (a pousse: duplicate follows the FFT's rules),
    ``prise_not_allowed`` or ``contract_imposed`` (field ``contract``).
    """
    if players != DUPLICATE_PLAYERS:
        raise RuleError(
            "players_not_four",
            gettext_noop("duplicate tarot is played at 4 players"),
            field="players",
        )
    if isinstance(contract, Contract):
        FFT.check_contract(contract)
    if contract not in DUPLICATE_CONTRACTS:
        raise RuleError(
            "prise_not_allowed",
            gettext_noop("duplicate events are played at least at Garde (Prise is not allowed)"),
            field="contract",
        )
    if imposed is not None and contract is not imposed:
        raise RuleError(
            "contract_imposed",
            gettext_noop("this deal's contract is imposed: %(contract)s"),
            {"contract": imposed.label},
            field="contract",
        )

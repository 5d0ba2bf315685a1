"""The exact feasibility model of outcomes (rules.feasibility) and validate_outcome agree.

- every outcome of the enumerable space (players x contract x attack size x oudlers x points in
  half-points x petit au bout x chelem) is accepted by validate_outcome iff the model says
  feasible;
- the cases of issue 12 and bounds derived by hand from the deck;
- every outcome of simulated real deals (random legal play) is feasible and accepted.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import RuleError, deal_cards, validate_outcome
from rules.enums import Contract, Side
from rules.feasibility import feasible_points, is_feasible, points_bounds
from rules.play import outcome_from_play
from rules.scoring import Chelem, Outcome, outcome_from_dict
from rules.simulation import simulate_deal

SIDES: list[Side | None] = [None, Side.ATTACK, Side.DEFENCE]


def _accepted(outcome: Outcome) -> bool:
    try:
        validate_outcome(outcome)
    except RuleError:
        return False
    return True


@pytest.mark.parametrize("players", [3, 4, 5])
def test_validation_accepts_exactly_the_feasible_outcomes(players: int) -> None:
    accepted = refused = 0
    for contract in Contract:
        for partner in [False, True] if players == 5 else [False]:
            for petit in SIDES:
                for made_by in SIDES:
                    for oudlers in range(4):
                        for points_half in range(183):
                            outcome = Outcome(
                                players,
                                contract,
                                oudlers,
                                points_half,
                                petit,
                                (),
                                Chelem(announced=False, made_by=made_by),
                                partner,
                            )
                            feasible = is_feasible(
                                players,
                                contract,
                                2 if partner else 1,
                                oudlers,
                                points_half,
                                petit,
                                made_by,
                            )
                            assert _accepted(outcome) is feasible, outcome
                            accepted += feasible
                            refused += not feasible
    assert accepted and refused


def test_issue_examples_are_refused() -> None:
    # Garde contre, 3 bouts, 60 points, attack chelem: the defence's 6-card chien would hold 31
    # points, but without an oudler it holds at most 4 Kings and 2 Queens (25).
    chelem = Chelem(announced=True, made_by=Side.ATTACK)
    refused = Outcome(4, Contract.GARDE_CONTRE, 3, 120, None, (), chelem, False)
    with pytest.raises(RuleError) as error:
        validate_outcome(refused)
    assert error.value.code == "chelem_inconsistent"
    assert points_bounds(4, Contract.GARDE_CONTRE, 1, 3, None, Side.ATTACK) == (132, 176)
    # 79 points with 0 bouts: the defence holds the three oudlers in at least one trick.
    with pytest.raises(RuleError) as error:
        validate_outcome(Outcome(4, Contract.GARDE, 0, 158, None, (), Chelem(), False))
    assert error.value.code == "points_impossible"


def test_hand_derived_bounds() -> None:
    # 4 players, Garde, 0 oudlers: the defence's one trick holds the Petit, the 21 and a low
    # card, its Excuse kept: 9 + 9 + 1 + 8 + 1 = 28 half-points, so the attack makes at most 77;
    # at least one trick and the écart, 10 cards of half a point: 5.
    assert points_bounds(4, Contract.GARDE, 1, 0, None, None) == (10, 154)
    # 3 players, Garde, 0 oudlers: 9 cards (one trick and the écart) are worth 4.5 or 5.5
    # points, never 5 (an even number of cards needs a second trick: 12 cards, 6 points).
    zero = feasible_points(3, Contract.GARDE, 1, None, None)[0]
    assert 9 in zero and 10 not in zero and 11 in zero and 12 in zero
    # 4 players: a half point only when the attack received the Excuse changing camp.
    four = feasible_points(4, Contract.GARDE, 1, None, None)
    assert not any(p % 2 for p in four[0]) and any(p % 2 for p in four[1])
    # ... and the Excuse changing camp from the defence gives 89.5 with all three oudlers.
    assert max(four[3]) == 179
    # Defence chelem in Garde contre: the attack holds nothing but perhaps its Excuse.
    assert {o: sorted(p) for o, p in feasible_points(4, Contract.GARDE_CONTRE, 1, None,
                                                     Side.DEFENCE).items() if p} == {
        0: [0], 1: [8]}  # fmt: skip
    # No petit au bout for a side without a trick.
    assert not any(feasible_points(4, Contract.GARDE, 1, Side.DEFENCE, Side.ATTACK).values())


def test_partner_is_required_at_five_players() -> None:
    data = {"players": 5, "contract": "garde", "oudlers": 2, "points": 50}
    with pytest.raises(RuleError) as error:
        outcome_from_dict(data)
    assert (error.value.code, error.value.field) == ("missing_field", "partner")
    assert outcome_from_dict({**data, "partner": False}).partner is False


def test_simulated_real_deals_are_feasible() -> None:
    """Random legal play (whim=1) over every contract and player count: all accepted."""
    rng = random.Random(12)
    seen: Counter[tuple[int, Contract]] = Counter()
    for number in range(360):
        players = (3, 4, 5)[number % 3]
        contract = list(Contract)[(number // 3) % 4]
        deal = deal_cards(players, rng, dealer=number % players)
        played = simulate_deal(
            deal, rng, taker_seat=0, min_contract=contract, whim=1.0 if number % 2 else 0.3
        )
        assert played.record is not None
        outcome = outcome_from_play(played.record, validate=False)
        size = 2 if outcome.partner else 1
        assert is_feasible(
            players,
            outcome.contract,
            size,
            outcome.oudlers,
            outcome.points_half,
            outcome.petit_au_bout,
            outcome.chelem.made_by,
        ), outcome
        validate_outcome(outcome)
        seen[players, outcome.contract] += 1
    assert len(seen) >= 10

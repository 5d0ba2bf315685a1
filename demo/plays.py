"""Simulated plays of the demo: a complete play of a duplicate deal's cards, as a table would
report its outcome (the events, the cup and the scale builder all play through it)."""

from __future__ import annotations

import random
from typing import Any

from clubs.outcomes import EtuiDeal
from rules import deal as rules_deal
from rules.enums import Contract
from rules.play import outcome_from_play
from rules.scoring import outcome_to_dict
from rules.simulation import simulate_deal
from tournaments.models import Deal


class DemoError(Exception):
    """The demo cannot be built here without touching data that is not the demo's."""


# Contract floors a demo taker is given, by weight: most tables bid Garde, some go higher.
CONTRACT_FLOORS: tuple[tuple[Contract, float], ...] = (
    (Contract.GARDE, 0.65),
    (Contract.GARDE_SANS, 0.25),
    (Contract.GARDE_CONTRE, 0.10),
)
# A table's players play a random legal card with a probability drawn in this range.
WHIMS = (0.05, 0.3)


def play_outcome(deal: Deal | EtuiDeal, rng: random.Random) -> dict[str, Any]:
    """A complete simulated play of ``deal``'s cards: the outcome the table reports.

    The rules engine's players bid (the taker sits at the étui's taker seat and bids at least
    the floor drawn from :data:`CONTRACT_FLOORS`), discard, show poignées and play, following a
    whim now and then so that tables differ. ``outcome_from_play`` validates the whole play
    (legal cards, écart, leaders) before counting it.
    """
    floor = rng.choices(
        [contract for contract, _ in CONTRACT_FLOORS],
        weights=[weight for _, weight in CONTRACT_FLOORS],
    )[0]
    played = simulate_deal(
        rules_deal.deal_from_text(deal.cards),
        rng,
        taker_seat=deal.taker_seat,
        min_contract=floor,
        whim=rng.uniform(*WHIMS),
    )
    if played.record is None:  # cannot happen with an imposed taker; never store a guess
        raise DemoError(f"deal {deal.number}: the simulation passed the deal out")
    outcome = outcome_to_dict(outcome_from_play(played.record))
    outcome.pop("players", None)  # always 4 at a duplicate table
    return outcome

"""Which deal outcomes real cards can produce: the exact feasibility model (pure).

:func:`feasible_points` answers, for a player count, contract, attack size, petit au bout and
chelem, the exact set of ``(oudlers, points_half)`` of the attack that some legal deal and play
produce; :func:`is_feasible` asks it about one outcome. :func:`rules.scoring.validate_outcome`
refuses every outcome outside it.

Derivation
----------
Cards. Leave the Excuse aside: the other 77 cards are the Petit and the 21 (oudlers, 9
half-points each), 4 Kings (9), 4 Queens (7), 4 Knights (5), 4 Jacks (3) and 59 low cards (1:
40 pips and the trumps 2-20). Every value is odd, so ``s`` of them are worth a number of
half-points of the parity of ``s``; and between the cheapest and the dearest choice of ``s``
cards every value of that parity exists (replacing one card by the next class up adds 2).

Slots. At the end of a deal every one of the 77 cards lies in one side's *slot*: the chien
(``c`` cards, 6 or 3 at 5 players) counts for the attack (Prise and Garde: as the écart, which
holds no King and no oudler; Garde sans: unseen, any cards) or for the defence (Garde contre:
unseen, any cards); every trick gives its ``n`` cards (``n`` = players) to its winner's side.

The Excuse, 9 half-points, changes the slot counts by one and adds a fixed amount:

a. played by a side in a trick won by that same side (a partner wins it; not the last trick):
   that side keeps it as a card (+9, one slot fewer for the others) — needs 2 players there;
b. played in a trick won by the other side (not the last trick): its owner's side keeps it
   for 8 and the winner's side gets 1 for it (the exchange; [convention] settled at the count
   when the owner's side has no low card), the winner's trick gives one slot fewer;
c. played in the last trick outside a chelem, won by the other side: that side takes it (+9);
d. played in the last trick outside a chelem, won by a partner of its owner: it changes camp
   ([FFT]): the other side gets it alone (+9), the winner's trick gives one slot fewer;
e. in an unseen chien: a card of the chien's side (+9).

The side ending with 8 or 9 for the Excuse holds it as an oudler.

Tricks. Outside a chelem each side wins at least one trick (``t`` tricks for the attack,
``T - t`` for the defence, ``T`` the hand size) and one of them wins the last trick. In a
chelem the winner takes every trick; the loser keeps only the chien or écart that counts for
it and its own Excuse (case b, for 8; [FFT] it keeps it even played in the last trick), and
the winner's Excuse, played last, wins that trick (case a). Under the traditional and house
rules of version 2 the loser's Excuse played in the last trick goes to the winner: the same
shape as the winner's own Excuse played last, so the feasible sets do not change. Under the
traditional rules of version 2 the écart may hold Kings (``ecart_kings``), never an oudler.

Petit au bout. The Petit in the last trick scores for the side that wins that trick (in a made
chelem with the Excuse played last, the trick before); so ``petit_au_bout`` names the side that
wins the last trick and holds the Petit there; ``None`` means the Petit is not in it: it lies
in a chien, or in a trick other than the last one (so a side winning only the last trick gets
it only from its unseen chien). The Petit and the 21 are never in an écart.

Bound. For each shape (tricks per side, winner of the last trick, Excuse case, side of the
Petit and of the 21) the attack holds ``s`` slots and a fixed Excuse amount; its points range
over every value of the parity of ``s`` between the cheapest and the dearest fill of the slots
with its oudlers (Kings and oudlers outside the écart). The feasible set is the union over the
shapes. Modelling assumption, checked by the tests with real deals: any assignment of cards
to slots that respects the above is reached by some deal and legal play (hands can be made
void in the suits needed, so a trick can hold any cards its winner's side must collect).

Rulesets. The same model serves every :class:`~rules.ruleset.Ruleset`: the chien size is the
one the dealer picked (house rules: 3/6/9 at 3 players, 2/6/10 at 4; flambeuse: 8) and the
hand size ``T`` follows; the attack is 1 player (the taker alone, the flambeuse) or 2; under
house rules the Excuse in the last trick goes to the side that wins it, so case d becomes
"that side keeps it as a card" (+9 for the owner's side: at 4 players every count is then a
whole number of points). The traditional *petit chelem* (``petit_chelem``): ``"made"`` means
the attack won every trick but one (``t = T - 1``), ``"failed"`` that an announced one was
not made (``t <= T - 2``; a grand chelem is a chelem shape); ``None`` leaves ``t`` free.

Poignées are not part of this model: :func:`rules.scoring.validate_outcome` checks them on
their own (trumps shown, one per player, thresholds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal

from rules.enums import PLAYER_COUNTS, TOTAL_HALF_POINTS, Contract, Side
from rules.ruleset import FFT, Ruleset

PetitChelem = Literal["made", "failed"] | None

# The 77 cards other than the Excuse, by value in half-points, without the Petit and the 21.
_NON_OUDLER_CLASSES: Final = ((9, 4), (7, 4), (5, 4), (3, 4), (1, 59))  # K, Q, C, J, low
_OUDLER_HALF: Final = 9
_EXCUSE_KEPT: Final = 8  # the Excuse less the half point handed over in exchange
_EXCUSE_CARD: Final = 9


@dataclass(frozen=True, slots=True)
class _Shape:
    """The attack's slots, fixed Excuse amount, and the Petit/21 it holds."""

    slots: int
    ecart: int  # slots of the attack that are the écart (no King, no oudler)
    excuse: int  # 0, 1, 8 or 9 half-points for the attack
    oudlers_in_slots: int  # how many of the Petit and the 21 lie in the attack's slots
    defence_slots: int


def _fill_range(
    slots: int, oudlers: int, ecart: int, ecart_kings: bool = False
) -> tuple[int, int] | None:
    """Cheapest and dearest value of ``slots`` cards holding exactly ``oudlers`` of Petit/21.

    ``ecart`` of the slots may hold no oudler, and no King unless ``ecart_kings`` (the
    traditional rules, version 2). ``None`` when impossible.
    """
    others = slots - oudlers
    outside_ecart = slots - ecart - oudlers
    free = others if ecart_kings else outside_ecart  # slots that may take a King
    if others < 0 or outside_ecart < 0 or others > 75:
        return None
    cheapest = 0
    left = others
    for value, count in reversed(_NON_OUDLER_CLASSES):
        take = min(count, left)
        cheapest += take * value
        left -= take
    dearest = 0
    left = others
    for value, count in _NON_OUDLER_CLASSES:
        take = min(count, left, free) if value == 9 else min(count, left)
        dearest += take * value
        left -= take
    if left:
        return None
    return oudlers * _OUDLER_HALF + cheapest, oudlers * _OUDLER_HALF + dearest


def _excuse_cases(
    attack_size: int,
    defence_size: int,
    nonlast: dict[Side, int],
    last: Side,
    unseen_chien: Side | None,
    excuse_to_winner: bool = False,
) -> list[tuple[dict[Side, int], dict[Side, int]]]:
    """Outside a chelem: (slots removed per side, fixed amount per side) for cases a-e.

    ``excuse_to_winner`` (house rules): case d keeps the Excuse in its owner's side.
    """
    sizes = {Side.ATTACK: attack_size, Side.DEFENCE: defence_size}
    cases: list[tuple[dict[Side, int], dict[Side, int]]] = []
    for owner in Side:
        other = owner.other
        if sizes[owner] >= 2 and nonlast[owner] >= 1:  # a
            cases.append(({owner: 1}, {owner: _EXCUSE_CARD}))
        if nonlast[other] >= 1:  # b
            cases.append(({other: 1}, {owner: _EXCUSE_KEPT, other: 1}))
        if last is other:  # c
            cases.append(({other: 1}, {other: _EXCUSE_CARD}))
        if sizes[owner] >= 2 and last is owner:  # d
            if excuse_to_winner:
                cases.append(({owner: 1}, {owner: _EXCUSE_CARD}))
            else:
                cases.append(({owner: 1}, {other: _EXCUSE_CARD}))
    if unseen_chien is not None:  # e
        cases.append(({unseen_chien: 1}, {unseen_chien: _EXCUSE_CARD}))
    return cases


def _petit_placeable(
    petit: Side,
    petit_au_bout: Side | None,
    last: Side,
    nonlast: dict[Side, int],
    unseen_chien: Side | None,
) -> bool:
    if petit_au_bout is not None:
        return petit_au_bout is last and petit is last
    return nonlast[petit] >= 1 or unseen_chien is petit


def _shapes(
    players: int,
    contract: Contract,
    attack_size: int,
    petit_au_bout: Side | None,
    ruleset: Ruleset = FFT,
    chien: int = 0,
    petit_chelem: PetitChelem = None,
) -> list[_Shape]:
    """Every shape outside a chelem (see the module docstring)."""
    tricks = ruleset.hand_size(players, chien)
    chien_side = Side.ATTACK if contract.chien_to_attack else Side.DEFENCE
    unseen_chien = None if contract.taker_sees_chien else chien_side
    ecart = chien if contract.taker_sees_chien else 0
    shapes: list[_Shape] = []
    trick_counts = range(1, tricks)
    if petit_chelem == "made":
        trick_counts = range(tricks - 1, tricks)
    elif petit_chelem == "failed":
        trick_counts = range(1, tricks - 1)
    for attack_tricks in trick_counts:
        won = {Side.ATTACK: attack_tricks, Side.DEFENCE: tricks - attack_tricks}
        for last in Side:
            nonlast = {side: won[side] - (side is last) for side in Side}
            cases = _excuse_cases(
                attack_size,
                players - attack_size,
                nonlast,
                last,
                unseen_chien,
                ruleset.excuse_last_trick_to_winner,
            )
            for removed, fixed in cases:
                slots = {
                    side: players * won[side]
                    + (chien if side is chien_side else 0)
                    - removed.get(side, 0)
                    for side in Side
                }
                for petit in Side:
                    if not _petit_placeable(petit, petit_au_bout, last, nonlast, unseen_chien):
                        continue
                    for twenty_one in Side:
                        in_attack = (petit is Side.ATTACK) + (twenty_one is Side.ATTACK)
                        shapes.append(
                            _Shape(
                                slots=slots[Side.ATTACK],
                                ecart=ecart,
                                excuse=fixed.get(Side.ATTACK, 0),
                                oudlers_in_slots=in_attack,
                                defence_slots=slots[Side.DEFENCE],
                            )
                        )
    return shapes


def _chelem_shapes(
    players: int,
    contract: Contract,
    winner: Side,
    petit_au_bout: Side | None,
    ruleset: Ruleset = FFT,
    chien: int = 0,
) -> list[_Shape]:
    """Every shape of a chelem made by ``winner`` (see the module docstring).

    Under house rules the loser's Excuse played in the last trick goes to the winner: the same
    shape as the winner's own Excuse played last.
    """
    if petit_au_bout is winner.other:
        return []  # the side without a trick cannot hold the last trick
    tricks = ruleset.hand_size(players, chien)
    chien_side = Side.ATTACK if contract.chien_to_attack else Side.DEFENCE
    unseen_chien = None if contract.taker_sees_chien else chien_side
    ecart = chien if contract.taker_sees_chien else 0
    loser = winner.other
    # (slots removed per side, fixed Excuse amount per side)
    cases: list[tuple[dict[Side, int], dict[Side, int]]] = [
        ({winner: 1}, {loser: _EXCUSE_KEPT, winner: 1}),  # the loser's Excuse, kept
        ({winner: 1}, {winner: _EXCUSE_CARD}),  # the winner's Excuse, played last
    ]
    if unseen_chien is not None:
        cases.append(({unseen_chien: 1}, {unseen_chien: _EXCUSE_CARD}))
    shapes: list[_Shape] = []
    for removed, fixed in cases:
        slots = {
            side: (players * tricks if side is winner else 0)
            + (chien if side is chien_side else 0)
            - removed.get(side, 0)
            for side in Side
        }
        for petit in Side:
            # The loser's only slots are a chien: the Petit there is never au bout.
            if petit is loser and petit_au_bout is not None:
                continue
            for twenty_one in Side:
                in_loser = (petit is loser) + (twenty_one is loser)
                if in_loser > slots[loser] - (ecart if loser is Side.ATTACK else 0):
                    continue
                in_attack = (petit is Side.ATTACK) + (twenty_one is Side.ATTACK)
                shapes.append(
                    _Shape(
                        slots=slots[Side.ATTACK],
                        ecart=ecart,
                        excuse=fixed.get(Side.ATTACK, 0),
                        oudlers_in_slots=in_attack,
                        defence_slots=slots[Side.DEFENCE],
                    )
                )
    return shapes


@lru_cache(maxsize=256)
def feasible_points(
    players: int,
    contract: Contract,
    attack_size: int,
    petit_au_bout: Side | None,
    chelem_made_by: Side | None,
    ruleset: Ruleset = FFT,
    chien_size: int | None = None,
    petit_chelem: PetitChelem = None,
) -> dict[int, frozenset[int]]:
    """Attack oudlers → the set of attack half-points some real deal produces.

    ``attack_size`` is 1 (the taker, alone at 5 players) or 2 (taker and called partner).
    ``chien_size`` is the dealer's choice (``None``: the ruleset's default); ``petit_chelem``
    restricts the attack's tricks (see the module docstring; ignored in a chelem).
    """
    chien = ruleset.default_chien_size(players) if chien_size is None else chien_size
    shapes = (
        _shapes(players, contract, attack_size, petit_au_bout, ruleset, chien, petit_chelem)
        if chelem_made_by is None
        else _chelem_shapes(players, contract, chelem_made_by, petit_au_bout, ruleset, chien)
    )
    result: dict[int, set[int]] = {oudlers: set() for oudlers in range(4)}
    for shape in shapes:
        if shape.defence_slots < 2 - shape.oudlers_in_slots:
            continue
        bounds = _fill_range(shape.slots, shape.oudlers_in_slots, shape.ecart, ruleset.ecart_kings)
        if bounds is None:
            continue
        oudlers = shape.oudlers_in_slots + (shape.excuse >= _EXCUSE_KEPT)
        low, high = bounds
        result[oudlers].update(range(shape.excuse + low, shape.excuse + high + 1, 2))
    return {
        oudlers: frozenset(p for p in points if 0 <= p <= TOTAL_HALF_POINTS)
        for oudlers, points in result.items()
    }


def is_feasible(
    players: int,
    contract: Contract,
    attack_size: int,
    oudlers: int,
    points_half: int,
    petit_au_bout: Side | None,
    chelem_made_by: Side | None,
    ruleset: Ruleset = FFT,
    chien_size: int | None = None,
    petit_chelem: PetitChelem = None,
) -> bool:
    """Whether some real deal gives the attack ``oudlers`` and ``points_half``."""
    if players not in PLAYER_COUNTS or not 0 <= oudlers <= 3:
        return False
    sets = feasible_points(
        players,
        contract,
        attack_size,
        petit_au_bout,
        chelem_made_by,
        ruleset,
        chien_size,
        petit_chelem,
    )
    return points_half in sets[oudlers]


def points_bounds(
    players: int,
    contract: Contract,
    attack_size: int,
    oudlers: int,
    petit_au_bout: Side | None,
    chelem_made_by: Side | None,
    ruleset: Ruleset = FFT,
    chien_size: int | None = None,
    petit_chelem: PetitChelem = None,
) -> tuple[int, int] | None:
    """The fewest and most attack half-points feasible with these oudlers (None: none)."""
    points = feasible_points(
        players,
        contract,
        attack_size,
        petit_au_bout,
        chelem_made_by,
        ruleset,
        chien_size,
        petit_chelem,
    )[oudlers]
    return (min(points), max(points)) if points else None


def random_table_outcome(rng: random.Random, players: int = 4) -> dict[str, Any]:
    """A duplicate table's outcome some real deal produces, as the entry API takes it: Garde or
    above, attack oudlers and whole points drawn from :func:`feasible_points` (taker alone,
    no chelem), sometimes a petit au bout. For load tests, demos and test fixtures."""
    contract = rng.choice(["garde", "garde", "garde_sans", "garde_contre"])
    petit = rng.choice(["attack", "defence"]) if rng.random() < 0.1 else None
    reachable = feasible_points(
        players, Contract(contract), 1, Side(petit) if petit else None, None
    )
    oudlers = rng.choice([count for count in range(4) if reachable[count]])
    points = rng.choice(sorted(half for half in reachable[oudlers] if half % 2 == 0)) // 2
    return {"contract": contract, "oudlers": oudlers, "points": points, "petit_au_bout": petit}

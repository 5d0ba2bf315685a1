"""Outcomes checked against the prepared hands (rules.hand_checks).

Every refusal has a "possible" counterpart that is accepted, and a property test plays seeded
deals for real (the heuristic simulator, and uniformly random legal plays) and checks that no
outcome of a real play is refused.
"""

from __future__ import annotations

import random

import pytest

from rules.cards import DECK, EXCUSE, parse_cards
from rules.deal import Deal, generate_deals, validate_deal
from rules.enums import Contract, PoigneeSize, Side
from rules.errors import RuleError
from rules.hand_checks import (
    SimulatedRange,
    check_hands,
    fitting_outcome,
    hand_flags,
    hand_refusals,
    random_play,
    simulated_range,
)
from rules.scoring import NO_CHELEM, Chelem, Outcome, Poignee, validate_outcome
from rules.simulation import simulate_deal

SEATS = ("N", "E", "S", "W")
SOUTH = 2
TRUMPS = [card for card in DECK if card.is_trump]
PLAIN = [card for card in DECK if not card.is_trump and not card.is_excuse]


def make_deal(spec: dict[str, str], rest: str = "N") -> Deal:
    """A deal with the named cards placed; the other trumps (and the Excuse) go to ``rest``
    first, then plain cards (Kings last) fill every place in the order N E S W chien."""
    sizes = {seat: 18 for seat in SEATS} | {"chien": 6}
    placed = {place: list(parse_cards(spec.get(place, ""))) for place in sizes}
    used = {card for cards in placed.values() for card in cards}
    spare_trumps = [card for card in [*TRUMPS, EXCUSE] if card not in used]
    room = sizes[rest] - len(placed[rest])
    placed[rest].extend(spare_trumps[:room])
    leftover = spare_trumps[room:]
    plain = [card for card in PLAIN if card not in used]
    plain.sort(key=lambda card: card.is_king)
    pool = leftover + plain
    for place, size in sizes.items():
        while len(placed[place]) < size:
            placed[place].append(pool.pop(0))
    deal = Deal(
        players=4,
        hands=tuple(tuple(sorted(placed[seat])) for seat in SEATS),
        chien=tuple(sorted(placed["chien"])),
        dealer=0,
    )
    validate_deal(deal)
    return deal


def trumps(*ranks: int) -> str:
    return " ".join(f"T{rank}" for rank in ranks)


def outcome(
    contract: Contract = Contract.GARDE,
    oudlers: int = 1,
    points: float = 51,
    petit_au_bout: Side | None = None,
    poignees: tuple[Poignee, ...] = (),
    chelem: Chelem = NO_CHELEM,
) -> Outcome:
    result = Outcome(
        players=4,
        contract=contract,
        oudlers=oudlers,
        points_half=int(points * 2),
        petit_au_bout=petit_au_bout,
        poignees=poignees,
        chelem=chelem,
    )
    validate_outcome(result)  # the hand checks come after the rules' own checks
    return result


def codes(deal: Deal, result: Outcome, taker: int = SOUTH) -> list[str]:
    return [error.code for error in hand_refusals(deal, taker, result)]


def only_refusal(deal: Deal, result: Outcome, taker: int = SOUTH) -> RuleError:
    with pytest.raises(RuleError) as caught:
        check_hands(deal, taker, result)
    return caught.value


# --------------------------------------------------------------------------------- poignées


def test_a_simple_poignee_for_a_taker_with_6_trumps_is_refused_naming_him() -> None:
    deal = make_deal({"S": trumps(2, 3, 4, 5, 6, 7)})
    simple = (Poignee(Side.ATTACK, PoigneeSize.SIMPLE),)
    error = only_refusal(deal, outcome(Contract.GARDE_SANS, poignees=simple))
    assert error.code == "hand_poignee_too_few_trumps"
    assert error.field == "poignees"
    assert error.message == (
        "South, the taker, holds only 6 trumps (the Excuse counted): the attack cannot show a "
        "poignée of 10."
    )


def test_the_excuse_counts_and_ten_trumps_show_a_simple_poignee() -> None:
    deal = make_deal({"S": trumps(2, 3, 4, 5, 6, 7, 8, 9, 10) + " EX"})
    simple = (Poignee(Side.ATTACK, PoigneeSize.SIMPLE),)
    assert codes(deal, outcome(Contract.GARDE_SANS, poignees=simple)) == []
    double = (Poignee(Side.ATTACK, PoigneeSize.DOUBLE),)
    assert codes(deal, outcome(Contract.GARDE_SANS, poignees=double)) == [
        "hand_poignee_too_few_trumps"
    ]


def test_in_a_garde_the_taker_shows_the_trumps_of_the_chien_too() -> None:
    deal = make_deal({"S": trumps(2, 3, 4, 5, 6, 7, 8, 9), "chien": trumps(10, 11)})
    simple = (Poignee(Side.ATTACK, PoigneeSize.SIMPLE),)
    assert codes(deal, outcome(Contract.GARDE, poignees=simple)) == []
    error = only_refusal(deal, outcome(Contract.GARDE_SANS, poignees=simple))
    assert "holds only 8 trumps" in error.message
    assert (
        "with the chien"
        in only_refusal(
            deal, outcome(Contract.GARDE, poignees=(Poignee(Side.ATTACK, PoigneeSize.DOUBLE),))
        ).message
    )


def test_a_taker_who_must_discard_trumps_keeps_only_what_his_kings_leave_room_for() -> None:
    # 14 trumps and the 4 Kings, 6 trumps in the chien: the écart takes 6 trumps (no King, no
    # plain card to discard), so 14 trumps remain to show: a double, not a triple.
    deal = make_deal(
        {"S": trumps(*range(2, 16)) + " S14 H14 D14 C14", "chien": trumps(*range(16, 21)) + " T1"}
    )
    double = (Poignee(Side.ATTACK, PoigneeSize.DOUBLE),)
    assert codes(deal, outcome(Contract.GARDE, oudlers=1, points=60, poignees=double)) == []
    triple = (Poignee(Side.ATTACK, PoigneeSize.TRIPLE),)
    error = only_refusal(deal, outcome(Contract.GARDE, oudlers=1, points=60, poignees=triple))
    assert "holds only 14 trumps with the chien" in error.message


def test_a_defence_poignee_needs_a_defender_holding_enough_trumps() -> None:
    deal = make_deal({"W": trumps(2, 3, 4, 5, 6, 7, 8, 9), "S": trumps(10, 11)}, rest="E")
    # East holds the other 11 trumps and the Excuse: 12; West 8.
    simple = (Poignee(Side.DEFENCE, PoigneeSize.SIMPLE),)
    assert codes(deal, outcome(poignees=simple)) == []
    double = (Poignee(Side.DEFENCE, PoigneeSize.DOUBLE),)
    error = only_refusal(deal, outcome(poignees=double))
    assert error.message == (
        "East, the defender with the most trumps, holds only 12 trumps (the Excuse counted): "
        "the defence cannot show a poignée of 13."
    )
    two = simple * 2
    error = only_refusal(deal, outcome(poignees=two))
    assert error.code == "hand_poignee_too_few_trumps"
    assert error.message == (
        "each poignée is shown by a different player, and the defence has 1 player with 10 "
        "trumps or more (the Excuse counted): West holds 8 trumps."
    )


def test_two_defenders_with_ten_trumps_show_two_poignees() -> None:
    deal = make_deal({"W": trumps(*range(2, 12)), "E": trumps(*range(12, 22))}, rest="S")
    two = (Poignee(Side.DEFENCE, PoigneeSize.SIMPLE),) * 2
    assert codes(deal, outcome(oudlers=2, points=46, poignees=two)) == []


# ------------------------------------------------------------------------------------ bouts


def test_the_taker_holding_the_21_cannot_make_0_oudlers() -> None:
    deal = make_deal({"S": "T21", "W": "T1 EX"}, rest="E")
    error = only_refusal(deal, outcome(oudlers=0, points=40))
    assert error.code == "hand_bouts_too_few"
    assert error.field == "oudlers"
    assert error.message == (
        "South, the taker, holds 21 (with the chien), which the attack cannot lose here: the "
        "attack has at least 1 oudler."
    )
    assert codes(deal, outcome(oudlers=1, points=40)) == []
    # Without the chien: the message does not mention it.
    sans = only_refusal(deal, outcome(Contract.GARDE_SANS, oudlers=0, points=40))
    assert sans.message.startswith("South, the taker, holds 21, which")


def test_the_21_of_the_chien_is_the_takers_in_a_garde_and_the_defences_in_a_garde_contre() -> None:
    deal = make_deal({"chien": "T21", "W": "T1 EX", "S": "T2"}, rest="E")
    assert codes(deal, outcome(oudlers=0, points=40)) == ["hand_bouts_too_few"]
    assert codes(deal, outcome(Contract.GARDE_SANS, oudlers=0, points=40)) == ["hand_bouts_too_few"]
    error = only_refusal(deal, outcome(Contract.GARDE_CONTRE, oudlers=3, points=60))
    assert error.code == "hand_bouts_too_many"
    assert error.message == (
        "the chien, which counts for the defence in a Garde contre, holds 21: the attack has "
        "at most 2 oudlers."
    )
    assert codes(deal, outcome(Contract.GARDE_CONTRE, oudlers=2, points=60)) == []


def test_a_garde_sans_chien_counts_its_oudlers_for_the_attack() -> None:
    deal = make_deal({"S": "T21", "chien": "T1 EX"}, rest="E")
    error = only_refusal(deal, outcome(Contract.GARDE_SANS, oudlers=2, points=50))
    assert error.message == (
        "South, the taker, holds 21, which the attack cannot lose here, and the chien of the "
        "Garde sans holds Petit, Excuse: the attack has at least 3 oudlers."
    )
    assert codes(deal, outcome(Contract.GARDE_SANS, oudlers=3, points=50)) == []


def test_a_defender_holding_the_21_keeps_it_unless_the_attack_wins_every_trick() -> None:
    deal = make_deal({"W": "T21", "S": "T1 EX"}, rest="E")
    error = only_refusal(deal, outcome(oudlers=3, points=60))
    assert error.message == (
        "West, a defender, holds 21, which the defence cannot lose here: the attack has at most "
        "2 oudlers."
    )
    assert codes(deal, outcome(oudlers=2, points=60)) == []
    # A chelem taken with the taker's Excuse in the last trick captures the 21.
    chelem = Chelem(announced=True, made_by=Side.ATTACK)
    assert codes(deal, outcome(oudlers=3, points=91, chelem=chelem)) == []


def test_a_chelem_against_the_21_needs_the_excuse() -> None:
    deal = make_deal({"W": "T21 EX", "S": "T1"}, rest="E")
    chelem = Chelem(announced=True, made_by=Side.ATTACK)
    error = only_refusal(deal, outcome(oudlers=2, points=87, chelem=chelem))
    assert error.code == "hand_chelem_impossible"
    assert error.message == (
        "West holds the 21, which only the Excuse of a side that won every other trick can "
        "take, and the attack does not hold the Excuse: it cannot win every trick."
    )


def test_the_taker_holding_the_21_loses_it_only_to_a_defence_chelem() -> None:
    deal = make_deal({"S": "T21", "W": "T1 EX"}, rest="E")
    chelem = Chelem(made_by=Side.DEFENCE)
    assert codes(deal, outcome(Contract.GARDE_CONTRE, oudlers=0, points=0, chelem=chelem)) == []
    # Unless the Excuse is with the taker: then nobody can take the 21 from him.
    deal = make_deal({"S": "T21 EX", "W": "T1"}, rest="E")
    error = only_refusal(deal, outcome(Contract.GARDE_CONTRE, oudlers=1, points=4, chelem=chelem))
    assert error.code == "hand_chelem_impossible"
    assert error.message.startswith("South holds the 21")


# ------------------------------------------------------------------------------ petit au bout


def test_the_petit_in_an_unplayed_chien_is_never_au_bout() -> None:
    deal = make_deal({"chien": "T1", "S": "T21"}, rest="E")
    for contract in (Contract.GARDE_SANS, Contract.GARDE_CONTRE):
        oudlers = 2 if contract is Contract.GARDE_SANS else 1
        for side in Side:
            error = only_refusal(
                deal, outcome(contract, oudlers=oudlers, points=60, petit_au_bout=side)
            )
            assert error.code == "hand_petit_au_bout_impossible"
            assert error.message == (
                f"the Petit is in the chien, which is not played in a {contract.label}: there "
                "is no petit au bout."
            )
    # In a Garde the taker takes the Petit from the chien: au bout either way.
    assert codes(deal, outcome(oudlers=2, points=60, petit_au_bout=Side.ATTACK)) == []
    assert codes(deal, outcome(oudlers=1, points=60, petit_au_bout=Side.DEFENCE)) == []


def test_the_petit_is_taken_au_bout_only_by_a_side_holding_a_trump() -> None:
    # The taker and the chien hold every trump: the defence cannot take the Petit.
    deal = make_deal({"S": trumps(*range(1, 16)) + " EX", "chien": trumps(*range(16, 22))})
    error = only_refusal(deal, outcome(oudlers=2, points=60, petit_au_bout=Side.DEFENCE))
    assert error.message == (
        "South holds the Petit and the defence holds no trump to take it: no petit au bout for "
        "the defence."
    )
    assert codes(deal, outcome(oudlers=3, points=60, petit_au_bout=Side.ATTACK)) == []
    # Nor capture it at all: the attack has the Petit and the 21 at least.
    assert codes(deal, outcome(oudlers=1, points=60)) == ["hand_bouts_too_few"]
    assert codes(deal, outcome(oudlers=2, points=60)) == []


def test_a_taker_without_trumps_cannot_take_a_defenders_petit_au_bout() -> None:
    deal = make_deal({"W": "T1", "chien": "S1"}, rest="E")
    # South holds plain cards only; in a Garde sans the chien is not his.
    assert codes(
        deal, outcome(Contract.GARDE_SANS, oudlers=1, points=50, petit_au_bout=Side.ATTACK)
    ) == ["hand_petit_au_bout_impossible"]
    assert (
        codes(deal, outcome(Contract.GARDE_SANS, oudlers=0, points=50, petit_au_bout=Side.DEFENCE))
        == []
    )


def test_five_players_are_not_checked() -> None:
    (deal,) = generate_deals(5, 1, seed="five")
    result = Outcome(players=5, contract=Contract.GARDE, oudlers=0, points_half=80, partner=True)
    assert hand_refusals(deal, 0, result) == []


# ------------------------------------------------------------------ no refusal of a real play


@pytest.mark.parametrize("seed", ["a", "b"])
def test_no_outcome_of_a_real_play_is_refused(seed: str) -> None:
    deals = generate_deals(4, 60, seed=f"hand-checks-{seed}")
    checked = 0
    for number, deal in enumerate(deals):
        rng = random.Random(f"{seed}:{number}")
        taker = number % 4
        for contract in (Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE):
            played = simulate_deal(deal, rng, taker_seat=taker, min_contract=contract, whim=0.3)
            assert played.outcome is not None and played.record is not None
            assert hand_refusals(deal, played.record.taker, played.outcome) == []
            result = random_play(deal, taker, contract, rng)
            validate_outcome(result)
            assert hand_refusals(deal, taker, result) == []
            checked += 2
    assert checked == 360


def test_random_plays_reach_the_excuse_changing_camp_and_the_petit_au_bout() -> None:
    """The uniformly random plays explore what the greedy players avoid."""
    seen_half_points = seen_petit = False
    for number, deal in enumerate(generate_deals(4, 40, seed="explore")):
        rng = random.Random(number)
        for _ in range(10):
            result = random_play(deal, number % 4, Contract.GARDE, rng)
            seen_half_points |= result.points_half % 2 == 1
            seen_petit |= result.petit_au_bout is not None
    assert seen_half_points and seen_petit


# ------------------------------------------------------------------------------------ flags


def test_the_simulated_range_is_reproducible_and_holds_the_plays() -> None:
    (deal,) = generate_deals(4, 1, seed="range")
    first = simulated_range(deal, 1, Contract.GARDE, plays=50)
    assert first == simulated_range(deal, 1, Contract.GARDE, plays=50)
    assert first.plays == 50
    assert 0 <= first.points_min_half <= first.points_max_half <= 182
    assert 0 <= first.oudlers_min <= first.oudlers_max <= 3
    assert SimulatedRange.from_dict(first.to_dict()) == first


def test_an_outcome_far_outside_the_simulated_range_is_flagged_not_refused() -> None:
    seen = SimulatedRange(
        plays=200, points_min_half=60, points_max_half=100, oudlers_min=1, oudlers_max=2
    )
    assert hand_flags(outcome(oudlers=1, points=40), seen) == []
    assert hand_flags(outcome(oudlers=2, points=60), seen) == []  # 60 = 50 + the 10 allowed
    flags = hand_flags(outcome(oudlers=3, points=61), seen)
    assert [flag.code for flag in flags] == ["hand_points_unusual", "hand_oudlers_unusual"]
    assert flags[0].message == (
        "61 points for the attack: 200 random plays of this deal gave it 30 to 50."
    )
    assert flags[1].message == (
        "3 oudlers for the attack: 200 random plays of this deal gave it 1 to 2."
    )


def test_messages_translate_the_seat_with_the_sentence() -> None:
    deal = make_deal({"S": trumps(2, 3, 4, 5, 6, 7)})
    error = only_refusal(
        deal, outcome(Contract.GARDE_SANS, poignees=(Poignee(Side.ATTACK, PoigneeSize.SIMPLE),))
    )
    words = {"North": "Nord", "South": "Sud"}
    translated = error.translated(
        lambda text: words.get(text, text), lambda one, many, n: one if n == 1 else many
    )
    assert translated.startswith("Sud, the taker, holds only 6 trumps")


def test_fitting_outcome_redraws_until_the_hands_allow_it() -> None:
    deal = make_deal({"S": "T21", "W": "T1 EX"}, rest="E")
    draws = iter(
        [
            {"contract": "garde", "oudlers": 0, "points": 40},  # the taker holds the 21
            {"contract": "garde", "oudlers": 1, "points": 40},
        ]
    )
    assert fitting_outcome(lambda: next(draws), deal, SOUTH)["oudlers"] == 1
    impossible = {"contract": "garde", "oudlers": 0, "points": 40}
    with pytest.raises(RuleError) as refused:
        fitting_outcome(lambda: impossible, deal, SOUTH, tries=3)
    assert refused.value.code == "no_fitting_outcome"
    assert fitting_outcome(lambda: impossible, None, SOUTH) == impossible

"""Rulesets (rules.ruleset) through bidding, dealing, validation, feasibility and scoring.

Built from the rule texts (issue 12, docs/rulesets.md): the traditional pousse (its multiplier a
parameter, 2 by default) and petit chelem (+300 announced and made, -150 announced and failed),
the flambeuse (14 cards each, a chien of 8, the taker alone against four: marks x4), the house
chien chosen by the dealer (3/6/9 at 3 players, 2/6/10 at 4), the house poignées at 3 players
(10/13/15) and the house Excuse in the last trick (to the side that wins it). The FFT's
behaviour is unchanged: same deals for the same seed, same contracts, same dicts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import (
    FFT,
    HOUSE,
    TRADITIONAL,
    RuleError,
    bidding_result,
    check_duplicate_play,
    deal_cards,
    deal_from_text,
    deal_to_text,
    generate_deals,
    legal_bids,
    max_poignee,
    poignee_eligibility,
    score_deal,
    traditional,
    validate_deal,
    validate_outcome,
)
from rules.cards import DECK, EXCUSE, PETIT, parse_cards
from rules.deal import Deal
from rules.enums import ALL_CONTRACTS, FFT_CONTRACTS, Contract, PoigneeSize, Side
from rules.feasibility import PetitChelem, feasible_points, is_feasible, points_bounds
from rules.ruleset import Ruleset, house, ruleset_from_choice, ruleset_from_dict
from rules.scoring import (
    Chelem,
    Outcome,
    outcome_from_dict,
    outcome_to_dict,
)

FLAMBEUSE = traditional(flambeuse=True)
# the rules stored before issue 25 (version 1): kept exactly for the competitions stored then
TRADITIONAL_V1 = traditional(version=1)
HOUSE_V1 = house(version=1)


def _code(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(RuleError) as error:
        call(*args, **kwargs)
    return error.value.code


# ------------------------------------------------------------------------------ contracts


def test_the_fft_contracts_are_unchanged_and_the_pousse_is_offered_by_traditional_only() -> None:
    assert list(Contract) == list(FFT_CONTRACTS) and len(Contract) == 4
    assert Contract("pousse") is Contract.POUSSE and Contract.POUSSE.label == "Pousse"
    assert FFT.contracts == HOUSE.contracts == FFT_CONTRACTS
    assert TRADITIONAL.contracts == ALL_CONTRACTS
    assert [c.value for c in TRADITIONAL.contracts] == [
        "prise",
        "pousse",
        "garde",
        "garde_sans",
        "garde_contre",
    ]
    assert [TRADITIONAL.multiplier(c) for c in TRADITIONAL.contracts] == [1, 2, 2, 4, 6]
    assert traditional(3).multiplier(Contract.POUSSE) == 3
    assert [FFT.multiplier(c) for c in FFT.contracts] == [1, 2, 4, 6]
    assert _code(FFT.multiplier, Contract.POUSSE) == "contract_not_in_ruleset"
    # the chien goes to the taker as for a Prise
    assert Contract.POUSSE.taker_sees_chien and Contract.POUSSE.chien_to_attack


def test_a_pousse_sits_between_prise_and_garde_in_the_bidding() -> None:
    assert legal_bids(Contract.PRISE, ruleset=TRADITIONAL)[0] is Contract.POUSSE
    assert legal_bids(Contract.POUSSE, ruleset=TRADITIONAL)[0] is Contract.GARDE
    assert Contract.POUSSE not in legal_bids(None)
    result = bidding_result(
        4, 0, [Contract.PRISE, Contract.POUSSE, None, None], ruleset=TRADITIONAL
    )
    assert result.contract is Contract.POUSSE
    bids = [Contract.POUSSE, Contract.PRISE, None, None]
    assert _code(bidding_result, 4, 0, bids, ruleset=TRADITIONAL) == "bid_too_low"
    assert _code(bidding_result, 4, 0, [Contract.POUSSE, None, None, None]) == (
        "contract_not_in_ruleset"
    )


# -------------------------------------------------------------------------------- dealing


@pytest.mark.parametrize(
    ("ruleset", "players", "chien", "hand"),
    [
        (FFT, 3, None, 24),
        (FFT, 4, None, 18),
        (FFT, 5, None, 15),
        (HOUSE, 3, 3, 25),
        (HOUSE, 3, 6, 24),
        (HOUSE, 3, 9, 23),
        (HOUSE, 4, 2, 19),
        (HOUSE, 4, 10, 17),
        (HOUSE, 4, None, 18),
        (TRADITIONAL, 5, None, 15),
        (FLAMBEUSE, 5, None, 14),
    ],
)
def test_hands_are_dealt_to_match_the_chien(
    ruleset: Ruleset, players: int, chien: int | None, hand: int
) -> None:
    deal = deal_cards(players, random.Random(7), 1, ruleset, chien)
    assert [len(h) for h in deal.hands] == [hand] * players
    assert len(deal.chien) == 78 - hand * players
    assert sorted(card.code for h in (*deal.hands, deal.chien) for card in h) == sorted(
        card.code for card in DECK
    )
    validate_deal(deal, ruleset)
    assert deal_from_text(deal_to_text(deal), ruleset) == deal


@pytest.mark.parametrize(
    ("ruleset", "players", "chien"),
    [(FFT, 4, 2), (FFT, 3, 9), (HOUSE, 4, 3), (HOUSE, 3, 2), (HOUSE, 5, 8), (FLAMBEUSE, 5, 3)],
)
def test_a_chien_size_the_ruleset_does_not_allow_is_refused(
    ruleset: Ruleset, players: int, chien: int
) -> None:
    with pytest.raises(RuleError) as error:
        deal_cards(players, random.Random(1), 0, ruleset, chien)
    assert error.value.code == "invalid_chien_size"
    allowed = ", ".join(str(size) for size in sorted(ruleset.chien_sizes(players)))
    assert error.value.message.endswith(f": {allowed}).")


def test_the_fft_deals_are_those_of_before() -> None:
    # the same random stream as the FFT-only dealer: same seed, same cards
    assert generate_deals(4, 3, "s", ruleset=FFT) == generate_deals(4, 3, "s")
    assert generate_deals(4, 3, "s", chien_size=6) == generate_deals(4, 3, "s")
    rng_a, rng_b = random.Random(5), random.Random(5)
    assert deal_cards(3, rng_a) == deal_cards(3, rng_b, 0, FFT, 6)
    house = generate_deals(4, 3, "s", ruleset=HOUSE, chien_size=10)
    assert house == generate_deals(4, 3, "s", ruleset=HOUSE, chien_size=10)
    assert [len(deal.chien) for deal in house] == [10, 10, 10]


def test_a_deal_is_validated_against_its_ruleset() -> None:
    house = deal_cards(4, random.Random(3), 0, HOUSE, 10)
    assert _code(validate_deal, house) == "wrong_hand_size"
    assert _code(deal_from_text, deal_to_text(house)) == "wrong_hand_size"
    flambeuse = deal_cards(5, random.Random(3), 0, FLAMBEUSE)
    assert _code(validate_deal, flambeuse, TRADITIONAL) == "wrong_hand_size"
    # right hand sizes but a chien the ruleset does not allow
    odd = Deal(4, house.hands, house.chien[:9], 0)
    assert _code(validate_deal, odd, HOUSE) in {"wrong_hand_size", "invalid_chien_size"}


def test_house_poignees_at_three_players() -> None:
    trumps = parse_cards("T1 T2 T3 T4 T5 T6 T7 T8 T9 T10")
    assert max_poignee(trumps, 3) is None
    assert max_poignee(trumps, 3, HOUSE) is PoigneeSize.SIMPLE
    assert max_poignee((*trumps[:9], EXCUSE), 3, HOUSE) is PoigneeSize.SIMPLE
    assert max_poignee(parse_cards(" ".join(f"T{n}" for n in range(1, 16))), 3, HOUSE) is (
        PoigneeSize.TRIPLE
    )
    deal = deal_cards(3, random.Random(11), 0, HOUSE, 9)
    assert set(poignee_eligibility(deal, HOUSE)) == {"N", "E", "S"}


# ------------------------------------------------------------------------- outcome dicts


def test_fft_dicts_are_unchanged_and_the_new_fields_round_trip() -> None:
    data = {"players": 4, "contract": "garde", "oudlers": 2, "points": 46}
    fft = outcome_from_dict(data)
    assert (fft.ruleset, fft.chien_size) == (FFT, None)
    assert set(outcome_to_dict(fft)) == {
        "players",
        "contract",
        "oudlers",
        "points",
        "petit_au_bout",
        "poignees",
        "chelem",
    }
    house = outcome_from_dict({**data, "players": 3, "chien": 9}, HOUSE)
    assert (house.ruleset, house.chien_size, house.chien) == (HOUSE, 9, 9)
    assert outcome_to_dict(house)["chien"] == 9
    assert outcome_from_dict(outcome_to_dict(house), HOUSE) == house
    petit = {"announced": True, "made": True}
    trad_data = {**data, "oudlers": 3, "points": 85, "petit_chelem": petit}
    trad = outcome_from_dict(trad_data, TRADITIONAL)
    assert trad.chelem == Chelem(petit_announced=True, petit_made=True)
    assert outcome_to_dict(trad)["petit_chelem"] == petit
    assert outcome_from_dict(outcome_to_dict(trad), TRADITIONAL) == trad


@pytest.mark.parametrize(
    ("extra", "code", "field"),
    [
        ({"chien": "neuf"}, "invalid_type", "chien"),
        ({"petit_chelem": True}, "invalid_type", "petit_chelem"),
        ({"petit_chelem": {"announced": "yes"}}, "invalid_type", "petit_chelem.announced"),
        ({"petit_chelem": {"made": 1}}, "invalid_type", "petit_chelem.made"),
        ({"petit_chelem": {"anounced": True}}, "unknown_field", "petit_chelem.anounced"),
    ],
)
def test_bad_shapes_of_the_new_fields(extra: dict[str, Any], code: str, field: str) -> None:
    data = {"players": 4, "contract": "garde", "oudlers": 2, "points": 46, **extra}
    with pytest.raises(RuleError) as error:
        outcome_from_dict(data, TRADITIONAL)
    assert (error.value.code, error.value.field) == (code, field)


# --------------------------------------------------------------------------- scoring cases


def _score(data: dict[str, Any], ruleset: Ruleset) -> tuple[int, int, int | None, int]:
    score = score_deal(outcome_from_dict(data, ruleset))
    return score.value, score.marks.taker, score.marks.partner, score.marks.defender


@pytest.mark.parametrize(
    ("ruleset", "data", "expected"),
    [
        # pousse, 2 oudlers, 51 points: won by 10, (25 + 10) x 2 = 70; x3: 105
        (TRADITIONAL, {"contract": "pousse", "points": 51}, (70, 210, None, -70)),
        (traditional(3), {"contract": "pousse", "points": 51}, (105, 315, None, -105)),
        # lost by 5 with the petit au bout to the defence: -(25 + 5) x 2 - 10 x 2 = -80
        (
            TRADITIONAL,
            {"contract": "pousse", "points": 36, "petit_au_bout": "defence", "oudlers": 1},
            None,
        ),
        # petit chelem announced and made: (25 + 49) x 2 + 300 = 448
        (
            TRADITIONAL,
            {"oudlers": 3, "points": 85, "petit_chelem": {"announced": True, "made": True}},
            (448, 1344, None, -448),
        ),
        # announced and failed: (25 + 19) x 2 - 150 = -62
        (
            TRADITIONAL,
            {"points": 60, "petit_chelem": {"announced": True, "made": False}},
            (-62, -186, None, 62),
        ),
        # made without being announced: no bonus
        (
            TRADITIONAL,
            {"oudlers": 3, "points": 85, "petit_chelem": {"announced": False, "made": True}},
            (148, 444, None, -148),
        ),
        # announced, the attack won every trick: made, (25 + 55) x 2 + 300 (not + 200) = 460
        (
            TRADITIONAL,
            {
                "oudlers": 3,
                "points": 91,
                "chelem": {"announced": False, "made_by": "attack"},
                "petit_chelem": {"announced": True},
            },
            (460, 1380, None, -460),
        ),
    ],
)
def test_traditional_worked_cases(
    ruleset: Ruleset, data: dict[str, Any], expected: tuple[int, int, int | None, int] | None
) -> None:
    full = {"players": 4, "contract": "garde", "oudlers": 2, **data}
    if expected is None:
        # 1 oudler needs 51: 36 is lost by 15: -(25 + 15) x 2 - 20 = -100
        expected = (-100, -300, None, 100)
    assert _score(full, ruleset) == expected


def test_flambeuse_marks_are_four_times_for_the_taker_alone() -> None:
    data = {"players": 5, "contract": "garde", "oudlers": 2, "points": 51}
    # won by 10: (25 + 10) x 2 = 70; the taker writes 4 x 70 against four defenders
    assert _score(data, FLAMBEUSE) == (70, 280, None, -70)
    assert _score({**data, "partner": False}, FLAMBEUSE) == (70, 280, None, -70)
    assert _code(outcome_from_dict, data, TRADITIONAL) == "missing_field"
    assert _code(score_deal, outcome_from_dict({**data, "partner": True}, FLAMBEUSE)) == (
        "partner_not_allowed"
    )
    # the called-King game still has its partner
    assert _score({**data, "partner": True}, TRADITIONAL) == (70, 140, 70, -70)


@pytest.mark.parametrize(
    ("sizes", "accepted"),
    [
        (["simple"], True),  # 10 trumps
        (["simple", "simple"], True),  # 20 of the 22
        (["triple"], True),  # 15
        (["simple", "double"], False),  # 23 > 22
    ],
)
def test_house_poignees_at_three_players_scoring(sizes: list[str], accepted: bool) -> None:
    poignees = [{"side": "defence" if i else "attack", "size": s} for i, s in enumerate(sizes)]
    data = {"players": 3, "contract": "garde", "oudlers": 2, "points": 51, "poignees": poignees}
    outcome = outcome_from_dict(data, HOUSE)
    if accepted:
        bonus = sum({"simple": 20, "double": 30, "triple": 40}[s] for s in sizes)
        assert score_deal(outcome).value == (25 + 10) * 2 + bonus
    else:
        assert _code(validate_outcome, outcome) == "poignees_exceed_trumps"
    # the FFT's 3-player simple poignée needs 13 trumps: two of them would be 26
    if len(sizes) == 2:
        assert _code(validate_outcome, outcome_from_dict(data)) == "poignees_exceed_trumps"


def test_rulesets_refuse_what_they_do_not_have() -> None:
    base = {"players": 4, "contract": "garde", "oudlers": 2, "points": 60}
    petit = {**base, "petit_chelem": {"announced": True}}
    assert _code(score_deal, outcome_from_dict(petit)) == "petit_chelem_not_in_ruleset"
    assert _code(score_deal, outcome_from_dict(petit, HOUSE)) == "petit_chelem_not_in_ruleset"
    both = {**petit, "chelem": {"announced": True, "made_by": None}}
    assert _code(score_deal, outcome_from_dict(both, TRADITIONAL)) == (
        "chelem_announcements_conflict"
    )
    made_and_chelem = {
        **base,
        "oudlers": 3,
        "points": 91,
        "chelem": {"made_by": "attack"},
        "petit_chelem": {"made": True},
    }
    assert _code(score_deal, outcome_from_dict(made_and_chelem, TRADITIONAL)) == (
        "petit_chelem_inconsistent"
    )
    assert _code(score_deal, outcome_from_dict({**base, "chien": 10})) == "invalid_chien_size"
    assert _code(score_deal, outcome_from_dict({**base, "chien": 3}, HOUSE)) == (
        "invalid_chien_size"
    )
    assert _code(score_deal, Outcome(4, Contract.GARDE, 2, 120, ruleset="house")) == (  # type: ignore[arg-type]
        "invalid_type"
    )


def test_house_excuse_in_the_last_trick_leaves_whole_points_at_four_players() -> None:
    # FFT: the Excuse changing camp gives a half point; house: it stays with the trick's winner
    for chien in (2, 6, 10):
        house = feasible_points(4, Contract.GARDE, 1, None, None, HOUSE, chien)
        assert not any(points % 2 for points in set().union(*house.values()))
    fft = feasible_points(4, Contract.GARDE, 1, None, None)
    assert any(points % 2 for points in set().union(*fft.values()))
    data = {"players": 4, "contract": "garde", "oudlers": 2, "points": 60.5}
    assert score_deal(outcome_from_dict(data)).won
    assert _code(score_deal, outcome_from_dict(data, HOUSE)) == "points_not_whole"


def test_hand_derived_bounds_per_ruleset() -> None:
    # house, 4 players, chien of 10, Garde, 0 oudlers: at least one trick and the écart,
    # 14 cards of half a point (7); at most all but the defence's one trick: Petit, 21 and two
    # low cards, with its Excuse kept (9 + 9 + 2 + 8 = 28 half-points): 77.
    assert points_bounds(4, Contract.GARDE, 1, 0, None, None, HOUSE, 10) == (14, 154)
    # chien of 2: 4 + 2 cards at least
    assert points_bounds(4, Contract.GARDE, 1, 0, None, None, HOUSE, 2)[0] == 6  # type: ignore[index]
    # flambeuse: one trick of 5 and an écart of 8 (6.5); the defence's one trick of 5 holds
    # Petit, 21 and three low cards, its Excuse kept: 9 + 9 + 3 + 8 = 29, so 76.5 at most
    assert points_bounds(5, Contract.GARDE, 1, 0, None, None, FLAMBEUSE) == (13, 153)
    # petit chelem made at 4 players: the defence's one trick holds at most Petit, 21 and two
    # Kings (36) and its Excuse (8): 69 points at least for the attack without oudler
    made = feasible_points(4, Contract.GARDE, 1, None, None, TRADITIONAL, None, "made")
    assert (min(made[0]), max(made[0])) == (138, 154)
    # ... and a failed one leaves the attack at most 16 tricks: less than 138 is possible
    failed = feasible_points(4, Contract.GARDE, 1, None, None, TRADITIONAL, None, "failed")
    assert min(failed[0]) == 10 and max(failed[3]) < 182
    # a pousse is counted like a Prise (the écart for the attack)
    assert feasible_points(4, Contract.POUSSE, 1, None, None, TRADITIONAL) == feasible_points(
        4, Contract.PRISE, 1, None, None
    )


def test_duplicate_play_follows_the_fft_contracts() -> None:
    assert _code(check_duplicate_play, contract=Contract.POUSSE) == "contract_not_in_ruleset"
    check_duplicate_play(contract=Contract.GARDE)


def test_unknown_ruleset_names_are_refused() -> None:
    # a name alone is a stored value too: version 1 (issue 25); a new choice is the current one
    assert ruleset_from_dict("house") == house(version=1)
    assert ruleset_from_choice("house") == HOUSE
    assert _code(ruleset_from_dict, "chouette") == "unknown_ruleset"


# ------------------------------------------------------- the feasibility property per ruleset

SIDES: list[Side | None] = [None, Side.ATTACK, Side.DEFENCE]
# (id, ruleset, players, chien sizes (None: the default), partner values)
CONFIGS: list[tuple[str, Ruleset, int, tuple[int | None, ...], tuple[bool, ...]]] = [
    ("house-3", HOUSE, 3, (3, 9), (False,)),
    ("house-4", HOUSE, 4, (2, 10), (False,)),
    ("house-5", HOUSE, 5, (None,), (False, True)),
    ("traditional-4", TRADITIONAL, 4, (None,), (False,)),
    ("traditional-5", TRADITIONAL, 5, (None,), (False, True)),
    ("flambeuse-5", FLAMBEUSE, 5, (None,), (False,)),
    # version 2: Kings in the traditional écart; version 1 kept
    ("traditional-3", TRADITIONAL, 3, (None,), (False,)),
    ("traditional-v1-4", TRADITIONAL_V1, 4, (None,), (False,)),
    ("house-v1-4", HOUSE_V1, 4, (2, 10), (False,)),
]
PETITS: list[tuple[bool, bool]] = [(False, False), (False, True), (True, False), (True, True)]


def _accepted(outcome: Outcome) -> bool:
    try:
        validate_outcome(outcome)
    except RuleError:
        return False
    return True


def _petit_model(made_by: Side | None, announced: bool, made: bool) -> PetitChelem:
    if made_by is not None:
        return None
    return "made" if made else "failed" if announced else None


@pytest.mark.parametrize(
    ("ruleset", "players", "chiens", "partners"),
    [config[1:] for config in CONFIGS],
    ids=[config[0] for config in CONFIGS],
)
def test_validation_accepts_exactly_the_feasible_outcomes_per_ruleset(
    ruleset: Ruleset, players: int, chiens: tuple[int | None, ...], partners: tuple[bool, ...]
) -> None:
    """Every outcome of the space is accepted iff the exact model says some deal gives it.

    Contracts of the ruleset x petit au bout x chelem x (traditional) petit chelem x oudlers
    x points; the rules the model leaves aside are checked first (petit chelem and chelem
    together, a partner in the flambeuse).
    """
    accepted = refused = 0
    petits = PETITS if ruleset.petit_chelem else [(False, False)]
    # every petit au bout and chelem with the chien seen, unseen for the attack and for the
    # defence; the other contracts with neither
    full = {Contract.POUSSE, Contract.GARDE, Contract.GARDE_CONTRE}
    for contract in ruleset.contracts:
        sides = SIDES if contract in full else [None]
        for chien in chiens:
            for partner in partners:
                for petit in sides:
                    for made_by in sides:
                        for announced, made in petits:
                            if made and made_by is not None:
                                continue
                            chelem = Chelem(False, made_by, announced, made)
                            for oudlers in range(4):
                                for points_half in range(0, 183, 1):
                                    outcome = Outcome(
                                        players, contract, oudlers, points_half, petit, (),
                                        chelem, partner, ruleset, chien,
                                    )  # fmt: skip
                                    feasible = is_feasible(
                                        players, contract, 2 if partner else 1, oudlers,
                                        points_half, petit, made_by, ruleset, chien,
                                        _petit_model(made_by, announced, made),
                                    )  # fmt: skip
                                    assert _accepted(outcome) is feasible, outcome
                                    accepted += feasible
                                    refused += not feasible
    assert accepted and refused


# ------------------------------------------------------- real card distributions, per ruleset

REAL_CONFIGS: list[tuple[str, Ruleset, int, int | None, int, str | None]] = [
    # (id, ruleset, players, chien size, attack size, petit chelem)
    ("house-3-chien-3", HOUSE, 3, 3, 1, None),
    ("house-3-chien-9", HOUSE, 3, 9, 1, None),
    ("house-4-chien-2", HOUSE, 4, 2, 1, None),
    ("house-4-chien-10", HOUSE, 4, 10, 1, None),
    ("house-5-partner", HOUSE, 5, None, 2, None),
    ("flambeuse", FLAMBEUSE, 5, None, 1, None),
    ("petit-chelem-4", TRADITIONAL, 4, None, 1, "made"),
    ("petit-chelem-5", TRADITIONAL, 5, None, 2, "made"),
    ("petit-chelem-3", TRADITIONAL, 3, None, 1, "made"),
    ("traditional-4", TRADITIONAL, 4, None, 1, None),
    ("traditional-v1-4", TRADITIONAL_V1, 4, None, 1, None),
    ("house-v1-4-chien-10", HOUSE_V1, 4, 10, 1, None),
]


def _real_end_state(
    rng: random.Random,
    ruleset: Ruleset,
    players: int,
    chien_size: int,
    attack_size: int,
    contract: Contract,
    petit: str | None,
) -> tuple[int, int, Side | None]:
    """A random end of deal computed from real cards: (attack oudlers, half-points, petit au bout).

    The cards are shared into the chien (an écart without oudler, and without King but under
    the traditional rules of version 2, when the taker saw it) and ``T`` tricks; the attack
    wins ``t`` of them (every trick but one for a petit chelem); the Excuse, played by a
    random player, goes by the ruleset's rule.
    """
    tricks = ruleset.hand_size(players, chien_size)
    cards = [card for card in DECK if card is not EXCUSE]
    rng.shuffle(cards)
    if contract.taker_sees_chien:
        lows = [c for c in cards if (ruleset.ecart_kings or not c.is_king) and not c.is_oudler]
        chien = lows[:chien_size]
    else:
        chien = cards[:chien_size]
    rest = [c for c in cards if c not in chien]
    attack_tricks = tricks - 1 if petit == "made" else rng.randint(1, tricks - 1)
    winners = [Side.ATTACK] * attack_tricks + [Side.DEFENCE] * (tricks - attack_tricks)
    rng.shuffle(winners)
    excuse_trick = rng.randrange(tricks)
    sizes = {Side.ATTACK: attack_size, Side.DEFENCE: players - attack_size}
    winner = winners[excuse_trick]
    # the Excuse's owner: anybody but the trick's winner
    owners = [side for side in Side if side is not winner or sizes[side] >= 2]
    owner = rng.choice(owners)
    won: dict[Side, list[Any]] = {Side.ATTACK: [], Side.DEFENCE: []}
    position = 0
    for number, side in enumerate(winners):
        size = players - 1 if number == excuse_trick else players
        won[side].extend(rest[position : position + size])
        position += size
    assert position == len(rest)
    chien_side = Side.ATTACK if contract.chien_to_attack else Side.DEFENCE
    half = {side: sum(card.points_half for card in won[side]) for side in Side}
    half[chien_side] += sum(card.points_half for card in chien)
    holders = {side: sum(card.is_oudler for card in won[side]) for side in Side}
    holders[chien_side] += sum(card.is_oudler for card in chien)
    if excuse_trick == tricks - 1:
        # the last trick: the FFT's Excuse changes camp; the house's goes to the trick's winner
        taker_of_excuse = winner if ruleset.excuse_last_trick_to_winner else owner.other
        half[taker_of_excuse] += 9
        holders[taker_of_excuse] += 1
    elif winner is owner:
        half[owner] += 9
        holders[owner] += 1
    else:
        half[owner] += 8
        half[winner] += 1
        holders[owner] += 1
    assert half[Side.ATTACK] + half[Side.DEFENCE] == 182
    last = rest[position - players + (excuse_trick == tricks - 1) :]
    petit_au_bout = winners[-1] if PETIT in last else None
    return holders[Side.ATTACK], half[Side.ATTACK], petit_au_bout


@pytest.mark.parametrize(
    ("ruleset", "players", "chien", "attack_size", "petit"),
    [config[1:] for config in REAL_CONFIGS],
    ids=[config[0] for config in REAL_CONFIGS],
)
def test_real_card_distributions_are_feasible_and_accepted(
    ruleset: Ruleset, players: int, chien: int | None, attack_size: int, petit: str | None
) -> None:
    """Soundness of the model for every ruleset: an end of deal made of real cards is accepted."""
    rng = random.Random(f"{ruleset.name}:{players}:{chien}:{attack_size}")
    size = ruleset.default_chien_size(players) if chien is None else chien
    for number in range(150):
        contract = ruleset.contracts[number % len(ruleset.contracts)]
        oudlers, points_half, petit_au_bout = _real_end_state(
            rng, ruleset, players, size, attack_size, contract, petit
        )
        assert is_feasible(
            players, contract, attack_size, oudlers, points_half, petit_au_bout, None,
            ruleset, chien, petit,  # type: ignore[arg-type]
        ), (contract, oudlers, points_half, petit_au_bout)  # fmt: skip
        chelem = Chelem(petit_announced=petit is not None, petit_made=petit is not None)
        outcome = Outcome(
            players, contract, oudlers, points_half, petit_au_bout, (), chelem,
            attack_size == 2, ruleset, chien,
        )  # fmt: skip
        validate_outcome(outcome)

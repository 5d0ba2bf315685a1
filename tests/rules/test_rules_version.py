"""The texts' last corners (issue 25, points 5, 6 and 8): the traditional écart and 3-player
poignées, the house first player, the Excuse of the side losing every trick in the other side's
chelem, the traditional petit chelem on stacked deals, and the rules version that keeps the
scores of competitions stored before (version 1: the behaviour before these changes)."""

from __future__ import annotations

import pytest

from rules import RuleError, parse_cards, score_deal, validate_outcome
from rules.bidding import bidding_order
from rules.cards import DECK, EXCUSE, Card
from rules.deal import Deal, generate_deals
from rules.enums import Contract, PoigneeSize, Side
from rules.play import (
    PlayRecord,
    Trick,
    count_play,
    first_leader,
    outcome_from_play,
    validate_ecart,
)
from rules.ruleset import (
    FFT,
    HOUSE,
    RULES_VERSION,
    TRADITIONAL,
    fft,
    house,
    ruleset_from_choice,
    ruleset_from_dict,
    ruleset_to_dict,
    traditional,
)
from rules.scoring import outcome_from_dict

TRADITIONAL_V1 = traditional(version=1)
HOUSE_V1 = house(version=1)

# ------------------------------------------------------------------------ 8. the version


def test_a_stored_ruleset_without_a_version_is_version_1() -> None:
    stored = {"name": "traditional", "pousse_multiplier": 2, "flambeuse": False}
    ruleset = ruleset_from_dict(stored)
    assert ruleset.version == 1 and ruleset == TRADITIONAL_V1 and ruleset != TRADITIONAL
    assert ruleset_from_dict({"name": "house"}) == HOUSE_V1 != HOUSE
    assert ruleset_from_dict({"name": "fft"}).version == 1
    assert ruleset_from_dict({"name": "fft"}) == FFT  # the FFT's rules did not change
    assert ruleset_from_dict(None) == FFT


def test_new_competitions_store_the_current_version() -> None:
    assert RULES_VERSION == 2
    assert ruleset_to_dict(FFT) == {"name": "fft", "version": 2}
    assert ruleset_to_dict(HOUSE) == {"name": "house", "version": 2}
    assert ruleset_to_dict(TRADITIONAL) == {
        "name": "traditional",
        "pousse_multiplier": 2,
        "flambeuse": False,
        "version": 2,
    }
    assert ruleset_from_choice({"name": "house"}) == HOUSE
    assert ruleset_from_choice("traditional").version == 2
    for ruleset in (FFT, HOUSE, TRADITIONAL, TRADITIONAL_V1, HOUSE_V1, fft(1)):
        again = ruleset_from_dict(ruleset_to_dict(ruleset))
        assert again == ruleset and again.version == ruleset.version


@pytest.mark.parametrize("version", [0, 3, "2", True, None, 1.5])
def test_a_bad_version_is_refused(version: object) -> None:
    with pytest.raises(RuleError) as error:
        ruleset_from_dict({"name": "house", "version": version})
    assert (error.value.code, error.value.field) == ("invalid_ruleset_parameter", "version")


# ------------------------------------------------------------- 5. the traditional écart

# 4 players: 24 cards (hand and chien), 4 plain cards, 2 Kings and 18 trumps (no oudler).
ECART_CARDS = parse_cards("S1 S2 H1 H2 S14 H14 " + " ".join(f"T{rank}" for rank in range(2, 20)))


def test_traditional_ecart_kings_allowed_trumps_not() -> None:
    with_kings = parse_cards("S1 S2 H1 H2 S14 H14")
    with_trumps = parse_cards("S1 S2 H1 H2 T2 T3")
    validate_ecart(ECART_CARDS, with_kings, 4, 6, TRADITIONAL)
    with pytest.raises(RuleError) as error:
        validate_ecart(ECART_CARDS, with_trumps, 4, 6, TRADITIONAL)
    assert error.value.code == "ecart_trump_avoidable"
    # the FFT and version 1: no King, so the two trumps are unavoidable
    for ruleset in (FFT, TRADITIONAL_V1):
        validate_ecart(ECART_CARDS, with_trumps, 4, 6, ruleset)
        with pytest.raises(RuleError) as error:
            validate_ecart(ECART_CARDS, with_kings, 4, 6, ruleset)
        assert error.value.code == "ecart_forbidden_card"


def test_traditional_ecart_never_takes_an_oudler() -> None:
    cards = parse_cards("S1 S2 H1 H2 S14 T1 " + " ".join(f"T{rank}" for rank in range(2, 20)))
    with pytest.raises(RuleError) as error:
        validate_ecart(cards, parse_cards("S1 S2 H1 H2 S14 T1"), 4, 6, TRADITIONAL)
    assert error.value.code == "ecart_forbidden_card"


def test_kings_in_the_ecart_widen_the_exact_model() -> None:
    # Defence chelem in a Garde: the attack keeps only its écart; four Kings and two Queens
    # (25 points) only under the traditional rules of version 2 (FFT: at most 6 Queens... 21).
    outcome = {
        "players": 4,
        "contract": "garde",
        "oudlers": 0,
        "points": 25,
        "chelem": {"announced": False, "made_by": "defence"},
    }
    validate_outcome(outcome_from_dict(outcome, TRADITIONAL))
    for ruleset in (FFT, TRADITIONAL_V1):
        with pytest.raises(RuleError):
            validate_outcome(outcome_from_dict(outcome, ruleset))


# --------------------------------------------------- 5. 3-player poignées (traditional)


def test_traditional_three_player_poignees_are_those_of_four() -> None:
    assert [TRADITIONAL.poignee_threshold(3, size) for size in PoigneeSize] == [10, 13, 15]
    assert [TRADITIONAL_V1.poignee_threshold(3, size) for size in PoigneeSize] == [13, 15, 18]
    two = {
        "players": 3,
        "contract": "garde",
        "oudlers": 2,
        "points": 50,
        "poignees": [{"side": "attack", "size": "simple"}, {"side": "defence", "size": "simple"}],
    }
    # 20 trumps shown; both poignées go to the winner
    assert score_deal(outcome_from_dict(two, TRADITIONAL)).value == (25 + 9) * 2 + 20 + 20
    with pytest.raises(RuleError) as error:  # 26 trumps under version 1
        score_deal(outcome_from_dict(two, TRADITIONAL_V1))
    assert error.value.code == "poignees_exceed_trumps"


# --------------------------------------------------------- 5. the house first player


@pytest.mark.parametrize("players", [3, 4, 5])
def test_house_first_bidder_and_leader_on_the_dealers_left(players: int) -> None:
    for dealer in range(players):
        left = (dealer + 1) % players
        right = (dealer - 1) % players
        assert bidding_order(players, dealer, HOUSE)[0] == left
        assert bidding_order(players, dealer, HOUSE)[1] == dealer  # then counter-clockwise
        for ruleset in (FFT, TRADITIONAL, HOUSE_V1):
            assert bidding_order(players, dealer, ruleset)[0] == right
        deal = generate_deals(players, 1, "first", dealer=dealer, ruleset=HOUSE)[0]
        record = PlayRecord(deal=deal, taker=0, contract=Contract.GARDE, tricks=(), ruleset=HOUSE)
        assert first_leader(record) == left
        assert first_leader(PlayRecord(deal, 0, Contract.GARDE, (), ruleset=HOUSE_V1)) == right


# ------------------------------------ 5. the Excuse of the side losing every trick, last


def scripted(ruleset: object, tricks: list[tuple[int, str]]) -> PlayRecord:
    """Seat 0 takes a Garde contre at 4 players (only the tricks count)."""
    deal = generate_deals(4, 1, "excuse-chelem")[0]
    return PlayRecord(
        deal=deal,
        taker=0,
        contract=Contract.GARDE_CONTRE,
        tricks=tuple(Trick(leader, parse_cards(cards)) for leader, cards in tricks),
        ruleset=ruleset,  # type: ignore[arg-type]
    )


def test_the_defence_excuse_in_the_last_trick_of_an_attack_chelem() -> None:
    # the Excuse is the 4th card from leader 0: seat 1, a defender
    tricks = [(0, "S14 S2 S3 S4"), (0, "H14 H2 H3 EX")]
    for ruleset in (FFT, TRADITIONAL_V1, HOUSE_V1):  # its owner keeps it (exchange)
        count = count_play(scripted(ruleset, tricks))
        assert count.chelem_made_by is Side.ATTACK
        assert (count.attack_half, count.attack_oudlers) == (12 + 11 + 1, 0)
    for ruleset in (TRADITIONAL, HOUSE):  # it goes to the chelem side
        count = count_play(scripted(ruleset, tricks))
        assert count.chelem_made_by is Side.ATTACK
        assert (count.attack_half, count.attack_oudlers) == (12 + 11 + 9, 1)


def test_the_attack_excuse_in_the_last_trick_of_a_defence_chelem() -> None:
    # the Excuse is the 4th card from leader 3: seat 0, the taker
    tricks = [(0, "S2 S14 S3 S4"), (3, "H14 H2 H3 EX")]
    assert (count_play(scripted(FFT, tricks)).attack_half, 8) == (8, 8)
    for ruleset in (TRADITIONAL, HOUSE):
        count = count_play(scripted(ruleset, tricks))
        assert count.chelem_made_by is Side.DEFENCE
        assert (count.attack_half, count.attack_oudlers) == (0, 0)


def test_an_excuse_played_before_the_last_trick_of_a_chelem_is_kept() -> None:
    tricks = [(0, "S14 S2 S3 EX"), (0, "H14 H2 H3 H4")]
    for ruleset in (FFT, TRADITIONAL, HOUSE):
        count = count_play(scripted(ruleset, tricks))
        assert (count.attack_half, count.attack_oudlers) == (12 + 12 - 1 + 1, 0)


# --------------------------------------------------------- 6. the petit chelem, stacked


def stacked_petit_chelem(defence_tricks: int, announced: bool) -> PlayRecord:
    """A traditional Garde sans at 4 players: 18 tricks of one trump and three plain cards; the
    trump's seat wins; the defence (seat 3) wins the first ``defence_tricks``, the taker the
    rest. The chien holds the Petit, T2, T3, the Excuse and two low spades (the attack's)."""
    chien = parse_cards("T1 T2 T3 EX S1 S2")
    plain = [card for card in DECK if card.suit is not None and not card.is_trump]
    plain = [card for card in plain if card not in chien and card is not EXCUSE]
    trumps = [card for card in DECK if card.is_trump and card not in chien]
    assert len(plain) == 54 and len(trumps) == 18
    tricks: list[Trick] = []
    hands: list[list[Card]] = [[], [], [], []]
    for number in range(18):
        trump, others = trumps[number], plain[3 * number : 3 * number + 3]
        # leader 0: positions 0, 1, 2, 3 are seats 0, 3, 2, 1
        position = 1 if number < defence_tricks else 0
        cards = list(others)
        cards.insert(position, trump)
        tricks.append(Trick(0, tuple(cards)))
        for index, card in enumerate(cards):
            hands[(0 - index) % 4].append(card)
    deal = Deal(4, tuple(tuple(hand) for hand in hands), chien, 0)
    return PlayRecord(
        deal=deal,
        taker=0,
        contract=Contract.GARDE_SANS,
        tricks=tuple(tricks),
        ruleset=TRADITIONAL,
        petit_chelem_announced=announced,
    )


@pytest.mark.parametrize(
    ("defence_tricks", "announced", "made", "bonus"),
    [
        (1, True, True, 300),  # announced and made
        (2, True, False, -150),  # announced and failed
        (1, False, True, 0),  # made without being announced: no bonus
        (0, True, False, 300),  # announced, and the attack won every trick: made
        (3, False, False, 0),
    ],
)
def test_petit_chelem_on_stacked_deals(
    defence_tricks: int, announced: bool, made: bool, bonus: int
) -> None:
    record = stacked_petit_chelem(defence_tricks, announced)
    count = count_play(record)
    assert sum(1 for winner in count.trick_winners if winner != 0) == defence_tricks
    outcome = outcome_from_play(record, validate=False)
    assert outcome.chelem.petit_announced is announced
    assert outcome.chelem.petit_made is made
    validate_outcome(outcome)
    plain = score_deal(outcome_from_play(record.__class__(**{
        **{name: getattr(record, name) for name in record.__dataclass_fields__},
        "ruleset": TRADITIONAL, "petit_chelem_announced": False,
    }), validate=False))  # fmt: skip
    score = score_deal(outcome)
    expected_base = plain.value - (200 if defence_tricks == 0 else 0)
    assert score.value == expected_base + bonus

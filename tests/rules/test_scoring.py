"""Deal scoring: the public examples, every consistency rule, parsing, zero-sum marks."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    Chelem,
    Contract,
    DealScore,
    Marks,
    Outcome,
    Poignee,
    PoigneeSize,
    RuleError,
    Side,
    outcome_from_dict,
    outcome_to_dict,
    score_deal,
    seat_marks,
    validate_outcome,
)
from rules import scoring as scoring_module
from rules.feasibility import feasible_points
from rules.scoring import format_half_points

#: Worked deal outcomes with their expected scores: the contract of ``manage.py score_deal``
#: (docs/domain/tarot-scoring.md, "Worked examples").
CASES_FILE = Path(__file__).resolve().parent / "data" / "deal-scores.json"


def load_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]
    return cases


CASES = load_cases()


def test_the_example_file_has_cases() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_example_cases_reproduce_exactly(case: dict[str, Any]) -> None:
    outcome = outcome_from_dict(case["input"])
    assert score_deal(outcome).to_dict() == case["expected"]


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_outcome_dict_round_trip(case: dict[str, Any]) -> None:
    outcome = outcome_from_dict(case["input"])
    assert outcome_from_dict(outcome_to_dict(outcome)) == outcome


NO_CHELEM = Chelem(announced=False, made_by=None)
DEFENCE_CHELEM = Chelem(announced=False, made_by=Side.DEFENCE)

# The worked examples of docs/domain/tarot-scoring.md, written out independently of the JSON file:
# (players, contract, oudlers, points, poignees, chelem, partner, value, taker, partner mark,
# each defender).
WORKED_EXAMPLES = [
    (4, Contract.GARDE, 2, 46, (), NO_CHELEM, False, 60, 180, None, -60),
    (4, Contract.GARDE_SANS, 1, 48, (), NO_CHELEM, False, -112, -336, None, 112),
    (4, Contract.GARDE, 0, 56, (), NO_CHELEM, False, 50, 150, None, -50),
    (
        4,
        Contract.GARDE,
        2,
        43,
        (Poignee(Side.ATTACK, PoigneeSize.SIMPLE), Poignee(Side.DEFENCE, PoigneeSize.SIMPLE)),
        NO_CHELEM,
        False,
        94,
        282,
        None,
        -94,
    ),
    (4, Contract.GARDE_CONTRE, 0, 0, (), DEFENCE_CHELEM, False, -686, -2058, None, 686),
    (3, Contract.GARDE, 2, 40.5, (), NO_CHELEM, False, -52, -104, None, 52),
    (5, Contract.GARDE, 2, 50, (), NO_CHELEM, True, 68, 136, 68, -68),
    (5, Contract.GARDE, 1, 45, (), NO_CHELEM, False, -62, -248, None, 62),
]


@pytest.mark.parametrize("example", WORKED_EXAMPLES, ids=[f"ex{i + 1}" for i in range(8)])
def test_worked_examples_of_the_rules(example: tuple[Any, ...]) -> None:
    players, contract, oudlers, points, poignees, chelem, partner, value, taker, mate, defender = (
        example
    )
    outcome = Outcome(
        players=players,
        contract=contract,
        oudlers=oudlers,
        points_half=int(points * 2),
        petit_au_bout=None,
        poignees=poignees,
        chelem=chelem,
        partner=partner,
    )
    score = score_deal(outcome)
    assert score.value == value
    assert score.marks == Marks(taker=taker, partner=mate, defender=defender)


def outcome(**overrides: Any) -> Outcome:
    values: dict[str, Any] = {
        "players": 4,
        "contract": Contract.GARDE,
        "oudlers": 2,
        "points_half": 92,
        "petit_au_bout": None,
        "poignees": (),
        "chelem": NO_CHELEM,
        "partner": False,
    }
    values.update(overrides)
    return Outcome(**values)


def test_half_point_rounds_in_favour_of_the_scoring_side() -> None:
    won = score_deal(outcome(players=3, points_half=83))  # 41.5 for 41
    lost = score_deal(outcome(players=3, points_half=81))  # 40.5 for 41
    assert (won.won, won.margin) == (True, 1)
    assert (lost.won, lost.margin) == (False, 1)
    assert score_deal(outcome(players=5, points_half=82)).margin == 0


def test_petit_au_bout_is_multiplied_and_follows_the_side_not_the_result() -> None:
    base = score_deal(outcome()).value  # garde, 46 for 41: 60
    assert score_deal(outcome(petit_au_bout=Side.ATTACK)).value == base + 20
    assert score_deal(outcome(petit_au_bout=Side.DEFENCE)).value == base - 20
    lost = score_deal(outcome(points_half=70, petit_au_bout=Side.ATTACK))
    assert lost.value == -(25 + 6) * 2 + 20


def test_poignees_go_to_the_winner_whoever_showed_them() -> None:
    attack_double = (Poignee(Side.ATTACK, PoigneeSize.DOUBLE),)
    assert score_deal(outcome(poignees=attack_double)).value == 60 + 30
    assert score_deal(outcome(points_half=70, poignees=attack_double)).value == -62 - 30


def test_chelem_bonuses() -> None:
    full = {"oudlers": 3, "points_half": 182}
    made_announced = score_deal(outcome(**full, chelem=Chelem(True, Side.ATTACK)))
    made_silent = score_deal(outcome(**full, chelem=Chelem(False, Side.ATTACK)))
    assert made_announced.value == (25 + 55) * 2 + 400
    assert made_silent.value == (25 + 55) * 2 + 200
    failed = score_deal(outcome(points_half=120, chelem=Chelem(True, None)))
    assert failed.value == (25 + 19) * 2 - 200
    both = outcome(
        contract=Contract.GARDE_CONTRE, oudlers=0, points_half=0, chelem=Chelem(True, Side.DEFENCE)
    )
    assert score_deal(both).value == -(25 + 56) * 6 - 400  # [convention]


def test_attack_chelem_with_the_defence_excuse_counts_87() -> None:
    assert score_deal(outcome(oudlers=2, points_half=174, chelem=Chelem(False, Side.ATTACK))).won
    with pytest.raises(RuleError) as err:
        validate_outcome(outcome(oudlers=2, points_half=172, chelem=Chelem(False, Side.ATTACK)))
    assert err.value.code == "chelem_inconsistent"


@pytest.mark.parametrize(
    ("overrides", "code", "field"),
    [
        ({"players": 6}, "unknown_player_count", "players"),
        ({"oudlers": 4}, "too_many_oudlers", "oudlers"),
        ({"oudlers": -1}, "oudlers_out_of_range", "oudlers"),
        ({"points_half": 190}, "points_out_of_range", "points"),
        ({"points_half": -2}, "points_out_of_range", "points"),
        (
            {"oudlers": 2, "points_half": 171, "chelem": Chelem(False, Side.ATTACK)},
            "points_not_whole",
            "points",
        ),
        # one refusal with the exact bound (issue 25): no separate "at most 79" check
        ({"oudlers": 2, "points_half": 14}, "points_impossible", "points"),
        ({"oudlers": 1, "points_half": 180}, "points_impossible", "points"),
        (
            {"oudlers": 3, "points_half": 150, "petit_au_bout": Side.DEFENCE},
            "petit_au_bout_impossible",
            "petit_au_bout",
        ),
        (
            {"oudlers": 0, "points_half": 60, "petit_au_bout": Side.ATTACK},
            "petit_au_bout_impossible",
            "petit_au_bout",
        ),
        (
            {
                "poignees": (
                    Poignee(Side.ATTACK, PoigneeSize.DOUBLE),
                    Poignee(Side.DEFENCE, PoigneeSize.DOUBLE),
                )
            },
            "poignees_exceed_trumps",
            "poignees",
        ),
        (
            {
                "poignees": (
                    Poignee(Side.ATTACK, PoigneeSize.SIMPLE),
                    Poignee(Side.DEFENCE, PoigneeSize.DOUBLE),
                )
            },
            "poignees_exceed_trumps",
            "poignees",
        ),
        (
            {
                "players": 5,
                "poignees": (
                    Poignee(Side.ATTACK, PoigneeSize.SIMPLE),
                    Poignee(Side.ATTACK, PoigneeSize.SIMPLE),
                ),
            },
            "too_many_poignees",
            "poignees",
        ),
        ({"partner": True}, "partner_not_allowed", "partner"),
        (
            {"points_half": 120, "chelem": Chelem(False, Side.ATTACK)},
            "chelem_inconsistent",
            "chelem",
        ),
        (
            {"oudlers": 1, "points_half": 80, "chelem": Chelem(False, Side.DEFENCE)},
            "chelem_inconsistent",
            "chelem",
        ),
        (
            {
                "oudlers": 3,
                "points_half": 182,
                "chelem": Chelem(False, Side.ATTACK),
                "petit_au_bout": Side.DEFENCE,
            },
            "petit_au_bout_impossible",
            "petit_au_bout",
        ),
        (
            {
                "contract": Contract.GARDE_CONTRE,
                "oudlers": 1,
                "points_half": 8,
                "chelem": Chelem(False, Side.DEFENCE),
                "petit_au_bout": Side.ATTACK,
            },
            "petit_au_bout_impossible",
            "petit_au_bout",
        ),
    ],
)
def test_inconsistent_outcomes_are_rejected(
    overrides: dict[str, Any], code: str, field: str
) -> None:
    with pytest.raises(RuleError) as err:
        score_deal(outcome(**overrides))
    assert err.value.code == code
    assert err.value.field == field
    assert err.value.message


def test_two_simple_poignees_fit_at_four_players() -> None:
    two = (Poignee(Side.ATTACK, PoigneeSize.SIMPLE), Poignee(Side.DEFENCE, PoigneeSize.SIMPLE))
    validate_outcome(outcome(poignees=two))


def test_defence_chelem_may_leave_the_attack_its_ecart_in_a_garde() -> None:
    validate_outcome(outcome(oudlers=1, points_half=30, chelem=Chelem(False, Side.DEFENCE)))
    # ... but the écart's 6 cards are the attack's: at least 3 points, never 0.
    with pytest.raises(RuleError) as error:
        validate_outcome(outcome(oudlers=0, points_half=0, chelem=Chelem(False, Side.DEFENCE)))
    assert error.value.code == "points_below_chien"


@pytest.mark.parametrize(
    ("contract", "points_half", "oudlers", "missing_side"),
    [
        (Contract.GARDE, 182, 3, Side.ATTACK),  # 91 points: the defence won no trick
        (Contract.GARDE_CONTRE, 0, 0, Side.DEFENCE),  # 0 points: the attack won no trick
    ],
)
def test_a_side_with_no_point_means_a_chelem_that_must_be_recorded(
    contract: Contract, points_half: int, oudlers: int, missing_side: Side
) -> None:
    with pytest.raises(RuleError) as error:
        validate_outcome(outcome(contract=contract, oudlers=oudlers, points_half=points_half))
    assert (error.value.code, error.value.field) == ("chelem_missing", "chelem")
    validate_outcome(
        outcome(contract=contract, oudlers=oudlers, points_half=points_half,
                chelem=Chelem(False, missing_side))
    )  # fmt: skip


def test_points_below_the_ecart_are_refused() -> None:
    with pytest.raises(RuleError) as error:
        validate_outcome(outcome(contract=Contract.GARDE_SANS, oudlers=0, points_half=4))
    assert error.value.code == "points_below_chien"


@pytest.mark.parametrize("points", ["1e999999999", "-1e999999999", "1e-999999999"])
def test_absurd_numbers_are_clear_errors_not_crashes(points: str) -> None:
    with pytest.raises(RuleError) as error:
        outcome_from_dict({**valid_input(), "points": points})
    assert error.value.field == "points"


def valid_input(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": 4,
        "contract": "garde",
        "oudlers": 2,
        "points": 46,
        "petit_au_bout": None,
        "poignees": [],
        "chelem": {"announced": False, "made_by": None},
    }
    data.update(overrides)
    return data


def test_parsing_accepts_numeric_strings_and_floats_and_defaults() -> None:
    assert outcome_from_dict(valid_input(points="40.5", players=3)).points_half == 81
    assert outcome_from_dict(valid_input(points=40.5, players=3)).points_half == 81
    minimal = {"players": 4, "contract": "prise", "oudlers": 1, "points": "51"}
    parsed = outcome_from_dict(minimal)
    assert parsed == Outcome(4, Contract.PRISE, 1, 102, None, (), NO_CHELEM, False)


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        (valid_input(contract="petite"), "unknown_contract", "contract"),
        (valid_input(contract=2), "unknown_contract", "contract"),
        (valid_input(points="forty"), "invalid_type", "points"),
        (valid_input(points=True), "invalid_type", "points"),
        (valid_input(points=None), "invalid_type", "points"),
        (valid_input(points="NaN"), "invalid_type", "points"),
        (valid_input(points=40.3), "points_not_half", "points"),
        (valid_input(oudlers="two"), "invalid_type", "oudlers"),
        (valid_input(oudlers=1.5), "invalid_type", "oudlers"),
        (valid_input(players=None), "invalid_type", "players"),
        (valid_input(petit_au_bout="north"), "unknown_side", "petit_au_bout"),
        (valid_input(poignees="simple"), "invalid_type", "poignees"),
        (valid_input(poignees=[{"side": "attack"}]), "missing_field", "poignees[0].size"),
        (
            valid_input(poignees=[{"side": "attack", "size": "quadruple"}]),
            "unknown_poignee_size",
            "poignees[0].size",
        ),
        (valid_input(poignees=["simple"]), "invalid_type", "poignees[0]"),
        (valid_input(chelem=True), "invalid_type", "chelem"),
        (valid_input(chelem={"announced": "yes"}), "invalid_type", "chelem.announced"),
        (valid_input(chelem={"made_by": "both"}), "unknown_side", "chelem.made_by"),
        (valid_input(partner="no"), "invalid_type", "partner"),
        (valid_input(pionts=46), "unknown_field", "pionts"),
        ({"players": 4, "contract": "garde", "oudlers": 2}, "missing_field", "points"),
    ],
)
def test_bad_input_shapes_name_their_field(data: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(RuleError) as err:
        outcome_from_dict(data)
    assert (err.value.code, err.value.field) == (code, field)


def test_rule_error_message_and_translation() -> None:
    with pytest.raises(RuleError) as err:
        score_deal(outcome_from_dict(valid_input(points=95)))
    error = err.value
    assert isinstance(error, ValueError)
    assert error.message == "95 is outside 0..91"
    assert str(error) == error.message
    assert error.params == {"points": "95"}
    assert error.template == "%(points)s is outside 0..91"
    french = {"%(points)s is outside 0..91": "%(points)s est hors de 0..91"}
    assert error.translated(lambda text: french.get(text, text)) == "95 est hors de 0..91"
    assert error.describe() == "[points_out_of_range] points: 95 is outside 0..91"


def test_seat_marks() -> None:
    four = score_deal(outcome())
    assert seat_marks(four, ["N", "E", "S", "W"], "E") == {"N": -60, "E": 180, "S": -60, "W": -60}
    five = score_deal(outcome(players=5, partner=True))
    marks = seat_marks(five, ["A", "B", "C", "D", "E"], "A", partner_seat="C")
    assert marks == {"A": 120, "B": -60, "C": 60, "D": -60, "E": -60}
    with pytest.raises(RuleError) as err:
        seat_marks(four, ["N", "E", "S"], "N")
    assert err.value.code == "seats_mismatch"
    with pytest.raises(RuleError):
        seat_marks(four, ["N", "E", "S", "W"], "X")
    with pytest.raises(RuleError):
        seat_marks(four, ["N", "E", "S", "W"], "N", partner_seat="S")
    with pytest.raises(RuleError):
        seat_marks(five, ["A", "B", "C", "D", "E"], "A")


def test_deal_score_to_dict() -> None:
    score = DealScore(won=True, margin=5, value=60, marks=Marks(180, None, -60))
    assert score.to_dict() == {
        "won": True,
        "margin": 5,
        "value": 60,
        "marks": {"taker": 180, "partner": None, "defender": -60},
    }


@st.composite
def valid_outcomes(draw: st.DrawFn) -> Outcome:
    players = draw(st.sampled_from([3, 4, 5]))
    contract = draw(st.sampled_from(list(Contract)))
    partner = players == 5 and draw(st.booleans())
    petit = draw(st.sampled_from([None, Side.ATTACK, Side.DEFENCE]))
    made = draw(st.sampled_from([None, None, None, Side.ATTACK, Side.DEFENCE]))
    if petit is not None and made is petit.other:
        petit = None
    # Points drawn from what real cards allow (rules.feasibility), for the oudlers drawn.
    sets = feasible_points(players, contract, 2 if partner else 1, petit, made)
    oudlers = draw(st.sampled_from([count for count in range(4) if sets[count]]))
    points_half = draw(st.sampled_from(sorted(sets[oudlers])))
    poignees: list[Poignee] = []
    shown = 0
    for _ in range(draw(st.integers(0, 2))):
        size = draw(st.sampled_from(list(PoigneeSize)))
        side = draw(st.sampled_from([Side.ATTACK, Side.DEFENCE]))
        attackers = 2 if partner else 1
        already = sum(1 for p in poignees if p.side is side)
        room = attackers if side is Side.ATTACK else players - attackers
        if shown + size.threshold(players) <= 22 and already < room:
            poignees.append(Poignee(side, size))
            shown += size.threshold(players)
    chelem = Chelem(announced=draw(st.booleans()), made_by=made)
    return Outcome(players, contract, oudlers, points_half, petit, tuple(poignees), chelem, partner)


@settings(max_examples=400, deadline=None)
@given(valid_outcomes())
def test_marks_at_a_table_always_sum_to_zero(outcome: Outcome) -> None:
    score = score_deal(outcome)
    seats = [f"seat{i}" for i in range(outcome.players)]
    partner_seat = seats[1] if score.marks.partner is not None else None
    marks = seat_marks(score, seats, seats[0], partner_seat)
    assert sum(marks.values()) == 0
    assert score.won == (outcome.points_half >= {0: 112, 1: 102, 2: 82, 3: 72}[outcome.oudlers])
    assert outcome_from_dict(outcome_to_dict(outcome)) == outcome


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"players": "4"}, "players"),
        ({"points_half": 92.0}, "points"),
        ({"oudlers": True}, "oudlers"),
        ({"petit_au_bout": "attack"}, "petit_au_bout"),
        ({"poignees": (("attack", "simple"),)}, "poignees[0]"),
        ({"chelem": None}, "chelem"),
        ({"partner": 1}, "partner"),
    ],
)
def test_outcomes_built_in_code_are_type_checked(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleError) as err:
        validate_outcome(outcome(**overrides))
    assert (err.value.code, err.value.field) == ("invalid_type", field)


def test_enum_labels_and_multipliers() -> None:
    assert [c.label for c in Contract] == ["Prise", "Garde", "Garde sans", "Garde contre"]
    assert [c.multiplier for c in Contract] == [1, 2, 4, 6]
    assert [p.bonus for p in PoigneeSize] == [20, 30, 40]
    assert Side.ATTACK.other is Side.DEFENCE and Side.DEFENCE.label == "defence"


def test_side_names_in_messages_are_translated_with_the_message() -> None:
    catalogue = {
        "the %(side)s has no point at all, so the %(other)s won every trick: record its chelem": (
            "le camp %(side)s n'a aucun point : le camp %(other)s a donc remporté tous les plis"
        ),
        "attack": "attaque",
        "defence": "défense",
    }
    with pytest.raises(RuleError) as error:
        validate_outcome(outcome(contract=Contract.GARDE_CONTRE, oudlers=0, points_half=0))
    text = error.value.translated(lambda message: catalogue.get(message, message))
    assert text.startswith("le camp attaque n'a aucun point : le camp défense")


# ------------------------------------------------------------- one language per message (#12)

FRENCH_PLURALS = {
    ("%(number)s oudler", "%(number)s oudlers"): ("%(number)s bout", "%(number)s bouts"),
    ("%(number)s point", "%(number)s points"): ("%(number)s point", "%(number)s points"),
    ("%(number)s player", "%(number)s players"): ("%(number)s joueur", "%(number)s joueurs"),
}
FRENCH = {
    "with %(oudlers)s in %(contract)s at %(players)s, the attack's cards are worth from "
    "%(minimum)s to %(maximum)s, not %(points)s": (
        "avec %(oudlers)s en %(contract)s à %(players)s, les cartes de l'attaque valent de "
        "%(minimum)s à %(maximum)s, pas %(points)s"
    ),
    "expected a whole number, got %(value)s": "nombre entier attendu, reçu %(value)s",
}


def french_gettext(message: str) -> str:
    return FRENCH.get(message, message)


def french_ngettext(singular: str, plural: str, count: int) -> str:
    forms = FRENCH_PLURALS[singular, plural]
    return forms[1] if count > 1 else forms[0]  # French: plural=(n > 1)


# Too few or too many points for the oudlers: one refusal, the exact model's bounds (#25).
@pytest.mark.parametrize(
    ("oudlers", "points_half", "english", "french"),
    [
        (0, 170, "with 0 oudlers in Garde at 3 players, the attack's cards are worth from 4.5 "
                 "to 77.5 points, not 85",
         "avec 0 bout en Garde à 3 joueurs, les cartes de l'attaque valent de 4.5 à 77.5 "
         "points, pas 85"),
        (1, 6, "with 1 oudler in Garde at 3 players, the attack's cards are worth from 8.5 "
               "to 81.5 points, not 3",
         "avec 1 bout en Garde à 3 joueurs, les cartes de l'attaque valent de 8.5 à 81.5 "
         "points, pas 3"),
        (2, 20, "with 2 oudlers in Garde at 3 players, the attack's cards are worth from 12.5 "
                "to 86 points, not 10",
         "avec 2 bouts en Garde à 3 joueurs, les cartes de l'attaque valent de 12.5 à 86 "
         "points, pas 10"),
    ],
)  # fmt: skip
def test_counts_take_the_plural_of_each_language(
    oudlers: int, points_half: int, english: str, french: str
) -> None:
    with pytest.raises(RuleError) as error:
        validate_outcome(outcome(players=3, oudlers=oudlers, points_half=points_half))
    assert error.value.code == "points_impossible"
    assert error.value.message == english
    assert error.value.translated(french_gettext, french_ngettext) == french
    params = error.value.to_dict()["params"]
    assert (params["oudlers"], params["points"]) == (oudlers, format_half_points(points_half))


def test_translated_finds_ngettext_next_to_gettext(monkeypatch: pytest.MonkeyPatch) -> None:
    """``translated(gettext)`` alone (as Django callers do) still translates the plurals."""
    module = types.ModuleType("fake_translation")
    module.gettext = french_gettext  # type: ignore[attr-defined]
    module.ngettext = french_ngettext  # type: ignore[attr-defined]

    def gettext(message: str) -> str:
        return french_gettext(message)

    gettext.__module__ = "fake_translation"
    monkeypatch.setitem(sys.modules, "fake_translation", module)
    with pytest.raises(RuleError) as error:
        validate_outcome(outcome(players=3, oudlers=1, points_half=6))
    assert error.value.translated(gettext).startswith("avec 1 bout en Garde à 3 joueurs")


def test_type_errors_are_one_sentence_each() -> None:
    with pytest.raises(RuleError) as error:
        outcome_from_dict({"players": "four", "contract": "garde", "oudlers": 1, "points": 50})
    assert error.value.template == "expected a whole number, got %(value)s"
    assert error.value.translated(french_gettext, french_ngettext) == (
        "nombre entier attendu, reçu 'four'"
    )
    source = Path(scoring_module.__file__).read_text(encoding="utf-8")
    assert "%(expected)s" not in source

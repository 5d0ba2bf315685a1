"""Strict outcome input (issue 25, points 1-4): unknown keys refused everywhere, absurd numbers
are rule errors, one refusal with the exact bound, messages in one language."""

from __future__ import annotations

from typing import Any

import pytest

from rules import RuleError, outcome_from_dict, score_deal
from rules.enums import Contract
from rules.ruleset import FFT, HOUSE

FRENCH = {
    "FFT rules": "Règles FFT",
    "House rules": "Règles maison",
    "Garde sans": "Garde sans",
    "Garde contre": "Garde contre",
    "oudlers": "bouts",
    "poignée %(number)s": "poignée %(number)s",
    "size": "taille",
    "chelem": "chelem",
    "made by": "réalisé par",
    "petit au bout": "petit au bout",
}


def french(text: str) -> str:
    return FRENCH.get(text, text)


def garde(**overrides: Any) -> dict[str, Any]:
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


# ------------------------------------------------------------------------- 1. unknown keys


@pytest.mark.parametrize(
    ("data", "field", "key"),
    [
        (
            garde(chelem={"announced": False, "made_by": None, "annouced": True}),
            "chelem.annouced",
            "annouced",
        ),
        (
            garde(poignees=[{"side": "attack", "size": "simple", "sise": "double"}]),
            "poignees[0].sise",
            "sise",
        ),
        (
            garde(
                poignees=[
                    {"side": "attack", "size": "simple"},
                    {"side": "defence", "size": "simple", "shown_by": "N"},
                ]
            ),
            "poignees[1].shown_by",
            "shown_by",
        ),
        (garde(colour="red"), "colour", "colour"),
    ],
)
def test_unknown_keys_are_refused_everywhere_naming_the_key(
    data: dict[str, Any], field: str, key: str
) -> None:
    with pytest.raises(RuleError) as error:
        outcome_from_dict(data)
    assert (error.value.code, error.value.field) == ("unknown_field", field)
    assert key in error.value.message


def test_a_misspelt_announcement_is_no_longer_scored_silently() -> None:
    data = {
        "players": 4,
        "contract": "garde",
        "oudlers": 2,
        "points": 51,
        "chelem": {"announced": False, "made_by": None, "annouced": True},
    }
    with pytest.raises(RuleError):
        score_deal(outcome_from_dict(data))
    assert score_deal(outcome_from_dict({**data, "chelem": None})).value == 70


def test_stored_outcomes_written_before_still_load() -> None:
    # Data stored before the nested keys were checked is read with strict=False, as it was.
    legacy = garde(
        chelem={"announced": False, "made_by": None, "note": "x"},
        poignees=[{"side": "attack", "size": "simple", "seat": "N"}],
    )
    outcome = outcome_from_dict(legacy, strict=False)
    assert score_deal(outcome).value == (25 + 5) * 2 + 20
    assert outcome == outcome_from_dict(garde(poignees=[{"side": "attack", "size": "simple"}]))


# ------------------------------------------------------------------------- 2. huge numbers


BIG = 10**4999


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"points": BIG}, "points"),
        ({"points": -BIG}, "points"),
        ({"points": "9" * 5000}, "points"),
        ({"oudlers": BIG}, "oudlers"),
        ({"oudlers": "9" * 5000}, "oudlers"),
        ({"players": BIG}, "players"),
        ({"chien": BIG}, "chien"),
        ({"contract": BIG}, "contract"),
        ({"petit_au_bout": BIG}, "petit_au_bout"),
        ({"chelem": {"announced": BIG, "made_by": None}}, "chelem.announced"),
    ],
)
def test_a_five_thousand_digit_number_is_a_rule_error(
    overrides: dict[str, Any], field: str
) -> None:
    with pytest.raises(RuleError) as error:
        score_deal(outcome_from_dict(garde(**overrides), HOUSE))
    assert error.value.field == field
    assert len(error.value.message) < 300
    assert error.value.translated(french)


# ------------------------------------------------------------------- 3. one exact bound


@pytest.mark.parametrize("points", [78, 79, 90])
def test_one_refusal_with_the_exact_bound(points: int) -> None:
    # Garde at 4 players with 0 bouts: the exact model allows at most 77 points.
    with pytest.raises(RuleError) as error:
        score_deal(outcome_from_dict(garde(oudlers=0, points=points)))
    assert error.value.code == "points_impossible"
    assert "77" in error.value.message and "79" not in error.value.message.replace(
        f"not {points}", ""
    )
    assert error.value.message.endswith(f"not {points}")


def test_the_exact_bound_depends_on_the_contract_and_the_attack() -> None:
    # Garde contre at 4 players, 0 bouts: the defence keeps the chien too.
    with pytest.raises(RuleError) as error:
        score_deal(outcome_from_dict(garde(contract="garde_contre", oudlers=0, points=85)))
    assert error.value.code == "points_impossible"
    # 5 players, taker alone (attack of 1) or with a partner (2): distinct bounds.
    alone = garde(players=5, oudlers=0, points=90, partner=False)
    with_partner = garde(players=5, oudlers=0, points=90, partner=True)
    for data in (alone, with_partner):
        with pytest.raises(RuleError) as error:
            score_deal(outcome_from_dict(data))
        assert error.value.code == "points_impossible"
        assert error.value.message.endswith("not 90")


def test_too_few_points_for_the_oudlers_is_the_same_refusal() -> None:
    with pytest.raises(RuleError) as error:
        score_deal(outcome_from_dict(garde(oudlers=2, points=7)))
    assert error.value.code == "points_impossible"


# ------------------------------------------------------------- 4. one language per message


def test_the_ruleset_refusal_names_the_contracts_by_their_labels() -> None:
    with pytest.raises(RuleError) as error:
        FFT.check_contract(Contract.POUSSE)
    assert error.value.message == (
        "Pousse is not played under these rules (FFT rules: Prise, Garde, Garde sans, "
        "Garde contre)."
    )
    translated = error.value.translated(french)
    assert "Règles FFT" in translated and "garde_sans" not in translated
    assert "FFT rules" not in translated
    assert error.value.to_dict()["params"]["choices_words"] == [
        "Prise",
        "Garde",
        "Garde sans",
        "Garde contre",
    ]


def test_the_chien_and_petit_chelem_refusals_name_the_ruleset_translated() -> None:
    with pytest.raises(RuleError) as error:
        FFT.check_chien_size(4, 9)
    assert "Règles FFT" in error.value.translated(french)
    with pytest.raises(RuleError) as error:
        score_deal(outcome_from_dict(garde(petit_chelem={"announced": True, "made": False})))
    assert "Règles FFT" in error.value.translated(french)


@pytest.mark.parametrize(
    ("field", "english", "translated"),
    [
        ("oudlers", "oudlers", "bouts"),
        ("poignees[1].size", "poignée 2, size", "poignée 2, taille"),
        ("chelem.made_by", "chelem, made by", "chelem, réalisé par"),
        ("petit_au_bout", "petit au bout", "petit au bout"),
        ("colour", "colour", "colour"),
    ],
)
def test_field_labels(field: str, english: str, translated: str) -> None:
    from rules.errors import field_label

    assert field_label(field) == english
    assert field_label(field, french) == translated

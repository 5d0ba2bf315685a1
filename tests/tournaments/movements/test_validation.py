"""The validator: every hard check catches its hand-broken movement, bad input never raises."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tournaments.movements import (
    SCHEMA,
    generate_individual,
    generate_quadrette,
    generate_triplette,
    validate,
)


@pytest.fixture(scope="module")
def line7() -> dict[str, Any]:
    return generate_individual(tables=7)


def broken(doc: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(doc)


def codes(doc: object) -> set[tuple[int, str]]:
    return {(v.check, v.code) for v in validate(doc).errors}


def test_generated_document_is_ok_and_json_round_trips(line7: dict[str, Any]) -> None:
    report = validate(json.loads(json.dumps(line7)))
    assert report.ok and report.errors == []
    assert report.to_dict()["ok"] is True
    assert "Movement OK" in report.format_text()


def test_the_document_has_the_specified_shape(line7: dict[str, Any]) -> None:
    assert list(line7)[:10] == [
        "schema",
        "format",
        "kind",
        "tables",
        "rounds",
        "seats",
        "deal_sets",
        "copies",
        "entrants",
        "schedule",
    ]
    assert line7["schema"] == SCHEMA
    assert line7["entrants"][0] == {"id": 1, "line": "N", "team": None, "phantom": False}
    first = line7["schedule"][0]
    assert set(first) == {"round", "tables", "byes"}
    assert first["tables"][0] == {
        "table": 1,
        "seats": {"N": 1, "E": 8, "S": 15, "W": 22},
        "deal_set": 1,
        "copy": 1,
    }


@pytest.mark.parametrize(
    "document",
    [None, [], "text", 3, {"schema": SCHEMA}, {"schema": "other/1"}],
)
def test_ill_formed_input_is_a_check_1_violation(document: object) -> None:
    report = validate(document)
    assert not report.ok and report.checks_failed() == {1}


def test_shape_errors(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    del doc["schedule"][2]["tables"][3]
    assert (1, "table_numbers") in codes(doc)
    doc = broken(line7)
    doc["schedule"][0]["tables"][0]["seats"].pop("W")
    assert (1, "table_seats") in codes(doc)
    doc = broken(line7)
    doc["schedule"][0]["tables"][0]["deal_set"] = 99
    assert (1, "deal_set_range") in codes(doc)
    doc = broken(line7)
    doc["rounds"] = 9
    assert (1, "round_count") in codes(doc)
    doc = broken(line7)
    doc["seats"] = ["N", "S", "E", "W"]
    assert (1, "seats") in codes(doc)
    doc = broken(line7)
    doc["entrants"][3]["id"] = 99
    assert (1, "entrants") in codes(doc)


@pytest.mark.parametrize("key", ["tables", "rounds", "deal_sets", "copies"])
@pytest.mark.parametrize("count", [10**29, 10**9, 10_001])
def test_header_counts_beyond_the_limit_are_refused_not_built(
    line7: dict[str, Any], key: str, count: int
) -> None:
    doc = broken(line7)
    doc[key] = count
    report = validate(doc)
    assert (1, "header") in {(v.check, v.code) for v in report.errors}
    assert any(f"{key} must be at most 10000" in v.message for v in report.errors)


def test_missing_entrant_is_check_2(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    doc["entrants"].append({"id": 29, "line": "N", "team": None, "phantom": False})
    assert (2, "missing") in codes(doc)


def test_double_booking_is_check_2(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    doc["schedule"][1]["byes"] = [5]  # entrant 5 is also seated
    assert (2, "double_booking") in codes(doc)
    doc = broken(line7)
    doc["schedule"][1]["byes"] = [77]
    assert (2, "unknown_entrant") in codes(doc)


def test_same_etui_at_two_tables_is_check_3(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    doc["schedule"][0]["tables"][1]["deal_set"] = doc["schedule"][0]["tables"][0]["deal_set"]
    assert (3, "etui_clash") in codes(doc)


def test_replayed_deal_set_is_check_4(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    # Give round 2's table 1 the deal set its N player (1, who stays) played in round 1.
    tables = doc["schedule"][1]["tables"]
    other = next(t for t in tables if t["deal_set"] == 1)
    other["deal_set"], tables[0]["deal_set"] = tables[0]["deal_set"], 1
    errors = validate(doc).errors
    assert any(v.check == 4 and v.code == "replay" and "entrant 1 " in v.message for v in errors)
    assert "rounds 1 and 2" in next(v.message for v in errors if v.check == 4)


def test_broken_line_is_check_5(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    seats = doc["schedule"][3]["tables"][2]["seats"]
    seats["N"], seats["E"] = seats["E"], seats["N"]
    assert (5, "line_broken") in codes(doc)
    doc = broken(line7)
    doc["entrants"][0]["line"] = None
    assert (5, "line_missing") in codes(doc)


def test_repeated_meeting_is_check_6(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    # Seat round 2 exactly like round 1 (with the deal sets of round 2): every pair meets twice.
    for mine, model in zip(doc["schedule"][1]["tables"], doc["schedule"][0]["tables"], strict=True):
        mine["seats"] = dict(model["seats"])
    found = codes(doc)
    assert (6, "meeting") in found


def test_max_meetings_default_and_override(line7: dict[str, Any]) -> None:
    howell = generate_individual(tables=3)
    assert validate(howell).metrics["max_meetings"] == 2
    undeclared = broken(howell)
    del undeclared["max_meetings"]
    assert validate(undeclared).metrics["max_meetings"] == 2
    assert (6, "meeting") in {(v.check, v.code) for v in validate(howell, max_meetings=1).errors}
    relaxed = broken(line7)
    relaxed["max_meetings"] = 3
    assert any(w.code == "max_meetings_relaxed" for w in validate(relaxed).warnings)


def test_single_holder_hand_is_check_7(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    doc["schedule"] = doc["schedule"][:1]
    doc["rounds"] = 1
    assert (7, "comparability") in codes(doc)


def test_team_checks_6_and_8() -> None:
    trip = generate_triplette(teams=8)
    doc = broken(trip)
    seats = doc["schedule"][0]["tables"][0]["seats"]
    seats["E"], doc["schedule"][0]["tables"][1]["seats"]["E"] = (
        doc["schedule"][0]["tables"][1]["seats"]["E"],
        seats["E"],
    )
    assert (8, "pool_defenders") in codes(doc)
    doc = broken(trip)
    seats = doc["schedule"][0]["tables"][0]["seats"]
    # Put a teammate of the taker among the defenders.
    taker = seats["N"]
    mate = next(t["seats"]["N"] for t in doc["schedule"][0]["tables"][1:2])
    assert {e["team"] for e in doc["entrants"] if e["id"] in (taker, mate)} == {1}
    seats["E"], doc["schedule"][0]["tables"][1]["seats"]["N"] = mate, seats["E"]
    assert (6, "teammates") in codes(doc)
    quad = generate_quadrette(teams=4)
    doc = broken(quad)
    # Make table 2 play another deal set than its mirror table 1.
    doc["deal_sets"] = 4
    doc["schedule"][0]["tables"][1]["deal_set"] = 4
    assert (8, "match_unpaired") in codes(doc)
    doc = broken(quad)
    del doc["taker_seat"]
    assert (8, "taker_seat") in codes(doc)


def test_report_names_check_and_code_in_text(line7: dict[str, Any]) -> None:
    doc = broken(line7)
    doc["schedule"][1]["byes"] = [5]
    text = validate(doc).format_text()
    assert "REFUSED" in text and "check 2 [double_booking]" in text


def test_quality_report_metrics(line7: dict[str, Any]) -> None:
    metrics = validate(line7).metrics
    # 6 pairs of lines × 7 × 7 players meet once; the 4 × C(7, 2) same-line pairs never.
    assert metrics["meeting_histogram"] == {"0": 4 * 21, "1": 6 * 49}
    assert metrics["deal_coverage"]["min"] == metrics["deal_coverage"]["max"] == 7
    assert metrics["byes"]["max"] == 0
    assert len(metrics["tables_walked"]) == 6
    howell = validate(generate_individual(tables=4)).metrics
    assert howell["seat_balance"]["spread"] <= 1

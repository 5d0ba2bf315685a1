"""``manage.py play`` and ``manage.py simulate``: replay records to the counting code's outcome,
name the first illegal card, exit 2 with one line on every bad input; simulate round-trips.

No database is touched. Exit codes and stderr come from ``ManagementUtility`` in-process (the
command line's path without a Django start-up per case).
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import ManagementUtility, call_command

from rules import generate_deals, outcome_to_dict
from rules.play import hands_at_play, legal_cards, outcome_from_play
from rules.record import record_from_json, record_to_json
from rules.simulation import simulate_deal


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = 0
    try:
        ManagementUtility(["manage.py", *argv]).execute()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, data: object, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def play_json(path: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("play", path, "--json", stdout=out)
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def simulated_json(players: int, number: int, seed: str = "cmd") -> dict[str, Any]:
    deal = generate_deals(players, number + 1, seed)[number]
    played = simulate_deal(deal, random.Random(number), taker_seat=number % players)
    assert played.record is not None
    data: dict[str, Any] = json.loads(json.dumps(record_to_json(played.record, played.bids)))
    return data


def one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str], expected: str) -> str:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert expected in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_play_replays_simulated_records_to_the_counting_codes_outcome(
    players: int, tmp_path: Path
) -> None:
    for number in range(8):
        deal = generate_deals(players, number + 1, "replay")[number]
        played = simulate_deal(deal, random.Random(number), taker_seat=number % players)
        assert played.record is not None and played.outcome is not None
        path = write(tmp_path, record_to_json(played.record, played.bids))
        result = play_json(path)
        assert result["outcome"] == outcome_to_dict(played.outcome)
        assert result["outcome"] == outcome_to_dict(outcome_from_play(played.record))
        assert played.score is not None and result["score"] == played.score.to_dict()
        assert sum(result["marks"].values()) == 0
        assert set(result["marks"]) == set(played.record.deal.seats)


def test_play_prints_the_outcome_and_marks_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, simulated_json(4, 0))
    code, out, err = run(["play", path], capsys)
    assert code == 0 and err == ""
    lines = out.strip().splitlines()
    assert len(lines) == 7
    assert all(seat in lines[-1] for seat in "NESW")


def test_a_card_swapped_for_an_illegal_one_exits_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = simulated_json(4, 1)
    record, _ = record_from_json(data)
    hands = hands_at_play(record)
    for number, trick in enumerate(record.tricks):
        for position, card in enumerate(trick.cards):
            seat = trick.seat_at(position, 4)
            legal = legal_cards(hands[seat], trick.cards[:position])
            illegal = [other for other in hands[seat] if other not in legal]
            if position and illegal:
                data["tricks"][number][position] = illegal[0].code
                line = one_line_error(
                    ["play", write(tmp_path, data)],
                    capsys,
                    f"[illegal_card] tricks[{number}][{position}]:",
                )
                assert illegal[0].code in line
                assert record.deal.seats[seat] in line
                return
            hands[seat].remove(card)
    raise AssertionError("no illegal alternative in this deal")


def test_a_card_not_in_the_hand_and_a_missing_trick_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = simulated_json(4, 2)
    record, _ = record_from_json(data)
    leader = record.tricks[0].leader
    foreign = hands_at_play(record)[(leader + 1) % 4][0]
    data["tricks"][0][0] = foreign.code
    line = one_line_error(["play", write(tmp_path, data)], capsys, "[card_not_held] tricks[0][0]:")
    assert foreign.code in line
    data = simulated_json(4, 2)
    del data["tricks"][5]
    line = one_line_error(["play", write(tmp_path, data)], capsys, "tricks[")
    assert "[card_not_held]" in line or "[illegal_card]" in line


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"players": 4,\n  "dealer": }', "[invalid_json] file:"),
        ("\xff\xfe", "[invalid_json] file:"),
        ("[1, 2]", "[invalid_type] record:"),
        ('{"players": 4}', "[missing_field] dealer:"),
    ],
)
def test_bad_files_exit_2_with_one_line(
    content: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content.encode("latin-1"))
    line = one_line_error(["play", str(path)], capsys, expected)
    if "dealer" in content:
        assert "2" in line  # the line of the fault


def test_an_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(["play", str(tmp_path / "absent.json")], capsys, "[unreadable_file] file:")
    one_line_error(["play", str(tmp_path)], capsys, "[unreadable_file] file:")


def test_simulate_is_deterministic_and_round_trips_through_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = io.StringIO()
    call_command("simulate", "--players", "5", "--count", "4", "--seed", "s", stdout=first)
    again = io.StringIO()
    call_command("simulate", "--players", "5", "--count", "2", "--seed", "s", stdout=again)
    records = json.loads(first.getvalue())
    assert len(records) == 4
    assert json.loads(again.getvalue()) == records[:2]  # deal k does not depend on --count
    for number, data in enumerate(records):
        record, _ = record_from_json(data)
        result = play_json(write(tmp_path, data, f"r{number}.json"))
        assert result["outcome"] == outcome_to_dict(outcome_from_play(record))


def test_simulate_writes_one_file_per_deal(tmp_path: Path) -> None:
    out = tmp_path / "records"
    call_command(
        "simulate",
        "--players",
        "3",
        "--count",
        "3",
        "--seed",
        7,
        "--out",
        str(out),
        stdout=io.StringIO(),
    )
    files = sorted(out.glob("deal-*.json"))
    assert [path.name for path in files] == ["deal-001.json", "deal-002.json", "deal-003.json"]
    for path in files:
        play_json(str(path))


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--players", "6"], "[unknown_player_count] players:"),
        (["--count", "0"], "[invalid_arguments] count:"),
        (["--ruleset", "club"], "[unknown_ruleset] ruleset:"),
        (["--flambeuse"], "[invalid_arguments] ruleset:"),
        (["--ruleset", "traditional", "--flambeuse"], "[invalid_arguments] flambeuse:"),
        (["--players", "x"], "[invalid_arguments]"),
    ],
)
def test_simulate_bad_arguments_exit_2(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    one_line_error(["simulate", "--seed", "1", *argv], capsys, expected)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, ["--ruleset", "house"]),
        (4, ["--ruleset", "house"]),
        (4, ["--ruleset", "traditional"]),
        (5, ["--ruleset", "traditional", "--flambeuse"]),
        (5, ["--ruleset", "traditional", "--pousse-multiplier", "3"]),
    ],
)
def test_simulate_other_rulesets_round_trip_through_play(
    players: int, options: list[str], tmp_path: Path
) -> None:
    out = io.StringIO()
    call_command(
        "simulate",
        "--players",
        str(players),
        "--count",
        "6",
        "--seed",
        "rs",
        *options,
        stdout=out,
    )
    for number, data in enumerate(json.loads(out.getvalue())):
        record, _ = record_from_json(data)
        assert record.ruleset.name.value == options[1]
        result = play_json(write(tmp_path, data, f"r{number}.json"))
        assert result["outcome"] == outcome_to_dict(outcome_from_play(record))


def test_stdin_is_not_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The record comes from the file named, never from stdin."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("not json"))
    play_json(write(tmp_path, simulated_json(3, 0)))

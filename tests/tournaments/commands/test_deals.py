"""``manage.py deals``: reproducible text/JSON deals; bad arguments → exit 2, one line.

No database is needed, so nothing here is marked ``django_db``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, ManagementUtility, call_command

from rules import DECK, deal_from_text, deal_to_text, generate_deals, has_petit_sec

ROOT = Path(__file__).resolve().parents[3]


def deals_output(*args: str) -> str:
    out = io.StringIO()
    call_command("deals", *args, stdout=out)
    return out.getvalue()


def test_text_output_has_headers_blank_lines_and_round_trips() -> None:
    text = deals_output("--players", "4", "--count", "3", "--seed", "S")
    blocks = text.strip().split("\n\n")
    assert len(blocks) == 3
    expected = generate_deals(4, 3, "S")
    for number, (block, deal) in enumerate(zip(blocks, expected, strict=True), start=1):
        lines = block.splitlines()
        assert lines[0] == f"# deal {number}"
        assert [line.split(":")[0] for line in lines[1:]] == ["dealer", "N", "E", "S", "W", "chien"]
        assert deal_from_text(block) == deal


def test_same_seed_same_output_and_other_seed_differs() -> None:
    first = deals_output("--count", "24", "--seed", "club")
    assert first == deals_output("--count", "24", "--seed", "club")
    assert first != deals_output("--count", "24", "--seed", "club2")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_json_output(players: int) -> None:
    payload = json.loads(
        deals_output(
            "--players",
            str(players),
            "--count",
            "5",
            "--seed",
            "7",
            "--format",
            "json",
            "--dealer",
            "1",
        )
    )
    assert [item["number"] for item in payload] == [1, 2, 3, 4, 5]
    for item, deal in zip(payload, generate_deals(players, 5, "7", dealer=1), strict=True):
        assert item["dealer"] == deal.seats[1]
        assert list(item["hands"]) == list(deal.seats)
        codes = [code for hand in item["hands"].values() for code in hand] + item["chien"]
        assert sorted(codes) == sorted(card.code for card in DECK)
        assert item["text"] == deal_to_text(deal)
        assert not has_petit_sec(deal)


def test_dealer_by_seat_name() -> None:
    payload = json.loads(
        deals_output("--count", "2", "--seed", "x", "--format", "json", "--dealer", "S")
    )
    assert {item["dealer"] for item in payload} == {"S"}


def run_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = 0
    try:
        ManagementUtility(["manage.py", "deals", *argv]).execute()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--players", "6", "--seed", "1"], "unknown_player_count"),
        (["--players", "four", "--seed", "1"], "invalid_arguments"),
        (["--count", "0", "--seed", "1"], "invalid_count"),
        (["--count", "20000", "--seed", "1"], "invalid_count"),
        (["--count", "x", "--seed", "1"], "invalid_arguments"),
        (["--count", "2"], "invalid_arguments"),  # --seed is required
        (["--seed", "1", "--format", "xml"], "invalid_arguments"),
        (["--seed", "1", "--dealer", "9"], "invalid_dealer"),
        (["--seed", "1", "--dealer", "Z"], "invalid_dealer"),
        (["--seed", "1", "--bogus"], "invalid_arguments"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    returncode, out, err = run_in_process(argv, capsys)
    assert returncode == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert f"[{code}]" in lines[0]
    assert "Traceback" not in err


def test_call_command_raises_command_error_with_return_code_2() -> None:
    with pytest.raises(CommandError) as err:
        call_command("deals", "--seed", "1", "--count", "0")
    assert err.value.returncode == 2


def test_subprocess_end_to_end() -> None:
    ok = subprocess.run(
        [sys.executable, "manage.py", "deals", "--count", "2", "--seed", "S"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("# deal 1\ndealer: N\nN: ")
    bad = subprocess.run(
        [sys.executable, "manage.py", "deals", "--players", "7", "--seed", "S"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr

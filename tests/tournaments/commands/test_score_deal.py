"""``manage.py score_deal``: JSON in, score out; bad input → exit 2 and one clear stderr line.

No database is needed (the command touches none), so nothing here is marked ``django_db``.
Most cases run ``manage.py`` in-process through ``ManagementUtility`` (the same argv → exit code
and stderr path as the command line, without paying a Django start-up per case); a few run a
real subprocess end to end.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, ManagementUtility, call_command

ROOT = Path(__file__).resolve().parents[3]
CASES = json.loads(
    (ROOT / "tests" / "rules" / "data" / "deal-scores.json").read_text(encoding="utf-8")
)["cases"]


def run_command(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "score_deal"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def base_input(**overrides: Any) -> dict[str, Any]:
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


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_call_command_scores_the_examples(case: dict[str, Any]) -> None:
    out = io.StringIO()
    call_command("score_deal", stdin=io.StringIO(json.dumps(case["input"])), stdout=out)
    assert json.loads(out.getvalue()) == case["expected"]


def test_call_command_rejects_a_rule_violation_with_return_code_2() -> None:
    with pytest.raises(CommandError) as err:
        call_command("score_deal", stdin=io.StringIO(json.dumps(base_input(points=95))))
    assert err.value.returncode == 2
    assert str(err.value) == "[points_out_of_range] points: 95 is outside 0..91"


def test_subprocess_prints_the_score() -> None:
    result = run_command(json.dumps(base_input()))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "won": True,
        "margin": 5,
        "value": 60,
        "marks": {"taker": 180, "partner": None, "defender": -60},
    }


BAD_INPUTS = [
    pytest.param(
        json.dumps(base_input(contract="petite")),
        "unknown_contract",
        "contract",
        id="unknown-contract",
    ),
    pytest.param(
        json.dumps(base_input(points=95)), "points_out_of_range", "points", id="95-points"
    ),
    pytest.param(
        json.dumps(
            base_input(points=85.5, oudlers=2, chelem={"announced": False, "made_by": "attack"})
        ),
        "points_not_whole",
        "points",
        id="85.5-points-at-4-in-a-chelem",
    ),
    pytest.param(json.dumps(base_input(oudlers=4)), "too_many_oudlers", "oudlers", id="4-oudlers"),
    pytest.param(
        json.dumps(base_input(oudlers=3, points=60, petit_au_bout="defence")),
        "petit_au_bout_impossible",
        "petit_au_bout",
        id="petit-au-bout-defence-3-oudlers",
    ),
    pytest.param(
        json.dumps(
            base_input(
                poignees=[
                    {"side": "attack", "size": "double"},
                    {"side": "defence", "size": "double"},
                ]
            )
        ),
        "poignees_exceed_trumps",
        "poignees",
        id="two-double-poignees",
    ),
    pytest.param("{not json", "invalid_json", "stdin", id="bad-json"),
    pytest.param("[1, 2]", "invalid_type", "outcome", id="not-an-object"),
    pytest.param("", "invalid_json", "stdin", id="empty"),
]


def run_in_process(
    stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """``manage.py score_deal`` as the command line runs it: exit code, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        ManagementUtility(["manage.py", "score_deal"]).execute()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("stdin", "code", "field"), BAD_INPUTS)
def test_bad_input_exits_2_with_one_clear_line(
    stdin: str,
    code: str,
    field: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    returncode, out, err = run_in_process(stdin, monkeypatch, capsys)
    assert returncode == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert f"[{code}] {field}:" in lines[0]


def test_the_two_double_poignees_message_names_the_trump_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = json.dumps(
        base_input(
            poignees=[{"side": "attack", "size": "double"}, {"side": "defence", "size": "double"}]
        )
    )
    _, _, err = run_in_process(stdin, monkeypatch, capsys)
    assert "26 trumps" in err


@pytest.mark.parametrize(
    ("stdin", "expected"),
    [
        (json.dumps(base_input(contract="petite")), "[unknown_contract] contract:"),
    ],
)
def test_subprocess_rejects_bad_input_with_exit_2_and_no_traceback(
    stdin: str, expected: str
) -> None:
    result = run_command(stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert expected in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("raw", ['{"points": ' + "9" * 5000 + "}", "[" * 100_000 + "]" * 100_000])
def test_a_huge_number_or_a_deep_nesting_is_one_clear_line(raw: str) -> None:
    with pytest.raises(CommandError) as err:
        call_command("score_deal", stdin=io.StringIO(raw))
    assert err.value.returncode == 2
    assert str(err.value) == "[invalid_json] stdin: number too long or nesting too deep"

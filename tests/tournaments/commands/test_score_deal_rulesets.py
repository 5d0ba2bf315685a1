"""``manage.py score_deal --ruleset``: the traditional and house rules, and bad rulesets.

Worked cases from the rule texts (docs/rulesets.md): a pousse is worth its multiplier (2 by
default), a petit chelem announced and made +300, the house chien chosen by the dealer.
No database is needed.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from django.core.management import ManagementUtility


def run(
    argv: list[str],
    data: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    """``manage.py score_deal ARGV`` as the command line runs it: exit code, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(data)))
    code = 0
    try:
        ManagementUtility(["manage.py", "score_deal", *argv]).execute()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


POUSSE = {"players": 4, "contract": "pousse", "oudlers": 2, "points": 51}


@pytest.mark.parametrize(
    ("argv", "value"),
    [
        # 51 - 41 = 10: (25 + 10) x 2 = 70 with the default multiplier, x 3 = 105
        (["--ruleset", "traditional"], 70),
        (["--ruleset", "traditional", "--pousse-multiplier", "3"], 105),
        (["--ruleset=traditional", "--pousse-multiplier=1"], 35),
    ],
)
def test_a_pousse_is_scored_with_the_ruleset_multiplier(
    argv: list[str], value: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, POUSSE, monkeypatch, capsys)
    assert (code, err) == (0, "")
    score = json.loads(out)
    assert score["value"] == value
    assert score["marks"] == {"taker": 3 * value, "partner": None, "defender": -value}


def test_a_pousse_is_refused_under_the_fft_rules_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([], POUSSE, monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.startswith("CommandError: [contract_not_in_ruleset] contract: Pousse")
    assert len(err.strip().splitlines()) == 1


def test_a_petit_chelem_announced_and_made_scores_300(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {
        "players": 4,
        "contract": "garde",
        "oudlers": 3,
        "points": 85,
        "petit_chelem": {"announced": True, "made": True},
    }
    code, out, _ = run(["--ruleset", "traditional"], data, monkeypatch, capsys)
    assert code == 0
    # (25 + 85 - 36) x 2 = 148, + 300
    assert json.loads(out)["value"] == 448


def test_the_house_chien_is_read_from_the_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {"players": 3, "contract": "garde_sans", "oudlers": 1, "points": 51, "chien": 9}
    code, out, _ = run(["--ruleset", "house"], data, monkeypatch, capsys)
    assert code == 0
    # 51 - 51 = 0: won by 0, (25 + 0) x 4 = 100; the taker writes twice that at 3 players
    assert json.loads(out)["marks"] == {"taker": 200, "partner": None, "defender": -100}
    code, _, err = run([], data, monkeypatch, capsys)
    assert code == 2
    assert err.startswith("CommandError: [invalid_chien_size] chien: A chien of 9 cards")


def test_the_flambeuse_is_the_taker_alone_without_partner_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {"players": 5, "contract": "garde", "oudlers": 2, "points": 51}
    code, out, _ = run(["--ruleset", "traditional", "--flambeuse"], data, monkeypatch, capsys)
    assert code == 0
    assert json.loads(out)["marks"] == {"taker": 4 * 70, "partner": None, "defender": -70}


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--ruleset", "chouette"], "unknown_ruleset"),
        (["--ruleset", "house", "--flambeuse"], "invalid_arguments"),
        (["--ruleset", "fft", "--pousse-multiplier", "3"], "invalid_arguments"),
        (["--ruleset", "traditional", "--pousse-multiplier", "9"], "invalid_ruleset_parameter"),
        (["--ruleset", "traditional", "--pousse-multiplier", "two"], "invalid_arguments"),
    ],
)
def test_a_bad_ruleset_is_one_line_and_exit_2(
    argv: list[str], code: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    returncode, out, err = run(argv, POUSSE, monkeypatch, capsys)
    assert returncode == 2 and out == ""
    assert err.startswith(f"CommandError: [{code}]")
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err

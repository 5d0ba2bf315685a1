"""``manage.py score_event``: the committed examples print the documented rankings; bad files
exit 2 with one line naming the offending entry. No database is touched."""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "score-event-format.md"
INDIVIDUAL = ROOT / "examples" / "individual-event.json"
QUADRETTE = ROOT / "examples" / "quadrette-event.json"


def run(path: Path, *options: str) -> str:
    out = io.StringIO()
    call_command("score_event", str(path), *options, stdout=out)
    return out.getvalue()


def documented_block(name: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(
        rf"<!-- ranking:{name} -->\n```text\n(.*?)```\n<!-- /ranking -->", text, re.DOTALL
    )
    assert found, f"no ranking block {name} in {DOC.name}"
    return found.group(1)


@pytest.mark.parametrize(
    ("example", "block"), [(INDIVIDUAL, "individual-event"), (QUADRETTE, "quadrette-event")]
)
def test_examples_print_the_documented_ranking(example: Path, block: str) -> None:
    expected = documented_block(block)
    output = run(example)
    heading = expected.splitlines()[0]
    printed = output[output.index(heading) :]
    assert printed.startswith(expected)
    assert printed[len(expected) :] in ("", "\n") or printed[len(expected)] == "\n"


def test_hands_are_printed_with_marks_matchpoints_and_percentages() -> None:
    output = run(INDIVIDUAL)
    # Neuberg on deal 2 (5 scheduled, 4 played): the 174 beats three → mp' 7.75 of 8
    assert re.search(r"W\s+3\s+p08\s+Hugo Lambert\s+174\s+7\.75\s+8\s+96\.88", output)
    assert re.search(r"N\s+3\s+p09\s+Inès Fontaine\s+-\s+-\s+-\s+60\.00\s+artificial", output)
    assert re.search(r"N\s+2\s+p05\s+Élise Faure\s+150\s+2\.75\s+8\s+34\.38\s+director", output)
    # deal 1, two tied 180s: 2·2 + 1 = 5 of 8
    assert re.search(r"S\s+1\s+p03\s+Chloé Roux\s+180\s+5\s+8\s+62\.50", output)


def test_json_format() -> None:
    data = json.loads(run(INDIVIDUAL, "--format", "json"))
    assert len(data["hands"]) == 4 * (5 + 4 + 5)
    first = data["individual"][0]
    assert (first["rank"], first["entrant"], first["name"], first["percentage"]) == (
        1,
        "p08",
        "Hugo Lambert",
        "77.08",
    )
    penalised = next(row for row in data["individual"] if row["entrant"] == "p07")
    assert (penalised["percentage"], penalised["penalty"]) == ("74.00", "1.00")
    quadrette = json.loads(run(QUADRETTE, "--format", "json"))
    sheet = quadrette["matches"][0]
    assert [deal["pm_a"] for deal in sheet["deals"]] == [0, 1, 10, -12, 3, -19]
    assert (sheet["pm_a"], sheet["vp_a"], sheet["vp_b"]) == (-17, "3.62", "16.38")


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(INDIVIDUAL.read_text(encoding="utf-8"))
    return data


def broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(example())
    change(data)
    return data


def set_points(data: dict[str, Any]) -> None:
    data["results"][7]["outcome"]["points"] = 95


CASES = [
    (set_points, r"results\[7\] \(deal 2, table 3\): points: .*95"),
    (
        lambda d: d["results"][0].update(deal=9),
        r"results\[0\] \(deal 9, table 1\): deal 9 is not listed in deals",
    ),
    (
        lambda d: d["results"][1].update(table=1),
        r"results\[1\] \(deal 1, table 1\): deal 1 at table 1 is already in results\[0\]",
    ),
    (
        lambda d: d["results"][1]["seats"].update(N="p01"),
        r"results\[1\] \(deal 1, table 2\): p01 already plays deal 1 at table 1 \(results\[0\]\)",
    ),
    (
        lambda d: d["results"][11].update(artificial={"N": 120, "E": 40, "S": 60, "W": 40}),
        r"results\[11\] \(deal 3, table 3\): artificial.N: 120 is outside 0..100",
    ),
    (
        lambda d: d["results"][0].update(artificial={"N": 50, "E": 50, "S": 50, "W": 50}),
        r"results\[0\] \(deal 1, table 1\): give either an outcome or artificial percentages",
    ),
    (
        lambda d: d["results"][2]["outcome"].update(contract="prise"),
        r"results\[2\] \(deal 1, table 3\): contract: a Prise is not allowed",
    ),
    (
        lambda d: d["results"][2]["outcome"].update(contract="grande"),
        r"results\[2\] \(deal 1, table 3\): contract: ",
    ),
    (
        lambda d: d["results"][3]["seats"].update(E="zz"),
        r"results\[3\] \(deal 1, table 4\): seats.E: zz is not listed in entrants",
    ),
    (
        lambda d: d["deals"][0].update(scheduled=4),
        r"deal 1: scheduled 4 times but 5 results are given",
    ),
    (
        lambda d: d["penalties"].append({"entrant": "nobody", "points": 1}),
        r"penalties\[1\]: nobody is neither a player with results nor a team",
    ),
    (
        lambda d: d["penalties"][0].update(points=0.125),
        r"penalties\[0\]: points: 0.125 has more than two decimals",
    ),
    (
        lambda d: d["penalties"][0].update(points="1e999999999"),
        r"penalties\[0\]: points: 1e999999999 is not a plausible percentage",
    ),
    (lambda d: d.update(result=[]), r"file: unknown key 'result'"),
    (
        lambda d: d["deals"][1].update(taker_seat="X"),
        r"deals\[1\]: taker_seat must be one of N, E, S, W",
    ),
    (
        lambda d: d.update(options={"pm_scale": [50, 20]}),
        r"options: pm_scale: thresholds must be strictly increasing",
    ),
]


@pytest.mark.parametrize(("change", "message"), CASES)
def test_bad_files_name_the_offending_entry(tmp_path: Path, change: Any, message: str) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(broken(change)), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        run(path)
    assert caught.value.returncode == 2
    text = str(caught.value)
    assert "\n" not in text
    assert re.search(message, text), text


def test_unreadable_and_invalid_json(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="cannot be read") as missing:
        run(tmp_path / "missing.json")
    assert missing.value.returncode == 2
    path = tmp_path / "bad.json"
    path.write_text('{"deals": [}', encoding="utf-8")
    with pytest.raises(CommandError, match=r"not valid JSON \(line 1, column 12") as invalid:
        run(path)
    assert invalid.value.returncode == 2


def test_command_line_exit_code_and_single_stderr_line(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(broken(set_points)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "manage.py", "score_event", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert "results[7] (deal 2, table 3): points:" in done.stderr


@pytest.mark.parametrize("raw", ['{"deals": [' + "9" * 5000 + "]}", "[" * 100_000 + "]" * 100_000])
def test_a_huge_number_or_a_deep_nesting_is_one_clear_line(tmp_path: Path, raw: str) -> None:
    path = tmp_path / "event.json"
    path.write_text(raw, encoding="utf-8")
    with pytest.raises(CommandError, match="a number too long or a nesting too deep") as caught:
        run(path)
    assert caught.value.returncode == 2

"""``manage.py movement``: generate (JSON or text) and ``--check`` documents; no database.

Bad arguments, unreadable or ill-formed files and refused movements exit with code 2 and one
line on stderr.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from math import gcd
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, ManagementUtility, call_command

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("movement", *args, stdout=out)
    return out.getvalue()


def generate_json(*args: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(run(*args, "--json"))
    return document


def write(tmp_path: Path, document: object, name: str = "movement.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_every_table_count_prints_a_movement_that_passes_check(tmp_path: Path) -> None:
    for tables in range(3, 41):
        document = generate_json("--format", "individual", "--tables", str(tables))
        report = json.loads(run("--check", write(tmp_path, document), "--json"))
        assert report["ok"], (tables, report["errors"][:3])
        rounds = document["rounds"]
        if tables >= 5 and gcd(tables, 6) == 1:
            assert rounds == tables
        else:
            assert rounds >= {3: 5, 4: 5, 6: 5}.get(tables, 6)


def test_rounds_players_and_seed_options() -> None:
    document = generate_json(
        "--format", "individual", "--tables", "8", "--players", "30", "--rounds", "6", "--seed", "4"
    )
    assert document["rounds"] == 6
    assert sum(e["phantom"] for e in document["entrants"]) == 2
    proposed = generate_json("--format", "individual", "--players", "29")
    assert proposed["tables"] == 8


def test_text_output_has_the_rendering_and_the_quality_report() -> None:
    text = run("--format", "individual", "--tables", "7")
    assert "Round 7" in text and "Movement OK" in text and "Meetings" in text


@pytest.mark.parametrize("teams", ["8", "12", "16"])
def test_triplette(teams: str) -> None:
    document = generate_json("--format", "triplette", "--teams", teams)
    assert document["format"] == "triplette" and document["taker_seat"] == "N"


@pytest.mark.parametrize(
    ("teams", "rounds"), [("4", None), ("6", None), ("8", None), ("13", None), ("13", "5")]
)
def test_quadrette(teams: str, rounds: str | None) -> None:
    extra = ["--rounds", rounds] if rounds else []
    document = generate_json("--format", "quadrette", "--teams", teams, *extra)
    assert document["kind"] == "matches"


def test_check_prints_the_report_for_a_good_file(tmp_path: Path) -> None:
    document = generate_json("--format", "quadrette", "--teams", "6")
    text = run("--check", write(tmp_path, document))
    assert "Movement OK" in text


def test_check_refuses_a_broken_movement_with_exit_code_2(tmp_path: Path) -> None:
    document = generate_json("--format", "individual", "--tables", "7")
    document["schedule"][1]["tables"][0]["seats"]["E"] = 1  # entrant 1 twice, one missing
    with pytest.raises(CommandError) as caught:
        run("--check", write(tmp_path, document))
    assert caught.value.returncode == 2
    assert "check 2" in str(caught.value)


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "individual", "--tables", "2"],
        ["--format", "individual", "--tables", "7", "--rounds", "9"],
        ["--format", "individual"],
        ["--format", "triplette"],
        ["--format", "triplette", "--teams", "2"],
        ["--format", "quadrette", "--teams", "4", "--rounds", "9"],
        ["--format", "quadrette", "--tables", "4"],
        [],
    ],
)
def test_bad_generation_arguments_exit_2(args: list[str]) -> None:
    with pytest.raises(CommandError) as caught:
        run(*args)
    assert caught.value.returncode == 2


def test_unreadable_and_ill_formed_files_exit_2(tmp_path: Path) -> None:
    for path in (str(tmp_path / "absent.json"), write(tmp_path, None, "null.json")):
        with pytest.raises(CommandError) as caught:
            run("--check", path)
        assert caught.value.returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        run("--check", str(bad))
    assert caught.value.returncode == 2 and "not valid JSON" in str(caught.value)


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "movement", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def manage_in_process(
    *args: str, capsys: pytest.CaptureFixture[str]
) -> subprocess.CompletedProcess[str]:
    """``manage.py movement ARGS`` as the command line runs it (``ManagementUtility``: the same
    argv → exit code, stdout and stderr path), without a Django start-up of its own."""
    capsys.readouterr()
    code = 0
    try:
        ManagementUtility(["manage.py", "movement", *args]).execute()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, captured.out, captured.err)


def test_command_line_exit_codes_and_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In-process through ``ManagementUtility``, and one real ``manage.py`` end to end."""
    good = manage_in_process("--format", "individual", "--tables", "5", "--json", capsys=capsys)
    assert good.returncode == 0
    document = json.loads(good.stdout)
    document["schedule"][0]["tables"][0]["deal_set"] = 2  # étui 2 at two tables
    refused = manage_in_process("--check", write(tmp_path, document), capsys=capsys)
    assert refused.returncode == 2
    assert "check 3 [etui_clash]" in refused.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2", encoding="utf-8")
    for result in (
        manage("--check", str(bad)),
        manage_in_process("--format", "pairs", capsys=capsys),
    ):
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1

"""A section's results imported from a file (score_event JSON or CSV): all or nothing.

The section is one of a simultaneous (5 rounds of 2 deals) on 3 tables (a Howell movement);
files are written from its movement, so every line is a genuine (table, deal) of it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from clubs.errors import DomainError
from tests.builders import EVENT_DATE, random_outcome
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tournaments import services
from tournaments.models import Deal, Event, ResultChange, TableResult
from tournaments.services.imports import MAX_LINES

pytestmark = pytest.mark.django_db

ROUNDS, DPR = 5, 2
CSV_HEADER = (
    "Table;Donne;Contrat;Bouts;Points;Petit au bout;Poignée attaque;Poignées défense;"
    "Chelem annoncé;Chelem réalisé;Arbitre"
)


@pytest.fixture
def director():
    return OrganiserFactory()


def make_section(players: int = 12, *, start: bool = True) -> Event:
    parent = services.simultaneous_create(
        club=ClubFactory(), name="Simultané", date=EVENT_DATE, format=Event.Format.INDIVIDUAL,
        deals_per_round=DPR, rounds=ROUNDS, seed=3,
    )  # fmt: skip
    section = services.section_create(simultaneous=parent, club=ClubFactory(), name="Quimper")
    for _ in range(players):
        services.entrant_register(event=section, player=PlayerFactory())
    services.event_movement_set(event=section, tables=3, rounds=ROUNDS)
    # Reading the files is tested here with outcomes written by hand; checking them against the
    # étuis' cards is tested in test_hand_checks_entry.py: the cards are left unknown here.
    Deal.objects.filter(event__in=[section, parent]).update(cards="")
    if start:
        services.event_start(event=section)
    return Event.objects.get(pk=section.pk)


def plays(section: Event, rounds: range | None = None) -> list[tuple[int, Deal, Any]]:
    """(table, deal, play) of every deal really played, in round, table, deal order."""
    wanted = set(rounds) if rounds is not None else None
    found = []
    for play in section.schedule.playing():
        if wanted is not None and play.round not in wanted:
            continue
        for deal in section.deals.filter(deal_set=play.deal_set).order_by("number"):
            found.append((play.table, deal, play))
    return found


def json_file(section: Event, rows: list[tuple[int, Deal, Any]], outcomes: list[dict]) -> str:
    deals = [
        {"number": deal.number, "taker_seat": deal.taker_seat}
        for deal in section.deals.order_by("number")
    ]
    results = [
        {
            "deal": deal.number,
            "table": table,
            "seats": {seat: f"p{slot}" for seat, slot in play.seats.items()},
            "outcome": outcome,
        }
        for (table, deal, play), outcome in zip(rows, outcomes, strict=True)
    ]
    return json.dumps({"title": "Quimper", "deals": deals, "results": results}, indent=2)


def csv_line(table: int, deal: int, outcome: dict[str, Any]) -> str:
    petit = {"attack": "attaque", "defence": "défense", None: ""}[outcome.get("petit_au_bout")]
    points = f"{outcome['points']},0"  # a decimal comma
    return f"{table};{deal};{outcome['contract']};{outcome['oudlers']};{points};{petit};;;;;"


def version(section: Event) -> int:
    return Event.objects.get(pk=section.simultaneous_id).results_version


def outcomes(count: int, seed: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [random_outcome(rng) for _ in range(count)]


# --- success -------------------------------------------------------------------------------


def test_a_json_file_is_imported_in_one_transaction(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 3))
    given = outcomes(len(rows))
    before = version(section)
    report = services.section_results_import(
        section=section, file=json_file(section, rows, given).encode(), actor=director
    )
    assert report.ok and report.kind == "json"
    assert report.lines == len(rows) == 3 * 2 * DPR
    assert len(report.stored) == len(rows) and report.unchanged == 0
    stored = TableResult.objects.filter(event=section)
    assert stored.count() == len(rows)
    assert set(stored.values_list("entered_via", flat=True)) == {"import"}
    assert all(r.confirmed and r.entered_by == director for r in stored)
    assert not any(stored.values_list("director_assigned", flat=True))
    # One version bump for the whole file, stamped on every row; one history line per row.
    assert version(section) == before + 1
    assert set(stored.values_list("version", flat=True)) == {before + 1}
    assert ResultChange.objects.filter(event=section, action="create").count() == len(rows)
    line = ResultChange.objects.filter(event=section).first()
    assert line is not None and line.actor == director and "line" in line.reason
    # The outcomes and seats are the table entries' own.
    for (table, deal, play), outcome in zip(rows, given, strict=True):
        result = stored.get(table__number=table, deal=deal)
        assert result.round_number == play.round
        assert result.contract == outcome["contract"] and result.oudlers == outcome["oudlers"]
        assert result.points_half == 2 * outcome["points"]
        assert result.seat_n.slot == play.seats["N"]
        assert result.mark_n is not None


def test_a_french_csv_file_is_imported(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 2))
    given = outcomes(len(rows), seed=2)
    given[0] = {"contract": "garde", "oudlers": 2, "points": 40}
    lines = [CSV_HEADER] + [
        csv_line(table, deal.number, outcome)
        for (table, deal, _play), outcome in zip(rows, given, strict=True)
    ]
    # A poignée, a chelem column and the director's flag on one line.
    table, deal, _play = rows[1]
    lines[2] = f"{table};{deal.number};GS;3;75;attaque;Simple;;non;;oui"
    report = services.section_results_import(
        section=section, file=("\ufeff" + "\r\n".join(lines) + "\r\n").encode(), actor=director
    )
    assert report.ok, report.errors
    assert report.kind == "csv" and len(report.stored) == len(rows)
    first = TableResult.objects.get(event=section, table__number=rows[0][0], deal=rows[0][1])
    assert first.points_half == 80
    special = TableResult.objects.get(event=section, table__number=table, deal=deal)
    assert special.contract == "garde_sans" and special.petit_au_bout == "attack"
    assert special.poignees == [{"side": "attack", "size": "simple"}]
    assert special.director_assigned


def test_english_headers_and_commas_are_read_too(director) -> None:
    section = make_section()
    (table, deal, _play), *_ = plays(section, range(1, 2))
    text = (
        "table,deal,contract,oudlers,points,poignees_defence,chelem_made_by\n"
        f'{table},{deal.number},garde_contre,1,"60,0",simple + simple,\n'
    )
    report = services.section_results_import(section=section, file=text, actor=director)
    assert report.ok, report.errors
    stored = report.stored[0]
    assert stored.contract == "garde_contre" and stored.points_half == 120
    assert sorted(p["size"] for p in stored.poignees) == ["simple", "simple"]


def test_a_finished_section_still_takes_an_import(director) -> None:
    section = make_section()
    services.event_finish(event=section)
    rows = plays(section, range(1, 2))
    report = services.section_results_import(
        section=section, file=json_file(section, rows, outcomes(len(rows))), actor=director
    )
    assert report.ok and len(report.stored) == len(rows)


def test_artificial_scores_and_director_results_from_json(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 2))[:2]
    document = json.loads(json_file(section, rows, outcomes(2)))
    del document["results"][0]["outcome"]
    document["results"][0]["artificial"] = {"N": 60, "E": 40, "S": "60", "W": "40,5"}
    document["results"][1]["director"] = True
    report = services.section_results_import(
        section=section, file=json.dumps(document), actor=director
    )
    assert report.ok, report.errors
    artificial, assigned = report.stored
    assert artificial.kind == "artificial" and str(artificial.artificial_w) == "40.50"
    assert artificial.director_assigned and assigned.director_assigned
    assert ResultChange.objects.filter(event=section, action="artificial").count() == 1


# --- per-line errors: nothing stored -------------------------------------------------------


def test_two_bad_lines_are_both_reported_and_nothing_is_stored(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 2))
    given = outcomes(len(rows))
    lines = [CSV_HEADER] + [
        csv_line(table, deal.number, outcome)
        for (table, deal, _play), outcome in zip(rows, given, strict=True)
    ]
    table, deal, _play = rows[2]
    lines[3] = f"{table};{deal.number};garde;2;95;;;;;;"  # points out of range (line 4)
    lines[5] = f"{rows[4][0]};99;garde;2;46;;;;;;"  # no such deal (line 6)
    before = version(section)
    report = services.section_results_import(section=section, file="\n".join(lines), actor=director)
    assert not report.ok
    assert [error.line for error in report.errors] == [4, 6]
    assert "points" in report.errors[0].message and "95" in report.errors[0].message
    assert "deal 99 is not a deal of this event" in report.errors[1].message
    assert report.stored == []
    assert not TableResult.objects.filter(event=section).exists()
    assert not ResultChange.objects.filter(event=section).exists()
    assert version(section) == before


def test_json_errors_name_their_lines(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 2))
    document = json.loads(json_file(section, rows, outcomes(len(rows))))
    document["results"][1]["outcome"]["contract"] = "prise"
    document["results"][3]["table"] = 99
    document["deals"][0]["taker_seat"] = "X"
    text = json.dumps(document, indent=2)
    report = services.section_results_import(section=section, file=text, actor=director)
    lines = text.splitlines()
    assert len(report.errors) == 3
    by_where = {error.message.split(":")[0].split(",")[0]: error for error in report.errors}
    for where in ("deals[0]", "results[1]", "results[3]"):
        error = by_where[where]
        assert lines[error.line - 1].strip() == "{", (where, error)
    assert "Prise" in by_where["results[1]"].message
    assert "table 99 is not a table" in by_where["results[3]"].message
    assert "taker seat" in by_where["deals[0]"].message
    assert not TableResult.objects.filter(event=section).exists()


def test_json_seats_must_follow_the_movement(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 3))
    document = json.loads(json_file(section, rows, outcomes(len(rows))))
    # A table seated like another one: its players do not match the movement there.
    last = len(rows) - 1
    document["results"][last]["seats"] = document["results"][0]["seats"]
    report = services.section_results_import(
        section=section, file=json.dumps(document, indent=1), actor=director
    )
    assert len(report.errors) == 1
    assert "the movement seats" in report.errors[0].message
    assert not TableResult.objects.filter(event=section).exists()


def test_penalties_and_unknown_deals_are_line_errors(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 2))[:1]
    document = json.loads(json_file(section, rows, outcomes(1)))
    document["penalties"] = [{"entrant": "p1", "points": 1, "reason": "late"}]
    document["deals"] = document["deals"][1:]  # deal 1 no longer listed
    document["results"][0]["deal"] = 1
    report = services.section_results_import(
        section=section, file=json.dumps(document, indent=1), actor=director
    )
    messages = " | ".join(error.message for error in report.errors)
    assert "penalties are not imported" in messages
    assert "not listed in deals" in messages or "not played" in messages


def test_duplicates_in_the_file_and_results_already_stored(director) -> None:
    section = make_section()
    rows = plays(section, range(1, 2))
    given = outcomes(len(rows))
    first = services.section_results_import(
        section=section, file=json_file(section, rows, given), actor=director
    )
    assert first.ok
    before = version(section)
    # The same file again: every line identical, nothing stored, no version bump.
    again = services.section_results_import(
        section=section, file=json_file(section, rows, given), actor=director
    )
    assert again.ok and again.unchanged == len(rows) and again.stored == []
    assert version(section) == before
    # A different outcome for a stored (deal, table), and a line given twice.
    changed = [dict(outcome) for outcome in given]
    changed[0] = {"contract": "garde_contre", "oudlers": 3, "points": 60}
    text = json_file(section, [*rows, rows[1]], [*changed, changed[1]])
    report = services.section_results_import(section=section, file=text, actor=director)
    assert len(report.errors) == 2
    assert "a different result is already stored" in report.errors[0].message
    assert "already on line" in report.errors[1].message
    assert TableResult.objects.filter(event=section).count() == len(rows)


def test_a_table_that_sits_out_takes_no_result(director) -> None:
    section = make_section(players=11)  # one phantom: its table sits out each round
    sitting = next(play for play in section.schedule.plays() if play.sits_out)
    deal = section.deals.filter(deal_set=sitting.deal_set).first()
    assert deal is not None
    text = f"{CSV_HEADER}\n{sitting.table};{deal.number};garde;2;46;;;;;;\n"
    report = services.section_results_import(section=section, file=text, actor=director)
    assert [error.line for error in report.errors] == [2]
    assert "phantom" in report.errors[0].message


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("1;1;garde;deux;46;;;;;;", "oudlers"),
        ("x;1;garde;2;46;;;;;;", "Table"),
        ("1;1;garde;2;46;peut-être;;;;;", "Petit au bout"),
        ("1;1;garde;2;46;;;;;;;;extra", "cells"),
        ("1;1;mystère;2;46;;;;;;", "contract"),
        ("1;1;garde;2;46;;;;;;peut-être", "Director"),
    ],
)
def test_csv_cells_that_cannot_be_read_are_line_errors(director, line: str, fragment: str) -> None:
    section = make_section()
    report = services.section_results_import(
        section=section, file=f"{CSV_HEADER}\n{line}\n", actor=director
    )
    assert [error.line for error in report.errors] == [2]
    assert fragment in report.errors[0].message


# --- bad files -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"\x01\x02\x03", "file_binary"),
        (b"table;deal\x00;contract", "file_binary"),
        (b"", "file_empty"),
        (b"  \n\n", "file_empty"),
        (b"table;deal;contract;oudlers;points\n", "file_no_results"),
        (b"table;deal;contract;points\n1;1;garde;46\n", "csv_header"),
        (b"table;deal;contract;oudlers;points;joueur\n1;1;garde;2;46;A\n", "csv_header"),
        (b"table;table;deal;contract;oudlers;points\n", "csv_header"),
        (b'table;deal;contract;oudlers;points\n1;1;"garde;2;46\n', "csv_unreadable"),
        (b'{"deals": [], "results": [', "file_not_json"),
        (b'{"deals": [], "results": {}}', "file_missing_key"),
        (b'{"deals": [], "results": [], "extra": 1}', "file_unknown_key"),
        (b'{"deals": [], "results": []}', "file_no_results"),
        (b"[" * 100_000, "file_not_json"),
    ],
)
def test_bad_files_get_one_clear_error(director, content: bytes, code: str) -> None:
    section = make_section()
    with pytest.raises(DomainError) as caught:
        services.section_results_import(section=section, file=content, actor=director)
    assert caught.value.code == code and caught.value.field == "file"
    assert caught.value.message


def test_a_json_array_is_not_a_score_event_file(director) -> None:
    section = make_section()
    with pytest.raises(DomainError) as caught:
        services.section_results_import(section=section, file=b"[1, 2]", actor=director)
    assert caught.value.code == "file_not_event"


def test_a_file_over_the_line_limit_is_refused(director) -> None:
    section = make_section()
    text = CSV_HEADER + "\n" + "1;1;garde;2;46;;;;;;\n" * MAX_LINES
    with pytest.raises(DomainError) as caught:
        services.section_results_import(section=section, file=text, actor=director)
    assert caught.value.code == "file_too_long"
    assert str(MAX_LINES) in caught.value.message or "20" in caught.value.message


def test_no_import_into_a_draft_section_nor_the_simultaneous(director) -> None:
    section = make_section(start=False)
    text = f"{CSV_HEADER}\n1;1;garde;2;46;;;;;;\n"
    with pytest.raises(DomainError) as caught:
        services.section_results_import(section=section, file=text, actor=director)
    assert caught.value.code == "event_not_started"
    parent = Event.objects.get(pk=section.simultaneous_id)
    with pytest.raises(DomainError) as caught:
        services.section_results_import(section=parent, file=text, actor=director)
    assert caught.value.code == "simultaneous_results"

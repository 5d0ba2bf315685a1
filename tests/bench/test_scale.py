"""``bench.scale`` and ``manage.py scale_event``: events of any size filled in bulk.

The bulk rows must be the very rows the entry service stores: a result entered through
``table_result_enter`` with the same outcome, at the same table and deal of an identical event
(same arguments and seed, nothing filled), is compared field by field, history line included.
The same holds in a section of a simultaneous (``--sections``), whose version is the
simultaneous's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from bench.scale import SCALE_CLUB_NAME, scale_event_build, scale_event_delete, section_club_name
from clubs.models import Club, Player
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from scoring.services import standings_recompute
from tournaments.models import Deal, Entrant, Event, ResultChange, Table, TableResult
from tournaments.movements import Schedule
from tournaments.selectors import result_outcome
from tournaments.services import table_result_enter

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"tables": 3, "rounds": 4, "deals_per_round": 2, "seed": 7}
# Differ between two events by construction (ids, timestamps) or set by the builder itself.
UNCOMPARED = {"id", "event", "deal", "table", "seat_n", "seat_e", "seat_s", "seat_w",
              "created_at", "updated_at", "version"}  # fmt: skip


def _slots(event: Event) -> dict[int, int]:
    return dict(Entrant.objects.filter(event=event).values_list("id", "slot"))


def _picture(result: TableResult) -> dict[str, Any]:
    """Every stored field of a result, with seats, deal and table as slots and numbers."""
    slots = _slots(result.event)
    picture = {
        field.name: getattr(result, field.attname)
        for field in TableResult._meta.concrete_fields
        if field.name not in UNCOMPARED
    }
    picture["deal"], picture["table"] = result.deal.number, result.table.number
    picture["seats"] = {seat: slots[pk] for seat, pk in result.seat_entrant_ids().items() if pk}
    return picture


def _history(result: TableResult) -> list[dict[str, Any]]:
    slots = _slots(result.event)
    lines = []
    for change in ResultChange.objects.filter(result=result).order_by("pk"):
        after = dict(change.after or {})
        after["seats"] = {seat: slots[pk] for seat, pk in after["seats"].items()}
        lines.append({"action": change.action, "actor": change.actor_id,
                      "actor_label": change.actor_label, "reason": change.reason,
                      "before": change.before, "after": after})  # fmt: skip
    return lines


@pytest.mark.django_db
def test_bulk_rows_are_what_the_entry_service_stores() -> None:
    built = scale_event_build(**SMALL, fill=100)
    empty = scale_event_build(**SMALL, fill=0)
    assert built.status == empty.status == Event.Status.RUNNING
    assert TableResult.objects.filter(event=empty).count() == 0
    rows = list(TableResult.objects.filter(event=built).order_by("round_number", "table__number",
                                                                 "deal__number"))  # fmt: skip
    assert rows
    for row in (rows[0], rows[len(rows) // 2], rows[-1]):
        outcome = result_outcome(row)
        assert outcome is not None
        entered = table_result_enter(
            table=Table.objects.get(event=empty, number=row.table.number),
            deal=Deal.objects.get(event=empty, number=row.deal.number),
            outcome=outcome,
            via="table",
        )
        entered.refresh_from_db()
        assert _picture(row) == _picture(entered)
        assert _history(row) == _history(entered)
        assert row.version == 1


@pytest.mark.django_db
def test_fill_takes_the_first_plays_in_round_table_deal_order() -> None:
    full = scale_event_build(**SMALL, fill=100)
    half = scale_event_build(**SMALL, fill=50)
    none = scale_event_build(**SMALL, fill=0)
    tenth = scale_event_build(**SMALL, fill=10)
    plays = 3 * 4 * 2  # tables × rounds × deals per round, nobody sits out
    assert TableResult.objects.filter(event=full).count() == plays
    assert TableResult.objects.filter(event=none).count() == 0
    assert TableResult.objects.filter(event=tenth).count() == plays // 10  # rounded down
    # 50 % of 4 rounds: rounds 1 and 2, complete.
    halves = TableResult.objects.filter(event=half)
    assert halves.count() == plays // 2
    assert set(halves.values_list("round_number", flat=True)) == {1, 2}
    # One bulk write: every row at version 1, the event at results version 1 (0 when empty).
    assert set(TableResult.objects.filter(event=full).values_list("version", flat=True)) == {1}
    assert (full.results_version, half.results_version, none.results_version) == (1, 1, 0)
    assert ResultChange.objects.filter(event=full).count() == plays
    # A smaller fill stores a prefix of a larger one's results (same seed).
    order = ("round_number", "table__number", "deal__number")
    fields = ("round_number", "table__number", "deal__number", "contract", "oudlers",
              "points_half", "mark_n", "mark_e", "mark_s", "mark_w")  # fmt: skip
    assert list(halves.order_by(*order).values_list(*fields)) == list(
        TableResult.objects.filter(event=full).order_by(*order).values_list(*fields)[: plays // 2]
    )
    # Tables draw among several simulated plays: a deal does not score the same everywhere.
    values = TableResult.objects.filter(event=full).values_list("deal__number", "mark_e")
    assert len(set(values)) > len({deal for deal, _ in values})
    assert full.club.name == SCALE_CLUB_NAME and full.public


@pytest.mark.django_db
def test_command_prints_the_event_and_can_recompute() -> None:
    out = StringIO()
    call_command("scale_event", "--tables", "5", "--rounds", "3", "--deals-per-round", "2",
                 "--fill", "100", "--seed", "3", "--recompute", "--json", stdout=out)  # fmt: skip
    summary = json.loads(out.getvalue())
    event = Event.objects.get(pk=summary["event"])
    assert summary["name"] == event.name
    assert summary["results"] == 5 * 3 * 2 == TableResult.objects.filter(event=event).count()
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.complete and snapshot.results_version == event.results_version == 1

    text = StringIO()
    call_command("scale_event", "--tables", "3", "--rounds", "2", "--name", "Essai", stdout=text)
    assert "Essai" in text.getvalue() and "24 results" in text.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "args",
    [
        ["--tables", "2", "--rounds", "2"],
        ["--tables", "2501", "--rounds", "2"],
        ["--tables", "x", "--rounds", "2"],
        ["--tables", "5", "--rounds", "0"],
        ["--tables", "5", "--rounds", "2", "--fill", "101"],
        ["--tables", "5", "--rounds", "2", "--fill", "nan"],
        ["--tables", "5", "--rounds", "2", "--deals-per-round", "13"],
        ["--tables", "5", "--rounds", "6"],  # no 6-round movement on 5 tables
        ["--tables", "5"],
        ["--tables", "5", "--rounds", "2", "--bogus"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str]) -> None:
    with pytest.raises(CommandError) as caught:
        call_command("scale_event", *args, stdout=StringIO())
    assert caught.value.returncode == 2
    assert "\n" not in str(caught.value)
    assert not Event.objects.exists()


def test_command_line_bad_arguments_exit_2_with_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "scale_event", "--tables", "9999", "--rounds", "6"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# --- a simultaneous of sections ---------------------------------------------------------------

SECTIONS = {"tables": 3, "rounds": 3, "deals_per_round": 2, "seed": 7, "sections": 3}


def _sections(parent: Event) -> list[Event]:
    return list(Event.objects.filter(simultaneous=parent).order_by("pk"))


@pytest.mark.django_db
def test_sections_build_a_running_simultaneous_at_version_1() -> None:
    parent = scale_event_build(**SECTIONS, fill=100)
    sections = _sections(parent)
    assert len(sections) == 3
    assert parent.simultaneous_id is None and parent.club.name == SCALE_CLUB_NAME and parent.public
    assert parent.status == Event.Status.RUNNING
    # Results of a section count in its simultaneous's version: 1 there, 0 in every section.
    assert parent.results_version == 1
    assert [s.results_version for s in sections] == [0, 0, 0]
    sets = Schedule.from_document(sections[0].movement).deal_set_count
    parent_deals = list(parent.deals.order_by("number").values_list("number", "deal_set", "cards"))
    assert len(parent_deals) == sets * 2
    plays = 3 * 3 * 2  # tables × rounds × deals per round, per section (nobody sits out)
    for section in sections:
        assert section.status == Event.Status.RUNNING and section.public
        assert section.club.name == section_club_name(sections.index(section) + 1)
        assert Entrant.objects.filter(event=section, phantom=False).count() == 12
        assert set(
            Entrant.objects.filter(event=section).values_list("player__club", flat=True)
        ) == {section.club_id}
        assert section.movement == sections[0].movement  # one document, every section
        assert (
            list(section.deals.order_by("number").values_list("number", "deal_set", "cards"))
            == parent_deals
        )
        results = TableResult.objects.filter(event=section)
        assert results.count() == plays
        assert set(results.values_list("version", flat=True)) == {1}
        assert ResultChange.objects.filter(event=section).count() == plays
    assert not TableResult.objects.filter(event=parent).exists()
    # Sections draw their outcomes independently: they do not all repeat the first one.
    order = ("round_number", "table__number", "deal__number")
    picture = [
        list(TableResult.objects.filter(event=s).order_by(*order).values_list("mark_n", flat=True))
        for s in sections
    ]
    assert picture[0] != picture[1] or picture[0] != picture[2]


@pytest.mark.django_db
def test_sections_rows_are_what_the_entry_service_stores() -> None:
    built = _sections(scale_event_build(**SECTIONS, fill=100))
    empty_parent = scale_event_build(**SECTIONS, fill=0)
    empty = _sections(empty_parent)
    assert empty_parent.results_version == 0
    assert not TableResult.objects.filter(event__simultaneous=empty_parent).exists()
    section, twin = built[1], empty[1]
    row = (
        TableResult.objects.filter(event=section)
        .order_by("round_number", "table__number", "deal__number")
        .last()
    )
    assert row is not None
    outcome = result_outcome(row)
    assert outcome is not None
    entered = table_result_enter(
        table=Table.objects.get(event=twin, number=row.table.number),
        deal=Deal.objects.get(event=twin, number=row.deal.number),
        outcome=outcome,
        via="table",
    )
    entered.refresh_from_db()
    assert _picture(row) == _picture(entered)
    assert _history(row) == _history(entered)
    # The service stamps the simultaneous's next version too, and bumps it alone.
    assert row.version == entered.version == 1
    assert Event.objects.get(pk=empty_parent.pk).results_version == 1
    assert Event.objects.get(pk=twin.pk).results_version == 0


@pytest.mark.django_db
def test_sections_fill_takes_every_sections_first_plays() -> None:
    half = scale_event_build(**SECTIONS, fill=50)
    for section in _sections(half):
        results = TableResult.objects.filter(event=section)
        assert results.count() == 3 * 3 * 2 // 2
        assert set(results.values_list("round_number", flat=True)) <= {1, 2}
    assert half.results_version == 1


@pytest.mark.django_db
def test_the_built_simultaneous_recomputes() -> None:
    parent = scale_event_build(**SECTIONS, fill=100)
    built = TableResult.objects.filter(event__simultaneous=parent).count()
    snapshot = standings_recompute(event_id=parent.pk)
    assert snapshot.event_id == parent.pk
    assert snapshot.results_version == 1
    assert snapshot.results_entered == built == snapshot.results_expected == 3 * 18
    assert snapshot.complete
    sections = _sections(parent)
    assert HandScore.objects.filter(event__in=sections).count() == 4 * built
    overall = RankingEntry.objects.filter(event=parent, kind=RankingEntry.Kind.INDIVIDUAL)
    assert overall.count() == 36
    for section in sections:
        mine = RankingEntry.objects.filter(event=section, kind=RankingEntry.Kind.INDIVIDUAL)
        assert set(mine.values_list("entrant__event", flat=True)) == {section.pk}
        assert mine.count() == 12


@pytest.mark.django_db
def test_delete_removes_a_whole_simultaneous() -> None:
    parent = scale_event_build(**SECTIONS, fill=100)
    standings_recompute(event_id=parent.pk)
    kept = scale_event_build(tables=3, rounds=2, deals_per_round=1, seed=1)
    sections = _sections(parent)
    with pytest.raises(ValueError, match="section"):
        scale_event_delete(event_id=sections[0].pk)
    scale_event_delete(event_id=parent.pk)
    assert list(Event.objects.all()) == [kept]
    assert not TableResult.objects.exclude(event=kept).exists()
    assert not HandScore.objects.exists() and not StandingsSnapshot.objects.exists()
    assert Player.objects.count() == 12  # only the other event's
    # The section clubs stay for the next build.
    assert Club.objects.filter(name=section_club_name(1)).exists()


@pytest.mark.django_db
def test_delete_refuses_an_event_outside_the_scale_clubs() -> None:
    parent = scale_event_build(**SECTIONS, fill=0, start=False)
    section = _sections(parent)[0]
    Event.objects.filter(pk=section.pk).update(club=Club.objects.create(name="Autre club"))
    with pytest.raises(ValueError, match="not a scale event"):
        scale_event_delete(event_id=parent.pk)
    assert Event.objects.filter(simultaneous=parent).count() == 3


@pytest.mark.django_db
def test_command_builds_sections_and_reports_the_simultaneous() -> None:
    out = StringIO()
    call_command("scale_event", "--tables", "3", "--sections", "3", "--rounds", "3",
                 "--deals-per-round", "2", "--recompute", "--json", stdout=out)  # fmt: skip
    summary = json.loads(out.getvalue())
    parent = Event.objects.get(pk=summary["event"])
    assert summary["simultaneous"] == parent.pk
    assert summary["section_ids"] == [s.pk for s in _sections(parent)]
    assert summary["sections"] == 3 and summary["section_tables"] == 3
    assert summary["tables"] == 9 and summary["players"] == 36
    assert (
        summary["results"]
        == 3 * 18
        == TableResult.objects.filter(event__simultaneous=parent).count()
    )
    snapshot = StandingsSnapshot.objects.get(event=parent)
    assert snapshot.complete and snapshot.results_version == 1

    text = StringIO()
    call_command("scale_event", "--tables", "3", "--sections", "2", "--rounds", "2",
                 "--name", "Essai simultané", stdout=text)  # fmt: skip
    assert "Essai simultané" in text.getvalue()
    assert "2 sections × 3 tables = 6 tables" in text.getvalue()
    assert "48 results" in text.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "args",
    [
        ["--tables", "3", "--rounds", "2", "--sections", "x"],
        ["--tables", "3", "--rounds", "2", "--sections", "-1"],
        ["--tables", "3", "--rounds", "2", "--sections", "501"],
        ["--tables", "100", "--rounds", "2", "--sections", "26"],  # 2,600 tables
        ["--tables", "70", "--rounds", "2", "--sections", "2"],  # a line on 70 uses 70 sets
    ],
)
def test_bad_section_arguments_exit_2_with_one_line(args: list[str]) -> None:
    with pytest.raises(CommandError) as caught:
        call_command("scale_event", *args, stdout=StringIO())
    assert caught.value.returncode == 2
    assert "\n" not in str(caught.value)
    assert not Event.objects.exists()

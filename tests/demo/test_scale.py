"""``demo.scale`` and ``manage.py scale_event``: events of any size filled in bulk.

The bulk rows must be the very rows the entry service stores: a result entered through
``table_result_submit`` with the same outcome, at the same table and deal of an identical event
(same arguments and seed, nothing filled), is compared field by field, history line included.
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

from demo.scale import SCALE_CLUB_NAME, scale_event_build
from scoring.models import StandingsSnapshot
from tournaments.models import Deal, Entrant, Event, ResultChange, Table, TableResult
from tournaments.selectors import result_outcome
from tournaments.services import table_result_submit

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
        entered = table_result_submit(
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

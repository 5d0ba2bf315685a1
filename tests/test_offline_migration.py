"""Continuity of issue 23's migrations (stored idempotency keys and late arrivals of the three
phone kinds): the tables, rooms and free-deal tables stored before keep their rows and codes,
and take keys and late arrivals afterwards."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("tournaments", "0011_competition_base"),
    ("teammatch", "0003_competition_base"),
    ("freedeal", "0003_competition_base"),
]
AFTER = [
    ("tournaments", "0012_entry_keys_late_arrivals"),
    ("teammatch", "0004_entry_keys_late_arrivals"),
    ("freedeal", "0004_entry_keys_late_arrivals"),
]
KEPT = datetime.datetime(2026, 11, 27, 19, 2, 11, tzinfo=datetime.UTC)


@pytest.mark.django_db(transaction=True)
def test_existing_tables_keep_their_rows_and_take_keys_after_the_migration() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        club = old.get_model("clubs", "Club").objects.create(name="Tarot Club de Lyon")
        event = old.get_model("tournaments", "Event").objects.create(
            club=club, name="Individuel", date=datetime.date(2026, 11, 27), format="individual"
        )
        table = old.get_model("tournaments", "Table").objects.create(
            event=event, number=1, code="ABCDEFGHJK"
        )
        tournament = old.get_model("freedeal", "FreeDealTournament").objects.create(
            club=club, name="Libres", date=datetime.date(2026, 11, 27)
        )
        free_table = old.get_model("freedeal", "FreeDealTable").objects.create(
            tournament=tournament, number=1, size=4, code="MNPQRSTVWX"
        )
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        stored = new.get_model("tournaments", "Table").objects.get(pk=table.pk)
        assert (stored.event_id, stored.number, stored.code) == (event.pk, 1, "ABCDEFGHJK")
        kept = new.get_model("freedeal", "FreeDealTable").objects.get(pk=free_table.pk)
        assert (kept.tournament_id, kept.code) == (tournament.pk, "MNPQRSTVWX")
        key = new.get_model("tournaments", "TableEntryKey").objects.create(
            holder_id=table.pk, key="k", deal=1, digest="0" * 64
        )
        assert key.result_pk is None and key.result_digest == ""
        late = new.get_model("freedeal", "FreeDealLateArrival").objects.create(
            holder_id=free_table.pk, deal=2, code="party_closed", kept_since=KEPT
        )
        assert late.handled is False and late.outcome == {}
        assert new.get_model("teammatch", "RoomEntryKey").objects.count() == 0
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

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


BOUNDED_BEFORE = [
    ("tournaments", "0014_round_clock_auto_advance"),
    ("teammatch", "0005_cup_team_player_french_order"),
    ("freedeal", "0004_entry_keys_late_arrivals"),
]
BOUNDED_AFTER = [
    ("tournaments", "0015_late_arrivals_bounded"),
    ("teammatch", "0006_late_arrivals_bounded"),
    ("freedeal", "0005_late_arrivals_bounded"),
]


@pytest.mark.django_db(transaction=True)
def test_late_arrivals_stored_before_the_bounds_are_bounded_by_the_migration() -> None:
    """Issue 30: the arrivals a flood left (several unhandled ones per deal, fat outcomes, an
    instant of year 9999) are bounded as new ones are: the latest of each deal stays unhandled,
    the others are marked handled (none deleted), outcomes capped, the instant clamped with its
    text kept; a free-deal arrival takes the party it sent."""
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BOUNDED_BEFORE)
    try:
        old = executor.loader.project_state(BOUNDED_BEFORE).apps
        club = old.get_model("clubs", "Club").objects.create(name="Tarot Club de Lyon")
        event = old.get_model("tournaments", "Event").objects.create(
            club=club, name="Individuel", date=datetime.date(2026, 11, 27), format="individual"
        )
        table = old.get_model("tournaments", "Table").objects.create(
            event=event, number=1, code="ABCDEFGHJK"
        )
        far = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.UTC)
        late = old.get_model("tournaments", "TableLateArrival").objects
        fat = {"d1-points": "9" * 5000, **{f"junk{n}": "x" * 300 for n in range(100)}}
        first = late.create(holder_id=table.pk, deal=1, code="invalid", kept_since=KEPT)
        second = late.create(
            holder_id=table.pk, deal=1, code="invalid", kept_since=far, outcome=fat
        )
        other = late.create(holder_id=table.pk, deal=2, code="invalid", kept_since=KEPT)
        tournament = old.get_model("freedeal", "FreeDealTournament").objects.create(
            club=club, name="Libres", date=datetime.date(2026, 11, 27)
        )
        free_table = old.get_model("freedeal", "FreeDealTable").objects.create(
            tournament=tournament, number=1, size=4, code="MNPQRSTVWX"
        )
        free = old.get_model("freedeal", "FreeDealLateArrival").objects
        parties = [
            free.create(holder_id=free_table.pk, deal=3, code="x", kept_since=KEPT, outcome=sent)
            for sent in ({"party": "1"}, {"party": "2"})
        ]
        executor = MigrationExecutor(connection)
        executor.migrate(BOUNDED_AFTER)
        new = executor.loader.project_state(BOUNDED_AFTER).apps
        rows = {
            row.pk: row for row in new.get_model("tournaments", "TableLateArrival").objects.all()
        }
        assert set(rows) == {first.pk, second.pk, other.pk}  # none deleted
        assert rows[first.pk].handled and not rows[second.pk].handled and not rows[other.pk].handled
        kept = rows[second.pk]
        assert kept.outcome["d1-points"] == "9" * 200 and len(kept.outcome) <= 40
        assert kept.kept_since.year < 9999 and kept.kept_since_sent.startswith("9999-12-31")
        free_rows = new.get_model("freedeal", "FreeDealLateArrival").objects.order_by("pk")
        assert [(row.party, row.handled) for row in free_rows] == [(1, False), (2, False)]
        assert [row.pk for row in free_rows] == [row.pk for row in parties]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

"""Continuity of the names: migration 0006 fills every stored player's folded names and sort
key from his names (unchanged), so that the searches and lists find and order the players
already there as they do new ones."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rules.names import fold, sort_key

BEFORE = [("clubs", "0007_club_owner")]
AFTER = [("clubs", "0008_player_folded_names_and_sort_key")]


@pytest.mark.django_db(transaction=True)
def test_stored_players_get_their_folded_names_and_sort_key() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        club = old.get_model("clubs", "Club").objects.create(name="Tarot Club de Brest")
        Player = old.get_model("clubs", "Player")
        names = [("GUÉRIN", "Chloé"), ("ŒUVRAY", "Luc"), ("d'Harcourt", "Jean"), ("VIDAL", "A")]
        # more than one batch of the migration (500)
        names += [(f"Joueur{n:04d}", "É") for n in range(520)]
        Player.objects.bulk_create(
            Player(last_name=last, first_name=first, club=club, licence=None)
            for last, first in names
        )
        before = sorted(Player.objects.values_list("pk", "last_name", "first_name"))
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        rows = new.get_model("clubs", "Player").objects.values_list(
            "pk", "last_name", "first_name", "last_name_folded", "first_name_folded",
            "name_sort_key",
        )  # fmt: skip
        assert sorted(row[:3] for row in rows) == before
        for _pk, last, first, last_folded, first_folded, key in rows:
            assert (last_folded, first_folded, key) == (
                fold(last),
                fold(first),
                sort_key(last, first),
            )
        assert rows.get(last_name="GUÉRIN")[3:5] == ("guerin", "chloe")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

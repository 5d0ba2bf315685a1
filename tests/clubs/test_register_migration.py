"""Continuity of the register: migration 0005 puts every player with a home club on that
club's register (active), and leaves players without a club (guests) off every register."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubs", "0004_register_and_invitations")]
AFTER = [("clubs", "0005_register_from_home_clubs")]


@pytest.mark.django_db(transaction=True)
def test_existing_players_join_their_club_register() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        Club = old.get_model("clubs", "Club")
        Player = old.get_model("clubs", "Player")
        lyon = Club.objects.create(name="Tarot Club de Lyon", city="Lyon")
        sete = Club.objects.create(name="Club de Sète", city="Sète")
        anne = Player.objects.create(first_name="Anne", last_name="Martin", licence="1", club=lyon)
        paul = Player.objects.create(first_name="Paul", last_name="Roux", club=sete)
        guest = Player.objects.create(first_name="Zoé", last_name="Invitée")
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        lines = set(
            new.get_model("clubs", "Membership").objects.values_list(
                "club_id", "player_id", "active", "category"
            )
        )
        assert lines == {(lyon.pk, anne.pk, True, ""), (sete.pk, paul.pk, True, "")}
        stored = new.get_model("clubs", "Player").objects.get(pk=anne.pk)
        assert (stored.first_name, stored.last_name, stored.licence, stored.club_id) == (
            "Anne",
            "Martin",
            "1",
            lyon.pk,
        )
        assert new.get_model("clubs", "Player").objects.filter(pk=guest.pk).exists()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

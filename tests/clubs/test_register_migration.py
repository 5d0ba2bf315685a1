"""Continuity of the register: migration 0005 puts every player with a home club on that
club's register (active), and leaves players without a club (guests) off every register;
migration 0006 puts the series stored as typed in their one form and keeps every line."""

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


SERIES_BEFORE = [("clubs", "0005_register_from_home_clubs")]
SERIES_AFTER = [("clubs", "0006_player_series_forms")]


@pytest.mark.django_db(transaction=True)
def test_stored_series_are_put_in_one_form_and_every_line_stays() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(SERIES_BEFORE)
    try:
        old = executor.loader.project_state(SERIES_BEFORE).apps
        club = old.get_model("clubs", "Club").objects.create(name="Tarot Club de Lyon")
        Player = old.get_model("clubs", "Player")
        Membership = old.get_model("clubs", "Membership")
        written = ["1ère série", "S2", "3", "Promotion", "Excellence", "", "NC"]
        players = [
            Player.objects.create(
                first_name=f"P{i}", last_name="Martin", licence=str(i), club=club, series=series
            )
            for i, series in enumerate(written)
        ]
        for player in players:
            Membership.objects.create(club=club, player=player, category="Senior")
        lines = set(Membership.objects.values_list("pk", "club_id", "player_id", "category"))
        executor = MigrationExecutor(connection)
        executor.migrate(SERIES_AFTER)
        new = executor.loader.project_state(SERIES_AFTER).apps
        stored = dict(new.get_model("clubs", "Player").objects.values_list("licence", "series"))
        assert [stored[str(i)] for i in range(len(written))] == [
            "1", "2", "3", "P", "Excellence", "", "",
        ]  # fmt: skip
        after = new.get_model("clubs", "Membership").objects.values_list(
            "pk", "club_id", "player_id", "category"
        )
        assert set(after) == lines
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

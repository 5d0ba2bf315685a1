"""Clubs existing before owners get one at migration: the account that set the instance up
(the earliest superuser) when it organises the club, else the club's earliest organiser (the
first added to its organisers); a club without organisers gets none. Each one is recorded."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubs", "0006_player_series_forms")]
AFTER = [("clubs", "0007_club_owner")]


@pytest.mark.django_db(transaction=True)
def test_existing_clubs_get_the_setup_account_or_their_earliest_organiser() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        User = old.get_model("auth", "User")
        Club = old.get_model("clubs", "Club")
        joined = dt.datetime(2026, 9, 1, tzinfo=dt.UTC)

        def user(name: str, days: int, superuser: bool = False) -> object:
            return User.objects.create(
                username=name, date_joined=joined + dt.timedelta(days=days), is_superuser=superuser
            )

        # Created in this order, but the setup account joined first.
        bob = user("bob", 2)
        setup = user("marie", 0, superuser=True)
        carol = user("carol", 3)
        admin = user("admin", 5, superuser=True)
        anne = user("anne", 1)
        lyon = Club.objects.create(name="Lyon")
        lyon.organisers.add(anne)
        lyon.organisers.add(setup)  # added after anne: still the setup account
        sete = Club.objects.create(name="Sète")
        sete.organisers.add(carol)  # the earliest organiser, though bob's account is older
        sete.organisers.add(bob)
        vienne = Club.objects.create(name="Vienne")
        vienne.organisers.add(bob)
        vienne.organisers.add(admin)  # a superuser, not the one who set the instance up
        empty = Club.objects.create(name="Sans organisateur")

        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        owners = dict(new.get_model("clubs", "Club").objects.values_list("pk", "owner_id"))
        assert owners == {
            lyon.pk: setup.pk,
            sete.pk: carol.pk,
            vienne.pk: bob.pk,
            empty.pk: None,
        }
        changes = new.get_model("clubs", "ClubOwnerChange").objects.order_by("club_id")
        assert list(
            changes.values_list("club_id", "reason", "by_id", "previous_id", "owner_id",
                                "owner_name")
        ) == [
            (lyon.pk, "migration", None, None, setup.pk, "marie"),
            (sete.pk, "migration", None, None, carol.pk, "carol"),
            (vienne.pk, "migration", None, None, bob.pk, "bob"),
        ]  # fmt: skip
        # The organisers are unchanged.
        club = new.get_model("clubs", "Club")
        assert set(club.objects.get(pk=lyon.pk).organisers.values_list("pk", flat=True)) == {
            anne.pk,
            setup.pk,
        }
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)


@pytest.mark.django_db(transaction=True)
def test_an_instance_set_up_by_createsuperuser_gives_each_club_its_earliest_organiser() -> None:
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        User = old.get_model("auth", "User")
        Club = old.get_model("clubs", "Club")
        root = User.objects.create(username="root", is_superuser=True)  # organises nothing
        first = User.objects.create(username="first")
        second = User.objects.create(username="second")
        club = Club.objects.create(name="Ligue")
        club.organisers.add(first)
        club.organisers.add(second)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        assert new.get_model("clubs", "Club").objects.get(pk=club.pk).owner_id == first.pk
        assert root.pk != first.pk
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

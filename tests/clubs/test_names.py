"""Searches ignore case and accents, lists are in French order, on SQLite and PostgreSQL alike.

The register as federation exports write it (capitals with accents): every search of people
(the register's, an event's player search, the substitute search, the public player search)
finds ``GUÉRIN Chloé`` from ``guerin``, ``GUERIN``, ``Guérin``, ``Chloe`` or ``chloe guerin``
and ``ŒUVRAY`` from ``oeuvray``, in the database (the folded names stored on each player).
Every list of people sorts by the stored key (``rules.names``): the same order on either
database. Run on PostgreSQL too: ``DATABASE_URL=postgres://.../names_db pytest <this file>``.
"""

from __future__ import annotations

import datetime as dt
import sqlite3

import pytest
from django.db import connection
from django.db.models.functions import Collate
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs import register
from clubs.models import Membership, Player
from clubs.selectors import register_active_players, register_lines
from scoring.selectors import search_entrants
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments import services
from tournaments.selectors import event_real_entrants, players_search

pytestmark = pytest.mark.django_db

#: The names of the report, in the French order every list must show.
FRENCH_ORDER = [
    ("BÉRARD", "Anne"),
    ("d'Harcourt", "Jean"),
    ("DUPRE", "Léa"),
    ("Dupré", "Léa"),
    ("ÉTIENNE", "Paul"),
    ("Gaillard", "Zoé"),
    ("GIRAUD", "Marc"),
    ("Le Gall", "Yann"),
    ("LEGALL", "Yann"),
    ("ŒUVRAY", "Luc"),
    ("VIDAL", "Anne"),
]


def names(players: list[Player]) -> list[tuple[str, str]]:
    return [(player.last_name, player.first_name) for player in players]


@pytest.fixture
def register_club() -> object:
    club = ClubFactory(name="Tarot Club de Brest")
    # stored in an order that is neither French nor code points
    for last, first in [FRENCH_ORDER[i] for i in (4, 10, 6, 0, 8, 2, 9, 5, 1, 7, 3)]:
        PlayerFactory(club=club, last_name=last, first_name=first)
    PlayerFactory(club=club, last_name="GUÉRIN", first_name="Chloé", licence="0412345")
    PlayerFactory(club=club, last_name="Martin", first_name="Guerino")  # also matches "guerin"
    return club


GUERIN_QUERIES = ["Guérin", "guérin", "Guerin", "GUERIN", "Chloe", "chloe guerin", "CHLOÉ  Guérin"]


@pytest.mark.parametrize("query", GUERIN_QUERIES)
def test_the_register_search_ignores_case_and_accents(register_club: object, query: str) -> None:
    found = [line.player for line in register_lines(register_club, query=query)]  # type: ignore[arg-type]
    assert ("GUÉRIN", "Chloé") in names(found)


@pytest.mark.parametrize("query", GUERIN_QUERIES)
def test_the_event_search_ignores_case_and_accents(register_club: object, query: str) -> None:
    event = EventFactory(club=register_club)
    assert ("GUÉRIN", "Chloé") in names(players_search(query=query, club=event.club_id))


def test_ligatures_and_punctuation_are_spelt_out(register_club: object) -> None:
    def found(query: str) -> list[tuple[str, str]]:
        return names(players_search(query=query, club=register_club))  # type: ignore[arg-type]

    assert found("oeuvray") == [("ŒUVRAY", "Luc")]
    assert found("Œuvray") == [("ŒUVRAY", "Luc")]
    assert (
        found("dharcourt") == found("d'Harcourt") == found("harcourt") == [("d'Harcourt", "Jean")]
    )
    assert found("legall") == found("le gall") == [("Le Gall", "Yann"), ("LEGALL", "Yann")]
    assert found("chloe guerin") == [("GUÉRIN", "Chloé")]
    assert found("guerin") == [("GUÉRIN", "Chloé"), ("Martin", "Guerino")]
    assert found("0412") == [("GUÉRIN", "Chloé")]  # a licence still matches
    assert found("'") == []


def test_the_pages_find_her(register_club: object) -> None:
    """The register's page and the event's player search (the live fragment and the page)."""
    organiser = OrganiserFactory(clubs=[register_club])
    client = Client()
    client.force_login(organiser)
    event = EventFactory(club=register_club)
    page = client.get(f"/en/organiser/clubs/{register_club.pk}/register/", {"q": "guerin"})  # type: ignore[attr-defined]
    assert "GUÉRIN Chloé" in page.content.decode()
    url = f"/en/organiser/events/{event.pk}/players/"
    live = client.get(url, {"q": "chloe guerin"}, headers={"HX-Request": "true"})
    assert "GUÉRIN Chloé" in live.content.decode()
    assert "GUÉRIN Chloé" in client.get(url, {"q": "Guérin"}).content.decode()


def test_the_public_search_ignores_case_and_accents(register_club: object) -> None:
    event = EventFactory(club=register_club)
    guerin = Player.objects.get(last_name="GUÉRIN")
    services.entrant_register(event=event, player=guerin)
    for query in GUERIN_QUERIES:
        assert [entrant.player for entrant in search_entrants(event, query)] == [guerin], query


def test_the_search_is_one_query_on_the_folded_names(register_club: object) -> None:
    """Matched in the database (no player read into Python to be compared)."""
    with CaptureQueriesContext(connection) as queries:
        found = players_search(query="chloe guerin", club=register_club)  # type: ignore[arg-type]
    assert names(found) == [("GUÉRIN", "Chloé")]
    assert len(queries) == 1
    assert "first_name_folded" in queries[0]["sql"]


def test_lists_of_people_are_in_french_order(register_club: object) -> None:
    """Gaillard before GIRAUD, ÉTIENNE before VIDAL, DUPRE beside Dupré, Le Gall beside
    LEGALL, d'Harcourt among the D: the register, its picker, a search, an event's entrants."""
    expected = [*FRENCH_ORDER]
    expected.insert(7, ("GUÉRIN", "Chloé"))
    expected.insert(10, ("Martin", "Guerino"))
    lines = [line.player for line in register_lines(register_club)]  # type: ignore[arg-type]
    assert names(lines) == expected
    assert names(list(register_active_players(register_club))) == expected  # type: ignore[arg-type]
    assert names(list(Player.objects.all())) == expected  # the default order
    assert [
        (line.player.last_name, line.player.first_name) for line in Membership.objects.all()
    ] == expected
    found = players_search(query="a", club=register_club, limit=50)  # type: ignore[arg-type]
    assert names(found) == [name for name in expected if "a" in (name[0] + name[1]).lower()]
    event = EventFactory(club=register_club, date=dt.date(2026, 12, 5))
    for player in reversed(lines):
        services.entrant_register(event=event, player=player)
    assert names([entrant.player for entrant in event_real_entrants(event)]) == expected


def test_the_derived_columns_follow_every_write() -> None:
    """save, save(update_fields), create, bulk_create, bulk_update, the register's services;
    update() may not change a name behind them."""
    club = ClubFactory()

    def stored(player: Player) -> tuple[str, str, str]:
        row = Player.objects.filter(pk=player.pk).values_list(
            "last_name_folded", "first_name_folded", "name_sort_key"
        )
        return row.get()

    created = Player.objects.create(last_name="GUÉRIN", first_name="Chloé")
    assert stored(created)[:2] == ("guerin", "chloe")
    created.last_name = "Œuvray"
    created.save(update_fields=["last_name"])
    assert stored(created)[0] == "oeuvray"
    (bulk,) = Player.objects.bulk_create([Player(last_name="Éluard", first_name="Paul")])
    assert stored(Player.objects.get(last_name="Éluard"))[:2] == ("eluard", "paul")
    bulk = Player.objects.get(last_name="Éluard")
    bulk.first_name = "Nusch"
    Player.objects.bulk_update([bulk], ["first_name"])
    assert stored(bulk)[1] == "nusch"
    with pytest.raises(TypeError):
        Player.objects.filter(pk=bulk.pk).update(last_name="Durand")
    added = register.register_player_add(club=club, first_name="Zoé", last_name="GAILLARD")
    assert stored(added.player)[:2] == ("gaillard", "zoe")
    report = register.register_import_csv(club=club, file="Nom;Prénom\nÉTIENNE;Hélène\n")
    assert report.ok
    assert stored(Player.objects.get(last_name="ÉTIENNE"))[:2] == ("etienne", "helene")
    line = Membership.objects.get(club=club, player=added.player)
    register.register_line_update(
        membership=line, first_name="Zoë", last_name="Gaillard-Roux", category="", active=True
    )
    assert stored(added.player)[:2] == ("gaillardroux", "zoe")
    assert stored(added.player)[2] == Player.objects.get(pk=added.player.pk).name_sort_key


def test_both_databases_order_the_names_alike(register_club: object) -> None:
    """The order read from this run's database (SQLite, or PostgreSQL with its language
    collations too) is the order of an SQLite database's binary collation and of Python."""
    keys = list(Player.objects.values_list("name_sort_key", "last_name", "first_name"))
    sqlite = sqlite3.connect(":memory:")
    sqlite.execute("CREATE TABLE player (name_sort_key TEXT, last_name TEXT, first_name TEXT)")
    sqlite.executemany("INSERT INTO player VALUES (?, ?, ?)", reversed(keys))
    in_sqlite = sqlite.execute(
        "SELECT last_name, first_name FROM player ORDER BY name_sort_key"
    ).fetchall()
    sqlite.close()
    here = names(list(Player.objects.order_by("name_sort_key")))
    assert here == in_sqlite == [(last, first) for _k, last, first in sorted(keys)]
    assert here.index(("Gaillard", "Zoé")) < here.index(("GIRAUD", "Marc"))
    assert here.index(("ÉTIENNE", "Paul")) < here.index(("VIDAL", "Anne"))
    assert here.index(("DUPRE", "Léa")) + 1 == here.index(("Dupré", "Léa"))
    assert here.index(("Le Gall", "Yann")) + 1 == here.index(("LEGALL", "Yann"))
    assert here[1] == ("d'Harcourt", "Jean")
    if connection.vendor == "postgresql":
        for collation in ("C", "und-x-icu", "fr-x-icu", "fr-FR-x-icu"):
            collated = Player.objects.order_by(Collate("name_sort_key", collation))
            assert names(list(collated)) == here, collation

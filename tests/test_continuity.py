"""Continuity: a database written by an earlier release migrates forward with its data intact.

``tests/data/continuity/demo-00a2a26.sqlite3.gz`` is the demo database built by the release
before the kernel app (commit 00a2a26, ``manage.py demo --no-serve``): events (a running
individual, finished triplette and quadrette, a simultaneous in three sections), a season
series, a team-match cup and a free-deal tournament, with their results, histories, table and
room codes and published standings. ``demo-00a2a26.expected.json.gz`` holds what that release
read from it (``extract-00a2a26.py``): every row of every business table, and the free-deal
ranking, the cup's match sheets and the series ranking as its selectors computed them.

The test migrates a copy with today's code (in a subprocess, on its own SQLite file), reads the
same things with today's code, and compares: every row (under the table and column names it
has now: clubs and players moved to ``clubs``, a cup's ``created`` became ``created_at``),
every computed ranking, and the event standings recomputed from the results (equal to the
stored ones).

``entered-73d076a.sqlite3.gz`` was built by the code at the start of one "entered by" for the
three kinds of competition (commit 73d076a, ``build-73d076a.py``): cup, free-deal and
duplicate results entered by the phone pages, the API and the director, with corrections.
``entered-73d076a.expected.json.gz`` (``extract-73d076a.py``) holds every result's "entered
by" and every history line as that code stored them; migrated with today's code, they must
read the same through today's fields.

A further test runs on the suite's own database (PostgreSQL in CI): it migrates back to the
release's migrations, writes rows with that state's models, migrates forward and reads them.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "continuity"

#: Where a model of the earlier release lives now (app label and model, then column renames).
MOVED = {
    "tournaments.club": "clubs.club",
    "tournaments.player": "clubs.player",
    "tournaments.club_organisers": "clubs.club_organisers",
}
RENAMED_COLUMNS = {
    "teammatch.cup": {"created": "created_at"},
    # One "entered by" for every kind (issue 32): a room result's text is its name shown.
    "teammatch.roomresult": {"entered_by": "entered_by_label"},
}
#: Columns of the earlier release read through an expression on today's (issue 32: a room
#: result's director flag is its path).
COMPUTED_COLUMNS = {"teammatch.roomresult": {"director": "(entered_via = 'organiser')"}}

#: The leaf migrations of the earlier release.
RELEASE_TARGETS = [
    ("tournaments", "0008_event_ruleset"),
    ("scoring", "0004_ranking_published"),
    ("teammatch", "0001_initial"),
    ("freedeal", "0001_initial"),
    ("series", "0001_initial"),
]


def _plain(value: Any) -> Any:
    skip = ("tournament", "series", "entries", "players", "cup", "match")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in skip
        }
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, int | str | bool) or value is None:
        return value
    return str(value)


def extract(expected_path: str, output_path: str) -> None:
    """Run inside ``manage.py shell`` on the migrated copy: the rows named in the expected
    document (read under today's names), the computed rankings, and the standings recomputed."""
    from django.apps import apps
    from django.db import connection

    from freedeal import selectors as free_deal_selectors
    from freedeal.models import FreeDealTournament
    from scoring.models import RankingEntry, StandingsSnapshot
    from scoring.services import standings_recompute
    from series.models import Series
    from series.selectors import series_ranking
    from teammatch.models import Cup
    from teammatch.selectors import match_sheets

    with gzip.open(expected_path, "rt", encoding="utf-8") as file:
        expected = json.load(file)
    rows: dict[str, Any] = {}
    for label, old in expected["rows"].items():
        now = MOVED.get(label, label)
        app_label, name = now.split(".")
        if name.endswith("_organisers"):
            club = apps.get_model(app_label, name.removesuffix("_organisers"))
            table = club._meta.get_field("organisers").remote_field.through._meta.db_table
        else:
            table = apps.get_model(app_label, name)._meta.db_table
        renames = RENAMED_COLUMNS.get(label, {})
        computed_columns = COMPUTED_COLUMNS.get(label, {})
        columns = [renames.get(column, column) for column in old["columns"]]
        quoted = ", ".join(
            computed_columns.get(column) or connection.ops.quote_name(column) for column in columns
        )
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {quoted} FROM {connection.ops.quote_name(table)} ORDER BY 1")
            rows[label] = {"table": table, "rows": [list(row) for row in cursor.fetchall()]}

    computed: dict[str, Any] = {}
    for tournament in FreeDealTournament.objects.order_by("pk"):
        computed[f"freedeal:{tournament.pk}"] = _plain(
            free_deal_selectors.free_deal_ranking(tournament).rows
        )
    for cup in Cup.objects.order_by("pk"):
        for everything in (False, True):
            sheets = match_sheets(list(cup.matches.order_by("pk")), cup, directs=everything)
            computed[f"cup:{cup.pk}:{everything}"] = _plain(sheets)
    for series in Series.objects.order_by("pk"):
        computed[f"series:{series.pk}"] = _plain(series_ranking(series).standings)

    def ranking_rows() -> list[list[Any]]:
        fields = ["event_id", "kind", "published", "line", "rank", "entrant_id", "team_id",
                  "percentage", "penalty", "marks_total", "deals_played", "points_de_match",
                  "victory_points"]  # fmt: skip
        return [
            [str(v) for v in row]
            for row in RankingEntry.objects.order_by(*fields).values_list(*fields)
        ]

    stored = ranking_rows()
    for snapshot in StandingsSnapshot.objects.order_by("event_id"):
        standings_recompute(event_id=snapshot.event_id, force=True, full=True)
    recomputed = ranking_rows()
    with open(output_path, "w", encoding="utf-8") as file:
        json.dump(
            {"rows": rows, "computed": computed, "stored": stored, "recomputed": recomputed},
            file,
            default=str,
        )


def _manage(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DJANGO_DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{database}",
        "CELERY_TASK_ALWAYS_EAGER": "true",
    }
    env.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _normal(value: Any) -> Any:
    """JSON round trip with the earlier release's conventions (``default=str``)."""
    return json.loads(json.dumps(value, default=str))


def _by_place(standings: list[dict[str, Any]]) -> list[Any]:
    """A series ranking with its players of equal place in one order (their ids)."""
    return sorted(
        _normal(standings), key=lambda line: (line["place"] is None, line["place"] or 0,
                                              line["player_id"])
    )  # fmt: skip


def test_the_previous_release_demo_database_migrates_with_its_data(tmp_path: Path) -> None:
    database = tmp_path / "demo.sqlite3"
    with gzip.open(DATA / "demo-00a2a26.sqlite3.gz", "rb") as source, database.open("wb") as out:
        shutil.copyfileobj(source, out)
    migrated = _manage(database, "migrate", "--no-input")
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    assert "Applying clubs.0001_initial... OK" in migrated.stdout

    output = tmp_path / "now.json"
    code = (
        "from tests.test_continuity import extract; "
        f"extract({str(DATA / 'demo-00a2a26.expected.json.gz')!r}, {str(output)!r})"
    )
    read = _manage(database, "shell", "-c", code)
    assert read.returncode == 0, read.stdout + read.stderr
    now = json.loads(output.read_text(encoding="utf-8"))
    with gzip.open(DATA / "demo-00a2a26.expected.json.gz", "rt", encoding="utf-8") as file:
        expected = json.load(file)

    assert now["rows"]["tournaments.club"]["table"] == "clubs_club"
    assert now["rows"]["tournaments.player"]["table"] == "clubs_player"
    for label, old in expected["rows"].items():
        assert _normal(now["rows"][label]["rows"]) == _normal(old["rows"]), label
    # Nothing empty was compared by accident: the demo has every kind of row.
    kinds = ["tournaments.tableresult", "tournaments.resultchange", "tournaments.table",
             "teammatch.roomresultchange", "teammatch.matchroom", "freedeal.freedealchange",
             "freedeal.freedealtable", "scoring.rankingentry"]  # fmt: skip
    for label in kinds:
        assert expected["rows"][label]["rows"], label
    assert set(now["computed"]) == set(expected["computed"])
    for key, value in expected["computed"].items():
        if key.startswith("series:"):
            # Players of equal place: in French order of their names since clubs 0006 (the
            # release listed them by code points); the places and figures are unchanged.
            assert _by_place(now["computed"][key]) == _by_place(value), key
            continue
        assert _normal(now["computed"][key]) == _normal(value), key
    assert now["stored"] and now["recomputed"] == now["stored"]


#: Who entered a result, as the code at 73d076a stored it, read through today's fields.
def _user(user: Any) -> str | None:
    return None if user is None else str(user.get_username())


def _entered_duplicate(result: Any) -> dict[str, Any]:
    return {"entered_by": _user(result.entered_by), "entered_via": result.entered_via,
            "director_assigned": result.director_assigned}  # fmt: skip


def _entered_room(result: Any) -> dict[str, Any]:
    return {"entered_by": result.entered_by_label, "director": result.entered_by_director}


def _entered_free_deal(result: Any) -> dict[str, Any]:
    return {"entered_by": _user(result.entered_by), "entered_by_label": result.entered_by_label}


def extract_entered(output_path: str) -> None:
    """Run inside ``manage.py shell`` on the migrated copy of ``entered-73d076a``: every
    result's "entered by" and every history line, in the shape ``extract-73d076a.py`` wrote."""
    from freedeal.models import FreeDealChange, FreeDealResult
    from teammatch.models import RoomResult, RoomResultChange
    from tournaments.models import ResultChange, TableResult

    def lines(queryset: Any, owner: Any) -> list[dict[str, Any]]:
        return [
            {
                "pk": c.pk,
                "result": c.result_id,
                "action": c.action,
                "actor": _user(c.actor),
                "actor_label": c.actor_label,
                "at": c.at.isoformat(),
                "reason": c.reason,
                "before": c.before,
                "after": c.after,
                **owner(c),
            }
            for c in queryset.select_related("actor").order_by("pk")
        ]

    document = {
        "tournaments": {
            "results": [
                {
                    "pk": r.pk,
                    "table": r.table.number,
                    "deal": r.deal.number,
                    **_entered_duplicate(r),
                    "value": r.value,
                }
                for r in TableResult.objects.select_related("entered_by", "table", "deal").order_by(
                    "pk"
                )
            ],
            "history": lines(ResultChange.objects.all(), lambda c: {"event": c.event_id}),
        },
        "teammatch": {
            "results": [
                {
                    "pk": r.pk,
                    "room": r.room,
                    "deal": r.deal.number,
                    **_entered_room(r),
                    "value": r.value,
                }
                for r in RoomResult.objects.select_related("deal").order_by("pk")
            ],
            "history": lines(RoomResultChange.objects.all(), lambda c: {}),
        },
        "freedeal": {
            "results": [
                {
                    "pk": r.pk,
                    "party": r.party,
                    "deal": r.deal,
                    **_entered_free_deal(r),
                    "value": r.value,
                }
                for r in FreeDealResult.objects.select_related("entered_by").order_by("pk")
            ],
            "history": lines(
                FreeDealChange.objects.all(), lambda c: {"tournament": c.tournament_id}
            ),
        },
    }
    # Today's one convention, on every kind: (account, name shown, path) by result.
    document["convention"] = {
        kind: [
            [r.pk, _user(r.entered_by), r.entered_by_label, r.entered_via]
            for r in model.objects.select_related("entered_by").order_by("pk")
        ]
        for kind, model in (
            ("tournaments", TableResult), ("teammatch", RoomResult), ("freedeal", FreeDealResult)
        )
    }  # fmt: skip
    with open(output_path, "w", encoding="utf-8") as file:
        json.dump(document, file, default=str)


def test_results_entered_by_phone_api_and_director_keep_who_entered_them(tmp_path: Path) -> None:
    """``entered-73d076a``: a cup, a free-deal night and a duplicate event whose results were
    entered by the phone pages, the API and the director, and corrected by both, with the code
    at the start of one "entered by" for the three kinds. Migrated with today's code (migrate
    and read in one subprocess), every result keeps who entered it and every history line
    stays as it was."""
    database = tmp_path / "entered.sqlite3"
    source_path = DATA / "entered-73d076a.sqlite3.gz"
    with gzip.open(source_path, "rb") as source, database.open("wb") as out:
        shutil.copyfileobj(source, out)
    output = tmp_path / "now.json"
    code = (
        "from django.core.management import call_command; "
        "call_command('migrate', interactive=False, verbosity=0); "
        "from tests.test_continuity import extract_entered; "
        f"extract_entered({str(output)!r})"
    )
    read = _manage(database, "shell", "-c", code)
    assert read.returncode == 0, read.stdout + read.stderr
    now = json.loads(output.read_text(encoding="utf-8"))
    with gzip.open(DATA / "entered-73d076a.expected.json.gz", "rt", encoding="utf-8") as file:
        expected = json.load(file)

    # The fixture holds every path: phones, API and director, entries and corrections.
    rooms = expected["teammatch"]["results"]
    assert {r["director"] for r in rooms} == {True, False}
    assert {r["entered_via"] for r in expected["tournaments"]["results"]} == {
        "table", "api", "organiser"
    }  # fmt: skip
    for kind in ("tournaments", "teammatch", "freedeal"):
        actions = [line["action"] for line in expected[kind]["history"]]
        assert "create" in actions and "correct" in actions, kind
        assert any(line["reason"] for line in expected[kind]["history"]), kind
        assert _normal(now[kind]["results"]) == _normal(expected[kind]["results"]), kind
        assert _normal(now[kind]["history"]) == _normal(expected[kind]["history"]), kind

    # The one convention filled from what each kind stored: the name shown, the director's
    # account and path; a phone's entries keep no account.
    convention = {
        kind: {row[0]: row[1:] for row in rows} for kind, rows in now["convention"].items()
    }
    for room in rooms:
        account, label, via = convention["teammatch"][room["pk"]]
        assert label == room["entered_by"]
        assert (account, via) == (
            ("arbitre.coupe", "organiser") if room["director"] else (None, "table")
        )
    for result in expected["freedeal"]["results"]:
        account, label, via = convention["freedeal"][result["pk"]]
        assert (account, label) == (result["entered_by"], result["entered_by_label"])
        assert via == ("table" if result["entered_by"] is None else "organiser")
    for result in expected["tournaments"]["results"]:
        account, label, via = convention["tournaments"][result["pk"]]
        assert (account, via) == (result["entered_by"], result["entered_via"])
        assert label == (account or f"table {result['table']}")


@pytest.mark.django_db(transaction=True)
def test_rows_of_the_previous_release_survive_the_moves_on_this_database() -> None:
    """On the suite's database (PostgreSQL in CI): back to the release's migrations, rows
    written with that state, forward again, read with today's models."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(RELEASE_TARGETS)
    try:
        old = executor.loader.project_state(RELEASE_TARGETS).apps
        user = old.get_model("auth", "User").objects.create(username="director")
        club = old.get_model("tournaments", "Club").objects.create(name="Club ancien", city="Lyon")
        club.organisers.add(user)
        player = old.get_model("tournaments", "Player").objects.create(
            first_name="Anne", last_name="MARTIN", licence="0123456", club=club
        )
        event = old.get_model("tournaments", "Event").objects.create(
            club=club, name="Individuel", date="2026-11-01", format="individual"
        )
        old.get_model("tournaments", "Entrant").objects.create(event=event, slot=1, player=player)
        table = old.get_model("tournaments", "Table").objects.create(
            event=event, number=1, code="ABCDEFGHJK"
        )
        cup = old.get_model("teammatch", "Cup").objects.create(
            club=club, name="Coupe", date="2026-11-02"
        )
        created = cup.created
        tournament = old.get_model("freedeal", "FreeDealTournament").objects.create(
            club=club, name="Donnes libres", date="2026-11-03"
        )
        old.get_model("freedeal", "FreeDealPlayer").objects.create(
            tournament=tournament, number=1, player=player
        )
        series = old.get_model("series", "Series").objects.create(club=club, name="Challenge")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)

    from clubs.models import Club, Player
    from freedeal.models import FreeDealTournament
    from series.models import Series
    from teammatch.models import Cup
    from tournaments.models import Event, Table

    moved = Club.objects.get(pk=club.pk)
    assert (moved.name, moved.city) == ("Club ancien", "Lyon")
    assert list(moved.organisers.values_list("username", flat=True)) == ["director"]
    assert moved.owner is not None and moved.owner.username == "director"  # given on upgrade
    assert Player.objects.get(pk=player.pk).licence == "0123456"
    assert Player.objects.get(pk=player.pk).club == moved
    assert Event.objects.get(pk=event.pk).club == moved
    assert Event.objects.get(pk=event.pk).entrants.get().player_id == player.pk
    assert Table.objects.get(pk=table.pk).code == "ABCDEFGHJK"
    assert Cup.objects.get(pk=cup.pk).created_at == created
    assert FreeDealTournament.objects.get(pk=tournament.pk).players.get().player_id == player.pk
    assert Series.objects.get(pk=series.pk).club == moved
    assert Club._meta.db_table == "clubs_club"


#: The leaf migrations before one "entered by" for every kind (issue 32).
BEFORE_ENTERED_BY = [
    ("tournaments", "0015_late_arrivals_bounded"),
    ("teammatch", "0006_late_arrivals_bounded"),
    ("freedeal", "0005_late_arrivals_bounded"),
]


@pytest.mark.django_db(transaction=True)
def test_entered_by_of_every_kind_survives_its_migrations_on_this_database() -> None:
    """On the suite's database (PostgreSQL in CI): results of the three kinds entered by the
    phones and the director, the migrations of issue 32 undone (a room result's flag and text
    written back from today's fields) and done again: every result has the same account, name
    and path, every history line is untouched."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from freedeal import services as free_deal_services
    from freedeal.models import FreeDealChange, FreeDealResult
    from teammatch import services as cup_services
    from teammatch.models import RoomResult, RoomResultChange
    from tests.builders import GARDE_46, first_play, running_event
    from tests.factories import OrganiserFactory, RunningFreeDealFactory
    from tests.teammatch.worlds import feasible, other, running_match
    from tournaments import services as tournament_services
    from tournaments.models import ResultChange, TableResult

    running = running_match()
    _outcome, _row = running.enter("open", 1)
    cup_services.room_result_director_correct(
        match=running.match, room="closed", deal_number=1, actor=running.organiser,
        outcome=other(feasible(running.deal(1), "garde", 50)), reason="feuille",
    )  # fmt: skip
    night = RunningFreeDealFactory(parties=2)
    seated = night.table_players(1, 1)
    garde = {"contract": "garde", "taker": seated[0], "oudlers": 2, "points": 46}
    free_deal_services.free_deal_result_enter(table=night.tables.get(), deal=1, data=garde, party=1)
    free_deal_services.free_deal_result_director_correct(
        tournament=night, table_number=1, party=1, deal=2, data=garde,
        user=OrganiserFactory(clubs=[night.club]), reason="oubli",
    )  # fmt: skip
    event = running_event(tables=3, rounds=2)
    table, deal, _play = first_play(event)
    result = tournament_services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    tournament_services.table_result_director_correct(
        result=result, outcome={**GARDE_46, "points": 50},
        actor=OrganiserFactory(clubs=[event.club]), reason="erreur",
    )  # fmt: skip

    def entered() -> dict[str, Any]:
        fields = ("pk", "entered_by_id", "entered_by_label", "entered_via")
        lines = ("pk", "result_id", "action", "actor_id", "actor_label", "at", "reason",
                 "before", "after")  # fmt: skip
        return {
            model.__name__: list(model.objects.order_by("pk").values_list(*fields))
            for model in (TableResult, RoomResult, FreeDealResult)
        } | {
            model.__name__: list(model.objects.order_by("pk").values_list(*lines))
            for model in (ResultChange, RoomResultChange, FreeDealChange)
        }

    before = entered()
    assert {row[3] for rows in ("TableResult", "RoomResult", "FreeDealResult")
            for row in before[rows]} == {"table", "organiser"}  # fmt: skip
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE_ENTERED_BY)
    try:
        old = executor.loader.project_state(BEFORE_ENTERED_BY).apps
        rooms = old.get_model("teammatch", "RoomResult").objects.order_by("pk")
        assert list(rooms.values_list("entered_by", "director")) == [
            (label, via == "organiser") for _pk, _user, label, via in before["RoomResult"]
        ]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)
    assert entered() == before

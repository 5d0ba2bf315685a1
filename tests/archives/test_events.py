"""Archive and restore of events (``archives.events``): round trips of whole events, refusals,
commands and the organiser's pages.

A round trip archives an event, restores the file into another club, archives the restored
event again and compares the two documents: they are equal but for what legitimately
differs (the export time, the club, table codes, when the standings were computed, and who
recorded a penalty: no user account travels in an archive).
"""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from archives import events as archive
from archives import kinds
from archives.format import MAX_BYTES, dumps
from clubs.models import Player
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from scoring.services import standings_recompute
from tests.builders import enter_round, running_event, scored_event, team_event
from tests.factories import ClubFactory, OrganiserFactory, UserFactory
from tests.tournaments.test_sections import section, simultaneous
from tournaments import services
from tournaments.models import Entrant, Event, Penalty, ResultChange, Table, TableResult

pytestmark = pytest.mark.django_db

COUNTED = (Event, Entrant, Player, Table, TableResult, ResultChange, Penalty, StandingsSnapshot,
           RankingEntry, HandScore)  # fmt: skip


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


def normalised(document: dict[str, Any]) -> dict[str, Any]:
    """The document without what legitimately differs after a restore."""
    doc = copy.deepcopy(document)
    doc.pop("exported_at")
    blocks = [doc["event"], *doc["event"]["sections"]]
    for block in blocks:
        block.pop("club")
        for table in block["tables"]:
            table.pop("code")
        for entrant in block["entrants"]:
            if entrant["player"] is not None:
                entrant["player"].pop("club")
                entrant["player"].pop("event_club")
        for penalty in block["penalties"]:
            penalty.pop("by")
    if doc["standings"] is not None:
        doc["standings"].pop("computed_at")
    return doc


def restore(
    file: Any, *, club: Any, keep_table_codes: bool = False, max_bytes: int = MAX_BYTES
) -> SimpleNamespace:
    """Restore an event archive through the entry point the restore page and command use
    (``archives.kinds.restore_document``); its report as the tests read it."""
    restored = kinds.restore_document(
        file, club=club, keep_codes=keep_table_codes, max_bytes=max_bytes, allowed=["event"]
    )
    return SimpleNamespace(
        event=restored.obj,
        verified=restored.verified,
        differences=restored.differences,
        **restored.counts,
    )


def round_trip(event: Event, **options: Any) -> tuple[dict[str, Any], dict[str, Any], Any]:
    first = archive.archive_event(event)
    text = dumps(first)
    club = ClubFactory(name="Club de restauration")
    report = restore(text.encode(), club=club, **options)
    second = archive.archive_event(report.event)
    return first, second, report


def wipe(event: Event) -> None:
    """Remove an event as if it had never been on this server (its history is protected)."""
    ResultChange.objects.filter(event=event).delete()
    TableResult.objects.filter(event=event).delete()
    event.delete()


def finished_individual() -> Event:
    event = scored_event(tables=5, deals_per_round=2)
    event = services.event_finish(event=event)
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def running_with_corrections() -> Event:
    event = scored_event(tables=5, deals_per_round=2, rounds_played=2)
    director = OrganiserFactory(clubs=[event.club])
    result = TableResult.objects.filter(event=event).order_by("pk").first()
    assert result is not None
    services.table_result_director_correct(
        result=result,
        outcome={"contract": "garde", "oudlers": 2, "points": 46},
        actor=director,
        reason="Erreur de saisie",
    )
    entrant = Entrant.objects.filter(event=event, phantom=False).order_by("slot").first()
    services.penalty_record(event=event, entrant=entrant, points="1.5", reason="Retard",
                            actor=director)  # fmt: skip
    # a third round half entered: its deals are still in play at some tables
    play = event.schedule.round(3).playing[0]  # type: ignore[union-attr]
    deal = event.deals.filter(deal_set=play.deal_set).order_by("number").first()
    assert deal is not None
    table = event.tables.get(number=play.table)
    outcome = {"contract": "garde", "oudlers": 1, "points": 60}
    services.table_result_enter(table=table, deal=deal, outcome=outcome)
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def simultaneous_with_sections() -> Event:
    parent = simultaneous(public=True)
    finished = section(parent, 3, name="Lyon")
    running = section(parent, 4, name="Vienne")
    services.event_start(event=finished)
    services.event_start(event=running)
    rng = random.Random(5)
    finished = Event.objects.get(pk=finished.pk)
    for number in finished.schedule.round_numbers:
        enter_round(finished, number, rng)
    services.event_finish(event=Event.objects.get(pk=finished.pk))
    enter_round(Event.objects.get(pk=running.pk), 1, rng)
    standings_recompute(event_id=parent.pk)
    return Event.objects.get(pk=parent.pk)


# --- round trips ---------------------------------------------------------------------------


def test_a_finished_individual_event_round_trips() -> None:
    event = finished_individual()
    first, second, report = round_trip(event)
    assert normalised(first) == normalised(second)
    assert report.verified is True and report.differences == []
    assert report.results == TableResult.objects.filter(event=event).count() > 0
    restored = report.event
    assert restored.club.name == "Club de restauration"
    assert restored.status == Event.Status.FINISHED
    # new table codes: the archive never opens entry on the restored event
    old = set(Table.objects.filter(event=event).values_list("code", flat=True))
    new = set(Table.objects.filter(event=restored).values_list("code", flat=True))
    assert len(new) == len(old) and not old & new
    # players are the server's own, matched by licence
    assert report.players_matched == 20 and report.players_created == 0
    assert set(restored.entrants.values_list("player_id", flat=True)) == set(
        event.entrants.values_list("player_id", flat=True)
    )


def test_a_running_event_with_a_correction_a_penalty_and_withheld_deals_round_trips() -> None:
    event = running_with_corrections()
    first, second, report = round_trip(event)
    assert normalised(first) == normalised(second)
    assert report.verified is True
    block = first["event"]
    assert [change["action"] for change in block["history"]].count("correct") == 1
    assert block["penalties"][0]["points"] == "1.50"
    assert block["penalties"][0]["by"] is not None
    if archive.HAS_PUBLISHED:
        # no deal is finished everywhere yet: only the organisers' complete ranking exists
        assert {row["published"] for row in first["standings"]["rankings"]} == {False}
        hidden = RankingEntry.objects.filter(published=False)
        assert hidden.filter(event=report.event).count() == hidden.filter(event=event).count()
    correction = ResultChange.objects.get(event=report.event, action="correct")
    assert correction.reason == "Erreur de saisie" and correction.actor_id is None
    assert correction.actor_label  # who corrected it, as a name
    assert correction.at == ResultChange.objects.get(event=event, action="correct").at


@pytest.mark.parametrize("format", [Event.Format.TRIPLETTE, Event.Format.QUADRETTE])
def test_a_team_event_round_trips(format: str) -> None:
    event = team_event(format=format, teams=4)
    first, second, report = round_trip(event)
    assert normalised(first) == normalised(second)
    assert report.verified is True
    assert len(first["event"]["teams"]) == 4
    assert any(row["kind"] == "team" for row in first["standings"]["rankings"])
    if format == Event.Format.QUADRETTE:
        sheets = first["standings"]["data"]["matches"]
        assert sheets and all(isinstance(sheet["team_a"], dict) for sheet in sheets)


def test_a_simultaneous_with_its_sections_round_trips() -> None:
    parent = simultaneous_with_sections()
    first, second, report = round_trip(parent)
    assert normalised(first) == normalised(second)
    assert report.verified is True and report.sections == 2
    assert [s["name"] for s in first["event"]["sections"]] == ["Lyon", "Vienne"]
    restored = report.event
    sections = Event.objects.filter(simultaneous=restored).order_by("pk")
    assert [s.name for s in sections] == ["Lyon", "Vienne"]
    assert {s.status for s in sections} == {Event.Status.FINISHED, Event.Status.RUNNING}
    section_rows = RankingEntry.objects.filter(event__in=sections).count()
    assert section_rows == RankingEntry.objects.filter(event__simultaneous=parent).count() > 0


def test_a_section_is_archived_with_its_simultaneous() -> None:
    parent = simultaneous_with_sections()
    child = Event.objects.filter(simultaneous=parent).first()
    assert child is not None
    with pytest.raises(archive.ArchiveError, match="archive the simultaneous"):
        archive.archive_event(child)


def test_on_a_new_server_players_are_created_in_the_restoring_club() -> None:
    event = finished_individual()
    text = dumps(archive.archive_event(event))
    licences = list(event.entrants.values_list("player__licence", flat=True))
    wipe(event)
    Player.objects.filter(licence__in=licences).delete()
    club = ClubFactory(name="Nouveau club")
    report = restore(text, club=club)
    assert report.players_created == 20 and report.players_matched == 0
    assert report.verified is True
    players = Player.objects.filter(entries__event=report.event)
    assert {p.club_id for p in players} == {club.pk}


def test_table_codes_are_kept_on_request_and_never_twice() -> None:
    event = finished_individual()
    text = dumps(archive.archive_event(event))
    before = counts()
    with pytest.raises(archive.ArchiveError, match="already used"):
        restore(text, club=ClubFactory(), keep_table_codes=True)
    assert counts() == before
    codes = sorted(event.tables.values_list("code", flat=True))
    wipe(event)
    report = restore(text, club=ClubFactory(), keep_table_codes=True)
    assert sorted(report.event.tables.values_list("code", flat=True)) == codes


def test_a_snapshot_that_differs_from_the_results_is_restored_and_reported() -> None:
    event = finished_individual()
    document = archive.archive_event(event)
    row = document["standings"]["rankings"][0]
    row["marks_total"] += 10
    report = restore(dumps(document), club=ClubFactory())
    assert report.verified is False and report.differences == ["rankings"]
    # the archived snapshot is what was restored
    stored = archive.archive_event(report.event)["standings"]["rankings"]
    assert row in stored


def test_a_draft_event_without_standings_round_trips() -> None:
    event = running_event(status=Event.Status.DRAFT)
    first, second, report = round_trip(event)
    assert normalised(first) == normalised(second)
    assert first["standings"] is None and report.verified is None


# --- refusals ------------------------------------------------------------------------------


@pytest.fixture
def document() -> dict[str, Any]:
    return archive.archive_event(running_with_corrections())


def _set(doc: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split("/")
    target: Any = doc
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("schema", "something-else", "not a duplitarot event archive"),
        ("version", 2, "has version 2"),
        ("event/format", "pairs", "event.format"),
        ("event/results/0/deal", 999, "no deal has this number"),
        ("event/results/0/table", 99, "no table has this number"),
        ("event/results/0/seats/N", 999, "no entrant holds this slot"),
        ("event/results/0/value", 12345, "not those of the outcome"),
        ("event/results/0/marks/N", 1, "not those of the outcome"),
        ("event/history/0/table", 99, "no result for this deal and table"),
        ("event/penalties/0/slot", 999, "no entrant holds this slot"),
        ("event/penalties/0/points", "-3", "positive"),
        ("event/entrants/0/slot", 999, "not the movement's slots"),
        ("event/results_version", 10**30, "whole number"),
        ("event/seed", 1.5, "whole number"),
        ("event/movement", {"schema": "x"}, "movement is not valid"),
        ("event/name", "x" * 201, "at most 200"),
        ("event/date", "2026-13-45", "YYYY-MM-DD"),
        ("event/teams", [{"number": 1}], r"event\.teams\[0\]\.name: this key is missing"),
        ("event/extra", 1, "unknown key"),
        ("standings/rankings/0/entrant", {"section": None, "slot": 999}, "does not resolve"),
        ("standings/rankings/0/section", "Nowhere", "no section has this name"),
        ("standings/hands/rows/0/1", 999, "no result for this deal and table"),
        ("standings/hands/columns", ["a"], "columns"),
    ],
)
def test_a_bad_archive_is_refused_and_nothing_is_stored(
    document: dict[str, Any], path: str, value: Any, message: str
) -> None:
    _set(document, path, value)
    before = counts()
    with pytest.raises(archive.ArchiveError, match=message):
        restore(json.dumps(document), club=ClubFactory())
    assert counts() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"{not json", "not valid JSON"),
        (b'{"a": "\x00"}', "NUL"),
        (b'{"a": "\\u0000"}', "NUL"),
        (b'{"a": "\xc3\xa9\xe9"}', "Line 1: the byte 0xE9 .* is not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a":' * 40 + b"1" + b"}" * 40, "nested too deeply"),
        (b'{"n": ' + b"9" * 5000 + b"}", "number that cannot be read"),
        (b'{"n": NaN}', "number that cannot be read"),
        (b'{"n": 1e999}', "number that cannot be read"),
        (b'{"a": "\\ud800"}', "not valid Unicode"),
        (b"[1, 2]", "not a duplitarot event archive"),
    ],
)
def test_a_file_that_is_not_an_archive_is_refused(content: bytes, message: str) -> None:
    before = counts()
    with pytest.raises(archive.ArchiveError, match=message):
        restore(content, club=ClubFactory())
    assert counts() == before


def test_a_file_over_the_size_limit_is_refused() -> None:
    with pytest.raises(archive.ArchiveError, match="larger than 1 MB"):
        restore(io.BytesIO(b" " * (1024 * 1024 + 1)), club=ClubFactory(),
                                max_bytes=1024 * 1024)  # fmt: skip


# --- commands ------------------------------------------------------------------------------


def test_archive_and_restore_commands(tmp_path: Path) -> None:
    event = finished_individual()
    target = tmp_path / "event.json"
    call_command("archive_event", str(event.pk), "-o", str(target))
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["schema"] == archive.SCHEMA
    out = io.StringIO()
    stdout = io.StringIO()
    call_command("archive_event", str(event.pk), stdout=stdout)
    assert json.loads(stdout.getvalue())["event"]["name"] == event.name
    club = ClubFactory(name="Club B")
    call_command("restore_event", str(target), "--club", "club b", stdout=out)
    restored = Event.objects.filter(club=club).get()
    assert f"#{restored.pk}" in out.getvalue() and "verified" in out.getvalue()
    call_command("restore_event", str(target), "--club", str(club.pk), stdout=io.StringIO())
    assert Event.objects.filter(club=club).count() == 2


@pytest.mark.parametrize(
    "arguments",
    [
        ["archive_event", "999999"],
        ["archive_event", "abc"],
        ["restore_event", "/nonexistent/file.json", "--club", "1"],
        ["restore_event", "FILE", "--club", "No such club"],
        ["restore_event", "BAD", "--club", "CLUB"],
        ["restore_event", "FILE"],
    ],
)
def test_commands_refuse_bad_input_with_exit_code_2(tmp_path: Path, arguments: list[str]) -> None:
    club = ClubFactory()
    good = tmp_path / "good.json"
    good.write_text(dumps(archive.archive_event(running_event())), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "duplitarot-event-archive", "version": 99}', encoding="utf-8")
    names = {"FILE": str(good), "BAD": str(bad), "CLUB": str(club.pk)}
    before = counts()
    with pytest.raises(CommandError) as caught:
        call_command(*[names.get(a, a) for a in arguments])
    assert caught.value.returncode == 2
    assert "\n" not in str(caught.value)
    assert counts() == before


# --- pages ---------------------------------------------------------------------------------


def test_only_the_clubs_organisers_download_the_archive(client: Client) -> None:
    event = finished_individual()
    url = f"/en/organiser/events/{event.pk}/archive/"
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(OrganiserFactory())  # another club's organiser
    assert client.get(url).status_code == 404
    client.force_login(OrganiserFactory(clubs=[event.club]))
    # The event's organiser page links the download, his home page the restore page.
    dashboard = client.get(f"/en/organiser/events/{event.pk}/").content.decode()
    assert f'href="{url}"' in dashboard
    assert 'href="/en/organiser/archive/restore/"' in client.get("/en/organiser/").content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert archive.archive_filename(event) in disposition
    document = json.loads(b"".join(response.streaming_content if response.streaming else
                                   [response.content]))  # fmt: skip
    assert document["schema"] == archive.SCHEMA


def test_restore_page_restores_into_the_organisers_club(client: Client) -> None:
    event = finished_individual()
    text = dumps(archive.archive_event(event)).encode()
    url = "/en/organiser/archive/restore/"
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    club = ClubFactory(name="Club C")
    organiser = OrganiserFactory(clubs=[club])
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    # a club the user does not organise is refused as a form error
    other = ClubFactory(name="Club D")
    before = counts()
    response = client.post(url, {"club": other.pk, "file": io.BytesIO(text)})
    assert response.status_code == 400 and counts() == before
    upload = io.BytesIO(text)
    upload.name = "event.duplitarot.json"
    response = client.post(url, {"club": club.pk, "file": upload})
    restored = Event.objects.filter(club=club).get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"/organiser/events/{restored.pk}/")


def test_restore_page_shows_a_bad_file_as_a_form_error(client: Client) -> None:
    club = ClubFactory()
    client.force_login(OrganiserFactory(clubs=[club]))
    upload = io.BytesIO(b'{"schema": "duplitarot-event-archive", "version": 7}')
    upload.name = "x.json"
    before = counts()
    response = client.post("/en/organiser/archive/restore/", {"club": club.pk, "file": upload})
    assert response.status_code == 400 and counts() == before
    assert b"has version 7" in response.content


def test_restore_page_refuses_users_who_organise_no_club(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get("/en/organiser/archive/restore/").status_code == 403


def test_a_player_licence_appearing_twice_is_refused(document: dict[str, Any]) -> None:
    players = [e["player"] for e in document["event"]["entrants"] if e["player"]]
    players[1]["licence"] = players[0]["licence"]
    with pytest.raises(archive.ArchiveError, match="appears twice"):
        restore(json.dumps(document), club=ClubFactory())

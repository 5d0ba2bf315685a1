"""Archives of cups, free-deal tournaments and series (``archives.cups``, ``archives.free_deals``,
``archives.series``), restoring any kind by its schema (``archives.kinds``), the generic
commands and the download pages.

A round trip builds a competition, archives it, empties the database (``flush``: nothing of
the competition, its players or its club is left), restores the file into a new club and
archives the restored competition again: the two documents are equal but for what
legitimately differs (the export time, the club, phone codes), so the rankings, brackets,
match sheets and histories are the archived ones; and the restore says it verified them.
"""

from __future__ import annotations

import copy
import datetime
import gzip
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from archives import cups, free_deals, kinds, series
from archives.format import ArchiveError, dumps
from clubs.models import Club, Player
from demo import cups as cup_demo
from demo import free_deals as free_deal_demo
from freedeal import services as free_deal_services
from freedeal.models import FreeDealChange, FreeDealResult, FreeDealTournament
from freedeal.outcomes import PASSED, ruleset_of
from scoring.services import standings_recompute
from series.models import Series
from series.services import series_create, series_event_add
from teammatch import services as cup_services
from teammatch.models import Cup, CupMatch, RoomResult, RoomResultChange
from tests.builders import enter_round, running_event
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 23)


def empty_database() -> None:
    """Nothing left: competitions, players, clubs, users."""
    call_command("flush", interactive=False, verbosity=0)
    assert not Club.objects.exists() and not Player.objects.exists()


def counts() -> dict[str, int]:
    models = (Club, Player, Event, Table, Cup, CupMatch, RoomResultChange, FreeDealTournament,
              FreeDealResult, FreeDealChange, Series)  # fmt: skip
    return {model.__name__: model.objects.count() for model in models}


def strip(document: dict[str, Any]) -> dict[str, Any]:
    """What legitimately differs after a restore removed: export time, club, phone codes."""
    doc = copy.deepcopy(document)
    doc.pop("exported_at")

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key in ("club", "event_club", "code", "computed_at", "exported_at"):
                value.pop(key, None)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(doc)
    return doc


# --- builders --------------------------------------------------------------------------------


def built_cup() -> Cup:
    """The demo cup (two finished semi-finals, a final in its third quarter), with a director's
    correction in the final."""
    club = ClubFactory(name="Club des coupes")
    players = [PlayerFactory(club=club) for _ in range(16)]
    players[3].licence = None  # a player without a licence: known by his names
    players[3].save()
    cup = cup_demo.build_demo(club=club, players=players, seed=3, today=TODAY)
    final = CupMatch.objects.get(cup=cup, round=2)
    result = final.results.order_by("deal__number").first()
    assert result is not None
    outcome = {**result.outcome, "points": 60 if result.outcome["points"] != 60 else 61}
    cup_services.room_result_director_correct(
        match=final,
        room=result.room,
        deal_number=result.deal.number,
        outcome=outcome,
        actor=UserFactory(),
        reason="Feuille mal lue",
    )
    return cup


def built_free_deal() -> FreeDealTournament:
    """The demo free-deal tournament (the last party under way) with a director's correction."""
    club = ClubFactory(name="Club des donnes libres")
    players = [PlayerFactory(club=club) for _ in range(free_deal_demo.DEMO_PLAYERS)]
    tournament = free_deal_demo.build_demo(club=club, players=players, seed=5, today=TODAY)
    result = FreeDealResult.objects.filter(tournament=tournament, party=1).first()
    assert result is not None
    seated = tournament.table_players(1, result.table.number)
    free_deal_services.free_deal_result_director_correct(
        tournament=tournament,
        table_number=result.table.number,
        party=1,
        deal=result.deal,
        data={"contract": PASSED},
        user=UserFactory(),
        reason="Tout le monde a passé",
    )
    assert len(seated) >= 3
    return tournament


def finished_event(players: list[Player], seed: int, name: str) -> Event:
    """A finished public individual event whose entrants are ``players`` (in slot order)."""
    event = running_event(tables=3, deals_per_round=2)
    event.name = name
    event.save(update_fields=["name"])
    real = list(event.entrants.filter(phantom=False).order_by("slot"))
    for entrant, player in zip(real, players, strict=False):
        entrant.player = player
        entrant.save(update_fields=["player"])
    rng = random.Random(seed)
    for round_number in event.schedule.round_numbers:
        enter_round(event, round_number, rng)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED, public=True)
    standings_recompute(event_id=event.pk, force=True, full=True)
    return Event.objects.get(pk=event.pk)


def built_series() -> Series:
    """A league points series of two finished events (of two clubs) played by the same players
    (two of them without a licence)."""
    club = ClubFactory(name="Club des saisons")
    players = [PlayerFactory(club=club) for _ in range(12)]
    for player in players[:2]:
        player.licence = None
        player.save()
    first = finished_event(players, 1, "Premier tournoi")
    second = finished_event(list(reversed(players)), 2, "Second tournoi")
    season = series_create(club=first.club, name="Challenge", season="2026", public=True,
                           league=True, method="points", points_table=[10, 8, 6, 5, 4],
                           points_default=1, best_n=None, min_events=1)  # fmt: skip
    series_event_add(series=season, event=first)
    series_event_add(series=season, event=second)
    return season


# --- round trips into an empty database ------------------------------------------------------


def round_trip(kind: str, competition: Any) -> tuple[dict[str, Any], kinds.Restored]:
    spec = kinds.KINDS[kind]
    first = spec.archive(competition)
    text = dumps(first)
    empty_database()
    club = ClubFactory(name="Club de restauration")
    restored = kinds.restore_document(text.encode(), club=club)
    assert restored.kind == kind
    assert restored.verified is True, restored.differences
    second = spec.archive(restored.obj)
    assert strip(second) == strip(first)
    return first, restored


@pytest.mark.django_db(transaction=True)  # flush: real commits, no pending checks
def test_a_cup_round_trips_into_an_empty_database() -> None:
    cup = built_cup()
    first, restored = round_trip("cup", cup)
    new = restored.obj
    assert isinstance(new, Cup) and new.club.name == "Club de restauration"
    # bracket and match sheets: the archived ones (compared inside round_trip), non trivial
    finals = [m for m in first["matches"] if m["round"] == 1]
    assert all(m["winner"] is not None and m["decided_by"] for m in finals)
    assert any(len(m["history"]) > 0 for m in first["matches"])
    corrected = [h for m in first["matches"] for h in m["history"] if h["action"] == "correct"]
    assert corrected and corrected[0]["reason"] == "Feuille mal lue"
    history = RoomResultChange.objects.filter(result__match__cup=new, action="correct").get()
    assert history.reason == "Feuille mal lue" and history.actor_label == corrected[0]["by"]
    # who entered each result: its name and path (the director's or a room's phone) restored
    archived = sorted(
        (r["deal"], r["room"], r["entered_by"], r["director"])
        for m in first["matches"] for r in m["results"]
    )  # fmt: skip
    stored = sorted(
        (r.deal.number, r.room, r.entered_by_label, r.entered_via == "organiser")
        for r in RoomResult.objects.filter(match__cup=new).select_related("deal")
    )
    assert stored == archived and any(director for *_rest, director in archived)
    # room codes are new: the archive does not open the rooms' phones
    assert all(room["code"] for m in first["matches"] for room in m["rooms"])
    assert restored.codes_kept is False
    assert restored.counts["players_created"] == 16


@pytest.mark.django_db(transaction=True)  # flush: real commits, no pending checks
def test_a_free_deal_tournament_round_trips_into_an_empty_database() -> None:
    tournament = built_free_deal()
    first, restored = round_trip("free-deal", tournament)
    assert first["ranking"]["rows"] and first["history"]
    assert any(change["action"] == "correct" for change in first["history"])
    new = restored.obj
    assert isinstance(new, FreeDealTournament)
    assert new.seating == first["tournament"]["seating"]
    assert ruleset_of(new).to_dict() == first["tournament"]["ruleset"]
    # the director's correction is restored as his (a reason on the line that wrote it)
    paths = {r.entered_via for r in FreeDealResult.objects.filter(tournament=new)}
    assert paths == {"table", "organiser"}


@pytest.mark.django_db(transaction=True)  # flush: real commits, no pending checks
def test_a_series_round_trips_with_its_events_into_an_empty_database() -> None:
    season = built_series()
    first, restored = round_trip("series", season)
    assert len(first["events"]) == 2
    ranking = first["ranking"]
    assert ranking and all(len(row["results"]) == 2 for row in ranking)  # same players twice
    new = restored.obj
    assert isinstance(new, Series) and new.events.count() == 2
    # the two players without a licence are each one player across the two events
    assert Player.objects.filter(licence__isnull=True).count() == 2
    assert restored.counts["players_created"] == 12


@pytest.mark.django_db(transaction=True)  # flush: real commits, no pending checks
def test_an_event_restores_through_the_generic_entry_point() -> None:
    event = finished_event([], 4, "Seul")
    first, restored = round_trip("event", event)
    assert first["standings"] is not None
    assert restored.url.endswith(f"/organiser/events/{restored.obj.pk}/")


# --- continuity: archives written before the archives app ---------------------------------

DATA = Path(__file__).resolve().parent.parent / "data" / "archives"


@pytest.mark.parametrize(("name", "sections"), [("event-2.json.gz", 0), ("event-4.json.gz", 3)])
def test_an_archive_written_before_this_app_restores_and_verifies(name: str, sections: int) -> None:
    data = gzip.decompress((DATA / name).read_bytes())
    empty_database()
    club = ClubFactory(name="Club de continuité")
    restored = kinds.restore_document(data, club=club)
    assert restored.kind == "event"
    assert restored.verified is True, restored.differences
    assert restored.counts["sections"] == sections
    assert Event.objects.filter(simultaneous=restored.obj).count() == sections


# --- refusals --------------------------------------------------------------------------------


@pytest.fixture
def cup_document() -> dict[str, Any]:
    return cups.archive_cup(built_cup())


def _refused(document: Any, message: str) -> None:
    before = counts()
    text = document if isinstance(document, bytes) else json.dumps(document).encode()
    with pytest.raises(ArchiveError) as caught:
        kinds.restore_document(text, club=ClubFactory())
    assert message in caught.value.describe()
    assert counts() == {**before, "Club": before["Club"] + 1}


def test_a_wrong_schema_or_version_is_refused(cup_document: dict[str, Any]) -> None:
    _refused({**cup_document, "schema": "duplitarot-pizza-archive"}, "not a duplitarot archive")
    _refused({"no": "schema"}, "not a duplitarot archive")
    _refused({**cup_document, "version": 2}, "has version 2; this server reads version 1")


def test_a_bad_reference_is_refused_with_its_place(cup_document: dict[str, Any]) -> None:
    broken = copy.deepcopy(cup_document)
    broken["matches"][0]["winner"] = 99
    _refused(broken, "matches[0].winner: no team has this seed")
    broken = copy.deepcopy(cup_document)
    broken["matches"][0]["history"][0]["deal"] = 999
    _refused(broken, "matches[0].history[0]")
    broken = copy.deepcopy(cup_document)
    broken["matches"][0]["results"][0]["value"] += 10
    _refused(broken, "the value or the marks are not those of the outcome")
    broken = copy.deepcopy(cup_document)
    broken["teams"][1]["players"].append(broken["teams"][0]["players"][0])
    _refused(broken, "a player is in one team of a cup")


def test_a_free_deal_archive_with_a_bad_reference_is_refused() -> None:
    document = free_deals.archive_free_deal(built_free_deal())
    broken = copy.deepcopy(document)
    broken["results"][0]["table"] = 42
    _refused(broken, "results[0].table: no table has this number")
    broken = copy.deepcopy(document)
    played = next(i for i, r in enumerate(broken["results"]) if not r["passed"])
    broken["results"][played]["marks"] = {k: 0 for k in broken["results"][played]["marks"]}
    _refused(broken, f"results[{played}]: the value or the marks are not those of the outcome")
    broken = copy.deepcopy(document)
    broken["tournament"]["seating"][0] = broken["tournament"]["seating"][1][:1]
    _refused(broken, "tournament.seating[0]")


def test_a_series_with_a_bad_embedded_event_is_refused_and_stores_no_event() -> None:
    document = series.archive_series(built_series())
    broken = copy.deepcopy(document)
    broken["events"][1]["archive"]["event"]["results"][0]["table"] = 77
    _refused(broken, "events[1].archive.event.results[0].table: no table has this number")
    broken = copy.deepcopy(document)
    broken["events"][0]["section"] = "Nowhere"
    _refused(broken, "events[0].section: no section has this name")
    broken = copy.deepcopy(document)
    broken["series"]["points_table"] = [1, 5]
    _refused(broken, "series.points_table")


def test_a_huge_or_deep_document_is_refused() -> None:
    deep: Any = "x"
    for _ in range(40):
        deep = [deep]
    _refused(
        {"schema": cups.SCHEMA, "version": 1, "exported_at": "2026-01-01T00:00:00+00:00",
         "cup": deep},
        "nested too deeply",
    )  # fmt: skip
    with pytest.raises(ArchiveError, match="larger than 1 MB"):
        kinds.restore_document(b" " * (1024 * 1024 + 1), club=ClubFactory(), max_bytes=1024 * 1024)
    _refused(b"[" * 100_000, "nested too deeply")


def test_kept_codes_are_refused_when_in_use(cup_document: dict[str, Any]) -> None:
    text = json.dumps(cup_document).encode()
    before = counts()
    with pytest.raises(ArchiveError, match="room codes are already used"):
        kinds.restore_document(text, club=ClubFactory(), keep_codes=True)
    assert counts()["Cup"] == before["Cup"]


# --- commands --------------------------------------------------------------------------------


def test_archive_and_restore_commands_for_every_kind(tmp_path: Path) -> None:
    made = {"cup": built_cup(), "free-deal": built_free_deal(), "series": built_series()}
    files = {}
    for kind, competition in made.items():
        target = tmp_path / f"{kind}.json"
        call_command("archive", kind, str(competition.pk), "-o", str(target))
        files[kind] = target
        assert json.loads(target.read_text())["schema"] == kinds.KINDS[kind].schema
    club = ClubFactory(name="Club E")
    for target in files.values():
        out = io.StringIO()
        call_command("restore", str(target), "--club", "club e", stdout=out)
        assert "verified" in out.getvalue(), out.getvalue()
    assert Cup.objects.filter(club=club).count() == 1
    assert FreeDealTournament.objects.filter(club=club).count() == 1
    assert Series.objects.filter(club=club).count() == 1


@pytest.mark.parametrize(
    "arguments",
    [
        ["archive", "pizza", "1"],
        ["archive", "cup", "999999"],
        ["archive", "cup"],
        ["restore", "/nonexistent/file.json", "--club", "CLUB"],
        ["restore", "BAD", "--club", "CLUB"],
        ["restore", "FILE", "--club", "No such club"],
        ["restore_event", "FILE", "--club", "CLUB"],  # a cup archive is not an event archive
    ],
)
def test_commands_refuse_bad_input_with_exit_code_2(tmp_path: Path, arguments: list[str]) -> None:
    club = ClubFactory()
    good = tmp_path / "cup.json"
    good.write_text(dumps(cups.archive_cup(built_cup())), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "duplitarot-cup-archive", "version": 99}', encoding="utf-8")
    names = {"FILE": str(good), "BAD": str(bad), "CLUB": str(club.pk)}
    before = counts()
    with pytest.raises(CommandError) as caught:
        call_command(*[names.get(a, a) for a in arguments])
    assert caught.value.returncode == 2
    assert "\n" not in str(caught.value)
    assert counts() == before


# --- pages -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "page", "link"),
    [
        ("cup", "/en/organiser/cups/{pk}/", "/en/organiser/cups/{pk}/archive/"),
        ("free-deal", "/en/organiser/free-deal/{pk}/", "/en/organiser/free-deal/{pk}/archive/"),
        ("series", "/en/organiser/series/{pk}/", "/en/organiser/series/{pk}/archive/"),
    ],
)
def test_the_organiser_page_links_the_archive_and_the_restore_page_takes_it(
    client: Client, kind: str, page: str, link: str
) -> None:
    builder = {"cup": built_cup, "free-deal": built_free_deal, "series": built_series}[kind]
    competition = builder()
    url = link.format(pk=competition.pk)
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(OrganiserFactory())  # another club's organiser
    assert client.get(url).status_code == 404
    club = competition.club
    client.force_login(OrganiserFactory(clubs=[club]))
    assert f'href="{url}"' in client.get(page.format(pk=competition.pk)).content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert response["Cache-Control"] == "private, no-store"
    text = response.content
    assert json.loads(text)["schema"] == kinds.KINDS[kind].schema
    upload = io.BytesIO(text)
    upload.name = "archive.json"
    response = client.post("/en/organiser/archive/restore/", {"club": club.pk, "file": upload})
    assert response.status_code == 302
    model = kinds.KINDS[kind].model
    newest = model._default_manager.order_by("-pk").first()
    assert newest is not None and newest.pk != competition.pk
    assert response["Location"] == reverse(
        {"cup": "teammatch:organiser_cup", "free-deal": "freedeal:organiser_detail",
         "series": "series:organiser_edit"}[kind],
        kwargs={"cup": {"cup_id": newest.pk}, "free-deal": {"pk": newest.pk},
                "series": {"series_pk": newest.pk}}[kind],
    )  # fmt: skip


def test_the_restore_page_shows_a_refused_archive_as_a_translated_form_error(
    client: Client,
) -> None:
    club = ClubFactory()
    client.force_login(OrganiserFactory(clubs=[club]))
    upload = io.BytesIO(b'{"schema": "duplitarot-series-archive", "version": 3}')
    upload.name = "x.json"
    before = counts()
    response = client.post("/organiser/archive/restore/", {"club": club.pk, "file": upload})
    assert response.status_code == 400 and counts() == before
    assert "Cette archive est en version 3" in response.content.decode()

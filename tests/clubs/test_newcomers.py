"""One rule for every path that creates players (``clubs.newcomers``): a new player is a member
of the writing club (his home club, on its register) or has no home club; never another
club's player, never on another club's register; a known licence is that player.

The code is read for any other place that makes a player; then each path that creates players
today is run by an organiser of *Club un* while *Club deux* holds players and a register of its
own: the club's register (form and CSV import), a player typed by hand on an event's page, an
event's players' file, a free-deal newcomer. (The archive restores: ``tests/archives/
test_players.py``; a substitute: ``tests/tournaments/test_late_changes.py``; the section
results import creates no player; API writes and laptop pushes do not exist yet: they will go
through the same function, which the code check enforces.)
"""

from __future__ import annotations

import ast
import datetime
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs import newcomers, register
from clubs.models import Club, Membership, Player
from freedeal import services as free_deal_services
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments import services

ROOT = Path(__file__).resolve().parents[2]
#: The application code (everything but the tests and the migrations).
PACKAGES = ("rules", "clubs", "tournaments", "scoring", "series", "freedeal", "teammatch",
            "archives", "instance", "demo", "bench", "config")  # fmt: skip
#: Where a Player or a register line may be made.
#: The name-search benchmark builds a synthetic 30,000-player register in bulk (a developer's
#: tool on its own club, never a path of the product).
BENCH_REGISTER = "bench/management/commands/bench_name_search.py"
MAKERS = {
    "Player": {"clubs/newcomers.py", BENCH_REGISTER},
    "Membership": {"clubs/newcomers.py", "clubs/register.py", BENCH_REGISTER},
}
CREATING = {"create", "get_or_create", "update_or_create"}


def _sources() -> Iterator[Path]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _made(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """(model, line) of every ``Model(...)`` and ``Model.objects.create(...)`` (or
    get_or_create, update_or_create) of the watched models in ``tree``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in MAKERS:
            yield func.id, node.lineno
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in CREATING
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "objects"
            and isinstance(func.value.value, ast.Name)
            and func.value.value.id in MAKERS
        ):
            yield func.value.value.id, node.lineno


def test_only_the_kernel_function_makes_players() -> None:
    found = []
    for path in _sources():
        name = path.relative_to(ROOT).as_posix()
        for model, line in _made(ast.parse(path.read_text(encoding="utf-8"))):
            if name not in MAKERS[model]:
                found.append(f"{name}:{line} makes a {model}")
    assert found == [], "create players through clubs.newcomers.player_new"
    # The check sees what it looks for.
    made = list(_made(ast.parse((ROOT / "clubs" / "newcomers.py").read_text())))
    assert [model for model, _line in made] == ["Player", "Membership"]


@pytest.mark.django_db
def test_player_new_never_gives_another_club() -> None:
    club = ClubFactory(name="Club un")
    member = newcomers.player_new(club=club, first_name="Anne", last_name="Roux", licence="1")
    other = newcomers.player_new(club=club, first_name="Paul", last_name="Roux", member=False)
    assert (member.club, other.club) == (club, None)
    assert member.pk is None and other.pk is None  # the caller saves them
    line = newcomers.member_line(member)
    assert line is not None and (line.club, line.player) == (club, member)
    assert newcomers.member_line(other) is None
    assert newcomers.names_club(club, " CLUB UN ")
    assert not newcomers.names_club(club, "Club deux") and not newcomers.names_club(club, None)


# --------------------------------------------------------------------------- every path


@pytest.fixture
def world(db: None) -> dict[str, Any]:
    """*Club un* (the writer, its organiser logged in) and *Club deux* with its own players."""
    writer = ClubFactory(name="Club un")
    other = ClubFactory(name="Club deux")
    known = PlayerFactory(club=other, licence="K000001", last_name="Connu", first_name="Jean")
    PlayerFactory(club=other, licence="K000002")
    client = Client()
    client.force_login(OrganiserFactory(clubs=[writer]))
    return {"writer": writer, "other": other, "known": known, "client": client}


def _url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


def _register_form(world: dict[str, Any]) -> None:
    client, writer = world["client"], world["writer"]
    for data in (
        {"last_name": "Neuf", "first_name": "Anne", "licence": "N000001"},
        {"last_name": "Invité", "first_name": "Bob", "licence": ""},
        {"last_name": "Autre", "first_name": "Jean", "licence": "K000001"},
    ):
        assert client.post(_url("clubs:register_add", writer.pk), data).status_code in (200, 302)


def _register_import(world: dict[str, Any]) -> None:
    text = "Nom;Prénom;Licence\nNeuf;Anne;N000001\nInvité;Bob;\nAutre;Jean;K000001\n"
    report = register.register_import_csv(club=world["writer"], file=text.encode())
    assert report.ok


def _event_form(world: dict[str, Any]) -> None:
    client, writer, other = world["client"], world["writer"], world["other"]
    event = EventFactory(club=writer)
    add = _url("organiser:player_add", event.pk)
    # Another club is no choice: refused, nothing written.
    data = {"last_name": "Pirate", "first_name": "Ana", "licence": "P000001", "club": other.pk}
    response = client.post(add, data)
    assert response.status_code == 400
    assert not Player.objects.filter(last_name="Pirate").exists()
    for data in (
        {"last_name": "Neuf", "first_name": "Anne", "licence": "N000001", "club": writer.pk},
        {"last_name": "Invité", "first_name": "Bob", "licence": "", "club": ""},
        {"last_name": "Autre", "first_name": "Jean", "licence": "K000001", "club": writer.pk},
    ):
        assert client.post(add, data).status_code == 302, data


def _event_file(world: dict[str, Any]) -> None:
    event = EventFactory(club=world["writer"])
    text = (
        "last_name;first_name;licence;club\n"
        "Neuf;Anne;N000001;club un\n"
        "Invité;Bob;;Club deux\n"  # another club's newcomer: no home club
        "Autre;Jean;K000001;Club deux\n"
        "Ailleurs;Zoé;Z000001;Club inconnu\n"  # no club is created
    )
    report = services.players_import_csv(event=event, file=text.encode())
    assert report.ok and report.players_created == 3 and report.players_matched == 1
    assert Player.objects.get(last_name="Ailleurs").club is None


def _free_deal(world: dict[str, Any]) -> None:
    tournament = free_deal_services.free_deal_create(
        club=world["writer"], name="Donnes libres", date=datetime.date(2026, 11, 23), seed=1
    )
    for first, last, licence in (("Anne", "Neuf", "N000001"), ("Bob", "Invité", ""),
                                 ("Jean", "Autre", "K000001")):  # fmt: skip
        free_deal_services.free_deal_player_register_new(
            tournament=tournament, first_name=first, last_name=last, licence=licence
        )


PATHS: dict[str, Callable[[dict[str, Any]], None]] = {
    "register form": _register_form,
    "register import": _register_import,
    "event form": _event_form,
    "event players' file": _event_file,
    "free-deal newcomer": _free_deal,
}


@pytest.mark.parametrize("path", list(PATHS))
def test_every_path_writes_only_the_writing_club(world: dict[str, Any], path: str) -> None:
    writer, other, known = world["writer"], world["other"], world["known"]
    before_players = set(Player.objects.filter(club=other).values_list("pk", flat=True))
    before_lines = set(Membership.objects.filter(club=other).values_list("pk", flat=True))
    clubs = set(Club.objects.values_list("pk", flat=True))

    PATHS[path](world)

    assert set(Player.objects.filter(club=other).values_list("pk", flat=True)) == before_players
    assert set(Membership.objects.filter(club=other).values_list("pk", flat=True)) == before_lines
    assert set(Club.objects.values_list("pk", flat=True)) == clubs
    new = Player.objects.exclude(club=other).exclude(pk=known.pk)
    assert new.count() >= 2
    for player in new:
        # A new player: the writing club's member, or without home club; on no register but
        # the writing club's.
        assert player.club_id in (writer.pk, None), player
        assert set(player.memberships.values_list("club", flat=True)) <= {writer.pk}, player
    assert Player.objects.get(licence="N000001").club == writer
    # The known licence is that player: not renamed, still Club deux's.
    known.refresh_from_db()
    assert (known.last_name, known.club) == ("Connu", other)

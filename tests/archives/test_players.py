"""A restore writes only the restoring club's register (``archives.players``,
``clubs.newcomers``): a new player of the competition's club joins the restoring club's
register, a new player of another club is a guest of the competition (no home club, on no
register), a known licence is that player, whatever club the archive names; every kind
(event, cup, free-deal tournament, series) restores its players the same way.

The server holds two clubs: *Club un*, whose organiser restores, and *Club deux*, with a
register of its own that the archive names for half of its players."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from archives import kinds
from archives.format import dumps
from archives.players import PLAYER_KEYS
from clubs.models import Club, Membership, Player
from tests.archives.test_events import finished_individual
from tests.archives.test_kinds import built_cup, built_free_deal, built_series
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

OTHER = "Club deux"


def player_refs(value: Any) -> Iterator[dict[str, Any]]:
    """Every player reference of an archive document, each once."""
    seen: set[int] = set()

    def walk(item: Any) -> Iterator[dict[str, Any]]:
        if isinstance(item, dict):
            if set(item) == set(PLAYER_KEYS):
                if id(item) not in seen:
                    seen.add(id(item))
                    yield item
                return
            for child in item.values():
                yield from walk(child)
        elif isinstance(item, list):
            for child in item:
                yield from walk(child)

    yield from walk(value)


def rewritten(document: dict[str, Any], known: list[Player]) -> dict[str, list[str]]:
    """Make the archive's players, in turn, new players of *Club deux*, new players of the
    competition's club, known licences (of *Club deux*'s players) and unlicensed players of
    *Club deux*; the same player (by his archived licence or names) is rewritten the same way
    wherever he appears. What became of each, by last name."""
    groups: dict[str, list[str]] = {"other": [], "own": [], "known": [], "unlicensed": []}
    chosen: dict[Any, dict[str, Any]] = {}
    order = list(groups)
    for ref in player_refs(document):
        key = ref["licence"] or (ref["first_name"], ref["last_name"])
        if key not in chosen:
            index = len(chosen)
            group = order[index % 4]
            last = f"Joueur{index}"
            change: dict[str, Any] = {"last_name": last, "first_name": "Restauré"}
            if group == "other":
                change.update(licence=f"NEW{index:04d}", club=OTHER, event_club=False)
            elif group == "own":
                change.update(licence=f"OWN{index:04d}", club="Ailleurs", event_club=True)
            elif group == "known":
                player = known[index // 4]
                change.update(licence=player.licence, club=OTHER, event_club=False)
                last = player.last_name
            else:
                change.update(licence=None, club=OTHER, event_club=False)
            chosen[key] = change
            groups[group].append(last)
        ref.update(chosen[key])
    return groups


BUILDERS: dict[str, Callable[[], Any]] = {
    "event": finished_individual,
    "cup": built_cup,
    "free-deal": built_free_deal,
    "series": built_series,
}


@pytest.mark.parametrize("kind", list(BUILDERS))
def test_a_restore_never_writes_another_club_s_register(kind: str) -> None:
    competition = BUILDERS[kind]()
    document = kinds.KINDS[kind].archive(competition)
    other = ClubFactory(name=OTHER)
    known = [PlayerFactory(club=other, licence=f"K{n:05d}") for n in range(30)]
    groups = rewritten(document, known)
    assert all(groups.values()), groups
    club = ClubFactory(name="Club un")
    other_players = set(Player.objects.filter(club=other).values_list("pk", flat=True))
    other_lines = set(Membership.objects.filter(club=other).values_list("pk", "player_id"))
    clubs = set(Club.objects.values_list("name", flat=True))

    restored = kinds.restore_document(dumps(document).encode(), club=club)

    # Club deux: not one player more, not one line more, and no club created.
    assert set(Player.objects.filter(club=other).values_list("pk", flat=True)) == other_players
    assert set(Membership.objects.filter(club=other).values_list("pk", "player_id")) == (
        other_lines
    )
    assert set(Club.objects.values_list("name", flat=True)) == clubs
    by_name = {p.last_name: p for p in Player.objects.filter(last_name__startswith="Joueur")}
    # The competition's players join the restoring club's register, as its members.
    for last in groups["own"]:
        player = by_name[last]
        assert player.club == club
        assert list(player.memberships.values_list("club", flat=True)) == [club.pk]
    # The other clubs' new players are guests of the competition: no home club, no register.
    for last in [*groups["other"], *groups["unlicensed"]]:
        player = by_name[last]
        assert player.club is None
        assert not player.memberships.exists()
    # A known licence is that player, unchanged (his club, his register lines).
    for last in groups["known"]:
        player = Player.objects.get(last_name=last)
        assert player.club == other
        assert list(player.memberships.values_list("club", flat=True)) == [other.pk]
    if kind == "series":  # its events name the same players: each event counts them again
        return
    counts = restored.counts
    assert counts["players_matched"] == len(groups["known"])
    created = len(groups["own"]) + len(groups["other"]) + len(groups["unlicensed"])
    assert counts["players_created"] == created

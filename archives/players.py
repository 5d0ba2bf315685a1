"""Players in archives: written by natural reference, matched or created on restore.

A player is written as ``{"first_name", "last_name", "licence", "series", "club" (the name of
his club or null), "event_club" (he was of the competition's club)}``: no database id.

On restore (:class:`PlayerMatcher`), a player whose licence the server knows is the server's
player; otherwise he is created by the one rule of new players (``clubs.newcomers``): a
member of the restoring club, on its register, when he was of the competition's club (or his
club has the restoring club's name); else a guest of the competition, on no register and
without home club, whatever club the archive names (a restore never writes another club's
register). A player without a licence is known by his names (and club): within one restore,
the same names in two parts of the document (two events of a series) are the same player; two
namesakes within one part (one event) stay two players, as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from archives.format import as_bool, as_object, as_text, refuse
from clubs.models import Club, Player
from clubs.newcomers import member_line, names_club, player_new

PLAYER_KEYS = ("first_name", "last_name", "licence", "series", "club", "event_club")


def player_ref(player: Player | None, club_id: int) -> dict[str, Any] | None:
    """The archived form of ``player`` (of a competition of club ``club_id``)."""
    if player is None:
        return None
    return {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "licence": player.licence,
        "series": player.series,
        "club": None if player.club is None else player.club.name,
        "event_club": player.club_id is not None and player.club_id == club_id,
    }


def check_player(value: Any, path: str) -> dict[str, Any]:
    player = as_object(value, path, PLAYER_KEYS)
    for key in ("first_name", "last_name"):
        if not as_text(player[key], f"{path}.{key}", 80).strip():
            raise refuse(
                _("text of at most %(max)s characters is expected") % {"max": 80}, f"{path}.{key}"
            )
    licence = as_text(player["licence"], f"{path}.licence", 20, null=True)
    if licence is not None and not licence.strip():
        raise refuse(_("a licence number or null is expected"), f"{path}.licence")
    as_text(player["series"], f"{path}.series", 20)
    as_text(player["club"], f"{path}.club", 120, null=True)
    as_bool(player["event_club"], f"{path}.event_club")
    return player


def check_players(values: Any, path: str) -> list[dict[str, Any]]:
    """A list of players, each licence at most once."""
    if not isinstance(values, list):
        raise refuse(_("a list is expected"), path)
    licences: set[str] = set()
    players = []
    for index, value in enumerate(values):
        player = check_player(value, f"{path}[{index}]")
        if player["licence"] is not None:
            if player["licence"] in licences:
                raise refuse(
                    _("%(value)s appears twice") % {"value": player["licence"]},
                    f"{path}[{index}].licence",
                )
            licences.add(player["licence"])
        players.append(player)
    return players


def _name_key(data: dict[str, Any]) -> tuple[str, str, str, str]:
    return (
        data["first_name"].strip().casefold(),
        data["last_name"].strip().casefold(),
        (data["club"] or "").casefold() if not data["event_club"] else "\x00",
        data["series"],
    )


class PlayerMatcher:
    """The players of one restore into ``club`` (see the module docstring); counts what it
    matched and created. Call :meth:`begin` at the start of each part of the document."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.matched = 0
        self.created = 0
        self._by_licence: dict[str, Player] = {}
        self._by_name: dict[tuple[str, str, str, str], list[Player]] = {}
        self._used: dict[tuple[str, str, str, str], int] = {}

    def begin(self, wanted: Sequence[dict[str, Any]] = ()) -> None:
        """A new part of the document; ``wanted``: its players (their licences looked up at
        once)."""
        self._used = {}
        licences = {p["licence"] for p in wanted if p["licence"] is not None}
        licences -= set(self._by_licence)
        if licences:
            for player in Player.objects.filter(licence__in=licences).select_related("club"):
                self._by_licence[str(player.licence)] = player

    def resolve(self, data: dict[str, Any]) -> Player:
        licence = data["licence"]
        if licence is not None:
            player = self._by_licence.get(licence)
            if player is not None:
                self.matched += 1
                return player
        else:
            key = _name_key(data)
            index = self._used.get(key, 0)
            self._used[key] = index + 1
            known = self._by_name.setdefault(key, [])
            if index < len(known):
                return known[index]
        player = player_new(
            club=self.club,
            first_name=data["first_name"],
            last_name=data["last_name"],
            licence=licence,
            series=data["series"],
            member=data["event_club"] or names_club(self.club, data["club"]),
        )
        player.save()
        line = member_line(player)
        if line is not None:
            line.save()
        self.created += 1
        if licence is not None:
            self._by_licence[licence] = player
        else:
            known.append(player)
        return player

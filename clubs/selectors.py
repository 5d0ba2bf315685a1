"""Reads of the kernel: a club's register, its organisers, owner and pending invitations.

The competitions' pickers offer :func:`register_active_players` of the competition's club (a
section of a simultaneous: its own club). Every search of people matches names with
:func:`names_contain` (case, accents and punctuation ignored, in the database: the folded
names stored on each player) and every list of people is in French order (the stored sort
key), as :mod:`rules.names` defines them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone

from clubs.models import Club, ClubOwnerChange, Membership, OrganiserInvitation, Player
from rules.names import fold

#: Words of a search query taken at most (more narrow nothing a person would type).
MAX_QUERY_WORDS = 5


def names_contain(term: str, prefix: str = "") -> Q:
    """The players (``prefix``: the path to the player, e.g. ``"player__"``) whose last or
    first name contains the word ``term``, ignoring case, accents and punctuation (the folded
    names, :func:`rules.names.fold`); nobody when the word has no letter or digit."""
    word = fold(term)
    if not word:
        return Q(pk__in=[])
    return Q(**{f"{prefix}last_name_folded__contains": word}) | Q(
        **{f"{prefix}first_name_folded__contains": word}
    )


def query_terms(query: str) -> list[str]:
    """The words of a search query (at most :data:`MAX_QUERY_WORDS`)."""
    return query.split()[:MAX_QUERY_WORDS]


def people_matching(rows: QuerySet[Any], query: str, prefix: str = "") -> QuerySet[Any]:
    """``rows`` (players, or rows of a player at ``prefix``, e.g. ``"player__"``) whose
    player's names contain every word of ``query`` (any order, each in the last or the first
    name, case and accents ignored) or whose licence contains it."""
    for term in query_terms(query):
        licence = Q(**{f"{prefix}licence__icontains": term})
        rows = rows.filter(names_contain(term, prefix) | licence)
    return rows


def register_active_players(club: Club | int) -> QuerySet[Player]:
    """The players of the active lines of ``club``'s register, by name."""
    return (
        Player.objects.filter(memberships__club=club, memberships__active=True)
        .select_related("club")
        .order_by("name_sort_key", "pk")
    )


def register_lines(
    club: Club, *, query: str = "", active: bool | None = None
) -> QuerySet[Membership]:
    """``club``'s register lines (players and home clubs loaded), in French order; ``query``:
    every word in the first or last name (case and accents ignored) or the licence;
    ``active``: only active / inactive lines."""
    lines = Membership.objects.filter(club=club).select_related("player", "player__club")
    lines = people_matching(lines, query, "player__")
    if active is not None:
        lines = lines.filter(active=active)
    return lines.order_by("player__name_sort_key", "pk")


def register_line(club: Club, pk: int) -> Membership | None:
    """Line ``pk`` of ``club``'s register (player loaded), or None."""
    return (
        Membership.objects.filter(club=club, pk=pk).select_related("player", "player__club").first()
    )


def register_counts(club: Club) -> dict[str, int]:
    """How many lines ``club``'s register has, and how many are active."""
    lines = Membership.objects.filter(club=club)
    return {"total": lines.count(), "active": lines.filter(active=True).count()}


def club_organisers(club: Club) -> list[Any]:
    """The accounts that organise ``club``, by username."""
    return list(get_user_model().objects.filter(clubs=club).order_by("username"))


def club_owner_changes(club: Club) -> list[ClubOwnerChange]:
    """The record of ``club``'s owners, newest first."""
    return list(ClubOwnerChange.objects.filter(club=club).order_by("-at", "-pk"))


def club_pending_invitations(club: Club) -> list[OrganiserInvitation]:
    """``club``'s invitations still valid (neither accepted, revoked nor expired), newest
    first."""
    return list(
        OrganiserInvitation.objects.filter(
            club=club,
            accepted_at__isnull=True,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        )
        .select_related("created_by")
        .order_by("-created_at")
    )


def club_invitation(club: Club, pk: int) -> OrganiserInvitation | None:
    """Invitation ``pk`` of ``club``, or None."""
    return OrganiserInvitation.objects.filter(club=club, pk=pk).first()


def club_names(club_ids: set[int]) -> dict[int, str]:
    """Club id -> name, for the clubs ``club_ids`` (one query)."""
    if not club_ids:
        return {}
    return dict(Club.objects.filter(pk__in=club_ids).values_list("pk", "name"))


def register_categories(player_ids: set[int], club_ids: set[int]) -> dict[tuple[int, int], str]:
    """(club id, player id) -> the player's category on that club's register (active or not),
    for the players and clubs given (one query); a pair missing is no register line."""
    if not player_ids or not club_ids:
        return {}
    lines = Membership.objects.filter(player_id__in=player_ids, club_id__in=club_ids)
    return {
        (club_id, player_id): category
        for club_id, player_id, category in lines.values_list("club_id", "player_id", "category")
    }

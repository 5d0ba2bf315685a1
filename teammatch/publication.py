"""What a viewer may see of a cup's match results: the team-match rule, in one place.

Vocabulary (docs/team-matches.md): a match's deal is played in two rooms with the same cards
(one étui per deal). A deal **counts** once it is entered in both rooms.

- **The public** (anybody who may see the cup without directing it): a deal's outcomes, in
  either room, are withheld until the deal counts. Until then, one room's outcome would tell
  the other room's players what the cards give; the points de match count only the deals
  that count.
- **Directors** (``clubs.access.user_directs``) see every entered outcome.
- Figures are **provisional** until the cup is finished (``Competition.provisional``).
- **A room phone** (the room's code, no account) reads its own room's results and never the
  other room's, not even of a deal that counts (:func:`room_may_read`): a room phone is
  nobody's account, and the cup may be private.

:func:`match_publication` gives the rule as the kernel's
:class:`~clubs.publication.Publication` (``withheld``: deal numbers);
:func:`publication_of` is the same rule on rows already read (the match sheets read every
match of a bracket at once). The bracket page, the match sheets, the bracket API and the room
phone ask here; none of them re-derives the rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from clubs.publication import Publication
from teammatch.models import Cup, CupMatch, MatchDeal, MatchRoom, RoomName, RoomResult

ROOMS = frozenset(RoomName.values)


def publication_of(
    cup: Cup,
    deals: Iterable[int],
    entered: Mapping[int, Collection[str]],
    *,
    directs: bool,
) -> Publication:
    """The rule for one match of ``cup`` whose deals are numbered ``deals``, where
    ``entered[number]`` names the rooms with a result of that deal (no query)."""
    if directs:
        return Publication(provisional=cup.provisional, everything=True)
    withheld = frozenset(
        number for number in deals if not frozenset(entered.get(number, ())) >= ROOMS
    )
    return Publication(provisional=cup.provisional, withheld=withheld)


def match_publication(match: CupMatch, *, directs: bool) -> Publication:
    """What a viewer may see of ``match`` now (two queries; none for a director)."""
    cup = match.cup
    if directs:
        return publication_of(cup, (), {}, directs=True)
    entered: dict[int, set[str]] = {}
    for number, room in RoomResult.objects.filter(match=match).values_list("deal__number", "room"):
        entered.setdefault(number, set()).add(room)
    numbers = MatchDeal.objects.filter(match=match).values_list("number", flat=True)
    return publication_of(cup, numbers, entered, directs=False)


def room_may_read(room: MatchRoom, result: RoomResult) -> bool:
    """Whether ``room``'s phone may read ``result``: its own room's, of its own match."""
    return result.match_id == room.match_id and result.room == room.room

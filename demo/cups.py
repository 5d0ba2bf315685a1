"""A demonstration cup built through the services: 4 teams, both semi-finals played and
finished, the final in progress, public.

Every result is a simulated play of the match's prepared deals by the rules engine's players
(``demo.plays.play_outcome``: the taker bids at least a Garde, the cards are played and the
outcome counted from the play), entered from the room phones' service: no mark is written by
hand. Rosters take 4 to 6 of the players given; teams of more than 4 bring their substitutes in
between quarters. A drawn semi-final, if the cards produce one, is decided by the cup's
tie-break like any other.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from clubs.models import Club, Player
from demo.plays import play_outcome
from teammatch import selectors, services
from teammatch.models import Cup, CupMatch, MatchDeal, MatchRoom, RoomName

ROOMS = (RoomName.OPEN.value, RoomName.CLOSED.value)
TEAM_NAMES = ("Les Bouts", "Petit au bout", "Garde contre", "Les Poignées")
DEALS_PER_QUARTER = 6


def _rosters(players: Sequence[Player]) -> list[list[Player]]:
    if not 16 <= len(players) <= 24:
        raise ValueError("the demo cup needs 16 to 24 players")
    rosters: list[list[Player]] = [[] for _ in range(4)]
    for index, player in enumerate(players):
        rosters[index % 4].append(player)
    return rosters


def _fielded(roster: list[Player], quarter: int) -> list[Player]:
    shift = (quarter - 1) % len(roster)
    return (roster[shift:] + roster[:shift])[:4]


def _lineup(match: CupMatch, quarter: int) -> None:
    assert match.team_a is not None and match.team_b is not None
    a = _fielded([m.player for m in match.team_a.members.order_by("pk")], quarter)
    b = _fielded([m.player for m in match.team_b.members.order_by("pk")], quarter)
    seats = {
        "open_taker": a[0],
        "closed_taker": b[0],
        **{f"open_defender_{i}": b[i] for i in (1, 2, 3)},
        **{f"closed_defender_{i}": a[i] for i in (1, 2, 3)},
    }
    services.match_lineup_set(match=match, quarter=quarter, seats=seats)


def _play(match: CupMatch, quarter: int, rng: random.Random) -> None:
    phones = {room.room: room for room in MatchRoom.objects.filter(match=match)}
    for deal in MatchDeal.objects.filter(match=match, quarter=quarter).order_by("number"):
        for room in ROOMS:
            outcome = play_outcome(selectors.rules_deal_of(deal), rng)
            services.room_result_enter(room=phones[room], deal_number=deal.number, outcome=outcome)


def _play_match(match: CupMatch, rng: random.Random, quarters: int) -> None:
    for quarter in range(1, quarters + 1):
        _lineup(match, quarter)
        _play(match, quarter, rng)
        if quarter < 4:
            services.match_quarter_close(match=match, quarter=quarter)


def build_demo(*, club: Club, players: Sequence[Player], seed: int, today: datetime.date) -> Cup:
    """Build the demo cup of ``club`` with ``players`` (16 to 24 of its players)."""
    rng = random.Random(seed)
    rosters = _rosters(players)
    cup = services.cup_create(
        club=club,
        name="Coupe de France par équipes",
        date=today,
        public=True,
        deals_per_quarter=DEALS_PER_QUARTER,
        deal_seed=seed,
        tie_break_seed=seed,
    )
    for name, roster in zip(TEAM_NAMES, rosters, strict=True):
        services.cup_team_add(cup=cup, name=name, players=roster)
    cup = services.cup_start(cup=cup)
    for match in CupMatch.objects.filter(cup=cup, round=1).order_by("slot"):
        _play_match(match, rng, 4)
        services.match_finish(match=match)
    final = CupMatch.objects.get(cup=cup, round=2)
    _play_match(final, rng, 2)
    # the third quarter is under way: the open room is ahead of the closed room
    _lineup(final, 3)
    deals = list(MatchDeal.objects.filter(match=final, quarter=3).order_by("number"))
    phones = {room.room: room for room in MatchRoom.objects.filter(match=final)}
    for index, deal in enumerate(deals[:4]):
        rooms = ROOMS if index < 2 else ROOMS[:1]
        for room in rooms:
            outcome = play_outcome(selectors.rules_deal_of(deal), rng)
            services.room_result_enter(room=phones[room], deal_number=deal.number, outcome=outcome)
    return cup

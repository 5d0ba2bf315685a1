"""Cups for the teammatch tests: clubs, teams, feasible outcomes and the hand computation.

``hand_value`` is the FFT count written out (threshold by oudlers, 25 + margin, × the
contract's multiplier) so that the tests check the app against an independent computation.
"""

from __future__ import annotations

import datetime
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from clubs.errors import DomainError
from clubs.outcomes import outcome_score
from teammatch import selectors, services
from teammatch.models import (
    Cup,
    CupMatch,
    CupTeam,
    MatchDeal,
    MatchRoom,
    QuarterLineup,
    RoomResult,
    RoomResultChange,
)
from tests.factories import (
    ClubFactory,
    CupFactory,
    CupTeamFactory,
    OrganiserFactory,
    PlayerFactory,
)

THRESHOLD = {0: 56, 1: 51, 2: 41, 3: 36}
MULTIPLIER = {"garde": 2, "garde_sans": 4, "garde_contre": 6}
SCALE = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
         1750, 2000, 2250, 2500, 3000, 3500, 4000)  # fmt: skip


def hand_value(contract: str, oudlers: int, points: int) -> int:
    margin = points - THRESHOLD[oudlers]
    value = (25 + abs(margin)) * MULTIPLIER[contract]
    return value if margin >= 0 else -value


def hand_pm(net: int, scale: tuple[int, ...] = SCALE) -> int:
    reached = bisect_right(scale, abs(net))
    return reached if net >= 0 else -reached


def outcome(contract: str, oudlers: int, points: int) -> dict[str, Any]:
    return {
        "contract": contract,
        "oudlers": oudlers,
        "points": points,
        "petit_au_bout": None,
        "poignees": [],
        "chelem": {"announced": False, "made_by": None},
    }


def feasible(deal: MatchDeal, contract: str, points: int) -> dict[str, Any]:
    """A plain outcome near ``contract`` and ``points`` that the deal's cards allow: the hand
    checks decide how many oudlers the attack may have (and a Garde contre leaves the chien to
    the defence), so other oudler counts, then contracts, then points are tried."""
    contracts = [contract] + [c for c in MULTIPLIER if c != contract]
    for shift in (0, 10, -10, 20, -20):
        for tried in contracts:
            for oudlers in (2, 1, 3, 0):
                candidate = outcome(tried, oudlers, min(91, max(0, points + shift)))
                try:
                    outcome_score(deal=selectors.rules_deal_of(deal), outcome=candidate)
                except DomainError:
                    continue
                return candidate
    raise AssertionError(f"no plain outcome fits deal {deal.number}")


def club_with_players(count: int = 24, name: str = "Tarot Lyon") -> tuple[Any, list[Any], Any]:
    club = ClubFactory(name=name)
    players = [
        PlayerFactory(club=club, last_name=f"Joueur{n:02d}", first_name="A")
        for n in range(1, count + 1)
    ]
    organiser = OrganiserFactory(clubs=[club])
    return club, players, organiser


def cup_with_teams(
    club: Any, players: list[Any], sizes: tuple[int, ...], **options: Any
) -> tuple[Cup, list[CupTeam]]:
    cup = services.cup_create(
        club=club,
        name=options.pop("name", "Coupe de Lyon"),
        date=datetime.date(2026, 11, 21),
        deals_per_quarter=options.pop("deals_per_quarter", 2),
        deal_seed=options.pop("deal_seed", 11),
        tie_break_seed=7,
        **options,
    )
    teams = []
    start = 0
    for index, size in enumerate(sizes, start=1):
        teams.append(
            services.cup_team_add(
                cup=cup, name=f"Team {index}", players=players[start : start + size]
            )
        )
        start += size
    return cup, teams


def members(team: CupTeam) -> list[Any]:
    return [m.player for m in team.members.order_by("player__last_name")]


def seats_for(match: CupMatch, a: list[Any], b: list[Any]) -> dict[str, Any]:
    """A line-up: A's first player takes in the open room with B's players 2..4 defending;
    B's first player takes in the closed room with A's players 2..4 defending."""
    return {
        "open_taker": a[0],
        "open_defender_1": b[1],
        "open_defender_2": b[2],
        "open_defender_3": b[3],
        "closed_taker": b[0],
        "closed_defender_1": a[1],
        "closed_defender_2": a[2],
        "closed_defender_3": a[3],
    }


def lineup(match: CupMatch, quarter: int, a: list[Any], b: list[Any]) -> QuarterLineup:
    return services.match_lineup_set(match=match, quarter=quarter, seats=seats_for(match, a, b))


@dataclass
class Running:
    """A running cup of two teams: its one match in play, quarter 1 lined up (unless asked
    not to), its two room phones and an organiser of its club."""

    cup: Cup
    match: CupMatch
    organiser: Any
    rooms: dict[str, MatchRoom]

    def deal(self, number: int) -> MatchDeal:
        return MatchDeal.objects.get(match=self.match, number=number)

    def enter(self, room: str, number: int, contract: str = "garde", points: int = 50) -> Any:
        """Enter a feasible outcome of deal ``number`` from ``room``'s phone: (outcome, row)."""
        chosen = feasible(self.deal(number), contract, points)
        row = services.room_result_enter(room=self.rooms[room], deal_number=number, outcome=chosen)
        return chosen, row

    def refresh(self) -> CupMatch:
        self.match = CupMatch.objects.select_related("cup", "team_a", "team_b").get(
            pk=self.match.pk
        )
        return self.match


def running_match(
    *, public: bool = True, deals_per_quarter: int = 2, lined_up: bool = True
) -> Running:
    club = ClubFactory()
    organiser = OrganiserFactory(clubs=[club])
    cup = CupFactory(club=club, public=public, deals_per_quarter=deals_per_quarter)
    team_a, team_b = CupTeamFactory(cup=cup), CupTeamFactory(cup=cup)
    services.cup_start(cup=cup)
    cup.refresh_from_db()
    match = CupMatch.objects.select_related("cup", "team_a", "team_b").get(cup=cup)
    if lined_up:
        lineup(match, 1, members(team_a), members(team_b))
    rooms = {room.room: room for room in MatchRoom.objects.filter(match=match)}
    return Running(cup=cup, match=match, organiser=organiser, rooms=rooms)


def other(outcome: dict[str, Any]) -> dict[str, Any]:
    """Another outcome of the same deal (a few more points for the attack)."""
    points = outcome["points"]
    return {**outcome, "points": points + 5 if points <= 80 else points - 5}


def form_data(number: int, outcome: dict[str, Any]) -> dict[str, Any]:
    """``outcome`` as the room phone's form posts it for deal ``number``."""
    return {
        f"d{number}-contract": outcome["contract"],
        f"d{number}-oudlers": outcome["oudlers"],
        f"d{number}-points": outcome["points"],
        f"d{number}-petit_au_bout": outcome["petit_au_bout"] or "",
    }


def stored_state(match: CupMatch) -> tuple[list[Any], list[Any]]:
    """Every room result of the match and every line of their history, as stored."""
    results = list(RoomResult.objects.filter(match=match).order_by("pk").values())
    history = list(RoomResultChange.objects.filter(result__match=match).order_by("pk").values())
    return results, history

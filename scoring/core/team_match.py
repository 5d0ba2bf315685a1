"""Duplicate team matches (Coupe de France, interclubs) and their knockout bracket (pure).

docs/domain/duplicate.md, "Team matches": two teams of 4 to 6 players meet on the same deals in
two rooms.

- **Line-ups** (:class:`Lineup`, one per quarter): in the *open* room team A's taker plays
  against three of team B; in the *closed* room team B's taker against three of team A. Every
  seat is filled, nobody sits twice in a quarter, every player belongs to the roster of the
  team whose seat he takes, so each team fields exactly 4 of its players; players beyond 4 come
  in between quarters. :func:`check_lineup` refuses anything else with a :class:`RuleError`.
- **Deals**: each room plays a duplicate outcome (:func:`rules.duplicate.check_duplicate_play`:
  4 players, Garde, Garde sans or Garde contre; a Prise is refused) scored by
  :func:`rules.scoring.score_deal`. Team A's net = its taker's mark in the open room plus its
  three defenders' marks in the closed room = ``3·(v_open − v_closed)``; it is converted to
  points de match with the event's scale by :func:`scoring.core.assemble.pm_from_net` (the
  quadrettes' conversion). Quarter PM = Σ deal PM; match PM = Σ quarter PM; B gets −A.
- **Four quarters** (:data:`QUARTERS`) of the same number of deals.
- **Drawn match** (equal PM), :class:`TieBreak` [default, the organiser's choice]: the rules of
  ``TieBreak.order`` are tried in turn: ``net`` (the larger total net marks over the match),
  then ``last_quarter`` (the better PM in the last quarter, else in the quarter before, ...);
  when every rule leaves the teams equal, a coin tossed by a generator seeded with
  ``TieBreak.seed`` and the two team ids (so a replay gives the same winner).
- **Knockout bracket** (:func:`bracket`): teams listed by seed (seed 1 first). The bracket has
  the next power of two slots; standard seeding puts 1 v N, then the seeds whose sum is N + 1
  (8 slots: 1 v 8, 4 v 5, 2 v 7, 3 v 6), so the top seeds meet the missing ones: a *bye*
  (repos) and go through. :func:`record_result` advances a winner to the next round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from rules.duplicate import check_duplicate_play
from rules.errors import RuleError
from rules.i18n import gettext_noop
from rules.scoring import Outcome, score_deal
from scoring.core.assemble import pm_from_net
from scoring.core.model import IMP_THRESHOLDS, ScoringOptions
from scoring.core.results import DealPM

__all__ = [
    "MAX_ROSTER",
    "MIN_ROSTER",
    "QUARTERS",
    "Bracket",
    "BracketMatch",
    "DealResult",
    "Lineup",
    "MatchResult",
    "QuarterPlay",
    "QuarterScore",
    "Room",
    "TeamMatch",
    "TeamRoster",
    "TieBreak",
    "TieBreakRule",
    "bracket",
    "check_lineup",
    "check_rosters",
    "deal_net_a",
    "play_match",
    "record_result",
    "score_match",
    "seeding_order",
]

QUARTERS: Final = 4
MIN_ROSTER: Final = 4
MAX_ROSTER: Final = 6
FIELDED: Final = 4

_ROOM_WORDS: Final = {"open": gettext_noop("open room"), "closed": gettext_noop("closed room")}
_TAKER_WORD: Final = gettext_noop("taker")
_DEFENDER_WORD: Final = gettext_noop("defender")


@dataclass(frozen=True)
class TeamRoster:
    """A team: its id and its 4 to 6 players."""

    id: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Room:
    """One room's seats: the taker (one team) and the three defenders (the other team)."""

    taker: str
    defenders: tuple[str, ...]


@dataclass(frozen=True)
class Lineup:
    """Who sits where in one quarter (1..4): open room A takes, closed room B takes."""

    quarter: int
    open: Room
    closed: Room


@dataclass(frozen=True)
class DealResult:
    """One deal as played in both rooms (4-player duplicate outcomes)."""

    deal: int
    open: Outcome
    closed: Outcome


@dataclass(frozen=True)
class QuarterPlay:
    """A quarter: its line-up and its deals."""

    lineup: Lineup
    deals: tuple[DealResult, ...]


@dataclass(frozen=True)
class TeamMatch:
    """A match between team A and team B over :data:`QUARTERS` quarters."""

    team_a: TeamRoster
    team_b: TeamRoster
    quarters: tuple[QuarterPlay, ...]


class TieBreakRule(StrEnum):
    """A rule deciding a drawn match (see the module docstring)."""

    NET = "net"
    LAST_QUARTER = "last_quarter"


@dataclass(frozen=True)
class TieBreak:
    """The tie-break of a drawn match: rules tried in order, then a coin seeded by ``seed``."""

    order: tuple[TieBreakRule, ...] = (TieBreakRule.NET, TieBreakRule.LAST_QUARTER)
    seed: int = 0


DEFAULT_TIE_BREAK: Final = TieBreak()


@dataclass(frozen=True)
class QuarterScore:
    """A quarter's deals (team A's net and PM per deal) and its totals for team A."""

    quarter: int
    deals: tuple[DealPM, ...]
    net_a: int
    pm_a: int


@dataclass(frozen=True)
class MatchResult:
    """A scored match: per-quarter and total PM and net for team A, and the winner.

    ``decided_by`` is ``"pm"`` for an undrawn match, else the tie-break rule that decided it
    (``"net"``, ``"last_quarter"``) or ``"coin"``.
    """

    team_a: str
    team_b: str
    quarters: tuple[QuarterScore, ...]
    net_a: int
    pm_a: int
    winner: str
    decided_by: str

    @property
    def pm_b(self) -> int:
        return -self.pm_a

    @property
    def loser(self) -> str:
        return self.team_b if self.winner == self.team_a else self.team_a


# ---------------------------------------------------------------------------------------------
# Rosters and line-ups


def check_rosters(team_a: TeamRoster, team_b: TeamRoster) -> None:
    """Refuse a roster of fewer than 4 or more than 6 players, a player listed twice, a player
    in both teams, or a team meeting itself."""
    if team_a.id == team_b.id:
        raise RuleError(
            "team_match_same_team",
            gettext_noop("team %(team)s cannot play against itself"),
            {"team": team_a.id},
            field="team_b",
        )
    for key, team in (("team_a", team_a), ("team_b", team_b)):
        if not MIN_ROSTER <= len(team.players) <= MAX_ROSTER:
            raise RuleError(
                "roster_size",
                gettext_noop("team %(team)s has %(count)s players; a team has 4 to 6 players"),
                {"team": team.id, "count": len(team.players)},
                field=f"{key}.players",
            )
        seen: set[str] = set()
        for player in team.players:
            if player in seen:
                raise RuleError(
                    "roster_player_twice",
                    gettext_noop("team %(team)s lists %(player)s twice"),
                    {"team": team.id, "player": player},
                    field=f"{key}.players",
                )
            seen.add(player)
    shared = sorted(set(team_a.players) & set(team_b.players))
    if shared:
        raise RuleError(
            "roster_shared_player",
            gettext_noop("%(player)s is in both teams %(team)s and %(other_team)s"),
            {"player": shared[0], "team": team_a.id, "other_team": team_b.id},
            field="team_b.players",
        )


def _seats(lineup: Lineup) -> list[tuple[str, str, int, str]]:
    """Every seat as (room, role, defender index, player); the taker's index is 0."""
    seats: list[tuple[str, str, int, str]] = []
    for room_name, room in (("open", lineup.open), ("closed", lineup.closed)):
        seats.append((room_name, "taker", 0, room.taker))
        for index, player in enumerate(room.defenders):
            seats.append((room_name, "defenders", index, player))
    return seats


def _seat_field(room: str, role: str, index: int) -> str:
    return f"{room}.taker" if role == "taker" else f"{room}.defenders[{index}]"


def _seat_word(role: str) -> str:
    return _TAKER_WORD if role == "taker" else _DEFENDER_WORD


def check_lineup(lineup: Lineup, team_a: TeamRoster, team_b: TeamRoster) -> None:
    """Refuse a line-up that does not seat exactly 4 players of each team, each once.

    Codes: ``lineup_quarter`` (not 1..4), ``lineup_seat_empty``, ``lineup_player_twice``,
    ``lineup_unknown_player`` (in neither roster), ``lineup_wrong_team`` (a seat of the other
    team), ``lineup_team_count`` (a room without exactly 3 defenders: a team fielding 3 or 5).
    """
    check_rosters(team_a, team_b)
    quarter = lineup.quarter
    if isinstance(quarter, bool) or not isinstance(quarter, int) or not 1 <= quarter <= QUARTERS:
        raise RuleError(
            "lineup_quarter",
            gettext_noop("a match has quarters 1 to 4, not %(quarter)s"),
            {"quarter": quarter},
            field="quarter",
        )
    placed: dict[str, tuple[str, str, int]] = {}
    for room, role, index, player in _seats(lineup):
        if not isinstance(player, str) or not player.strip():
            raise RuleError(
                "lineup_seat_empty",
                gettext_noop(
                    "quarter %(quarter)s: the %(seat_word)s seat in the %(room_word)s is empty"
                ),
                {"quarter": quarter, "room_word": _ROOM_WORDS[room], "seat_word": _seat_word(role)},
                field=_seat_field(room, role, index),
            )
        if player in placed:
            first_room, first_role, _ = placed[player]
            raise RuleError(
                "lineup_player_twice",
                gettext_noop(
                    "quarter %(quarter)s: %(player)s is seated twice (%(other_seat_word)s in the "
                    "%(other_room_word)s and %(seat_word)s in the %(room_word)s); a player sits "
                    "once per quarter"
                ),
                {
                    "quarter": quarter,
                    "player": player,
                    "other_room_word": _ROOM_WORDS[first_room],
                    "other_seat_word": _seat_word(first_role),
                    "room_word": _ROOM_WORDS[room],
                    "seat_word": _seat_word(role),
                },
                field=_seat_field(room, role, index),
            )
        placed[player] = (room, role, index)
        # open room: A takes, B defends; closed room: B takes, A defends
        a_seat = (room == "open") == (role == "taker")
        own, other = (team_a, team_b) if a_seat else (team_b, team_a)
        if player not in own.players:
            if player in other.players:
                raise RuleError(
                    "lineup_wrong_team",
                    gettext_noop(
                        "quarter %(quarter)s: %(player)s of team %(other_team)s cannot take a "
                        "%(seat_word)s seat of team %(team)s in the %(room_word)s"
                    ),
                    {
                        "quarter": quarter,
                        "player": player,
                        "other_team": other.id,
                        "team": own.id,
                        "seat_word": _seat_word(role),
                        "room_word": _ROOM_WORDS[room],
                    },
                    field=_seat_field(room, role, index),
                )
            raise RuleError(
                "lineup_unknown_player",
                gettext_noop(
                    "quarter %(quarter)s: %(player)s (%(seat_word)s in the %(room_word)s) is not "
                    "on the roster of team %(team)s"
                ),
                {
                    "quarter": quarter,
                    "player": player,
                    "room_word": _ROOM_WORDS[room],
                    "seat_word": _seat_word(role),
                    "team": own.id,
                },
                field=_seat_field(room, role, index),
            )
    defending = ((team_b, "open", lineup.open), (team_a, "closed", lineup.closed))
    for team, room_name, seated in defending:
        fielded = len(seated.defenders) + 1
        if fielded != FIELDED:
            raise RuleError(
                "lineup_team_count",
                gettext_noop(
                    "quarter %(quarter)s: team %(team)s fields %(count)s players; a team fields "
                    "exactly 4 (3 defenders in the %(room_word)s and a taker in the other room)"
                ),
                {
                    "quarter": quarter,
                    "team": team.id,
                    "count": fielded,
                    "room_word": _ROOM_WORDS[room_name],
                },
                field=f"{room_name}.defenders",
            )


# ---------------------------------------------------------------------------------------------
# Scoring


def _room_value(outcome: Outcome, deal: int, room: str) -> int:
    """The deal value (defender units, from the taker's side) of one room's outcome."""
    if not outcome.ruleset.is_fft:
        raise RuleError(
            "team_match_ruleset",
            gettext_noop("deal %(deal)s: a team match is played under the FFT rules"),
            {"deal": deal},
            field=f"deals[{deal}].{room}.ruleset",
        )
    try:
        check_duplicate_play(contract=outcome.contract, players=outcome.players)
        return score_deal(outcome).value
    except RuleError as error:
        raise RuleError(
            error.code,
            error.template,
            error.params,
            field=f"deals[{deal}].{room}.{error.field or 'outcome'}",
        ) from None


def deal_net_a(result: DealResult) -> int:
    """Team A's net: its taker in the open room (3·v_open) and its three defenders in the
    closed room (3·(−v_closed))."""
    v_open = _room_value(result.open, result.deal, "open")
    v_closed = _room_value(result.closed, result.deal, "closed")
    return 3 * v_open - 3 * v_closed


def _check_shape(match: TeamMatch) -> None:
    if len(match.quarters) != QUARTERS:
        raise RuleError(
            "team_match_quarters",
            gettext_noop("a team match has 4 quarters, not %(count)s"),
            {"count": len(match.quarters)},
            field="quarters",
        )
    counts = {len(quarter.deals) for quarter in match.quarters}
    if 0 in counts or len(counts) != 1:
        raise RuleError(
            "team_match_quarter_deals",
            gettext_noop("every quarter has the same number of deals, at least one"),
            field="quarters",
        )
    seen: set[int] = set()
    for number, quarter in enumerate(match.quarters, start=1):
        if quarter.lineup.quarter != number:
            raise RuleError(
                "lineup_quarter_order",
                gettext_noop("the line-up of quarter %(quarter)s says quarter %(other)s"),
                {"quarter": number, "other": quarter.lineup.quarter},
                field=f"quarters[{number - 1}].lineup.quarter",
            )
        for deal in quarter.deals:
            if deal.deal in seen:
                raise RuleError(
                    "team_match_deal_twice",
                    gettext_noop("deal %(deal)s is played twice in the match"),
                    {"deal": deal.deal},
                    field=f"quarters[{number - 1}].deals",
                )
            seen.add(deal.deal)


def _coin(tie_break: TieBreak, team_a: str, team_b: str) -> str:
    generator = random.Random(f"{tie_break.seed}:{team_a}:{team_b}")
    return team_a if generator.random() < 0.5 else team_b


def _break_tie(
    tie_break: TieBreak, team_a: str, team_b: str, net_a: int, quarters: Sequence[QuarterScore]
) -> tuple[str, str]:
    for rule in tie_break.order:
        if rule is TieBreakRule.NET and net_a != 0:
            return (team_a if net_a > 0 else team_b), rule.value
        if rule is TieBreakRule.LAST_QUARTER:
            for quarter in reversed(quarters):
                if quarter.pm_a != 0:
                    return (team_a if quarter.pm_a > 0 else team_b), rule.value
    return _coin(tie_break, team_a, team_b), "coin"


def score_match(
    match: TeamMatch,
    scale: Sequence[int] = IMP_THRESHOLDS,
    tie_break: TieBreak = DEFAULT_TIE_BREAK,
) -> MatchResult:
    """Check the line-ups and outcomes, then score the match (see the module docstring)."""
    pm_scale = ScoringOptions(pm_scale=tuple(scale)).pm_scale  # the scale's own checks
    check_rosters(match.team_a, match.team_b)
    _check_shape(match)
    quarters: list[QuarterScore] = []
    for quarter in match.quarters:
        check_lineup(quarter.lineup, match.team_a, match.team_b)
        deals = []
        for result in quarter.deals:
            net = deal_net_a(result)
            deals.append(DealPM(deal=result.deal, net_a=net, pm_a=pm_from_net(net, pm_scale)))
        quarters.append(
            QuarterScore(
                quarter=quarter.lineup.quarter,
                deals=tuple(deals),
                net_a=sum(d.net_a or 0 for d in deals),
                pm_a=sum(d.pm_a for d in deals),
            )
        )
    net_a = sum(q.net_a for q in quarters)
    pm_a = sum(q.pm_a for q in quarters)
    a, b = match.team_a.id, match.team_b.id
    if pm_a != 0:
        winner, decided_by = (a if pm_a > 0 else b), "pm"
    else:
        winner, decided_by = _break_tie(tie_break, a, b, net_a, quarters)
    return MatchResult(
        team_a=a,
        team_b=b,
        quarters=tuple(quarters),
        net_a=net_a,
        pm_a=pm_a,
        winner=winner,
        decided_by=decided_by,
    )


# ---------------------------------------------------------------------------------------------
# Knockout bracket


@dataclass(frozen=True)
class BracketMatch:
    """One match of a round: its teams (``None``: not known yet, or a bye when ``bye``) and
    its winner once decided. A bye's winner is the one team present."""

    round: int
    slot: int
    team_a: str | None
    team_b: str | None
    winner: str | None = None
    bye: bool = False


@dataclass(frozen=True)
class Bracket:
    """A knockout bracket: ``rounds[0]`` is the first round, the last round the final."""

    seeds: tuple[str, ...]
    rounds: tuple[tuple[BracketMatch, ...], ...]
    tie_break: TieBreak = DEFAULT_TIE_BREAK

    @property
    def champion(self) -> str | None:
        return self.rounds[-1][0].winner

    def match(self, round_number: int, slot: int) -> BracketMatch:
        """The match of round ``round_number`` (1 = first round) at ``slot`` (0-based)."""
        if not 1 <= round_number <= len(self.rounds) or not (
            0 <= slot < len(self.rounds[round_number - 1])
        ):
            raise RuleError(
                "bracket_no_such_match",
                gettext_noop("the bracket has no match %(slot)s in round %(round)s"),
                {"slot": slot, "round": round_number},
                field="slot",
            )
        return self.rounds[round_number - 1][slot]


def seeding_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order for ``size`` slots (a power of two): 8 → 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for first in order for seed in (first, total - first)]
    return tuple(order)


def _advance(rounds: list[list[BracketMatch]], round_index: int, slot: int, winner: str) -> None:
    """Set the winner of a match and place him in the next round (slot // 2, side slot % 2)."""
    rounds[round_index][slot] = replace(rounds[round_index][slot], winner=winner)
    if round_index + 1 == len(rounds):
        return
    following = rounds[round_index + 1][slot // 2]
    if slot % 2 == 0:
        following = replace(following, team_a=winner)
    else:
        following = replace(following, team_b=winner)
    rounds[round_index + 1][slot // 2] = following


def bracket(teams: Sequence[str], tie_break: TieBreak = DEFAULT_TIE_BREAK) -> Bracket:
    """A knockout bracket of ``teams`` listed by seed (seed 1 first); top seeds get the byes."""
    seeds = tuple(teams)
    if len(seeds) < 2:
        raise RuleError(
            "bracket_too_few_teams",
            gettext_noop("a knockout needs at least 2 teams, not %(count)s"),
            {"count": len(seeds)},
            field="teams",
        )
    if len(set(seeds)) != len(seeds):
        twice = next(team for team in seeds if seeds.count(team) > 1)
        raise RuleError(
            "bracket_team_twice",
            gettext_noop("team %(team)s is seeded twice"),
            {"team": twice},
            field="teams",
        )
    size = 1
    while size < len(seeds):
        size *= 2
    order = seeding_order(size)
    rounds: list[list[BracketMatch]] = []
    matches = size // 2
    round_number = 1
    while matches >= 1:
        rounds.append([BracketMatch(round_number, slot, None, None) for slot in range(matches)])
        matches //= 2
        round_number += 1
    for slot in range(size // 2):
        seed_a, seed_b = order[2 * slot], order[2 * slot + 1]
        team_a = seeds[seed_a - 1] if seed_a <= len(seeds) else None
        team_b = seeds[seed_b - 1] if seed_b <= len(seeds) else None
        is_bye = team_a is None or team_b is None
        rounds[0][slot] = BracketMatch(1, slot, team_a, team_b, bye=is_bye)
        if is_bye:
            present = team_a if team_a is not None else team_b
            assert present is not None  # seed 1..size/2 is always present
            _advance(rounds, 0, slot, present)
    return Bracket(seeds=seeds, rounds=tuple(tuple(r) for r in rounds), tie_break=tie_break)


def record_result(current: Bracket, round_number: int, slot: int, result: MatchResult) -> Bracket:
    """The bracket with ``result`` recorded for the match at (``round_number``, ``slot``)."""
    match = current.match(round_number, slot)
    if match.winner is not None:
        raise RuleError(
            "bracket_already_decided",
            gettext_noop("match %(slot)s of round %(round)s is already decided"),
            {"slot": slot, "round": round_number},
            field="slot",
        )
    if match.team_a is None or match.team_b is None:
        raise RuleError(
            "bracket_match_not_ready",
            gettext_noop("match %(slot)s of round %(round)s waits for its teams"),
            {"slot": slot, "round": round_number},
            field="slot",
        )
    if (result.team_a, result.team_b) != (match.team_a, match.team_b):
        raise RuleError(
            "bracket_wrong_teams",
            gettext_noop("match %(slot)s of round %(round)s is %(team)s against %(other_team)s"),
            {"slot": slot, "round": round_number, "team": match.team_a, "other_team": match.team_b},
            field="result",
        )
    rounds = [list(r) for r in current.rounds]
    _advance(rounds, round_number - 1, slot, result.winner)
    return replace(current, rounds=tuple(tuple(r) for r in rounds))


def play_match(
    current: Bracket,
    round_number: int,
    slot: int,
    match: TeamMatch,
    scale: Sequence[int] = IMP_THRESHOLDS,
) -> tuple[Bracket, MatchResult]:
    """Score ``match`` with the bracket's tie-break and record it: (new bracket, result)."""
    result = score_match(match, scale, current.tie_break)
    return record_result(current, round_number, slot, result), result

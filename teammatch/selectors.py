"""Every read of the cups: lookups, bracket, match sheets, the room phone's page, the
organiser's screens, and the adapters from rows to the pure ``scoring.core.team_match``.

Views and the API read only through here (or ``clubs.access``): a lookup that finds nothing
raises ``Http404`` (``*_or_404``) or returns ``None``. Each selector owns its
``select_related``/``prefetch_related``; the bracket reads every match's sheet in a fixed
number of queries whatever the number of matches. What a viewer may see of the results is
``teammatch.publication``'s: the sheets apply it, nothing here re-derives it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, QuerySet
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from clubs.access import UserLike, clubs_directed_by
from clubs.errors import DomainError
from clubs.models import Club, Player
from clubs.outcomes import EtuiDeal, outcome_score
from clubs.phone_codes import phone_code_lookup
from clubs.selectors import register_active_players
from rules.duplicate import DUPLICATE_RULESET
from rules.scoring import Outcome, outcome_from_dict
from scoring.core.assemble import pm_from_net
from scoring.core.team_match import (
    QUARTERS,
    Bracket,
    BracketMatch,
    DealResult,
    Lineup,
    QuarterPlay,
    Room,
    TeamMatch,
    TeamRoster,
    TieBreak,
    TieBreakRule,
    deal_net_a,
)
from teammatch.models import (
    Cup,
    CupMatch,
    CupTeam,
    CupTeamPlayer,
    MatchDeal,
    MatchRoom,
    QuarterLineup,
    RoomName,
    RoomResult,
    RoomResultChange,
)
from teammatch.presentation import decided_text, round_name
from teammatch.publication import publication_of, room_may_read

ROOMS = (RoomName.OPEN.value, RoomName.CLOSED.value)

# ---------------------------------------------------------------------------------------------
# Lookups


def cup_match_or_404(cup: Cup, match_id: int) -> CupMatch:
    """The match ``match_id`` of ``cup`` with its teams, else 404."""
    match = (
        CupMatch.objects.select_related("cup__club", "team_a", "team_b", "winner")
        .filter(cup=cup, pk=match_id)
        .first()
    )
    if match is None:
        raise Http404(_("This cup has no such match."))
    return match


def cup_team_or_404(cup: Cup, team_id: int) -> CupTeam:
    """The team ``team_id`` of ``cup`` with its members, else 404."""
    team = CupTeam.objects.prefetch_related("members__player").filter(cup=cup, pk=team_id).first()
    if team is None:
        raise Http404(_("This cup has no such team."))
    return team


def match_deal(match: CupMatch, number: int) -> MatchDeal | None:
    return MatchDeal.objects.filter(match=match, number=number).first()


def match_deal_or_404(match: CupMatch, number: int) -> MatchDeal:
    deal = match_deal(match, number)
    if deal is None:
        raise Http404(_("This match has no deal %(deal)s.") % {"deal": number})
    return deal


def rooms() -> QuerySet[MatchRoom]:
    """Every room with its match, cup and teams (where a room code is looked up)."""
    return MatchRoom.objects.select_related("match__cup__club", "match__team_a", "match__team_b")


def room_for_code(request: HttpRequest | Any, code: str) -> MatchRoom:
    """The room of ``code`` through the kernel's one lookup (unknown codes throttled)."""
    return phone_code_lookup(request, rooms(), code)


def organised_clubs(user: UserLike | None) -> QuerySet[Club]:
    """The clubs whose cups ``user`` directs (the clubs a new cup may belong to)."""
    return clubs_directed_by(user)


def organises_a_club(user: UserLike | None) -> bool:
    return clubs_directed_by(user).exists()


# ---------------------------------------------------------------------------------------------
# Cup, teams, players


def cup_teams(cup: Cup) -> list[CupTeam]:
    """The cup's teams by seed, each with its members and their players."""
    return list(
        CupTeam.objects.filter(cup=cup).order_by("seed").prefetch_related("members__player")
    )


def team_player_ids(team: CupTeam) -> list[int]:
    return [member.player_id for member in team.members.all()]


def club_players(cup: Cup) -> QuerySet[Player]:
    """The players a team of ``cup`` may take: the active players of its club's register."""
    return register_active_players(cup.club_id)


def match_players(match: CupMatch) -> QuerySet[Player]:
    """The players of the match's two rosters (the choices of a line-up seat)."""
    return Player.objects.filter(
        cup_teams__in=[t for t in (match.team_a_id, match.team_b_id) if t]
    ).distinct()


def current_lineup(match: CupMatch, *, lock: bool = False) -> QuarterLineup | None:
    """The line-up of the quarter being played (locked for update with ``lock``)."""
    lineups = QuarterLineup.objects.filter(match=match, quarter=match.quarter)
    if lock:
        lineups = lineups.select_for_update()
    return lineups.select_related(*QuarterLineup.SEAT_FIELDS).first()


def match_round_name(match: CupMatch) -> str:
    """The name of the match's round ("Final", "Semi-finals"...)."""
    count = CupMatch.objects.filter(cup=match.cup_id).aggregate(count=Max("round"))["count"]
    return round_name(match.round, count or match.round)


def room_result(deal: MatchDeal, room: str) -> RoomResult | None:
    return RoomResult.objects.select_related("deal").filter(deal=deal, room=room).first()


def room_result_history(result: RoomResult) -> list[RoomResultChange]:
    return list(RoomResultChange.objects.filter(result=result).order_by("at", "pk"))


def match_results_entered(match: CupMatch, *, quarter: int | None = None) -> bool:
    """Whether ``match`` has a result (of ``quarter`` only, when given)."""
    results = RoomResult.objects.filter(match=match)
    if quarter is not None:
        results = results.filter(deal__quarter=quarter)
    return results.exists()


def match_missing_results(match: CupMatch, quarter: int | None = None) -> list[str]:
    """What is still to enter (of ``quarter`` only, when given): "deal 3 in the closed room"."""
    deals = MatchDeal.objects.filter(match=match)
    if quarter is not None:
        deals = deals.filter(quarter=quarter)
    entered = set(RoomResult.objects.filter(match=match).values_list("deal_id", "room"))
    rooms = dict(RoomName.choices)
    return [
        _("deal %(deal)s in the %(room)s") % {"deal": deal.number, "room": str(rooms[room]).lower()}
        for deal in deals.order_by("number")
        for room in ROOMS
        if (deal.pk, room) not in entered
    ]


def cup_has_unfinished_matches(cup: Cup) -> bool:
    return CupMatch.objects.filter(cup=cup).exclude(status=CupMatch.Status.FINISHED).exists()


# ---------------------------------------------------------------------------------------------
# Adapters to the pure core (reads only)


def tie_break_of(cup: Cup) -> TieBreak:
    order = tuple(TieBreakRule(rule) for rule in cup.tie_break.split(","))
    return TieBreak(order=order, seed=cup.tie_break_seed)


def player_labels(players: Sequence[Player]) -> dict[int, str]:
    """A distinct label per player: his name, and his id when two share a name (never his
    licence: labels reach the public pages and the rooms' phones)."""
    distinct = list({player.pk: player for player in players}.values())
    names = [str(player) for player in distinct]
    labels = {}
    for player, name in zip(distinct, names, strict=True):
        if names.count(name) > 1:
            name = f"{name} ({player.pk})"
        labels[player.pk] = name
    return labels


def match_members(match: CupMatch) -> list[Player]:
    """The players of the match's two rosters."""
    members = CupTeamPlayer.objects.filter(team__in=[match.team_a_id, match.team_b_id])
    return [m.player for m in members.select_related("player")]


def match_labels(match: CupMatch) -> dict[int, str]:
    """A label per player of the two rosters (the names the line-up messages use)."""
    return player_labels(match_members(match))


def roster_of(team: CupTeam, labels: Mapping[int, str]) -> TeamRoster:
    return TeamRoster(id=team.name, players=tuple(labels[m.player_id] for m in team.members.all()))


def rosters_of(match: CupMatch) -> tuple[TeamRoster, TeamRoster, dict[int, str]]:
    labels = match_labels(match)
    assert match.team_a is not None and match.team_b is not None
    return roster_of(match.team_a, labels), roster_of(match.team_b, labels), labels


def pure_lineup(lineup: QuarterLineup, labels: Mapping[int, str]) -> Lineup:
    seat = {name: labels.get(getattr(lineup, f"{name}_id"), "") for name in lineup.SEAT_FIELDS}
    return Lineup(
        quarter=lineup.quarter,
        open=Room(
            taker=seat["open_taker"],
            defenders=tuple(seat[f"open_defender_{i}"] for i in (1, 2, 3)),
        ),
        closed=Room(
            taker=seat["closed_taker"],
            defenders=tuple(seat[f"closed_defender_{i}"] for i in (1, 2, 3)),
        ),
    )


def rules_deal_of(deal: MatchDeal) -> EtuiDeal:
    """The étui as a plain value (:class:`clubs.outcomes.EtuiDeal`: its seats and cards) for
    ``outcome_score``, its hand checks and the outcome form."""
    return EtuiDeal(
        number=deal.number,
        dealer_seat=deal.dealer_seat,
        taker_seat=deal.taker_seat,
        cards=deal.cards,
    )


def rules_outcome(result: RoomResult) -> Outcome:
    data = {key: value for key, value in result.outcome.items() if key != "taker_seat"}
    return outcome_from_dict({**data, "players": 4}, ruleset=DUPLICATE_RULESET)


def result_state(result: RoomResult) -> dict[str, Any]:
    """A result as its history lines keep it (before/after)."""
    return {**result.outcome, "value": result.value, "taker_mark": result.taker_mark}


def pure_match(match: CupMatch) -> TeamMatch:
    """The whole match as the pure ``TeamMatch`` (every deal in both rooms)."""
    team_a, team_b, labels = rosters_of(match)
    results = {(r.deal_id, r.room): r for r in RoomResult.objects.filter(match=match)}
    lineups = {lu.quarter: lu for lu in QuarterLineup.objects.filter(match=match)}
    deals: dict[int, list[MatchDeal]] = {}
    for deal in MatchDeal.objects.filter(match=match).order_by("number"):
        deals.setdefault(deal.quarter, []).append(deal)
    quarters = []
    for number in range(1, QUARTERS + 1):
        lineup = lineups.get(number)
        if lineup is None:
            raise DomainError(
                "no_lineup",
                _("The line-up of quarter %(quarter)s is not set yet.") % {"quarter": number},
            )
        played = tuple(
            DealResult(
                deal=deal.number,
                open=rules_outcome(results[(deal.pk, RoomName.OPEN.value)]),
                closed=rules_outcome(results[(deal.pk, RoomName.CLOSED.value)]),
            )
            for deal in deals.get(number, [])
        )
        quarters.append(QuarterPlay(lineup=pure_lineup(lineup, labels), deals=played))
    return TeamMatch(team_a=team_a, team_b=team_b, quarters=tuple(quarters))


def pure_bracket(cup: Cup) -> Bracket:
    """The pure bracket of the cup's stored matches (team names as ids)."""
    teams = {team.pk: team for team in CupTeam.objects.filter(cup=cup)}
    seeds = tuple(team.name for team in sorted(teams.values(), key=lambda team: team.seed))

    def name(team_id: int | None) -> str | None:
        return teams[team_id].name if team_id else None

    rounds: dict[int, list[BracketMatch]] = {}
    for match in CupMatch.objects.filter(cup=cup).order_by("round", "slot"):
        rounds.setdefault(match.round, []).append(
            BracketMatch(
                round=match.round,
                slot=match.slot,
                team_a=name(match.team_a_id),
                team_b=name(match.team_b_id),
                winner=name(match.winner_id),
                bye=match.bye,
            )
        )
    ordered = tuple(tuple(rounds[number]) for number in sorted(rounds))
    return Bracket(seeds=seeds, rounds=ordered, tie_break=tie_break_of(cup))


# ---------------------------------------------------------------------------------------------
# Match sheets


@dataclass
class DealLine:
    deal: MatchDeal
    open: RoomResult | None
    closed: RoomResult | None
    net_a: int | None
    pm_a: int | None

    @property
    def complete(self) -> bool:
        return self.open is not None and self.closed is not None


@dataclass
class QuarterLine:
    number: int
    lineup: QuarterLineup | None
    deals: list[DealLine]
    net_a: int
    pm_a: int
    counted: int

    @property
    def closed(self) -> bool:
        return bool(self.lineup and self.lineup.closed)


@dataclass
class MatchSheet:
    match: CupMatch
    quarters: list[QuarterLine]
    net_a: int
    pm_a: int
    counted: int
    total: int

    @property
    def provisional(self) -> bool:
        """The figures may still change (the cup is not finished)."""
        return bool(self.match.cup.provisional)


def match_sheet(match: CupMatch, *, directs: bool) -> MatchSheet:
    """Per quarter, per deal: both rooms' results, team A's net and PM, as the viewer may see
    them (``teammatch.publication``: a director sees every entered result; anybody else only
    the deals entered in both rooms, the others count for nothing)."""
    return match_sheets([match], match.cup, directs=directs)[match.pk]


def match_sheets(matches: Sequence[CupMatch], cup: Cup, *, directs: bool) -> dict[int, MatchSheet]:
    """:func:`match_sheet` of each of ``cup``'s ``matches`` (by match id), in three queries
    whatever their number (the bracket shows every match's sheet totals)."""
    scale = tuple(cup.pm_scale)
    ids = [match.pk for match in matches]
    results: dict[tuple[int, str], RoomResult] = {
        (r.deal_id, r.room): r for r in RoomResult.objects.filter(match_id__in=ids)
    }
    lineups = {
        (lu.match_id, lu.quarter): lu
        for lu in QuarterLineup.objects.filter(match_id__in=ids).select_related(
            *QuarterLineup.SEAT_FIELDS
        )
    }
    deals_of: dict[int, list[MatchDeal]] = {match_id: [] for match_id in ids}
    for deal in MatchDeal.objects.filter(match_id__in=ids).order_by("match_id", "number"):
        deals_of[deal.match_id].append(deal)
    sheets = {}
    for match in matches:
        deals = deals_of[match.pk]
        entered = {
            deal.number: [room for room in ROOMS if (deal.pk, room) in results] for deal in deals
        }
        publication = publication_of(cup, [deal.number for deal in deals], entered, directs=directs)
        quarters: dict[int, QuarterLine] = {}
        for deal in deals:
            line = quarters.setdefault(
                deal.quarter,
                QuarterLine(deal.quarter, lineups.get((match.pk, deal.quarter)), [], 0, 0, 0),
            )
            open_result = results.get((deal.pk, RoomName.OPEN.value))
            closed_result = results.get((deal.pk, RoomName.CLOSED.value))
            if not publication.shows(deal.number):
                open_result = closed_result = None
            net = pm = None
            if open_result is not None and closed_result is not None:
                net = deal_net_a(
                    DealResult(
                        deal.number, rules_outcome(open_result), rules_outcome(closed_result)
                    )
                )
                pm = pm_from_net(net, scale)
                line.net_a += net
                line.pm_a += pm
                line.counted += 1
            line.deals.append(DealLine(deal, open_result, closed_result, net, pm))
        ordered = [quarters[n] for n in sorted(quarters)]
        sheets[match.pk] = MatchSheet(
            match=match,
            quarters=ordered,
            net_a=sum(q.net_a for q in ordered),
            pm_a=sum(q.pm_a for q in ordered),
            counted=sum(q.counted for q in ordered),
            total=sum(len(q.deals) for q in ordered),
        )
    return sheets


# ---------------------------------------------------------------------------------------------
# The bracket


@dataclass
class BracketLine:
    """A match of the bracket with its sheet (None: a bye or a team still unknown)."""

    match: CupMatch
    sheet: MatchSheet | None

    @property
    def decided(self) -> str:
        return decided_text(self.match)


@dataclass
class BracketRound:
    number: int
    name: str
    matches: list[BracketLine]


def bracket_rounds(cup: Cup, *, directs: bool) -> list[BracketRound]:
    """The bracket round by round; each match with its sheet as the viewer may see it."""
    matches = list(
        CupMatch.objects.filter(cup=cup)
        .select_related("cup", "team_a", "team_b", "winner")
        .order_by("round", "slot")
    )
    played = [m for m in matches if m.team_a_id and m.team_b_id and not m.bye]
    sheets = match_sheets(played, cup, directs=directs)
    count = max((match.round for match in matches), default=0)
    rounds: dict[int, list[BracketLine]] = {}
    for match in matches:
        rounds.setdefault(match.round, []).append(BracketLine(match, sheets.get(match.pk)))
    return [
        BracketRound(number, round_name(number, count), rounds[number]) for number in sorted(rounds)
    ]


# ---------------------------------------------------------------------------------------------
# The organiser's match screen


@dataclass
class RoomProgress:
    quarter: int
    open: int
    closed: int
    total: int


@dataclass
class MatchControl:
    """What the director's match screen shows: line-ups, rooms, the full sheet, progress."""

    match: CupMatch
    lineups: dict[int, QuarterLineup]
    players: QuerySet[Player]
    rooms: list[MatchRoom]
    sheet: MatchSheet
    progress: list[RoomProgress]


def match_control(match: CupMatch) -> MatchControl:
    sheet = match_sheet(match, directs=True)
    return MatchControl(
        match=match,
        lineups={lu.quarter: lu for lu in QuarterLineup.objects.filter(match=match)},
        players=match_players(match),
        rooms=list(MatchRoom.objects.filter(match=match)),
        sheet=sheet,
        progress=[
            RoomProgress(
                quarter=q.number,
                open=sum(1 for d in q.deals if d.open),
                closed=sum(1 for d in q.deals if d.closed),
                total=len(q.deals),
            )
            for q in sheet.quarters
        ],
    )


# ---------------------------------------------------------------------------------------------
# The room phone


@dataclass
class RoomPage:
    """A room as its phone sees it: the quarter being played, its deals, the results the
    room may read (``teammatch.publication.room_may_read``: its own) and whether it may
    write."""

    room: MatchRoom
    match: CupMatch
    lineup: QuarterLineup | None
    deals: list[MatchDeal]
    results: dict[int, RoomResult]  # by deal number

    @property
    def cup(self) -> Cup:
        return self.match.cup

    @property
    def quarter(self) -> int:
        return self.match.quarter

    @property
    def playing(self) -> bool:
        return self.match.status == CupMatch.Status.PLAYING

    @property
    def closed(self) -> bool:
        """The quarter being played is closed (the last one, until the match is finished)."""
        return bool(self.lineup and self.lineup.closed)

    @property
    def writable(self) -> bool:
        """The phone may enter and correct the quarter's deals."""
        return self.playing and self.lineup is not None and not self.lineup.closed

    @property
    def taker(self) -> Player | None:
        return self.lineup.taker(self.room.room) if self.lineup else None

    @property
    def defenders(self) -> list[Player]:
        return self.lineup.defenders(self.room.room) if self.lineup else []

    @property
    def taker_team(self) -> CupTeam | None:
        return self.match.team_a if self.room.room == RoomName.OPEN else self.match.team_b

    @property
    def defence_team(self) -> CupTeam | None:
        return self.match.team_b if self.room.room == RoomName.OPEN else self.match.team_a

    @property
    def entered(self) -> int:
        return len(self.results)

    def may_correct(self, number: int) -> bool:
        """Whether the phone may correct its stored result of deal ``number``: its own entry
        (not the director's) of the quarter being played, while that quarter is open."""
        result = self.results.get(number)
        return self.writable and result is not None and not result.entered_by_director


def room_page(room: MatchRoom) -> RoomPage:
    """The room's page as of now (the match read again: a write may have moved it on)."""
    match = CupMatch.objects.select_related("cup__club", "team_a", "team_b").get(pk=room.match_id)
    room.match = match
    deals = list(MatchDeal.objects.filter(match=match, quarter=match.quarter).order_by("number"))
    results = {
        result.deal.number: result
        for result in RoomResult.objects.filter(deal__in=deals, room=room.room).select_related(
            "deal"
        )
        if room_may_read(room, result)
    }
    return RoomPage(
        room=room, match=match, lineup=current_lineup(match), deals=deals, results=results
    )


def stored_outcome(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The outcome as a room result stores it (JSON), from the scored fields."""
    points_half = fields["points_half"]
    return {
        "taker_seat": fields["taker_seat"],
        "contract": fields["contract"],
        "oudlers": fields["oudlers"],
        "points": points_half // 2 if points_half % 2 == 0 else points_half / 2,
        "petit_au_bout": fields["petit_au_bout"] or None,
        "poignees": list(fields["poignees"]),
        "chelem": {
            "announced": fields["chelem_announced"],
            "made_by": fields["chelem_made_by"] or None,
        },
    }


def room_result_fields(deal: MatchDeal, outcome: Mapping[str, Any]) -> dict[str, Any]:
    """The row values of ``outcome`` for ``deal``, validated and scored (nothing written): what
    the services store and what an archive's result must equal."""
    scored = outcome_score(deal=rules_deal_of(deal), outcome=outcome)
    fields = scored.fields
    return {
        "outcome": stored_outcome(fields),
        "contract": fields["contract"],
        "oudlers": fields["oudlers"],
        "points_half": fields["points_half"],
        "won": fields["won"],
        "value": fields["value"],
        "taker_mark": scored.marks[scored.taker_seat],
    }

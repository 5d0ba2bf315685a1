"""Archive and restore a team-match cup (``duplitarot-cup-archive``, ``docs/archive-format.md``).

A cup archive holds the cup's settings, its players (each once, by natural reference; the
rest of the document names them by their number in that list), its teams by seed with their
rosters, and every match of the bracket with its deals and cards, rooms, line-ups per
quarter, room results and their whole history; then the figures the server showed (every
match's sheet: net and points de match per deal, quarter and match).

A restore (:func:`archives.kinds.restore_document`) checks
the whole document first (values, references, every room result's
value and mark recomputed by the rules), then in one transaction creates the cup in the club
given, and verifies: the match sheets recomputed from the restored results equal the archived
ones, and replaying the finished matches on a fresh bracket gives the stored bracket (teams,
winners, byes, points de match, net, how each match was decided). Room codes are renewed
unless asked to keep them, as table codes are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archives.format import (
    BIG,
    POSITIVE,
    SMALL,
    TEXT,
    ArchiveError,
    appears_twice,
    as_bool,
    as_choice,
    as_date,
    as_int,
    as_list,
    as_moment,
    as_name,
    as_object,
    as_text,
    check_envelope,
    filename,
    iso,
    refuse,
)
from archives.players import PlayerMatcher, check_players, player_ref
from clubs.errors import DomainError
from clubs.models import Club, EnteredVia, Player
from clubs.phone_codes import new_phone_code
from rules.errors import RuleError
from scoring.core.team_match import QUARTERS, MatchResult, bracket, record_result, score_match
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
from teammatch.selectors import (
    match_sheets,
    pure_match,
    room_result_fields,
    tie_break_of,
)
from tournaments.models import Seat

SCHEMA = "duplitarot-cup-archive"
VERSION = 1

CUP_KEYS = (
    "name", "club", "date", "status", "public", "deals_per_quarter", "pm_scale", "tie_break",
    "tie_break_seed", "deal_seed",
)  # fmt: skip
MATCH_KEYS = (
    "round", "slot", "team_a", "team_b", "bye", "winner", "decided_by", "pm_a", "net_a",
    "status", "quarter", "deals", "rooms", "lineups", "results", "history",
)  # fmt: skip
DEAL_KEYS = ("number", "quarter", "dealer_seat", "taker_seat", "cards")
RESULT_KEYS = (
    "deal", "room", "outcome", "contract", "oudlers", "points_half", "won", "value",
    "taker_mark", "entered_by", "director", "updated",
)  # fmt: skip
HISTORY_KEYS = ("deal", "room", "action", "by", "at", "reason", "before", "after")
SEATS = QuarterLineup.SEAT_FIELDS
ROOMS = (RoomName.OPEN.value, RoomName.CLOSED.value)
SEAT_CHOICES = [seat.value for seat in Seat]


# =============================================================================== export


def _sheets(cup: Cup) -> list[dict[str, Any]]:
    """Every match's sheet as the organisers see it (every entered result), by (round, slot)."""
    matches = list(CupMatch.objects.filter(cup=cup).order_by("round", "slot"))
    sheets = match_sheets(matches, cup, directs=True)
    out = []
    for match in matches:
        sheet = sheets[match.pk]
        out.append(
            {
                "round": match.round,
                "slot": match.slot,
                "net_a": sheet.net_a,
                "pm_a": sheet.pm_a,
                "counted": sheet.counted,
                "total": sheet.total,
                "quarters": [
                    {
                        "quarter": quarter.number,
                        "net_a": quarter.net_a,
                        "pm_a": quarter.pm_a,
                        "counted": quarter.counted,
                        "deals": [
                            [line.deal.number, line.net_a, line.pm_a] for line in quarter.deals
                        ],
                    }
                    for quarter in sheet.quarters
                ],
            }
        )
    return out


def _bracket_rows(cup: Cup, seed_of: Mapping[int, int]) -> list[dict[str, Any]]:
    """The stored bracket: each match's teams, winner and decision, by (round, slot)."""

    def seed(team_id: int | None) -> int | None:
        return None if team_id is None else seed_of[team_id]

    return [
        {
            "round": match.round,
            "slot": match.slot,
            "team_a": seed(match.team_a_id),
            "team_b": seed(match.team_b_id),
            "bye": match.bye,
            "winner": seed(match.winner_id),
            "decided_by": match.decided_by,
            "pm_a": match.pm_a,
            "net_a": match.net_a,
        }
        for match in CupMatch.objects.filter(cup=cup).order_by("round", "slot")
    ]


def archive_cup(cup: Cup) -> dict[str, Any]:
    """The archive document of ``cup``."""
    with transaction.atomic():
        cup = Cup.objects.select_related("club").get(pk=cup.pk)
        teams = list(CupTeam.objects.filter(cup=cup).order_by("seed"))
        seed_of = {team.pk: team.seed for team in teams}
        members = list(
            CupTeamPlayer.objects.filter(cup=cup)
            .select_related("player__club")
            .order_by("team__seed", "player__name_sort_key", "player__pk")
        )
        matches = list(CupMatch.objects.filter(cup=cup).order_by("round", "slot"))
        lineups = list(
            QuarterLineup.objects.filter(match__cup=cup)
            .select_related(*SEATS)
            .order_by("match__round", "match__slot", "quarter")
        )
        # Every player once: roster players by team and name, then anybody else seated.
        players: list[Player] = [member.player for member in members]
        number_of = {player.pk: index for index, player in enumerate(players, start=1)}
        for lineup in lineups:
            for name in SEATS:
                player = getattr(lineup, name)
                if player.pk not in number_of:
                    players.append(player)
                    number_of[player.pk] = len(players)
        roster: dict[int, list[int]] = {}
        for member in members:
            roster.setdefault(member.team_id, []).append(number_of[member.player_id])
        deals: dict[int, list[MatchDeal]] = {}
        for deal in MatchDeal.objects.filter(match__cup=cup).order_by("number"):
            deals.setdefault(deal.match_id, []).append(deal)
        rooms: dict[int, list[MatchRoom]] = {}
        for room in MatchRoom.objects.filter(match__cup=cup).order_by("-room"):
            rooms.setdefault(room.match_id, []).append(room)
        lineups_of: dict[int, list[QuarterLineup]] = {}
        for lineup in lineups:
            lineups_of.setdefault(lineup.match_id, []).append(lineup)
        results: dict[int, list[RoomResult]] = {}
        for result in (
            RoomResult.objects.filter(match__cup=cup)
            .select_related("deal")
            .order_by("deal__number", "-room")
        ):
            results.setdefault(result.match_id, []).append(result)
        history: dict[int, list[RoomResultChange]] = {}
        for change in (
            RoomResultChange.objects.filter(result__match__cup=cup)
            .select_related("result__deal", "actor")
            .order_by("at", "pk")
        ):
            history.setdefault(change.result.match_id, []).append(change)

        def seed(team_id: int | None) -> int | None:
            return None if team_id is None else seed_of[team_id]

        document = {
            "schema": SCHEMA,
            "version": VERSION,
            "exported_at": iso(timezone.now()),
            "cup": {
                "name": cup.name,
                "club": {"name": cup.club.name, "city": cup.club.city},
                "date": cup.date.isoformat(),
                "status": cup.status,
                "public": cup.public,
                "deals_per_quarter": cup.deals_per_quarter,
                "pm_scale": list(cup.pm_scale),
                "tie_break": cup.tie_break,
                "tie_break_seed": cup.tie_break_seed,
                "deal_seed": cup.deal_seed,
            },
            "players": [player_ref(player, cup.club_id) for player in players],
            "teams": [
                {"seed": team.seed, "name": team.name, "players": roster.get(team.pk, [])}
                for team in teams
            ],
            "matches": [
                {
                    "round": match.round,
                    "slot": match.slot,
                    "team_a": seed(match.team_a_id),
                    "team_b": seed(match.team_b_id),
                    "bye": match.bye,
                    "winner": seed(match.winner_id),
                    "decided_by": match.decided_by,
                    "pm_a": match.pm_a,
                    "net_a": match.net_a,
                    "status": match.status,
                    "quarter": match.quarter,
                    "deals": [
                        {key: getattr(deal, key) for key in DEAL_KEYS}
                        for deal in deals.get(match.pk, [])
                    ],
                    "rooms": [
                        {"room": room.room, "code": room.code} for room in rooms.get(match.pk, [])
                    ],
                    "lineups": [
                        {
                            "quarter": lineup.quarter,
                            "closed": lineup.closed,
                            "seats": {
                                name: number_of[getattr(lineup, f"{name}_id")] for name in SEATS
                            },
                        }
                        for lineup in lineups_of.get(match.pk, [])
                    ],
                    "results": [
                        {
                            "deal": result.deal.number,
                            "room": result.room,
                            "outcome": result.outcome,
                            "contract": result.contract,
                            "oudlers": result.oudlers,
                            "points_half": result.points_half,
                            "won": result.won,
                            "value": result.value,
                            "taker_mark": result.taker_mark,
                            "entered_by": result.entered_by_label,
                            "director": result.entered_by_director,
                            "updated": iso(result.updated),
                        }
                        for result in results.get(match.pk, [])
                    ],
                    "history": [
                        {
                            "deal": change.result.deal.number,
                            "room": change.result.room,
                            "action": change.action,
                            "by": change.actor_label
                            or ("" if change.actor is None else change.actor.get_username()),
                            "at": iso(change.at),
                            "reason": change.reason,
                            "before": change.before,
                            "after": change.after,
                        }
                        for change in history.get(match.pk, [])
                    ],
                }
                for match in matches
            ],
            "sheets": _sheets(cup),
        }
    return document


def cup_filename(cup: Cup) -> str:
    return filename(cup.date, cup.name, "cup")


# ============================================================================== checking


@dataclass
class _Match:
    values: dict[str, Any]
    deals: dict[int, dict[str, Any]] = field(default_factory=dict)
    results: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)


@dataclass
class CheckedCup:
    cup: dict[str, Any]
    players: list[dict[str, Any]]
    teams: dict[int, dict[str, Any]]
    matches: dict[tuple[int, int], _Match]
    sheets: list[Any]


def _check_result(raw: Any, path: str, match: _Match) -> dict[str, Any]:
    result = as_object(raw, path, RESULT_KEYS)
    deal = match.deals.get(as_int(result["deal"], f"{path}.deal", 1, SMALL))
    if deal is None:
        raise refuse(_("no deal has this number"), f"{path}.deal")
    as_choice(result["room"], f"{path}.room", ROOMS)
    if not isinstance(result["outcome"], dict):
        raise refuse(_("an object is expected"), f"{path}.outcome")
    as_text(result["contract"], f"{path}.contract", 20)
    as_int(result["oudlers"], f"{path}.oudlers", 0, 3)
    as_int(result["points_half"], f"{path}.points_half", 0, 182)
    as_bool(result["won"], f"{path}.won")
    as_int(result["value"], f"{path}.value", -POSITIVE - 1, POSITIVE)
    as_int(result["taker_mark"], f"{path}.taker_mark", -POSITIVE - 1, POSITIVE)
    as_text(result["entered_by"], f"{path}.entered_by", 120)
    as_bool(result["director"], f"{path}.director")
    result["updated"] = as_moment(result["updated"], f"{path}.updated")
    stub = MatchDeal(number=deal["number"], quarter=deal["quarter"],
                     dealer_seat=deal["dealer_seat"], taker_seat=deal["taker_seat"],
                     cards=deal["cards"])  # fmt: skip
    try:
        fields = room_result_fields(stub, result["outcome"])
    except DomainError as error:
        raise refuse(error.describe(), f"{path}.outcome") from None
    outcome = fields.pop("outcome")
    expected = fields
    stored = {key: result[key] for key in expected}
    if stored != expected or result["outcome"] != outcome:
        raise refuse(_("the value or the marks are not those of the outcome"), path)
    return result


def _check_match(raw: Any, path: str, checked: CheckedCup, dpq: int) -> _Match:
    values = as_object(raw, path, MATCH_KEYS)
    as_int(values["round"], f"{path}.round", 1, 16)
    as_int(values["slot"], f"{path}.slot", 0, SMALL)
    for side in ("team_a", "team_b", "winner"):
        number = as_int(values[side], f"{path}.{side}", 1, SMALL, null=True)
        if number is not None and number not in checked.teams:
            raise refuse(_("no team has this seed"), f"{path}.{side}")
    if values["winner"] is not None and values["winner"] not in (
        values["team_a"],
        values["team_b"],
    ):
        raise refuse(_("the winner is not one of the match's teams"), f"{path}.winner")
    if values["team_a"] is not None and values["team_a"] == values["team_b"]:
        raise refuse(_("a team cannot play itself"), f"{path}.team_b")
    as_bool(values["bye"], f"{path}.bye")
    as_text(values["decided_by"], f"{path}.decided_by", 20)
    as_int(values["pm_a"], f"{path}.pm_a", -POSITIVE - 1, POSITIVE, null=True)
    as_int(values["net_a"], f"{path}.net_a", -POSITIVE - 1, POSITIVE, null=True)
    as_choice(values["status"], f"{path}.status", CupMatch.Status.values)
    as_int(values["quarter"], f"{path}.quarter", 1, QUARTERS)
    match = _Match(values)

    for index, raw_deal in enumerate(as_list(values["deals"], f"{path}.deals")):
        where = f"{path}.deals[{index}]"
        deal = as_object(raw_deal, where, DEAL_KEYS)
        number = as_int(deal["number"], f"{where}.number", 1, QUARTERS * dpq)
        if number in match.deals:
            raise appears_twice(number, f"{where}.number")
        if as_int(deal["quarter"], f"{where}.quarter", 1, QUARTERS) != (number - 1) // dpq + 1:
            raise refuse(_("this deal is not of this quarter"), f"{where}.quarter")
        as_choice(deal["dealer_seat"], f"{where}.dealer_seat", SEAT_CHOICES)
        as_choice(deal["taker_seat"], f"{where}.taker_seat", SEAT_CHOICES)
        as_text(deal["cards"], f"{where}.cards", TEXT)
        match.deals[number] = deal

    rooms: set[str] = set()
    for index, raw_room in enumerate(as_list(values["rooms"], f"{path}.rooms")):
        where = f"{path}.rooms[{index}]"
        room = as_object(raw_room, where, ("room", "code"))
        name = as_choice(room["room"], f"{where}.room", ROOMS)
        if name in rooms:
            raise appears_twice(name, f"{where}.room")
        rooms.add(name)
        as_name(room["code"], f"{where}.code", 32, _("a room code is expected"))

    quarters: set[int] = set()
    for index, raw_lineup in enumerate(as_list(values["lineups"], f"{path}.lineups")):
        where = f"{path}.lineups[{index}]"
        lineup = as_object(raw_lineup, where, ("quarter", "closed", "seats"))
        quarter = as_int(lineup["quarter"], f"{where}.quarter", 1, QUARTERS)
        if quarter in quarters:
            raise appears_twice(quarter, f"{where}.quarter")
        quarters.add(quarter)
        as_bool(lineup["closed"], f"{where}.closed")
        seats = as_object(lineup["seats"], f"{where}.seats", SEATS)
        for name in SEATS:
            as_int(seats[name], f"{where}.seats.{name}", 1, len(checked.players))
        if len(set(seats.values())) != len(SEATS):
            raise refuse(_("a player sits twice in this line-up"), f"{where}.seats")
        if values["team_a"] is None or values["team_b"] is None:
            raise refuse(_("a match without its two teams has no line-up"), where)

    for index, raw_result in enumerate(as_list(values["results"], f"{path}.results")):
        where = f"{path}.results[{index}]"
        result = _check_result(raw_result, where, match)
        key = (result["deal"], result["room"])
        if key in match.results:
            raise refuse(_("a second result for this deal and room"), where)
        if (result["room"]) not in rooms:
            raise refuse(_("the match has no such room"), f"{where}.room")
        match.results[key] = result

    for index, raw_change in enumerate(as_list(values["history"], f"{path}.history")):
        where = f"{path}.history[{index}]"
        change = as_object(raw_change, where, HISTORY_KEYS)
        key = (as_int(change["deal"], f"{where}.deal", 1, SMALL),
               as_choice(change["room"], f"{where}.room", ROOMS))  # fmt: skip
        if key not in match.results:
            raise refuse(_("no result for this deal and room"), where)
        as_choice(change["action"], f"{where}.action", RoomResultChange.Action.values)
        as_text(change["by"], f"{where}.by", 120)
        change["at"] = as_moment(change["at"], f"{where}.at")
        as_text(change["reason"], f"{where}.reason", TEXT)
        for side in ("before", "after"):
            if change[side] is not None and not isinstance(change[side], dict):
                raise refuse(_("an object or null is expected"), f"{where}.{side}")
    return match


def check_cup(document: Any, at: str = "") -> CheckedCup:
    """Check a parsed cup archive entirely; nothing is written."""
    top = check_envelope(
        document,
        schema=SCHEMA,
        version=VERSION,
        keys=("cup", "players", "teams", "matches", "sheets"),
        not_this_kind=_("This file is not a duplitarot cup archive."),
        path=at,
    )
    cup = as_object(top["cup"], "cup", CUP_KEYS)
    as_name(cup["name"], "cup.name", 200, _("the cup needs a name"))
    club = as_object(cup["club"], "cup.club", ("name", "city"))
    as_text(club["name"], "cup.club.name", 120)
    as_text(club["city"], "cup.club.city", 120)
    cup["date"] = as_date(cup["date"], "cup.date")
    as_choice(cup["status"], "cup.status", Cup.Status.values)
    as_bool(cup["public"], "cup.public")
    dpq = as_int(cup["deals_per_quarter"], "cup.deals_per_quarter", 1, 12)
    scale = as_list(cup["pm_scale"], "cup.pm_scale")
    if len(scale) > 100:
        raise refuse(_("at most 100 thresholds are expected"), "cup.pm_scale")
    for index, threshold in enumerate(scale):
        as_int(threshold, f"cup.pm_scale[{index}]", 0, POSITIVE)
    as_choice(cup["tie_break"], "cup.tie_break", Cup.TieBreakOrder.values)
    as_int(cup["tie_break_seed"], "cup.tie_break_seed", -BIG - 1, BIG)
    as_int(cup["deal_seed"], "cup.deal_seed", -BIG - 1, BIG)
    players = check_players(top["players"], "players")
    checked = CheckedCup(cup, players, {}, {}, [])

    names: set[str] = set()
    placed: set[int] = set()
    for index, raw_team in enumerate(as_list(top["teams"], "teams")):
        where = f"teams[{index}]"
        team = as_object(raw_team, where, ("seed", "name", "players"))
        seed = as_int(team["seed"], f"{where}.seed", 1, SMALL)
        if seed in checked.teams:
            raise appears_twice(seed, f"{where}.seed")
        name = as_name(team["name"], f"{where}.name", 80, _("the team needs a name"))
        if name in names:
            raise appears_twice(name, f"{where}.name")
        names.add(name)
        for spot, number in enumerate(as_list(team["players"], f"{where}.players")):
            as_int(number, f"{where}.players[{spot}]", 1, len(players))
            if number in placed:
                raise refuse(_("a player is in one team of a cup"), f"{where}.players[{spot}]")
            placed.add(number)
        checked.teams[seed] = team

    for index, raw_match in enumerate(as_list(top["matches"], "matches")):
        where = f"matches[{index}]"
        match = _check_match(raw_match, where, checked, dpq)
        key = (match.values["round"], match.values["slot"])
        if key in checked.matches:
            raise refuse(_("a second match at this round and slot"), where)
        checked.matches[key] = match
    checked.sheets = as_list(top["sheets"], "sheets")
    return checked


# =============================================================================== restore


@dataclass
class CupRestoreReport:
    cup: Cup
    matches: int = 0
    results: int = 0
    players_matched: int = 0
    players_created: int = 0
    codes_kept: bool = False
    verified: bool | None = None
    differences: list[str] = field(default_factory=list)


def _replayed_bracket(cup: Cup, seed_of: Mapping[int, int]) -> list[dict[str, Any]]:
    """The bracket recomputed from scratch: the seeded bracket, then every finished match
    (not a bye) scored again from its results and recorded, round by round."""
    teams = list(CupTeam.objects.filter(cup=cup).order_by("seed"))
    name_seed = {team.name: team.seed for team in teams}
    current = bracket([team.name for team in teams], tie_break_of(cup))
    scored: dict[tuple[int, int], MatchResult] = {}
    matches = CupMatch.objects.filter(cup=cup).select_related("team_a", "team_b")
    for match in matches.order_by("round", "slot"):
        if match.bye or match.status != CupMatch.Status.FINISHED:
            continue
        result = score_match(pure_match(match), cup.pm_scale, tie_break_of(cup))
        current = record_result(current, match.round, match.slot, result)
        scored[(match.round, match.slot)] = result

    def seed(name: str | None) -> int | None:
        return None if name is None else name_seed[name]

    rows = []
    for pure_round in current.rounds:
        for pure in pure_round:
            decided = scored.get((pure.round, pure.slot))
            rows.append(
                {
                    "round": pure.round,
                    "slot": pure.slot,
                    "team_a": seed(pure.team_a),
                    "team_b": seed(pure.team_b),
                    "bye": pure.bye,
                    "winner": seed(pure.winner),
                    "decided_by": "bye" if pure.bye else (decided.decided_by if decided else ""),
                    "pm_a": decided.pm_a if decided else None,
                    "net_a": decided.net_a if decided else None,
                }
            )
    return rows


def _differences(cup: Cup, seed_of: Mapping[int, int], sheets: Any) -> list[str]:
    """What differs between the restored cup and a recompute of it (empty: nothing)."""
    out = []
    if _sheets(cup) != sheets:
        out.append("sheets")
    if cup.status == Cup.Status.DRAFT:
        return out  # no bracket yet
    try:
        replayed = _replayed_bracket(cup, seed_of)
    except (DomainError, RuleError, KeyError):
        return [*out, "bracket"]
    if replayed != _bracket_rows(cup, seed_of):
        out.append("bracket")
    return out


def restore_checked_cup(
    checked: CheckedCup, *, club: Club, keep_codes: bool = False
) -> CupRestoreReport:
    """Store a checked cup archive into ``club`` (inside a transaction) and verify it."""
    values = checked.cup
    if keep_codes:
        codes = [
            room["code"] for match in checked.matches.values() for room in match.values["rooms"]
        ]
        if len(set(codes)) != len(codes) or MatchRoom.objects.filter(code__in=codes).exists():
            raise refuse(
                _("These room codes are already used on this server: restore with new codes.")
            )
    cup = Cup.objects.create(
        club=club,
        **{key: values[key] for key in CUP_KEYS if key != "club"},
    )
    report = CupRestoreReport(cup=cup, codes_kept=keep_codes)
    matcher = PlayerMatcher(club)
    matcher.begin(checked.players)
    players = [matcher.resolve(data) for data in checked.players]
    report.players_matched, report.players_created = matcher.matched, matcher.created
    teams: dict[int, CupTeam] = {}
    for seed, archived in sorted(checked.teams.items()):
        teams[seed] = CupTeam.objects.create(cup=cup, seed=seed, name=archived["name"])
        CupTeamPlayer.objects.bulk_create(
            CupTeamPlayer(cup=cup, team=teams[seed], player=players[number - 1])
            for number in archived["players"]
        )

    def team(seed: int | None) -> CupTeam | None:
        return None if seed is None else teams[seed]

    for (_round, _slot), checked_match in sorted(checked.matches.items()):
        data = checked_match.values
        match = CupMatch.objects.create(
            cup=cup,
            round=data["round"],
            slot=data["slot"],
            team_a=team(data["team_a"]),
            team_b=team(data["team_b"]),
            bye=data["bye"],
            winner=team(data["winner"]),
            decided_by=data["decided_by"],
            pm_a=data["pm_a"],
            net_a=data["net_a"],
            status=data["status"],
            quarter=data["quarter"],
        )
        report.matches += 1
        deals = {
            deal.number: deal
            for deal in MatchDeal.objects.bulk_create(
                MatchDeal(match=match, **{key: deal[key] for key in DEAL_KEYS})
                for deal in data["deals"]
            )
        }
        MatchRoom.objects.bulk_create(
            MatchRoom(
                match=match,
                room=room["room"],
                code=room["code"] if keep_codes else new_phone_code(),
            )
            for room in data["rooms"]
        )
        QuarterLineup.objects.bulk_create(
            QuarterLineup(
                match=match,
                quarter=lineup["quarter"],
                closed=lineup["closed"],
                **{f"{name}_id": players[lineup["seats"][name] - 1].pk for name in SEATS},
            )
            for lineup in data["lineups"]
        )
        rows = RoomResult.objects.bulk_create(
            RoomResult(
                match=match,
                deal=deals[result["deal"]],
                room=result["room"],
                **{key: result[key] for key in RESULT_KEYS[2:9]},
                # Who wrote it, without the account (an archive names no account).
                entered_by_label=result["entered_by"],
                entered_via=EnteredVia.ORGANISER if result["director"] else EnteredVia.TABLE,
            )
            for result in data["results"]
        )
        for row, result in zip(rows, data["results"], strict=True):
            row.updated = result["updated"]
        RoomResult.objects.bulk_update(rows, ["updated"])
        report.results += len(rows)
        by_place = {(row.deal.number, row.room): row for row in rows}
        changes = RoomResultChange.objects.bulk_create(
            RoomResultChange(
                result=by_place[(change["deal"], change["room"])],
                action=change["action"],
                actor_label=change["by"],
                reason=change["reason"],
                before=change["before"],
                after=change["after"],
            )
            for change in data["history"]
        )
        for change_row, change in zip(changes, data["history"], strict=True):
            change_row.at = change["at"]
        RoomResultChange.objects.bulk_update(changes, ["at"])
    seed_of = {t.pk: seed for seed, t in teams.items()}
    report.differences = _differences(cup, seed_of, checked.sheets)
    report.verified = not report.differences
    return report


__all__ = ["SCHEMA", "VERSION", "ArchiveError", "archive_cup", "check_cup"]

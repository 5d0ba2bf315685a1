"""Every change to a cup: validation (translated errors), transactions, row locks.

The line-up checks, the scoring and the bracket are the pure ``scoring.core.team_match``; the
outcome of a deal is validated and scored by ``tournaments.services.outcome_score`` (the table
phone's validation, hand checks on the prepared cards included). A refusal raises
:class:`~tournaments.errors.DomainError` (a ``RuleError`` becomes one with its code) and
changes nothing stored.

Writes to a match (line-up, room results, closing a quarter, finishing) lock the match row
(``select_for_update``): the two room phones and the director may write at the same time.

- A cup in *draft* takes teams (rosters checked by ``check_rosters``: 4 to 6 players, nobody
  twice, a player in one team of the cup). :func:`start_cup` builds the seeded bracket
  (``bracket``): byes go through, and every match whose two teams are known gets its deals
  (generated from the cup's deal seed, the same étuis in both rooms) and its two rooms.
- A match is played quarter by quarter (``CupMatch.quarter``): the director sets the quarter's
  line-up (``check_lineup``; it can change until the quarter's first result), the room phones
  enter that quarter's deals and may correct them until the quarter is closed; the director
  corrects any result of an unfinished match with a reason. :func:`close_quarter` needs every
  deal of the quarter in both rooms and opens the next one.
- :func:`finish_match` scores the whole match (``score_match`` with the cup's scale and
  tie-break), records it in the bracket (``record_result``) and prepares the next round's match
  once its two teams are known. :func:`finish_cup` once every match is finished.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club, Player
from clubs.services import competition_require, competition_status_change
from rules import deal as rules_deal
from rules.duplicate import DUPLICATE_RULESET, DUPLICATE_SEATS
from rules.errors import RuleError
from rules.scoring import Outcome, outcome_from_dict
from scoring.core.assemble import pm_from_net
from scoring.core.model import ScoringInputError, ScoringOptions
from scoring.core.team_match import (
    QUARTERS,
    Bracket,
    BracketMatch,
    DealResult,
    Lineup,
    MatchResult,
    QuarterPlay,
    Room,
    TeamMatch,
    TeamRoster,
    TieBreak,
    TieBreakRule,
    bracket,
    check_lineup,
    check_rosters,
    deal_net_a,
    record_result,
    score_match,
)
from teammatch.models import (
    MAX_DEALS_PER_QUARTER,
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
from tournaments.models import Deal
from tournaments.services import outcome_score
from tournaments.services.deals import random_seed

ROOMS = (RoomName.OPEN.value, RoomName.CLOSED.value)


def _rule(error: RuleError, field: str | None = None) -> DomainError:
    return DomainError.from_rule(error, field=field)


# ---------------------------------------------------------------------------------------------
# Cup and teams


def tie_break_of(cup: Cup) -> TieBreak:
    order = tuple(TieBreakRule(rule) for rule in cup.tie_break.split(","))
    return TieBreak(order=order, seed=cup.tie_break_seed)


def check_scale(scale: Sequence[Any]) -> tuple[int, ...]:
    """``scale`` as the points-de-match thresholds, or a translated refusal."""
    try:
        return ScoringOptions(pm_scale=tuple(scale)).pm_scale
    except (ScoringInputError, TypeError):
        raise DomainError(
            "pm_scale",
            _("The scale lists positive whole thresholds in increasing order."),
            field="pm_scale",
        ) from None


def create_cup(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    public: bool = False,
    deals_per_quarter: int = 6,
    pm_scale: Sequence[int] | None = None,
    tie_break: str = Cup.TieBreakOrder.NET_FIRST,
    tie_break_seed: int | None = None,
    deal_seed: int | None = None,
) -> Cup:
    name = (name or "").strip()
    if not name:
        raise DomainError("name_required", _("Give the cup a name."), field="name")
    if not 1 <= deals_per_quarter <= MAX_DEALS_PER_QUARTER:
        raise DomainError(
            "deals_per_quarter",
            _("A quarter has 1 to %(max)s deals.") % {"max": MAX_DEALS_PER_QUARTER},
            field="deals_per_quarter",
        )
    if tie_break not in Cup.TieBreakOrder.values:
        raise DomainError("tie_break", _("Unknown tie-break."), field="tie_break")
    scale = check_scale(pm_scale) if pm_scale is not None else None
    cup = Cup(
        club=club,
        name=name,
        date=date,
        public=public,
        deals_per_quarter=deals_per_quarter,
        tie_break=tie_break,
        tie_break_seed=random_seed() if tie_break_seed is None else tie_break_seed,
        deal_seed=random_seed() if deal_seed is None else deal_seed,
    )
    if scale is not None:
        cup.pm_scale = list(scale)
    cup.save()
    return cup


def _locked_cup(cup: Cup) -> Cup:
    return Cup.objects.select_for_update().get(pk=cup.pk)


def _require_draft(cup: Cup) -> None:
    if cup.status != Cup.Status.DRAFT:
        raise DomainError("cup_started", _("The cup has started: its teams can no longer change."))


def _sentinel(roster: TeamRoster) -> TeamRoster:
    """A valid roster sharing nobody with ``roster`` (to check a lone team's roster)."""
    players = tuple(f"\0{index}" for index in range(4))
    return TeamRoster(id=f"\0{roster.id}", players=players)


def _labels(players: Sequence[Player]) -> dict[int, str]:
    """A distinct label per player (his name; his licence or id when two share a name)."""
    distinct = list({player.pk: player for player in players}.values())
    names = [str(player) for player in distinct]
    labels = {}
    for player, name in zip(distinct, names, strict=True):
        if names.count(name) > 1:
            name = f"{name} ({player.licence or player.pk})"
        labels[player.pk] = name
    return labels


def _check_team(cup: Cup, name: str, players: Sequence[Player], team: CupTeam | None) -> str:
    name = (name or "").strip()
    if not name:
        raise DomainError("name_required", _("Give the team a name."), field="name")
    others = CupTeam.objects.filter(cup=cup).prefetch_related("members__player")
    if team is not None:
        others = others.exclude(pk=team.pk)
    if any(other.name == name for other in others):
        raise DomainError(
            "team_name_taken",
            _("The cup already has a team named %(name)s.") % {"name": name},
            field="name",
        )
    everybody = list(players) + [m.player for other in others for m in other.members.all()]
    labels = _labels(everybody)
    roster = TeamRoster(id=name, players=tuple(labels[p.pk] for p in players))
    rosters = [
        TeamRoster(id=other.name, players=tuple(labels[m.player.pk] for m in other.members.all()))
        for other in others
    ]
    try:
        for other in rosters or [_sentinel(roster)]:
            check_rosters(roster, other)
    except RuleError as error:
        raise _rule(error, field="players") from error
    return name


def add_team(*, cup: Cup, name: str, players: Sequence[Player]) -> CupTeam:
    """Add a team (seeded after the others) with its roster of 4 to 6 players."""
    with transaction.atomic():
        cup = _locked_cup(cup)
        _require_draft(cup)
        name = _check_team(cup, name, players, None)
        last = CupTeam.objects.filter(cup=cup).order_by("-seed").first()
        team = CupTeam.objects.create(cup=cup, name=name, seed=(last.seed + 1) if last else 1)
        CupTeamPlayer.objects.bulk_create(
            CupTeamPlayer(cup=cup, team=team, player=player) for player in players
        )
    return team


def update_team(*, team: CupTeam, name: str, players: Sequence[Player]) -> CupTeam:
    """Rename a team and replace its roster (draft cups only)."""
    with transaction.atomic():
        cup = _locked_cup(team.cup)
        _require_draft(cup)
        team.name = _check_team(cup, name, players, team)
        team.save(update_fields=["name"])
        CupTeamPlayer.objects.filter(team=team).delete()
        CupTeamPlayer.objects.bulk_create(
            CupTeamPlayer(cup=cup, team=team, player=player) for player in players
        )
    return team


def roster_of(team: CupTeam, labels: Mapping[int, str]) -> TeamRoster:
    return TeamRoster(id=team.name, players=tuple(labels[m.player_id] for m in team.members.all()))


# ---------------------------------------------------------------------------------------------
# The bracket


def _bracket_of(cup: Cup) -> Bracket:
    """The pure bracket of the cup's stored matches (team names as ids)."""
    teams = {team.pk: team.name for team in CupTeam.objects.filter(cup=cup)}
    seeds = tuple(t.name for t in CupTeam.objects.filter(cup=cup).order_by("seed"))
    rounds: dict[int, list[BracketMatch]] = {}
    for match in CupMatch.objects.filter(cup=cup).order_by("round", "slot"):
        rounds.setdefault(match.round, []).append(
            BracketMatch(
                round=match.round,
                slot=match.slot,
                team_a=teams.get(match.team_a_id) if match.team_a_id else None,
                team_b=teams.get(match.team_b_id) if match.team_b_id else None,
                winner=teams.get(match.winner_id) if match.winner_id else None,
                bye=match.bye,
            )
        )
    ordered = tuple(tuple(rounds[number]) for number in sorted(rounds))
    return Bracket(seeds=seeds, rounds=ordered, tie_break=tie_break_of(cup))


def _store_bracket(cup: Cup, current: Bracket) -> None:
    """Write the teams and winners of ``current`` on the stored matches; prepare the matches
    whose two teams became known."""
    teams = {team.name: team for team in CupTeam.objects.filter(cup=cup)}
    stored = {(m.round, m.slot): m for m in CupMatch.objects.filter(cup=cup)}
    for pure_round in current.rounds:
        for pure in pure_round:
            match = stored[(pure.round, pure.slot)]
            match.team_a = teams[pure.team_a] if pure.team_a else None
            match.team_b = teams[pure.team_b] if pure.team_b else None
            match.winner = teams[pure.winner] if pure.winner else None
            match.bye = pure.bye
            if pure.bye:
                match.status = CupMatch.Status.FINISHED
                match.decided_by = "bye"
            match.save()
            if match.status == CupMatch.Status.WAITING and match.team_a and match.team_b:
                _prepare_match(cup, match)


def _prepare_match(cup: Cup, match: CupMatch) -> None:
    """Deal the match's étuis (4 quarters × dpq, from the cup's seed) and open its rooms."""
    count = QUARTERS * cup.deals_per_quarter
    deals = rules_deal.generate_deals(4, count, seed=f"{cup.deal_seed}:{match.round}:{match.slot}")
    rows = []
    for number, deal in enumerate(deals, start=1):
        dealer = deal.dealer % 4
        rows.append(
            MatchDeal(
                match=match,
                number=number,
                quarter=(number - 1) // cup.deals_per_quarter + 1,
                dealer_seat=DUPLICATE_SEATS[dealer],
                taker_seat=DUPLICATE_SEATS[(dealer + 1) % 4],
                cards=rules_deal.deal_to_text(deal),
            )
        )
    MatchDeal.objects.bulk_create(rows)
    for room in ROOMS:
        MatchRoom.objects.create(match=match, room=room)
    match.status = CupMatch.Status.PLAYING
    match.quarter = 1
    match.save(update_fields=["status", "quarter"])


def start_cup(cup: Cup) -> Cup:
    """Seed the bracket (teams by seed), let the byes through and open the first matches."""
    with transaction.atomic():
        cup = _locked_cup(cup)
        _require_draft(cup)
        names = [team.name for team in CupTeam.objects.filter(cup=cup).order_by("seed")]
        try:
            pure = bracket(names, tie_break_of(cup))
        except RuleError as error:
            raise _rule(error) from error
        for pure_round in pure.rounds:
            for match in pure_round:
                CupMatch.objects.create(cup=cup, round=match.round, slot=match.slot)
        competition_status_change(competition=cup, to=Cup.Status.RUNNING)
        _store_bracket(cup, pure)
    return cup


def finish_cup(cup: Cup) -> Cup:
    with transaction.atomic():
        cup = _locked_cup(cup)
        competition_require(cup, Cup.Status.RUNNING)
        if CupMatch.objects.filter(cup=cup).exclude(status=CupMatch.Status.FINISHED).exists():
            raise DomainError(
                "matches_unfinished", _("Every match must be finished before the cup.")
            )
        competition_status_change(competition=cup, to=Cup.Status.FINISHED)
    return cup


# ---------------------------------------------------------------------------------------------
# Line-ups


def _locked_match(match: CupMatch) -> CupMatch:
    return (
        CupMatch.objects.select_for_update(of=("self",))
        .select_related("cup", "team_a", "team_b")
        .get(pk=match.pk)
    )


def _require_playing(match: CupMatch) -> None:
    if match.status != CupMatch.Status.PLAYING:
        raise DomainError("match_not_playing", _("This match is not in play."))


def match_labels(match: CupMatch) -> dict[int, str]:
    """A label per player of the two rosters (the names the line-up messages use)."""
    members = CupTeamPlayer.objects.filter(team__in=[match.team_a_id, match.team_b_id])
    return _labels([m.player for m in members.select_related("player")])


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


def set_lineup(
    *, match: CupMatch, quarter: int, seats: Mapping[str, Player | None]
) -> QuarterLineup:
    """Set the line-up of ``quarter`` (``seats``: a player per ``QuarterLineup.SEAT_FIELDS``).

    Refused for a quarter already played (closed, or the match's current quarter once it has a
    result) and for any line-up ``check_lineup`` refuses.
    """
    with transaction.atomic():
        match = _locked_match(match)
        _require_playing(match)
        if not isinstance(quarter, int) or not match.quarter <= quarter <= QUARTERS:
            raise DomainError(
                "quarter_played",
                _("Quarter %(quarter)s is over: its line-up can no longer change.")
                % {"quarter": quarter},
                field="quarter",
            )
        if RoomResult.objects.filter(match=match, deal__quarter=quarter).exists():
            raise DomainError(
                "quarter_started",
                _(
                    "Quarter %(quarter)s has results: its line-up can no longer change "
                    "(substitutions are made between quarters)."
                )
                % {"quarter": quarter},
                field="quarter",
            )
        members = CupTeamPlayer.objects.filter(team__in=[match.team_a_id, match.team_b_id])
        everybody = {m.player.pk: m.player for m in members.select_related("player")}
        for player in seats.values():
            if player is not None:
                everybody.setdefault(player.pk, player)
        labels = _labels(list(everybody.values()))
        assert match.team_a is not None and match.team_b is not None
        team_a, team_b = roster_of(match.team_a, labels), roster_of(match.team_b, labels)
        candidate = QuarterLineup(match=match, quarter=quarter)
        for name in QuarterLineup.SEAT_FIELDS:
            player = seats.get(name)
            setattr(candidate, f"{name}_id", player.pk if player is not None else None)
        try:
            check_lineup(pure_lineup(candidate, labels), team_a, team_b)
        except RuleError as error:
            raise _rule(error, field=_seat_field(error.field)) from error
        values = {f"{name}_id": getattr(candidate, f"{name}_id") for name in candidate.SEAT_FIELDS}
        lineup, _created = QuarterLineup.objects.update_or_create(
            match=match, quarter=quarter, defaults=values
        )
    return lineup


def _seat_field(field: str | None) -> str | None:
    """``open.defenders[1]`` → ``open_defender_2`` (the form field of a line-up seat)."""
    if not field:
        return None
    for room in ROOMS:
        if field == f"{room}.taker":
            return f"{room}_taker"
        for index in range(3):
            if field == f"{room}.defenders[{index}]":
                return f"{room}_defender_{index + 1}"
    return None


# ---------------------------------------------------------------------------------------------
# Room results


def rules_deal_of(deal: MatchDeal) -> Deal:
    """An unsaved ``tournaments.Deal`` with the étui's seats and cards (for ``outcome_score``,
    its hand checks and the table phone's form)."""
    return Deal(
        number=deal.number,
        dealer_seat=deal.dealer_seat,
        taker_seat=deal.taker_seat,
        imposed_contract="",
        cards=deal.cards,
    )


def _stored_outcome(fields: Mapping[str, Any]) -> dict[str, Any]:
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


def rules_outcome(result: RoomResult) -> Outcome:
    data = {key: value for key, value in result.outcome.items() if key != "taker_seat"}
    return outcome_from_dict({**data, "players": 4}, ruleset=DUPLICATE_RULESET)


def result_state(result: RoomResult) -> dict[str, Any]:
    return {**result.outcome, "value": result.value, "taker_mark": result.taker_mark}


@dataclass(frozen=True)
class Actor:
    """Who writes: a user (the director) or a room phone's label."""

    user: Any = None
    label: str = ""

    @property
    def name(self) -> str:
        if self.user is not None and getattr(self.user, "is_authenticated", False):
            return str(self.user.get_username())[:120]
        return self.label[:120]

    @property
    def stored_user(self) -> Any:
        if self.user is not None and getattr(self.user, "is_authenticated", False):
            return self.user
        return None


def _write(
    match: CupMatch,
    deal: MatchDeal,
    room: str,
    outcome: Mapping[str, Any],
    actor: Actor,
    director: bool,
    reason: str,
) -> RoomResult:
    scored = outcome_score(deal=rules_deal_of(deal), outcome=outcome)
    fields = scored.fields
    values = {
        "outcome": _stored_outcome(fields),
        "contract": fields["contract"],
        "oudlers": fields["oudlers"],
        "points_half": fields["points_half"],
        "won": fields["won"],
        "value": fields["value"],
        "taker_mark": scored.marks[scored.taker_seat],
        "entered_by": actor.name,
        "director": director,
    }
    stored = RoomResult.objects.filter(deal=deal, room=room).first()
    if stored is None:
        result = RoomResult.objects.create(match=match, deal=deal, room=room, **values)
        action, before = RoomResultChange.Action.CREATE, None
    else:
        before = result_state(stored)
        after = {**values["outcome"], "value": values["value"], "taker_mark": values["taker_mark"]}
        if before == after:
            return stored  # the same outcome sent again: nothing changes
        for name, value in values.items():
            setattr(stored, name, value)
        stored.save()
        result, action = stored, RoomResultChange.Action.CORRECT
    RoomResultChange.objects.create(
        result=result,
        action=action,
        actor=actor.stored_user,
        actor_label=actor.name,
        reason=reason,
        before=before,
        after=result_state(result),
    )
    return result


def _deal_of(match: CupMatch, number: int) -> MatchDeal:
    deal = MatchDeal.objects.filter(match=match, number=number).first()
    if deal is None:
        raise DomainError(
            "unknown_deal",
            _("This match has no deal %(deal)s.") % {"deal": number},
            field="deal",
        )
    return deal


def room_result_enter(
    *, room: MatchRoom, deal_number: int, outcome: Mapping[str, Any], label: str = ""
) -> RoomResult:
    """A room phone enters (or corrects) a deal of the current quarter while it is open."""
    with transaction.atomic():
        match = _locked_match(room.match)
        _require_playing(match)
        deal = _deal_of(match, deal_number)
        if deal.quarter != match.quarter:
            raise DomainError(
                "deal_not_in_quarter",
                _("Deal %(deal)s is not in quarter %(quarter)s, the quarter being played.")
                % {"deal": deal.number, "quarter": match.quarter},
                field="deal",
            )
        lineup = QuarterLineup.objects.filter(match=match, quarter=match.quarter).first()
        if lineup is None:
            raise DomainError(
                "no_lineup",
                _("The line-up of quarter %(quarter)s is not set yet: ask the director.")
                % {"quarter": match.quarter},
            )
        if lineup.closed:
            raise DomainError(
                "quarter_closed",
                _("Quarter %(quarter)s is closed: ask the director.") % {"quarter": match.quarter},
            )
        label = label or _("%(room)s phone") % {"room": str(room.get_room_display()).lower()}
        return _write(match, deal, room.room, outcome, Actor(label=label), False, "")


def room_result_director(
    *,
    match: CupMatch,
    room: str,
    deal_number: int,
    outcome: Mapping[str, Any],
    actor: Any,
    reason: str,
) -> RoomResult:
    """The director enters or corrects a result of an unfinished match, with a reason."""
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", _("Give a reason."), field="reason")
    if room not in ROOMS:
        raise DomainError("unknown_room", _("Unknown room."), field="room")
    with transaction.atomic():
        match = _locked_match(match)
        _require_playing(match)
        deal = _deal_of(match, deal_number)
        if deal.quarter > match.quarter:
            raise DomainError(
                "quarter_not_open",
                _("Quarter %(quarter)s has not started yet.") % {"quarter": deal.quarter},
                field="deal",
            )
        return _write(match, deal, room, outcome, Actor(user=actor), True, reason)


def _missing(match: CupMatch, quarter: int | None = None) -> list[str]:
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


def close_quarter(*, match: CupMatch, quarter: int) -> CupMatch:
    """Close ``quarter`` (every deal entered in both rooms) and open the next one."""
    with transaction.atomic():
        match = _locked_match(match)
        _require_playing(match)
        if quarter != match.quarter:
            raise DomainError(
                "not_current_quarter",
                _("Quarter %(quarter)s is not the quarter being played.") % {"quarter": quarter},
                field="quarter",
            )
        lineup = QuarterLineup.objects.select_for_update().filter(match=match, quarter=quarter)
        current = lineup.first()
        if current is None:
            raise DomainError(
                "no_lineup",
                _("The line-up of quarter %(quarter)s is not set yet.") % {"quarter": quarter},
            )
        if current.closed:
            raise DomainError(
                "quarter_closed", _("Quarter %(quarter)s is closed.") % {"quarter": quarter}
            )
        missing = _missing(match, quarter)
        if missing:
            raise DomainError(
                "results_missing",
                _("Results are missing: %(missing)s.") % {"missing": ", ".join(missing)},
            )
        current.closed = True
        current.save(update_fields=["closed"])
        if match.quarter < QUARTERS:
            match.quarter += 1
            match.save(update_fields=["quarter"])
    return match


# ---------------------------------------------------------------------------------------------
# Scoring


def pure_match(match: CupMatch) -> TeamMatch:
    """The whole match as the pure ``TeamMatch`` (every deal in both rooms)."""
    team_a, team_b, labels = rosters_of(match)
    results = {(r.deal_id, r.room): r for r in RoomResult.objects.filter(match=match)}
    lineups = {lu.quarter: lu for lu in QuarterLineup.objects.filter(match=match)}
    quarters = []
    for number in range(1, QUARTERS + 1):
        lineup = lineups.get(number)
        if lineup is None:
            raise DomainError(
                "no_lineup",
                _("The line-up of quarter %(quarter)s is not set yet.") % {"quarter": number},
            )
        deals = tuple(
            DealResult(
                deal=deal.number,
                open=rules_outcome(results[(deal.pk, RoomName.OPEN.value)]),
                closed=rules_outcome(results[(deal.pk, RoomName.CLOSED.value)]),
            )
            for deal in MatchDeal.objects.filter(match=match, quarter=number).order_by("number")
        )
        quarters.append(QuarterPlay(lineup=pure_lineup(lineup, labels), deals=deals))
    return TeamMatch(team_a=team_a, team_b=team_b, quarters=tuple(quarters))


def finish_match(*, match: CupMatch) -> MatchResult:
    """Score the match, decide it (the cup's tie-break when drawn) and advance the winner."""
    with transaction.atomic():
        cup = _locked_cup(match.cup)
        match = _locked_match(match)
        _require_playing(match)
        missing = _missing(match)
        if missing:
            raise DomainError(
                "results_missing",
                _("Results are missing: %(missing)s.") % {"missing": ", ".join(missing)},
            )
        try:
            result = score_match(pure_match(match), cup.pm_scale, tie_break_of(cup))
            advanced = record_result(_bracket_of(cup), match.round, match.slot, result)
        except RuleError as error:
            raise _rule(error) from error
        QuarterLineup.objects.filter(match=match).update(closed=True)
        match.pm_a = result.pm_a
        match.net_a = result.net_a
        match.decided_by = result.decided_by
        match.status = CupMatch.Status.FINISHED
        match.save(update_fields=["pm_a", "net_a", "decided_by", "status"])
        _store_bracket(cup, advanced)
    return result


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


def match_sheet(match: CupMatch, *, everything: bool) -> MatchSheet:
    """Per quarter, per deal: both rooms' results, team A's net and PM.

    ``everything`` (organisers) shows every entered result; otherwise (the public) a deal
    entered in one room only is not shown and counts for nothing (the publication rule).
    """
    return match_sheets([match], match.cup, everything=everything)[match.pk]


def match_sheets(
    matches: Sequence[CupMatch], cup: Cup, *, everything: bool
) -> dict[int, MatchSheet]:
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
    per_match: dict[int, dict[int, QuarterLine]] = {match_id: {} for match_id in ids}
    for deal in MatchDeal.objects.filter(match_id__in=ids).order_by("match_id", "number"):
        quarters = per_match[deal.match_id]
        line = quarters.setdefault(
            deal.quarter,
            QuarterLine(deal.quarter, lineups.get((deal.match_id, deal.quarter)), [], 0, 0, 0),
        )
        open_result = results.get((deal.pk, RoomName.OPEN.value))
        closed_result = results.get((deal.pk, RoomName.CLOSED.value))
        net = pm = None
        if open_result is not None and closed_result is not None:
            net = deal_net_a(
                DealResult(deal.number, rules_outcome(open_result), rules_outcome(closed_result))
            )
            pm = pm_from_net(net, scale)
            line.net_a += net
            line.pm_a += pm
            line.counted += 1
        elif not everything:
            open_result = closed_result = None
        line.deals.append(DealLine(deal, open_result, closed_result, net, pm))
    sheets = {}
    for match in matches:
        quarters = per_match[match.pk]
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

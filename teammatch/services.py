"""Every write of the cups: keyword-only, typed, atomic, named ``<entity>_<action>``.

The line-up checks, the scoring and the bracket are the pure ``scoring.core.team_match``; the
outcome of a deal is validated and scored by ``clubs.outcomes.outcome_score`` (the table
phone's validation, hand checks on the prepared cards included). A refusal raises
:class:`~clubs.errors.DomainError` (a ``RuleError`` becomes one with its code) and changes
nothing stored. Reads live in :mod:`teammatch.selectors`; status changes go through the
kernel's one state machine (``clubs.services.competition_status_change``).

Writes to a match (line-up, room results, closing a quarter, finishing) lock the match row
(``select_for_update``): the two room phones and the director may write at the same time.

- A cup in *draft* takes teams (:func:`cup_team_add`, :func:`cup_team_update`: rosters
  checked by ``check_rosters``, 4 to 6 players, nobody twice, a player in one team of the
  cup). :func:`cup_start` builds the seeded bracket: byes go through, and every match whose
  two teams are known gets its deals (generated from the cup's deal seed, the same étuis in
  both rooms) and its two rooms.
- A match is played quarter by quarter (``CupMatch.quarter``): the director sets the quarter's
  line-up (:func:`match_lineup_set`; it can change until the quarter's first result), the
  room phones enter that quarter's deals (:func:`room_result_enter`) and, until the quarter
  is closed, correct their own entries (:func:`room_result_table_correct`); the director enters or
  corrects any result of an unfinished match with a reason
  (:func:`room_result_director_correct`). :func:`match_quarter_close` needs every deal of the
  quarter in both rooms and opens the next one.
- :func:`match_finish` scores the whole match (``score_match`` with the cup's scale and
  tie-break), records it in the bracket (``record_result``) and prepares the next round's
  match once its two teams are known. :func:`cup_finish` once every match is finished.

Room entry semantics (the kernel's, ``clubs.errors``): a deal already entered in that room is
never overwritten by an entry. The very outcome again is a :class:`RoomResultReplay` (nothing
written, no history line); another outcome a :class:`RoomResultConflict` carrying the stored
result. Changing an entry is an explicit correction, kept in the history with who made it
(the room's label, or the director's account and reason).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.history import Author, EnteredVia, entered_by_set, history_write
from clubs.models import Club, Player
from clubs.services import competition_lock, competition_require, competition_status_change
from clubs.signals import milestone_reached
from rules import deal as rules_deal
from rules.deal import random_seed
from rules.duplicate import DUPLICATE_SEATS
from rules.errors import RuleError
from scoring.core.model import ScoringInputError, ScoringOptions
from scoring.core.team_match import (
    QUARTERS,
    Bracket,
    MatchResult,
    TeamRoster,
    bracket,
    check_lineup,
    check_rosters,
    record_result,
    score_match,
)
from teammatch import selectors
from teammatch.errors import NotOwnEntry, QuarterNotOpen, RoomResultConflict, RoomResultReplay
from teammatch.models import (
    MAX_DEALS_PER_QUARTER,
    Cup,
    CupMatch,
    CupTeam,
    CupTeamPlayer,
    MatchDeal,
    MatchRoom,
    QuarterLineup,
    RoomResult,
    RoomResultChange,
)
from teammatch.presentation import room_label

ROOMS = selectors.ROOMS


def _rule(error: RuleError, field: str | None = None) -> DomainError:
    return DomainError.from_rule(error, field=field)


# ---------------------------------------------------------------------------------------------
# Cup and teams


def _check_scale(scale: Sequence[Any]) -> tuple[int, ...]:
    """``scale`` as the points-de-match thresholds, or a translated refusal."""
    try:
        return ScoringOptions(pm_scale=tuple(scale)).pm_scale
    except (ScoringInputError, TypeError):
        raise DomainError(
            "pm_scale",
            _("The scale lists positive whole thresholds in increasing order."),
            field="pm_scale",
        ) from None


def cup_create(
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
    """A new cup of ``club`` in draft (refused: ``name_required``, ``deals_per_quarter``,
    ``tie_break``, ``pm_scale``)."""
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
    scale = _check_scale(pm_scale) if pm_scale is not None else None
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


def _require_draft(cup: Cup) -> None:
    if cup.status != Cup.Status.DRAFT:
        raise DomainError("cup_started", _("The cup has started: its teams can no longer change."))


def _sentinel(roster: TeamRoster) -> TeamRoster:
    """A valid roster sharing nobody with ``roster`` (to check a lone team's roster)."""
    players = tuple(f"\0{index}" for index in range(4))
    return TeamRoster(id=f"\0{roster.id}", players=players)


def _check_team(cup: Cup, name: str, players: Sequence[Player], team: CupTeam | None) -> str:
    name = (name or "").strip()
    if not name:
        raise DomainError("name_required", _("Give the team a name."), field="name")
    others = [other for other in selectors.cup_teams(cup) if team is None or other.pk != team.pk]
    if any(other.name == name for other in others):
        raise DomainError(
            "team_name_taken",
            _("The cup already has a team named %(name)s.") % {"name": name},
            field="name",
        )
    everybody = list(players) + [m.player for other in others for m in other.members.all()]
    labels = selectors.player_labels(everybody)
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


def cup_team_add(*, cup: Cup, name: str, players: Sequence[Player]) -> CupTeam:
    """Add a team (seeded after the others) with its roster of 4 to 6 players (refused:
    ``cup_started``, ``name_required``, ``team_name_taken``, the roster checks' codes)."""
    with transaction.atomic():
        cup = competition_lock(cup)
        _require_draft(cup)
        name = _check_team(cup, name, players, None)
        last = CupTeam.objects.filter(cup=cup).order_by("-seed").first()
        team = CupTeam.objects.create(cup=cup, name=name, seed=(last.seed + 1) if last else 1)
        CupTeamPlayer.objects.bulk_create(
            CupTeamPlayer(cup=cup, team=team, player=player) for player in players
        )
    return team


def cup_team_update(*, team: CupTeam, name: str, players: Sequence[Player]) -> CupTeam:
    """Rename a team and replace its roster (draft cups only; refused as
    :func:`cup_team_add`)."""
    with transaction.atomic():
        cup = competition_lock(team.cup)
        _require_draft(cup)
        team.name = _check_team(cup, name, players, team)
        team.save(update_fields=["name"])
        CupTeamPlayer.objects.filter(team=team).delete()
        CupTeamPlayer.objects.bulk_create(
            CupTeamPlayer(cup=cup, team=team, player=player) for player in players
        )
    return team


# ---------------------------------------------------------------------------------------------
# The bracket


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


def cup_start(*, cup: Cup) -> Cup:
    """Seed the bracket (teams by seed), let the byes through and open the first matches
    (refused: ``cup_started``, ``bracket_too_few_teams``)."""
    with transaction.atomic():
        cup = competition_lock(cup)
        _require_draft(cup)
        names = [team.name for team in selectors.cup_teams(cup)]
        try:
            pure = bracket(names, selectors.tie_break_of(cup))
        except RuleError as error:
            raise _rule(error) from error
        for pure_round in pure.rounds:
            for match in pure_round:
                CupMatch.objects.create(cup=cup, round=match.round, slot=match.slot)
        competition_status_change(competition=cup, to=Cup.Status.RUNNING)
        _store_bracket(cup, pure)
    return cup


def cup_finish(*, cup: Cup) -> Cup:
    """Finish a running cup once every match is finished (refused: ``cup_not_running``,
    ``matches_unfinished``)."""
    with transaction.atomic():
        cup = competition_lock(cup)
        competition_require(cup, Cup.Status.RUNNING)
        if selectors.cup_has_unfinished_matches(cup):
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


def match_lineup_set(
    *, match: CupMatch, quarter: int, seats: Mapping[str, Player | None]
) -> QuarterLineup:
    """Set the line-up of ``quarter`` (``seats``: a player per ``QuarterLineup.SEAT_FIELDS``).

    Refused for a match not in play (``match_not_playing``), a quarter already played
    (``quarter_played``: closed, or before the match's current quarter; ``quarter_started``:
    the current quarter once it has a result) and for any line-up ``check_lineup`` refuses
    (its code, on the seat's field).
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
        if selectors.match_results_entered(match, quarter=quarter):
            raise DomainError(
                "quarter_started",
                _(
                    "Quarter %(quarter)s has results: its line-up can no longer change "
                    "(substitutions are made between quarters)."
                )
                % {"quarter": quarter},
                field="quarter",
            )
        everybody = {player.pk: player for player in selectors.match_members(match)}
        for player in seats.values():
            if player is not None:
                everybody.setdefault(player.pk, player)
        labels = selectors.player_labels(list(everybody.values()))
        assert match.team_a is not None and match.team_b is not None
        team_a = selectors.roster_of(match.team_a, labels)
        team_b = selectors.roster_of(match.team_b, labels)
        candidate = QuarterLineup(match=match, quarter=quarter)
        for name in QuarterLineup.SEAT_FIELDS:
            player = seats.get(name)
            setattr(candidate, f"{name}_id", player.pk if player is not None else None)
        try:
            check_lineup(selectors.pure_lineup(candidate, labels), team_a, team_b)
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


def _comparable(state: Mapping[str, Any]) -> dict[str, Any]:
    """A result state with its poignées in a fixed order (their order says nothing)."""
    poignees = sorted((p.get("side"), p.get("size")) for p in state.get("poignees") or [])
    return {**state, "poignees": poignees}


def _same(stored: RoomResult, values: Mapping[str, Any]) -> bool:
    after = {**values["outcome"], "value": values["value"], "taker_mark": values["taker_mark"]}
    return _comparable(selectors.result_state(stored)) == _comparable(after)


def _create(
    match: CupMatch,
    deal: MatchDeal,
    room: str,
    values: Mapping[str, Any],
    actor: Author,
    *,
    director: bool,
    reason: str,
) -> RoomResult:
    author = _author(actor, director=director)
    result = RoomResult.objects.create(
        match=match, deal=deal, room=room, **author.fields(), **values
    )
    _record(result, RoomResultChange.Action.CREATE, author, reason, None)
    return result


def _replace(
    stored: RoomResult,
    values: Mapping[str, Any],
    actor: Author,
    *,
    director: bool,
    reason: str,
) -> RoomResult:
    before = selectors.result_state(stored)
    for name, value in values.items():
        setattr(stored, name, value)
    author = _author(actor, director=director)
    entered_by_set(stored, author)
    stored.save()
    _record(stored, RoomResultChange.Action.CORRECT, author, reason, before)
    return stored


def _author(actor: Author, *, director: bool) -> Author:
    """``actor`` writing by the director's screen, else by the room's own path (its phone's
    page or the API, as ``actor.via`` says)."""
    return replace(actor, via=EnteredVia.ORGANISER) if director else actor


def _record(
    result: RoomResult, action: str, author: Author, reason: str, before: dict[str, Any] | None
) -> None:
    history_write(
        RoomResultChange, result=result, action=action, author=author, reason=reason,
        before=before, after=selectors.result_state(result),
    )  # fmt: skip


def _deal_of(match: CupMatch, number: int) -> MatchDeal:
    deal = selectors.match_deal(match, number)
    if deal is None:
        raise DomainError(
            "unknown_deal",
            _("This match has no deal %(deal)s.") % {"deal": number},
            field="deal",
        )
    return deal


def _require_room_quarter(match: CupMatch, deal: MatchDeal) -> None:
    """Refuse (:class:`QuarterNotOpen`) unless a room phone may write ``deal`` now: a deal
    of the quarter being played, its line-up set, the quarter not closed."""
    if deal.quarter != match.quarter:
        raise QuarterNotOpen(
            "deal_not_in_quarter",
            _("Deal %(deal)s is not in quarter %(quarter)s, the quarter being played.")
            % {"deal": deal.number, "quarter": match.quarter},
            field="deal",
        )
    lineup = selectors.current_lineup(match, lock=True)
    if lineup is None:
        raise QuarterNotOpen(
            "no_lineup",
            _("The line-up of quarter %(quarter)s is not set yet: ask the director.")
            % {"quarter": match.quarter},
        )
    if lineup.closed:
        raise QuarterNotOpen(
            "quarter_closed",
            _("Quarter %(quarter)s is closed: ask the director.") % {"quarter": match.quarter},
        )


def room_result_enter(
    *,
    room: MatchRoom,
    deal_number: int,
    outcome: Mapping[str, Any],
    label: str = "",
    via: str = EnteredVia.TABLE,
) -> RoomResult:
    """A room phone enters a deal of the quarter being played, while it is open.

    A deal already entered in this room is never overwritten: the very outcome again raises
    :class:`RoomResultReplay` (nothing written), another outcome (or one that is not valid)
    :class:`RoomResultConflict` with the stored result, in every quarter (the quarter being
    played, a closed one, an earlier one: the room's own result, 409). Refused:
    ``match_not_playing``, ``unknown_deal``, :class:`QuarterNotOpen` (``deal_not_in_quarter``,
    ``no_lineup``, ``quarter_closed``) and the outcome's own refusals (on their fields).
    """
    with transaction.atomic():
        match = _locked_match(room.match)
        _require_playing(match)
        deal = _deal_of(match, deal_number)
        stored = selectors.room_result(deal, room.room)
        if stored is not None:
            try:
                values: Mapping[str, Any] | None = selectors.room_result_fields(deal, outcome)
            except DomainError:  # an invalid entry is no resend: the stored result stands
                values = None
            if values is not None and _same(stored, values):
                raise RoomResultReplay(stored)
            raise RoomResultConflict(stored)
        _require_room_quarter(match, deal)
        values = selectors.room_result_fields(deal, outcome)
        actor = Author(label=label or room_label(room), via=via)
        return _create(match, deal, room.room, values, actor, director=False, reason="")


def room_result_table_correct(
    *,
    room: MatchRoom,
    deal_number: int,
    outcome: Mapping[str, Any],
    label: str = "",
    via: str = EnteredVia.TABLE,
) -> RoomResult:
    """A room phone corrects its own entry of a deal of the quarter being played, until the
    quarter is closed; the history keeps the correction, signed with the room's label.

    A deal not entered yet is entered. Raises :class:`RoomResultReplay` for the stored
    outcome again (nothing written), :class:`NotOwnEntry` (``not_own_entry``) for a result the
    director recorded, and what :func:`room_result_enter` refuses.
    """
    with transaction.atomic():
        match = _locked_match(room.match)
        _require_playing(match)
        deal = _deal_of(match, deal_number)
        _require_room_quarter(match, deal)
        values = selectors.room_result_fields(deal, outcome)
        actor = Author(label=label or room_label(room), via=via)
        stored = selectors.room_result(deal, room.room)
        if stored is None:
            return _create(match, deal, room.room, values, actor, director=False, reason="")
        if stored.entered_by_director:
            raise NotOwnEntry()
        if _same(stored, values):
            raise RoomResultReplay(stored)
        return _replace(stored, values, actor, director=False, reason="")


def room_result_director_correct(
    *,
    match: CupMatch,
    room: str,
    deal_number: int,
    outcome: Mapping[str, Any],
    actor: Any,
    reason: str,
) -> RoomResult:
    """The director enters or corrects a room's result of a deal of an unfinished match (its
    quarter started), with a reason kept in the history.

    Raises :class:`RoomResultReplay` when the outcome is the stored one (nothing written).
    Refused: ``reason_required``, ``unknown_room``, ``match_not_playing``, ``unknown_deal``,
    ``quarter_not_open`` and the outcome's own refusals.
    """
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
        values = selectors.room_result_fields(deal, outcome)
        by = Author(user=actor)
        stored = selectors.room_result(deal, room)
        if stored is None:
            return _create(match, deal, room, values, by, director=True, reason=reason)
        if _same(stored, values):
            raise RoomResultReplay(stored)
        return _replace(stored, values, by, director=True, reason=reason)


# ---------------------------------------------------------------------------------------------
# Quarters and the end of a match


def match_quarter_close(*, match: CupMatch, quarter: int) -> CupMatch:
    """Close ``quarter`` (every deal entered in both rooms) and open the next one (refused:
    ``match_not_playing``, ``not_current_quarter``, ``no_lineup``, ``quarter_closed``,
    ``results_missing``)."""
    with transaction.atomic():
        match = _locked_match(match)
        _require_playing(match)
        if quarter != match.quarter:
            raise DomainError(
                "not_current_quarter",
                _("Quarter %(quarter)s is not the quarter being played.") % {"quarter": quarter},
                field="quarter",
            )
        current = selectors.current_lineup(match, lock=True)
        if current is None:
            raise DomainError(
                "no_lineup",
                _("The line-up of quarter %(quarter)s is not set yet.") % {"quarter": quarter},
            )
        if current.closed:
            raise DomainError(
                "quarter_closed", _("Quarter %(quarter)s is closed.") % {"quarter": quarter}
            )
        missing = selectors.match_missing_results(match, quarter)
        if missing:
            raise DomainError(
                "results_missing",
                _("Results are missing: %(missing)s.") % {"missing": ", ".join(missing)},
            )
        current.closed = True
        current.save(update_fields=["closed"])
        milestone_reached(match.cup, "quarter-closed")
        if match.quarter < QUARTERS:
            match.quarter += 1
            match.save(update_fields=["quarter"])
    return match


def match_finish(*, match: CupMatch) -> MatchResult:
    """Score the match, decide it (the cup's tie-break when drawn) and advance the winner
    (refused: ``match_not_playing``, ``results_missing``, ``no_lineup``)."""
    with transaction.atomic():
        cup = competition_lock(match.cup)
        match = _locked_match(match)
        _require_playing(match)
        missing = selectors.match_missing_results(match)
        if missing:
            raise DomainError(
                "results_missing",
                _("Results are missing: %(missing)s.") % {"missing": ", ".join(missing)},
            )
        try:
            result = score_match(
                selectors.pure_match(match), cup.pm_scale, selectors.tie_break_of(cup)
            )
            advanced = record_result(selectors.pure_bracket(cup), match.round, match.slot, result)
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

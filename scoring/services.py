"""Standings recompute: read an event's results, call the pure core, publish the snapshot.

Vocabulary: the *snapshot* (``StandingsSnapshot`` + its ``HandScore`` and ``RankingEntry`` rows)
is what pages and the API read; it carries the ``results_version`` of the event it was computed
from, the results expected and counted (``scoring.selectors.results_expected``, overall and per
round) and the quadrette match sheets. Core entrant ids are ``"e<Entrant.pk>"`` for players and
``"t<Team.pk>"`` for teams (``scoring.models.entrant_key`` / ``team_key``).

Writers never wait for scoring
------------------------------
A result writer bumps ``Event.results_version`` and stamps its row with the new version
(``TableResult.version``) in its own short transaction; it takes no lock a recompute holds. A
recompute never locks the event:

1. **read** in one consistent snapshot (``REPEATABLE READ`` on PostgreSQL): the event's version
   V, the snapshot's version S, and the results (all of them, or those of the deals changed
   since S);
2. **compute** with the core, outside any transaction;
3. **publish** in one short transaction holding only the snapshot row's lock: refused when the
   stored snapshot has moved meanwhile (an older computation never replaces a newer one), else
   the changed hand scores and the rankings are rewritten in bulk (``scoring.bulk``: COPY) and
   the snapshot takes version V. Readers see the old or the new snapshot, never a mixture.

Incremental where it is cheaper
-------------------------------
A result changes the comparison of its own deal only. When a snapshot exists and at most half
of the deals changed since it, only those deals are rescored (their results read, their hand
scores rewritten); the rankings are recomputed from the stored hand scores of the other deals
plus the new ones (``scoring.core.standings_from_hands``). A full recompute rescores every deal;
both give the identical snapshot (tests compare them on random events).

Coalescing
----------
``standings_request`` (called on commit of every results change) sends the task only when none
is queued for the event (``RecomputeState.queued_at``; a queued message older than
:data:`QUEUED_STALE` counts as lost). ``standings_refresh`` (what the task runs) holds a lease so
that one worker recomputes an event at a time, recomputes until the snapshot is at the event's
version (bounded), releases the lease and looks once more, so the last result is always scored.

What is scored: played results (confirmed ones when the event asks for a defender's
confirmation) and artificial scores. A deal *not played* (and an unconfirmed result) counts in
the deal's scheduled total (Neuberg's N) but is not compared. The scheduled count of a deal is
the number of tables of the movement that really play its deal set
(``Schedule.tables_per_deal_set``: a table where a phantom sits plays nothing).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import uuid
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.utils import timezone

from scoring.bulk import IntMatrix, consistent_read, is_postgresql, read_int_columns, write_rows
from scoring.core import (
    HandScores,
    SeatColumns,
    Standings,
    TournamentInput,
    hand_scores,
    merge_hand_scores,
    standings_from_hands,
)
from scoring.core.arith import competition_ranks
from scoring.core.model import IMP_THRESHOLDS, NO_ARTIFICIAL, Match, ScoringOptions
from scoring.core.model import Penalty as CorePenalty
from scoring.core.model import Team as CoreTeam
from scoring.models import (
    HandScore,
    RankingEntry,
    RecomputeState,
    StandingsSnapshot,
    entrant_key,
    key_pk,
    team_key,
)
from scoring.selectors import results_expected
from tournaments.models import (
    SEATS,
    Deal,
    Entrant,
    Event,
    Penalty,
    Table,
    TableResult,
    Team,
    load_schedules,
)
from tournaments.movements import Schedule, TablePlay
from tournaments.publication import deals_hidden_from

logger = logging.getLogger(__name__)

LEASE = dt.timedelta(seconds=120)  # longer than any recompute; renewed at every pass
QUEUED_STALE = dt.timedelta(seconds=60)  # a queued task not started by then was lost
REFRESH_PASSES = 20  # recomputes one refresh may chain while results keep arriving
REFRESH_SECONDS = 90.0

_KIND_CODES = {TableResult.Kind.PLAYED: 0, TableResult.Kind.ARTIFICIAL: 1}
_NOT_PLAYED = 2
_PERCENT_TEXT = np.array([f"{h // 100}.{h % 100:02d}" for h in range(10001)], dtype=object)


# ------------------------------------------------------------------------- reading


def _ids(values: Sequence[int]) -> str:
    return ", ".join(str(int(value)) for value in values) or "NULL"


# Columns of the results matrix (one row per TableResult).
_R_ID, _R_EVENT, _R_KIND, _R_CONFIRMED, _R_DIRECTOR, _R_ROUND, _R_DEAL_ID, _R_DEAL, _R_TABLE = (
    range(9)
)
_R_SEATS, _R_MARKS, _R_ARTIFICIAL = 9, 13, 17
_RESULT_COLUMNS = 21


def _results_query(event_ids: Sequence[int], deal_ids: Sequence[int] | None) -> str:
    r, t, d = TableResult._meta.db_table, Table._meta.db_table, Deal._meta.db_table
    kind = (
        "CASE r.kind "
        + " ".join(f"WHEN '{kind}' THEN {code}" for kind, code in _KIND_CODES.items())
        + f" ELSE {_NOT_PLAYED} END"
    )
    seats = [f"COALESCE(r.seat_{s}_id, -1)" for s in "nesw"]
    marks = [f"COALESCE(r.mark_{s}, 0)" for s in "nesw"]
    artificial = [f"COALESCE(CAST(ROUND(r.artificial_{s} * 100) AS BIGINT), -1)" for s in "nesw"]
    columns = [
        "r.id", "r.event_id", kind,
        "CASE WHEN r.confirmed THEN 1 ELSE 0 END",
        "CASE WHEN r.director_assigned THEN 1 ELSE 0 END",
        "r.round_number", "r.deal_id", "d.number", "t.number",
        *seats, *marks, *artificial,
    ]  # fmt: skip
    where = f"r.event_id IN ({_ids(event_ids)})"
    if deal_ids is not None:
        where += f" AND r.deal_id IN ({_ids(deal_ids)})"
    return (
        f"SELECT {', '.join(columns)} FROM {r} AS r "
        f"JOIN {t} AS t ON t.id = r.table_id JOIN {d} AS d ON d.id = r.deal_id WHERE {where}"
    )


# Columns of the stored hand scores matrix (one row per HandScore).
_H_EVENT, _H_RESULT, _H_DEAL_ID, _H_TABLE, _H_SEAT, _H_ENTRANT, _H_MARK, _H_ARTIFICIAL = range(8)
_H_MP_NUM, _H_MP_DEN, _H_TOP, _H_PERCENTAGE, _H_ROUND = 8, 9, 10, 11, 12
_HAND_COLUMNS = 13


def _hands_query(event_ids: Sequence[int], except_deals: Sequence[int]) -> str:
    seat = "CASE h.seat " + " ".join(f"WHEN '{s}' THEN {i}" for i, s in enumerate(SEATS)) + " END"
    columns = [
        "h.event_id", "h.result_id", "h.deal_id", "h.table_number", seat, "h.entrant_id",
        "COALESCE(h.mark, 0)", "CASE WHEN h.artificial THEN 1 ELSE 0 END",
        "h.mp_num", "h.mp_den", "COALESCE(h.top, 0)",
        "CAST(ROUND(h.percentage * 100) AS BIGINT)", "h.round_number",
    ]  # fmt: skip
    where = f"h.event_id IN ({_ids(event_ids)})"
    if except_deals:
        where += f" AND h.deal_id NOT IN ({_ids(except_deals)})"
    return f"SELECT {', '.join(columns)} FROM {HandScore._meta.db_table} AS h WHERE {where}"


TABLE_OFFSET = 10_000  # section k's table t is table k·TABLE_OFFSET + t for the core


@dataclass
class _EventShape:
    """What does not change while results arrive: entrants, deals, the movement's counts.

    For a simultaneous, ``members`` are its sections (their results are compared together and
    their table numbers offset so that they stay distinct for the core); otherwise the event.
    """

    event: Event
    members: list[Event]
    entrant_pks: np.ndarray[Any, np.dtype[np.int64]]  # sorted
    deal_number: dict[int, int]  # Deal.pk -> number
    scheduled: dict[int, int]  # deal number -> tables really playing it
    entrants: list[dict[str, Any]]
    offsets: dict[int, int]  # member event pk -> table offset

    @property
    def event_ids(self) -> list[int]:
        return [member.pk for member in self.members]

    @property
    def entrant_ids(self) -> tuple[str, ...]:
        return tuple(entrant_key(pk) for pk in self.entrant_pks.tolist())

    def offset_of(self, event_ids: np.ndarray[Any, np.dtype[np.int64]]) -> np.ndarray[Any, Any]:
        """The table offset of each row's event."""
        if len(self.members) == 1:
            return np.zeros(event_ids.shape[0], dtype=np.int64)
        keys = np.array(sorted(self.offsets), dtype=np.int64)
        values = np.array([self.offsets[key] for key in keys.tolist()], dtype=np.int64)
        return values[np.searchsorted(keys, event_ids)]


def comparison_members(event: Event) -> list[Event]:
    """The events whose results ``event``'s standings compare: its sections, or itself."""
    # Movements deferred: ``Event.schedule`` then comes parsed from the per-process cache.
    sections = list(Event.objects.defer("movement").filter(simultaneous_id=event.pk).order_by("pk"))
    return sections or [event]


def _event_shape(event: Event) -> _EventShape:
    members = comparison_members(event)
    ids = [member.pk for member in members]
    entrants: list[dict[str, Any]] = [
        dict(row)
        for row in Entrant.objects.filter(event_id__in=ids).values(
            "id", "event_id", "slot", "phantom", "line", "team_id", "player__name_sort_key"
        )
    ]
    deals = list(
        Deal.objects.filter(event_id__in=ids).values("id", "event_id", "number", "deal_set")
    )
    load_schedules(members)  # one query for the movements this process has not parsed yet
    tables_per_set = {member.pk: member.schedule.tables_per_deal_set() for member in members}
    scheduled: dict[int, int] = defaultdict(int)
    for d in deals:
        count = tables_per_set[d["event_id"]][d["deal_set"]]
        if count:
            scheduled[d["number"]] += count
    return _EventShape(
        event=event,
        members=members,
        entrant_pks=np.array(sorted(e["id"] for e in entrants), dtype=np.int64),
        deal_number={d["id"]: d["number"] for d in deals},
        scheduled=dict(scheduled),
        entrants=entrants,
        offsets={
            member.pk: (index + 1) * TABLE_OFFSET if len(members) > 1 else 0
            for index, member in enumerate(members)
        },
    )


@dataclass
class _Scored:
    """Hand scores with, per hand, where it is stored: event, result, deal id, round."""

    hands: HandScores
    event_id: np.ndarray[Any, np.dtype[np.int64]]
    result_id: np.ndarray[Any, np.dtype[np.int64]]
    deal_id: np.ndarray[Any, np.dtype[np.int64]]
    round_number: np.ndarray[Any, np.dtype[np.int64]]


def _seat_columns(shape: _EventShape, results: IntMatrix) -> SeatColumns:
    """The core's seat columns of the scored results (one row per seat of a compared result)."""
    kind = results[:, _R_KIND]
    counted = ~((kind == 0) & (results[:, _R_CONFIRMED] == 0))
    rows = np.flatnonzero(counted & (kind != _NOT_PLAYED))
    row = np.repeat(rows, 4)
    seat = np.tile(np.arange(4, dtype=np.int64), rows.shape[0])
    entrant_pk = results[row, _R_SEATS + seat]
    seated = entrant_pk >= 0
    row, seat, entrant_pk = row[seated], seat[seated], entrant_pk[seated]
    artificial_row = results[row, _R_KIND] == 1
    return SeatColumns(
        deal=results[row, _R_DEAL],
        table=_core_tables(shape, results)[row],
        seat=seat,
        entrant=np.searchsorted(shape.entrant_pks, entrant_pk).astype(np.int64),
        mark=np.where(artificial_row, 0, results[row, _R_MARKS + seat]),
        artificial=np.where(artificial_row, results[row, _R_ARTIFICIAL + seat], NO_ARTIFICIAL),
        director=(results[row, _R_DIRECTOR] == 1) | artificial_row,
        entrant_ids=shape.entrant_ids,
    )


def _core_tables(shape: _EventShape, results: IntMatrix) -> np.ndarray[Any, Any]:
    """Table numbers as the core sees them: offset by section in a simultaneous."""
    return results[:, _R_TABLE] + shape.offset_of(results[:, _R_EVENT])


def _score(shape: _EventShape, results: IntMatrix) -> _Scored:
    """Score the hands of ``results`` (the core's first half) and locate each hand's row."""
    columns = _seat_columns(shape, results)
    scored = hand_scores(TournamentInput(seats=columns, scheduled=shape.scheduled))
    tables = _core_tables(shape, results)
    width = int(tables.max()) + 1 if results.shape[0] else 1
    key = results[:, _R_DEAL] * width + tables
    order = np.argsort(key, kind="stable")
    where = order[np.searchsorted(key[order], scored.deal * width + scored.table)]
    return _Scored(
        hands=scored,
        event_id=results[where, _R_EVENT],
        result_id=results[where, _R_ID],
        deal_id=results[where, _R_DEAL_ID],
        round_number=results[where, _R_ROUND],
    )


def _stored(shape: _EventShape, stored: IntMatrix) -> _Scored:
    """The stored hand scores as the core's columns (the exact values let them be ranked)."""
    artificial = stored[:, _H_ARTIFICIAL] == 1
    numbers = np.array([shape.deal_number.get(pk, 0) for pk in stored[:, _H_DEAL_ID].tolist()],
                       dtype=np.int64)  # fmt: skip
    hands = HandScores(
        deal=numbers,
        table=stored[:, _H_TABLE] + shape.offset_of(stored[:, _H_EVENT]),
        seat=stored[:, _H_SEAT],
        entrant=np.searchsorted(shape.entrant_pks, stored[:, _H_ENTRANT]).astype(np.int64),
        mark=stored[:, _H_MARK],
        artificial=artificial,
        director=np.zeros(stored.shape[0], dtype=np.bool_),
        mp_num=stored[:, _H_MP_NUM],
        mp_den=stored[:, _H_MP_DEN],
        top=stored[:, _H_TOP],
        percentage=stored[:, _H_PERCENTAGE],
        entrant_ids=shape.entrant_ids,
    )
    return _Scored(hands, stored[:, _H_EVENT], stored[:, _H_RESULT], stored[:, _H_DEAL_ID],
                   stored[:, _H_ROUND])  # fmt: skip


def _merged(parts: Sequence[_Scored]) -> _Scored:
    """One set of hand scores, in the core's order, with the location columns following."""
    hands = merge_hand_scores([part.hands for part in parts])
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return _Scored(hands, empty, empty, empty, empty)
    # merge_hand_scores orders by (deal, table, seat): apply the same order to the locations.
    deal = np.concatenate([part.hands.deal for part in parts])
    table = np.concatenate([part.hands.table for part in parts])
    seat = np.concatenate([part.hands.seat for part in parts])
    order = np.lexsort((seat, table, deal))

    def joined(name: str) -> np.ndarray[Any, np.dtype[np.int64]]:
        return np.concatenate([getattr(part, name) for part in parts])[order]

    return _Scored(hands, joined("event_id"), joined("result_id"), joined("deal_id"),
                   joined("round_number"))  # fmt: skip


# ------------------------------------------------------------------ rankings' input


def _quadrette_matches(schedule: Schedule, team_of_slot: dict[int, int]) -> list[Match]:
    """Quadrette matches from the movement: in a round, the two tables playing the same deal set
    with the same two teams seated (A's member at B's table is mirrored at the other one).

    Team A is the team seated North at the lower-numbered table.
    """
    matches: list[Match] = []
    for rnd in schedule.rounds:
        groups: dict[tuple[int, frozenset[int]], list[TablePlay]] = defaultdict(list)
        for play in rnd.playing:
            seated = [team_of_slot.get(slot) for slot in play.slots]
            teams = frozenset(team for team in seated if team is not None)
            if len(teams) == 2 and None not in seated:
                groups[(play.deal_set, teams)].append(play)
        for (_deal_set, teams), plays in groups.items():
            if len(plays) != 2:
                continue
            first, second = plays  # by table number
            team_a = team_of_slot[first.seats["N"]]
            (team_b,) = teams - {team_a}
            matches.append(
                Match(
                    id=f"r{rnd.number}-t{first.table}-{second.table}",
                    team_a=team_key(team_a),
                    team_b=team_key(team_b),
                    tables=(first.table, second.table),
                    round=rnd.number,
                )
            )
    return matches


def _ranking_input(shape: _EventShape, scored_players: set[str]) -> TournamentInput:
    """Penalties, teams, matches, lines and options (no seat results): what ranks the hands.

    A penalty on a player without any scored deal yet waits until he has one (the core ranks
    only players with results and refuses a penalty naming anybody else). Likewise a team is
    ranked (and its penalty applied) once one of its members has a result: early in a team
    event most teams have none yet, and the live standings must still update.
    """
    event, entrants = shape.event, shape.entrants
    teams: list[CoreTeam] = []
    matches: list[Match] = []
    if event.is_team_event:
        members: dict[int, list[str]] = defaultdict(list)
        for e in entrants:
            if e["team_id"] and not e["phantom"]:
                members[e["team_id"]].append(entrant_key(e["id"]))
        teams = [
            CoreTeam(id=team_key(t.pk), members=tuple(members[t.pk]), name=t.name)
            for t in Team.objects.filter(event_id__in=shape.event_ids).order_by(
                "event_id", "number"
            )
            if scored_players.intersection(members[t.pk])
        ]
    ranked_teams = {team.id for team in teams}
    penalties = [
        CorePenalty(
            entrant=entrant_key(p.entrant_id) if p.entrant_id else team_key(p.team_id or 0),
            points=Decimal(str(p.points)),
            reason=p.reason,
        )
        for p in Penalty.objects.filter(event_id__in=shape.event_ids)
        if (p.entrant_id is not None and entrant_key(p.entrant_id) in scored_players)
        or (p.team_id is not None and team_key(p.team_id) in ranked_teams)
    ]
    schedule = shape.members[0].schedule
    if event.format == Event.Format.QUADRETTE and len(shape.members) == 1:
        team_of_slot = {e["slot"]: e["team_id"] for e in entrants if e["team_id"]}
        matches = [
            match
            for match in _quadrette_matches(schedule, team_of_slot)
            if match.team_a in ranked_teams and match.team_b in ranked_teams
        ]
    lines = {entrant_key(e["id"]): e["line"] for e in entrants if e["line"]}
    options = ScoringOptions(
        pm_scale=tuple(int(t) for t in event.pm_scale) if event.pm_scale else IMP_THRESHOLDS,
        team_ranking="vp" if event.ranking == Event.Ranking.VP else "pm",
        rank_by_line=all(m.schedule.kind == "line" for m in shape.members) and bool(lines),
    )
    names = {entrant_key(e["id"]): e["player__name_sort_key"] or "" for e in entrants}
    return TournamentInput(
        seats=SeatColumns.from_results([]),
        penalties=tuple(penalties),
        teams=tuple(teams),
        matches=tuple(matches),
        lines=lines,
        options=options,
        names=names,
    )


def _scored_players(hands: HandScores) -> set[str]:
    seated = np.unique(hands.entrant).tolist()
    return {hands.entrant_ids[index] for index in seated}


@dataclass
class EventData:
    """The core's whole input for an event, read from the stored results (tests, debugging)."""

    tournament: TournamentInput


def event_scoring_input(event: Event) -> EventData:
    """The core's input for ``event``'s stored results: ``compute_standings(data.tournament)``
    gives what the recompute publishes."""
    shape = _event_shape(event)
    results = read_int_columns(_results_query(shape.event_ids, None), _RESULT_COLUMNS)
    columns = _seat_columns(shape, results)
    players = {shape.entrant_ids[index] for index in np.unique(columns.entrant).tolist()}
    meta = _ranking_input(shape, players)
    tournament = TournamentInput(
        seats=columns,
        scheduled=shape.scheduled,
        penalties=meta.penalties,
        teams=meta.teams,
        matches=meta.matches,
        lines=meta.lines,
        options=meta.options,
        names=meta.names,
    )
    return EventData(tournament=tournament)


# -------------------------------------------------------------------------- writing


def _hand_rows(shape: _EventShape, scored: _Scored) -> tuple[list[str], list[Sequence[str | None]]]:
    hands = scored.hands
    artificial = hands.artificial

    def text(values: np.ndarray[Any, Any]) -> list[str]:
        return list(map(str, values.tolist()))

    def text_or_null(values: np.ndarray[Any, Any]) -> list[str | None]:
        out = np.array(text(values), dtype=object)
        out[artificial] = None
        return list(out.tolist())

    names = [
        "event_id", "result_id", "deal_id", "entrant_id", "table_number", "round_number", "seat",
        "mark", "mp_num", "mp_den", "top", "percentage", "artificial",
    ]  # fmt: skip
    seat_letters = np.array(SEATS, dtype=object)
    columns: list[Sequence[str | None]] = [
        text(scored.event_id),
        text(scored.result_id),
        text(scored.deal_id),
        text(np.array([key_pk(name) for name in hands.entrant_ids], dtype=np.int64)[hands.entrant]),
        text(hands.table - shape.offset_of(scored.event_id)),
        text(scored.round_number),
        seat_letters[hands.seat].tolist(),
        text_or_null(hands.mark),
        text(hands.mp_num),
        text(hands.mp_den),
        text_or_null(hands.top),
        _PERCENT_TEXT[hands.percentage].tolist(),
        np.where(artificial, "1", "0").tolist(),
    ]
    return names, columns


def _ranking_entries(event_id: int, standings: Standings) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for row in standings.individual:
        common = {
            "entrant_id": key_pk(row.entrant),
            "team_id": None,
            "percentage": row.percentage,
            "penalty": row.penalty,
            "marks_total": row.marks,
            "deals_played": row.deals,
            "points_de_match": None,
            "victory_points": None,
        }
        rows.append({"kind": RankingEntry.Kind.INDIVIDUAL, "line": "", "rank": row.rank, **common})
        if row.line_rank is not None and row.line:
            rows.append({"kind": RankingEntry.Kind.LINE, "line": row.line,
                         "rank": row.line_rank, **common})  # fmt: skip
    for team in standings.teams:
        rows.append(
            {
                "kind": RankingEntry.Kind.TEAM,
                "line": "",
                "rank": team.rank,
                "entrant_id": None,
                "team_id": key_pk(team.team),
                "percentage": team.percentage,
                "penalty": team.penalty,
                "marks_total": team.marks,
                "deals_played": team.entries,
                "points_de_match": team.pm,
                "victory_points": team.vp,
            }
        )
    for entry in rows:
        entry["event_id"] = event_id
    return rows


def _section_entries(shape: _EventShape, overall: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each section's rankings in a simultaneous: its players (and teams) only, with their
    overall percentages, ranked among themselves (competition ranking, overall order kept)."""
    if len(shape.members) == 1:
        return []
    event_of_entrant = {e["id"]: e["event_id"] for e in shape.entrants}
    event_of_team = {e["team_id"]: e["event_id"] for e in shape.entrants if e["team_id"]}
    groups: dict[tuple[int, str, str], list[dict[str, Any]]] = defaultdict(list)
    for entry in overall:
        if entry["team_id"] is not None:
            section = event_of_team[entry["team_id"]]
        else:
            section = event_of_entrant[entry["entrant_id"]]
        groups[(section, entry["kind"], entry["line"])].append(entry)
    rows: list[dict[str, Any]] = []
    for (section, _kind, _line), entries in groups.items():
        ranks = competition_ranks([entry["percentage"] for entry in entries])
        rows += [
            {**entry, "event_id": section, "rank": rank}
            for entry, rank in zip(entries, ranks, strict=True)
        ]
    return rows


def _column_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):  # COPY text of a boolean
        return "1" if value else "0"
    return str(value)


def _write_rankings(shape: _EventShape, standings: Standings, published: Standings | None) -> None:
    """The event's rankings (and its sections' in a simultaneous), rewritten in bulk.

    ``published``: the standings without the withheld deals, when some are (``standings``, the
    complete ones, are then written as the organisers' rows); ``None``: ``standings`` are public.
    """
    ids = {shape.event.pk, *shape.event_ids}
    RankingEntry.objects.filter(event_id__in=ids).delete()
    rows: list[dict[str, Any]] = []
    sets = [(standings, True)] if published is None else [(standings, False), (published, True)]
    for ranked, public in sets:
        entries = _ranking_entries(shape.event.pk, ranked)
        entries += _section_entries(shape, entries)
        for entry in entries:
            entry["published"] = public
        rows += entries
    if not rows:
        return
    names = list(rows[0])
    columns = [[_column_text(row[name]) for row in rows] for name in names]
    write_rows(RankingEntry._meta.db_table, names, columns)


# ------------------------------------------------------------------------ recompute


@dataclass
class _Computation:
    shape: _EventShape
    version: int  # the event's results_version the results were read at
    base: int | None  # the snapshot version the stored hands were read at (incremental)
    changed_deals: list[int] | None  # Deal pks rescored (None: every deal)
    new_hands: _Scored
    standings: Standings
    entered: dict[tuple[int, int], int] = field(default_factory=dict)  # (event, round) -> count
    all_hands: _Scored | None = None  # every hand of the snapshot, as published
    # Deal numbers withheld from the public (some table has still to play them), the standings
    # of the other deals (what everybody sees; ``None`` when nothing is withheld: then
    # ``standings`` are public), and how many deals the event has.
    withheld: list[int] = field(default_factory=list)
    published: Standings | None = None
    deals_total: int = 0


class _PublishedHands:
    """The hand scores this process last published, per event and snapshot version.

    An incremental recompute from snapshot version S needs the stored hands of every deal
    that did not change; when this process published S itself (the usual case: one worker
    holds an event's lease while results arrive), they are taken from here instead of being
    read back from the database. Keyed by the exact version, and the publish step checks
    that S is still the published snapshot, so a stale entry is never used.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[int, tuple[int, _Scored]] = OrderedDict()
        self.lock = threading.Lock()

    def put(self, event_id: int, version: int, hands: _Scored) -> None:
        with self.lock:
            self.items[event_id] = (version, hands)
            self.items.move_to_end(event_id)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def kept(self, event_id: int, version: int, changed: Sequence[int]) -> _Scored | None:
        """The hands published at ``version`` but those of the deals ``changed`` (pks)."""
        with self.lock:
            entry = self.items.get(event_id)
        if entry is None or entry[0] != version:
            return None
        hands = entry[1]
        keep = ~np.isin(hands.deal_id, np.asarray(changed, dtype=np.int64))
        rows = np.flatnonzero(keep)
        return _Scored(
            hands.hands.take(rows),
            hands.event_id[rows], hands.result_id[rows], hands.deal_id[rows],
            hands.round_number[rows],
        )  # fmt: skip

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_PUBLISHED = _PublishedHands(4)


def forget_published_hands() -> None:
    """Drop the hands kept in memory (the next incremental pass reads them from the database)."""
    _PUBLISHED.clear()


def _entered_per_round(event_ids: Sequence[int]) -> dict[tuple[int, int], int]:
    """Results counted (scored or not played), per (event, round)."""
    counted = (
        TableResult.objects.filter(event_id__in=event_ids)
        .exclude(kind=TableResult.Kind.PLAYED, confirmed=False)
        .order_by()
        .values("event_id", "round_number")
        .annotate(count=Count("id"))
    )
    return {(row["event_id"], row["round_number"]): row["count"] for row in counted}


def _without_deals(scored: _Scored, deal_ids: Sequence[int]) -> _Scored:
    rows = np.flatnonzero(~np.isin(scored.deal_id, np.asarray(deal_ids, dtype=np.int64)))
    return _Scored(
        scored.hands.take(rows),
        scored.event_id[rows], scored.result_id[rows], scored.deal_id[rows],
        scored.round_number[rows],
    )  # fmt: skip


def _compute(event_id: int, *, force: bool, full: bool) -> _Computation | StandingsSnapshot:
    """Read (one consistent snapshot) and compute; the stored snapshot when nothing to do."""
    with consistent_read():
        event = Event.objects.defer("movement").get(pk=event_id)
        if event.simultaneous_id is not None:  # a section's standings are its simultaneous's
            event = Event.objects.defer("movement").get(pk=event.simultaneous_id)
            event_id = event.pk
        snapshot = StandingsSnapshot.objects.filter(event_id=event_id).first()
        if snapshot is not None and not force and snapshot.results_version >= event.results_version:
            return snapshot
        shape = _event_shape(event)
        changed: list[int] | None = None
        if not full and not force and snapshot is not None and snapshot.results_version > 0:
            changed = list(
                TableResult.objects.filter(
                    event_id__in=shape.event_ids, version__gt=snapshot.results_version
                )
                .values_list("deal_id", flat=True)
                .distinct()
                .order_by()
            )
            # A deal is compared across sections: rescore every copy of a changed deal.
            numbers = {shape.deal_number[pk] for pk in changed}
            changed = [pk for pk, number in shape.deal_number.items() if number in numbers]
            if 2 * len(changed) > len(shape.deal_number):
                changed = None  # most deals changed: rescoring everything is as cheap
        results = read_int_columns(_results_query(shape.event_ids, changed), _RESULT_COLUMNS)
        base = snapshot.results_version if changed is not None and snapshot else None
        kept: _Scored | None = None
        if changed is not None and base is not None:
            kept = _PUBLISHED.kept(event_id, base, changed)
            if kept is None:
                stored = read_int_columns(_hands_query(shape.event_ids, changed), _HAND_COLUMNS)
                kept = _stored(shape, stored)
        entered = _entered_per_round(shape.event_ids)
        version = event.results_version
        new_hands = _score(shape, results)
        merged = _merged([new_hands] if kept is None else [kept, new_hands])
        # penalties and teams are read inside the consistent snapshot too
        meta = _ranking_input(shape, _scored_players(merged.hands))
        # the deals the publication rule still withholds from the public
        withheld = sorted(deals_hidden_from(shape.event, directs=False))
        public: _Scored | None = None
        public_meta = meta
        if withheld:
            numbers = set(withheld)
            hidden = [pk for pk, number in shape.deal_number.items() if number in numbers]
            public = _without_deals(merged, hidden)
            public_meta = _ranking_input(shape, _scored_players(public.hands))
    standings = standings_from_hands(meta, merged.hands)
    published = standings_from_hands(public_meta, public.hands) if public is not None else None
    computation = _Computation(shape, version, base, changed, new_hands, standings, entered, merged)
    computation.withheld = withheld
    computation.published = published
    computation.deals_total = len(set(shape.deal_number.values()))
    return computation


def _progress(computation: _Computation) -> dict[str, Any]:
    """Results expected and counted: overall, per round, per section (simultaneous)."""
    shape, entered = computation.shape, computation.entered
    rounds: dict[int, list[int]] = {}
    sections: list[dict[str, Any]] = []
    for member in shape.members:
        member_rounds = []
        for number in member.schedule.round_numbers:
            count = entered.get((member.pk, number), 0)
            expected = results_expected(member, round=number)
            member_rounds.append({"round": number, "entered": count, "expected": expected})
            cell = rounds.setdefault(number, [0, 0])
            cell[0] += count
            cell[1] += expected
        sections.append(
            {
                "event": member.pk,
                "entered": sum(r["entered"] for r in member_rounds),
                "expected": results_expected(member),
                "rounds": member_rounds,
            }
        )
    progress: dict[str, Any] = {
        "expected": sum(section["expected"] for section in sections),
        "entered": sum(entered.values()),
        "rounds": [
            {"round": number, "entered": cell[0], "expected": cell[1]}
            for number, cell in sorted(rounds.items())
        ],
    }
    if len(shape.members) > 1 or shape.members[0].pk != shape.event.pk:
        progress["sections"] = sections
    return progress


def _publish(computation: _Computation, *, force: bool) -> StandingsSnapshot | None:
    """Write the computation as the event's snapshot, unless a newer one was published
    meanwhile (``None`` then). Holds only the snapshot row's lock."""
    shape = computation.shape
    event = shape.event
    outer = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        if outer and is_postgresql():
            # The snapshot is derived data: its commit need not wait for the WAL flush. A
            # crash right after it can only lose this publish, and a lost publish leaves the
            # snapshot behind its event's results_version, which recomputes it again.
            with transaction.get_connection().cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit = off")
        snapshot = StandingsSnapshot.objects.select_for_update().filter(event=event).first()
        if snapshot is None:
            try:
                with transaction.atomic():
                    StandingsSnapshot.objects.create(event=event)
            except IntegrityError:  # created concurrently
                pass
            snapshot = StandingsSnapshot.objects.select_for_update().get(event=event)
        if computation.base is not None:
            if snapshot.results_version != computation.base:
                return None  # the stored hands it merged are no longer the published ones
        elif snapshot.results_version > computation.version or (
            snapshot.results_version == computation.version and not force
        ):
            return None
        hands = HandScore.objects.filter(event_id__in=shape.event_ids)
        if computation.changed_deals is not None:
            hands = hands.filter(deal_id__in=computation.changed_deals)
        hands.delete()  # one DELETE: nothing cascades from hand scores
        names, columns = _hand_rows(shape, computation.new_hands)
        write_rows(HandScore._meta.db_table, names, columns)
        _write_rankings(shape, computation.standings, computation.published)
        progress = _progress(computation)
        expected, entered = progress.pop("expected"), progress.pop("entered")
        snapshot.results_version = computation.version
        snapshot.results_expected = expected
        snapshot.results_entered = entered
        snapshot.complete = expected > 0 and entered >= expected
        public = computation.published or computation.standings
        snapshot.data = {
            "team_basis": public.team_basis,
            "matches": [sheet.to_dict() for sheet in public.matches],
            "deals_total": computation.deals_total,
            "withheld": computation.withheld,
            **progress,
        }
        if computation.published is not None:  # the organisers' complete match sheets
            snapshot.data["matches_all"] = [
                sheet.to_dict() for sheet in computation.standings.matches
            ]
        snapshot.save()
    if computation.all_hands is not None:
        # The hands of a results version are a function of that version's results: caching
        # them under it is safe even if an outer transaction were to roll this one back.
        _PUBLISHED.put(event.pk, computation.version, computation.all_hands)
    return snapshot


def standings_recompute(
    *, event_id: int, force: bool = False, full: bool = False
) -> StandingsSnapshot:
    """Bring the event's snapshot to its current results version (one computation).

    A section's standings are its simultaneous's: ``event_id`` may name either.
    Skips (returns the stored snapshot) when it is already at the event's version, unless
    ``force`` (which also rescores every deal). ``full`` rescores every deal even when only a
    few changed. Never blocks result writers. If a newer snapshot was published while this one
    was computed, returns that one. Raises ``Event.DoesNotExist`` for an unknown event.
    """
    for _attempt in range(3):
        computation = _compute(event_id, force=force, full=full)
        if isinstance(computation, StandingsSnapshot):
            return computation
        event_id = computation.shape.event.pk  # the simultaneous's, for a section
        published = _publish(computation, force=force)
        if published is not None:
            return published
        if computation.base is not None:
            full = True  # the stored hands moved under an incremental pass: rescore all
            continue
        break
    return StandingsSnapshot.objects.get(event_id=event_id)


# ---------------------------------------------------------------------- coalescing


def _state(event_id: int) -> None:
    """Make sure the event's recompute state row exists."""
    if not RecomputeState.objects.filter(event_id=event_id).exists():
        try:
            with transaction.atomic():
                RecomputeState.objects.create(event_id=event_id)
        except IntegrityError:
            pass


def standings_request(*, event_id: int) -> bool:
    """Ask for the event's standings to be recomputed; returns whether a task must be sent.

    True when no recompute task is queued for the event (or the queued one is older than
    :data:`QUEUED_STALE`, so lost): the caller sends one. A task already queued will read
    every result committed before it starts, so none is needed. One statement (an upsert):
    it runs after every result saved.
    """
    now = timezone.now()
    table = RecomputeState._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} AS s (event_id, queued_at, lease_owner) VALUES (%s, %s, '') "
            "ON CONFLICT (event_id) DO UPDATE SET queued_at = EXCLUDED.queued_at "
            "WHERE s.queued_at IS NULL OR s.queued_at < %s RETURNING 1",
            [event_id, now, now - QUEUED_STALE],
        )
        return cursor.fetchone() is not None


def standings_request_failed(*, event_id: int) -> None:
    """The task could not be sent: forget the request, so that the next one sends again."""
    RecomputeState.objects.filter(event_id=event_id).update(queued_at=None)


def recompute_markers_clear() -> int:
    """Forget every queued request and every lease (``RecomputeState``); returns how many
    events had one.

    Only for a server that knows no other recompute can be running or queued: a club's
    instance at its start (``serve`` holds the data folder's lock, so no other runner is
    alive). The markers a runner killed mid-recompute left would otherwise hold the event's
    recomputes back until they expire (:data:`QUEUED_STALE`, :data:`LEASE`). Never on a server
    with workers: their markers are live.
    """
    marked = RecomputeState.objects.filter(
        Q(queued_at__isnull=False) | Q(lease_until__isnull=False) | ~Q(lease_owner="")
    )
    return marked.update(queued_at=None, lease_until=None, lease_owner="")


def _lease(event_id: int, owner: str) -> bool:
    now = timezone.now()
    _state(event_id)
    return (
        RecomputeState.objects.filter(event_id=event_id)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now) | Q(lease_owner=owner))
        .update(lease_until=now + LEASE, lease_owner=owner)
        == 1
    )


def _release(event_id: int, owner: str) -> None:
    RecomputeState.objects.filter(event_id=event_id, lease_owner=owner).update(
        lease_until=None, lease_owner=""
    )


def _behind(event_id: int) -> bool:
    version = Event.objects.filter(pk=event_id).values_list("results_version", flat=True).first()
    if version is None:
        return False
    stored = (
        StandingsSnapshot.objects.filter(event_id=event_id)
        .values_list("results_version", flat=True)
        .first()
    )
    return stored is None or stored < version


def events_behind() -> list[int]:
    """The events whose standings are behind their results: never computed though results
    exist, or a snapshot older than the event's ``results_version`` (sections excluded: their
    simultaneous is the one scored)."""
    snapshots = StandingsSnapshot.objects.filter(event_id=OuterRef("pk"))
    events = Event.objects.filter(simultaneous__isnull=True, results_version__gt=0).annotate(
        stored=Subquery(snapshots.values("results_version")[:1])
    )
    behind = events.filter(Q(stored__isnull=True) | Q(stored__lt=F("results_version")))
    return list(behind.order_by("pk").values_list("pk", flat=True))


def standings_refresh(*, event_id: int) -> int | None:
    """What the recompute task runs: recompute the event until its snapshot is current.

    One worker at a time per event (a lease); a worker that finds the lease taken returns at
    once (the holder looks again before it lets go). Bounded in passes and time. Returns the
    stored snapshot's version (``None`` when there is none, or the event is gone).
    """
    RecomputeState.objects.filter(event_id=event_id).update(queued_at=None)
    owner = uuid.uuid4().hex
    deadline = time.monotonic() + REFRESH_SECONDS
    version: int | None = None
    for _pass in range(REFRESH_PASSES):
        if not Event.objects.filter(pk=event_id).exists():
            return None
        if not _lease(event_id, owner):
            break  # another worker recomputes, and looks again before it lets go
        try:
            while _behind(event_id) and time.monotonic() < deadline:
                version = standings_recompute(event_id=event_id).results_version
                _lease(event_id, owner)  # renew
        finally:
            _release(event_id, owner)
        # A result committed after the last look but before the release found the lease taken
        # and sent nothing that will run: look once more now that the lease is free.
        if not _behind(event_id) or time.monotonic() >= deadline:
            break
    if version is not None and _behind(event_id):
        logger.warning("standings of event %s still behind after a bounded refresh", event_id)
    return (
        StandingsSnapshot.objects.filter(event_id=event_id)
        .values_list("results_version", flat=True)
        .first()
    )

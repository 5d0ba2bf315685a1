"""Standings recompute: load an event's results, call the pure core, write the snapshot.

Vocabulary: the *snapshot* (``StandingsSnapshot`` + its ``HandScore`` and ``RankingEntry`` rows)
is what pages and the API read; it carries the ``results_version`` of the event it was computed
from. Core entrant ids are ``"e<Entrant.pk>"`` for players and ``"t<Team.pk>"`` for teams.

Invariants:

- :func:`standings_recompute` runs in one transaction holding the event row lock
  (``select_for_update``). Result writers bump ``Event.results_version`` in their own
  transaction, so while the lock is held no result can commit: the loaded results are exactly
  those of the version recorded in the snapshot;
- it recomputes from scratch and skips when the snapshot already has the event's version, so a
  duplicated or late (out-of-order) task is harmless and a burst of results coalesces;
- what is scored: played results (confirmed ones when the event asks for a defender's
  confirmation) and artificial scores. A deal *not played* (and an unconfirmed result) counts
  in the deal's scheduled total (Neuberg's N) but is not compared;
- the scheduled count of a deal is the number of (round, table) entries of the movement playing
  its deal set, less the tables where a phantom sits (they play nothing that round).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction

from scoring.core import compute_standings
from scoring.core.model import (
    IMP_THRESHOLDS,
    Match,
    ScoringOptions,
    SeatResult,
    TournamentInput,
)
from scoring.core.model import Penalty as CorePenalty
from scoring.core.model import Team as CoreTeam
from scoring.core.results import Standings
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from tournaments.models import SEATS, Deal, Entrant, Event, Penalty, TableResult, Team

TWO_PLACES = Decimal("0.01")


def entrant_key(entrant_id: int) -> str:
    return f"e{entrant_id}"


def team_key(team_id: int) -> str:
    return f"t{team_id}"


def _key_id(key: str) -> int:
    return int(key[1:])


@dataclass
class EventData:
    """Everything loaded for one recompute, plus the maps needed to write the snapshot back."""

    tournament: TournamentInput
    results: dict[tuple[int, int], dict[str, Any]]  # (deal number, table number) -> row
    deal_ids: dict[int, int]  # deal number -> Deal.pk
    expected: int
    entered: int


def _decimal(value: object) -> Decimal:
    return Decimal(str(value))


def scheduled_plays(event: Event, phantom_slots: set[int]) -> list[tuple[int, int, int]]:
    """(round, table, deal_set) of every table that actually plays (no phantom seated)."""
    plays = []
    for round_entry in (event.movement or {}).get("schedule", []):
        for entry in round_entry.get("tables", []):
            slots = {int(slot) for slot in entry.get("seats", {}).values()}
            if slots & phantom_slots:
                continue
            plays.append((int(round_entry["round"]), int(entry["table"]), int(entry["deal_set"])))
    return plays


def _quadrette_matches(
    event: Event, team_of_slot: dict[int, int | None], phantom_slots: set[int]
) -> list[Match]:
    """Quadrette matches from the movement: in a round, the two tables playing the same deal set
    with the same two teams seated (A's member at B's table is mirrored at the other one).

    Team A is the team seated North at the lower-numbered table.
    """
    matches: list[Match] = []
    for round_entry in (event.movement or {}).get("schedule", []):
        groups: dict[tuple[int, frozenset[int]], list[dict[str, Any]]] = defaultdict(list)
        for entry in round_entry.get("tables", []):
            slots = [int(s) for s in entry.get("seats", {}).values()]
            if set(slots) & phantom_slots:
                continue
            teams = {team_of_slot.get(s) for s in slots}
            if None in teams or len(teams) != 2:
                continue
            key = (int(entry["deal_set"]), frozenset(t for t in teams if t is not None))
            groups[key].append(entry)
        for (_deal_set, teams), entries in groups.items():
            if len(entries) != 2:
                continue
            first, second = sorted(entries, key=lambda e: int(e["table"]))
            team_a = team_of_slot.get(int(first["seats"]["N"]))
            if team_a is None:
                continue
            (team_b,) = teams - {team_a}
            matches.append(
                Match(
                    id=f"r{round_entry['round']}-t{first['table']}-{second['table']}",
                    team_a=team_key(team_a),
                    team_b=team_key(team_b),
                    tables=(int(first["table"]), int(second["table"])),
                )
            )
    return matches


def event_scoring_input(event: Event) -> EventData:
    """Build the core's input from the stored results (one query for the results)."""
    entrants = list(
        Entrant.objects.filter(event=event).values("id", "slot", "phantom", "line", "team_id")
    )
    phantom_slots = {e["slot"] for e in entrants if e["phantom"]}
    deals = list(Deal.objects.filter(event=event).values("id", "number", "deal_set"))
    deal_ids = {d["number"]: d["id"] for d in deals}
    plays = scheduled_plays(event, phantom_slots)
    tables_per_set: dict[int, int] = defaultdict(int)
    for _round, _table, deal_set in plays:
        tables_per_set[deal_set] += 1
    scheduled = {
        d["number"]: tables_per_set[d["deal_set"]] for d in deals if tables_per_set[d["deal_set"]]
    }
    expected = sum(scheduled.values())

    rows = list(
        TableResult.objects.filter(event=event).values(
            "id", "kind", "confirmed", "director_assigned", "round_number", "deal_id",
            "deal__number", "table__number", "seat_n_id", "seat_e_id", "seat_s_id", "seat_w_id",
            "mark_n", "mark_e", "mark_s", "mark_w",
            "artificial_n", "artificial_e", "artificial_s", "artificial_w",
        )
    )  # fmt: skip
    records: list[SeatResult] = []
    results: dict[tuple[int, int], dict[str, Any]] = {}
    entered = 0
    for row in rows:
        deal, table = row["deal__number"], row["table__number"]
        results[(deal, table)] = row
        kind = row["kind"]
        if kind == TableResult.Kind.PLAYED and not row["confirmed"]:
            continue
        entered += 1
        if kind == TableResult.Kind.NOT_PLAYED:
            continue
        for seat in SEATS:
            lower = seat.lower()
            entrant_id = row[f"seat_{lower}_id"]
            if entrant_id is None:
                continue
            if kind == TableResult.Kind.PLAYED:
                records.append(SeatResult(deal=deal, table=table, seat=seat,
                                          entrant=entrant_key(entrant_id),
                                          mark=row[f"mark_{lower}"],
                                          director=row["director_assigned"]))  # fmt: skip
            else:
                records.append(SeatResult(deal=deal, table=table, seat=seat,
                                          entrant=entrant_key(entrant_id),
                                          artificial=_decimal(row[f"artificial_{lower}"]),
                                          director=True))  # fmt: skip

    # A penalty on a player without any scored deal yet waits until he has one (the core ranks
    # only players with results and refuses a penalty naming anybody else).
    # Likewise a team is ranked (and its penalty applied) once one of its members has a result:
    # early in a team event most teams have none yet, and the live standings must still update.
    scored_players = {record.entrant for record in records}
    teams: list[CoreTeam] = []
    matches: list[Match] = []
    if event.is_team_event:
        members: dict[int, list[str]] = defaultdict(list)
        for e in entrants:
            if e["team_id"] and not e["phantom"]:
                members[e["team_id"]].append(entrant_key(e["id"]))
        teams = [
            CoreTeam(id=team_key(t.pk), members=tuple(members[t.pk]), name=t.name)
            for t in Team.objects.filter(event=event).order_by("number")
            if scored_players.intersection(members[t.pk])
        ]
    ranked_teams = {team.id for team in teams}
    penalties = [
        CorePenalty(
            entrant=entrant_key(p.entrant_id) if p.entrant_id else team_key(p.team_id or 0),
            points=_decimal(p.points),
            reason=p.reason,
        )
        for p in Penalty.objects.filter(event=event)
        if (p.entrant_id is not None and entrant_key(p.entrant_id) in scored_players)
        or (p.team_id is not None and team_key(p.team_id) in ranked_teams)
    ]
    if event.format == Event.Format.QUADRETTE:
        team_of_slot = {e["slot"]: e["team_id"] for e in entrants}
        matches = [
            match
            for match in _quadrette_matches(event, team_of_slot, phantom_slots)
            if match.team_a in ranked_teams and match.team_b in ranked_teams
        ]
    line_movement = (event.movement or {}).get("kind") == "line"
    lines = {entrant_key(e["id"]): e["line"] for e in entrants if e["line"]}
    options = ScoringOptions(
        pm_scale=tuple(int(t) for t in event.pm_scale) if event.pm_scale else IMP_THRESHOLDS,
        team_ranking="vp" if event.ranking == Event.Ranking.VP else "pm",
        rank_by_line=line_movement and bool(lines),
    )
    tournament = TournamentInput.from_results(
        records,
        scheduled=scheduled,
        penalties=penalties,
        teams=teams,
        matches=matches,
        lines=lines,
        options=options,
    )
    return EventData(tournament=tournament, results=results, deal_ids=deal_ids,
                     expected=expected, entered=entered)  # fmt: skip


def _fraction_decimal(value: Fraction | None) -> Decimal | None:
    if value is None:
        return None
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        TWO_PLACES, rounding=ROUND_HALF_UP
    )


def _hand_score_rows(event: Event, data: EventData, standings: Standings) -> Iterable[HandScore]:
    for hand in standings.hands:
        result = data.results[(hand.deal, hand.table)]
        yield HandScore(
            event=event,
            result_id=result["id"],
            deal_id=result["deal_id"],
            entrant_id=_key_id(hand.entrant),
            table_number=hand.table,
            round_number=result["round_number"],
            seat=hand.seat,
            mark=hand.mark,
            matchpoints=_fraction_decimal(hand.matchpoints),
            top=None if hand.top is None else Decimal(hand.top),
            percentage=hand.percentage,
            artificial=hand.artificial,
        )


def _ranking_rows(event: Event, standings: Standings) -> Iterable[RankingEntry]:
    for row in standings.individual:
        common = {
            "event": event,
            "entrant_id": _key_id(row.entrant),
            "percentage": row.percentage,
            "penalty": row.penalty,
            "marks_total": row.marks,
            "deals_played": row.deals,
        }
        yield RankingEntry(kind=RankingEntry.Kind.INDIVIDUAL, rank=row.rank, **common)
        if row.line_rank is not None and row.line:
            yield RankingEntry(kind=RankingEntry.Kind.LINE, line=row.line, rank=row.line_rank,
                               **common)  # fmt: skip
    for team in standings.teams:
        yield RankingEntry(
            event=event,
            kind=RankingEntry.Kind.TEAM,
            rank=team.rank,
            team_id=_key_id(team.team),
            percentage=team.percentage,
            penalty=team.penalty,
            marks_total=team.marks,
            deals_played=team.entries,
            points_de_match=team.pm,
            victory_points=team.vp,
        )


def standings_recompute(*, event_id: int, force: bool = False) -> StandingsSnapshot:
    """Recompute the event's standings from scratch and write the snapshot (one transaction).

    Skips (returns the stored snapshot untouched) when it is already at the event's
    ``results_version``, unless ``force``. Raises ``Event.DoesNotExist`` for an unknown event.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        snapshot, created = StandingsSnapshot.objects.get_or_create(event=event)
        if not created and not force and snapshot.results_version == event.results_version:
            return snapshot
        data = event_scoring_input(event)
        standings = compute_standings(data.tournament)
        HandScore.objects.filter(event=event).delete()
        RankingEntry.objects.filter(event=event).delete()
        HandScore.objects.bulk_create(_hand_score_rows(event, data, standings), batch_size=2000)
        RankingEntry.objects.bulk_create(_ranking_rows(event, standings), batch_size=2000)
        snapshot.results_version = event.results_version
        snapshot.results_expected = data.expected
        snapshot.results_entered = data.entered
        snapshot.complete = data.expected > 0 and data.entered >= data.expected
        snapshot.data = {
            "team_basis": standings.team_basis,
            "matches": [sheet.to_dict() for sheet in standings.matches],
        }
        snapshot.save()
    return snapshot

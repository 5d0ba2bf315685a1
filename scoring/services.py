"""Standings recompute: load an event's results, call the pure core, write the snapshot.

Vocabulary: the *snapshot* (``StandingsSnapshot`` + its ``HandScore`` and ``RankingEntry`` rows)
is what pages and the API read; it carries the ``results_version`` of the event it was computed
from, the results expected and counted (``scoring.selectors.results_expected``, overall and per
round) and the quadrette match sheets. Core entrant ids are ``"e<Entrant.pk>"`` for players and
``"t<Team.pk>"`` for teams (``scoring.models.entrant_key`` / ``team_key``).

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
- the scheduled count of a deal is the number of tables of the movement that really play its
  deal set (``Schedule.tables_per_deal_set``: a table where a phantom sits plays nothing).
"""

from __future__ import annotations

from collections import Counter, defaultdict
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
from scoring.models import (
    HandScore,
    RankingEntry,
    StandingsSnapshot,
    entrant_key,
    key_pk,
    team_key,
)
from scoring.selectors import results_expected
from tournaments.models import SEATS, Deal, Entrant, Event, Penalty, TableResult, Team
from tournaments.movements import Schedule, TablePlay

TWO_PLACES = Decimal("0.01")


@dataclass
class EventData:
    """Everything loaded for one recompute, plus the maps needed to write the snapshot back."""

    tournament: TournamentInput
    results: dict[tuple[int, int], dict[str, Any]]  # (deal number, table number) -> row
    deal_ids: dict[int, int]  # deal number -> Deal.pk
    entered: Counter[int]  # round number -> results counted (scored or not played)


def _decimal(value: object) -> Decimal:
    return Decimal(str(value))


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


def event_scoring_input(event: Event) -> EventData:
    """Build the core's input from the stored results (one query for the results)."""
    entrants = list(
        Entrant.objects.filter(event=event).values("id", "slot", "phantom", "line", "team_id")
    )
    schedule = event.schedule
    deals = list(Deal.objects.filter(event=event).values("id", "number", "deal_set"))
    deal_ids = {d["number"]: d["id"] for d in deals}
    tables_per_set = schedule.tables_per_deal_set()
    scheduled = {
        d["number"]: tables_per_set[d["deal_set"]] for d in deals if tables_per_set[d["deal_set"]]
    }

    rows: list[dict[str, Any]] = list(
        TableResult.objects.filter(event=event).values(  # type: ignore[arg-type]
            "id", "kind", "confirmed", "director_assigned", "round_number", "deal_id",
            "deal__number", "table__number", "seat_n_id", "seat_e_id", "seat_s_id", "seat_w_id",
            "mark_n", "mark_e", "mark_s", "mark_w",
            "artificial_n", "artificial_e", "artificial_s", "artificial_w",
        )
    )  # fmt: skip
    records: list[SeatResult] = []
    results: dict[tuple[int, int], dict[str, Any]] = {}
    entered: Counter[int] = Counter()  # counted results per round
    for row in rows:
        deal, table = row["deal__number"], row["table__number"]
        results[(deal, table)] = row
        kind = row["kind"]
        if kind == TableResult.Kind.PLAYED and not row["confirmed"]:
            continue
        entered[row["round_number"]] += 1
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
        rank_by_line=schedule.kind == "line" and bool(lines),
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
                     entered=entered)  # fmt: skip


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
            entrant_id=key_pk(hand.entrant),
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
            "entrant_id": key_pk(row.entrant),
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
            team_id=key_pk(team.team),
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
        expected, entered = results_expected(event), sum(data.entered.values())
        snapshot.results_version = event.results_version
        snapshot.results_expected = expected
        snapshot.results_entered = entered
        snapshot.complete = expected > 0 and entered >= expected
        snapshot.data = {
            "team_basis": standings.team_basis,
            "matches": [sheet.to_dict() for sheet in standings.matches],
            "rounds": [
                {
                    "round": number,
                    "entered": data.entered[number],
                    "expected": results_expected(event, round=number),
                }
                for number in event.schedule.round_numbers
            ],
        }
        snapshot.save()
    return snapshot

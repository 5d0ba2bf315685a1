"""The reference path: the rulebook written as plain Python, one hand at a time.

It is slow (quadratic in the results of a hand) and obviously right; the vectorised path
(:mod:`scoring.core.vectorised`) must agree with it exactly, which the tests check on random
tournaments.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np

from scoring.core.arith import (
    exact_percentage,
    neuberg_matchpoints,
    round_half_up_hundredths,
)
from scoring.core.assemble import EntrantTotal, check_structure, finish, individual_rows
from scoring.core.model import SEAT_INDEX, ScoringInputError, SeatResult, TournamentInput
from scoring.core.results import HandScores, Standings


def check_seat_results(records: list[SeatResult]) -> None:
    """No seat filled twice at a table, no entrant holding two seats on one deal."""
    seats_taken: set[tuple[int, int, str]] = set()
    seat_of: dict[tuple[int, str], tuple[int, str]] = {}
    for record in records:
        where = (record.deal, record.table, record.seat)
        if where in seats_taken:
            raise ScoringInputError(
                f"deal {record.deal}, table {record.table}, seat {record.seat}: two results"
            )
        seats_taken.add(where)
        if seat_of.setdefault((record.deal, record.entrant), where[1:]) != where[1:]:
            raise ScoringInputError(f"deal {record.deal}: entrant {record.entrant} holds two seats")


def compute_standings_reference(tournament: TournamentInput) -> Standings:
    """Score the tournament hand by hand, as the rulebook reads."""
    records = tournament.seats.records()
    check_seat_results(records)
    structure = check_structure(tournament, {record.entrant for record in records})

    hands: dict[tuple[int, str], list[SeatResult]] = defaultdict(list)
    for record in records:
        hands[(record.deal, record.seat)].append(record)

    # (record) -> (mp_num, mp_den, top, percentage in hundredths, exact percentage)
    scored: dict[int, tuple[int, int, int, int, Fraction]] = {}
    for (deal, seat), results in hands.items():
        scheduled = tournament.scheduled.get(deal, len(results))
        if len(results) > scheduled:
            raise ScoringInputError(
                f"deal {deal}: scheduled {scheduled} times but seat {seat} has "
                f"{len(results)} results"
            )
        # n: the real results of the hand (an artificial score has no mark)
        real_marks = [result.mark for result in results if result.mark is not None]
        real = len(real_marks)
        for result in results:
            if result.mark is None:  # artificial: the given percentage, outside the comparison
                exact = Fraction(result.artificial or 0)
                scored[id(result)] = (0, 0, 0, round_half_up_hundredths(exact), exact)
                continue
            mark = result.mark
            beaten = sum(1 for other in real_marks if other < mark)
            tied = sum(1 for other in real_marks if other == mark) - 1  # not itself
            matchpoints = 2 * beaten + tied
            if scheduled == 1:
                mp_num, mp_den, top = 0, 1, 0
            else:
                mp_num, mp_den = neuberg_matchpoints(matchpoints, real, scheduled)
                top = 2 * (scheduled - 1)
            exact = exact_percentage(mp_num, mp_den, top)
            scored[id(result)] = (mp_num, mp_den, top, round_half_up_hundredths(exact), exact)

    ordered = sorted(records, key=lambda r: (r.deal, r.table, SEAT_INDEX[r.seat]))
    entrant_ids = tournament.seats.entrant_ids
    index_of = {entrant: index for index, entrant in enumerate(entrant_ids)}
    hand_scores = HandScores(
        deal=np.array([r.deal for r in ordered], dtype=np.int64),
        table=np.array([r.table for r in ordered], dtype=np.int64),
        seat=np.array([SEAT_INDEX[r.seat] for r in ordered], dtype=np.int64),
        entrant=np.array([index_of[r.entrant] for r in ordered], dtype=np.int64),
        mark=np.array([r.mark or 0 for r in ordered], dtype=np.int64),
        artificial=np.array([r.artificial is not None for r in ordered], dtype=np.bool_),
        director=np.array([r.director for r in ordered], dtype=np.bool_),
        mp_num=np.array([scored[id(r)][0] for r in ordered], dtype=np.int64),
        mp_den=np.array([scored[id(r)][1] for r in ordered], dtype=np.int64),
        top=np.array([scored[id(r)][2] for r in ordered], dtype=np.int64),
        percentage=np.array([scored[id(r)][3] for r in ordered], dtype=np.int64),
        entrant_ids=entrant_ids,
    )

    def totals_of(entrant: str, entries: list[SeatResult], penalty: int) -> EntrantTotal:
        mean = sum((scored[id(r)][4] for r in entries), Fraction(0)) / len(entries)
        return EntrantTotal(
            entrant=entrant,
            percentage=round_half_up_hundredths(mean - Fraction(penalty, 100)),
            penalty=penalty,
            marks=sum(r.mark or 0 for r in entries if r.artificial is None),
            deals=len(entries),
        )

    by_player: dict[str, list[SeatResult]] = defaultdict(list)
    for record in records:
        by_player[record.entrant].append(record)
    individual = [
        totals_of(player, entries, structure.player_penalty.get(player, 0))
        for player, entries in by_player.items()
    ]

    team_totals: dict[str, EntrantTotal] = {}
    for team in tournament.teams:
        entries = [r for member in team.members for r in by_player.get(member, [])]
        if not entries:
            raise ScoringInputError(f"team {team.id}: none of its members has a result")
        team_totals[team.id] = totals_of(team.id, entries, structure.team_penalty.get(team.id, 0))

    ranking = individual_rows(individual, tournament.lines, tournament.options, tournament.names)
    return finish(tournament, hand_scores, ranking, team_totals, records)

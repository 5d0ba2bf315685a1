"""Parts shared by the reference and the vectorised paths: structure checks, ranking rows,
quadrette match sheets (PM scale, WBF victory points) and the team ranking.

Ranking [default]: by the rounded key, best first; equal keys share the rank (competition
ranking 1, 2, 2, 4); entrants of a shared rank are listed in French order of their names, then
by id (:func:`scoring.core.model.tie_order`), so the output is deterministic.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from rules.names import text_sort_key
from scoring.core.arith import competition_ranks, hundredths_to_decimal
from scoring.core.model import (
    Match,
    ScoringInputError,
    ScoringOptions,
    SeatResult,
    Team,
    TournamentInput,
    points_hundredths,
    tie_order,
)
from scoring.core.results import (
    DealPM,
    HandScores,
    IndividualRow,
    MatchSheet,
    Standings,
    TeamBasis,
    TeamRow,
)


@dataclass(frozen=True)
class Structure:
    """Checked teams and penalties: who belongs to which team, penalty totals in hundredths."""

    team_of_player: Mapping[str, int]
    player_penalty: Mapping[str, int]
    team_penalty: Mapping[str, int]


def check_structure(tournament: TournamentInput, players_with_results: set[str]) -> Structure:
    """Check teams, matches and penalties against each other and against the players."""
    team_index: dict[str, int] = {}
    team_of_player: dict[str, int] = {}
    for index, team in enumerate(tournament.teams):
        if team.id in team_index:
            raise ScoringInputError(f"team {team.id}: listed twice")
        if team.id in players_with_results:
            raise ScoringInputError(f"team {team.id}: the id is also a player's id")
        team_index[team.id] = index
        for member in team.members:
            if member in team_of_player:
                other = tournament.teams[team_of_player[member]].id
                raise ScoringInputError(f"team {team.id}: {member} is already in team {other}")
            team_of_player[member] = index
    match_ids: set[str] = set()
    for match in tournament.matches:
        if match.id in match_ids:
            raise ScoringInputError(f"match {match.id}: listed twice")
        match_ids.add(match.id)
        for team_id in (match.team_a, match.team_b):
            if team_id not in team_index:
                raise ScoringInputError(f"match {match.id}: unknown team {team_id}")
    player_penalty: dict[str, int] = defaultdict(int)
    team_penalty: dict[str, int] = defaultdict(int)
    for penalty in tournament.penalties:
        amount = points_hundredths(penalty.points, f"penalty of {penalty.entrant}")
        if penalty.entrant in team_index:
            team_penalty[penalty.entrant] += amount
        elif penalty.entrant in players_with_results:
            player_penalty[penalty.entrant] += amount
        else:
            raise ScoringInputError(
                f"penalty: {penalty.entrant} is neither a player with results nor a team"
            )
    return Structure(team_of_player, dict(player_penalty), dict(team_penalty))


@dataclass(frozen=True)
class EntrantTotal:
    """What a ranking row is made of, before ranking (percentages in hundredths)."""

    entrant: str
    percentage: int
    penalty: int
    marks: int
    deals: int


def _ranked(
    totals: Iterable[EntrantTotal], names: Mapping[str, str]
) -> list[tuple[int, EntrantTotal]]:
    ordered = sorted(
        totals, key=lambda total: (-total.percentage, *tie_order(total.entrant, names))
    )
    ranks = competition_ranks([total.percentage for total in ordered])
    return list(zip(ranks, ordered, strict=True))


def individual_rows(
    totals: Sequence[EntrantTotal],
    lines: Mapping[str, str],
    options: ScoringOptions,
    names: Mapping[str, str],
) -> tuple[IndividualRow, ...]:
    """The individual ranking, with per-line ranks when ``options.rank_by_line``."""
    line_rank: dict[str, int] = {}
    if options.rank_by_line:
        by_line: dict[str, list[EntrantTotal]] = defaultdict(list)
        for total in totals:
            line = lines.get(total.entrant)
            if line is not None:
                by_line[line].append(total)
        for members in by_line.values():
            for rank, total in _ranked(members, names):
                line_rank[total.entrant] = rank
    return tuple(
        IndividualRow(
            rank=rank,
            entrant=total.entrant,
            percentage=hundredths_to_decimal(total.percentage),
            penalty=hundredths_to_decimal(total.penalty),
            marks=total.marks,
            deals=total.deals,
            line=lines.get(total.entrant),
            line_rank=line_rank.get(total.entrant),
        )
        for rank, total in _ranked(totals, names)
    )


def pm_from_net(net: int, scale: Sequence[int]) -> int:
    """Points de match of a net: how many thresholds ``|net|`` reaches, signed like the net."""
    magnitude = bisect_right(scale, abs(net))
    return magnitude if net >= 0 else -magnitude


_GOLDEN_CUBE = ((math.sqrt(5) - 1) / 2) ** 3


def wbf_victory_points(pm_margin: int, deals: int) -> tuple[Decimal, Decimal]:
    """WBF continuous 20-VP scale for a match margin over ``deals`` deals: ``(vp_a, vp_b)``.

    ``B = 15·√deals``, ``r = ((√5 − 1)/2)³``, winner ``min(20, 10 + 10(1 − r^(|PM|/B))/(1 − r))``
    rounded half-up to 0.01 (a float rounded to a decimal: the only float in the core), loser
    ``20 − winner``.
    """
    if deals <= 0 or pm_margin == 0:
        return Decimal("10.00"), Decimal("10.00")
    blowout = 15 * math.sqrt(deals)
    winner_float = min(
        20.0, 10 + 10 * (1 - _GOLDEN_CUBE ** (abs(pm_margin) / blowout)) / (1 - _GOLDEN_CUBE)
    )
    winner = Decimal(repr(winner_float)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    loser = Decimal(20) - winner
    return (winner, loser) if pm_margin > 0 else (loser, winner)


def match_sheets(
    records: Iterable[SeatResult],
    teams: Sequence[Team],
    matches: Sequence[Match],
    options: ScoringOptions,
) -> tuple[MatchSheet, ...]:
    """Quadrette match sheets from the seat results (only those at match tables matter).

    Per deal, A's net = sum of A members' marks over the match's two tables; B's net is the
    opposite. A deal without a real result at both tables gets net ``None`` and PM 0.
    """
    by_id = {team.id: team for team in teams}
    match_tables = {table for match in matches for table in match.tables}
    at_tables: dict[int, list[SeatResult]] = defaultdict(list)
    for record in records:
        if record.table in match_tables:
            at_tables[record.table].append(record)
    sheets: list[MatchSheet] = []
    for match in matches:
        members_a = set(by_id[match.team_a].members)
        members_b = set(by_id[match.team_b].members)
        players = members_a | members_b
        # (deal, table) -> seat results of the two teams' members there
        cells: dict[tuple[int, int], list[SeatResult]] = defaultdict(list)
        for table in match.tables:
            for record in at_tables[table]:
                if record.entrant in players:
                    cells[(record.deal, table)].append(record)
        # The same tables host other matches in other rounds: a (deal, table) belongs to this
        # match only when everybody seated there is a member of one of its two teams.
        seated: dict[tuple[int, int], int] = defaultdict(int)
        for table in match.tables:
            for record in at_tables[table]:
                seated[(record.deal, table)] += 1
        cells = defaultdict(list, {key: v for key, v in cells.items() if len(v) == seated[key]})
        deal_numbers = sorted({deal for deal, _ in cells})
        deals: list[DealPM] = []
        for deal in deal_numbers:
            seats_here = [cells.get((deal, table), []) for table in match.tables]
            complete = all(
                seats and all(seat.artificial is None for seat in seats) for seats in seats_here
            )
            if not complete:
                deals.append(DealPM(deal=deal, net_a=None, pm_a=0))
                continue
            net_a = sum(
                int(seat.mark or 0)
                for seats in seats_here
                for seat in seats
                if seat.entrant in members_a
            )
            deals.append(DealPM(deal=deal, net_a=net_a, pm_a=pm_from_net(net_a, options.pm_scale)))
        pm_a = sum(deal.pm_a for deal in deals)
        vp_a, vp_b = wbf_victory_points(pm_a, len(deals))
        sheets.append(
            MatchSheet(
                match=match.id,
                round=match.round,
                team_a=match.team_a,
                team_b=match.team_b,
                tables=match.tables,
                deals=tuple(deals),
                pm_a=pm_a,
                pm_b=-pm_a,
                vp_a=vp_a,
                vp_b=vp_b,
            )
        )
    return tuple(sheets)


def team_rows(
    teams: Sequence[Team],
    totals: Mapping[str, EntrantTotal],
    sheets: Sequence[MatchSheet],
    basis: TeamBasis,
) -> tuple[TeamRow, ...]:
    """The team ranking by percentage (triplettes), total PM or total VP (quadrettes)."""
    has_matches = bool(sheets) or basis != "percentage"
    pm: dict[str, int] = defaultdict(int)
    vp: dict[str, Decimal] = defaultdict(Decimal)
    played: dict[str, int] = defaultdict(int)
    for sheet in sheets:
        for team_id, pm_side, vp_side in (
            (sheet.team_a, sheet.pm_a, sheet.vp_a),
            (sheet.team_b, sheet.pm_b, sheet.vp_b),
        ):
            pm[team_id] += pm_side
            vp[team_id] += vp_side
            played[team_id] += 1

    def key(team: Team) -> int:
        if basis == "pm":
            return pm[team.id]
        if basis == "vp":
            return int(vp[team.id] * 100)
        return totals[team.id].percentage

    team_names = {team.id: text_sort_key(team.name) for team in teams}
    ordered = sorted(teams, key=lambda team: (-key(team), *tie_order(team.id, team_names)))
    ranks = competition_ranks([key(team) for team in ordered])
    rows = []
    for rank, team in zip(ranks, ordered, strict=True):
        total = totals[team.id]
        rows.append(
            TeamRow(
                rank=rank,
                team=team.id,
                name=team.name,
                members=team.members,
                percentage=hundredths_to_decimal(total.percentage),
                penalty=hundredths_to_decimal(total.penalty),
                marks=total.marks,
                entries=total.deals,
                pm=pm[team.id] if has_matches else None,
                vp=vp[team.id].quantize(Decimal("0.01")) if has_matches else None,
                matches=played[team.id],
            )
        )
    return tuple(rows)


def finish(
    tournament: TournamentInput,
    hands: HandScores,
    individual: tuple[IndividualRow, ...],
    team_totals: Mapping[str, EntrantTotal],
    match_records: Iterable[SeatResult],
) -> Standings:
    """Assemble the standings from the hand scores, the individual ranking and the team
    totals computed by either path."""
    options = tournament.options
    sheets = match_sheets(match_records, tournament.teams, tournament.matches, options)
    basis: TeamBasis | None
    if not tournament.teams:
        basis = None
    elif tournament.matches:
        basis = options.team_ranking
    else:
        basis = "percentage"
    teams = team_rows(tournament.teams, team_totals, sheets, basis) if basis else ()
    return Standings(
        hands=hands,
        individual=individual,
        teams=teams,
        matches=sheets,
        team_basis=basis,
    )

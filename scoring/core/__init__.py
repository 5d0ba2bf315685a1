"""The duplicate comparison core: matchpoints, Neuberg, percentages, rankings, team PM/VP.

Pure Python + NumPy; no Django. It works from **marks** (the seat scores computed by
``rules.scoring``), never from card play. Specification: ``docs/domain/duplicate.md``.

Public API
==========

Entry point::

    compute_standings(tournament: TournamentInput, *,
                      method: Literal["vectorised", "reference"] = "vectorised") -> Standings

Incremental use (the same result in two halves)::

    hand_scores(tournament) -> HandScores         # per deal: depends on that deal's results only
    merge_hand_scores([HandScores, ...]) -> HandScores   # disjoint deals, one set
    standings_from_hands(tournament, hands) -> Standings # rankings, teams, matches

``standings_from_hands(t, merge_hand_scores([hand_scores(t1), hand_scores(t2)]))`` equals
``compute_standings(t)`` when ``t1`` and ``t2`` split ``t``'s results by deal.

``method="reference"`` runs the readable rulebook path (:mod:`scoring.core.reference`), the
default runs the NumPy path (:mod:`scoring.core.vectorised`); both give identical standings.
Invalid input raises :class:`ScoringInputError` (a ``ValueError``) with a one-line message.

Input (frozen dataclasses, :mod:`scoring.core.model`)::

    SeatResult(deal: int, table: int, seat: "N"|"E"|"S"|"W", entrant: str,
               mark: int | None = None, artificial: Decimal | None = None,
               director: bool = False)          # mark xor artificial (0..100, ≤ 2 decimals)
    SeatColumns(deal, table, seat, entrant, mark, artificial, director: int64/bool arrays,
                entrant_ids: tuple[str, ...])   # columnar form; seat = index in SEATS,
                                                # artificial in hundredths or -1 when real
    SeatColumns.from_results(results: Iterable[SeatResult]) -> SeatColumns
    Penalty(entrant: str, points: Decimal, reason: str = "")   # percentage points
    Team(id: str, members: tuple[str, ...], name: str = "")
    Match(id: str, team_a: str, team_b: str, tables: tuple[int, int], round: int = 0)
    ScoringOptions(pm_scale: tuple[int, ...] = IMP_THRESHOLDS,
                   team_ranking: "pm" | "vp" = "pm", rank_by_line: bool = False)
    TournamentInput(seats: SeatColumns, scheduled: Mapping[int, int] = {},
                    penalties: tuple[Penalty, ...] = (), teams: tuple[Team, ...] = (),
                    matches: tuple[Match, ...] = (), lines: Mapping[str, str] = {},
                    options: ScoringOptions = ScoringOptions(),
                    names: Mapping[str, str] = {})   # ties: rules.names sort keys
    TournamentInput.from_results(results, *, scheduled=None, penalties=(), teams=(),
                                 matches=(), lines=None, options=None, names=None)

Output (frozen dataclasses with ``to_dict()``, :mod:`scoring.core.results`)::

    Standings(hands: HandScores, individual: tuple[IndividualRow, ...],
              teams: tuple[TeamRow, ...], matches: tuple[MatchSheet, ...],
              team_basis: "percentage" | "pm" | "vp" | None)
    HandScores  — columns, ordered by (deal, table, seat); iterate for HandScore records;
                  .for_deal(deal) -> list[HandScore]; len()
    HandScore(deal, table, seat, entrant, mark: int | None, matchpoints: Fraction | None,
              top: int | None, percentage: Decimal, artificial: bool, director: bool)
              .exact_percentage -> Fraction
    IndividualRow(rank, entrant, percentage: Decimal, penalty: Decimal, marks: int,
                  deals: int, line: str | None, line_rank: int | None)
    TeamRow(rank, team, name, members, percentage: Decimal, penalty: Decimal, marks: int,
            entries: int, pm: int | None, vp: Decimal | None, matches: int)
    MatchSheet(match, round: int, team_a, team_b, tables, deals: tuple[DealPM, ...],
               pm_a: int, pm_b: int, vp_a: Decimal, vp_b: Decimal)
    DealPM(deal: int, net_a: int | None, pm_a: int)

Rules applied (each hand = deal × seat; docs/domain/duplicate.md)
====================================================

- Real results of a hand (director-assigned ones included) are compared by mark:
  ``mp = 2·(results beaten) + 1·(other results tied)``, ``top = 2(n − 1)``.
- Scheduled ``N`` (``TournamentInput.scheduled[deal]``, default: the number of results of the
  hand, real or artificial) larger than the real results ``n``: Neuberg
  ``mp' = (mp + 1)·N/n − 1``, ``top = 2(N − 1)``. A hand scheduled once scores 50.
- Artificial percentages (60/50/40 or any) count in N but not in n and are used as given.
- Percentages are exact fractions, published rounded half-up to 0.01.
- Player percentage = mean of his hand percentages (exact) − penalties, rounded to 0.01;
  ``marks`` = sum of his real marks. Ranking by the rounded percentage, descending;
  equal percentages share the rank (1, 2, 2, 4); ties listed in French order of the
  names (``names``), then by entrant id; equal teams by their names alike.
- Team (triplette) percentage = mean of all its members' (member, deal) percentages − team
  penalties. A penalty applies to the player or team whose id it names.
- Quadrette match: per deal, A's net = sum of A members' marks at the match's two tables;
  PM = signed number of ``pm_scale`` thresholds reached; match PM = Σ deal PM (B gets −A);
  WBF victory points per match; teams ranked by total PM [default] or total VP.
"""

from __future__ import annotations

from typing import Literal

from scoring.core.assemble import pm_from_net, wbf_victory_points
from scoring.core.model import (
    IMP_THRESHOLDS,
    SEATS,
    Match,
    Penalty,
    ScoringInputError,
    ScoringOptions,
    SeatColumns,
    SeatResult,
    Team,
    TournamentInput,
)
from scoring.core.reference import compute_standings_reference
from scoring.core.results import (
    DealPM,
    HandScore,
    HandScores,
    IndividualRow,
    MatchSheet,
    Standings,
    TeamRow,
    empty_hand_scores,
    merge_hand_scores,
)
from scoring.core.vectorised import compute_standings_vectorised, hand_scores, standings_from_hands


def compute_standings(
    tournament: TournamentInput,
    *,
    method: Literal["vectorised", "reference"] = "vectorised",
) -> Standings:
    """Compare every hand and rank players (and teams): the core's single entry point."""
    if method == "reference":
        return compute_standings_reference(tournament)
    if method == "vectorised":
        return compute_standings_vectorised(tournament)
    raise ValueError(f"unknown method {method!r}")


__all__ = [
    "IMP_THRESHOLDS",
    "SEATS",
    "DealPM",
    "HandScore",
    "HandScores",
    "IndividualRow",
    "Match",
    "MatchSheet",
    "Penalty",
    "ScoringInputError",
    "ScoringOptions",
    "SeatColumns",
    "SeatResult",
    "Standings",
    "Team",
    "TeamRow",
    "TournamentInput",
    "compute_standings",
    "empty_hand_scores",
    "hand_scores",
    "merge_hand_scores",
    "pm_from_net",
    "standings_from_hands",
    "wbf_victory_points",
]

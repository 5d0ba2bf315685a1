"""Reads of the published standings (pages, API, exports): snapshot rows only.

Every selector owns its ``select_related``: one query per list, none per row.

``snapshot_status(event)`` says how to label what is shown:

- ``"none"``: never computed;
- ``"behind"``: the snapshot is older than the event's results (a recompute is pending);
- ``"provisional"``: up to date, but results are still missing or the event is not finished;
- ``"complete"``: up to date, every expected result entered, and the event is finished.

Which deals' per-table outcomes may be shown (``deals_open_for_public``, ``deals_hidden_from``)
is decided by ``tournaments.publication`` (re-exported here), where the tournaments API can
reach it too: ``tournaments`` never imports ``scoring``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from tournaments.models import Deal, Entrant, Event
from tournaments.publication import (
    DealSummary,
    RoundPlan,
    TablePlan,
    deal_outcomes_public,
    deal_summaries,
    deals_hidden_from,
    deals_open_for_public,
    movement_rounds,
    scheduled_tables_per_deal_set,
)

__all__ = [
    "DealSummary",
    "RoundPlan",
    "SnapshotStatus",
    "TablePlan",
    "deal_outcomes_public",
    "deal_summaries",
    "deals_hidden_from",
    "deals_open_for_public",
    "hand_scores_for_deal",
    "hand_scores_for_entrant",
    "movement_rounds",
    "ranking_for_event",
    "scheduled_tables_per_deal_set",
    "snapshot_for_event",
    "snapshot_status",
]

RANKING_KINDS = tuple(RankingEntry.Kind.values)


@dataclass(frozen=True)
class SnapshotStatus:
    state: str  # none / behind / provisional / complete
    snapshot_version: int
    results_version: int
    results_entered: int
    results_expected: int
    computed_at: object

    @property
    def is_final(self) -> bool:
        return self.state == "complete"


def snapshot_for_event(event: Event) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(event=event).first()


def snapshot_status(event: Event) -> SnapshotStatus:
    snapshot = snapshot_for_event(event)
    current = Event.objects.values_list("results_version", "status").get(pk=event.pk)
    results_version, status = current
    if snapshot is None:
        return SnapshotStatus("none", 0, results_version, 0, 0, None)
    if snapshot.results_version < results_version:
        state = "behind"
    elif snapshot.complete and status == Event.Status.FINISHED:
        state = "complete"
    else:
        state = "provisional"
    return SnapshotStatus(
        state,
        snapshot.results_version,
        results_version,
        snapshot.results_entered,
        snapshot.results_expected,
        snapshot.computed_at,
    )


def ranking_for_event(
    event: Event, kind: str = RankingEntry.Kind.INDIVIDUAL, line: str | None = None
) -> QuerySet[RankingEntry]:
    """Ranking rows of one kind (``individual``, ``line``, ``team``), best first.

    Rows carry ``entrant.player`` and ``team``; per-line rows are ordered by line then rank.
    """
    if kind not in RANKING_KINDS:
        raise ValueError(f"unknown ranking kind {kind!r}")
    rows = RankingEntry.objects.filter(event=event, kind=kind).select_related(
        "entrant__player__club", "entrant__team", "team"
    )
    if line:
        rows = rows.filter(line=line)
    return rows.order_by("line", "rank", "pk")


def hand_scores_for_deal(event: Event, deal: Deal) -> QuerySet[HandScore]:
    """A frequency sheet's rows: every seat of every table of the deal."""
    return (
        HandScore.objects.filter(event=event, deal=deal)
        .select_related("entrant__player", "result", "deal")
        .order_by("table_number", "seat")
    )


def hand_scores_for_entrant(event: Event, entrant: Entrant) -> QuerySet[HandScore]:
    """A personal score card: the entrant's deals with mark and percentage, in play order."""
    return (
        HandScore.objects.filter(event=event, entrant=entrant)
        .select_related(
            "deal",
            "result__seat_n__player",
            "result__seat_e__player",
            "result__seat_s__player",
            "result__seat_w__player",
        )
        .order_by("round_number", "deal__number")
    )

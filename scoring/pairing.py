"""The team standings a live Swiss round is paired from (``tournaments.services.swiss``).

Connected in ``apps.ready`` to ``tournaments.signals.team_standings_requested``. The ranking
is computed synchronously from the stored results by the same code as the published one
(``event_scoring_input`` then the core's ``compute_standings``: the organisers' complete
ranking, every entered deal), so it is never stale: a snapshot still being recomputed plays no
part.
"""

from __future__ import annotations

from typing import Any

from scoring.core import compute_standings
from scoring.models import key_pk
from scoring.services import event_scoring_input
from tournaments.models import Event


def team_standings(event: Event) -> list[dict[str, Any]]:
    """The event's team ranking now: team pk, rank, total PM and VP, best first."""
    standings = compute_standings(event_scoring_input(event).tournament)
    return [
        {"team": key_pk(row.team), "rank": row.rank, "pm": row.pm, "vp": row.vp}
        for row in standings.teams
    ]


def answer_team_standings(sender: Any, *, event: Event, **kwargs: Any) -> list[dict[str, Any]]:
    return team_standings(event)

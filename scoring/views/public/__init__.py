"""Public pages of an event: home, live ranking, frequency sheets, score cards, teams, movement.

Vocabulary (shared/domain/duplicate.md): a *frequency sheet* (feuille de donne) lists every
table's result of one deal with its seat marks and percentages; a *score card* (feuille de
marque personnelle) lists one player's deals; the *snapshot* is the scoring app's
``StandingsSnapshot`` with its ``HandScore`` and ``RankingEntry`` rows.

One module per page family: ``events`` (home, event home), ``ranking`` (live ranking and its
projector mode), ``deals`` (deal list, frequency sheet), ``players`` (search, score card),
``teams`` (team ranking, match sheets), ``movement``.

Invariants:

- pages read through ``scoring.selectors`` (the snapshot plus ``tournaments`` rows, never the
  comparison core) and build what they show with ``scoring.presentation``; every list is
  loaded with a bounded number of queries;
- a page is "provisional" unless the standings status says ``complete``
  (``scoring.selectors.StandingsStatus``);
- the cards of a deal (its hand diagram) are shown only once the deal has a result at every
  table the movement schedules it on: a deal still being played never leaks;
- likewise the per-table outcomes of a deal (contract, oudlers, points, value, marks,
  percentages) are shown to everybody but the organisers only once the deal is finished or the
  event is (``tournaments.publication.deal_outcomes_public``, the one rule); the frequency
  sheet of an unfinished deal only tells which tables have entered it, and a score card shows
  such a deal as "in play", its totals coming from the (live) ranking row;
- an event that is not public answers 404, except to its organisers (preview; see
  ``tournaments.access``).
"""

from __future__ import annotations

from typing import Any

from scoring.selectors import StandingsStatus
from tournaments.models import Event


def page_context(
    event: Event, status: StandingsStatus | None = None, **extra: Any
) -> dict[str, Any]:
    """The context every event page shares: the event and, where shown, its standings status."""
    return {"event": event, "status": status, **extra}

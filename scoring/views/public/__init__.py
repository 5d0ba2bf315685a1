"""Public pages of an event: home, live ranking, frequency sheets, score cards, teams, movement.

Vocabulary (docs/domain/duplicate.md): a *frequency sheet* (feuille de donne) lists every
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
  ``clubs.access``).

Simultaneous tournaments (``tournaments.models.Event``): the same URLs serve a simultaneous
(an event with sections) and each section, told apart by ``scoring.selectors.event_family``.
A simultaneous's pages show every section together: its home lists the sections with their
progress, its rankings carry a "Section" column, its frequency sheets hold every section's
results of a deal (each row labelled with its section and table), its player search spans the
sections and leads to the score card on the player's section's pages. A section's pages are an
event's, plus links to the whole simultaneous; its rankings are its players' ranks computed on
the overall percentages. The publication rule spans the whole simultaneous on both
(``tournaments.publication``): a deal some section has still to play shows no outcome anywhere.
"""

from __future__ import annotations

from typing import Any

from scoring.selectors import EventFamily, StandingsStatus, event_family
from tournaments.models import Event


def page_context(
    event: Event,
    status: StandingsStatus | None = None,
    family: EventFamily | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The context every event page shares: the event, its place in a simultaneous (read here
    unless the view already has it) and, where shown, its standings status."""
    if family is None:
        family = event_family(event)
    return {"event": event, "status": status, "family": family, **extra}

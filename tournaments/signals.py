"""Signals ``tournaments`` sends; ``scoring`` subscribes (tournaments never imports scoring).

``results_changed(sender=Event, event_id=int, results_version=int)`` is sent **on commit**
whenever a table result, an artificial score or a penalty of the event changed.

``team_standings_requested(sender=Event, event=Event)`` is sent (synchronously, inside the
caller's transaction) when a live Swiss round is paired (``tournaments.services.swiss``): the
scoring app's receiver returns the event's team ranking computed now from the stored results,
as a list of ``{"team": Team pk, "rank": int, "pm": int | None, "vp": Decimal | None}``, best
first (teams without any scored deal are absent).
"""

from django.dispatch import Signal

results_changed = Signal()
team_standings_requested = Signal()

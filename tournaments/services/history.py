"""The event's history of a director's actions (finish, reopen, close a round, substitute...):
written here, by every service that acts, and read back by ``tournaments.services.events``
(:func:`~tournaments.services.events.event_log`)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType

from tournaments.models import Event

# The director's actions the history page lists (``substitute`` and ``withdraw`` are written by
# ``tournaments.services.late_changes``).
LOG_ACTIONS = (
    "finish", "reopen", "close_round", "reopen_round", "substitute", "withdraw",
    "pair_round", "unpair_round",
)  # fmt: skip


def log_director_action(
    event: Event,
    actor: Any,
    action: str,
    *,
    round_number: int | None = None,
    reason: str = "",
    missing: int = 0,
    **details: Any,
) -> None:
    """Keep a director's action (one of :data:`LOG_ACTIONS`) in the event's history, read back
    by :func:`event_log` (a signed-in user only); ``details``: what the action's label needs
    (e.g. ``player``, ``substitute``), stored with it as JSON."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        return
    message = {
        "action": action,
        "round": round_number,
        "reason": reason,
        "missing": missing,
        **details,
    }
    LogEntry.objects.create(
        user_id=actor.pk,
        content_type=ContentType.objects.get_for_model(Event),
        object_id=str(event.pk),
        object_repr=str(event)[:200],
        action_flag=CHANGE,
        change_message=json.dumps(message),
    )

"""Subscriptions of the scoring app to ``tournaments`` signals (connected in ``apps.ready``).

``results_changed`` is sent on commit; the receiver sends the recompute task only when none is
queued for the event (``scoring.services.standings_request``: the work coalesces). With the
embedded default (no broker) the task runs in-process at once: a failure there is logged and
never breaks the request that stored the result (the result is committed; the next change or
``manage.py recompute`` brings the standings up to date).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from scoring.services import standings_request, standings_request_failed
from scoring.tasks import standings_recompute_task

logger = logging.getLogger(__name__)


def enqueue_standings_recompute(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    queue = getattr(settings, "SCORING_QUEUE", None)
    try:
        if not standings_request(event_id=event_id):
            return
    except Exception:
        logger.exception("could not ask for the standings of event %s", event_id)
        return
    try:
        if queue:
            standings_recompute_task.apply_async((event_id,), queue=queue)
        else:
            standings_recompute_task.delay(event_id)
    except Exception:
        # The broker is down (or the in-process run failed): the result is stored; the next
        # result, or the periodic reconciliation, sends the recompute again.
        logger.exception("could not recompute the standings of event %s", event_id)
        standings_request_failed(event_id=event_id)

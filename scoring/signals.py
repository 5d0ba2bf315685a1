"""Subscriptions of the scoring app to ``tournaments`` signals (connected in ``apps.ready``).

``results_changed`` is sent on commit; the receiver sends the recompute task only when none is
queued for the event (``scoring.services.standings_request``: the work coalesces), where
``runner.background`` says: to the Celery workers, on the runner thread of a club's instance
(the request answers at once), or at once in a developer's checkout. A failure is logged and
never breaks the request that stored the result (the result is committed; the next change or
``manage.py recompute`` brings the standings up to date).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from runner import background
from scoring.services import standings_request, standings_request_failed
from scoring.tasks import standings_recompute_task

logger = logging.getLogger(__name__)


def enqueue_standings_recompute(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    try:
        if not standings_request(event_id=event_id):
            return
    except Exception:
        logger.exception("could not ask for the standings of event %s", event_id)
        return
    try:
        # On a club's runner thread, the saves of the next moments are scored together: a
        # room's burst costs a few recomputes, not one per save (the workers' queue coalesces
        # by itself, as a task waits there for a free worker).
        background.send(
            standings_recompute_task, event_id, coalesce=settings.STANDINGS_COALESCE_SECONDS
        )
    except Exception:
        # The broker is down (or the in-process run failed): the result is stored; the next
        # result, or the periodic reconciliation, sends the recompute again.
        logger.exception("could not recompute the standings of event %s", event_id)
        standings_request_failed(event_id=event_id)

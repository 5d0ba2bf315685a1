"""Celery tasks of the scoring app. Tasks receive ids, never model instances.

``standings_recompute_task(event_id)`` is sent on commit of a results change when none is
queued for the event (see ``scoring.signals`` and ``scoring.services.standings_request``). It runs
``standings_refresh``: one worker per event at a time, until the snapshot is current, skipping
work already done, so duplicates and out-of-order deliveries are harmless; it is acknowledged
late (a worker lost mid-task means redelivery) and retried with backoff only on transient
database errors.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from scoring.services import standings_refresh
from tournaments.models import Event

logger = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
)
def standings_recompute_task(event_id: int) -> int | None:
    """Bring the event's standings snapshot up to date; returns the snapshot's version."""
    try:
        return standings_refresh(event_id=event_id)
    except Event.DoesNotExist:
        logger.info("standings recompute: event %s no longer exists", event_id)
        return None

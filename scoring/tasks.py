"""Celery tasks of the scoring app. Tasks receive ids, never model instances.

``standings_recompute_task(event_id)`` is sent on commit of a results change when none is
queued for the event (see ``scoring.signals`` and ``scoring.services.standings_request``). It runs
``standings_refresh``: one worker per event at a time, until the snapshot is current, skipping
work already done, so duplicates and out-of-order deliveries are harmless; it is acknowledged
late (a worker lost mid-task means redelivery) and retried with backoff only on transient
database errors.

``standings_reconcile_task()`` runs periodically (Celery beat, ``CELERY_BEAT_SCHEDULE``): it asks
for a recompute of every event whose standings are behind its results, so a task lost with the
broker or a killed worker is redone within a minute or two without any new result.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from runner import background
from scoring.services import events_behind, standings_refresh, standings_request
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


@shared_task(autoretry_for=(OperationalError, InterfaceError), max_retries=2)
def standings_reconcile_task() -> list[int]:
    """Send a recompute for every event behind its results; returns the events sent."""
    sent: list[int] = []
    for event_id in events_behind():
        if standings_request(event_id=event_id):
            background.send(standings_recompute_task, event_id)
            sent.append(event_id)
    if sent:
        logger.info("standings reconcile: recompute sent for events %s", sent)
    return sent

"""The director's round clock (``tournaments.models.RoundClock``).

The director sets the time per position, then starts the clock at each position (round); he
may pause it, resume it, add minutes, start the position's time again, or stop the clock.
Only the end time (running) or the time left (paused) is stored, on the server: every page
computes the time left from it and the server's own clock, so a reload, another device or a
server restart shows the same. Every change bumps ``version``. Each action is refused with a
:class:`~clubs.errors.DomainError` when it makes no sense (nothing stored changes then).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from tournaments.models import Event, RoundClock

MINUTES_MIN = 1
MINUTES_MAX = 180
EXTEND_MAX = 60
ACTIONS = ("set", "start", "pause", "resume", "extend", "stop")


@dataclass(frozen=True)
class ClockView:
    """The clock as pages read it: ``left_ms`` is the time left now (running: from
    ``ends_at``; paused: as stored), ``now`` the server's instant of this reading."""

    state: str  # idle, running, paused
    minutes: int
    round_number: int | None
    ends_at: dt.datetime | None
    left_ms: int | None
    version: int
    now: dt.datetime

    @property
    def expired(self) -> bool:
        return self.state == "running" and (self.left_ms or 0) <= 0

    def as_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "minutes": self.minutes,
            "round": self.round_number,
            "ends_at_ms": _ms(self.ends_at) if self.ends_at is not None else None,
            "left_ms": self.left_ms,
            "now_ms": _ms(self.now),
            "version": self.version,
        }


def _ms(instant: dt.datetime) -> int:
    return int(instant.timestamp() * 1000)


def clock_read(event: Event) -> ClockView:
    """The event's clock now (idle when the director never set one)."""
    now = timezone.now()
    clock = RoundClock.objects.filter(event=event).first()
    if clock is None:
        return ClockView("idle", 0, None, None, None, 0, now)
    left: int | None = None
    if clock.ends_at is not None:
        left = max(0, int((clock.ends_at - now).total_seconds() * 1000))
    elif clock.paused_left_ms is not None:
        left = clock.paused_left_ms
    return ClockView(
        clock.state, clock.minutes, clock.round_number, clock.ends_at, left, clock.version, now
    )


def _minutes(raw: Any, low: int, high: int) -> int:
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        value = 0
    if not low <= value <= high:
        raise DomainError(
            "invalid",
            _("Enter a number of minutes between %(low)s and %(high)s.")
            % {"low": low, "high": high},
            field="minutes",
        )
    return value


@transaction.atomic
def clock_change(
    *, event: Event, action: str, minutes: Any = None, round_number: int | None = None
) -> ClockView:
    """Apply the director's ``action`` (one of :data:`ACTIONS`) to the event's clock.

    ``set``: the time per position (``minutes``), the current position's time unchanged;
    ``start``: the position ``round_number`` starts now with the full time (also to start it
    again); ``pause`` / ``resume``; ``extend``: ``minutes`` more for the current position;
    ``stop``: back to idle."""
    if action not in ACTIONS:
        raise DomainError("invalid", _("Unknown clock action."))
    if event.status != Event.Status.RUNNING and action not in ("set", "stop"):
        raise DomainError("event_not_running", _("The event is not running."))
    clock, _created = RoundClock.objects.select_for_update().get_or_create(event=event)
    now = timezone.now()
    if action == "set":
        clock.minutes = _minutes(minutes, MINUTES_MIN, MINUTES_MAX)
    elif action == "start":
        if minutes not in (None, ""):
            clock.minutes = _minutes(minutes, MINUTES_MIN, MINUTES_MAX)
        if clock.minutes <= 0:
            raise DomainError(
                "clock_not_set", _("Set the time per position first."), field="minutes"
            )
        clock.round_number = round_number
        clock.ends_at = now + dt.timedelta(minutes=clock.minutes)
        clock.paused_left_ms = None
    elif action == "pause":
        if clock.ends_at is None:
            raise DomainError("clock_not_running", _("The clock is not running."))
        clock.paused_left_ms = max(0, int((clock.ends_at - now).total_seconds() * 1000))
        clock.ends_at = None
    elif action == "resume":
        if clock.paused_left_ms is None:
            raise DomainError("clock_not_paused", _("The clock is not paused."))
        clock.ends_at = now + dt.timedelta(milliseconds=clock.paused_left_ms)
        clock.paused_left_ms = None
    elif action == "extend":
        extra = _minutes(minutes, 1, EXTEND_MAX)
        if clock.ends_at is not None:
            # A position already over gets its extra time from now.
            clock.ends_at = max(clock.ends_at, now) + dt.timedelta(minutes=extra)
        elif clock.paused_left_ms is not None:
            clock.paused_left_ms += extra * 60_000
        else:
            raise DomainError("clock_not_running", _("The clock is not running."))
    else:  # stop
        clock.ends_at = None
        clock.paused_left_ms = None
        clock.round_number = None
    clock.version += 1
    clock.save()
    return clock_read(event)

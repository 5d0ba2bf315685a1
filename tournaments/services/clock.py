"""The director's round clock (``tournaments.models.RoundClock``).

The director sets the time per position, then starts the clock at a position (round); he
may pause it, resume it, add minutes, start the position's time again, or stop the clock.
Only the end time (running) or the time left (paused) is stored, on the server: every page
computes the time left from it and the server's own clock, so a reload, another device or a
server restart shows the same. Every change bumps ``version``. Each action is refused with a
:class:`~clubs.errors.DomainError` when it makes no sense (nothing stored changes then).

**The clock follows the positions.** Tables move on by themselves: a table's *position* is the
round it plays now, read from its results (:func:`tournaments.selectors.table_positions`), and
the room's position is the earliest of them (the slowest table's). The clock names the position
it times; the control room offers to start the next one as soon as one table has finished the
position timed (:func:`clock_panel`). With ``auto_advance`` (the director's choice) the server
starts the room's position by itself once every table has finished the position timed, and
stops the clock once every table has finished every position (:func:`clock_follow`): sent on
commit of every results change (:func:`follow_results`), on the runner of a club's instance,
never in the save itself. When the event finishes the clock stops (:func:`clock_stop`), and an
event that does not run reads an idle clock whatever is stored.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from runner import background
from tournaments import selectors
from tournaments.models import Event, RoundClock

logger = logging.getLogger(__name__)

MINUTES_MIN = 1
MINUTES_MAX = 180
EXTEND_MAX = 60
ACTIONS = ("set", "start", "pause", "resume", "extend", "stop")


@dataclass(frozen=True)
class ClockView:
    """The clock as pages read it: ``left_ms`` is the time left now (running: from
    ``ends_at``; paused: as stored), ``now`` the server's instant of this reading;
    ``last``: the position timed is the event's last; ``over``: the event does not run."""

    state: str  # idle, running, paused
    minutes: int
    round_number: int | None
    ends_at: dt.datetime | None
    left_ms: int | None
    version: int
    now: dt.datetime
    auto_advance: bool = False
    last: bool = False
    over: bool = False

    @property
    def expired(self) -> bool:
        return self.state == "running" and (self.left_ms or 0) <= 0

    def as_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "minutes": self.minutes,
            "round": self.round_number,
            "last": self.last,
            "ends_at_ms": _ms(self.ends_at) if self.ends_at is not None else None,
            "left_ms": self.left_ms,
            "now_ms": _ms(self.now),
            "version": self.version,
            "over": self.over,
        }


def _ms(instant: dt.datetime) -> int:
    return int(instant.timestamp() * 1000)


def clock_read(event: Event) -> ClockView:
    """The event's clock now: idle when the director never set one, and whenever the event
    does not run (a finished event's clock is gone, whatever a race left stored)."""
    now = timezone.now()
    clock = RoundClock.objects.filter(event=event).first()
    over = event.status != Event.Status.RUNNING
    if clock is None:
        return ClockView("idle", 0, None, None, None, 0, now, over=over)
    if over or clock.state == "idle":
        minutes, version, auto = clock.minutes, clock.version, clock.auto_advance
        return ClockView("idle", minutes, None, None, None, version, now, auto, over=over)
    left: int | None = None
    if clock.ends_at is not None:
        left = max(0, int((clock.ends_at - now).total_seconds() * 1000))
    elif clock.paused_left_ms is not None:
        left = clock.paused_left_ms
    numbers = event.schedule.round_numbers
    last = bool(numbers) and clock.round_number == numbers[-1] and not event.schedule.pending_rounds
    return ClockView(
        clock.state,
        clock.minutes,
        clock.round_number,
        clock.ends_at,
        left,
        clock.version,
        now,
        clock.auto_advance,
        last=last,
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


def _start(clock: RoundClock, round_number: int, now: dt.datetime) -> None:
    clock.round_number = round_number
    clock.ends_at = now + dt.timedelta(minutes=clock.minutes)
    clock.paused_left_ms = None


def _stop(clock: RoundClock) -> None:
    clock.ends_at = None
    clock.paused_left_ms = None
    clock.round_number = None


@transaction.atomic
def clock_change(
    *,
    event: Event,
    action: str,
    minutes: Any = None,
    round_number: int | None = None,
    auto_advance: bool | None = None,
) -> ClockView:
    """Apply the director's ``action`` (one of :data:`ACTIONS`) to the event's clock.

    ``set``: the time per position (``minutes``), the current position's time unchanged;
    ``start``: the position ``round_number`` (a round of the movement) starts now with the full
    time (also to start it again); ``pause`` / ``resume``; ``extend``: ``minutes`` more for the
    current position; ``stop``: back to idle. ``auto_advance`` (with ``set`` or ``start``; None
    leaves it): whether the next position starts by itself (:func:`clock_follow`)."""
    if action not in ACTIONS:
        raise DomainError("invalid", _("Unknown clock action."))
    if event.status != Event.Status.RUNNING and action not in ("set", "stop"):
        raise DomainError("event_not_running", _("The event is not running."))
    clock, _created = RoundClock.objects.select_for_update().get_or_create(event=event)
    now = timezone.now()
    if action in ("set", "start") and auto_advance is not None:
        clock.auto_advance = auto_advance
    if action == "set":
        clock.minutes = _minutes(minutes, MINUTES_MIN, MINUTES_MAX)
    elif action == "start":
        if minutes not in (None, ""):
            clock.minutes = _minutes(minutes, MINUTES_MIN, MINUTES_MAX)
        if clock.minutes <= 0:
            raise DomainError(
                "clock_not_set", _("Set the time per position first."), field="minutes"
            )
        if round_number is None or round_number not in event.schedule.round_numbers:
            raise DomainError("invalid", _("This event has no such position."), field="round")
        _start(clock, round_number, now)
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
        _stop(clock)
    clock.version += 1
    clock.save()
    return clock_read(event)


def clock_stop(*, event: Event) -> None:
    """The event finishes: its clock stops (in the caller's transaction; nothing if idle)."""
    clock = RoundClock.objects.select_for_update().filter(event=event).first()
    if clock is None or clock.state == "idle":
        return
    _stop(clock)
    clock.version += 1
    clock.save()


# ---------------------------------------------------------------- following the positions


def room_position(positions: dict[int, int | None]) -> int | None:
    """The position the room is at: the earliest a table plays (None: every table is done)."""
    playing = [number for number in positions.values() if number is not None]
    return min(playing) if playing else None


def _finished(positions: dict[int, int | None], table: int, round_number: int) -> bool:
    position = positions.get(table, round_number)
    return position is None or position > round_number


@dataclass(frozen=True)
class ClockPanel:
    """The clock's part of the control room: the clock, where each table is (``at``:
    position → table numbers, ``done``: the tables that finished every position) and the
    position the director may start: ``start`` (the room's, the clock idle) or ``next``
    (once a table has finished the position timed)."""

    clock: ClockView
    at: list[tuple[int, list[int]]]
    done: list[int]
    start: int | None
    next: int | None


def clock_panel(event: Event) -> ClockPanel:
    """What the control room shows of the clock (the clock, and 2 queries of counts)."""
    clock = clock_read(event)
    positions = selectors.table_positions(event) if event.status == Event.Status.RUNNING else {}
    at: dict[int, list[int]] = {}
    for table, position in positions.items():
        if position is not None:
            at.setdefault(position, []).append(table)
    done = [table for table, position in positions.items() if position is None]
    room = room_position(positions)
    start = next_round = None
    timed = clock.round_number
    if clock.state == "idle" or timed is None:
        start = room
    elif room is not None and room > timed:
        next_round = room  # every table has finished the position timed
    else:
        numbers = event.schedule.round_numbers
        later = [number for number in numbers if number > timed]
        played = event.schedule.round(timed)
        tables = [play.table for play in played.playing] if played is not None else []
        if later and any(_finished(positions, table, timed) for table in tables):
            next_round = later[0]
    return ClockPanel(clock, sorted(at.items()), done, start, next_round)


@transaction.atomic
def _advance(event_id: int, room: int | None) -> bool:
    clock = RoundClock.objects.select_for_update().filter(event_id=event_id).first()
    if clock is None or not clock.auto_advance or clock.state == "idle":
        return False
    timed = clock.round_number
    if timed is None or (room is not None and room <= timed):
        return False
    # Read under the clock's lock: the finish stops the clock after taking it (clock_stop),
    # so a clock started here for an event finishing meanwhile is stopped by the finish.
    if not Event.objects.filter(pk=event_id, status=Event.Status.RUNNING).exists():
        return False
    if room is None:
        _stop(clock)  # every table has finished every position: nothing left to time
    else:
        _start(clock, room, timezone.now())
    clock.version += 1
    clock.save()
    return True


def clock_follow(event_id: int) -> bool:
    """Auto-advance (the director chose it): once every table has finished the position
    the clock times, start the room's position (the earliest a table plays now), or stop the
    clock when every table has finished every position. Idempotent (several runs at once, from
    several processes or workers, advance the clock once: the room's position is compared with
    the stored one under the clock's row lock); returns whether it changed the clock."""
    # The movement deferred: the schedule comes from the process's cache, not parsed again.
    running = Event.objects.filter(pk=event_id, status=Event.Status.RUNNING).defer("movement")
    event = running.first()
    if event is None:
        return False
    return _advance(event_id, room_position(selectors.table_positions(event)))


def follow_results(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    """``tournaments.signals.results_changed`` receiver (sent on commit; for a section, with
    its simultaneous's id): hand :func:`clock_follow` to the background for each clock of the
    event or its sections that follows the positions by itself. One indexed query when no
    clock does; a failure is logged, never raised into the request that saved."""
    try:
        following = list(
            RoundClock.objects.filter(Q(event_id=event_id) | Q(event__simultaneous_id=event_id))
            .filter(auto_advance=True, round_number__isnull=False)
            .filter(Q(ends_at__isnull=False) | Q(paused_left_ms__isnull=False))
            .values_list("event_id", flat=True)
        )
        for clock_event_id in following:
            background.run(clock_follow, clock_event_id)
    except Exception:
        logger.exception("could not follow the positions of event %s", event_id)

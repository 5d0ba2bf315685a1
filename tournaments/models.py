"""Duplicate events and everything set up before and during play (clubs, players and the
competition base they share with the other kinds of competition: :mod:`clubs.models`).

Vocabulary (see docs/domain/duplicate.md): an *event* (tournoi) is played in *rounds*
(positions, read from its movement: ``Event.schedule``); in each round every *table* plays one
*deal set* (étui) of ``deals_per_round`` *deals* (donnes). *Entrants* are the movement's slots
bound to players (a phantom slot has no player); in team events entrants carry their *team*. A
*table result* is the outcome of one deal at one table; its seat marks are computed by
``rules`` when it is saved and every change to it is kept in the append-only ``ResultChange``
history.

Invariants kept by the database: one result per (deal, table); one entrant per (event, slot);
deal numbers and table numbers unique within their event; the movement stored on an event has
passed the validator (enforced by the services that set it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import ChangeRecord, Competition, EnteredBy, EntryKey, LateArrival, Player
from clubs.outcomes import SEATS as SEATS
from clubs.outcomes import Contract as Contract
from clubs.outcomes import PoigneeSize as PoigneeSize
from clubs.outcomes import Seat as Seat
from clubs.outcomes import Side as Side
from clubs.phone_codes import new_phone_code
from rules.ruleset import FFT, Ruleset, ruleset_from_dict, ruleset_to_dict
from tournaments.movements import Schedule

# The tarot vocabulary as model choices (``SEATS``, ``Seat``, ``Contract``, ``Side``,
# ``PoigneeSize``) is the kernel's, shared by every kind: ``clubs.outcomes``.


def default_ruleset() -> dict[str, object]:
    """The FFT's rules (``rules.ruleset.FFT``), as an event stores them (with the version)."""
    return ruleset_to_dict(FFT)


class Event(Competition):
    """A tournament: one room, or a *simultaneous* split into sections.

    A simultaneous (``Event`` with ``sections``) holds the deals every section plays and the
    overall standings; it has no movement, tables or entrants of its own. A *section*
    (``simultaneous`` set) is a full event of its own — club and organisers, entrants, movement,
    tables, entry, status, pages — playing copies of the simultaneous's deals (same numbers and
    cards). Comparisons span every section: the standings are computed for the simultaneous
    (its ``results_version`` counts every section's results: :attr:`scoring_event_id`).
    """

    class Format(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual")
        TRIPLETTE = "triplette", _("Triplette")
        QUADRETTE = "quadrette", _("Quadrette")

    code_prefix = "event"

    class Ranking(models.TextChoices):
        PM = "pm", _("Total points de match")
        VP = "vp", _("Victory points (WBF)")

    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), default=4)
    seed = models.BigIntegerField(_("deal seed"), default=0)
    movement = models.JSONField(_("movement"), null=True, blank=True)
    opponent_confirmation = models.BooleanField(_("a defender confirms each result"), default=False)
    ranking = models.CharField(
        _("team ranking"), max_length=4, choices=Ranking.choices, default=Ranking.PM
    )
    pm_scale = models.JSONField(_("points de match scale"), default=list, blank=True)
    # The rule system (``rules.ruleset``: its name and parameters); duplicate formats play the
    # FFT's. Read it as :attr:`rules` (a frozen ``Ruleset``).
    ruleset = models.JSONField(_("rules"), default=default_ruleset, blank=True)
    results_version = models.PositiveIntegerField(_("results version"), default=0)
    # Round numbers the director has closed (sorted): a table code no longer writes there.
    closed_rounds = models.JSONField(_("closed rounds"), default=list, blank=True)
    simultaneous = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="sections",
        verbose_name=_("simultaneous"),
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # ``updated_at`` versions the movement for the schedule cache: never save one without it.
        fields = kwargs.get("update_fields")
        if fields is not None and "movement" in fields and "updated_at" not in fields:
            kwargs["update_fields"] = [*fields, "updated_at"]
        super().save(*args, **kwargs)

    @classmethod
    def directed_by_clubs(cls, clubs: Any) -> Q:
        """Events of the clubs, and the sections of their simultaneous events."""
        return Q(club__in=clubs) | Q(simultaneous__club__in=clubs)

    def director_club_ids(self) -> list[int]:
        """Its club's, and for a section its simultaneous's club's."""
        clubs = [self.club_id]
        if self.simultaneous_id is not None:
            clubs.extend(
                Event.objects.filter(pk=self.simultaneous_id).values_list("club_id", flat=True)
            )
        return clubs

    @property
    def is_team_event(self) -> bool:
        return self.format != self.Format.INDIVIDUAL

    @property
    def is_section(self) -> bool:
        return self.simultaneous_id is not None

    @property
    def rules(self) -> Ruleset:
        """The event's rule system as a frozen value (the FFT's when nothing is stored)."""
        stored = self.ruleset or None
        cached = self.__dict__.get("_rules")
        if cached is None or cached[0] != stored:
            cached = (stored, ruleset_from_dict(stored))
            self.__dict__["_rules"] = cached
        return cached[1]

    @property
    def scoring_event_id(self) -> int:
        """The event whose standings compare this event's results: its simultaneous, if any."""
        return self.simultaneous_id or self.pk

    @property
    def team_size(self) -> int | None:
        """Members of a team (3 in triplette, 4 in quadrette); None in an individual event."""
        return TEAM_SIZES.get(self.format)

    @property
    def schedule(self) -> Schedule:
        """The stored movement read through its one reader (empty before it is set).

        Read once per instance and per stored document (a new document is read again). An
        instance loaded with the movement deferred (``Event.objects.defer("movement")``, as the
        entry path does) takes it from a per-process cache keyed by (pk, ``updated_at``),
        without reading or parsing the document: a 200-table movement costs milliseconds to
        parse, on every result saved otherwise.
        """
        if "movement" in self.get_deferred_fields() and self.pk:
            key = (self.pk, self.updated_at)
            schedule = _SCHEDULES.get(key)
            if schedule is None:
                schedule = Schedule.from_document(self.movement)  # loads the deferred field
                _SCHEDULES.put(key, schedule)
                self.__dict__["_schedule"] = (self.movement, schedule)
            return schedule
        cached = self.__dict__.get("_schedule")
        if cached is None or cached[0] is not self.movement:
            cached = (self.movement, Schedule.from_document(self.movement))
            self.__dict__["_schedule"] = cached
        return cached[1]


class _ScheduleCache:
    """A small thread-safe LRU of parsed movements, by (event pk, ``updated_at``)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[tuple[int, Any], Schedule] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[int, Any]) -> Schedule | None:
        with self.lock:
            schedule = self.items.get(key)
            if schedule is not None:
                self.items.move_to_end(key)
            return schedule

    def put(self, key: tuple[int, Any], schedule: Schedule) -> None:
        with self.lock:
            self.items[key] = schedule
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_SCHEDULES = _ScheduleCache(512)  # a national simultaneous has a hundred sections


def load_schedules(events: Iterable[Event]) -> None:
    """Parse, in one query, the movements of ``events`` (loaded with their movement deferred)
    that this process has not parsed yet: their ``schedule`` then reads no row."""
    missing = [
        event.pk
        for event in events
        if "movement" in event.get_deferred_fields()
        and _SCHEDULES.get((event.pk, event.updated_at)) is None
    ]
    if not missing:
        return
    for row in Event.objects.filter(pk__in=missing).only("id", "movement", "updated_at"):
        _SCHEDULES.put((row.pk, row.updated_at), Schedule.from_document(row.movement))


TEAM_SIZES: dict[str, int] = {Event.Format.TRIPLETTE: 3, Event.Format.QUADRETTE: 4}


class Deal(models.Model):
    """A donne of the event. Deal set k holds deals (k-1)*deals_per_round+1 .. k*deals_per_round."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("number"))
    deal_set = models.PositiveSmallIntegerField(_("deal set"))
    dealer_seat = models.CharField(_("dealer"), max_length=1, choices=Seat.choices)
    taker_seat = models.CharField(_("taker seat"), max_length=1, choices=Seat.choices)
    imposed_contract = models.CharField(
        _("imposed contract"), max_length=12, choices=Contract.choices, blank=True
    )
    cards = models.TextField(_("cards (text form)"), blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_deal_number")
        ]
        indexes = [models.Index(fields=["event", "deal_set"])]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self) -> str:
        return _("Deal %(number)s") % {"number": self.number}


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=120)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_team_number")
        ]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A movement slot bound to a player (or a phantom: nobody sits there)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    slot = models.PositiveIntegerField(_("slot"))
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("player"),
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("team"),
    )
    line = models.CharField(_("line"), max_length=1, choices=Seat.choices, blank=True)
    phantom = models.BooleanField(_("phantom"), default=False)

    class Meta:
        ordering = ["event", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["event", "slot"], name="unique_entrant_slot"),
            models.UniqueConstraint(
                fields=["event", "player"],
                name="unique_entrant_player",
                condition=Q(player__isnull=False),
            ),
        ]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")

    def __str__(self) -> str:
        if self.player_id is None:
            return _("Phantom %(slot)s") % {"slot": self.slot}
        return str(self.player)


class Table(models.Model):
    """A physical table; its secret ``code`` (QR code on the table card) opens result entry."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))
    code = models.CharField(_("entry code"), max_length=32, unique=True, default=new_phone_code)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_table_number")
        ]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class TableResult(EnteredBy):
    """The outcome of one deal at one table, with the seat marks ``rules`` computed for it.

    ``kind`` says what happened: a played deal (real result, compared), artificial scores per
    seat (director decision, kept out of the comparison), or a deal not played. A result
    entered or corrected by the director is ``director_assigned`` and still a real result.
    """

    class Kind(models.TextChoices):
        PLAYED = "played", _("Played")
        ARTIFICIAL = "artificial", _("Artificial scores")
        NOT_PLAYED = "not_played", _("Not played")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="results")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    round_number = models.PositiveSmallIntegerField(_("round"))
    # Who sat where when the deal was played (copied from the movement at entry time).
    seat_n = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    seat_e = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    seat_s = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    seat_w = models.ForeignKey(
        Entrant, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.PLAYED)
    # The outcome (kind == played), in the input shape of rules.scoring.Outcome.
    taker_seat = models.CharField(_("taker seat"), max_length=1, choices=Seat.choices, blank=True)
    contract = models.CharField(_("contract"), max_length=12, choices=Contract.choices, blank=True)
    oudlers = models.PositiveSmallIntegerField(_("oudlers"), null=True, blank=True)
    points_half = models.PositiveSmallIntegerField(_("points (half-points)"), null=True, blank=True)
    petit_au_bout = models.CharField(
        _("petit au bout"), max_length=8, choices=Side.choices, blank=True
    )
    poignees = models.JSONField(_("poignées"), default=list, blank=True)
    chelem_announced = models.BooleanField(_("chelem announced"), default=False)
    chelem_made_by = models.CharField(
        _("chelem made by"), max_length=8, choices=Side.choices, blank=True
    )
    # Computed by rules.score_deal when saved.
    won = models.BooleanField(null=True, blank=True)
    margin = models.SmallIntegerField(null=True, blank=True)
    value = models.IntegerField(null=True, blank=True)
    mark_n = models.IntegerField(null=True, blank=True)
    mark_e = models.IntegerField(null=True, blank=True)
    mark_s = models.IntegerField(null=True, blank=True)
    mark_w = models.IntegerField(null=True, blank=True)
    # Artificial percentage per seat (kind == artificial), e.g. 60 / 50 / 40.
    artificial_n = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    artificial_e = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    artificial_s = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    artificial_w = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    director_assigned = models.BooleanField(_("assigned by the director"), default=False)
    confirmed = models.BooleanField(_("confirmed by the defence"), default=True)
    # The event's ``results_version`` this row was last written at: a recompute from snapshot
    # version S rescored only the deals of the rows whose version is above S.
    version = models.PositiveIntegerField(_("results version"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["event", "deal__number", "table__number"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "table"], name="one_result_per_deal_table"),
            models.CheckConstraint(
                condition=Q(points_half__isnull=True) | Q(points_half__lte=182),
                name="result_points_in_range",
            ),
        ]
        indexes = [
            models.Index(fields=["event", "round_number"]),
            models.Index(fields=["event", "version"]),
        ]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")

    def __str__(self) -> str:
        return _("Deal %(deal)s, table %(table)s") % {
            "deal": self.deal.number,
            "table": self.table.number,
        }

    def seat_entrant_ids(self) -> dict[str, int | None]:
        return {"N": self.seat_n_id, "E": self.seat_e_id, "S": self.seat_s_id, "W": self.seat_w_id}

    def seat_marks(self) -> dict[str, int | None]:
        return {"N": self.mark_n, "E": self.mark_e, "S": self.mark_s, "W": self.mark_w}

    def seat_artificial(self) -> dict[str, object]:
        return {
            "N": self.artificial_n,
            "E": self.artificial_e,
            "S": self.artificial_s,
            "W": self.artificial_w,
        }


class ResultChange(ChangeRecord):
    """Append-only history of every result change: who, when, why, before and after."""

    class Action(models.TextChoices):
        CREATE = "create", _("Entered")
        CONFIRM = "confirm", _("Confirmed")
        CORRECT = "correct", _("Corrected")
        ARTIFICIAL = "artificial", _("Artificial scores assigned")
        NOT_PLAYED = "not_played", _("Marked not played")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="result_changes")
    # PROTECT: a result with a history cannot be deleted (corrections are new history lines).
    result = models.ForeignKey(TableResult, on_delete=models.PROTECT, related_name="history")
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)

    class Meta:
        ordering = ["event", "at", "pk"]
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.actor_label or self.actor_id})"


class Penalty(models.Model):
    """A deduction in percentage points from an entrant's (or a team's) event percentage."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, null=True, blank=True, related_name="penalties"
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="penalties"
    )
    points = models.DecimalField(_("percentage points"), max_digits=5, decimal_places=2)
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(entrant__isnull=False) & Q(team__isnull=True))
                | (Q(entrant__isnull=True) & Q(team__isnull=False)),
                name="penalty_targets_entrant_or_team",
            ),
            models.CheckConstraint(condition=Q(points__gt=0), name="penalty_positive"),
        ]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"-{self.points} ({self.reason})"


class EntrantChange(models.Model):
    """A late change after the start: a substitute, or a withdrawal, from a given round on.

    The movement itself carries the change (``tournaments.services.late_changes``): from
    ``from_round`` on, the seat's route is held by ``replacement`` (the substitute's own
    entrant, or a phantom: its tables then sit out), and ``entrant`` sits in the byes. This row
    records who was replaced (or withdrew), by whom, from when, who decided it and why.
    """

    class Kind(models.TextChoices):
        SUBSTITUTE = "substitute", _("Substitute")
        WITHDRAWAL = "withdrawal", _("Withdrawal")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrant_changes")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    # One change per entrant: a substitute is a new entrant, who may be replaced in turn.
    entrant = models.OneToOneField(
        Entrant, on_delete=models.CASCADE, related_name="late_change", verbose_name=_("entrant")
    )
    replacement = models.OneToOneField(
        Entrant,
        on_delete=models.CASCADE,
        related_name="replaces",
        verbose_name=_("replacement"),
    )
    from_round = models.PositiveSmallIntegerField(_("from round"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["event", "from_round", "pk"]
        verbose_name = _("late change")
        verbose_name_plural = _("late changes")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.entrant}, {self.from_round})"


class RoundClock(models.Model):
    """The director's clock of an event's positions (rounds): the time per position and, while
    it runs, when the current position ends (kept here, so a server restart changes nothing).

    Idle: neither ``ends_at`` nor ``paused_left_ms``. Running: ``ends_at`` (past it, the
    position is over: time to move). Paused: ``paused_left_ms``, the time that was left.
    ``round_number`` is the position it times. Pages and phones compute the time left from
    ``ends_at`` and the server's clock (``tournaments.views.clock``), never from their own
    clock alone. ``auto_advance``: the director chose that the next position starts by itself
    once every table has finished the one timed (``tournaments.services.clock``)."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="round_clock", verbose_name=_("event")
    )
    minutes = models.PositiveSmallIntegerField(_("minutes per position"), default=0)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    paused_left_ms = models.PositiveIntegerField(null=True, blank=True)
    auto_advance = models.BooleanField(_("start the next position by itself"), default=False)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")

    def __str__(self) -> str:
        return f"{self.event_id}: {self.minutes} min"

    @property
    def state(self) -> str:
        if self.ends_at is not None:
            return "running"
        if self.paused_left_ms is not None:
            return "paused"
        return "idle"


class TableEntryKey(EntryKey):
    """A table phone's (or the table API's) stored idempotency key (``clubs.idempotency``)."""

    holder = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="entry_keys")


class TableLateArrival(LateArrival):
    """A table's entry kept offline and refused when it arrived (``clubs.late_arrivals``)."""

    holder = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="late_arrivals")

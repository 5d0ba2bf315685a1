"""Models of a knockout cup of duplicate team matches (see the package docstring).

- :class:`Cup`: a club's cup, its options (deals per quarter, points-de-match scale, tie-break).
- :class:`CupTeam` and :class:`CupTeamPlayer`: the teams by seed and their rosters (4 to 6
  players; a player is in one team of a cup).
- :class:`CupMatch`: a match of the bracket (round, slot), a bye when one team is missing.
- :class:`MatchDeal`: the prepared deals of a match (the same étuis in both rooms).
- :class:`MatchRoom`: a room of a match and its secret entry code (the room phone's key).
- :class:`QuarterLineup`: who sits where in a quarter; ``closed`` once the quarter is over.
- :class:`RoomResult`: a deal's outcome in one room, its value and the taker's mark;
  :class:`RoomResultChange` the append-only history of every entry and correction.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import ChangeRecord, Competition, EnteredBy, EntryKey, LateArrival, Player
from clubs.outcomes import Contract, Seat
from clubs.phone_codes import new_phone_code
from scoring.core.model import IMP_THRESHOLDS

MAX_DEALS_PER_QUARTER = 12


def default_pm_scale() -> list[int]:
    """The points-de-match scale of a new cup: the IMP thresholds (``scoring.core.model``)."""
    return list(IMP_THRESHOLDS)


class Cup(Competition):
    code_prefix = "cup"

    class TieBreakOrder(models.TextChoices):
        NET_FIRST = "net,last_quarter", _("Net marks, then the last quarter")
        LAST_QUARTER_FIRST = "last_quarter,net", _("The last quarter, then net marks")

    deals_per_quarter = models.PositiveSmallIntegerField(
        _("deals per quarter"),
        default=6,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DEALS_PER_QUARTER)],
    )
    pm_scale = models.JSONField(_("points-de-match scale"), default=default_pm_scale)
    tie_break = models.CharField(
        _("tie-break"),
        max_length=20,
        choices=TieBreakOrder.choices,
        default=TieBreakOrder.NET_FIRST,
    )
    tie_break_seed = models.BigIntegerField(_("tie-break seed"), default=0)
    deal_seed = models.BigIntegerField(_("deal seed"), default=0)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("cup")
        verbose_name_plural = _("cups")

    def __str__(self) -> str:
        return self.name


class CupTeam(models.Model):
    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="teams")
    seed = models.PositiveSmallIntegerField(_("seed"))
    name = models.CharField(_("name"), max_length=80)
    players = models.ManyToManyField(
        Player, through="CupTeamPlayer", related_name="cup_teams", verbose_name=_("players")
    )

    class Meta:
        ordering = ["cup", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "seed"], name="teammatch_unique_seed"),
            models.UniqueConstraint(fields=["cup", "name"], name="teammatch_unique_team_name"),
        ]
        verbose_name = _("cup team")
        verbose_name_plural = _("cup teams")

    def __str__(self) -> str:
        return self.name


class CupTeamPlayer(models.Model):
    """A player of a team's roster; ``cup`` repeats the team's cup so that a player is in one
    team of a cup (a database constraint)."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(CupTeam, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["team", "player__name_sort_key", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "player"], name="teammatch_one_team_per_cup")
        ]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")

    def __str__(self) -> str:
        return str(self.player)


class CupMatch(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for its teams")
        PLAYING = "playing", _("In play")
        FINISHED = "finished", _("Finished")

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField(_("round"))
    slot = models.PositiveSmallIntegerField(_("slot"))
    team_a = models.ForeignKey(
        CupTeam, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    team_b = models.ForeignKey(
        CupTeam, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bye = models.BooleanField(_("bye"), default=False)
    winner = models.ForeignKey(
        CupTeam, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_by = models.CharField(_("decided by"), max_length=20, blank=True)
    pm_a = models.IntegerField(null=True, blank=True)
    net_a = models.IntegerField(null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    #: The quarter being played (1..4); results are entered for this quarter only.
    quarter = models.PositiveSmallIntegerField(_("quarter"), default=1)

    class Meta:
        ordering = ["cup", "round", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "round", "slot"], name="teammatch_unique_slot")
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"{self.cup} R{self.round}/{self.slot}"


class MatchDeal(models.Model):
    """A prepared deal of a match (the étui both rooms play), numbered 1..4×dpq."""

    match = models.ForeignKey(CupMatch, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("number"))
    quarter = models.PositiveSmallIntegerField(_("quarter"))
    dealer_seat = models.CharField(_("dealer"), max_length=1, choices=Seat.choices)
    taker_seat = models.CharField(_("taker seat"), max_length=1, choices=Seat.choices)
    cards = models.TextField(_("cards"))

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="teammatch_unique_deal")
        ]
        verbose_name = _("match deal")
        verbose_name_plural = _("match deals")

    def __str__(self) -> str:
        return f"{self.match} #{self.number}"


class RoomName(models.TextChoices):
    OPEN = "open", _("Open room")
    CLOSED = "closed", _("Closed room")


class MatchRoom(models.Model):
    match = models.ForeignKey(CupMatch, on_delete=models.CASCADE, related_name="rooms")
    room = models.CharField(_("room"), max_length=6, choices=RoomName.choices)
    code = models.CharField(_("entry code"), max_length=32, unique=True, default=new_phone_code)

    class Meta:
        ordering = ["match", "-room"]
        constraints = [
            models.UniqueConstraint(fields=["match", "room"], name="teammatch_unique_room")
        ]
        verbose_name = _("room")
        verbose_name_plural = _("rooms")

    def __str__(self) -> str:
        return f"{self.match} {self.get_room_display()}"


class QuarterLineup(models.Model):
    """A quarter's seats: open room A's taker and 3 of B; closed room B's taker and 3 of A."""

    match = models.ForeignKey(CupMatch, on_delete=models.CASCADE, related_name="lineups")
    quarter = models.PositiveSmallIntegerField(_("quarter"))
    open_taker = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    open_defender_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    open_defender_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    open_defender_3 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    closed_taker = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    closed_defender_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    closed_defender_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    closed_defender_3 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    closed = models.BooleanField(_("closed"), default=False)

    SEAT_FIELDS = (
        "open_taker",
        "open_defender_1",
        "open_defender_2",
        "open_defender_3",
        "closed_taker",
        "closed_defender_1",
        "closed_defender_2",
        "closed_defender_3",
    )

    class Meta:
        ordering = ["match", "quarter"]
        constraints = [
            models.UniqueConstraint(fields=["match", "quarter"], name="teammatch_unique_lineup")
        ]
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")

    def __str__(self) -> str:
        return f"{self.match} Q{self.quarter}"

    def taker(self, room: str) -> Player:
        return self.open_taker if room == RoomName.OPEN else self.closed_taker

    def defenders(self, room: str) -> list[Player]:
        if room == RoomName.OPEN:
            return [self.open_defender_1, self.open_defender_2, self.open_defender_3]
        return [self.closed_defender_1, self.closed_defender_2, self.closed_defender_3]


class RoomResult(EnteredBy):
    """A deal's outcome in one room, validated by ``rules``, with its value and taker mark."""

    match = models.ForeignKey(CupMatch, on_delete=models.CASCADE, related_name="results")
    deal = models.ForeignKey(MatchDeal, on_delete=models.CASCADE, related_name="results")
    room = models.CharField(_("room"), max_length=6, choices=RoomName.choices)
    #: The outcome in the services' input shape (``clubs.outcome_forms.DealOutcomeForm.outcome``).
    outcome = models.JSONField()
    contract = models.CharField(_("contract"), max_length=20, choices=Contract.choices)
    oudlers = models.PositiveSmallIntegerField(_("oudlers"))
    points_half = models.PositiveSmallIntegerField()
    won = models.BooleanField(_("won"))
    value = models.IntegerField(_("value"))
    taker_mark = models.IntegerField(_("taker's mark"))
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "deal__number", "-room"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "room"], name="teammatch_unique_result")
        ]
        verbose_name = _("room result")
        verbose_name_plural = _("room results")

    def __str__(self) -> str:
        return f"{self.deal} {self.room}"

    @property
    def points(self) -> int | float:
        return self.points_half // 2 if self.points_half % 2 == 0 else self.points_half / 2


class RoomResultChange(ChangeRecord):
    """Append-only history of every room result change: who, when, why, before and after."""

    class Action(models.TextChoices):
        CREATE = "create", _("Entered")
        CORRECT = "correct", _("Corrected")

    result = models.ForeignKey(RoomResult, on_delete=models.PROTECT, related_name="history")
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)

    class Meta:
        ordering = ["result", "at", "pk"]
        verbose_name = _("room result change")
        verbose_name_plural = _("room result changes")

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.actor_label or self.actor_id})"


class RoomEntryKey(EntryKey):
    """A room phone's stored idempotency key (``clubs.idempotency``)."""

    holder = models.ForeignKey(MatchRoom, on_delete=models.CASCADE, related_name="entry_keys")


class RoomLateArrival(LateArrival):
    """A room's entry kept offline and refused when it arrived (``clubs.late_arrivals``)."""

    holder = models.ForeignKey(MatchRoom, on_delete=models.CASCADE, related_name="late_arrivals")

"""The published standings of an event: a snapshot computed from scratch by the core.

A snapshot is written in one transaction by the recompute task and carries the
``results_version`` it was computed from; pages and the API read only snapshots, so they show
"provisional" while results are missing (``complete`` is false) or the snapshot is behind the
event's current ``results_version`` (``scoring.selectors.StandingsStatus``).

``StandingsSnapshot.data`` holds ``team_basis`` (what ranks the teams), ``matches`` (the core's
``MatchSheet.to_dict()``: round, tables, teams as core keys, per-deal ``net_a``/``pm_a``) and
``rounds`` (``{"round", "entered", "expected"}``: results counted per round of the movement).
Core entrant keys are ``"e<Entrant.pk>"`` and ``"t<Team.pk>"`` (:func:`entrant_key`,
:func:`team_key`, :func:`key_pk`).

Rows are denormalised for reading: a score card or a frequency sheet is one indexed query.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Deal, Entrant, Event, TableResult, Team


def entrant_key(entrant_id: int) -> str:
    return f"e{entrant_id}"


def team_key(team_id: int) -> str:
    return f"t{team_id}"


def key_pk(key: str) -> int:
    """The primary key inside a core entrant key (``"t12"`` → 12)."""
    return int(key[1:])


class StandingsSnapshot(models.Model):
    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="standings")
    results_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now=True)
    complete = models.BooleanField(default=False)
    results_expected = models.PositiveIntegerField(default=0)
    results_entered = models.PositiveIntegerField(default=0)
    # Match sheets, team basis and progress per round (see the module docstring).
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return f"{self.event} @ v{self.results_version}"


class HandScore(models.Model):
    """One seat of one table result, compared with every other holder of the same hand.

    Derived data, rewritten by the recompute in bulk (COPY on PostgreSQL): the foreign keys
    carry no database constraint (the recompute writes only ids it has just read, and Django's
    cascades still delete these rows with their event, result, deal or entrant), and only the
    indexes the reads and the recompute use exist (event, result, deal, entrant).

    The exact matchpoints are ``mp_num / mp_den`` (Neuberg makes them fractional) out of ``top``;
    ``percentage`` is rounded half-up to 0.01. An artificial score has no mark, matchpoints or
    top. The exact columns let the recompute rank from stored hands without rescoring them.
    """

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="hand_scores", db_constraint=False
    )
    result = models.ForeignKey(
        TableResult, on_delete=models.CASCADE, related_name="hand_scores", db_constraint=False
    )
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="hand_scores", db_constraint=False
    )
    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, related_name="hand_scores", db_constraint=False
    )
    table_number = models.PositiveSmallIntegerField()
    round_number = models.PositiveSmallIntegerField()
    seat = models.CharField(max_length=1)
    mark = models.IntegerField(null=True, blank=True)
    mp_num = models.BigIntegerField(default=0)
    mp_den = models.PositiveIntegerField(default=1)
    top = models.PositiveIntegerField(null=True, blank=True)
    percentage = models.DecimalField(max_digits=5, decimal_places=2)
    artificial = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "deal__number", "table_number", "seat"]

    def __str__(self) -> str:
        return f"{self.deal} {self.seat} table {self.table_number}: {self.percentage}%"

    @property
    def matchpoints(self) -> Decimal | None:
        """The matchpoints rounded half-up to 0.01 (``None`` for an artificial score)."""
        if self.artificial or not self.mp_den:
            return None
        return (Decimal(self.mp_num) / Decimal(self.mp_den)).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP
        )


class RecomputeState(models.Model):
    """The coalescing of an event's recomputes (``scoring.services``).

    ``queued_at``: a recompute task was sent and has not started (writers send another only when
    none is queued, or when the queued one is older than the staleness limit: a lost message).
    ``lease_until`` / ``lease_owner``: a worker is recomputing until then; another worker does
    not start (it would do the same work) unless the lease expired (a worker lost mid-task).
    """

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    queued_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    lease_owner = models.CharField(max_length=32, blank=True)

    class Meta:
        verbose_name = _("recompute state")
        verbose_name_plural = _("recompute states")

    def __str__(self) -> str:
        return f"recompute state of event {self.event_id}"


class RankingEntry(models.Model):
    """A line of a ranking: individual (per player), per line, or team.

    ``published`` rows count only the deals finished everywhere (``tournaments.publication``):
    they are what everybody sees, so that no ranking reveals a deal still in play. While some
    deal is withheld, the recompute also writes the complete ranking (every entered deal) as
    ``published=False`` rows, which only the event's organisers see; once nothing is withheld
    the published rows are the complete ranking and no others exist.
    """

    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual")
        LINE = "line", _("Per line")
        TEAM = "team", _("Team")

    # Derived rows rewritten in bulk by the recompute: no database constraint on the keys (as
    # for HandScore), and no index on event alone (the (event, kind, rank) index serves it).
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        related_name="ranking_entries",
        db_constraint=False,
        db_index=False,
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    published = models.BooleanField(default=True)
    line = models.CharField(max_length=1, blank=True)
    rank = models.PositiveIntegerField()
    entrant = models.ForeignKey(
        Entrant,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ranking_entries",
        db_constraint=False,
    )
    team = models.ForeignKey(
        Team,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ranking_entries",
        db_constraint=False,
    )
    percentage = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)
    penalty = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    marks_total = models.IntegerField(default=0)
    deals_played = models.PositiveIntegerField(default=0)
    points_de_match = models.IntegerField(null=True, blank=True)
    victory_points = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["event", "kind", "line", "rank", "pk"]
        indexes = [models.Index(fields=["event", "kind", "rank"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.rank}"

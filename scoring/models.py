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
    """One seat of one table result, compared with every other holder of the same hand."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="hand_scores")
    result = models.ForeignKey(TableResult, on_delete=models.CASCADE, related_name="hand_scores")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="hand_scores")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="hand_scores")
    table_number = models.PositiveSmallIntegerField()
    round_number = models.PositiveSmallIntegerField()
    seat = models.CharField(max_length=1)
    mark = models.IntegerField(null=True, blank=True)
    matchpoints = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    top = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    percentage = models.DecimalField(max_digits=5, decimal_places=2)
    artificial = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "deal__number", "table_number", "seat"]
        indexes = [
            models.Index(fields=["event", "entrant"]),
            models.Index(fields=["event", "deal"]),
        ]

    def __str__(self) -> str:
        return f"{self.deal} {self.seat} table {self.table_number}: {self.percentage}%"


class RankingEntry(models.Model):
    """A line of a ranking: individual (per player), per line, or team."""

    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual")
        LINE = "line", _("Per line")
        TEAM = "team", _("Team")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="ranking_entries")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    line = models.CharField(max_length=1, blank=True)
    rank = models.PositiveIntegerField()
    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, null=True, blank=True, related_name="ranking_entries"
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, null=True, blank=True, related_name="ranking_entries"
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

"""A series (a club's or a league's season) and the events it groups.

The formula is data the organiser chooses (``series.core.Formula``): points per place from an
editable points table, or the average percentage; the best N results; a minimum attendance.
A *club series* counts only its club's events; a *league series* (``league``) may count events
of any club. Invariants: an event appears once in a series (database constraint); the formula
and the events added passed ``series.services`` (the only writer).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, DirectedByClub
from series.core import PERCENTAGE, POINTS, Formula
from tournaments.models import Event


def default_points_table() -> list[int]:
    """A common club table: 10 points to the winner, then 8, 6, 5, 4, 3, 2, 1."""
    return [10, 8, 6, 5, 4, 3, 2, 1]


class Series(DirectedByClub, models.Model):
    class Method(models.TextChoices):
        POINTS = POINTS, _("Points per place")
        PERCENTAGE = PERCENTAGE, _("Average percentage")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="series_set", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=200)
    season = models.CharField(_("season"), max_length=40, blank=True)
    public = models.BooleanField(_("public"), default=False)
    league = models.BooleanField(_("events of other clubs may count"), default=False)
    method = models.CharField(
        _("ranking method"), max_length=12, choices=Method.choices, default=Method.POINTS
    )
    points_table = models.JSONField(_("points table"), default=default_points_table, blank=True)
    points_default = models.PositiveIntegerField(_("points beyond the table"), default=0)
    best_n = models.PositiveSmallIntegerField(_("best results counted"), null=True, blank=True)
    min_events = models.PositiveSmallIntegerField(_("minimum attendance"), default=1)
    events = models.ManyToManyField(
        Event, through="SeriesEvent", related_name="series", verbose_name=_("events")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("series")
        verbose_name_plural = _("season series")

    def __str__(self) -> str:
        return f"{self.name} ({self.season})" if self.season else self.name

    @property
    def formula(self) -> Formula:
        return Formula(
            method=self.method,
            points_table=tuple(int(points) for points in self.points_table or ()),
            points_default=self.points_default,
            best_n=self.best_n,
            min_events=self.min_events,
        )


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="series_events")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="series_entries")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "event__date", "event__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="unique_series_event")
        ]
        verbose_name = _("series event")
        verbose_name_plural = _("series events")

    def __str__(self) -> str:
        return f"{self.series} · {self.event}"

"""Writes of series: create, change the formula, add and remove events, delete.

Every service is named ``series_<action>`` (or ``series_event_<action>``), takes keyword
arguments only and runs in one transaction. Every refusal is a
:class:`~clubs.errors.DomainError` (code, translated message, field) raised before anything is
written. The formula checks (:func:`series_formula_check`): a
points table of whole numbers of 0 or more, at least one place, never more points for a worse
place (nor beyond the table than for its last place); best N and the minimum attendance at
least 1. An event is added once; a club series takes only its club's events; a simultaneous
and one of its sections never both (their players would count twice).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict, Unpack

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club
from series.core import METHODS, POINTS
from series.models import Series, SeriesEvent
from tournaments.models import Event

#: Places a points table may list (a big open tournament has a few hundred players).
MAX_POINTS_PLACES = 500
FORMULA_FIELDS = ("method", "points_table", "points_default", "best_n", "min_events")
SERIES_FIELDS = ("name", "season", "public", "league", *FORMULA_FIELDS)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def series_formula_check(
    *,
    method: str,
    points_table: Sequence[Any],
    points_default: Any,
    best_n: Any,
    min_events: Any,
) -> None:
    """Refuse a formula that cannot rank (see the module docstring)."""
    if method not in METHODS:
        raise DomainError(
            "method_unknown",
            _("%(method)s is not a ranking method: choose points per place or average percentage")
            % {"method": method},
            field="method",
        )
    if method == POINTS:
        table = list(points_table)
        if not table:
            raise DomainError(
                "points_table_empty",
                _("the points table is empty: give at least the points of the 1st place"),
                field="points_table",
            )
        if len(table) > MAX_POINTS_PLACES:
            raise DomainError(
                "points_table_too_long",
                _("the points table lists %(count)s places, more than %(max)s")
                % {"count": len(table), "max": MAX_POINTS_PLACES},
                field="points_table",
            )
        for place, points in enumerate(table, start=1):
            if not _whole(points) or points < 0:
                raise DomainError(
                    "points_negative",
                    _("place %(place)s: %(points)s is not a whole number of points of 0 or more")
                    % {"place": place, "points": points},
                    field="points_table",
                )
            if place > 1 and points > table[place - 2]:
                raise DomainError(
                    "points_increasing",
                    _("place %(place)s earns more points than place %(previous)s")
                    % {"place": place, "previous": place - 1},
                    field="points_table",
                )
        if not _whole(points_default) or points_default < 0:
            raise DomainError(
                "points_negative",
                _("beyond the table: %(points)s is not a whole number of points of 0 or more")
                % {"points": points_default},
                field="points_default",
            )
        if points_default > table[-1]:
            raise DomainError(
                "points_increasing",
                _("the places beyond the table earn more points than place %(place)s")
                % {"place": len(table)},
                field="points_default",
            )
    if best_n is not None and (not _whole(best_n) or best_n < 1):
        raise DomainError(
            "best_n_too_small",
            _("count at least 1 result, or leave the best results blank to count them all"),
            field="best_n",
        )
    if not _whole(min_events) or min_events < 1:
        raise DomainError(
            "min_events_too_small",
            _("the minimum attendance is at least 1 event"),
            field="min_events",
        )


class SeriesChanges(TypedDict, total=False):
    """What :func:`series_update` may change (any of them)."""

    name: str
    season: str
    public: bool
    league: bool
    method: str
    points_table: Sequence[int]
    points_default: int
    best_n: int | None
    min_events: int


def _checked_fields(values: dict[str, Any]) -> dict[str, Any]:
    unknown = set(values) - set(SERIES_FIELDS)
    if unknown:
        raise TypeError(f"unknown series fields: {sorted(unknown)}")
    name = str(values.get("name", "")).strip()
    if "name" in values and not name:
        raise DomainError("name_missing", _("give the series a name"), field="name")
    if "name" in values:
        values["name"] = name
    if "points_table" in values:
        values["points_table"] = list(values["points_table"] or [])
    return values


def _formula_check_of(series: Series) -> None:
    series_formula_check(**{name: getattr(series, name) for name in FORMULA_FIELDS})


@transaction.atomic
def series_create(
    *,
    club: Club,
    name: str,
    season: str = "",
    public: bool = False,
    league: bool = False,
    method: str = POINTS,
    points_table: Sequence[int] = (10, 8, 6, 5, 4, 3, 2, 1),
    points_default: int = 0,
    best_n: int | None = None,
    min_events: int = 1,
) -> Series:
    """A new series of ``club``: its name, season, visibility, league flag and formula."""
    values = _checked_fields(
        {
            "name": name,
            "season": season,
            "public": public,
            "league": league,
            "method": method,
            "points_table": points_table,
            "points_default": points_default,
            "best_n": best_n,
            "min_events": min_events,
        }
    )
    series = Series(club=club, **values)
    _formula_check_of(series)
    series.save()
    return series


@transaction.atomic
def series_update(*, series: Series, **changes: Unpack[SeriesChanges]) -> Series:
    """Change the name, season, visibility, league flag or formula of ``series`` (the fields
    given; the others keep their value).

    Turning a league series into a club series is refused while it holds another club's event.
    """
    series = Series.objects.select_for_update().get(pk=series.pk)
    values = _checked_fields(dict(changes))
    for name, value in values.items():
        setattr(series, name, value)
    _formula_check_of(series)
    if not series.league:
        other = series.events.exclude(club_id=series.club_id).first()
        if other is not None:
            raise DomainError(
                "event_other_club",
                _("%(event)s is an event of %(club)s: remove it first, or let events of other "
                  "clubs count") % {"event": other.name, "club": other.club.name},
                field="league",
            )  # fmt: skip
    series.save()
    return series


@transaction.atomic
def series_delete(*, series: Series) -> None:
    """Delete ``series`` (its events stay: only their membership goes)."""
    Series.objects.filter(pk=series.pk).delete()


def _family(event: Event) -> set[int]:
    """The events that share ``event``'s players' results: it, its simultaneous or sections."""
    related = {event.pk}
    if event.simultaneous_id is not None:
        related.add(event.simultaneous_id)
    related.update(Event.objects.filter(simultaneous_id=event.pk).values_list("pk", flat=True))
    return related


@transaction.atomic
def series_event_add(*, series: Series, event: Event) -> SeriesEvent:
    """Add ``event`` to ``series`` (the caller checked the user may see it)."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if not series.league and event.club_id != series.club_id:
        raise DomainError(
            "event_other_club",
            _("%(event)s is an event of %(club)s: this series counts only events of %(own)s")
            % {"event": event.name, "club": event.club.name, "own": series.club.name},
            field="event",
        )
    if SeriesEvent.objects.filter(series=series, event=event).exists():
        raise DomainError(
            "event_in_series",
            _("%(event)s is already in this series") % {"event": event.name},
            field="event",
        )
    overlap = (
        SeriesEvent.objects.filter(series=series, event_id__in=_family(event) - {event.pk})
        .select_related("event")
        .first()
    )
    if overlap is not None:
        raise DomainError(
            "event_same_simultaneous",
            _("%(event)s and %(other)s belong to the same simultaneous: add one of them only")
            % {"event": event.name, "other": overlap.event.name},
            field="event",
        )
    try:
        with transaction.atomic():
            return SeriesEvent.objects.create(series=series, event=event)
    except IntegrityError:  # added meanwhile by another request
        raise DomainError(
            "event_in_series",
            _("%(event)s is already in this series") % {"event": event.name},
            field="event",
        ) from None


@transaction.atomic
def series_event_remove(*, series: Series, event: Event) -> None:
    """Remove ``event`` from ``series``."""
    deleted, _rows = SeriesEvent.objects.filter(series=series, event=event).delete()
    if not deleted:
        raise DomainError(
            "event_not_in_series",
            _("%(event)s is not in this series") % {"event": event.name},
            field="event",
        )

"""Archive and restore a season series with its events (``duplitarot-series-archive``,
``docs/archive-format.md``).

The archive holds the series' settings (name, season, public, league, the formula: method,
points table, points beyond the table, best N, minimum attendance), **each of its events as an
embedded event archive** (``archives.events``: the same document ``archive_event`` writes; a
section of a simultaneous is its simultaneous's archive with the section's name), and the
series ranking the server showed.

A restore (:func:`archives.kinds.restore_document`) checks
the series and every embedded event archive first, then in one
transaction restores every event (``archives.events.restore_checked``, each verified like a
restored event) into the club given, creates the series over them, and verifies that the
series ranking recomputed from the restored events equals the archived one. Players are
shared across the events: by licence, else by names (``archives.players``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from archives import events as event_archive
from archives.format import (
    as_bool,
    as_int,
    as_list,
    as_name,
    as_object,
    as_text,
    check_envelope,
    filename,
    iso,
    refuse,
)
from archives.players import PlayerMatcher
from clubs.errors import DomainError
from clubs.models import Club
from series.models import Series, SeriesEvent
from series.selectors import series_event_lines, series_ranking
from series.services import series_formula_check
from tournaments.models import Event

SCHEMA = "duplitarot-series-archive"
VERSION = 1

SERIES_KEYS = (
    "name", "club", "season", "public", "league", "method", "points_table", "points_default",
    "best_n", "min_events",
)  # fmt: skip
FORMULA_KEYS = ("method", "points_table", "points_default", "best_n", "min_events")


# =============================================================================== export


def _ranking(series: Series) -> list[dict[str, Any]]:
    """The series ranking, players by name and licence, events by their place in the
    archive's ``events`` (1 for the first)."""
    ranking = series_ranking(series)
    index = {line.event.pk: number for number, line in enumerate(ranking.events, start=1)}
    rows = []
    for standing in ranking.standings:
        player = ranking.players[standing.player_id]
        rows.append(
            {
                "player": {
                    "first_name": player.first_name,
                    "last_name": player.last_name,
                    "licence": player.licence,
                },
                "place": standing.place,
                "played": standing.played,
                "counted": standing.counted,
                "score": str(standing.score),
                "results": [
                    [
                        index[result.event_id],
                        result.place,
                        None if result.percentage is None else str(result.percentage),
                        str(result.value),
                        result.counted,
                    ]
                    for result in standing.results
                ],
            }
        )
    return rows


def archive_series(series: Series) -> dict[str, Any]:
    """The archive document of ``series`` and of each of its events."""
    series = Series.objects.select_related("club").get(pk=series.pk)
    events = []
    for line in series_event_lines(series):
        event = line.event
        whole = event.simultaneous if event.simultaneous_id is not None else event
        assert whole is not None
        events.append(
            {
                "section": event.name if whole is not event else None,
                "archive": event_archive.archive_event(whole),
            }
        )
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "exported_at": iso(timezone.now()),
        "series": {
            "name": series.name,
            "club": {"name": series.club.name, "city": series.club.city},
            "season": series.season,
            "public": series.public,
            "league": series.league,
            "method": series.method,
            "points_table": list(series.points_table or []),
            "points_default": series.points_default,
            "best_n": series.best_n,
            "min_events": series.min_events,
        },
        "events": events,
        "ranking": _ranking(series),
    }


def series_filename(series: Series) -> str:
    return filename(None, f"{series.name} {series.season}", "series")


# ============================================================================== checking


@dataclass
class CheckedSeries:
    series: dict[str, Any]
    events: list[tuple[str | None, Any]]  # (section name or None, checked event archive)
    ranking: list[Any]


def check_series(document: Any, at: str = "") -> CheckedSeries:
    """Check a parsed series archive and every event archive it holds; nothing is written."""
    top = check_envelope(
        document,
        schema=SCHEMA,
        version=VERSION,
        keys=("series", "events", "ranking"),
        not_this_kind=_("This file is not a duplitarot series archive."),
        path=at,
    )
    values = as_object(top["series"], "series", SERIES_KEYS)
    as_name(values["name"], "series.name", 200, _("the series needs a name"))
    club = as_object(values["club"], "series.club", ("name", "city"))
    as_text(club["name"], "series.club.name", 120)
    as_text(club["city"], "series.club.city", 120)
    as_text(values["season"], "series.season", 40)
    as_bool(values["public"], "series.public")
    as_bool(values["league"], "series.league")
    as_text(values["method"], "series.method", 12)
    as_list(values["points_table"], "series.points_table")
    as_int(values["points_default"], "series.points_default", 0, 2_147_483_647)
    as_int(values["best_n"], "series.best_n", 1, 32_767, null=True)
    as_int(values["min_events"], "series.min_events", 1, 32_767)
    try:
        series_formula_check(**{key: values[key] for key in FORMULA_KEYS})
    except DomainError as error:
        raise refuse(error.describe(), f"series.{error.field or 'method'}") from None
    checked = CheckedSeries(values, [], as_list(top["ranking"], "ranking"))
    for index, raw in enumerate(as_list(top["events"], "events")):
        where = f"events[{index}]"
        item = as_object(raw, where, ("section", "archive"))
        section = as_text(item["section"], f"{where}.section", 200, null=True)
        event = event_archive.check_archive(item["archive"], f"{where}.archive")
        if section is not None and section not in event.sections:
            raise refuse(_("no section has this name"), f"{where}.section")
        checked.events.append((section, event))
    return checked


# =============================================================================== restore


@dataclass
class SeriesRestoreReport:
    series: Series
    events: int = 0
    results: int = 0
    players_matched: int = 0
    players_created: int = 0
    codes_kept: bool = False
    verified: bool | None = None
    differences: list[str] = field(default_factory=list)


def restore_checked_series(
    checked: CheckedSeries, *, club: Club, keep_codes: bool = False
) -> SeriesRestoreReport:
    """Store a checked series archive and its events into ``club`` (inside a transaction),
    then verify every event's standings and the series ranking."""
    values = checked.series
    series = Series.objects.create(
        club=club, **{key: values[key] for key in SERIES_KEYS if key != "club"}
    )
    report = SeriesRestoreReport(series=series, codes_kept=keep_codes)
    matcher = PlayerMatcher(club)
    for index, (section, event) in enumerate(checked.events):
        restored = event_archive.restore_checked(
            event, club=club, keep_table_codes=keep_codes, matcher=matcher
        )
        member: Event = restored.members[section]
        SeriesEvent.objects.create(series=series, event=member)
        report.events += 1
        report.results += restored.results
        if restored.verified is False:
            report.differences.append(f"events[{index}]")
    report.players_matched, report.players_created = matcher.matched, matcher.created
    if _ranking(series) != checked.ranking:
        report.differences.append("ranking")
    report.verified = not report.differences
    return report

"""Series pages: the public list, a series' ranking and its export; the organiser's screens.

Public pages show a public series to everybody and a private one to its club's organisers
(a preview); anybody else gets a 404, never a 403 (as for events, ``clubs.access``).
Organiser screens need a login, then an organiser of the series' club (else 404). No ORM
here: reads through ``series.selectors`` and ``clubs.access``, writes through
``series.services``. The export
is the ranking page's rows as CSV (the active language's separators, as every export of the
app: ``clubs.exports``) or XLSX.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.access import (
    clubs_directed_by,
    directed_by,
    directed_or_404,
    user_directs,
    user_directs_a_club,
    visible_or_404,
    visible_to,
)
from clubs.errors import DomainError
from clubs.exports import csv_response, xlsx_response
from clubs.forms import add_error
from series import selectors, services
from series.core import POINTS
from series.forms import EventAddForm, SeriesCreateForm, SeriesForm
from series.models import Series
from series.selectors import NOT_FINISHED, NOT_PUBLIC, SeriesRanking, series_ranking

#: Events offered in the organiser's "add an event" list (the latest first).
ADDABLE_EVENTS = 300


def formula_text(series: Series) -> str:
    """The formula in one sentence of the reader's language."""
    if series.method == POINTS:
        table = ", ".join(str(points) for points in series.points_table)
        parts = [
            _("Points per place: %(table)s, then %(default)s for every other place")
            % {"table": table, "default": series.points_default}
        ]
    else:
        parts = [_("Average percentage of the results counted")]
    if series.best_n:
        parts.append(
            ngettext(
                "the best result of each player counts",
                "the best %(count)s results of each player count",
                series.best_n,
            )
            % {"count": series.best_n}
        )
    else:
        parts.append(_("every result counts"))
    parts.append(
        ngettext(
            "ranked from %(count)s event played",
            "ranked from %(count)s events played",
            series.min_events,
        )
        % {"count": series.min_events}
    )
    return "; ".join(str(part) for part in parts) + "."


def reason_text(reason: str | None) -> str:
    if reason is None:
        return _("Counted")
    if reason == NOT_PUBLIC:
        return _("Not counted: its results are not public")
    if reason == NOT_FINISHED:
        return _("Not counted yet: not finished")
    return _("Not counted yet: its final ranking is being computed")


def score_value(series: Series, score: Decimal) -> Decimal | int:
    """Points are whole; an average keeps its two decimals."""
    return int(score) if series.method == POINTS else score


def score_label(series: Series) -> str:
    return _("Points") if series.method == POINTS else _("Average")


def ranking_context(ranking: SeriesRanking) -> dict[str, Any]:
    series = ranking.series
    events = ranking.events_by_pk
    players = ranking.players

    def line(standing: Any) -> dict[str, Any]:
        player = players[standing.player_id]
        return {
            "standing": standing,
            "player": player,
            "score": score_value(series, standing.score),
            "results": [
                {
                    "event": events[result.event_id],
                    "place": result.place,
                    "percentage": result.percentage,
                    "value": score_value(series, result.value),
                    "counted": result.counted,
                }
                for result in standing.results
            ],
        }

    return {
        "series": series,
        "ranking": ranking,
        "ranked": [line(s) for s in ranking.ranked],
        "unranked": [line(s) for s in ranking.unranked],
        "events": [(item, reason_text(item.reason)) for item in ranking.events],
        "formula": formula_text(series),
        "score_label": score_label(series),
        "points": series.method == POINTS,
    }


# ------------------------------------------------------------------------------- public


@require_GET
def series_index(request: HttpRequest) -> HttpResponse:
    """The series anybody may follow (and the visitor's own clubs' private ones)."""
    series = visible_to(request.user, Series)  # the latest first (Series.Meta.ordering)
    return render(request, "series/index.html", {"series_list": series})


@require_GET
def series_page(request: HttpRequest, series_id: int) -> HttpResponse:
    series = visible_or_404(request, Series, series_id)
    context = ranking_context(series_ranking(series))
    return render(request, "series/ranking.html", context)


def export_table(
    ranking: SeriesRanking, *, licences: bool = False
) -> tuple[list[str], list[list[Any]]]:
    """One row per player (the ranked ones, then the others), a column per counted event; the
    players' licences for ``licences`` (the series' organisers) only."""
    series = ranking.series
    counted = ranking.counted_events
    header = [
        _("Place"),
        _("Name"),
        *([_("Licence")] if licences else []),
        _("Club"),
        _("Events played"),
        _("Results counted"),
        score_label(series),
        *(event.name for event in counted),
    ]
    rows: list[list[Any]] = []
    for standing in ranking.standings:
        player = ranking.players[standing.player_id]
        values = {result.event_id: result.value for result in standing.results}
        rows.append(
            [
                standing.place if standing.ranked else _("not ranked"),
                str(player),
                *([player.licence or ""] if licences else []),
                player.club.name if player.club else "",
                standing.played,
                standing.counted,
                score_value(series, standing.score),
                *(
                    score_value(series, values[event.pk]) if event.pk in values else None
                    for event in counted
                ),
            ]
        )
    return header, rows


@require_GET
def series_export(request: HttpRequest, series_id: int, fmt: str) -> HttpResponse:
    if fmt not in ("csv", "xlsx"):
        raise Http404(_("Exports exist as csv or xlsx."))
    series = visible_or_404(request, Series, series_id)
    header, rows = export_table(series_ranking(series), licences=user_directs(request.user, series))
    filename = f"{slugify(series.name) or 'series'}-{series.pk}-ranking"
    if fmt == "csv":
        return csv_response(filename, header, rows)
    return xlsx_response(filename, _("Ranking"), header, rows)


# ---------------------------------------------------------------------------- organiser


@login_required
@require_GET
def organiser_list(request: HttpRequest) -> HttpResponse:
    series = directed_by(request.user, Series)  # the latest first (Series.Meta.ordering)
    has_clubs = user_directs_a_club(request.user)
    return render(
        request, "series/organiser_list.html", {"series_list": series, "has_clubs": has_clubs}
    )


def _formula_values(form: SeriesForm) -> dict[str, Any]:
    return {name: form.cleaned_data[name] for name in services.SERIES_FIELDS}


@login_required
@require_http_methods(["GET", "POST"])
def organiser_create(request: HttpRequest) -> HttpResponse:
    clubs = clubs_directed_by(request.user)
    form = SeriesCreateForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            series = services.series_create(club=form.cleaned_data["club"], **_formula_values(form))
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Series created. Now add its events."))
            return redirect("series:organiser_edit", series_pk=series.pk)
    return render(
        request,
        "series/organiser_form.html",
        {"form": form, "has_clubs": user_directs_a_club(request.user)},
        status=400 if form.errors else 200,
    )


def _edit_page(
    request: HttpRequest,
    series: Series,
    form: SeriesForm | None = None,
    add_form: EventAddForm | None = None,
    status: int = 200,
) -> HttpResponse:
    if form is None:
        initial = {name: getattr(series, name) for name in services.SERIES_FIELDS}
        form = SeriesForm(initial=initial)
    if add_form is None:
        offered = selectors.series_addable_events(series, request.user, limit=ADDABLE_EVENTS)
        add_form = EventAddForm(events=offered)
    can_add = bool(add_form.errors) or selectors.series_has_addable_events(series, request.user)
    context = ranking_context(series_ranking(series))
    context.update({"form": form, "add_form": add_form, "can_add": can_add})
    return render(request, "series/organiser_edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def organiser_edit(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = directed_or_404(request, Series, series_pk)
    if request.method != "POST":
        return _edit_page(request, series)
    form = SeriesForm(request.POST)
    if form.is_valid():
        try:
            services.series_update(series=series, **_formula_values(form))
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Series saved."))
            return redirect("series:organiser_edit", series_pk=series.pk)
    return _edit_page(request, series, form=form, status=400)


@login_required
@require_POST
def organiser_event_add(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = directed_or_404(request, Series, series_pk)
    form = EventAddForm(request.POST, events=selectors.series_addable_events(series, request.user))
    if form.is_valid():
        try:
            services.series_event_add(series=series, event=form.cleaned_data["event"])
        except DomainError as error:
            add_error(form, error)
        else:
            messages.success(request, _("Event added to the series."))
            return redirect("series:organiser_edit", series_pk=series.pk)
    return _edit_page(request, series, add_form=form, status=400)


@login_required
@require_POST
def organiser_event_remove(request: HttpRequest, series_pk: int, event_pk: int) -> HttpResponse:
    series = directed_or_404(request, Series, series_pk)
    event = selectors.series_event(series, event_pk)
    if event is None:
        raise Http404
    try:
        services.series_event_remove(series=series, event=event)
    except DomainError as error:  # removed meanwhile by another request
        messages.error(request, error.message)
    else:
        messages.success(request, _("Event removed from the series."))
    return redirect("series:organiser_edit", series_pk=series.pk)


@login_required
@require_POST
def organiser_delete(request: HttpRequest, series_pk: int) -> HttpResponse:
    series = directed_or_404(request, Series, series_pk)
    services.series_delete(series=series)
    messages.success(request, _("Series deleted."))
    return redirect("series:organiser_list")

"""The results file of a finished event for the league and the federation, its organisers only.

``public:organiser_results_file`` (``organiser/events/<pk>/results-file.json`` and
``.csv``): the document of ``scoring.results_file`` (``docs/results-file.md``) as a download,
for the event's directors (``clubs.access.directs``: a 404 for anybody else, as every
organiser page). An event that has none yet (not finished, or its final standings still being
computed) and a section of a simultaneous (the league's file is its simultaneous's) get a
translated page saying so, with status 409.

The CSV is machine-readable whatever the interface's language (unlike the spreadsheet exports
of ``scoring.views.exports``): UTF-8 without a byte-order mark, comma separators, dot decimals,
CRLF line ends and quoting as RFC 4180 has them, fixed English column names.
"""

from __future__ import annotations

import csv
import io
import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.access import directs, user_directs
from scoring.results_file import (
    CSV_COLUMNS,
    results_csv_rows,
    results_document,
    results_file_problem,
)
from scoring.selectors import event_family
from tournaments.models import Event

FORMATS = ("json", "csv")


def _slug(name: str, default: str) -> str:
    """``name`` in safe characters for a file name (ASCII letters, digits, hyphens), 50 at most."""
    return slugify(name)[:50].strip("-") or default


def _filename(event: Event, fmt: str) -> str:
    """``results-<club>-<event>-<date>.<fmt>``: the club and the event named, as the director
    finds it among downloads."""
    club = _slug(event.club.name, "club")
    return f"results-{club}-{_slug(event.name, 'event')}-{event.date.isoformat()}.{fmt}"


def _unavailable(request: HttpRequest, event: Event, problem: str) -> HttpResponse:
    family = event_family(event)
    simultaneous = family.simultaneous if problem == "section" else None
    context = {
        "event": event,
        "problem": problem,
        "is_simultaneous": family.is_simultaneous,
        "simultaneous": simultaneous,
        "directs_simultaneous": simultaneous is not None
        and user_directs(request.user, simultaneous),
    }
    return render(request, "scoring/organiser/results_file_unavailable.html", context, status=409)


@login_required
@require_GET
@directs(Event)
def results_file(request: HttpRequest, event: Event, fmt: str) -> HttpResponse:
    """The event's results file as JSON or CSV (a 409 page while it has none)."""
    if fmt not in FORMATS:
        raise Http404(_("The results file exists as json or csv."))
    problem = results_file_problem(event)
    if problem is not None:
        return _unavailable(request, event, problem)
    document = results_document(event)
    if fmt == "json":
        body = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        content_type = "application/json; charset=utf-8"
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=",", lineterminator="\r\n")
        writer.writerow(CSV_COLUMNS)
        writer.writerows(results_csv_rows(document))
        body = buffer.getvalue()
        content_type = "text/csv; charset=utf-8; header=present"
    response = HttpResponse(body.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=_filename(event, fmt)
    )
    response["Cache-Control"] = "private, no-store"
    return response

"""The organiser's archive pages: download an event's archive, restore one into a club.

- ``organiser_archive``: the archive file of an event the user directs (a 404 otherwise, as
  for every organiser page); a section is archived with its simultaneous (the user is sent back
  with a message).
- ``organiser_restore``: a form (club, file) that restores an archive into one of the clubs the
  user organises (403 for a user who organises none). A refused file is a form error (status
  400) and nothing is stored; a restore leads to the organiser page of the restored event.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from clubs.access import clubs_directed_by, directs, user_directs_a_club
from scoring.archive import (
    ArchiveError,
    RestoreReport,
    archive_event,
    archive_filename,
    dumps,
    restore_archive,
)
from scoring.forms import UPLOAD_MAX_BYTES, RestoreForm
from tournaments.models import Event


@login_required
@require_GET
@directs(Event)
def organiser_archive(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's archive as a file to download."""
    try:
        text = dumps(archive_event(event))
    except ArchiveError as error:
        messages.error(request, error.message)
        return redirect("organiser:event", pk=event.pk)
    response = HttpResponse(text.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=archive_filename(event)
    )
    response["Cache-Control"] = "private, no-store"
    return response


def _restored_message(report: RestoreReport) -> str:
    if report.verified is None:
        check = _("The archive holds no standings.")
    elif report.verified:
        check = _("Standings verified: recomputed from the results, they equal the archived ones.")
    else:
        check = _(
            "The archived standings differ from a recompute of the results (%(what)s); they "
            "were restored as archived."
        ) % {"what": ", ".join(report.differences or [])}
    codes = (
        _("the table codes were kept")
        if report.table_codes_kept
        else _("every table has a new code: print the table cards again")
    )
    return _("Event restored: %(results)s results, %(tables)s tables (%(codes)s). %(check)s") % {
        "results": report.results,
        "tables": report.tables,
        "codes": codes,
        "check": check,
    }


@login_required
@require_http_methods(["GET", "POST"])
def organiser_restore(request: HttpRequest) -> HttpResponse:
    """Restore an archive into a club the user organises."""
    if not user_directs_a_club(request.user):
        raise PermissionDenied
    clubs = clubs_directed_by(request.user)  # by name (Club.Meta.ordering)
    form = RestoreForm(request.POST or None, request.FILES or None, clubs=clubs)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                report = restore_archive(
                    form.cleaned_data["file"],
                    club=form.cleaned_data["club"],
                    max_bytes=UPLOAD_MAX_BYTES,
                )
            except ArchiveError as error:
                form.add_error("file", error.message)
            else:
                messages.success(request, _restored_message(report))
                return redirect("organiser:event", pk=report.event.pk)
    return render(request, "scoring/organiser/restore.html", {"form": form}, status=status)

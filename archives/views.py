"""The organiser's archive pages: download the archive of a competition, restore one.

- ``public:organiser_archive`` (an event), ``archives:cup``, ``archives:free_deal``,
  ``archives:series``: the archive file of a competition the user directs (a 404 otherwise, as
  for every organiser page); a section is archived with its simultaneous (the user is sent back
  with a message).
- ``public:organiser_restore``: a form (club, file) that restores an archive of any kind into
  one of the clubs the user organises (403 for a user who organises none). A refused file is a
  form error (status 400) and nothing is stored; a restore leads to the organiser page of what
  was restored.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods

from archives.format import ArchiveError, dumps
from archives.forms import UPLOAD_MAX_BYTES, RestoreForm
from archives.kinds import KINDS, restore_document, restored_summary
from clubs.access import clubs_directed_by, directs, user_directs_a_club
from freedeal.models import FreeDealTournament
from series.models import Series
from teammatch.models import Cup
from tournaments.models import Event


def _download(kind: str, competition: Any) -> HttpResponse:
    spec = KINDS[kind]
    text = dumps(spec.archive(competition))
    response = HttpResponse(text.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=spec.filename(competition)
    )
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
@directs(Event)
def organiser_archive(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's archive as a file to download."""
    try:
        return _download("event", event)
    except ArchiveError as error:
        messages.error(request, error.message)
        return redirect("organiser:event", pk=event.pk)


@login_required
@require_GET
@directs(Cup)
def cup_archive(request: HttpRequest, cup: Cup) -> HttpResponse:
    """The cup's archive as a file to download."""
    return _download("cup", cup)


@login_required
@require_GET
@directs(FreeDealTournament)
def free_deal_archive(request: HttpRequest, tournament: FreeDealTournament) -> HttpResponse:
    """The free-deal tournament's archive as a file to download."""
    return _download("free-deal", tournament)


@login_required
@require_GET
@directs(Series)
def series_archive(request: HttpRequest, series: Series) -> HttpResponse:
    """The series' archive (with its events) as a file to download."""
    return _download("series", series)


@login_required
@require_http_methods(["GET", "POST"])
def organiser_restore(request: HttpRequest) -> HttpResponse:
    """Restore an archive of any kind into a club the user organises."""
    if not user_directs_a_club(request.user):
        raise PermissionDenied
    clubs = clubs_directed_by(request.user)  # by name (Club.Meta.ordering)
    form = RestoreForm(request.POST or None, request.FILES or None, clubs=clubs)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                restored = restore_document(
                    form.cleaned_data["file"],
                    club=form.cleaned_data["club"],
                    max_bytes=UPLOAD_MAX_BYTES,
                )
            except ArchiveError as error:
                form.add_error("file", error.message)
            else:
                messages.success(request, restored_summary(restored))
                return redirect(restored.url)
    return render(request, "archives/restore.html", {"form": form}, status=status)

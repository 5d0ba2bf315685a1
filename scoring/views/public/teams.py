"""The team ranking (triplettes, quadrettes) and the quadrette match sheets."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.access import user_directs, visible_or_404
from scoring.models import RankingEntry
from scoring.presentation import match_sheet_rows
from scoring.selectors import (
    event_family,
    ranking_rows,
    snapshot_matches,
    standings_status,
    teams_by_pk,
)
from scoring.views.public import page_context
from tournaments.models import Event
from tournaments.publication import deals_hidden_from


@require_GET
def team_ranking(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    if not event.is_team_event:
        raise Http404(_("This event has no teams."))
    family = event_family(event)
    complete = user_directs(request.user, event)
    context = page_context(
        event,
        standings_status(event),
        family,
        complete=complete,
        entries=ranking_rows(
            event, RankingEntry.Kind.TEAM, sections=family.is_simultaneous, complete=complete
        ),
        sections=family.is_simultaneous,
        show_vp=event.format == Event.Format.QUADRETTE,
    )
    return render(request, "scoring/public/teams.html", context)


@require_GET
def match_sheets(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_or_404(request, Event, event_id)
    if event.format != Event.Format.QUADRETTE:
        raise Http404(_("Match sheets exist for quadrette events only."))
    status = standings_status(event)
    complete = user_directs(request.user, event)
    hidden_deals = deals_hidden_from(event, directs=complete)
    matches = snapshot_matches(status.snapshot, complete=complete)
    sheets = match_sheet_rows(matches, teams_by_pk(event), hidden_deals)
    context = page_context(event, status, matches=sheets, complete=complete)
    return render(request, "scoring/public/matches.html", context)

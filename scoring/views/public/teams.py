"""The team ranking (triplettes, quadrettes) and the quadrette match sheets.

The match sheets page shows every match, or one team's (``?team=<id>``, chosen from the list
of the event's teams at the top: a phone shows one team's evening in two screens), each of its
matches read from its side. A value that is no team of the event answers 404 with the page
saying so above the list of teams.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.access import user_directs, visible_or_404
from rules.names import text_sort_key
from scoring.models import RankingEntry
from scoring.presentation import match_sheet_rows, ranked_rows, team_match_sheets
from scoring.selectors import (
    event_family,
    ranking_rows,
    snapshot_matches,
    standings_status,
    teams_by_pk,
)
from scoring.views.public import page_context
from tournaments.models import Event, Team
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
        entries=ranked_rows(
            ranking_rows(
                event, RankingEntry.Kind.TEAM, sections=family.is_simultaneous, complete=complete
            )
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
    teams = teams_by_pk(event)
    try:
        chosen = chosen_team(request, teams)
    except ValueError:
        chosen, team_error = None, _("This event has no such team.")
    else:
        team_error = ""
    sheets = match_sheet_rows(matches, teams, hidden_deals)
    if chosen is not None:
        sheets = team_match_sheets(sheets, chosen.pk)
    context = page_context(
        event,
        status,
        matches=sheets,
        complete=complete,
        teams=sorted(teams.values(), key=lambda team: (text_sort_key(team.name), team.pk)),
        chosen=chosen,
        team_error=team_error,
    )
    # A team that is not the event's: the page says so above the list to choose from.
    status_code = 404 if team_error else 200
    return render(request, "scoring/public/matches.html", context, status=status_code)


def chosen_team(request: HttpRequest, teams: dict[int, Team]) -> Team | None:
    """The team of ``?team=<id>`` (none, or empty: every team); ``ValueError`` when the value
    is not the id of one of the event's teams."""
    value = request.GET.get("team", "")
    if not value:
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise ValueError(value)
    team = teams.get(int(value))
    if team is None:
        raise ValueError(value)
    return team

"""The live ranking of an event and its projector mode: one view, two templates.

The ranking table is an htmx fragment refreshed every 15 seconds while the ranking is
provisional (a final one neither polls nor says it refreshes); the same URL answers the
whole page or the fragment (``HX-Request``), and the fragment's rows are cached, as plain
values, on the standings' versions, the language and the view; each process keeps the last
fragments it rendered from them (:class:`RenderedFragments`).

A simultaneous's rankings (overall) name each row's section; a section's are its players'
ranks on the overall percentages, and say so with a link to the overall ranking.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import TypeGuard

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from clubs.access import user_directs, visible_or_404
from scoring.models import RankingEntry
from scoring.presentation import RankedRow, ranked_rows, ranking_lines, ranking_views
from scoring.selectors import (
    StandingsStatus,
    event_family,
    ranking_kinds,
    ranking_rows,
    standings_status,
)
from scoring.views.public import page_context
from tournaments.models import Event

RANKING_CACHE_SECONDS = 3600
#: The status htmx reads as "stop polling" (the swap still happens).
HTMX_STOP_POLLING = 286
#: Fragments a process keeps of its own rendering (:class:`RenderedFragments`).
RENDERED_KEPT = 32


class RenderedFragments:
    """The last ranking fragments this process rendered itself, by their cache key, each for
    at most :data:`RANKING_CACHE_SECONDS`: a big ranking that a room's phones poll is rendered
    once per version and process. Process memory that only this module writes, never the
    shared cache (the shared cache keeps the rows, data that the template escapes)."""

    def __init__(self, kept: int, seconds: float) -> None:
        self.kept, self.seconds = kept, seconds
        self._fragments: OrderedDict[str, tuple[float, SafeString]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> SafeString | None:
        with self._lock:
            found = self._fragments.get(key)
            if found is None or found[0] < time.monotonic():
                return None
            self._fragments.move_to_end(key)
            return found[1]

    def put(self, key: str, fragment: SafeString) -> None:
        with self._lock:
            self._fragments[key] = (time.monotonic() + self.seconds, fragment)
            self._fragments.move_to_end(key)
            while len(self._fragments) > self.kept:
                self._fragments.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._fragments.clear()


rendered_fragments = RenderedFragments(RENDERED_KEPT, RANKING_CACHE_SECONDS)


def ranking_table(
    request: HttpRequest,
    event: Event,
    view: str,
    status: StandingsStatus,
    projector: bool = False,
    *,
    sections: bool = False,
    complete: bool = False,
) -> SafeString:
    """The ranking table of ``view`` (a ranking kind), its rows cached as plain values
    (:class:`~scoring.presentation.RankedRow`) on (event, versions, language, view, mode).
    ``sections``: a simultaneous's overall ranking, with a column naming each row's section.
    ``complete``: the organisers' ranking on every entered deal, instead of the published one
    (deals finished everywhere)."""
    computed_at = status.computed_at.timestamp() if status.computed_at else "none"
    key = ":".join(
        str(part)
        for part in (
            "public-ranking-rows",
            event.pk,
            status.results_version,
            status.snapshot_version if status.snapshot else "none",
            computed_at,
            status.entered,
            status.finished,
            event.status,  # a section's own close changes the status line
            get_language(),
            view,
            int(projector),
            int(sections),
            int(complete),
        )
    )
    fragment = rendered_fragments.get(key)
    if fragment is not None:
        return fragment
    rows = cache.get(key)
    if not _ranked_rows(rows):
        rows = ranked_rows(ranking_rows(event, view, sections=sections, complete=complete))
        cache.set(key, rows, RANKING_CACHE_SECONDS)
    # Rendered here from the cached values: the template escapes them, whatever the shared
    # cache gives back (what it holds is never taken for markup).
    fragment = render_to_string(
        "scoring/public/_ranking_table.html",
        {
            "event": event,
            "view": view,
            "entries": rows,
            "lines": ranking_lines(rows) if view == RankingEntry.Kind.LINE else [],
            "status": status,
            "projector": projector,
            "sections": sections,
            "show_vp": event.format == Event.Format.QUADRETTE,
            "complete": complete,
        },
        request=request,
    )
    rendered_fragments.put(key, fragment)
    return fragment


def _ranked_rows(value: object) -> TypeGuard[list[RankedRow]]:
    """Whether ``value`` (read from the cache) is a ranking's rows; anything else is a miss."""
    return isinstance(value, list) and all(isinstance(row, RankedRow) for row in value)


@require_GET
def ranking(request: HttpRequest, event_id: int, projector: bool = False) -> HttpResponse:
    """The ranking page (``?view=`` a ranking kind), or its full-screen projector mode."""
    event = visible_or_404(request, Event, event_id)
    view = request.GET.get("view", "")
    if view not in RankingEntry.Kind.values:
        view = RankingEntry.Kind.TEAM if event.is_team_event else RankingEntry.Kind.INDIVIDUAL
    status = standings_status(event)
    family = event_family(event)
    sections = family.is_simultaneous
    # The projector shows the room what everybody may see, whoever drives it.
    complete = not projector and user_directs(request.user, event)
    fragment = ranking_table(
        request, event, view, status, projector, sections=sections, complete=complete
    )
    response: HttpResponse
    if request.headers.get("HX-Request"):
        # 286: htmx swaps the final ranking in and stops polling (a page opened before).
        response = HttpResponse(fragment, status=200 if status.provisional else HTMX_STOP_POLLING)
    elif projector:
        context = page_context(event, status, family, view=view, fragment=fragment)
        response = render(request, "scoring/public/projector.html", context)
    else:
        views = ranking_views(ranking_kinds(event))
        context = page_context(
            event, status, family, view=view, views=views, fragment=fragment, directs=complete
        )
        response = render(request, "scoring/public/ranking.html", context)
    # The same URL answers the whole page or the htmx fragment: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response

"""Rankings and hand scores API: reads of the standings snapshot of a visible event.

The hand scores of a deal some table has still to play are not published (404) to anybody but
the event's organisers, and the team ranking's match sheets leave out their per-deal net and PM
(``tournaments.publication.deals_hidden_from``); the published rankings count only the deals
every table has finished, the organisers' count every entered deal. Reads go through
``scoring.selectors``, the read path of the public pages too.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.access import user_directs, visible_or_404
from clubs.api import problem_response
from clubs.problem_schema import ErrorSerializer
from scoring.api.serializers import HandScoreSerializer, RankingSerializer
from scoring.models import RankingEntry
from scoring.selectors import (
    deal_of,
    hand_scores_for_deal,
    ranking_rows,
    snapshot_matches,
    standings_status,
)
from tournaments.models import Event
from tournaments.publication import deals_hidden_from


def matches_without_deals(matches: list[dict[str, Any]], hidden: set[int]) -> list[dict[str, Any]]:
    """Match sheets whose per-deal entries of the ``hidden`` deals are left out (totals stay)."""
    return [
        {**match, "deals": [d for d in match.get("deals", []) if int(d["deal"]) not in hidden]}
        for match in matches
    ]


class RankingView(APIView):
    """A ranking of the event (individual, per line, or team) with the snapshot's status.

    Everybody sees the published ranking: it counts only the deals every scheduled table has
    played (``status.deals_counted`` of ``status.deals_total``), so that it reveals nothing of a
    deal still in play; the event's organisers see the ranking on every entered deal.
    """

    permission_classes = [permissions.AllowAny]  # visibility: visible_event_or_404

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "kind",
                OpenApiTypes.STR,
                enum=list(RankingEntry.Kind.values),
                description="individual [default], line or team",
            ),
            OpenApiParameter(
                "line",
                OpenApiTypes.STR,
                enum=["N", "E", "S", "W"],
                description="only this line (kind=line)",
            ),
        ],
        responses={200: RankingSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = visible_or_404(request, Event, event_id)
        kind = request.query_params.get("kind", RankingEntry.Kind.INDIVIDUAL)
        if kind not in RankingEntry.Kind.values:
            message = _("kind: %(kind)s is not one of %(choices)s") % {
                "kind": kind,
                "choices": ", ".join(RankingEntry.Kind.values),
            }
            # The documented error shape (problem details: code, errors by field).
            return problem_response(400, "invalid", message, errors={"kind": [message]})
        line = request.query_params.get("line") or None
        status = standings_status(event)
        directs = user_directs(request.user, event)
        rows = ranking_rows(event, kind, line=line, complete=directs)
        data = {"kind": kind, "status": status, "rows": rows}
        if kind == RankingEntry.Kind.TEAM:
            matches = snapshot_matches(status.snapshot, complete=directs)
            hidden = deals_hidden_from(event, directs=directs)
            data["matches"] = matches_without_deals(matches, hidden) if hidden else matches
        return Response(RankingSerializer(data).data)


class DealHandScoresView(APIView):
    """The hand scores of one deal (a frequency sheet): every seat of every table.

    404 for anybody but the organisers while some table has still to play the deal.
    """

    permission_classes = [permissions.AllowAny]  # visibility: visible_event_or_404

    @extend_schema(responses={200: HandScoreSerializer(many=True), 404: ErrorSerializer})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = visible_or_404(request, Event, event_id)
        deal = deal_of(event, number)
        if deal is None:
            raise Http404
        if deal.number in deals_hidden_from(event, directs=user_directs(request.user, event)):
            raise NotFound(
                _("The results of deal %(number)s are published once every table has played it.")
                % {"number": deal.number}
            )
        return Response(HandScoreSerializer(hand_scores_for_deal(event, deal), many=True).data)

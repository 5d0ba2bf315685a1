"""Rankings and hand scores API: reads of the standings snapshot of a visible event."""

from __future__ import annotations

from dataclasses import asdict

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.serializers import HandScoreSerializer, RankingSerializer
from scoring.models import RankingEntry
from scoring.selectors import (
    hand_scores_for_deal,
    ranking_for_event,
    snapshot_for_event,
    snapshot_status,
)
from tournaments.api.serializers import ErrorSerializer
from tournaments.api.views import visible_event_or_404
from tournaments.models import Deal


class RankingView(APIView):
    """A ranking of the event (individual, per line, or team) with the snapshot's status."""

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
        event = visible_event_or_404(request, event_id)
        kind = request.query_params.get("kind", RankingEntry.Kind.INDIVIDUAL)
        if kind not in RankingEntry.Kind.values:
            raise ValidationError(
                {
                    "kind": [
                        _("kind: %(kind)s is not one of %(choices)s")
                        % {"kind": kind, "choices": ", ".join(RankingEntry.Kind.values)}
                    ]
                }
            )
        line = request.query_params.get("line") or None
        rows = ranking_for_event(event, kind, line=line)
        data = {"kind": kind, "status": asdict(snapshot_status(event)), "rows": rows}
        if kind == RankingEntry.Kind.TEAM:
            snapshot = snapshot_for_event(event)
            data["matches"] = (snapshot.data or {}).get("matches", []) if snapshot else []
        return Response(RankingSerializer(data).data)


class DealHandScoresView(APIView):
    """The hand scores of one deal (a frequency sheet): every seat of every table."""

    @extend_schema(responses={200: HandScoreSerializer(many=True), 404: ErrorSerializer})
    def get(self, request: Request, event_id: int, number: int) -> Response:
        event = visible_event_or_404(request, event_id)
        deal = get_object_or_404(Deal, event=event, number=number)
        return Response(HandScoreSerializer(hand_scores_for_deal(event, deal), many=True).data)

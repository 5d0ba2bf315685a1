"""The series ranking API: ``GET /api/v1/series/<id>/ranking/`` (read only).

A public series for everybody, a private one for its club's organisers (404 otherwise). The
same rows as the public page (``series.selectors.series_ranking``): the counted events' final
rankings only, with each event's counted flag and why it does not count yet.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.access import visible_or_404
from clubs.problem_schema import ErrorSerializer
from series.models import Series
from series.selectors import SeriesRanking, series_ranking


class SeriesFormulaSerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=Series.Method.choices)
    points_table = serializers.ListField(child=serializers.IntegerField())
    points_default = serializers.IntegerField()
    best_n = serializers.IntegerField(allow_null=True, help_text="null: every result counts")
    min_events = serializers.IntegerField(help_text="events played to be ranked")


class SeriesEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    club = serializers.CharField()
    counted = serializers.BooleanField()
    not_counted_because = serializers.ChoiceField(
        choices=[("not_public", "not_public"), ("not_finished", "not_finished"),
                 ("updating", "updating")],
        allow_null=True,
    )  # fmt: skip


class SeriesResultSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    place = serializers.IntegerField(help_text="the player's (or his team's) final place")
    percentage = serializers.DecimalField(max_digits=6, decimal_places=2, allow_null=True)
    value = serializers.DecimalField(max_digits=10, decimal_places=2)
    counted = serializers.BooleanField()


class SeriesStandingSerializer(serializers.Serializer):
    place = serializers.IntegerField(allow_null=True, help_text="null: not ranked")
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    events_played = serializers.IntegerField()
    results_counted = serializers.IntegerField()
    score = serializers.DecimalField(
        max_digits=10, decimal_places=2, help_text="total points, or average percentage"
    )
    results = SeriesResultSerializer(many=True)


class SeriesRankingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    season = serializers.CharField(allow_blank=True)
    club = serializers.CharField()
    formula = SeriesFormulaSerializer()
    events = SeriesEventSerializer(many=True)
    ranking = SeriesStandingSerializer(many=True, help_text="ranked players, then the others")


def ranking_data(ranking: SeriesRanking) -> dict[str, Any]:
    series = ranking.series
    standings = []
    for standing in ranking.standings:
        player = ranking.players[standing.player_id]
        standings.append(
            {
                "place": standing.place,
                "player": player.pk,
                "name": str(player),
                "club": player.club.name if player.club else "",
                "events_played": standing.played,
                "results_counted": standing.counted,
                "score": standing.score,
                "results": [
                    {
                        "event": r.event_id,
                        "place": r.place,
                        "percentage": r.percentage,
                        "value": r.value,
                        "counted": r.counted,
                    }
                    for r in standing.results
                ],
            }
        )
    return {
        "id": series.pk,
        "name": series.name,
        "season": series.season,
        "club": series.club.name,
        "formula": {
            "method": series.method,
            "points_table": list(series.points_table),
            "points_default": series.points_default,
            "best_n": series.best_n,
            "min_events": series.min_events,
        },
        "events": [
            {
                "id": line.event.pk,
                "name": line.event.name,
                "date": line.event.date,
                "club": line.event.club.name,
                "counted": line.counted,
                "not_counted_because": line.reason,
            }
            for line in ranking.events
        ],
        "ranking": standings,
    }


class SeriesRankingView(APIView):
    """A series' ranking over its counted events (finished, public, final standings)."""

    permission_classes = [permissions.AllowAny]  # visibility: clubs.access.visible_or_404

    @extend_schema(
        operation_id="series_ranking",
        summary="Series ranking",
        responses={200: SeriesRankingSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, series_id: int) -> Response:
        series = visible_or_404(request, Series, series_id)
        data = ranking_data(series_ranking(series))
        return Response(SeriesRankingSerializer(data).data)

"""The free-deal ranking API: ``GET /api/v1/free-deal/<id>/ranking/`` (read only).

Public tournaments only (404 otherwise, even for its organisers: the API publishes). The same
rows as the public page (``freedeal.selectors.ranking``): place, player, total, marks per
party, best party; ``provisional`` until the tournament is finished.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import ErrorSerializer
from freedeal import selectors
from freedeal.models import FreeDealTournament


class FreeDealRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    number = serializers.IntegerField(help_text="the player's number in the tournament")
    player = serializers.IntegerField(help_text="the player's id")
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="sum of the player's marks")
    best_party = serializers.IntegerField(help_text="his highest mark of one party")
    parties = serializers.ListField(
        child=serializers.IntegerField(), help_text="his marks per party"
    )
    tied = serializers.BooleanField(help_text="shares the place with another player")


class FreeDealRankingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    club = serializers.CharField()
    status = serializers.ChoiceField(choices=FreeDealTournament.Status.choices)
    ruleset = serializers.DictField(help_text="the rules (name and parameters)")
    tie_break = serializers.ChoiceField(choices=FreeDealTournament.TieBreak.choices)
    parties = serializers.IntegerField(help_text="parties of the tournament")
    parties_counted = serializers.IntegerField(help_text="parties begun (all once finished)")
    deals_per_party = serializers.IntegerField()
    deals_entered = serializers.IntegerField()
    deals_total = serializers.IntegerField()
    provisional = serializers.BooleanField()
    ranking = FreeDealRowSerializer(many=True)


def ranking_data(ranking: selectors.Ranking) -> dict[str, Any]:
    tournament = ranking.tournament
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "date": tournament.date,
        "club": tournament.club.name,
        "status": tournament.status,
        "ruleset": tournament.ruleset,
        "tie_break": tournament.tie_break,
        "parties": tournament.parties,
        "parties_counted": ranking.parties,
        "deals_per_party": tournament.deals_per_party,
        "deals_entered": ranking.deals_entered,
        "deals_total": ranking.deals_total,
        "provisional": ranking.provisional,
        "ranking": [
            {
                "place": row.place,
                "number": row.player,
                "player": ranking.entries[row.player].player_id,
                "name": str(ranking.entries[row.player].player),
                "total": row.total,
                "best_party": row.best_party,
                "parties": list(row.parties),
                "tied": row.tied,
            }
            for row in ranking.rows
        ],
    }


class FreeDealRankingView(APIView):
    """A public free-deal tournament's ranking (provisional while it runs)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="free_deal_ranking",
        summary="Free-deal tournament ranking",
        responses={200: FreeDealRankingSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(
            FreeDealTournament.objects.select_related("club"), pk=pk, public=True
        )
        data = ranking_data(selectors.ranking(tournament))
        return Response(FreeDealRankingSerializer(data).data)

"""The cup bracket API: ``GET /api/v1/cups/<id>/bracket/`` (read only, public cups only).

The same figures as the public bracket page: while a match is in play its points de match
count only the deals entered in both rooms (the publication rule); ``deals_counted`` says how
many of ``deals_total``.
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
from teammatch.models import Cup, CupMatch, CupTeam
from teammatch.presentation import round_name
from teammatch.services import match_sheets


class CupTeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField()


class QuarterPMSerializer(serializers.Serializer):
    quarter = serializers.IntegerField()
    pm_a = serializers.IntegerField(help_text="team A's PM over the counted deals")
    deals_counted = serializers.IntegerField()
    deals_total = serializers.IntegerField()
    closed = serializers.BooleanField()


class CupMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    round_name = serializers.CharField()
    slot = serializers.IntegerField()
    team_a = serializers.IntegerField(allow_null=True)
    team_b = serializers.IntegerField(allow_null=True)
    bye = serializers.BooleanField()
    status = serializers.ChoiceField(choices=CupMatch.Status.choices)
    quarters = QuarterPMSerializer(many=True)
    pm_a = serializers.IntegerField(allow_null=True, help_text="team A's PM so far (B: −pm_a)")
    deals_counted = serializers.IntegerField()
    deals_total = serializers.IntegerField()
    winner = serializers.IntegerField(allow_null=True)
    decided_by = serializers.CharField(
        allow_blank=True, help_text='"pm", "net", "last_quarter", "coin", "bye" or empty'
    )


class CupBracketSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    club = serializers.CharField()
    status = serializers.ChoiceField(choices=Cup.Status.choices)
    deals_per_quarter = serializers.IntegerField()
    pm_scale = serializers.ListField(child=serializers.IntegerField())
    tie_break = serializers.ListField(child=serializers.CharField())
    teams = CupTeamSerializer(many=True)
    matches = CupMatchSerializer(many=True)


def bracket_data(cup: Cup) -> dict[str, Any]:
    matches = list(CupMatch.objects.filter(cup=cup).order_by("round", "slot"))
    rounds = max((m.round for m in matches), default=0)
    played = [m for m in matches if m.team_a_id and m.team_b_id and not m.bye]
    sheets = match_sheets(played, cup, everything=False)
    rows = []
    for match in matches:
        quarters: list[dict[str, Any]] = []
        pm_a = None
        counted = total = 0
        sheet = sheets.get(match.pk)
        if sheet is not None:
            quarters = [
                {
                    "quarter": q.number,
                    "pm_a": q.pm_a,
                    "deals_counted": q.counted,
                    "deals_total": len(q.deals),
                    "closed": q.closed,
                }
                for q in sheet.quarters
            ]
            pm_a, counted, total = sheet.pm_a, sheet.counted, sheet.total
        rows.append(
            {
                "id": match.pk,
                "round": match.round,
                "round_name": round_name(match.round, rounds),
                "slot": match.slot,
                "team_a": match.team_a_id,
                "team_b": match.team_b_id,
                "bye": match.bye,
                "status": match.status,
                "quarters": quarters,
                "pm_a": pm_a,
                "deals_counted": counted,
                "deals_total": total,
                "winner": match.winner_id,
                "decided_by": match.decided_by,
            }
        )
    return {
        "id": cup.pk,
        "name": cup.name,
        "date": cup.date,
        "club": cup.club.name,
        "status": cup.status,
        "deals_per_quarter": cup.deals_per_quarter,
        "pm_scale": list(cup.pm_scale),
        "tie_break": cup.tie_break.split(","),
        "teams": [
            {"id": t.pk, "name": t.name, "seed": t.seed}
            for t in CupTeam.objects.filter(cup=cup).order_by("seed")
        ],
        "matches": rows,
    }


class CupBracketView(APIView):
    """A public cup's bracket with every match's points de match so far."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="cup_bracket",
        summary="Cup bracket",
        responses={200: CupBracketSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, cup_id: int) -> Response:
        cup = get_object_or_404(Cup.objects.select_related("club"), pk=cup_id, public=True)
        return Response(CupBracketSerializer(bracket_data(cup)).data)

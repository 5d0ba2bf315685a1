"""Serializers of the published standings (snapshot rows)."""

from __future__ import annotations

from rest_framework import serializers

from scoring.models import HandScore, RankingEntry


class RankingEntrySerializer(serializers.ModelSerializer):
    entrant = serializers.IntegerField(source="entrant_id", allow_null=True, read_only=True)
    team = serializers.IntegerField(source="team_id", allow_null=True, read_only=True)
    name = serializers.SerializerMethodField()
    section = serializers.SerializerMethodField(
        help_text="The event the player or team plays in: a section's, in a simultaneous."
    )

    class Meta:
        model = RankingEntry
        fields = [
            "rank",
            "line",
            "entrant",
            "team",
            "name",
            "section",
            "percentage",
            "penalty",
            "marks_total",
            "deals_played",
            "points_de_match",
            "victory_points",
        ]

    def get_name(self, row: RankingEntry) -> str:
        if row.team is not None:
            return row.team.name
        return str(row.entrant) if row.entrant is not None else ""

    def get_section(self, row: RankingEntry) -> int | None:
        owner = row.team if row.team is not None else row.entrant
        return owner.event_id if owner is not None else None


class StandingsStatusSerializer(serializers.Serializer):
    """``scoring.selectors.StandingsStatus``: how far the standings shown are."""

    state = serializers.ChoiceField(
        choices=[
            ("none", "none"),
            ("behind", "behind"),
            ("provisional", "provisional"),
            ("complete", "complete"),
        ]
    )
    snapshot_version = serializers.IntegerField()
    results_version = serializers.IntegerField()
    results_entered = serializers.IntegerField(source="entered")
    results_expected = serializers.IntegerField(source="expected")
    computed_at = serializers.DateTimeField(allow_null=True)
    deals_total = serializers.IntegerField(help_text="Deals of the event.")
    deals_counted = serializers.IntegerField(
        help_text=(
            "Deals the published rankings count: those every scheduled table has played. "
            "The rankings of the event's organisers count every entered deal."
        )
    )


class RankingSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=RankingEntry.Kind.choices)
    status = StandingsStatusSerializer()
    rows = RankingEntrySerializer(many=True)
    matches = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="Quadrette match sheets (team ranking only).",
    )


class HandScoreSerializer(serializers.ModelSerializer):
    deal = serializers.IntegerField(source="deal.number", read_only=True)
    section = serializers.IntegerField(
        source="event_id",
        read_only=True,
        help_text="The event the table belongs to: a section's, in a simultaneous.",
    )
    entrant = serializers.IntegerField(source="entrant_id", read_only=True)
    name = serializers.SerializerMethodField()
    result = serializers.IntegerField(source="result_id", read_only=True)
    matchpoints = serializers.DecimalField(
        max_digits=9, decimal_places=2, read_only=True, allow_null=True
    )
    top = serializers.DecimalField(max_digits=9, decimal_places=2, read_only=True, allow_null=True)

    class Meta:
        model = HandScore
        fields = [
            "deal",
            "section",
            "table_number",
            "round_number",
            "seat",
            "entrant",
            "name",
            "result",
            "mark",
            "matchpoints",
            "top",
            "percentage",
            "artificial",
        ]

    def get_name(self, score: HandScore) -> str:
        return str(score.entrant)

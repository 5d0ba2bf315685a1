"""Serializers of the tournaments API: read shapes of events, entrants, deals and results, and
the documented input of result entry (validated by ``rules`` in the service, not here)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.api import ChelemSerializer as ChelemSerializer
from clubs.api import OutcomeField as OutcomeField
from clubs.api import OutcomeSerializer as OutcomeSerializer
from clubs.api import PoigneeSerializer as PoigneeSerializer
from clubs.api import PointsField as PointsField
from clubs.api import conflict_serializer
from rules.ruleset import RulesetName
from tournaments import selectors
from tournaments.models import (
    Deal,
    Entrant,
    Event,
    Seat,
    TableResult,
)


class SeatIntsSerializer(serializers.Serializer):
    """One integer (or null) per seat."""

    N = serializers.IntegerField(allow_null=True)
    E = serializers.IntegerField(allow_null=True)
    S = serializers.IntegerField(allow_null=True)
    W = serializers.IntegerField(allow_null=True)


class SeatDecimalsSerializer(serializers.Serializer):
    """One percentage (or null) per seat."""

    N = serializers.DecimalField(max_digits=5, decimal_places=2, allow_null=True)
    E = serializers.DecimalField(max_digits=5, decimal_places=2, allow_null=True)
    S = serializers.DecimalField(max_digits=5, decimal_places=2, allow_null=True)
    W = serializers.DecimalField(max_digits=5, decimal_places=2, allow_null=True)


class TableResultInputSerializer(serializers.Serializer):
    """``POST /api/v1/tables/<code>/results/``: the deal (by number) and its outcome."""

    deal = serializers.IntegerField(min_value=1, help_text=_("The deal number."))
    outcome = OutcomeField()


class EventResultInputSerializer(TableResultInputSerializer):
    """``POST /api/v1/events/<id>/results/`` (organisers): deal, table (numbers) and outcome."""

    table = serializers.IntegerField(min_value=1, help_text=_("The table number."))


RULESET_NAME_CHOICES = [name.value for name in RulesetName]


class RulesetSerializer(serializers.Serializer):
    """The rule system an event plays (``docs/rulesets.md``)."""

    name = serializers.ChoiceField(choices=RULESET_NAME_CHOICES, read_only=True)
    pousse_multiplier = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text=_("Traditional rules: the pousse bid's multiplier (null: no pousse)."),
    )
    flambeuse = serializers.BooleanField(
        read_only=True, help_text=_("Traditional rules at 5 players: the flambeuse is played.")
    )


class EventSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.name", read_only=True)
    ruleset = RulesetSerializer(source="rules", read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "name",
            "date",
            "club",
            "format",
            "status",
            "public",
            "deals_per_round",
            "opponent_confirmation",
            "ruleset",
            "results_version",
        ]


class EntrantSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()
    club = serializers.SerializerMethodField()
    team = serializers.IntegerField(source="team_id", allow_null=True, read_only=True)
    team_name = serializers.SerializerMethodField()

    class Meta:
        model = Entrant
        fields = ["id", "slot", "name", "club", "team", "team_name", "line", "phantom"]

    def get_name(self, entrant: Entrant) -> str:
        return str(entrant)

    def get_club(self, entrant: Entrant) -> str | None:
        player = entrant.player
        return player.club.name if player is not None and player.club is not None else None

    def get_team_name(self, entrant: Entrant) -> str | None:
        return entrant.team.name if entrant.team is not None else None


class DealSerializer(serializers.ModelSerializer):
    cards = serializers.SerializerMethodField(
        help_text=_("The deal in text form; null until the event is finished (organisers see it).")
    )

    class Meta:
        model = Deal
        fields = ["number", "deal_set", "dealer_seat", "taker_seat", "imposed_contract", "cards"]

    def get_cards(self, deal: Deal) -> str | None:
        if self.context.get("show_cards"):
            return deal.cards or None
        return None


class TableResultSerializer(serializers.ModelSerializer):
    """A stored result: outcome, value, marks per seat, artificial scores, who sat where."""

    event = serializers.IntegerField(
        source="event_id",
        read_only=True,
        help_text="The event the result belongs to: a section's id in a simultaneous's list.",
    )
    deal = serializers.IntegerField(source="deal.number", read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True)
    round = serializers.IntegerField(source="round_number", read_only=True)
    outcome = serializers.SerializerMethodField()
    marks = serializers.SerializerMethodField()
    artificial = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    entered_by = serializers.CharField(
        source="entered_by_label",
        read_only=True,
        help_text="Who last wrote it: the table's phone or an account.",
    )

    class Meta:
        model = TableResult
        fields = [
            "id",
            "event",
            "deal",
            "table",
            "round",
            "kind",
            "outcome",
            "won",
            "margin",
            "value",
            "marks",
            "artificial",
            "seats",
            "confirmed",
            "director_assigned",
            "entered_by",
            "entered_via",
            "created_at",
            "updated_at",
        ]

    @extend_schema_field(OutcomeSerializer(allow_null=True))
    def get_outcome(self, result: TableResult) -> dict[str, Any] | None:
        return selectors.result_outcome(result)

    @extend_schema_field(SeatIntsSerializer)
    def get_marks(self, result: TableResult) -> dict[str, int | None]:
        return result.seat_marks()

    @extend_schema_field(SeatDecimalsSerializer)
    def get_artificial(self, result: TableResult) -> dict[str, str | None]:
        return {
            seat: (None if value is None else str(value))
            for seat, value in result.seat_artificial().items()
        }

    @extend_schema_field(SeatIntsSerializer)
    def get_seats(self, result: TableResult) -> dict[str, int | None]:
        """Entrant id per seat."""
        return result.seat_entrant_ids()


class TableResultReplaySerializer(TableResultSerializer):
    """200, a replay: the result stored now; ``corrected`` when the director changed it since
    the outcome this request's ``Idempotency-Key`` brought."""

    corrected = serializers.SerializerMethodField(
        help_text=(
            "True when the stored result no longer equals the outcome the key brought (the "
            "director corrected it since); false otherwise."
        )
    )

    class Meta(TableResultSerializer.Meta):
        fields = [*TableResultSerializer.Meta.fields, "corrected"]

    def get_corrected(self, obj: Any) -> bool:
        return bool(self.context.get("corrected", False))


#: 409 (problem details): the deal is already entered at that table; ``result`` the stored one.
ResultConflictSerializer = conflict_serializer(
    TableResultSerializer(
        allow_null=True,
        help_text=(
            "The stored result (for `idempotency_key_reused`: the one the key stored); null "
            "when the table code may not read it yet (an earlier round's deal other tables "
            "still play) or the key's result is gone."
        ),
    ),
    "ResultConflictSerializer",
)


class TableSeatSerializer(serializers.Serializer):
    seat = serializers.ChoiceField(choices=Seat.choices)
    entrant = EntrantSerializer()


class TablePlaySerializer(serializers.Serializer):
    """What a table plays in one round: seated entrants, deals and the results entered."""

    round = serializers.IntegerField()
    deal_set = serializers.IntegerField()
    sits_out = serializers.BooleanField()
    seats = TableSeatSerializer(many=True)
    deals = DealSerializer(many=True)
    results = TableResultSerializer(many=True)


class TableSerializer(serializers.Serializer):
    """A table as its code sees it (``tournaments.table_scope``)."""

    event = EventSerializer()
    table = serializers.IntegerField()
    open_round = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "The round whose deals the table code enters now: the first with a result missing "
            "(or awaiting confirmation); null once every round is entered."
        ),
    )
    rounds = TablePlaySerializer(many=True)

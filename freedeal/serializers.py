"""Serializers of the free-deal API: the ranking, the table phone's view of its table, a stored
result, and the documented input of a table's entry and correction (validated by the rules
engine in ``freedeal.outcomes``, not here: its messages name the faulty field)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.api import conflict_serializer
from clubs.outcomes import PoigneeSize, Side
from freedeal.models import FreeDealResult, FreeDealTournament
from freedeal.outcomes import PASSED
from rules.enums import ALL_CONTRACTS


# --------------------------------------------------------------------------- ranking
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


# --------------------------------------------------------------------------- results
class FreeDealResultSerializer(serializers.ModelSerializer):
    """A stored result: the outcome, its value and each player's mark."""

    table = serializers.IntegerField(source="table.number", read_only=True)
    taker = serializers.IntegerField(
        allow_null=True, read_only=True, help_text="the taker's player number (null: passed)"
    )
    partner = serializers.IntegerField(
        allow_null=True,
        read_only=True,
        help_text="at a table of 5: the called King's holder (null: none, or the taker alone)",
    )
    outcome = serializers.DictField(
        allow_null=True,
        read_only=True,
        help_text="the rules engine's outcome (null when everybody passed)",
    )
    marks = serializers.DictField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text="each player's mark, by player number (a string key)",
    )
    entered_by = serializers.CharField(source="entered_by_label", read_only=True)

    class Meta:
        model = FreeDealResult
        fields = [
            "id",
            "party",
            "table",
            "deal",
            "dealer",
            "passed",
            "contract",
            "taker",
            "partner",
            "outcome",
            "value",
            "marks",
            "entered_by",
            "entered_via",
            "updated_at",
        ]
        read_only_fields = fields


#: 409 (problem details): the deal is already entered with another outcome; ``result`` the
#: stored one.
FreeDealConflictSerializer = conflict_serializer(
    FreeDealResultSerializer(
        allow_null=True,
        help_text=(
            "The stored result (for `idempotency_key_reused`: the one the key stored; null "
            "when it is gone)."
        ),
    ),
    "FreeDealConflictSerializer",
)


# --------------------------------------------------------------------------- the table
class FreeDealTournamentBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    club = serializers.CharField()
    status = serializers.ChoiceField(choices=FreeDealTournament.Status.choices)
    ruleset = serializers.DictField(help_text="the rules (name and parameters)")
    parties = serializers.IntegerField()
    closed_parties = serializers.IntegerField()
    deals_per_party = serializers.IntegerField()


class FreeDealSeatSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="the player's number in the tournament")
    player = serializers.IntegerField(help_text="the player's id")
    name = serializers.CharField()


class FreeDealTableDealSerializer(serializers.Serializer):
    deal = serializers.IntegerField()
    dealer = serializers.IntegerField(help_text="the dealer's player number")
    result = FreeDealResultSerializer(allow_null=True, help_text="null: not entered yet")


class FreeDealTableSerializer(serializers.Serializer):
    """The open party at a table, as its code sees it."""

    tournament = FreeDealTournamentBriefSerializer()
    table = serializers.IntegerField()
    size = serializers.IntegerField(help_text="players at the table")
    party = serializers.IntegerField(
        allow_null=True, help_text="the open party (null: none is, results are no longer taken)"
    )
    provisional = serializers.BooleanField(help_text="the figures may still change")
    players = FreeDealSeatSerializer(many=True, help_text="seat order")
    deals = FreeDealTableDealSerializer(many=True)


# --------------------------------------------------------------------------- input
CONTRACT_CHOICES = [contract.value for contract in ALL_CONTRACTS] + [PASSED]
# The duplicate outcome's choice sets (one enum of each in the schema).
SIDE_CHOICES = Side.choices
SIZE_CHOICES = PoigneeSize.choices


class FreeDealPoigneeSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDE_CHOICES)
    size = serializers.ChoiceField(choices=SIZE_CHOICES)


class FreeDealChelemSerializer(serializers.Serializer):
    announced = serializers.BooleanField(default=False)
    made_by = serializers.ChoiceField(choices=SIDE_CHOICES, allow_null=True, required=False)


class FreeDealPetitChelemSerializer(serializers.Serializer):
    announced = serializers.BooleanField(default=False)
    made = serializers.BooleanField(default=False)


@extend_schema_field({"type": "number", "minimum": 0, "maximum": 91, "multipleOf": 0.5})
class FreeDealPointsField(serializers.FloatField):
    """Attack points, whole or half; the rules engine also accepts a numeric string."""


class FreeDealOutcomeSerializer(serializers.Serializer):
    """A deal's outcome as the table reports it (``docs/free-deal.md``)."""

    contract = serializers.ChoiceField(
        choices=CONTRACT_CHOICES,
        help_text=_("A contract of the tournament's rules, or “passed” (everybody passed)."),
    )
    taker = serializers.IntegerField(
        required=False, help_text=_("The taker's player number (a player of this table).")
    )
    partner = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=_(
            "At a table of 5 where a King is called: its holder's player number (the taker "
            "himself when he called his own King)."
        ),
    )
    oudlers = serializers.IntegerField(min_value=0, max_value=3, required=False)
    points = FreeDealPointsField(required=False, help_text=_("Points made by the attack."))
    petit_au_bout = serializers.ChoiceField(choices=SIDE_CHOICES, allow_null=True, required=False)
    poignees = FreeDealPoigneeSerializer(many=True, required=False)
    chelem = FreeDealChelemSerializer(required=False)
    petit_chelem = FreeDealPetitChelemSerializer(
        required=False, help_text=_("Traditional rules only.")
    )
    chien = serializers.IntegerField(
        required=False, help_text=_("House rules: the chien size the dealer chose.")
    )


@extend_schema_field(FreeDealOutcomeSerializer)
class FreeDealOutcomeField(serializers.JSONField):
    """The outcome object, passed as is to the rules engine (whose messages name the field)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(_("expected an object"))
        return super().to_internal_value(data)


class FreeDealCorrectionInputSerializer(serializers.Serializer):
    """``POST .../results/<deal>/correct/``: the corrected outcome (and the party shown)."""

    party = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text=_("The party the phone shows; refused (403) once it is closed. Default: open."),
    )
    outcome = FreeDealOutcomeField()


class FreeDealResultInputSerializer(FreeDealCorrectionInputSerializer):
    """``POST .../results/``: the deal (by number), its outcome (and the party shown)."""

    deal = serializers.IntegerField(min_value=1, help_text=_("The deal number in the party."))

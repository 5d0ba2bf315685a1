"""The cups' API: the bracket of a cup, and the room phone (the room's code is its key).

- ``GET /api/v1/cups/<id>/bracket/`` (read only; a private cup: its directors only): the same
  figures as the bracket page (``teammatch.publication``: while a match is in play its points de
  match count only the deals entered in both rooms; ``deals_counted`` says how many of
  ``deals_total``; ``provisional`` until the cup is finished).
- ``GET /api/v1/cups/rooms/<code>/``: the room's match, the quarter being played, its line-up
  and its deals with the results the room may read (its own, never the other room's).
- ``POST /api/v1/cups/rooms/<code>/results/`` enters a deal: 201 stored; 200 a replay (this
  very outcome was stored already, or a known ``Idempotency-Key``: nothing written, header
  ``Idempotent-Replayed: true``); 409 another outcome is stored, in whatever quarter
  (``result``: the stored one; nothing changed), or the key was used for another deal or
  outcome; 403 the deal is not writable now (``deal_not_in_quarter``, ``no_lineup``,
  ``quarter_closed``); 400 an invalid entry, naming its field.
- ``POST /api/v1/cups/rooms/<code>/results/correct/`` corrects the room's own entry of the
  quarter being played until it is closed (200 with the stored result; a replay 200 with the
  header; 403 ``quarter_closed``... or ``not_own_entry`` for the director's result).

Both writes go through the kernel's write path (:class:`clubs.api.EntryWriteMixin`, the room
page's save); every refusal is problem details (:func:`clubs.api.exception_handler`).

The room views reach the room through ``clubs.phone_codes.PhoneCodeAPIView``: an unknown code
is a 404 ``unknown_room_code``, too many unknown codes from one address a 429 ``throttled``
with ``Retry-After`` (a valid code is never throttled). No account, no session: the code is
the credential.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.access import user_directs, visible_or_404
from clubs.api import (
    CONFLICT_DESCRIPTION,
    IDEMPOTENCY_PARAMETERS,
    REPLAY_DESCRIPTION,
    REPLAYED,
    EntryWriteMixin,
    OutcomeField,
    conflict_serializer,
)
from clubs.models import EnteredVia
from clubs.outcomes import Seat
from clubs.phone_codes import RETRY_AFTER, PhoneCodeAPIView, phone_code_responses
from clubs.problem_schema import ErrorSerializer
from teammatch import selectors, services
from teammatch.models import Cup, CupMatch, MatchRoom, RoomName
from teammatch.phone_entry import ROOM_ENTRY

# ---------------------------------------------------------------------------------------------
# The bracket


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
    provisional = serializers.BooleanField(
        help_text="The figures may still change (the cup is not finished)."
    )
    deals_per_quarter = serializers.IntegerField()
    pm_scale = serializers.ListField(child=serializers.IntegerField())
    tie_break = serializers.ListField(child=serializers.CharField())
    teams = CupTeamSerializer(many=True)
    matches = CupMatchSerializer(many=True)


def _match_row(line: selectors.BracketLine, round_name: str) -> dict[str, Any]:
    match, sheet = line.match, line.sheet
    quarters: list[dict[str, Any]] = []
    pm_a = None
    counted = total = 0
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
    return {
        "id": match.pk,
        "round": match.round,
        "round_name": round_name,
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


def bracket_data(cup: Cup, *, directs: bool = False) -> dict[str, Any]:
    """The bracket of ``cup`` in the API's shape, as the viewer may see it
    (``teammatch.publication``: the cup's directors see every deal entered)."""
    rounds = selectors.bracket_rounds(cup, directs=directs)
    return {
        "id": cup.pk,
        "name": cup.name,
        "date": cup.date,
        "club": cup.club.name,
        "status": cup.status,
        "provisional": cup.provisional,
        "deals_per_quarter": cup.deals_per_quarter,
        "pm_scale": list(cup.pm_scale),
        "tie_break": cup.tie_break.split(","),
        "teams": [{"id": t.pk, "name": t.name, "seed": t.seed} for t in selectors.cup_teams(cup)],
        "matches": [_match_row(line, rnd.name) for rnd in rounds for line in rnd.matches],
    }


class CupBracketView(APIView):
    """A cup's bracket with every match's points de match so far (a private cup: its
    directors only, like every competition: ``clubs.access``)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="cup_bracket",
        summary="Cup bracket",
        responses={200: CupBracketSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, cup_id: int) -> Response:
        cup = visible_or_404(request, Cup, cup_id)
        directs = user_directs(request.user, cup)
        return Response(CupBracketSerializer(bracket_data(cup, directs=directs)).data)


# ---------------------------------------------------------------------------------------------
# The room phone


class RoomResultSerializer(serializers.Serializer):
    """A room's stored result of a deal: its outcome, value and the taker's mark."""

    deal = serializers.IntegerField(source="deal.number")
    quarter = serializers.IntegerField(source="deal.quarter")
    room = serializers.ChoiceField(choices=RoomName.choices)
    outcome = serializers.JSONField(help_text="The outcome as entered (the input's shape).")
    contract = serializers.CharField()
    oudlers = serializers.IntegerField()
    points = serializers.FloatField()
    won = serializers.BooleanField()
    value = serializers.IntegerField(help_text="The deal's value from the taker's side.")
    taker_mark = serializers.IntegerField()
    director = serializers.BooleanField(
        source="entered_by_director", help_text="Entered or corrected by the director."
    )
    entered_by = serializers.CharField(
        source="entered_by_label", help_text="Who last wrote it: the room's phone or an account."
    )
    entered_via = serializers.ChoiceField(
        choices=EnteredVia.choices, help_text="How it was last written."
    )
    updated = serializers.DateTimeField()


class RoomDealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    quarter = serializers.IntegerField()
    dealer_seat = serializers.ChoiceField(choices=Seat.choices)
    taker_seat = serializers.ChoiceField(choices=Seat.choices)
    result = RoomResultSerializer(
        allow_null=True, help_text="This room's result (null: not entered yet)."
    )


class RoomLineupSerializer(serializers.Serializer):
    taker = serializers.CharField()
    taker_team = serializers.CharField()
    defenders = serializers.ListField(child=serializers.CharField())
    defence_team = serializers.CharField()


class RoomSerializer(serializers.Serializer):
    cup = serializers.CharField()
    match = serializers.IntegerField()
    round_name = serializers.CharField()
    team_a = serializers.CharField()
    team_b = serializers.CharField()
    room = serializers.ChoiceField(choices=RoomName.choices)
    status = serializers.ChoiceField(choices=CupMatch.Status.choices)
    quarter = serializers.IntegerField(help_text="The quarter being played.")
    writable = serializers.BooleanField(
        help_text="The room may enter and correct the quarter's deals now."
    )
    closed = serializers.BooleanField(help_text="The quarter is closed (ask the director).")
    lineup = RoomLineupSerializer(allow_null=True)
    deals = RoomDealSerializer(many=True)


class RoomResultInputSerializer(serializers.Serializer):
    """A deal (by number) of the quarter being played and its outcome."""

    deal = serializers.IntegerField(min_value=1, help_text="The deal number.")
    outcome = OutcomeField()


#: 409 (problem details): the deal is already entered in this room; ``result`` the stored one.
RoomConflictSerializer = conflict_serializer(
    RoomResultSerializer(
        allow_null=True,
        help_text=(
            "The room's stored result (for `idempotency_key_reused`: the one the key stored; "
            "null when it is gone)."
        ),
    ),
    "RoomConflictSerializer",
)


ROOM_CODE_RESPONSES = phone_code_responses("unknown_room_code", "room")
ROOM_CODE_HEADERS = [RETRY_AFTER]


NOT_WRITABLE = OpenApiResponse(
    ErrorSerializer,
    description=(
        "The deal is not writable by the room now: `deal_not_in_quarter`, `no_lineup`, "
        "`quarter_closed`; nothing stored."
    ),
)
INVALID = OpenApiResponse(
    ErrorSerializer,
    description="Invalid entry (messages name the field), unknown deal, match not in play.",
)


class RoomPhoneAPIView(EntryWriteMixin, PhoneCodeAPIView):
    """An API view reached by a room code (404 ``unknown_room_code``, 429 throttled), the
    cup room's adaptor of the kernel's write path (:mod:`clubs.api`)."""

    result_serializer = RoomResultSerializer

    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]  # the room code is the credential
    unknown_code_error = "unknown_room_code"

    def unknown_code_message(self) -> str:
        return _("No room has this code.")

    def phone_queryset(self) -> QuerySet[MatchRoom]:
        return selectors.rooms()

    def write(self, request: Request, code: str, write: Any, created: int) -> Response:
        """Save the request's deal and outcome in the room of ``code`` with ``write`` (the
        service) through the kernel's phone save."""
        room = self.phone_object(request, code)
        body = RoomResultInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        number, outcome = body.validated_data["deal"], body.validated_data["outcome"]
        return self.save_entry(
            request, ROOM_ENTRY, holder=room, deal=number, outcome=outcome, created=created,
            write=lambda: write(room=room, deal_number=number, outcome=outcome, via=EnteredVia.API),
        )  # fmt: skip


def _lineup_data(page: selectors.RoomPage) -> dict[str, Any] | None:
    if page.lineup is None:
        return None
    taker_team, defence_team = page.taker_team, page.defence_team
    return {
        "taker": str(page.taker),
        "taker_team": taker_team.name if taker_team else "",
        "defenders": [str(player) for player in page.defenders],
        "defence_team": defence_team.name if defence_team else "",
    }


class RoomView(RoomPhoneAPIView):
    """The room's match, the quarter being played, its line-up and its deals with the results
    the room may read: its own (never the other room's, which plays the same cards)."""

    @extend_schema(
        operation_id="cup_room",
        summary="A room phone's quarter",
        responses={200: RoomSerializer, **ROOM_CODE_RESPONSES},
        parameters=ROOM_CODE_HEADERS,
    )
    def get(self, request: Request, code: str) -> Response:
        page = selectors.room_page(self.phone_object(request, code))
        match = page.match
        data = {
            "cup": page.cup.name,
            "match": match.pk,
            "round_name": selectors.match_round_name(match),
            "team_a": match.team_a.name if match.team_a else "",
            "team_b": match.team_b.name if match.team_b else "",
            "room": page.room.room,
            "status": match.status,
            "quarter": page.quarter,
            "writable": page.writable,
            "closed": page.closed,
            "lineup": _lineup_data(page),
            "deals": [
                {
                    "number": deal.number,
                    "quarter": deal.quarter,
                    "dealer_seat": deal.dealer_seat,
                    "taker_seat": deal.taker_seat,
                    "result": page.results.get(deal.number),
                }
                for deal in page.deals
            ],
        }
        return Response(RoomSerializer(data).data)


class RoomResultsView(RoomPhoneAPIView):
    """``POST``: the room enters a deal of the quarter being played."""

    @extend_schema(
        operation_id="cup_room_result_enter",
        summary="A room phone enters a deal",
        request=RoomResultInputSerializer,
        responses={
            201: OpenApiResponse(RoomResultSerializer, description="Stored."),
            200: OpenApiResponse(RoomResultSerializer, description=REPLAY_DESCRIPTION),
            400: INVALID,
            403: NOT_WRITABLE,
            409: OpenApiResponse(
                RoomConflictSerializer,
                description=f"{CONFLICT_DESCRIPTION} A correction is its own endpoint.",
            ),
            **ROOM_CODE_RESPONSES,
        },
        parameters=[*IDEMPOTENCY_PARAMETERS, *ROOM_CODE_HEADERS],
    )
    def post(self, request: Request, code: str) -> Response:
        return self.write(request, code, services.room_result_enter, status.HTTP_201_CREATED)


class RoomResultCorrectView(RoomPhoneAPIView):
    """``POST``: the room corrects its own entry of a deal of the quarter being played, until
    the quarter is closed (the history keeps the correction, signed with the room)."""

    @extend_schema(
        operation_id="cup_room_result_correct",
        summary="A room phone corrects its entry",
        request=RoomResultInputSerializer,
        responses={
            200: OpenApiResponse(
                RoomResultSerializer,
                description=(
                    "The stored result: corrected (entered, when the deal was not yet); or a "
                    "replay (the stored outcome again, or a known key: nothing written, the "
                    f"header `{REPLAYED}` is `true`)."
                ),
            ),
            400: INVALID,
            403: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "Not correctable by the room: `deal_not_in_quarter`, `no_lineup`, "
                    "`quarter_closed`, or `not_own_entry` (the director's result); nothing "
                    "changed."
                ),
            ),
            409: OpenApiResponse(RoomConflictSerializer, description=CONFLICT_DESCRIPTION),
            **ROOM_CODE_RESPONSES,
        },
        parameters=[*IDEMPOTENCY_PARAMETERS, *ROOM_CODE_HEADERS],
    )
    def post(self, request: Request, code: str) -> Response:
        return self.write(request, code, services.room_result_table_correct, status.HTTP_200_OK)

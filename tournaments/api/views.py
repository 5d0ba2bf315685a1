"""REST API v1 of the tournaments app: reads scoped to an event, explicit result writes.

Access:

- reads: anybody sees public events; organisers also see their clubs' events (non-public ones
  answer 404 to others). Deal cards stay hidden (null) until the event is finished, except for
  the event's organisers. The results of a deal still to be played at some table are left out
  for anybody but the organisers (``tournaments.publication.deals_hidden_from``);
- ``/tables/<code>/`` and ``/tables/<code>/results/``: the table code in the URL is the
  credential (no account, no CSRF), scoped to its table's open round
  (:mod:`tournaments.table_scope`): ``POST`` enters only a deal of the open round (another
  round's: 403 ``round_not_open``, nothing stored; an identical replay of a stored result stays
  200), ``GET`` shows the open round's results, an earlier round's only for the deals played at
  every table, a later round's none. An unknown code is a 404; too many unknown codes from one
  address a 429 with ``Retry-After`` (a valid code is never throttled);
- ``POST /events/<id>/results/``: organisers of the event's club (session authentication);
  403 for another user of a public event, 404 when the event is not visible.

Writes call the result services: 201 with the stored result and its marks; 409 with
the stored result when the deal is already entered with another outcome; 400 naming the faulty
field. Retry-safe: the same outcome sent again for the same table and deal (a retry after a lost
answer) answers 200 with the stored result and the header ``Idempotent-Replayed: true``, and
writes nothing. An optional ``Idempotency-Key`` request header (1 to 255 printable ASCII
characters) is stored with the table (:mod:`clubs.idempotency`, the keys the table's phone
page uses too) and echoed in the answer: the same key again with the same deal and outcome is
a replay whatever happened since (200, the result stored now, ``corrected`` when the director
changed it); with another deal or outcome it is refused, 409 ``idempotency_key_reused``,
nothing written.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, permissions, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import idempotency
from clubs.access import user_directs, visible_or_404, visible_to
from clubs.api import ErrorSerializer
from clubs.errors import DomainError
from clubs.idempotency import IdempotencyKeyReused
from clubs.phone_codes import RETRY_AFTER, PhoneCodeAPIView, phone_code_responses
from rules.errors import field_label
from tournaments import selectors, services
from tournaments.api.serializers import (
    DealSerializer,
    EntrantSerializer,
    EventResultInputSerializer,
    EventSerializer,
    ResultConflictSerializer,
    TableResultInputSerializer,
    TableResultReplaySerializer,
    TableResultSerializer,
    TableSerializer,
)
from tournaments.errors import ResultConflict, ResultReplay
from tournaments.models import Deal, Entrant, Event, Table, TableEntryKey, TableResult
from tournaments.phone_entry import result_state, stored_now
from tournaments.publication import deals_hidden_from
from tournaments.table_scope import RoundNotOpen, TableScope
from tournaments.table_scope import submit as scoped_submit

# Fields of a result request that are not inside the outcome object.
REQUEST_FIELDS = {"deal", "table"}


def error_response(error: DomainError) -> Response:
    """400 body: ``code`` and ``errors`` {field: [message naming the field]}; the fields of
    the outcome are named ``outcome.<field>``."""
    field = error.field or "non_field_errors"
    key = field if field in REQUEST_FIELDS or field == "non_field_errors" else f"outcome.{field}"
    return Response(
        {"code": error.code, "detail": error.describe(), "errors": {key: [error.describe()]}},
        status=status.HTTP_400_BAD_REQUEST,
    )


def invalid_input_response(errors: dict[str, Any]) -> Response:
    """400 for a malformed request body: each message is prefixed with its field's name, in
    the language of the answer (the keys of ``errors`` keep the identifiers)."""
    named: dict[str, list[str]] = {}
    for field, messages in errors.items():
        items = messages if isinstance(messages, list) else [messages]
        label = field_label(field, _)
        named[field] = [f"{label}: {message}" for message in items]
    first = next(iter(named.values()))[0] if named else _("invalid input")
    return Response(
        {"code": "invalid", "detail": first, "errors": named}, status=status.HTTP_400_BAD_REQUEST
    )


def round_not_open_response(refused: RoundNotOpen) -> Response:
    """403 ``round_not_open``: a table code wrote outside its table's open round; nothing
    stored. The body has the shape of a 400 (``errors`` names the deal)."""
    return Response(
        {
            "code": refused.code,
            "detail": refused.message,
            "errors": {"deal": [refused.describe()]},
        },
        status=status.HTTP_403_FORBIDDEN,
    )


class TablePhoneAPIView(PhoneCodeAPIView):
    """An API view reached by a table code (404 ``unknown_table_code``, 429 throttled)."""

    unknown_code_error = "unknown_table_code"

    def unknown_code_message(self) -> str:
        return _("No table has this code.")

    def phone_queryset(self) -> QuerySet[Table]:
        return selectors.phone_tables()


def conflict_response(conflict: ResultConflict) -> Response:
    return Response(
        {
            "code": conflict.code,
            "detail": conflict.describe(),
            "result": TableResultSerializer(conflict.result).data,
        },
        status=status.HTTP_409_CONFLICT,
    )


IDEMPOTENCY_KEY = idempotency.HEADER
REPLAYED = idempotency.REPLAYED_HEADER
IDEMPOTENCY_KEY_MAX = idempotency.MAX_LENGTH


def _idempotency_key(request: Request) -> str | None:
    """The optional ``Idempotency-Key`` header; raises :class:`DomainError` if malformed."""
    key = request.headers.get(IDEMPOTENCY_KEY)
    return None if key is None else idempotency.valid_key(key)


def _replay_response(result: TableResult, *, corrected: bool) -> Response:
    data = TableResultReplaySerializer(result, context={"corrected": corrected}).data
    response = Response(data, status=status.HTTP_200_OK)
    response[REPLAYED] = "true"
    return response


def submit(
    *,
    table: Table,
    deal_number: int,
    outcome: dict[str, Any],
    actor: Any,
    via: str,
    request: Request | None = None,
    scope: TableScope | None = None,
) -> Response:
    """Enter the outcome: 201 stored, 200 replay (same outcome again, or a known key), 409
    conflict or key reused, 400; with a table code's ``scope``, 403 for a deal outside its
    open round."""
    try:
        key = _idempotency_key(request) if request is not None else None
    except DomainError as error:
        return error_response(error)
    # A deal this table plays comes with the scope (already read); any other is read here.
    deal = scope.deal_numbered(deal_number) if scope is not None else None
    if deal is None:
        deal = selectors.deal_by_number(table.event_id, deal_number)
    if deal is None:
        message = _("no deal %(deal)s in this event") % {"deal": deal_number}
        return error_response(DomainError("unknown_deal", message, field="deal"))
    try:
        found = idempotency.check(TableEntryKey, table, key, deal=deal.number, outcome=outcome)
    except IdempotencyKeyReused as reused:
        response = Response(
            {
                "code": reused.code,
                "detail": reused.describe(),
                "errors": {"deal": [reused.describe()]},
            },
            status=status.HTTP_409_CONFLICT,
        )
        response[IDEMPOTENCY_KEY] = str(key)
        return response
    stored = stored_now(found.record) if found is not None and found.record is not None else None
    if found is not None and found.record is not None and stored is not None:
        corrected = idempotency.corrected(found.record, result_state(stored))
        response = _replay_response(stored, corrected=corrected)
    else:
        try:
            if scope is not None:
                result = scoped_submit(scope, deal=deal, outcome=outcome, actor=actor, via=via)
            else:
                result = services.table_result_submit(
                    table=table, deal=deal, outcome=outcome, actor=actor, via=via
                )
        except ResultReplay as replay:
            idempotency.remember(found, replay.result, result_state(replay.result))
            response = _replay_response(replay.result, corrected=False)
        except ResultConflict as conflict:
            response = conflict_response(conflict)
        except RoundNotOpen as refused:
            response = round_not_open_response(refused)
        except DomainError as error:
            return error_response(error)
        else:
            idempotency.remember(found, result, result_state(result))
            # The stored row as created, its deal and table already loaded: no need to read it
            # back.
            response = Response(TableResultSerializer(result).data, status=status.HTTP_201_CREATED)
    if key is not None:
        response[IDEMPOTENCY_KEY] = key
    return response


WRITE_RESPONSES = {
    201: OpenApiResponse(TableResultSerializer, description="Stored."),
    200: OpenApiResponse(
        TableResultReplaySerializer,
        description=(
            "Replay, nothing written, the header "
            f"`{REPLAYED}` is `true`: this very outcome was already stored for this table "
            f"and deal (a retry), or the request's `{IDEMPOTENCY_KEY}` is known with this "
            "deal and outcome (whatever happened since). The body is the result stored now; "
            "`corrected` is true when the director changed it since the key's outcome."
        ),
    ),
    400: OpenApiResponse(ErrorSerializer, description="Invalid entry; messages name the field."),
    404: OpenApiResponse(ErrorSerializer, description="Unknown table code, event or deal."),
    409: OpenApiResponse(
        ResultConflictSerializer,
        description=(
            "`result_exists`: already entered with another outcome; `result` is the stored "
            f"one. `idempotency_key_reused`: the request's `{IDEMPOTENCY_KEY}` was used for "
            "another deal or outcome of this table; nothing written, never a replay (no "
            "`result` then)."
        ),
    ),
}

WRITE_HEADERS = [
    OpenApiParameter(
        IDEMPOTENCY_KEY,
        str,
        OpenApiParameter.HEADER,
        description=(
            "Optional, 1 to 255 printable ASCII characters (a malformed one: 400 `invalid`), "
            "echoed in the answer; one random key per entry, sent with every attempt. Stored "
            "with the table (the same keys as the table's phone page): the same key with the "
            "same deal and outcome is a replay (200) whatever happened since, with another "
            "deal or outcome a 409 `idempotency_key_reused`. Resending the same outcome "
            "without a key stays safe (200, replay)."
        ),
    ),
    OpenApiParameter(
        REPLAYED,
        str,
        OpenApiParameter.HEADER,
        enum=["true"],
        description="Present (`true`) when the answer is a replay of the stored result.",
        response=[200],
    ),
    OpenApiParameter(
        IDEMPOTENCY_KEY,
        str,
        OpenApiParameter.HEADER,
        description="The request's Idempotency-Key, when it sent one.",
        response=[200, 201, 409],
    ),
]


def path_id(name: str, description: str) -> OpenApiParameter:
    """An ``<int:...>`` path parameter as the URL routes it: digits only (a negative or
    non-numeric value matches no route)."""
    return OpenApiParameter(
        name, {"type": "integer", "minimum": 0}, OpenApiParameter.PATH, description=description
    )


EVENT_ID = path_id("event_id", "The event's id.")
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such event visible to you.")


@extend_schema_view(
    retrieve=extend_schema(
        parameters=[path_id("id", "The event's id.")],
        responses={200: EventSerializer, 404: NOT_FOUND},
    )
)
class EventViewSet(viewsets.ReadOnlyModelViewSet):
    """Events: public ones, and the events the user organises."""

    serializer_class = EventSerializer
    permission_classes = [permissions.AllowAny]  # visibility: clubs.access.visible_to

    def get_queryset(self) -> QuerySet[Event]:
        return visible_to(self.request.user, Event)  # the latest first (Event.Meta.ordering)


class EventScopedListView(generics.ListAPIView):
    """A list scoped to an event the visitor may see (``event_id`` in the URL), else 404."""

    permission_classes = [permissions.AllowAny]  # visibility: clubs.access.visible_or_404

    def event(self) -> Event:
        if not hasattr(self, "_event"):
            self._event = visible_or_404(self.request, Event, self.kwargs["event_id"])
        return self._event


@extend_schema_view(
    get=extend_schema(
        parameters=[EVENT_ID], responses={200: EntrantSerializer(many=True), 404: NOT_FOUND}
    )
)
class EntrantListView(EventScopedListView):
    """The event's entrants (movement slots bound to players; phantoms included)."""

    serializer_class = EntrantSerializer

    def get_queryset(self) -> QuerySet[Entrant]:
        return selectors.event_entrants(self.event())


@extend_schema_view(
    get=extend_schema(
        parameters=[EVENT_ID], responses={200: DealSerializer(many=True), 404: NOT_FOUND}
    )
)
class DealListView(EventScopedListView):
    """The event's deals; ``cards`` is null until the event is finished (organisers see it)."""

    serializer_class = DealSerializer

    def get_queryset(self) -> QuerySet[Deal]:
        return selectors.event_deals(self.event())

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if getattr(self, "swagger_fake_view", False):
            return context
        event = self.event()
        context["show_cards"] = event.status == Event.Status.FINISHED or user_directs(
            self.request.user, event
        )
        return context


class MovementView(APIView):
    """The movement document (schema ``duplitarot-movement/1``) of a visible event."""

    permission_classes = [permissions.AllowAny]  # visibility: clubs.access.visible_or_404

    @extend_schema(parameters=[EVENT_ID], responses={200: OpenApiTypes.OBJECT, 404: NOT_FOUND})
    def get(self, request: Request, event_id: int) -> Response:
        event = visible_or_404(request, Event, event_id)
        return Response(event.movement or {})


@extend_schema_view(
    get=extend_schema(
        parameters=[EVENT_ID], responses={200: TableResultSerializer(many=True), 404: NOT_FOUND}
    )
)
class EventResultsView(EventScopedListView):
    """``GET``: the event's stored results. ``POST`` (organisers): enter a result.

    The list leaves out, for anybody but the organisers, the deals some table has still to play
    (their outcomes are published once every table has played them, or the event is finished).
    """

    serializer_class = TableResultSerializer
    permission_classes = [permissions.AllowAny]

    def get_queryset(self) -> QuerySet[TableResult]:
        event = self.event()
        hidden = deals_hidden_from(event, directs=user_directs(self.request.user, event))
        return selectors.event_results(event, hidden_deals=hidden)

    @extend_schema(
        request=EventResultInputSerializer,
        parameters=[EVENT_ID, *WRITE_HEADERS],
        responses={
            **WRITE_RESPONSES,
            403: OpenApiResponse(ErrorSerializer, description="Not an organiser."),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        if not user_directs(request.user, event):
            raise PermissionDenied(_("only the event's organisers enter results here"))
        body = EventResultInputSerializer(data=request.data)
        if not body.is_valid():
            return invalid_input_response(body.errors)
        table = selectors.table_by_number(event, body.validated_data["table"])
        if table is None:
            message = _("no table %(table)s in this event") % {
                "table": body.validated_data["table"]
            }
            return error_response(DomainError("unknown_table", message, field="table"))
        return submit(
            table=table,
            deal_number=body.validated_data["deal"],
            outcome=body.validated_data["outcome"],
            actor=request.user,
            via="api",
            request=request,
        )


TABLE_CODE_RESPONSES = phone_code_responses("unknown_table_code", "table")
TABLE_CODE_HEADERS = [RETRY_AFTER]


class TableView(TablePhoneAPIView):
    """What a table plays (rounds, seats, deals) and the results its code may read: the open
    round's, an earlier round's for the deals played at every table, a later round's none."""

    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]  # the table code is the credential

    @extend_schema(
        responses={200: TableSerializer, **TABLE_CODE_RESPONSES}, parameters=TABLE_CODE_HEADERS
    )
    def get(self, request: Request, code: str) -> Response:
        table = self.phone_object(request, code)
        scope = TableScope.of(table)
        rounds = [
            {
                "round": play.round_number,
                "deal_set": play.deal_set,
                "sits_out": play.sits_out,
                "seats": [{"seat": seat, "entrant": entrant} for seat, entrant in play.seat_list],
                "deals": play.deals,
                "results": list(scope.visible_results(play).values()),
            }
            for play in scope.plays
        ]
        data = {
            "event": table.event,
            "table": table.number,
            "open_round": scope.open_round,
            "rounds": rounds,
        }
        show = table.event.status == Event.Status.FINISHED
        return Response(TableSerializer(data, context={"show_cards": show}).data)


class TableResultsView(TablePhoneAPIView):
    """``GET``: the table's results its code may read. ``POST``: enter a deal of the table's
    open round (no account: the code is the credential)."""

    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]  # the table code is the credential

    @extend_schema(
        responses={200: TableResultSerializer(many=True), **TABLE_CODE_RESPONSES},
        parameters=TABLE_CODE_HEADERS,
    )
    def get(self, request: Request, code: str) -> Response:
        scope = TableScope.of(self.phone_object(request, code))
        return Response(TableResultSerializer(scope.visible_result_list(), many=True).data)

    @extend_schema(
        request=TableResultInputSerializer,
        responses={
            **WRITE_RESPONSES,
            403: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "`round_not_open`: the deal is not played in the table's open round; "
                    "nothing stored."
                ),
            ),
            **TABLE_CODE_RESPONSES,
        },
        parameters=[*WRITE_HEADERS, *TABLE_CODE_HEADERS],
    )
    def post(self, request: Request, code: str) -> Response:
        table = self.phone_object(request, code)
        body = TableResultInputSerializer(data=request.data)
        if not body.is_valid():
            return invalid_input_response(body.errors)
        return submit(
            table=table,
            deal_number=body.validated_data["deal"],
            outcome=body.validated_data["outcome"],
            actor=None,
            via="api",
            request=request,
            scope=TableScope.for_save(table),
        )

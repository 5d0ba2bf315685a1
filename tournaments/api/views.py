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
  200, another outcome of it 409), ``GET`` shows the open round's results, an earlier round's
  only for the deals played at every table, a later round's none. An unknown code is a 404;
  too many unknown codes from one address a 429 with ``Retry-After`` (a valid code is never
  throttled);
- ``POST /events/<id>/results/``: organisers of the event's club (session authentication);
  403 for another user of a public event, 404 when the event is not visible.

Writes go through the kernel's write path (:class:`clubs.api.EntryWriteMixin`, the phone
page's save): 201 with the stored result and its marks; 409 with the stored result when the
deal is already entered with another outcome (in an earlier or closed round too, its outcome
null while the code may not read it); 400 naming the faulty field; every refusal as problem
details (:func:`clubs.api.exception_handler`). Retry-safe: the same outcome sent again for the
same table and deal answers 200 with the stored result and the header
``Idempotent-Replayed: true``, and writes nothing. An optional ``Idempotency-Key`` request
header is stored with the table (:mod:`clubs.idempotency`, the keys the table's phone page
uses too) and echoed: the same key again with the same deal and outcome is a replay whatever
happened since (200, the result stored now, ``corrected`` when the director changed it); with
another deal or outcome it is refused, 409 ``idempotency_key_reused`` with the result the key
stored, nothing written.
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
from rest_framework import generics, permissions, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.access import user_directs, visible_or_404, visible_to
from clubs.api import (
    CONFLICT_DESCRIPTION,
    IDEMPOTENCY_PARAMETERS,
    REPLAY_DESCRIPTION,
    EntryWriteMixin,
)
from clubs.errors import DomainError
from clubs.phone_codes import RETRY_AFTER, PhoneCodeAPIView, phone_code_responses
from clubs.problem_schema import ErrorSerializer
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
from tournaments.models import Deal, Entrant, Event, Table, TableResult
from tournaments.phone_entry import TABLE_ENTRY
from tournaments.publication import deals_hidden_from
from tournaments.table_scope import TableScope
from tournaments.table_scope import enter as scoped_enter


class TablePhoneAPIView(PhoneCodeAPIView):
    """An API view reached by a table code (404 ``unknown_table_code``, 429 throttled)."""

    unknown_code_error = "unknown_table_code"

    def unknown_code_message(self) -> str:
        return _("No table has this code.")

    def phone_queryset(self) -> QuerySet[Table]:
        return selectors.phone_tables()


class TableResultWrite(EntryWriteMixin):
    """The duplicate table's adaptor of the kernel's write path (:mod:`clubs.api`)."""

    result_serializer = TableResultSerializer
    replay_serializer = TableResultReplaySerializer
    body_fields = frozenset({"deal", "table"})

    def submit(
        self,
        request: Request,
        *,
        table: Table,
        deal_number: int,
        outcome: dict[str, Any],
        actor: Any,
        scope: TableScope | None = None,
    ) -> Response:
        """Enter the outcome at ``table`` (within the open round of a table code's ``scope``)
        through the kernel's phone save."""
        deal = selectors.deal_by_number(table.event_id, deal_number)
        if deal is None:
            message = _("no deal %(deal)s in this event") % {"deal": deal_number}
            raise DomainError("unknown_deal", message, field="deal")

        def write() -> TableResult:
            if scope is not None:
                return scoped_enter(scope, deal=deal, outcome=outcome, actor=actor, via="api")
            return services.table_result_enter(
                table=table, deal=deal, outcome=outcome, actor=actor, via="api"
            )

        return self.save_entry(
            request, TABLE_ENTRY, holder=table, deal=deal.number, outcome=outcome, write=write
        )


WRITE_RESPONSES = {
    201: OpenApiResponse(TableResultSerializer, description="Stored."),
    200: OpenApiResponse(
        TableResultReplaySerializer,
        description=(
            f"{REPLAY_DESCRIPTION} `corrected` is true when the director changed it since the "
            "key's outcome."
        ),
    ),
    400: OpenApiResponse(ErrorSerializer, description="Invalid entry; messages name the field."),
    404: OpenApiResponse(ErrorSerializer, description="Unknown table code, event or deal."),
    409: OpenApiResponse(
        ResultConflictSerializer,
        description=(
            f"{CONFLICT_DESCRIPTION} A table code's earlier round whose deals other tables "
            "still play: `result` is null (the publication rule), correct it explicitly."
        ),
    ),
}

WRITE_HEADERS = IDEMPOTENCY_PARAMETERS


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
class EventResultsView(TableResultWrite, EventScopedListView):
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
        body.is_valid(raise_exception=True)
        table = selectors.table_by_number(event, body.validated_data["table"])
        if table is None:
            message = _("no table %(table)s in this event") % {
                "table": body.validated_data["table"]
            }
            raise DomainError("unknown_table", message, field="table")
        return self.submit(
            request,
            table=table,
            deal_number=body.validated_data["deal"],
            outcome=body.validated_data["outcome"],
            actor=request.user,
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


class TableResultsView(TableResultWrite, TablePhoneAPIView):
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
                    "`round_not_open`: the deal is played in a later round than the table's "
                    "open round; `round_closed`: in a round the director closed; nothing "
                    "stored (a deal already entered there: 409)."
                ),
            ),
            **TABLE_CODE_RESPONSES,
        },
        parameters=[*WRITE_HEADERS, *TABLE_CODE_HEADERS],
    )
    def post(self, request: Request, code: str) -> Response:
        table = self.phone_object(request, code)
        body = TableResultInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.submit(
            request,
            table=table,
            deal_number=body.validated_data["deal"],
            outcome=body.validated_data["outcome"],
            actor=None,
            scope=TableScope.for_save(table),
        )

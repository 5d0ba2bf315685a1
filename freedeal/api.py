"""The free-deal API (thin: reads through ``freedeal.selectors``, writes through
``freedeal.services``; no query of its own).

- ``GET /api/v1/free-deal/<id>/ranking/``: a tournament's ranking (a private one: 404 but for
  its directors, the kernel's access rule). The same rows as the public page; ``provisional``
  from ``freedeal.publication`` until the tournament is finished.
- The table phone (no account, no CSRF: the table's code in the URL is the credential, looked
  up through the kernel's throttled path, :class:`clubs.phone_codes.PhoneCodeAPIView`: 404
  ``unknown_table_code``, 429 ``throttled`` with ``Retry-After``; a valid code is never
  throttled):

  - ``GET /api/v1/free-deal/tables/<code>/``: the open party at that table: its players (seat
    order), its deals with their dealer and stored result;
  - ``POST /api/v1/free-deal/tables/<code>/results/``: enter a deal of the open party: 201 with
    the stored result and its marks; the very outcome already stored is a replay (200, the
    stored result, header ``Idempotent-Replayed: true``, nothing written); another outcome for
    an entered deal a conflict (409 with the stored result, nothing changed, a closed party's
    deal included); 400 naming the field; 403 outside the open party (``party_closed``,
    ``party_not_open``, ``free_deal_not_running``);
  - ``POST /api/v1/free-deal/tables/<code>/results/<deal>/correct/``: the explicit correction
    of an entered deal of the open party (200; the same outcome: 200 replay; a deal not entered
    yet is entered, 200; a closed party: 403), kept in the history as the table's.

Both writes go through the kernel's write path (:class:`clubs.api.EntryWriteMixin`, the phone
page's save: the ``Idempotency-Key`` stored, replayed, refused on reuse with 409
``idempotency_key_reused``) and every refusal is problem details
(:func:`clubs.api.exception_handler`).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.access import user_directs, visible_or_404
from clubs.api import (
    CONFLICT_DESCRIPTION,
    IDEMPOTENCY_PARAMETERS,
    REPLAY_DESCRIPTION,
    EntryWriteMixin,
)
from clubs.models import EnteredVia
from clubs.phone_codes import RETRY_AFTER, PhoneCodeAPIView, phone_code_responses
from clubs.problem_schema import ErrorSerializer
from freedeal import selectors, services
from freedeal.models import FreeDealTable, FreeDealTournament
from freedeal.phone_entry import FREE_DEAL_ENTRY
from freedeal.publication import free_deal_publication
from freedeal.selectors import Ranking, TablePage
from freedeal.serializers import (
    FreeDealConflictSerializer,
    FreeDealCorrectionInputSerializer,
    FreeDealRankingSerializer,
    FreeDealResultInputSerializer,
    FreeDealResultSerializer,
    FreeDealTableSerializer,
)


# --------------------------------------------------------------------------- ranking
def ranking_data(ranking: Ranking, *, provisional: bool) -> dict[str, Any]:
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
        "provisional": provisional,
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
    """A free-deal tournament's ranking (provisional while it runs; a private tournament:
    its directors only, like every competition: ``clubs.access``)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="free_deal_ranking",
        summary="Free-deal tournament ranking",
        responses={200: FreeDealRankingSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_or_404(request, FreeDealTournament, pk)
        publication = free_deal_publication(
            tournament, directs=user_directs(request.user, tournament)
        )
        data = ranking_data(
            selectors.free_deal_ranking(tournament), provisional=publication.provisional
        )
        return Response(FreeDealRankingSerializer(data).data)


# --------------------------------------------------------------------------- table phone
def table_data(page: TablePage, *, provisional: bool) -> dict[str, Any]:
    tournament = page.tournament
    entries = selectors.free_deal_entries(tournament)
    return {
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "date": tournament.date,
            "club": tournament.club.name,
            "status": tournament.status,
            "ruleset": tournament.ruleset,
            "parties": tournament.parties,
            "closed_parties": tournament.closed_parties,
            "deals_per_party": tournament.deals_per_party,
        },
        "table": page.table.number,
        "size": page.table.size,
        "party": page.party,
        "provisional": provisional,
        "players": [
            {"number": number, "player": entries[number].player_id, "name": name}
            for number, name in page.players
        ],
        "deals": [
            {"deal": deal.number, "dealer": deal.dealer, "result": deal.result}
            for deal in page.deals
        ],
    }


TABLE_CODE_RESPONSES = phone_code_responses("unknown_table_code", "table")
TABLE_CODE_HEADERS = [RETRY_AFTER, *IDEMPOTENCY_PARAMETERS]
CODE = OpenApiParameter(
    "code", str, OpenApiParameter.PATH, description="The table's entry code (its card's QR code)."
)
DEAL = OpenApiParameter(
    "deal",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.PATH,
    description="The deal number in the party.",
)
REFUSED_PARTY = OpenApiResponse(
    ErrorSerializer,
    description=(
        "Outside the open party: `party_closed` (the director closed it: ask him), "
        "`party_not_open`, `free_deal_not_running`; nothing stored."
    ),
)
INVALID = OpenApiResponse(ErrorSerializer, description="Invalid entry; messages name the field.")


class FreeDealTablePhoneAPIView(PhoneCodeAPIView):
    """An API view reached by a free-deal table's code."""

    unknown_code_error = "unknown_table_code"
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]  # the table code is the credential

    def unknown_code_message(self) -> str:
        return _("No table has this code.")

    def phone_queryset(self) -> QuerySet[FreeDealTable]:
        return selectors.free_deal_table_queryset()


class FreeDealTableView(FreeDealTablePhoneAPIView):
    """The open party at a table: players, deals and their results."""

    @extend_schema(
        operation_id="free_deal_table",
        summary="Free-deal table: the open party",
        parameters=[CODE, *TABLE_CODE_HEADERS[:1]],
        responses={200: FreeDealTableSerializer, **TABLE_CODE_RESPONSES},
    )
    def get(self, request: Request, code: str) -> Response:
        table = self.phone_object(request, code)
        page = selectors.free_deal_table_page(table)
        publication = free_deal_publication(page.tournament, directs=False)
        data = table_data(page, provisional=publication.provisional)
        return Response(FreeDealTableSerializer(data).data)


class FreeDealTableWrite(EntryWriteMixin, FreeDealTablePhoneAPIView):
    """The free-deal table's adaptor of the kernel's write path (:mod:`clubs.api`)."""

    result_serializer = FreeDealResultSerializer
    body_fields = frozenset({"deal", "party", "outcome"})

    def write(
        self, request: Request, write: Any, *, table: FreeDealTable, deal: int,
        body: dict[str, Any], created: int,
    ) -> Response:  # fmt: skip
        party, data = body.get("party"), body["outcome"]
        return self.save_entry(
            request, FREE_DEAL_ENTRY, holder=table, deal=deal, created=created,
            outcome={"party": party, **data},
            write=lambda: write(table=table, deal=deal, data=data, party=party, via=EnteredVia.API),
        )  # fmt: skip


class FreeDealTableResultsView(FreeDealTableWrite):
    """Enter a deal of the open party at the table."""

    @extend_schema(
        operation_id="free_deal_table_result_enter",
        summary="Free-deal table: enter a deal",
        request=FreeDealResultInputSerializer,
        parameters=[CODE, *TABLE_CODE_HEADERS],
        responses={
            201: OpenApiResponse(FreeDealResultSerializer, description="Stored."),
            200: OpenApiResponse(FreeDealResultSerializer, description=REPLAY_DESCRIPTION),
            400: INVALID,
            403: REFUSED_PARTY,
            409: OpenApiResponse(
                FreeDealConflictSerializer,
                description=(
                    f"{CONFLICT_DESCRIPTION} Correct it explicitly: `.../results/<deal>/correct/`."
                ),
            ),
            **TABLE_CODE_RESPONSES,
        },
    )
    def post(self, request: Request, code: str) -> Response:
        table = self.phone_object(request, code)
        body = FreeDealResultInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        return self.write(
            request,
            services.free_deal_result_enter,
            table=table,
            deal=data["deal"],
            body=data,
            created=status.HTTP_201_CREATED,
        )


class FreeDealTableCorrectView(FreeDealTableWrite):
    """Correct an entered deal of the open party (kept in the history as the table's)."""

    @extend_schema(
        operation_id="free_deal_table_result_correct",
        summary="Free-deal table: correct an entered deal",
        request=FreeDealCorrectionInputSerializer,
        parameters=[CODE, DEAL, *TABLE_CODE_HEADERS],
        responses={
            200: OpenApiResponse(
                FreeDealResultSerializer,
                description=(
                    "Corrected (entered, when the deal was not yet); or, with the header, the "
                    "very outcome stored (replay)."
                ),
            ),
            400: OpenApiResponse(
                ErrorSerializer, description="Invalid outcome (messages name the field)."
            ),
            403: REFUSED_PARTY,
            409: OpenApiResponse(FreeDealConflictSerializer, description=CONFLICT_DESCRIPTION),
            **TABLE_CODE_RESPONSES,
        },
    )
    def post(self, request: Request, code: str, deal: int) -> Response:
        table = self.phone_object(request, code)
        body = FreeDealCorrectionInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return self.write(
            request,
            services.free_deal_result_table_correct,
            table=table,
            deal=deal,
            body=dict(body.validated_data),
            created=status.HTTP_200_OK,
        )

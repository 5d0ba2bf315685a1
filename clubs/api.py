"""The API's kernel: one answer shape for every refusal, one write path for every phone entry.

**One answer shape** (:func:`exception_handler`, DRF's ``EXCEPTION_HANDLER``): every 4xx and
5xx of the API is an RFC 9457 problem details object, ``application/problem+json``
(:class:`ErrorSerializer`): ``type`` (a URI naming the problem: :func:`problem_type`),
``title`` (the HTTP status' phrase), ``status``, ``detail`` (the translated message), plus
``code`` (the stable identifier clients match on), ``errors`` (messages by field, each naming
its field; ``{}`` when none) and, on a conflict, ``result`` (the stored result). It knows the
kernel's :class:`~clubs.errors.DomainError`: a view raises it and the handler answers its
:attr:`~clubs.errors.DomainError.http_status` (400; 403 a stage not open or another's entry;
409 a conflict, with the stored result serialised by the view's ``result_serializer``). DRF's
own errors (a body that does not validate, 404, 403, 405, 415, 429...) and Django's body
limits (413 ``request_too_large``, 400 ``too_many_fields``) get the same shape. The schema
declares it (:func:`problem_media_type`, a drf-spectacular postprocessing hook).

**One write path** (:class:`EntryWriteMixin`): the API views of every kind of phone entry
(duplicate tables, cup rooms, free-deal tables) save through :func:`clubs.phone.phone_save`,
the very spine of the phone pages: the stored ``Idempotency-Key`` (:mod:`clubs.idempotency`,
the only module reading it; declared on every write by :data:`IDEMPOTENCY_PARAMETERS`), the
replay of an identical resend (200, ``Idempotent-Replayed: true``), the conflict (409 with the
stored result, in every stage of the competition), the late arrivals. A kind gives its
:class:`~clubs.phone.PhoneEntry`, the write to attempt and its result's serializer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import idempotency
from clubs.errors import DomainError
from clubs.outcomes import Contract, PoigneeSize, Seat, Side
from clubs.phone import PhoneEntry, phone_save
from clubs.problem_schema import ErrorSerializer
from clubs.problems import PROBLEM_JSON, problem
from rules.errors import field_label


class ConflictSerializer(ErrorSerializer):
    """409: ``result_exists`` (another outcome is stored for that deal: in every stage, the
    round, quarter or party moved on or closed included) or ``idempotency_key_reused`` (the
    request's key was used for another deal or outcome); nothing written. A kind declares its
    ``result``."""


def conflict_serializer(result: serializers.Serializer, name: str) -> type[ConflictSerializer]:
    """The 409 problem of a kind whose stored result ``result`` describes (its schema name
    ``name``)."""
    fields = {
        "result": result,
        "__doc__": ConflictSerializer.__doc__,
        "__module__": ConflictSerializer.__module__,
    }
    return type(name, (ConflictSerializer,), fields)


def problem_response(
    status_code: int,
    code: str,
    detail: str,
    *,
    errors: Mapping[str, list[str]] | None = None,
    **extra: Any,
) -> Response:
    """A problem answered by a view itself (a query parameter refused, say)."""
    body = problem(status_code, code, detail, errors=errors, **extra)
    return Response(body, status=status_code, content_type=PROBLEM_JSON)


def named_errors(errors: Any) -> dict[str, list[str]]:
    """A serializer's errors, each message prefixed with its field's translated label (the
    keys keep the identifiers)."""
    if not isinstance(errors, Mapping):
        errors = {"non_field_errors": errors}
    named: dict[str, list[str]] = {}
    for field, messages in errors.items():
        items = messages if isinstance(messages, list) else [messages]
        label = field_label(field, _)
        named[str(field)] = [f"{label}: {message}" for message in items]
    return named


def _error_field(error: DomainError, view: Any) -> str:
    """The key of ``errors`` naming the field of ``error``: a field of the request body as it
    is, a field of the outcome ``outcome.<field>`` (on a write, :attr:`EntryWriteMixin`)."""
    field = error.field
    if field is None:
        return "non_field_errors"
    body_fields = getattr(view, "body_fields", None)
    if body_fields is None or field in body_fields:
        return field
    return f"outcome.{field}"


def _domain_problem(error: DomainError, view: Any) -> tuple[int, dict[str, Any]]:
    code, status_code = error.code, error.http_status
    body = problem(
        status_code, code, error.describe(), errors={_error_field(error, view): [error.describe()]}
    )
    if status_code == status.HTTP_409_CONFLICT:
        stored = getattr(error, "stored", None)
        result_serializer = getattr(view, "result_serializer", None)
        hidden = bool(getattr(error, "hidden", False))
        body["result"] = (
            None
            if stored is None or hidden or result_serializer is None
            else result_serializer(stored).data
        )
    return status_code, body


def _framework_problem(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's own answer to ``exc`` (None: not an API error), as a problem."""
    # Here, not at the top: rest_framework.views reads the parser classes of config.parsers.
    from rest_framework.views import exception_handler as drf_handler

    response = drf_handler(exc, dict(context))
    if response is None:
        return None
    data = response.data
    if isinstance(exc, ValidationError):
        errors = named_errors(data)
        first = next(iter(errors.values()))[0] if errors else _("invalid input")
        body = problem(response.status_code, "invalid", first, errors=errors)
    elif isinstance(data, Mapping) and "code" in data:  # our APIExceptions: code and detail
        errors = data.get("errors") or {}
        body = problem(
            response.status_code, str(data["code"]), str(data.get("detail", "")), errors=errors
        )
    else:
        if isinstance(exc, Http404):
            code = NotFound.default_code
        elif isinstance(exc, DjangoPermissionDenied):
            code = PermissionDenied.default_code
        elif isinstance(exc, APIException):
            codes = exc.get_codes()
            code = codes if isinstance(codes, str) else exc.default_code
        else:
            code = "error"
        detail = data.get("detail", "") if isinstance(data, Mapping) else ""
        body = problem(response.status_code, str(code), str(detail))
    response.data = body
    return response


def _body_limit() -> int:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return 0 if limit is None else int(limit)


def too_large_message(limit: int) -> str:
    return _("The request body is larger than %(size)s bytes.") % {"size": limit}


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: every error of the API as problem details (see the module
    docstring); the kernel's :class:`~clubs.errors.DomainError` with its status."""
    view = context.get("view")
    response: Response | None
    if isinstance(exc, DomainError):
        status_code, body = _domain_problem(exc, view)
        response = Response(body, status=status_code)
    elif isinstance(exc, RequestDataTooBig):
        code, limit = "request_too_large", _body_limit()
        response = Response(problem(413, code, too_large_message(limit)), status=413)
    elif isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        message = _("The request body has too many fields.")
        response = Response(problem(400, "too_many_fields", message), status=400)
    else:
        response = _framework_problem(exc, context)
    if response is None:
        return None
    request = context.get("request")
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is None or getattr(renderer, "format", "json") == "json":
        response.content_type = PROBLEM_JSON
    key = _request_key(request)
    if key is not None:
        response[idempotency.HEADER] = key
    return response


def _request_key(request: Any) -> str | None:
    """The request's ``Idempotency-Key``, echoed in the answer (None: none, or malformed)."""
    key = idempotency.header_key(request) if request is not None else None
    try:
        return None if key is None else idempotency.valid_key(key)
    except DomainError:
        return None


def problem_media_type(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every 4xx and 5xx answer of the schema is
    ``application/problem+json`` (what :func:`exception_handler` sends)."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            for code, answer in operation.get("responses", {}).items():
                content = answer.get("content") if isinstance(answer, dict) else None
                if str(code)[:1] in "45" and content and "application/json" in content:
                    answer["content"] = {PROBLEM_JSON: content.pop("application/json"), **content}
    return result


# ------------------------------------------------------------------------------ the writes

REPLAYED = idempotency.REPLAYED_HEADER

#: The idempotency of every write: the request's key, the replay and the key echoed.
IDEMPOTENCY_PARAMETERS = [
    OpenApiParameter(
        idempotency.HEADER,
        str,
        OpenApiParameter.HEADER,
        description=(
            "Optional, 1 to 255 printable ASCII characters (a malformed one: 400 `invalid`), "
            "echoed in the answer; one random key per entry, sent with every attempt. Stored "
            "with the table or room (the same keys as its phone page): the same key with the "
            "same deal and outcome is a replay (200) whatever happened since, with another "
            "deal or outcome a 409 `idempotency_key_reused` carrying the result the key "
            "stored. Resending the same outcome without a key stays safe (200, replay)."
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
        idempotency.HEADER,
        str,
        OpenApiParameter.HEADER,
        description="The request's Idempotency-Key, when it sent one.",
        response=True,
    ),
]

REPLAY_DESCRIPTION = (
    f"Replay, nothing written, the header `{REPLAYED}` is `true`: this very outcome was "
    f"already stored for this deal (a retry), or the request's `{idempotency.HEADER}` is "
    "known with this deal and outcome (whatever happened since). The body is the result "
    "stored now."
)
CONFLICT_DESCRIPTION = (
    "`result_exists`: already entered with another outcome, in whatever stage (the round, "
    "quarter or party moved on or closed included); `result` is the stored one, nothing "
    "changed (a correction is explicit). `idempotency_key_reused`: the request's "
    f"`{idempotency.HEADER}` was used for another deal or outcome; nothing written, never a "
    "replay; `result` is the result the key stored."
)


class _Valid:
    """The API's body as :func:`~clubs.phone.phone_save` sees a form: validated already."""

    errors: dict[str, list[str]] = {}

    def is_valid(self) -> bool:
        return True


class EntryWriteMixin:
    """An API view writing phone entries through the kernel (see the module docstring)."""

    #: The stored result as the answers show it (the 409's ``result`` too).
    result_serializer: type[serializers.Serializer]
    #: The replay's body (default: :attr:`result_serializer`); context ``corrected``.
    replay_serializer: type[serializers.Serializer] | None = None
    #: The request's own fields; the others a refusal names are the outcome's.
    body_fields: frozenset[str] = frozenset({"deal"})

    def save_entry(
        self,
        request: Request,
        entry: PhoneEntry,
        *,
        holder: Any,
        deal: int,
        outcome: Mapping[str, Any],
        write: Callable[[], Any],
        created: int = status.HTTP_201_CREATED,
    ) -> Response:
        """Save through :func:`clubs.phone.phone_save`: ``created`` (201, or 200 for a
        correction) with the stored result, 200 a replay; a refusal is raised for
        :func:`exception_handler`."""
        answer = phone_save(
            request, entry, holder=holder, deal=deal, form=_Valid(), on_form=lambda _e: False,
            outcome=lambda: outcome, write=write, saved="",
        )  # fmt: skip
        if answer.status == "stored":
            response = Response(self.result_serializer(answer.result).data, status=created)
        elif answer.replayed:
            serializer = self.replay_serializer or self.result_serializer
            data = serializer(answer.result, context={"corrected": answer.corrected}).data
            response = Response(data, status=status.HTTP_200_OK)
            response[REPLAYED] = "true"
        else:
            assert answer.error is not None
            raise answer.error
        if answer.key is not None:
            response[idempotency.HEADER] = answer.key
        return response


# ------------------------------------------------------------------ the outcome, as sent


class PoigneeSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=Side.choices)
    size = serializers.ChoiceField(choices=PoigneeSize.choices)


class ChelemSerializer(serializers.Serializer):
    announced = serializers.BooleanField(default=False)
    made_by = serializers.ChoiceField(choices=Side.choices, allow_null=True, required=False)


@extend_schema_field({"type": "number", "minimum": 0, "maximum": 91, "multipleOf": 0.5})
class PointsField(serializers.FloatField):
    """Attack points: a JSON number, whole or half (``45``, ``45.5``), as stored results answer
    them; ``rules`` also accepts a numeric string on input."""


class OutcomeSerializer(serializers.Serializer):
    """A deal's outcome as the table reports it (4 players; duplicate: Garde or above)."""

    taker_seat = serializers.ChoiceField(
        choices=Seat.choices,
        required=False,
        help_text=gettext_lazy(
            "Defaults to the étui's taker seat; another seat is refused at the table."
        ),
    )
    contract = serializers.ChoiceField(choices=Contract.choices)
    oudlers = serializers.IntegerField(min_value=0, max_value=3)
    points = PointsField(help_text=gettext_lazy("Points made by the attack (0..91)."))
    petit_au_bout = serializers.ChoiceField(choices=Side.choices, allow_null=True, required=False)
    poignees = PoigneeSerializer(many=True, required=False)
    chelem = ChelemSerializer(required=False)


@extend_schema_field(OutcomeSerializer)
class OutcomeField(serializers.JSONField):
    """The outcome object, passed as is to ``rules`` (whose messages name the faulty field)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(gettext_lazy("expected an object"))
        return super().to_internal_value(data)

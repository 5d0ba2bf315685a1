"""Phone codes: the secret code of a table, a cup room or a free-deal table, the only
credential of the phones there (QR code on the card), and the one path that looks it up.

- **Generation** (:func:`new_phone_code`): 10 characters of an alphabet without look-alikes
  (no 0/O, 1/I/L, U), read aloud or typed from the card; older codes (any URL-safe
  characters) stay valid.
- **Case** (:func:`code_candidates`): a code typed in lower case from the card is the card's
  code: the lookup tries the code as typed, then upper-cased; a page reached by a code in
  another case redirects to its canonical address, and a valid code in any case never counts
  as a failure.
- **Lookup** (:func:`phone_code_lookup`): the object of the code in a queryset. A code that
  does not exist counts one failure for the client address (:class:`UnknownCodeThrottle`, a
  DRF throttle in the Django cache); past :data:`DEFAULT_FAILURE_RATE` failures the next
  unknown code answers 429 with ``Retry-After``. A valid code is never throttled, even from a
  blocked address. The codes carry 49 random bits, so guessing one is hopeless anyway: the
  throttle stops the flood of useless lookups. A cache that fails (Redis down) counts nothing
  and blocks nobody.
- **Refused saves** (:class:`RefusalThrottle`): past :data:`DEFAULT_REFUSAL_RATE` refused
  saves from one code, its posts answer 429 with ``Retry-After`` (nothing read, nothing
  recorded; the phone's script keeps the entry and sends it again then).
- **Every phone route** goes through it: HTML pages with the :func:`phone_page` decorator (an
  unknown code is a 404, a throttled address a 429 page), API views by subclassing
  :class:`PhoneCodeAPIView` (404 ``unknown_code``, 429 ``throttled``). A test walks the URL
  configuration and checks that every route taking a ``code`` is one of them.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from clubs.problem_schema import ErrorSerializer

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=Model)

#: Uppercase letters and digits without look-alikes; 10 characters of 30 = 49 bits.
PHONE_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
PHONE_CODE_LENGTH = 10

# Unknown codes one client address may look up per period (``TABLE_CODE_FAILURE_RATE`` in the
# settings overrides it, in DRF's "number/period" form).
DEFAULT_FAILURE_RATE = "20/min"

# Refused saves one code may post per period (``PHONE_REFUSAL_RATE`` overrides it): far above
# what a phone does (one flushing 40 kept deals, every one refused, is 40 at once).
DEFAULT_REFUSAL_RATE = "120/min"


def new_phone_code() -> str:
    return "".join(secrets.choice(PHONE_CODE_ALPHABET) for _ in range(PHONE_CODE_LENGTH))


class UnknownCodeThrottle(SimpleRateThrottle):
    """Failed code lookups per client address, in the Django cache (DRF's throttle).

    Only failures are counted (:meth:`record_failure`), and :meth:`blocked` only reads. The
    client address is ``REMOTE_ADDR``; ``X-Forwarded-For`` is read only when DRF's
    ``NUM_PROXIES`` says how many proxies to trust (else any client could pick its address).
    One count for every kind of phone code: a flood spread over tables, rooms and free-deal
    tables is one flood.
    """

    scope = "table_code_failures"
    num_requests: int  # set by SimpleRateThrottle.__init__ from the rate
    duration: int

    def get_rate(self) -> str:
        return str(getattr(settings, "TABLE_CODE_FAILURE_RATE", DEFAULT_FAILURE_RATE))

    def get_ident(self, request: Any) -> str:
        if api_settings.NUM_PROXIES is None:
            return str(request.META.get("REMOTE_ADDR") or "")
        return str(super().get_ident(request))

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def _history(self, request: Any) -> list[float]:
        self.key = self.get_cache_key(request, None)
        self.now = self.timer()
        try:
            history = self.cache.get(self.key, [])
        except Exception:  # a cache outage counts nothing and blocks nobody
            logger.warning("phone code throttle: cache unavailable", exc_info=True)
            history = []
        if not isinstance(history, list):
            history = []
        cutoff = self.now - self.duration
        self.history = [stamp for stamp in history if stamp > cutoff]
        return self.history

    def blocked(self, request: Any) -> bool:
        """Whether the address has used up its failures (then :meth:`wait` tells how long)."""
        return len(self._history(request)) >= self.num_requests

    def record_failure(self, request: Any) -> None:
        history = self._history(request)
        history.insert(0, self.now)
        del history[self.num_requests :]
        try:
            self.cache.set(self.key, history, self.duration)
        except Exception:
            logger.warning("phone code throttle: cache unavailable", exc_info=True)

    def retry_after(self) -> int:
        """Whole seconds until the address may try an unknown code again (at least 1)."""
        wait = self.wait()
        return max(1, int(wait + 0.999)) if wait is not None else self.duration


class RefusalThrottle(UnknownCodeThrottle):
    """Refused saves per phone code (its holder: a table, a cup room, a free-deal table), in
    the Django cache: :func:`clubs.phone.phone_save` counts each refusal
    (:meth:`record_failure`); stored entries and replays are never counted. Once the code has
    used up its rate, its posts answer 429 with ``Retry-After`` (:class:`RefusalsThrottled`)
    before anything else is read (:func:`phone_page`), so that a flood costs the server one
    lookup a request and writes nothing; a real phone caught in it keeps its entries and
    sends them again after ``Retry-After`` (``config/static/js/phone.js``)."""

    scope = "phone_refusals"

    def __init__(self, holder: Model) -> None:
        self.ident = f"{holder._meta.label_lower}.{holder.pk}"
        super().__init__()

    def get_rate(self) -> str:
        return str(getattr(settings, "PHONE_REFUSAL_RATE", DEFAULT_REFUSAL_RATE))

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


class RefusalsThrottled(Exception):
    """Too many refused saves from this code: answered 429 with ``Retry-After`` by
    :func:`phone_page` (JSON to a phone's script, which keeps the entry and sends it again
    then; a page to a plain post)."""

    def __init__(self, deal: int, retry_after: int) -> None:
        super().__init__(deal, retry_after)
        self.deal = deal
        self.retry_after = retry_after

    @property
    def message(self) -> str:
        return _(
            "Too many refused entries from this code in a short time: try again in "
            "%(seconds)s seconds."
        ) % {"seconds": self.retry_after}

    def response(self, request: HttpRequest) -> HttpResponse:
        if "application/json" in request.headers.get("Accept", ""):
            fix = _("Nothing is lost: this phone keeps the entry and sends it again by itself.")
            body = {
                "status": "throttled", "code": "throttled", "deal": self.deal,
                "message": self.message, "fix": fix, "corrected": False, "errors": {},
                "card_html": "",
            }  # fmt: skip
            response: HttpResponse = JsonResponse(body, status=429)
        else:
            context = {"message": self.message, "title": _("Too many refused entries")}
            response = render(request, "clubs/phone_throttled.html", context, status=429)
        response["Retry-After"] = str(self.retry_after)
        return response


class CodeThrottled(Exception):
    """Too many unknown codes from this client address; ``retry_after`` in seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after

    @property
    def message(self) -> str:
        return _(
            "Too many unknown codes from your address: check the code on the card and try "
            "again in %(seconds)s seconds."
        ) % {"seconds": self.retry_after}


class UnknownCode(Exception):
    """Nothing has this code."""


def code_candidates(code: str) -> list[str]:
    """The codes ``code`` may stand for, best first: as typed, then upper-cased (the printed
    codes are upper case; an older code in mixed case is still found as typed)."""
    upper = code.upper()
    return [code] if upper == code else [code, upper]


def phone_code_lookup(request: HttpRequest | Any, queryset: QuerySet[M], code: str) -> M:
    """The object of ``queryset`` whose code is ``code`` in any case (:func:`code_candidates`);
    :class:`UnknownCode` if none (one failure counted for the address), :class:`CodeThrottled`
    once it has failed too often."""
    found: M = phone_code_find(request, [queryset], code)
    return found


def phone_code_find(
    request: HttpRequest | Any, querysets: Sequence[QuerySet[Any]], code: str
) -> Any:
    """The object of the first of ``querysets`` holding ``code`` in any case (a code typed on
    the home page may be a table's, a cup room's or a free-deal table's); :class:`UnknownCode`
    if none holds it (one failure counted for the address, whatever the number of kinds),
    :class:`CodeThrottled` once the address has failed too often. A valid code is never
    throttled."""
    candidates = code_candidates(code)
    for queryset in querysets:
        matches = {getattr(obj, "code", None): obj for obj in queryset.filter(code__in=candidates)}
        for candidate in candidates:
            if candidate in matches:
                return matches[candidate]
    throttle = UnknownCodeThrottle()
    if throttle.blocked(request):
        raise CodeThrottled(throttle.retry_after())
    throttle.record_failure(request)
    raise UnknownCode(code)


def phone_page(
    lookup: Callable[[HttpRequest, str], Any], not_found: Callable[[], str]
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorator of a phone page: the view receives the object of the ``code`` in the URL
    (``lookup(request, code)``, which goes through :func:`phone_code_lookup`); an unknown code
    is a 404 (``not_found()``, translated), too many unknown codes from the address a 429
    page with ``Retry-After``; a post from a code past its refused saves
    (:class:`RefusalThrottle`) a 429 with ``Retry-After`` too, before the view reads
    anything. A ``GET`` by a code in another case than the object's (typed in lower case from
    the card) redirects to the canonical address."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, code: str, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                found = lookup(request, code)
            except UnknownCode:
                raise Http404(not_found()) from None
            except CodeThrottled as throttled:
                response = render(
                    request,
                    "clubs/phone_throttled.html",
                    {"message": throttled.message},
                    status=429,
                )
                response["Retry-After"] = str(throttled.retry_after)
                return response
            canonical = getattr(found, "code", code)
            if canonical != code and request.method in ("GET", "HEAD"):
                return _canonical_redirect(request, canonical)
            if request.method == "POST":  # a code past its refusals: nothing more is read
                refusals = RefusalThrottle(found)
                if refusals.blocked(request):
                    deal = kwargs.get("number") or kwargs.get("deal") or 0
                    return RefusalsThrottled(int(deal), refusals.retry_after()).response(request)
            try:
                return view(request, found, *args, **kwargs)
            except RefusalsThrottled as throttled_now:
                return throttled_now.response(request)

        wrapper.phone_code_route = True  # type: ignore[attr-defined]
        return wrapper

    return decorate


def _canonical_redirect(request: HttpRequest, canonical: str) -> HttpResponse:
    """A redirect to the address of this page with the object's own code (query kept)."""
    match = request.resolver_match
    assert match is not None  # a routed view
    kwargs = {**match.kwargs, "code": canonical}
    url = reverse(match.view_name, args=match.args, kwargs=kwargs)
    query = request.META.get("QUERY_STRING", "")
    return HttpResponseRedirect(f"{url}?{query}" if query else url)


class UnknownPhoneCode(APIException):
    """404 with the code of the kind of phone (``unknown_table_code``...)."""

    status_code = status.HTTP_404_NOT_FOUND

    def __init__(self, code: str, message: str) -> None:
        super().__init__({"code": code, "detail": message, "errors": {}})


class TooManyUnknownCodes(APIException):
    """429 ``throttled`` with ``Retry-After``: too many unknown codes from the address."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS

    def __init__(self, throttled: CodeThrottled) -> None:
        super().__init__({"code": "throttled", "detail": throttled.message, "errors": {}})
        self.wait = throttled.retry_after  # DRF's handler sends it as Retry-After


class PhoneCodeAPIView(APIView):
    """Base of every API view reached by a phone code: :meth:`phone_object` looks the code up
    through :func:`phone_code_lookup` (404 with :attr:`unknown_code_error`, 429 throttled)."""

    #: The error code and message of an unknown code, for this kind of phone.
    unknown_code_error = "unknown_code"

    def unknown_code_message(self) -> str:
        return _("Nothing has this code.")

    def phone_queryset(self) -> QuerySet[Any]:
        raise NotImplementedError

    def phone_object(self, request: Request, code: str) -> Any:
        try:
            return phone_code_lookup(request, self.phone_queryset(), code)
        except UnknownCode:
            raise UnknownPhoneCode(self.unknown_code_error, self.unknown_code_message()) from None
        except CodeThrottled as throttled:
            raise TooManyUnknownCodes(throttled) from None


def phone_code_responses(unknown_code: str, thing: str) -> dict[int, OpenApiResponse]:
    """The OpenAPI answers of an API route reached by a code: 404 ``unknown_code`` (named for
    the kind of phone: ``unknown_table_code``...) and 429 ``throttled``."""
    return {
        404: OpenApiResponse(ErrorSerializer, description=f"`{unknown_code}`: no such {thing}."),
        429: OpenApiResponse(
            ErrorSerializer,
            description=(
                f"`throttled`: too many unknown {thing} codes from this address; wait "
                "`Retry-After` seconds (a valid code is never throttled)."
            ),
        ),
    }


#: The ``Retry-After`` header of a throttled phone-code answer (OpenAPI).
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    description="Seconds to wait before trying an unknown code again.",
    response=[429],
)

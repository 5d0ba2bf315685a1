"""Server error answers (``handler500`` of ``config.urls``), the database's outage included.

Django turns an exception into a response inside every middleware layer, so no middleware ever
sees it: the one place that sees every unhandled exception, raised in a view, a template or a
middleware (DRF re-raises those it does not handle), is ``handler500``. It looks at the
exception being handled (``sys.exc_info()``):

- the database is unreachable or went away (Django's or psycopg's ``OperationalError`` /
  ``InterfaceError``, anywhere in the exception's chain): **503** with ``Retry-After``, a JSON
  body ``{"code": "database_unavailable", "detail": ...}`` under ``/api/``, else a short page
  (``503.html``). Nothing was half-written: every write is one transaction, rolled back
  when its connection fails; a write whose commit did reach the database before the outage
  answers a replay (200) when resent;
- the disk is full (SQLite's "database or disk is full", PostgreSQL's ``disk_full``, or
  ``ENOSPC`` / ``EDQUOT`` from the system, anywhere in the chain, :func:`disk_full`): **503** too,
  code ``disk_full``, and the answer says the server's disk is full (the phones keep their
  entries and send them again, as for any 5xx). The log gets one line saying so
  (:class:`DiskFullLogFilter`), not a traceback per refused save;
- anything else: **500**, JSON under ``/api/`` (``{"code": "server_error", ...}``), else
  ``500.html``.

Both pages are standalone templates rendered without the request's context processors: no
session, no user, no query, so they render while the database is down. Django logs the
exception with its traceback (``django.request``) before calling the handler.

The failed connection is not reused: Django marks it (``errors_occurred``) and closes it at the
end of the request (``close_if_unusable_or_obsolete``), so a persistent connection
(``CONN_MAX_AGE``) broken by a database restart fails one request, not every later one.
With ``DEBUG`` on, Django shows its technical error page instead and this handler is not called.

A request for a host name the server does not answer to (``DisallowedHost``: a phone that
reached the laptop under another name than the ones ``ALLOWED_HOSTS`` lists) is a **400** page
naming the address to use (``DUPLITAROT_PUBLIC_URL``, the address of the table cards) from
``handler400`` (:func:`bad_request`), and one log line without traceback
(:class:`DisallowedHostLogFilter`).
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import defaults

from clubs.problems import PROBLEM_JSON, problem
from runner.faults import database_unavailable, disk_full

#: Seconds a client is asked to wait (``Retry-After``); a restart takes a few seconds.
RETRY_AFTER_SECONDS = 5

API_PREFIX = "/api/"


def disk_full_detail() -> str:
    return _(
        "The server's disk is full: nothing can be saved until the organiser frees some space "
        "on it. Your entry is kept: it will be sent again."
    )


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _retry_after() -> int:
    return int(getattr(settings, "DATABASE_RETRY_AFTER_SECONDS", RETRY_AFTER_SECONDS))


def _page(template: str, status: int, context: dict[str, Any]) -> HttpResponse:
    # No request: no context processor runs (no session, no user, no database).
    return HttpResponse(loader.get_template(template).render(context), status=status)


def unavailable_response(request: HttpRequest, *, full: bool = False) -> HttpResponse:
    """503: the database is briefly unavailable, or the disk is ``full``; try again after
    ``Retry-After`` seconds."""
    seconds = _retry_after()
    response: HttpResponse
    if _is_api(request):
        if full:
            body = problem(503, "disk_full", disk_full_detail())
        else:
            message = _("The database is briefly unavailable: try again in a moment.")
            body = problem(503, "database_unavailable", message)
        response = JsonResponse(body, status=503, content_type=PROBLEM_JSON)
    else:
        response = _page("503.html", 503, {"retry_after": seconds, "disk_full": full})
    response["Retry-After"] = str(seconds)
    add_never_cache_headers(response)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a 503 when the database is unreachable or the disk full, else a plain
    500."""
    error = sys.exc_info()[1]
    if disk_full(error):
        return unavailable_response(request, full=True)
    if database_unavailable(error):
        return unavailable_response(request)
    response: HttpResponse
    if _is_api(request):
        message = _("Server error: the error has been logged.")
        response = JsonResponse(
            problem(500, "server_error", message), status=500, content_type=PROBLEM_JSON
        )
    else:
        response = _page("500.html", 500, {})
    add_never_cache_headers(response)
    return response


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: an address no route matches under ``/api/`` answers JSON like every API
    error (``{"code": "not_found", ...}``); elsewhere Django's view renders ``404.html``."""
    if _is_api(request):
        message = _("No API resource at this address.")
        return JsonResponse(
            problem(404, "not_found", message), status=404, content_type=PROBLEM_JSON
        )
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a host name the server does not answer to gets a page naming the address
    to use; anything else Django's view (``400.html``)."""
    if isinstance(exception, DisallowedHost):
        public_url = str(getattr(settings, "DUPLITAROT_PUBLIC_URL", "") or "")
        if _is_api(request):
            if public_url:
                detail = _("This computer does not answer to the address typed: use %(url)s.") % {
                    "url": public_url
                }
            else:
                detail = _("This server does not answer to the address typed.")
            return JsonResponse({"code": "wrong_host", "detail": detail}, status=400)
        return _page("400_host.html", 400, {"public_url": public_url})
    return defaults.bad_request(request, exception)


class DisallowedHostLogFilter(logging.Filter):
    """``django.security.DisallowedHost``: one line naming the refused host and the client,
    without the traceback Django attaches (a phone on a wrong address would otherwise print a
    traceback per request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        meta = getattr(request, "META", {}) or {}
        host = str(meta.get("HTTP_HOST") or meta.get("SERVER_NAME") or "?")
        client = str(meta.get("REMOTE_ADDR") or "?")
        public_url = str(getattr(settings, "DUPLITAROT_PUBLIC_URL", "") or "")
        use = f"; the address to use is {public_url}" if public_url else ""
        record.msg = "Refused host name %r from %s (not in ALLOWED_HOSTS)%s"
        record.args = (host, client, use)
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


class DiskFullLogFilter(logging.Filter):
    """A log record of an error the full disk caused becomes one line without its traceback,
    at most once every :attr:`seconds` per process (the others are dropped): a room's phones
    retrying their saves would otherwise fill the terminal with tracebacks."""

    seconds = 30.0

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._lock = threading.Lock()
        self._last = -float("inf")

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not disk_full(error):
            return True
        with self._lock:
            now = time.monotonic()
            if now - self._last < self.seconds:
                return False
            self._last = now
        folder = getattr(settings, "DATA_DIR", None)
        where = f" ({str(folder).replace('%', '%%')})" if folder else ""
        record.msg = (
            f"The disk is full{where}: saves are refused until some space is freed on this "
            "computer (the phones keep their entries and send them again). %s"
        )
        record.args = (error,)
        record.exc_info = None
        record.exc_text = None
        return True

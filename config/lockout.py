"""Login throttling hooks of django-axes (config.settings_base, "Login throttling").

``lockout_response`` (``AXES_LOCKOUT_CALLABLE``): the page of a locked-out login, HTTP 429 with
``Retry-After``, on /login/ and /admin/login/ alike. It says how long the username is locked for
this client address, and until when. Every failure during the lockout restarts the wait
(django-axes' default), so the wait is counted from now.

``client_address`` (``AXES_CLIENT_IP_CALLABLE``): the client address the lock applies to.
"""

import ipaddress
import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    # A timedelta (config.settings_base), or None for no end (django-axes also accepts hours).
    cool_off: timedelta | None = settings.AXES_COOLOFF_TIME
    seconds = max(1, math.ceil(cool_off.total_seconds())) if cool_off else None
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": max(1, math.ceil(seconds / 60)) if seconds else None,
        "retry_at": timezone.localtime() + cool_off if cool_off else None,
    }
    response = render(request, "registration/lockout.html", context, status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response


def client_address(request: HttpRequest) -> str | None:
    """The address of the client, as seen by the outermost of ``TRUSTED_PROXY_COUNT`` proxies.

    With no trusted proxy (the default): ``REMOTE_ADDR``; X-Forwarded-For is the client's own
    word then, and a client that could choose its address would never be throttled. Behind N
    proxies that each append the address they received the request from, the N-th entry from the
    right of X-Forwarded-For was written by the outermost proxy; entries to its left came from
    the client. A header too short or not an address (a misconfigured proxy) falls back to
    ``REMOTE_ADDR``, so the address always fits the database's address column.
    """
    remote: str | None = request.META.get("REMOTE_ADDR") or None
    proxies: int = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    forwarded = [entry.strip() for entry in header.split(",")]
    if len(forwarded) < proxies:
        return remote
    candidate = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote

"""With no account yet, a club's instance leads every page to the first-run page."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from instance.setup import setup_needed


class FirstRunMiddleware:
    """Redirects the pages of an instance without any account to ``/setup/``
    (``settings.DUPLITAROT_FIRST_RUN_REDIRECT``, on in a club's instance); the API, the static
    files and the language switch answer as usual. Once an account exists it never checks
    again in this process (accounts are not all deleted while it serves)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.active = bool(getattr(settings, "DUPLITAROT_FIRST_RUN_REDIRECT", False))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.active and request.method in ("GET", "HEAD"):
            setup_url = reverse("instance:setup")
            path = request.path_info
            exempt = (setup_url, "/" + settings.STATIC_URL.lstrip("/"), "/api/", "/i18n/")
            if not path.startswith(exempt):
                if setup_needed():
                    return redirect(setup_url)
                self.active = False
        return self.get_response(request)

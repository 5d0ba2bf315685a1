"""Language of the REST API, and the opener policy over HTTPS only.

Pages choose their language from the URL (French at ``/``, English at ``/en/``), so Django's
LocaleMiddleware gives every unprefixed URL the default language. The API has no language
prefix: there the client's ``Accept-Language`` (or the language cookie) decides, French by
default.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers


class ApiLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith("/api/"):
            return self.get_response(request)
        language = translation.get_language_from_request(request, check_path=False)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        return response


class SecureOnlyOpenerPolicyMiddleware:
    """``Cross-Origin-Opener-Policy`` only over HTTPS.

    Django's SecurityMiddleware sends it on every answer, but a browser ignores it on an
    origin that is not trustworthy (plain HTTP to a laptop's address on the club's Wi-Fi) and
    says so in the console on every page. Over HTTPS (or behind a proxy that says so through
    ``SECURE_PROXY_SSL_HEADER``) the header is kept as set.
    """

    HEADER = "Cross-Origin-Opener-Policy"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.is_secure() and self.HEADER in response:
            del response[self.HEADER]
        return response

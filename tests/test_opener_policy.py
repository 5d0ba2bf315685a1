"""Cross-Origin-Opener-Policy only over HTTPS: over plain HTTP (the club's Wi-Fi) a browser
ignores it with a console error on every page, so it is not sent there."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

HEADER = "Cross-Origin-Opener-Policy"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/login/", "/api/v1/tables/NOPE/"])
def test_plain_http_answers_carry_no_opener_policy(path: str) -> None:
    assert HEADER not in Client().get(path)


@pytest.mark.django_db
def test_https_answers_keep_the_configured_policy() -> None:
    assert settings.SECURE_CROSS_ORIGIN_OPENER_POLICY == "same-origin"
    assert Client().get("/login/", secure=True)[HEADER] == "same-origin"


def test_the_opener_policy_middleware_wraps_the_security_one() -> None:
    """It must see the answer after SecurityMiddleware set the header."""
    middleware = list(settings.MIDDLEWARE)
    security = middleware.index("django.middleware.security.SecurityMiddleware")
    assert middleware.index("config.middleware.SecureOnlyOpenerPolicyMiddleware") < security

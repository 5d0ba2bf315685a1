"""The API documentation renders in a browser with no internet (issue 11 #4).

Every request the page makes to a host other than the live server is aborted (a room without
internet) and recorded: Swagger UI and ReDoc must still render the API's title, and nothing
may have been asked of another host.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REDOCLY_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def offline_page(new_page: Any, base: str) -> tuple[Any, list[str]]:
    page = new_page()
    local = urlsplit(base).netloc
    outside: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if urlsplit(url).netloc == local or url.startswith(("data:", "blob:")):
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    page.route("**/*", route)
    return page, outside


def test_swagger_ui_renders_offline(live_server, new_page: Any) -> None:
    page, outside = offline_page(new_page, live_server.url)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "duplitarot API" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path")
    assert outside == []


def test_redoc_renders_offline(live_server, new_page: Any) -> None:
    page, outside = offline_page(new_page, live_server.url)
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("h1")
    assert "duplitarot API" in page.inner_text("h1")
    # ReDoc's bundle always tries its decorative "API docs by Redocly" logo (it hides it when
    # it cannot load): the one outside request allowed, nothing the page needs.
    assert set(outside) <= {REDOCLY_LOGO}

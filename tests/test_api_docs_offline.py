"""The API's documentation works without internet, and /api/v1/ is the API's root (issue 11 #4).

The Swagger UI and ReDoc pages reference only the app's own static files (drf-spectacular-
sidecar, pinned by uv.lock), which the server serves; ``/api/v1/`` answers JSON listing the
main endpoints, each of which resolves to an API view.
"""

from __future__ import annotations

import re
import urllib.request
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.urls import resolve

pytestmark = pytest.mark.django_db

ASSET_RE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
EXTERNAL_RE = re.compile(r"""https?://""")


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_reference_only_local_static_files(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    assert not EXTERNAL_RE.search(page), EXTERNAL_RE.findall(page)
    assets = ASSET_RE.findall(page)
    scripts = [a for a in assets if a.endswith(".js")]
    assert scripts, "the page loads its viewer's script"
    static = "/" + settings.STATIC_URL.lstrip("/")
    for asset in assets:
        assert asset.startswith(static), asset


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_docs_assets_are_served_by_the_app(live_server, path: str) -> None:
    with urllib.request.urlopen(live_server.url + path, timeout=30) as response:
        page = response.read().decode()
    assets = ASSET_RE.findall(page)
    assert assets
    for asset in assets:
        url = urljoin(live_server.url + path, asset)
        assert urlsplit(url).hostname in {"localhost", "127.0.0.1"}
        with urllib.request.urlopen(url, timeout=30) as response:
            assert response.status == 200
            assert len(response.read()) > 100, url


def test_api_v1_is_the_api_root(client: Client) -> None:
    response = client.get("/api/v1/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["docs"] == "http://testserver/api/docs/"
    assert body["schema"] == "http://testserver/api/schema/"
    endpoints = body["endpoints"]
    assert endpoints["events"] == "http://testserver/api/v1/events/"
    samples = {"{id}": "1", "{event_id}": "1", "{number}": "2", "{code}": "ABCDEFGHJK"}
    for key, url in endpoints.items():
        path = urlsplit(url).path
        for placeholder, value in samples.items():
            path = path.replace(placeholder, value)
        match = resolve(path)
        assert match.namespace == "api" and match.url_name == key, (key, url)
    # The events list it points to answers too.
    assert client.get(endpoints["events"]).status_code == 200


def test_api_root_is_documented_in_the_schema(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert "get" in schema["paths"]["/api/v1/"]

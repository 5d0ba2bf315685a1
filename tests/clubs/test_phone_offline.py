"""The phone pages' service worker, manifest and offline shell (clubs.phone_offline)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_at_the_root_for_the_whole_site() -> None:
    response = Client().get("/phone-sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    assert '"/phone/offline/"' in script and '"/static/"' in script
    assert "cache.put(request" not in script.split('request.mode === "navigate"')[1]


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ("/table/ABCDEFGH23/", "/table/ABCDEFGH23/"),
        ("/en/cups/room/ABCDEFGH23/", "/en/cups/room/ABCDEFGH23/"),
        ("/free-deal/table/ABCDEFGH23/", "/free-deal/table/ABCDEFGH23/"),
        ("https://elsewhere.example/", "/"),
        ("/organiser/", "/"),
    ],
)
def test_the_manifest_starts_at_a_phone_page_only(start: str, expected: str) -> None:
    response = Client().get("/phone.webmanifest", {"start": start})
    assert response["Content-Type"] == "application/manifest+json"
    body = json.loads(response.content)
    assert body["start_url"] == expected and body["scope"] == "/"


def test_the_offline_shell_lists_the_outbox_and_no_result() -> None:
    html = Client().get("/phone/offline/").content.decode()
    assert 'id="phone-outbox"' in html and "data-shell" in html
    assert "js/phone.js" in html
    assert "deal-form" not in html

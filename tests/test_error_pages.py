"""Error pages speak the visitor's language (French by default), never Django's English."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_an_unknown_page_is_a_french_404() -> None:
    response = Client().get("/events/999999/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page introuvable" in page and "Not Found" not in page
    english = Client().get("/en/events/999999/").content.decode()
    assert "Page not found" in english


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_an_oversized_form_body_is_a_french_400() -> None:
    response = Client().post("/login/", {"username": "x" * 5000, "password": "y"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Requête illisible" in page and "Bad Request" not in page


def test_an_unknown_api_address_is_a_json_404() -> None:
    for path in ("/api/v1/events/-5/rankings/", "/api/v1/events/null/", "/api/v1/nothing/"):
        response = Client().get(path)
        assert response.status_code == 404
        assert response["Content-Type"] == "application/problem+json"  # RFC 9457
        assert response.json()["code"] == "not_found"
        assert (response.json()["status"], response.json()["title"]) == (404, "Not Found")


def test_a_huge_page_limit_is_cut_not_a_server_error() -> None:
    response = Client().get("/api/v1/events/?limit=32589158477190044730&offset=0")
    assert response.status_code == 200
    assert response.json()["results"] == []
    negative = Client().get("/api/v1/events/?limit=5&offset=-488")
    assert negative.status_code == 200

"""A phone on a host name the server does not answer to (``DisallowedHost``): a translated 400
naming the address to use, and one log line without traceback."""

from __future__ import annotations

import logging

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

ROOM = "http://192.168.1.20:8000"


@override_settings(DUPLITAROT_PUBLIC_URL=ROOM)
@pytest.mark.parametrize("path", ["/", "/table/ABCDEFGHJK/", "/login/"])
def test_a_wrong_host_names_the_address_to_use(path: str) -> None:
    response = Client(HTTP_HOST="phone.wrong:8000").get(path)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Mauvaise adresse" in page
    assert f'href="{ROOM}/"' in page
    assert "Requête illisible" not in page and "Bad Request" not in page


@override_settings(DUPLITAROT_PUBLIC_URL=ROOM)
def test_a_wrong_host_in_english() -> None:
    page = Client(HTTP_HOST="phone.wrong:8000").get("/en/login/").content.decode()
    assert "Wrong address" in page and ROOM in page


@override_settings(DUPLITAROT_PUBLIC_URL="")
def test_without_a_public_address_the_page_says_to_ask() -> None:
    response = Client(HTTP_HOST="phone.wrong:8000").get("/")
    assert response.status_code == 400
    assert "l'adresse donnée par l'organisateur" in response.content.decode()


@override_settings(DUPLITAROT_PUBLIC_URL=ROOM)
def test_the_api_answers_json() -> None:
    response = Client(HTTP_HOST="phone.wrong:8000").get("/api/v1/tables/ABCDEFGHJK/")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "wrong_host" and ROOM in body["detail"]


@override_settings(DUPLITAROT_PUBLIC_URL=ROOM)
def test_one_log_line_without_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        Client(HTTP_HOST="phone.wrong:8000", REMOTE_ADDR="192.168.1.77").get("/")
    records = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert len(records) == 1
    record = records[0]
    assert record.exc_info is None and record.exc_text is None
    line = logging.Formatter().format(record)
    assert "\n" not in line
    assert "phone.wrong:8000" in line and "192.168.1.77" in line and ROOM in line


def test_the_other_bad_requests_keep_their_page() -> None:
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000):
        response = Client().post("/login/", {"username": "x" * 5000, "password": "y"})
    assert response.status_code == 400
    assert "Requête illisible" in response.content.decode()

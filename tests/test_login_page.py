"""The login page says a wrong password once (not the form's own message as well)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import OrganiserFactory


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/login/", "/en/login/"])
def test_a_wrong_password_is_said_once(path: str) -> None:
    OrganiserFactory(username="alice")
    page = Client().post(path, {"username": "alice", "password": "wrong"}).content.decode()
    assert page.count('class="error"') == 1, page
    assert "errorlist" not in page
    assert "Please enter a correct" not in page  # Django's own message, in English
    assert "Saisissez un nom" not in page  # and in French


@pytest.mark.django_db
def test_a_missing_field_is_said_at_the_field_only() -> None:
    page = Client().post("/login/", {"username": "alice", "password": ""}).content.decode()
    assert page.count("errorlist") == 1
    assert 'class="error"' not in page
    assert 'name="password"' in page and 'name="username"' in page

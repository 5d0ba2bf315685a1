"""Login throttling (django-axes, config.settings_base "Login throttling", config/lockout.py).

A username is locked for one client address after ``AXES_FAILURE_LIMIT`` (5) failures in a row:
even the right password is then refused with the 429 lockout page, on /login/ and /admin/login/.
The API authenticates by session only, so this page's throttle is the API's too.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client, RequestFactory
from django.test.utils import override_settings

from config.lockout import client_address

pytestmark = pytest.mark.django_db

RIGHT = "the-right-password-1"
WRONG = "not-the-password"
LIMIT = 5  # the default of DJANGO_LOGIN_FAILURE_LIMIT


@pytest.fixture
def alice() -> AbstractBaseUser:
    return get_user_model().objects.create_user(username="alice", password=RIGHT)


@pytest.fixture
def bob() -> AbstractBaseUser:
    return get_user_model().objects.create_user(username="bob", password=RIGHT)


@pytest.fixture
def staff() -> AbstractBaseUser:
    return get_user_model().objects.create_user(username="staff", password=RIGHT, is_staff=True)


def post_login(
    client: Client, username: str, password: str, url: str = "/login/", **extra: str
) -> Any:
    return client.post(url, {"username": username, "password": password}, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_the_limit_is_five_failures(alice: AbstractBaseUser) -> None:
    client = Client()
    statuses = [post_login(client, "alice", WRONG).status_code for _ in range(LIMIT)]
    assert statuses == [200] * (LIMIT - 1) + [429]


def test_a_hundred_wrong_passwords_then_the_right_one_is_refused(
    alice: AbstractBaseUser,
) -> None:
    client = Client()
    for attempt in range(100):
        response = post_login(client, "alice", WRONG)
        assert response.status_code == (200 if attempt < LIMIT - 1 else 429), attempt

    response = post_login(client, "alice", RIGHT)
    assert response.status_code == 429
    assert not logged_in(client)
    assert "registration/lockout.html" in [t.name for t in response.templates]
    page = response.content.decode()
    assert '<html lang="fr">' in page  # the default language's page
    assert 'id="lockout"' in page and 'id="retry"' in page
    assert response["Retry-After"] == str(15 * 60)
    # The organiser's pages stay closed.
    assert client.get("/organiser/").status_code == 302


def test_the_lockout_page_says_how_long_and_translates(alice: AbstractBaseUser) -> None:
    client = Client()
    for _ in range(LIMIT):
        response = post_login(client, "alice", WRONG, url="/en/login/")
    assert response.status_code == 429
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert "Too many failed login attempts" in page
    assert "After 5 failed attempts, logging in with this username" in page
    assert "Try again in 15 minutes, at " in page


def test_another_username_from_the_same_address_still_logs_in(
    alice: AbstractBaseUser, bob: AbstractBaseUser
) -> None:
    client = Client()
    for _ in range(LIMIT):
        post_login(client, "alice", WRONG)
    assert post_login(client, "alice", RIGHT).status_code == 429

    response = post_login(client, "bob", RIGHT)
    assert response.status_code == 302 and response["Location"] == "/organiser/"
    assert logged_in(client)


def test_the_same_username_from_another_address_still_logs_in(alice: AbstractBaseUser) -> None:
    for _ in range(LIMIT):
        post_login(Client(), "alice", WRONG)
    assert post_login(Client(), "alice", RIGHT).status_code == 429

    other = Client(REMOTE_ADDR="127.0.0.2")
    assert post_login(other, "alice", RIGHT).status_code == 302
    assert logged_in(other)


def test_a_success_resets_the_count(alice: AbstractBaseUser) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        assert post_login(client, "alice", WRONG).status_code == 200
    assert post_login(client, "alice", RIGHT).status_code == 302
    client.logout()

    # Counted from zero again: LIMIT - 1 more failures still leave the right password working.
    for _ in range(LIMIT - 1):
        assert post_login(client, "alice", WRONG).status_code == 200
    assert post_login(client, "alice", RIGHT).status_code == 302
    client.logout()
    for _ in range(LIMIT - 1):
        assert post_login(client, "alice", WRONG).status_code == 200
    assert post_login(client, "alice", WRONG).status_code == 429


def test_the_lock_ends_after_the_cool_off(alice: AbstractBaseUser) -> None:
    client = Client()
    for _ in range(LIMIT):
        post_login(client, "alice", WRONG)
    assert post_login(client, "alice", RIGHT).status_code == 429

    # The last failure was 15 minutes ago (moved back in the database, not waited for).
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=15, seconds=1)
    )
    assert post_login(client, "alice", RIGHT).status_code == 302


def test_the_admin_login_is_throttled_too(staff: AbstractBaseUser) -> None:
    client = Client()
    url = "/admin/login/?next=/admin/"
    for attempt in range(LIMIT):
        response = post_login(client, "staff", WRONG, url=url)
        assert response.status_code == (200 if attempt < LIMIT - 1 else 429), attempt

    response = post_login(client, "staff", RIGHT, url=url)
    assert response.status_code == 429
    assert 'id="lockout"' in response.content.decode()
    assert not logged_in(client)
    assert client.get("/admin/").status_code == 302


def test_the_admin_and_the_organiser_login_share_the_count(staff: AbstractBaseUser) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        assert post_login(client, "staff", WRONG, url="/admin/login/").status_code == 200
    assert post_login(client, "staff", WRONG).status_code == 429


@override_settings(AXES_COOLOFF_TIME=None)
def test_without_a_cool_off_the_page_sends_to_the_administrator(alice: AbstractBaseUser) -> None:
    client = Client()
    for _ in range(LIMIT):
        response = post_login(client, "alice", WRONG, url="/en/login/")
    assert response.status_code == 429
    assert "Retry-After" not in response
    assert "Ask the site administrator to unlock your account." in response.content.decode()


def test_clients_cannot_pick_their_address_without_a_trusted_proxy(
    alice: AbstractBaseUser,
) -> None:
    """With no trusted proxy (the default), X-Forwarded-For is ignored: a client that writes
    another address in it for each attempt is still throttled."""
    client = Client()
    for n in range(LIMIT):
        post_login(client, "alice", WRONG, HTTP_X_FORWARDED_FOR=f"127.0.1.{n}")
    response = post_login(client, "alice", RIGHT, HTTP_X_FORWARDED_FOR="127.0.2.1")
    assert response.status_code == 429


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_trusted_proxy_each_client_has_its_own_count(alice: AbstractBaseUser) -> None:
    """Every request comes from the proxy's address; the proxy appends the client's."""
    proxy = Client(REMOTE_ADDR="127.0.0.9")
    for _ in range(LIMIT):
        post_login(proxy, "alice", WRONG, HTTP_X_FORWARDED_FOR="127.0.0.5")
    assert post_login(proxy, "alice", RIGHT, HTTP_X_FORWARDED_FOR="127.0.0.5").status_code == 429
    # What the client itself wrote before the proxy's entry does not change its address.
    spoofed = "127.0.0.77, 127.0.0.5"
    assert post_login(proxy, "alice", RIGHT, HTTP_X_FORWARDED_FOR=spoofed).status_code == 429
    # Another client behind the same proxy is not locked.
    assert post_login(proxy, "alice", RIGHT, HTTP_X_FORWARDED_FOR="127.0.0.6").status_code == 302
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.5"}


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "127.0.0.9"),
        (0, "127.0.0.5", "127.0.0.9"),
        (1, None, "127.0.0.9"),
        (1, "127.0.0.5", "127.0.0.5"),
        (1, "127.0.0.77, 127.0.0.5", "127.0.0.5"),
        (1, " ::1 ", "::1"),
        (2, "127.0.0.77, 127.0.0.5, 127.0.0.3", "127.0.0.5"),
        (2, "127.0.0.5", "127.0.0.9"),  # shorter than the proxy chain: misconfigured
        (1, "unknown", "127.0.0.9"),  # not an address
        (1, "127.0.0.5, ", "127.0.0.9"),
    ],
)
def test_client_address(proxies: int, forwarded: str | None, expected: str) -> None:
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = RequestFactory().get("/login/", REMOTE_ADDR="127.0.0.9", **headers)
    with override_settings(TRUSTED_PROXY_COUNT=proxies):
        assert client_address(request) == expected

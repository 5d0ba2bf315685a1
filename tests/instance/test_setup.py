"""The first run: the one-time setup code, the first-run page, the redirect to it."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client

from clubs.models import Club
from instance import setup
from instance.models import SetupCode

pytestmark = pytest.mark.django_db

URL = "/setup/"


@pytest.fixture(autouse=True)
def _clear_cache() -> None:
    cache.clear()


def _form(code: str, **extra: str) -> dict[str, str]:
    data = {
        "setup_code": code,
        "club_name": "Tarot Club de Lyon",
        "city": "Lyon",
        "username": "marie",
        "password1": "le-petit-au-bout",
        "password2": "le-petit-au-bout",
    }
    data.update(extra)
    return data


def test_a_code_is_long_single_and_stored_as_a_digest() -> None:
    code = setup.setup_code_issue()
    assert code is not None
    raw = code.replace("-", "")
    assert len(raw) == 16 and set(raw) <= set(setup.ALPHABET)
    # 16 characters of 30: more than 64 bits.
    assert len(setup.ALPHABET) ** setup.LENGTH > 2**64
    stored = SetupCode.objects.get()
    assert raw not in stored.digest and code not in stored.digest
    again = setup.setup_code_issue()
    assert again != code and SetupCode.objects.count() == 1


def test_the_first_run_creates_the_club_and_its_organiser(client: Client) -> None:
    code = setup.setup_code_issue()
    assert code is not None
    response = client.post(URL, _form(code.lower()))
    assert response.status_code == 302 and response["Location"] == "/organiser/"
    user = User.objects.get(username="marie")
    assert user.is_superuser and user.check_password("le-petit-au-bout")
    club = Club.objects.get(name="Tarot Club de Lyon")
    assert list(club.organisers.all()) == [user] and club.city == "Lyon"
    assert not SetupCode.objects.exists()
    # Logged in, and the page is closed now.
    assert client.get("/organiser/").status_code == 200
    assert client.get(URL).status_code == 302
    assert Client().post(URL, _form(code, username="mallory")).status_code == 302
    assert not User.objects.filter(username="mallory").exists()


def test_a_wrong_code_is_refused_and_counted(client: Client) -> None:
    code = setup.setup_code_issue()
    assert code is not None
    response = client.post(URL, _form("ABCD-EFGH-JKMN-PQRS"))
    assert response.status_code == 400
    assert "n’est pas le code d’installation" in response.content.decode()
    assert not User.objects.exists() and not Club.objects.exists()
    assert SetupCode.objects.get().failures == 1
    # The right code still works afterwards.
    assert client.post(URL, _form(code)).status_code == 302


def test_no_code_issued_means_no_setup(client: Client) -> None:
    assert client.post(URL, _form("ABCD-EFGH-JKMN-PQRS")).status_code == 400
    assert not User.objects.exists()


def test_wrong_tries_are_throttled_per_address(client: Client) -> None:
    code = setup.setup_code_issue()
    assert code is not None
    for _ in range(setup.ADDRESS_FAILURES):
        assert client.post(URL, _form("WRONG")).status_code == 400
    blocked = client.post(URL, _form(code))
    assert blocked.status_code == 429 and int(blocked["Retry-After"]) > 0
    assert not User.objects.exists()
    # Another address is not blocked, and the code still works there.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post(URL, _form(code)).status_code == 302


def test_too_many_wrong_tries_disable_the_code_and_say_so(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    """After the last wrong try the right code is refused too, saying the code was disabled and
    how to get a new one; the terminal (the server's log) says so once."""
    code = setup.setup_code_issue()
    assert code is not None
    with caplog.at_level(logging.WARNING, logger="instance.setup"):
        for number in range(setup.MAX_FAILURES):
            Client(REMOTE_ADDR=f"10.0.{number}.1").post(URL, _form("WRONG"))
        refused = client.post(URL, _form(code))
    assert refused.status_code == 400
    page = refused.content.decode()  # the first-run page is in French
    assert "désactivé" in page and "duplitarot setup_code" in page
    assert "n’est pas le code" not in page
    assert not User.objects.exists()
    warnings = [r.getMessage() for r in caplog.records if r.name == "instance.setup"]
    assert len(warnings) == 1
    assert "désactivé" in warnings[0] and "duplitarot setup_code" in warnings[0]
    # A new code (the command, or a restart) works.
    fresh = setup.setup_code_issue()
    assert fresh is not None
    assert client.post(URL, _form(fresh)).status_code == 302


def test_a_new_code_lifts_the_lock_of_an_address(client: Client) -> None:
    """The director who mistyped five times restarts the server (a new code): his address is
    not locked out any longer (the lock lived in the data folder's cache)."""
    setup.setup_code_issue()
    for _ in range(setup.ADDRESS_FAILURES):
        assert client.post(URL, _form("WRONG")).status_code == 400
    assert client.post(URL, _form("WRONG")).status_code == 429
    restarted = setup.setup_code_issue()  # what serve does at every start
    assert restarted is not None
    assert client.post(URL, _form(restarted)).status_code == 302


def test_a_code_is_dead_once_an_account_exists(client: Client) -> None:
    code = setup.setup_code_issue()
    assert code is not None
    User.objects.create_user("admin", password="x" * 12)
    assert setup.setup_code_issue() is None
    assert client.post(URL, _form(code)).status_code == 302
    assert not Club.objects.exists()


def test_bad_accounts_and_clubs_are_refused_clearly(client: Client) -> None:
    code = setup.setup_code_issue()
    assert code is not None
    differ = client.post(URL, _form(code, password2="another-password"))
    assert differ.status_code == 400 and not User.objects.exists()
    short = client.post(URL, _form(code, password1="short", password2="short"))
    assert short.status_code == 400
    bad_name = client.post(URL, _form(code, username="marie durand!"))
    assert bad_name.status_code == 400
    assert client.post(URL, _form(code, club_name="")).status_code == 400
    assert not User.objects.exists()
    assert client.post(URL, _form(code)).status_code == 302


def test_the_page_is_in_french(client: Client) -> None:
    setup.setup_code_issue()
    page = client.get(URL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Code d’installation" in page or "Code d'installation" in page


def test_an_instance_without_accounts_leads_to_the_first_run_page(settings: Any) -> None:
    settings.DUPLITAROT_FIRST_RUN_REDIRECT = True
    client = Client()
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == URL
    assert client.get("/organiser/")["Location"] == URL
    assert client.get("/api/v1/").status_code == 200
    User.objects.create_user("admin", password="x" * 12)
    assert Client().get("/").status_code == 200


def test_the_setup_code_command(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("setup_code")
    code = capsys.readouterr().out.strip()
    assert len(code.replace("-", "")) == 16
    User.objects.create_user("admin", password="x" * 12)
    with pytest.raises(CommandError) as refused:
        call_command("setup_code")
    assert refused.value.returncode == 2

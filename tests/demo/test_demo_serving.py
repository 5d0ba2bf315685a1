"""How the demo serves (issue 11 #7, #8): ``--lan`` serves the room's network and puts the
machine's LAN address in the QR codes (a busy port, before anything is built: issue 22,
``test_demo_database.py``). Only loopback sockets are opened here: the LAN address
is a documentation address (RFC 5737) handed to the command, never bound."""

from __future__ import annotations

import socket
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from demo.management.commands import demo as demo_command
from demo.services import DEMO_CLUB_NAME, DEMO_USERNAME
from instance import network as lan
from tournaments.models import Event, Table

User = get_user_model()
PASSWORD = "demo-pass-2026"
ROOM_ADDRESS = "192.0.2.10"  # TEST-NET-1: a LAN address that is never bound nor reached


def test_bind_problem_names_a_busy_port() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert lan.bind_problem("127.0.0.1", port) == "already in use"
    assert lan.bind_problem("127.0.0.1", port) is None


def test_lan_address_is_a_usable_ipv4_address_or_none() -> None:
    address = lan.lan_address()
    assert address is None or lan._usable(address)
    assert not lan._usable("127.0.0.1") and not lan._usable("0.0.0.0")
    assert lan._usable(ROOM_ADDRESS)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[tuple[Any, ...]]:
    """The demo command with its server and its port check replaced by recorders."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS]  # restored after the test
    settings.DUPLITAROT_PUBLIC_URL = ""
    calls: list[tuple[Any, ...]] = []
    real = demo_command.call_command

    def fake_call_command(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "runserver":
            calls.append(("runserver", *args))
            return None
        return real(name, *args, **kwargs)

    def fake_bind_problem(host: str, port: int) -> None:
        calls.append(("bind", host, port))

    monkeypatch.setattr(demo_command, "call_command", fake_call_command)
    monkeypatch.setattr(demo_command, "bind_problem", fake_bind_problem)
    monkeypatch.setattr(demo_command, "lan_address", lambda: ROOM_ADDRESS)
    return calls


@pytest.mark.django_db
def test_demo_lan_serves_the_room_and_prints_its_address_in_the_qr_codes(
    served: list[tuple[Any, ...]], settings: Any
) -> None:
    out = StringIO()
    call_command("demo", "--lan", "--port", "8123", "--password", PASSWORD, stdout=out)
    base = f"http://{ROOM_ADDRESS}:8123"
    assert served == [("bind", "0.0.0.0", 8123), ("runserver", "0.0.0.0:8123")]
    text = out.getvalue()
    assert f"Phones on the room's Wi-Fi open {base}/" in text
    assert f"Organiser account:  {DEMO_USERNAME} / {PASSWORD}" in text
    assert f"log in at         {base}/login/" in text
    assert ROOM_ADDRESS in settings.ALLOWED_HOSTS
    assert base == settings.DUPLITAROT_PUBLIC_URL
    # The table cards printed on the organiser's laptop (127.0.0.1) point the phones there.
    event = Event.objects.filter(club__name=DEMO_CLUB_NAME, movement__isnull=False).first()
    client = Client()
    client.force_login(User.objects.get(username=DEMO_USERNAME))
    response = client.get(
        reverse("organiser:print_tables", args=[event.pk]), HTTP_HOST="127.0.0.1:8123"
    )
    assert response.status_code == 200
    code = Table.objects.filter(event=event).first().code
    assert f"{base}/table/{code}/" in response.text
    assert "127.0.0.1:8123/table/" not in response.text


@pytest.mark.django_db
def test_demo_lan_public_url_and_its_refusals(served: list[tuple[Any, ...]], settings: Any) -> None:
    with pytest.raises(CommandError, match="--public-url goes with --lan") as refused:
        call_command("demo", "--public-url", "http://10.0.0.5:8000", stdout=StringIO())
    assert refused.value.returncode == 2
    with pytest.raises(CommandError, match="--public-url: 'phone'") as refused:
        call_command("demo", "--lan", "--public-url", "phone", stdout=StringIO())
    assert refused.value.returncode == 2
    assert served == []  # refused before anything was built or served


def test_demo_lan_without_a_network_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(demo_command, "lan_address", lambda: None)
    with pytest.raises(CommandError, match="no address on a local network") as refused:
        call_command("demo", "--lan", stdout=StringIO())
    assert refused.value.returncode == 2

"""The serve command remembers the phones' address: when it changed, it names the
competitions whose printed table cards show the old one."""

from __future__ import annotations

from pathlib import Path

import pytest

from instance import instance_state
from instance.management.commands.serve import Command
from tests.builders import running_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_a_new_address_names_the_cards_to_reprint(tmp_path: Path) -> None:
    event = running_event(tables=3)
    finished = running_event(tables=3, status=Event.Status.FINISHED)
    command = Command()
    assert command._cards_moved(tmp_path, "http://192.168.1.20:8000") is None
    assert command._cards_moved(tmp_path, "http://192.168.1.20:8000") is None
    moved = command._cards_moved(tmp_path, "http://10.0.0.5:8000")
    assert moved is not None and moved["was"] == "http://192.168.1.20:8000"
    assert [name for name in moved["competitions"] if event.name in name]
    assert len(moved["competitions"]) == 1 and finished.pk != event.pk
    assert instance_state.read(tmp_path)["public_url"] == "http://10.0.0.5:8000"

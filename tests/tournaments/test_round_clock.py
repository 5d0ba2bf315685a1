"""The director's round clock (``tournaments.services.clock``, ``tournaments.views.clock``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from clubs.errors import DomainError
from tests.builders import running_event
from tests.factories import OrganiserFactory
from tournaments.models import Event, RoundClock, Table
from tournaments.services.clock import clock_change, clock_read

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return running_event(tables=3, rounds=3, deals_per_round=2)


def url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


def test_an_event_without_a_clock_reads_idle(event: Event) -> None:
    view = clock_read(event)
    assert view.state == "idle" and view.left_ms is None and view.version == 0
    assert not RoundClock.objects.exists()


def test_start_pause_resume_extend_stop(event: Event) -> None:
    clock_change(event=event, action="set", minutes="25")
    started = clock_change(event=event, action="start", round_number=2)
    assert started.state == "running" and started.round_number == 2
    assert 24 * 60_000 < (started.left_ms or 0) <= 25 * 60_000
    stored = RoundClock.objects.get(event=event)
    assert stored.ends_at is not None
    # Ten minutes later (the stored end moved back, as time passing would do).
    stored.ends_at -= dt.timedelta(minutes=10)
    stored.save()
    paused = clock_change(event=event, action="pause")
    assert paused.state == "paused" and 14 * 60_000 < (paused.left_ms or 0) <= 15 * 60_000
    assert RoundClock.objects.get(event=event).ends_at is None
    # Paused: the time left does not move; more time adds to it.
    extended = clock_change(event=event, action="extend", minutes=5)
    assert (extended.left_ms or 0) == (paused.left_ms or 0) + 5 * 60_000
    resumed = clock_change(event=event, action="resume")
    assert resumed.state == "running"
    assert abs((resumed.left_ms or 0) - (extended.left_ms or 0)) < 2_000
    stopped = clock_change(event=event, action="stop")
    assert stopped.state == "idle" and stopped.round_number is None
    assert stopped.version == 6 and stopped.minutes == 25


def test_a_position_over_gets_its_extra_time_from_now(event: Event) -> None:
    clock_change(event=event, action="start", minutes=10, round_number=1)
    RoundClock.objects.filter(event=event).update(ends_at=timezone.now() - dt.timedelta(minutes=3))
    assert clock_read(event).expired
    extended = clock_change(event=event, action="extend", minutes=2)
    assert 110_000 < (extended.left_ms or 0) <= 120_000


@pytest.mark.parametrize(
    ("action", "minutes", "code"),
    [
        ("start", None, "clock_not_set"),
        ("pause", None, "clock_not_running"),
        ("resume", None, "clock_not_paused"),
        ("extend", 5, "clock_not_running"),
        ("set", "0", "invalid"),
        ("set", "181", "invalid"),
        ("set", "vingt", "invalid"),
        ("explode", None, "invalid"),
    ],
)
def test_what_makes_no_sense_is_refused_and_changes_nothing(
    event: Event, action: str, minutes: Any, code: str
) -> None:
    with pytest.raises(DomainError) as refused:
        clock_change(event=event, action=action, minutes=minutes)
    assert refused.value.code == code
    assert clock_read(event).version == 0


def test_only_a_running_event_runs_its_clock() -> None:
    draft = running_event(tables=3, status=Event.Status.DRAFT)
    with pytest.raises(DomainError) as refused:
        clock_change(event=draft, action="start", minutes=20)
    assert refused.value.code == "event_not_running"
    assert clock_change(event=draft, action="set", minutes=20).minutes == 20


def test_the_clock_json_gives_the_servers_instant_and_is_never_cached(event: Event) -> None:
    clock_change(event=event, action="start", minutes=20, round_number=1)
    table = Table.objects.filter(event=event).first()
    assert table is not None
    for address in (url("clock:event", event.pk), url("table:clock", table.code)):
        response = Client().get(address)
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
        data = response.json()
        assert data["state"] == "running" and data["round"] == 1 and data["minutes"] == 20
        now_ms = timezone.now().timestamp() * 1000
        assert abs(data["now_ms"] - now_ms) < 5_000
        assert 19 * 60_000 < data["ends_at_ms"] - data["now_ms"] <= 20 * 60_000
    assert Client().get(url("table:clock", "NOPE-NOPE")).status_code == 404


def test_a_private_events_clock_is_not_public(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(public=False)
    assert Client().get(url("clock:event", event.pk)).status_code == 404
    director = Client()
    director.force_login(OrganiserFactory(clubs=[event.club]))
    assert director.get(url("clock:event", event.pk)).status_code == 200


def test_the_director_runs_the_clock_from_the_control_room(event: Event) -> None:
    director = Client()
    director.force_login(OrganiserFactory(clubs=[event.club]))
    page = director.get(url("organiser:control", event.pk))
    assert page.status_code == 200 and b'id="clock-set"' in page.content
    action = url("organiser:clock_action", event.pk)
    response = director.post(action, {"action": "start", "minutes": "30", "round": "1"})
    assert response.status_code == 302 and response["Location"].endswith("#clock")
    assert clock_read(event).state == "running"
    page = director.get(url("organiser:control", event.pk))
    assert b'id="clock-pause"' in page.content and b'id="clock-extend"' in page.content
    refused = director.post(action, {"action": "extend", "minutes": "500"})
    assert refused.status_code == 400
    assert "minutes" in refused.content.decode()
    assert clock_read(event).version == 1


def test_only_the_director_runs_the_clock(event: Event) -> None:
    action = url("organiser:clock_action", event.pk)
    anonymous = Client().post(action, {"action": "start", "minutes": "30"})
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    other = Client()
    other.force_login(OrganiserFactory())
    assert other.post(action, {"action": "start", "minutes": "30"}).status_code == 404
    assert clock_read(event).version == 0


def test_the_table_phone_and_the_projector_show_the_clock(event: Event) -> None:
    table = Table.objects.filter(event=event).first()
    assert table is not None
    phone = Client().get(url("table:entry", table.code))
    assert b'data-clock-url="' + url("table:clock", table.code).encode() in phone.content
    projector = Client().get(url("public:ranking_projector", event.pk))
    assert b'data-clock-url="' + url("clock:event", event.pk).encode() in projector.content

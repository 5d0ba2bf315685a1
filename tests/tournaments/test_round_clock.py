"""The director's round clock (``tournaments.services.clock``, ``tournaments.views.clock``)."""

from __future__ import annotations

import datetime as dt
import random
import re
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from clubs.errors import DomainError
from runner import background
from tests.builders import random_outcome, running_event
from tests.factories import OrganiserFactory
from tournaments import services
from tournaments.models import Event, RoundClock, Table
from tournaments.selectors import table_positions
from tournaments.services.clock import (
    clock_change,
    clock_follow,
    clock_read,
    follow_results,
    room_position,
)
from tournaments.table_scope import TableScope

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


# ------------------------------------------------------------ the clock follows the positions


def _enter(event: Event, table_number: int, round_number: int, rng: random.Random) -> None:
    """Enter every deal of ``round_number`` at table ``table_number``."""
    table = Table.objects.get(event=event, number=table_number)
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
        services.table_result_enter(table=table, deal=deal, outcome=random_outcome(rng, deal))


def _scope_positions(event: Event) -> dict[int, int | None]:
    return {
        table.number: TableScope.of(table).open_round
        for table in Table.objects.filter(event=event).order_by("number")
    }


@pytest.mark.parametrize("confirmation", [False, True])
def test_each_tables_position_is_its_codes_open_round(confirmation: bool) -> None:
    # 13 players on 4 tables: a phantom, so a table sits out each round.
    event = running_event(
        tables=4, rounds=4, deals_per_round=2, players=13, opponent_confirmation=confirmation
    )
    rng = random.Random(3)
    assert table_positions(event) == _scope_positions(event)
    plays = [play for play in event.schedule.playing()]
    rng.shuffle(plays)
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    for index, play in enumerate(plays[:10]):
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
            result = services.table_result_enter(
                table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal)
            )
            if confirmation and index % 2:
                defender = next(seat for seat in "NESW" if seat != result.taker_seat)
                services.table_result_confirm(result=result, seat=defender)
        assert table_positions(event) == _scope_positions(event)
    event.closed_rounds = [1]
    event.save(update_fields=["closed_rounds"])
    assert table_positions(event) == _scope_positions(event)


def test_a_table_ahead_is_at_the_next_position_and_a_finished_one_at_none(event: Event) -> None:
    rng = random.Random(1)
    assert table_positions(event) == {1: 1, 2: 1, 3: 1}
    _enter(event, 1, 1, rng)
    assert table_positions(event) == {1: 2, 2: 1, 3: 1}
    for round_number in (2, 3):
        _enter(event, 1, round_number, rng)
    assert table_positions(event) == {1: None, 2: 1, 3: 1}
    assert room_position(table_positions(event)) == 1


def _director(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def test_the_control_room_offers_the_next_position_once_one_table_has_finished(
    event: Event,
) -> None:
    director = _director(event)
    page = director.get(url("organiser:control", event.pk)).content.decode()
    assert 'id="clock-start"' in page and 'name="start" value="1"' in page
    assert 'id="clock-next"' not in page
    clock_change(event=event, action="start", minutes=20, round_number=1)
    page = director.get(url("organiser:control", event.pk)).content.decode()
    assert 'id="clock-next"' not in page and 'id="clock-start"' not in page
    assert "Position 1: tables 1, 2, 3" in page
    _enter(event, 2, 1, random.Random(2))
    page = director.get(url("organiser:control", event.pk)).content.decode()
    assert re.search(r'name="start" value="2"[^>]*id="clock-next">Start position 2<', page)
    assert "Position 1: tables 1, 3" in page and "Position 2: table 2" in page
    with translation.override("fr"):
        french_url = reverse("organiser:control", args=[event.pk])
    french = director.get(french_url).content.decode()
    assert "Démarrer la position 2" in french and "Position 2 : table 2" in french
    # The button starts position 2.
    started = director.post(
        url("organiser:clock_action", event.pk), {"start": "2", "minutes": "20", "round": "1"}
    )
    assert started.status_code == 302 and started["Location"].endswith("?round=1#clock")
    assert clock_read(event).round_number == 2 and clock_read(event).state == "running"


def test_the_board_refresh_sends_the_clocks_live_part_out_of_band(event: Event) -> None:
    director = _director(event)
    fragment = director.get(url("organiser:control", event.pk), headers={"HX-Request": "true"})
    content = fragment.content.decode()
    assert 'id="clock-live" data-hx-swap-oob="true"' in content
    assert 'id="clock-start"' in content
    whole = director.get(url("organiser:control", event.pk)).content.decode()
    assert whole.count('id="clock-live"') == 1 and "data-hx-swap-oob" not in whole


def test_a_start_names_a_position_of_the_event(event: Event) -> None:
    director = _director(event)
    action = url("organiser:clock_action", event.pk)
    for start in ("4", "0", "99999"):
        refused = director.post(action, {"start": start, "minutes": "20"})
        assert refused.status_code == 400, start
    assert clock_read(event).version == 0
    with pytest.raises(DomainError) as refused_start:
        clock_change(event=event, action="start", minutes=20)
    assert refused_start.value.code == "invalid"


def test_the_director_chooses_auto_advance_in_the_clocks_form(event: Event) -> None:
    director = _director(event)
    action = url("organiser:clock_action", event.pk)
    form = {"action": "set", "minutes": "25", "auto_field": "1", "auto": "1"}
    assert director.post(action, form).status_code == 302
    assert clock_read(event).auto_advance
    page = director.get(url("organiser:control", event.pk)).content.decode()
    assert re.search(r'id="clock-auto" checked', page)
    # Pausing (another form, without the box) leaves it; the form unticked turns it off.
    director.post(action, {"start": "1", "minutes": "25"})
    director.post(action, {"action": "pause"})
    assert clock_read(event).auto_advance
    director.post(action, {"action": "set", "minutes": "25", "auto_field": "1"})
    assert not clock_read(event).auto_advance


def _finish_round(event: Event, round_number: int, tables: list[int], seed: int = 5) -> None:
    rng = random.Random(seed)
    for table in tables:
        _enter(event, table, round_number, rng)


def test_auto_advance_starts_the_next_position_when_the_last_table_finishes(
    event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    clock_change(event=event, action="set", minutes=20, auto_advance=True)
    clock_change(event=event, action="start", round_number=1)
    # Ten minutes into position 1.
    RoundClock.objects.filter(event=event).update(ends_at=timezone.now() + dt.timedelta(minutes=10))
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 1, [1, 3])
    assert clock_read(event).round_number == 1 and clock_read(event).version == 2
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 1, [2])
    after = clock_read(event)
    assert after.state == "running" and after.round_number == 2 and after.version == 3
    assert 19 * 60_000 < (after.left_ms or 0) <= 20 * 60_000  # the full time, from now
    # Table 1 finishes position 2 too: nothing changes until every table has.
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 2, [1])
    assert clock_read(event).round_number == 2 and clock_read(event).version == 3


def test_without_auto_advance_the_clock_stays_at_its_position(
    event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    clock_change(event=event, action="start", minutes=20, round_number=1)
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 1, [1, 2, 3])
    assert clock_read(event).round_number == 1 and clock_read(event).version == 1


def test_auto_advance_starts_a_paused_clock_and_stops_after_the_last_position(
    event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    clock_change(event=event, action="start", minutes=20, round_number=2, auto_advance=True)
    clock_change(event=event, action="pause")
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 1, [1, 2, 3])
    assert clock_read(event).round_number == 2  # the director started position 2 already
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 2, [1, 2, 3])
    moved = clock_read(event)
    assert moved.state == "running" and moved.round_number == 3 and moved.last
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 3, [1, 2, 3])
    assert clock_read(event).state == "idle"  # every table has finished every position


def test_a_clock_stopped_or_never_set_does_not_follow(
    event: Event, django_capture_on_commit_callbacks: Any, django_assert_num_queries: Any
) -> None:
    clock_change(event=event, action="set", minutes=20, auto_advance=True)
    with django_assert_num_queries(1):  # what a save's commit costs when no clock follows
        follow_results(Event, event_id=event.pk, results_version=1)
    with django_capture_on_commit_callbacks(execute=True):
        _finish_round(event, 1, [1, 2, 3])
    assert clock_read(event).state == "idle" and clock_read(event).version == 1


def test_following_twice_advances_once(event: Event) -> None:
    clock_change(event=event, action="start", minutes=20, round_number=1, auto_advance=True)
    _finish_round(event, 1, [1, 2, 3])
    assert clock_follow(event.pk) is True
    assert clock_follow(event.pk) is False
    assert clock_read(event).round_number == 2 and clock_read(event).version == 2


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent sessions need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_followers_racing_from_two_connections_advance_once() -> None:
    event = running_event(tables=3, rounds=3, deals_per_round=2)
    _finish_round(event, 1, [1, 2, 3])  # committed: its commits follow no clock yet
    clock_change(event=event, action="start", minutes=20, round_number=1, auto_advance=True)
    barrier = threading.Barrier(4)
    changed: list[bool] = []

    def follow() -> None:
        try:
            barrier.wait(timeout=10)
            changed.append(clock_follow(event.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=follow) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(changed) == [False, False, False, True]
    assert clock_read(event).round_number == 2 and clock_read(event).version == 2


def test_the_phone_gets_its_tables_position(event: Event) -> None:
    clock_change(event=event, action="start", minutes=20, round_number=1)
    _enter(event, 1, 1, random.Random(4))
    for table in Table.objects.filter(event=event):
        data = Client().get(url("table:clock", table.code)).json()
        assert data["round"] == 1 and data["table_round"] == (2 if table.number == 1 else 1)
    projector = Client().get(url("clock:event", event.pk)).json()
    assert "table_round" not in projector and projector["last"] is False


def test_the_finish_stops_the_clock_and_it_disappears(event: Event) -> None:
    clock_change(event=event, action="start", minutes=20, round_number=1, auto_advance=True)
    services.event_finish(event=event, confirm=True)
    stored = RoundClock.objects.get(event=event)
    assert stored.state == "idle" and stored.round_number is None and stored.minutes == 20
    event.refresh_from_db()
    table = Table.objects.filter(event=event).first()
    assert table is not None
    for address in (url("clock:event", event.pk), url("table:clock", table.code)):
        data = Client().get(address).json()
        assert data["state"] == "idle" and data["over"] is True
    assert b"round-clock" not in Client().get(url("table:entry", table.code)).content
    projector = Client().get(url("public:ranking_projector", event.pk))
    assert projector.status_code == 200 and b"round-clock" not in projector.content
    control = _director(event).get(url("organiser:control", event.pk)).content
    assert b'id="clock"' not in control and b"round-clock" not in control


def test_a_finished_events_clock_reads_idle_whatever_is_stored(event: Event) -> None:
    clock_change(event=event, action="start", minutes=20, round_number=1)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    assert clock_read(event).state == "idle" and clock_read(event).over
    assert clock_follow(event.pk) is False


def test_on_a_served_instance_the_follow_goes_to_the_runner(
    event: Event, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several serving processes: a save on any of them hands the follow to the one runner
    (``runner.background.forward``, by reference); a section's results are announced with its
    simultaneous's id, and its clock is followed all the same."""
    settings.DUPLITAROT_BACKGROUND = "thread"
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(background, "forward", lambda ref, args, delay: sent.append((ref, args)))
    follow_results(Event, event_id=event.pk, results_version=1)
    assert sent == []  # no clock follows the positions
    clock_change(event=event, action="start", minutes=20, round_number=1, auto_advance=True)
    follow_results(Event, event_id=event.pk, results_version=2)
    assert sent == [("tournaments.services.clock:clock_follow", (event.pk,))]
    assert background.resolve(sent[0][0]) is clock_follow
    simultaneous = running_event(tables=3, status=Event.Status.DRAFT)
    Event.objects.filter(pk=event.pk).update(simultaneous=simultaneous)
    follow_results(Event, event_id=simultaneous.pk, results_version=3)
    assert sent[-1] == ("tournaments.services.clock:clock_follow", (event.pk,))

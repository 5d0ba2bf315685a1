"""Retry-safe result entry: the same outcome sent again is a replay (success, nothing written),
another outcome a conflict (409 with the stored result). Services, API, table phone page; the
concurrent cases (50 threads) run on PostgreSQL only."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections
from django.test import Client
from rest_framework.test import APIClient

from clubs.errors import DomainError
from tests.builders import GARDE_46, first_play, running_event
from tournaments.errors import ResultConflict, ResultReplay
from tournaments.models import Event, ResultChange, TableResult
from tournaments.services import (
    table_result_assign_artificial,
    table_result_director_correct,
    table_result_enter,
)

pytestmark = pytest.mark.django_db

POIGNEES = [{"side": "attack", "size": "simple"}, {"side": "defence", "size": "simple"}]

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent sessions need PostgreSQL"
)


@pytest.fixture
def event() -> Event:
    event = running_event(tables=5, rounds=2)
    # Outcomes written by hand (poignées): the étuis' cards are left unknown, so they are not
    # checked against them (that is test_hand_checks_entry.py's subject).
    event.deals.update(cards="")
    return event


def state(event: Event) -> tuple[int, int, int]:
    event.refresh_from_db()
    return event.results_version, TableResult.objects.count(), ResultChange.objects.count()


# ------------------------------------------------------------------------------ service


def test_same_outcome_again_is_a_replay_writing_nothing(event):
    table, deal, _ = first_play(event)
    stored = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    before = state(event)
    with pytest.raises(ResultReplay) as caught:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert caught.value.result.pk == stored.pk
    assert caught.value.code == "result_replay"
    assert isinstance(caught.value, ResultConflict)  # callers not telling them apart refuse
    assert state(event) == before


def test_replay_compares_the_outcome_as_stored(event):
    """The étui's taker seat named or not, poignées in another order: the same outcome."""
    table, deal, _ = first_play(event)
    outcome = {**GARDE_46, "poignees": POIGNEES}
    table_result_enter(table=table, deal=deal, outcome=outcome)
    resent = {**GARDE_46, "taker_seat": deal.taker_seat, "poignees": POIGNEES[::-1]}
    with pytest.raises(ResultReplay):
        table_result_enter(table=table, deal=deal, outcome=resent)


@pytest.mark.parametrize(
    "change",
    [
        {"points": 47},
        {"oudlers": 3, "points": 41},
        {"contract": "garde_sans"},
        {"petit_au_bout": "attack"},
        {"poignees": POIGNEES[:1]},
        {"chelem": {"announced": True, "made_by": None}},
        {"points": 95},  # invalid: no resend of the stored one either
    ],
)
def test_another_outcome_is_a_conflict_not_a_replay(event, change):
    table, deal, _ = first_play(event)
    stored = table_result_enter(table=table, deal=deal, outcome={**GARDE_46, "poignees": POIGNEES})
    before = state(event)
    with pytest.raises(ResultConflict) as caught:
        table_result_enter(table=table, deal=deal, outcome={**GARDE_46, **change})
    assert type(caught.value) is ResultConflict
    assert caught.value.code == "result_exists"
    assert caught.value.result.pk == stored.pk
    assert state(event) == before


def test_the_table_outcome_after_a_director_correction_is_a_conflict(event):
    table, deal, _ = first_play(event)
    stored = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    table_result_director_correct(
        result=stored, outcome={**GARDE_46, "points": 36}, reason="miscount", actor=None
    )
    with pytest.raises(ResultConflict) as caught:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert type(caught.value) is ResultConflict
    with pytest.raises(ResultReplay):  # the corrected outcome is the stored one
        table_result_enter(table=table, deal=deal, outcome={**GARDE_46, "points": 36})


def test_an_artificial_score_is_never_replayed(event):
    table, deal, _ = first_play(event)
    table_result_assign_artificial(
        event=event, table=table, deal=deal, reason="fouled", actor=None,
        percentages={"N": 60, "E": 40, "S": 60, "W": 40},
    )  # fmt: skip
    with pytest.raises(ResultConflict) as caught:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert type(caught.value) is ResultConflict


# ------------------------------------------------------------------------------ API


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_api_resend_answers_200_with_the_stored_result_and_the_replay_header(api, event):
    table, deal, _ = first_play(event)
    url = f"/api/v1/tables/{table.code}/results/"
    payload = {"deal": deal.number, "outcome": GARDE_46}
    first = api.post(url, payload, format="json")
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first
    before = state(event)
    again = api.post(url, payload, format="json")
    assert again.status_code == 200, again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == {**first.json(), "corrected": False}  # a replay says corrected
    assert state(event) == before
    other = api.post(url, {**payload, "outcome": {**GARDE_46, "points": 50}}, format="json")
    assert other.status_code == 409
    assert "Idempotent-Replayed" not in other
    assert other.json()["code"] == "result_exists"
    assert other.json()["result"] == first.json()
    assert state(event) == before


def test_api_fifty_identical_resends_leave_one_result_and_fifty_successes(api, event):
    table, deal, _ = first_play(event)
    url = f"/api/v1/tables/{table.code}/results/"
    payload = {"deal": deal.number, "outcome": GARDE_46}
    codes = [api.post(url, payload, format="json").status_code for _ in range(50)]
    assert codes == [201] + [200] * 49
    assert state(event) == (1, 1, 1)


def test_api_organiser_resend_is_a_replay_too(api, event):
    from tests.factories import OrganiserFactory

    table, deal, _ = first_play(event)
    api.force_authenticate(OrganiserFactory(clubs=[event.club]))
    url = f"/api/v1/events/{event.pk}/results/"
    payload = {"deal": deal.number, "table": table.number, "outcome": GARDE_46}
    assert api.post(url, payload, format="json").status_code == 201
    again = api.post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again["Idempotency-Key"] == "k-1"


def test_api_idempotency_key_is_echoed_and_checked(api, event):
    table, deal, _ = first_play(event)
    url = f"/api/v1/tables/{table.code}/results/"
    payload = {"deal": deal.number, "outcome": GARDE_46}
    for bad in ["x" * 256, "caf\u00e9"]:
        refused = api.post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY=bad)
        assert refused.status_code == 400
        assert refused.json()["code"] == "invalid"
        assert "Idempotency-Key" in refused.json()["detail"]
    assert state(event)[1] == 0
    created = api.post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY="a" * 255)
    assert created.status_code == 201
    assert created["Idempotency-Key"] == "a" * 255
    # Not stored: the outcome decides, whatever the key.
    replay = api.post(url, payload, format="json", HTTP_IDEMPOTENCY_KEY="another")
    assert (replay.status_code, replay["Idempotency-Key"]) == (200, "another")
    conflict = api.post(
        url, {**payload, "outcome": {**GARDE_46, "points": 50}}, format="json",
        HTTP_IDEMPOTENCY_KEY="a" * 255,
    )  # fmt: skip
    assert (conflict.status_code, conflict["Idempotency-Key"]) == (409, "a" * 255)


# ------------------------------------------------------------------------------ phone page


def form_data(deal, **values) -> dict[str, str]:
    base = {"contract": "garde", "oudlers": "2", "points": "46", "petit_au_bout": ""}
    base.update(values)
    return {f"d{deal.number}-{key}": value for key, value in base.items()}


def test_phone_page_says_identical_resend_or_conflict(event):
    table, deal, _ = first_play(event)
    url = f"/en/table/{table.code}/deal/{deal.number}/"
    assert Client().post(url, form_data(deal)).status_code == 302
    before = state(event)
    resend = Client().post(url, form_data(deal), follow=True)
    assert resend.status_code == 200
    assert resend.redirect_chain[0][1] == 302
    html = resend.content.decode()
    assert f"Deal {deal.number} received: the same entry was already saved." in html
    assert state(event) == before
    conflict = Client().post(url, form_data(deal, points="60"))
    assert conflict.status_code == 409
    html = conflict.content.decode()
    assert "The stored result differs from your entry." in html
    assert "the same entry was already saved" not in html
    assert state(event) == before


# ------------------------------------------------------------------------------ PostgreSQL


def run_in_threads(works: list[Callable[[], str]]) -> list[str]:
    """Run each work on its own thread and database connection, all released at once."""
    outcomes: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(len(works))

    def run(work: Callable[[], str]) -> None:
        try:
            start.wait(timeout=30)
            answer = work()
        except DomainError as error:
            answer = error.code
        except Exception as error:  # reported in the outcomes, asserted below
            answer = f"error: {error!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes.append(answer)

    threads = [threading.Thread(target=run, args=(work,)) for work in works]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


@postgres_only
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_postgres_fifty_identical_resends_at_once_leave_one_result_and_fifty_successes():
    event = running_event(tables=5, rounds=2)
    table, deal, _ = first_play(event)

    def submit() -> str:
        try:
            table_result_enter(table=table, deal=deal, outcome=GARDE_46)
            return "created"
        except ResultReplay:
            return "replay"

    outcomes = run_in_threads([submit] * 50)
    assert sorted(outcomes) == ["created"] + ["replay"] * 49
    assert TableResult.objects.count() == 1
    assert ResultChange.objects.count() == 1
    assert Event.objects.get(pk=event.pk).results_version == 1


@postgres_only
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_postgres_fifty_different_submissions_at_once_leave_one_result_and_49_conflicts():
    event = running_event(tables=5, rounds=2)
    table, deal, _ = first_play(event)

    def submit(points: int) -> Callable[[], str]:
        def work() -> str:
            outcome = {**GARDE_46, "points": points}
            return str(table_result_enter(table=table, deal=deal, outcome=outcome).kind)

        return work

    outcomes = run_in_threads([submit(points) for points in range(30, 80)])
    assert sorted(outcomes) == ["played"] + ["result_exists"] * 49
    assert TableResult.objects.count() == 1
    assert ResultChange.objects.count() == 1
    assert Event.objects.get(pk=event.pk).results_version == 1


@postgres_only
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_postgres_fifty_identical_api_resends_at_once_answer_one_201_and_49_200():
    event = running_event(tables=5, rounds=2)
    table, deal, _ = first_play(event)
    url = f"/api/v1/tables/{table.code}/results/"
    payload = {"deal": deal.number, "outcome": GARDE_46}

    def post() -> str:
        return str(APIClient().post(url, payload, format="json").status_code)

    outcomes = run_in_threads([post] * 50)
    assert sorted(outcomes) == ["200"] * 49 + ["201"]
    assert TableResult.objects.count() == 1
    assert Event.objects.get(pk=event.pk).results_version == 1

"""A table code is scoped to its table's open round (``tournaments.table_scope``).

Writes: only the deals of the open round (403 ``round_not_open`` otherwise, nothing stored),
an identical replay of an earlier round stays 200. Corrections: the table's own entry, until
the director closes its round (then 403 ``round_closed``: "ask the director"); never a later
round; a closed round is skipped by the open round. Reads: the open round's own results, an
earlier round's only for the deals every table has played, a later round's none; the phone
page and the API alike. Unknown codes are throttled per client address; valid codes never.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.test import APIClient

from clubs.phone_codes import UnknownCodeThrottle
from tests.builders import GARDE_46, running_event
from tests.factories import OrganiserFactory
from tournaments import services
from tournaments.models import Deal, Event, ResultChange, Table, TableResult
from tournaments.services import events as event_services
from tournaments.table_scope import TableScope

pytestmark = pytest.mark.django_db

GARDE_50 = {**GARDE_46, "points": 50}


@pytest.fixture
def event() -> Event:
    return running_event(tables=5, rounds=4, deals_per_round=2)


@pytest.fixture
def api() -> APIClient:
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")  # the API speaks French by default


def table(event: Event, number: int = 1) -> Table:
    """The table as its code reads it: with its event as stored now."""
    return Table.objects.select_related("event").get(event_id=event.pk, number=number)


def deals_at(event: Event, table_number: int, round_number: int) -> list[Deal]:
    """The deals ``table_number`` plays in ``round_number``."""
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    return list(event.deals.filter(deal_set=play.deal_set).order_by("number"))


def enter(event: Event, table_number: int, deals: list[Deal], outcome=GARDE_46) -> None:
    """Store results as the director would (no scope: the services themselves)."""
    for deal in deals:
        services.table_result_enter(table=table(event, table_number), deal=deal, outcome=outcome)


def everywhere_else(event: Event, deal: Deal, but: int) -> None:
    """Enter ``deal`` at every table scheduled on it but table ``but``."""
    for play in event.schedule.plays():
        if play.deal_set == deal.deal_set and play.plays and play.table != but:
            enter(event, play.table, [deal])


def api_post(api: APIClient, code: str, deal: Deal, outcome=GARDE_46) -> Any:
    return api.post(
        f"/api/v1/tables/{code}/results/", {"deal": deal.number, "outcome": outcome}, format="json"
    )


def form_data(deal: Deal, points: str = "46", round_number: int | None = None) -> dict[str, str]:
    data = {
        f"d{deal.number}-contract": "garde",
        f"d{deal.number}-oudlers": "2",
        f"d{deal.number}-points": points,
        f"d{deal.number}-petit_au_bout": "",
    }
    if round_number is not None:
        data["round"] = str(round_number)
    return data


# ------------------------------------------------------------------------------ open round


def open_round(event: Event) -> int | None:
    """Table 1's open round, the same from the full scope and from a save's outline."""
    full = TableScope.of(table(event))
    outlined = TableScope.for_save(table(event))
    assert outlined.open_round == full.open_round
    assert [(p.round_number, p.deal_set, p.sits_out) for p in outlined.plays] == [
        (p.round_number, p.deal_set, p.sits_out) for p in full.plays
    ]
    stored = {pk for play in full.plays for pk in play.results}
    assert outlined.stored_deals == stored
    return full.open_round


def test_the_open_round_is_the_first_with_a_result_missing(event):
    assert open_round(event) == 1
    first = deals_at(event, 1, 1)
    enter(event, 1, first[:1])
    assert open_round(event) == 1
    enter(event, 1, first[1:])
    assert open_round(event) == 2
    enter(event, 1, deals_at(event, 1, 3))  # a director entered round 3 ahead: round 2 stays open
    assert open_round(event) == 2
    enter(event, 1, deals_at(event, 1, 2) + deals_at(event, 1, 4))
    done = TableScope.of(table(event))
    assert done.open_round is None
    assert done.current is not None and done.current.round_number == 4


def test_a_result_awaiting_confirmation_keeps_its_round_open(client: Client):
    event = running_event(tables=5, rounds=3, opponent_confirmation=True)
    code = table(event).code
    first, second = deals_at(event, 1, 1)
    for deal in (first, second):
        saved = client.post(f"/en/table/{code}/deal/{deal.number}/", form_data(deal))
        assert saved.status_code == 302
    assert TableResult.objects.filter(confirmed=False).count() == 2
    assert open_round(event) == 1
    ahead = deals_at(event, 1, 2)[0]
    refused = client.post(f"/en/table/{code}/deal/{ahead.number}/", form_data(ahead))
    assert refused.status_code == 403
    page = client.get(f"/en/table/{code}/").content.decode()
    assert f"/table/{code}/deal/{second.number}/confirm/" in page
    for deal in (first, second):
        defender = next(s for s in "NESW" if s != deal.taker_seat)
        confirm = f"/en/table/{code}/deal/{deal.number}/confirm/"
        assert client.post(confirm, {"seat": defender}).status_code == 302
    assert open_round(event) == 2
    assert client.post(f"/en/table/{code}/deal/{ahead.number}/", form_data(ahead)).status_code == (
        302
    )


# ---------------------------------------------------------------------------------- writes


def test_api_future_round_write_is_403_round_not_open_and_stores_nothing(api, event):
    future = deals_at(event, 1, 3)[0]
    response = api_post(api, table(event).code, future)
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "round_not_open"
    assert "round 3" in body["detail"] and "round 1" in body["detail"]
    assert "result" not in body
    assert not TableResult.objects.exists()
    event.refresh_from_db()
    assert event.results_version == 0


def test_api_open_round_write_is_201(api, event):
    deal = deals_at(event, 1, 1)[0]
    response = api_post(api, table(event).code, deal)
    assert response.status_code == 201, response.json()
    assert response.json()["round"] == 1
    assert TableResult.objects.get().deal == deal


def test_api_replay_of_an_earlier_round_is_200_another_outcome_409(api, event):
    code = table(event).code
    first = deals_at(event, 1, 1)
    stored = [api_post(api, code, deal) for deal in first]
    assert [r.status_code for r in stored] == [201, 201]
    assert open_round(event) == 2
    replay = api_post(api, code, first[0])
    assert replay.status_code == 200
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json()["id"] == stored[0].json()["id"]
    version = Event.objects.get(pk=event.pk).results_version
    changed = api_post(api, code, first[0], GARDE_50)
    assert changed.status_code == 409  # a conflict, as in the open round
    assert changed.json()["code"] == "result_exists"
    assert changed.json()["result"] is None  # the stored outcome of a deal in play is not shown
    assert Event.objects.get(pk=event.pk).results_version == version
    everywhere_else(event, first[0], but=1)  # played at every table: public, shown
    shown = api_post(api, code, first[0], GARDE_50)
    assert shown.status_code == 409 and shown.json()["result"]["id"] == stored[0].json()["id"]
    assert TableResult.objects.get(table=table(event), deal=first[0]).points_half == 92


def test_api_a_table_done_writes_nothing_new_but_replays(api, event):
    code = table(event).code
    rounds = event.schedule.round_numbers
    for number in rounds:
        enter(event, 1, deals_at(event, 1, number))
    last = deals_at(event, 1, rounds[-1])[0]
    assert api_post(api, code, last).status_code == 200
    refused = api_post(api, code, last, GARDE_50)
    assert refused.status_code == 409 and refused.json()["code"] == "result_exists"
    assert TableResult.objects.get(table=table(event), deal=last).points_half == 92


def test_phone_future_round_save_is_403_with_the_reason_and_stores_nothing(client: Client, event):
    code = table(event).code
    future = deals_at(event, 1, 3)[0]
    response = client.post(
        f"/en/table/{code}/deal/{future.number}/", form_data(future, round_number=3)
    )
    assert response.status_code == 403
    html = response.content.decode()
    assert "this table is in round 1" in html
    assert "Round 1" in html  # the open round is shown, with its forms
    open_deal = deals_at(event, 1, 1)[0]
    assert f'name="d{open_deal.number}-points"' in html
    assert not TableResult.objects.exists()


def test_phone_open_round_save_and_earlier_round_replay(client: Client, event):
    code = table(event).code
    first = deals_at(event, 1, 1)
    for deal in first:
        assert client.post(
            f"/en/table/{code}/deal/{deal.number}/", form_data(deal)
        ).status_code == (302)
    assert TableResult.objects.count() == 2
    again = client.post(f"/en/table/{code}/deal/{first[0].number}/", form_data(first[0]))
    assert again.status_code == 302  # identical: a replay, nothing changed
    page = client.get(again["Location"]).content.decode()
    assert "received: the same entry was already saved" in page
    other = client.post(f"/en/table/{code}/deal/{first[0].number}/", form_data(first[0], "50"))
    assert other.status_code == 409  # a conflict, as in the open round
    text = other.content.decode()
    assert "Correct this entry" in text  # a change is an explicit correction
    assert "stays hidden until every table has played this deal" in text  # other tables play it
    assert TableResult.objects.get(deal=first[0]).points_half == 92


def test_phone_confirmation_outside_the_open_round_is_refused(client: Client):
    event = running_event(tables=5, rounds=3, opponent_confirmation=True)
    later = deals_at(event, 1, 2)[0]
    organiser = OrganiserFactory(clubs=[event.club])
    # A director entered round 2 ahead of the table (confirmed at once): nothing to confirm.
    services.table_result_enter(table=table(event), deal=later, outcome=GARDE_46, actor=organiser)
    defender = next(s for s in "NESW" if s != later.taker_seat)
    response = client.post(
        f"/en/table/{table(event).code}/deal/{later.number}/confirm/", {"seat": defender}
    )
    assert response.status_code == 403
    assert "this table is in round 1" in response.content.decode()


# ----------------------------------------------------------------- corrections, closed rounds


def correct_url(code: str, deal: Deal) -> str:
    return f"/en/table/{code}/deal/{deal.number}/correct/"


def test_a_table_corrects_its_own_entry_until_the_director_closes_the_round(client, event):
    code = table(event).code
    first = deals_at(event, 1, 1)
    for deal in first:
        assert client.post(
            f"/en/table/{code}/deal/{deal.number}/", form_data(deal)
        ).status_code == (302)
    assert open_round(event) == 2
    everywhere_else(event, first[0], but=1)  # public: the form shows the stored outcome
    page = client.get(f"/en/table/{code}/?round=1&correct={first[0].number}").content.decode()
    assert f"/table/{code}/deal/{first[0].number}/correct/" in page
    assert f'name="d{first[0].number}-points" value="46"' in page
    version = Event.objects.get(pk=event.pk).results_version
    corrected = client.post(correct_url(code, first[0]), form_data(first[0], "50"))
    assert corrected.status_code == 302
    result = TableResult.objects.get(deal=first[0], table=table(event))
    assert result.points_half == 100 and result.entered_via == "table"
    assert not result.director_assigned
    change = ResultChange.objects.filter(result=result).order_by("pk").last()
    assert change is not None and change.action == ResultChange.Action.CORRECT
    assert change.actor_label == "table 1" and change.before["outcome"]["points"] == 46
    assert Event.objects.get(pk=event.pk).results_version == version + 1
    # A hidden result (still in play elsewhere) is corrected blind: its outcome is not shown.
    page = client.get(f"/en/table/{code}/?round=1&correct={first[1].number}").content.decode()
    assert f'name="d{first[1].number}-points"' in page
    assert f'name="d{first[1].number}-points" value="46"' not in page
    # The director closes round 1: the table can no longer correct it.
    event_services.round_close(event=event, round_number=1, confirm=True)
    page = client.get(f"/en/table/{code}/?round=1").content.decode()
    assert "This round is closed: ask the director." in page
    assert "Correct this entry" not in page
    refused = client.post(correct_url(code, first[0]), form_data(first[0], "60"))
    assert refused.status_code == 403
    assert "this round is closed, ask the director" in refused.content.decode()
    assert TableResult.objects.get(deal=first[0], table=table(event)).points_half == 100
    # The same outcome again stays a replay (200 on the API), nothing written.
    replay = APIClient(HTTP_ACCEPT_LANGUAGE="en").post(
        f"/api/v1/tables/{code}/results/",
        {"deal": first[0].number, "outcome": GARDE_50},
        format="json",
    )
    assert replay.status_code == 200


def test_a_closed_round_is_written_by_no_table_code_and_skipped_by_the_open_round(
    api, client, event
):
    code = table(event).code
    first = deals_at(event, 1, 1)
    enter(event, 1, first[:1])
    event_services.round_close(event=event, round_number=1, confirm=True)
    scope = TableScope.of(table(event))
    assert scope.open_round == 2  # round 1 is closed with a result missing: the table moves on
    refused = api_post(api, code, first[1])
    assert refused.status_code == 403
    assert refused.json()["code"] == "round_closed"
    assert "ask the director" in refused.json()["detail"]
    page = client.post(f"/en/table/{code}/deal/{first[1].number}/", form_data(first[1]))
    assert page.status_code == 403
    assert "this round is closed, ask the director" in page.content.decode()
    assert not TableResult.objects.filter(deal=first[1]).exists()
    assert api_post(api, code, first[0]).status_code == 200  # an identical replay
    # The director still enters it; reopening the round opens it to the table again.
    event_services.round_reopen(event=event, round_number=1)
    assert open_round(event) == 1
    assert api_post(api, code, first[1]).status_code == 201


def test_a_table_never_corrects_a_later_round_nor_the_directors_result(client, event):
    code = table(event).code
    organiser = OrganiserFactory(clubs=[event.club])
    first = deals_at(event, 1, 1)
    services.table_result_enter(
        table=table(event), deal=first[0], outcome=GARDE_46, actor=organiser, via="organiser"
    )
    page = client.get(f"/en/table/{code}/").content.decode()
    assert "Correct this entry" not in page
    refused = client.post(correct_url(code, first[0]), form_data(first[0], "50"))
    assert refused.status_code == 403
    assert "ask the director to correct it" in refused.content.decode()
    later = deals_at(event, 1, 3)[0]
    services.table_result_enter(table=table(event), deal=later, outcome=GARDE_46)
    ahead = client.post(correct_url(code, later), form_data(later, "50"))
    assert ahead.status_code == 403
    assert "this table is in round 1" in ahead.content.decode()
    assert TableResult.objects.get(deal=later).points_half == 92
    assert TableResult.objects.get(deal=first[0]).points_half == 92


def test_a_second_device_conflict_offers_the_correction(client, event):
    code = table(event).code
    deal = deals_at(event, 1, 1)[0]
    assert client.post(f"/en/table/{code}/deal/{deal.number}/", form_data(deal)).status_code == 302
    conflict = client.post(f"/en/table/{code}/deal/{deal.number}/", form_data(deal, "50"))
    assert conflict.status_code == 409
    assert f"correct={deal.number}" in conflict.content.decode()


# ----------------------------------------------------------------------------------- reads


def visible_deals(api: APIClient, code: str) -> set[int]:
    listed = api.get(f"/api/v1/tables/{code}/results/")
    assert listed.status_code == 200
    plan = api.get(f"/api/v1/tables/{code}/")
    assert plan.status_code == 200
    in_plan = {r["deal"] for rnd in plan.json()["rounds"] for r in rnd["results"]}
    assert {r["deal"] for r in listed.json()} == in_plan
    return in_plan


def test_reads_open_round_own_results_earlier_rounds_only_once_public(api, event, client):
    code = table(event).code
    first = deals_at(event, 1, 1)
    enter(event, 1, first[:1])
    assert visible_deals(api, code) == {first[0].number}  # the open round's own result
    enter(event, 1, first[1:])
    assert api.get(f"/api/v1/tables/{code}/").json()["open_round"] == 2
    # Round 1 is over at this table, its deals still in play elsewhere: hidden.
    assert visible_deals(api, code) == set()
    page = client.get(f"/en/table/{code}/?round=1").content.decode()
    assert "Its outcome is shown once every table has played this deal." in page
    assert "Round recap" not in page
    # Every table has played the first deal: it is public, the second still hidden.
    everywhere_else(event, first[0], but=1)
    assert visible_deals(api, code) == {first[0].number}
    page = client.get(f"/en/table/{code}/?round=1").content.decode()
    assert "Round recap" in page
    assert page.count("Its outcome is shown once every table has played this deal.") == 1


def test_reads_of_a_later_round_show_no_result(api, event, client):
    code = table(event).code
    ahead = deals_at(event, 1, 3)
    enter(event, 1, ahead)  # the director entered round 3 ahead; the table is in round 1
    for deal in ahead:
        everywhere_else(event, deal, but=1)  # even public: a later round shows no result
    assert visible_deals(api, code) == set()
    plan = api.get(f"/api/v1/tables/{code}/").json()
    third = next(r for r in plan["rounds"] if r["round"] == 3)
    assert third["results"] == []
    assert [d["number"] for d in third["deals"]] == [d.number for d in ahead]  # where and what
    assert len(third["seats"]) == 4
    page = client.get(f"/en/table/{code}/?round=3")
    assert page.status_code == 200
    html = page.content.decode()
    assert "This round is not open yet" in html
    assert f'name="d{ahead[0].number}-points"' not in html
    assert "Round recap" not in html


def test_a_finished_event_shows_everything_and_accepts_nothing(api):
    event = running_event(tables=5, rounds=2)
    first = deals_at(event, 1, 1)
    enter(event, 1, first)
    event = services.event_finish(event=Event.objects.get(pk=event.pk))
    code = table(event).code
    assert visible_deals(api, code) == {deal.number for deal in first}
    response = api_post(api, code, deals_at(event, 1, 2)[0])
    assert response.status_code == 400
    assert response.json()["code"] == "event_not_running"


# ------------------------------------------------------------------------------- throttle


@override_settings(TABLE_CODE_FAILURE_RATE="3/min")
def test_unknown_codes_are_throttled_per_address_valid_codes_never(api, client: Client, event):
    for attempt in range(3):
        assert client.get(f"/en/table/nope{attempt}/").status_code == 404
    blocked = client.get("/en/table/nope-again/")
    assert blocked.status_code == 429
    assert 1 <= int(blocked["Retry-After"]) <= 60
    assert "Too many unknown codes" in blocked.content.decode()
    api_blocked = api.get("/api/v1/tables/nope/results/")
    assert api_blocked.status_code == 429
    assert api_blocked.json()["code"] == "throttled"
    assert int(api_blocked["Retry-After"]) >= 1
    posted = api.post(
        "/api/v1/tables/nope/results/", {"deal": 1, "outcome": GARDE_46}, format="json"
    )
    assert posted.status_code == 429
    # The valid code still opens its table, page and API, from the same address.
    code = table(event).code
    assert client.get(f"/en/table/{code}/").status_code == 200
    assert api.get(f"/api/v1/tables/{code}/").status_code == 200
    assert api_post(api, code, deals_at(event, 1, 1)[0]).status_code == 201
    # Another address is not concerned.
    assert Client(REMOTE_ADDR="127.0.0.2").get("/en/table/nope/").status_code == 404


@override_settings(TABLE_CODE_FAILURE_RATE="3/min")
def test_forwarded_for_is_not_trusted_without_proxies(client: Client, event):
    for attempt in range(3):
        client.get(f"/en/table/nope{attempt}/", HTTP_X_FORWARDED_FOR=f"127.0.1.{attempt}")
    assert client.get("/en/table/nope/", HTTP_X_FORWARDED_FOR="127.0.1.9").status_code == 429


class BrokenCache:
    """A cache whose every call fails (a backend without ``IGNORE_EXCEPTIONS``)."""

    def get(self, *args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("cache down")

    set = get


@override_settings(TABLE_CODE_FAILURE_RATE="3/min")
def test_a_cache_outage_locks_nobody_out_and_is_no_server_error(monkeypatch, client, api, event):
    monkeypatch.setattr(UnknownCodeThrottle, "cache", BrokenCache())
    for attempt in range(6):
        assert client.get(f"/en/table/nope{attempt}/").status_code == 404
        assert api.get(f"/api/v1/tables/nope{attempt}/").status_code == 404
    assert client.get(f"/en/table/{table(event).code}/").status_code == 200


@override_settings(
    TABLE_CODE_FAILURE_RATE="3/min",
    CACHES={
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            # Nothing listens on port 1 of the loopback: every cache call fails at once.
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5},
        }
    },
)
def test_redis_down_with_ignore_exceptions_blocks_nobody(client, event):
    assert UnknownCodeThrottle.cache.get("probe", "miss") == "miss"  # the outage is real
    for attempt in range(6):
        assert client.get(f"/en/table/nope{attempt}/").status_code == 404
    assert client.get(f"/en/table/{table(event).code}/").status_code == 200


def test_the_throttle_counts_only_failures(client, event):
    code = table(event).code
    for _ in range(30):
        assert client.get(f"/en/table/{code}/").status_code == 200
    assert cache.get("throttle_table_code_failures_127.0.0.1") is None
    assert client.get("/en/table/nope/").status_code == 404
    assert len(cache.get("throttle_table_code_failures_127.0.0.1")) == 1


def test_a_tables_correction_of_a_deal_not_entered_enters_it(client, event):
    """As in every kind: the phone's first save never arrived, so its correction is the entry
    (the same checks as an entry: the open round, the table's own deals)."""
    code = table(event).code
    deal = deals_at(event, 1, 1)[0]
    response = client.post(correct_url(code, deal), form_data(deal, "50"))
    assert response.status_code == 302
    result = TableResult.objects.get(deal=deal, table=table(event))
    assert result.points_half == 100 and result.entered_via == "table"
    change = ResultChange.objects.get(result=result)
    assert (change.action, change.actor_label) == (ResultChange.Action.CREATE, "table 1")
    later = deals_at(event, 1, 3)[0]
    refused = client.post(correct_url(code, later), form_data(later, "50"))
    assert refused.status_code == 403
    assert not TableResult.objects.filter(deal=later).exists()

"""Nothing a phone sends breaks the director's evening (issue 30, items 1 and 2), for the three
kinds of phone (a duplicate table, a cup room, a free-deal table):

- ``X-Entry-Kept-Since`` comes from the phone's clock: an extreme instant (year 9999, the
  range's edges with a -14:00 or +01:00 offset) never refuses a save, never breaks a page; it
  is stored clamped into the competition's window with the phone's text beside it, and a
  database that already holds an out-of-range arrival opens its pages and marks it handled;
- a late arrival keeps the kind's outcome fields only, each capped, at most one unhandled per
  holder and deal (the latest replacing it, the database refusing a second), the director's
  list 50 to a page;
- refused posts from one code are answered 429 with ``Retry-After`` past a rate no phone
  reaches (40 kept deals flushed at once are not), stored entries never.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from clubs import late_arrivals
from clubs.phone_codes import DEFAULT_REFUSAL_RATE, RefusalThrottle
from freedeal.models import FreeDealLateArrival, FreeDealResult
from teammatch.models import RoomLateArrival, RoomResult
from tests.builders import GARDE_46, running_event
from tests.factories import OrganiserFactory, RunningFreeDealFactory
from tests.teammatch.worlds import feasible, running_match
from tournaments import services as table_services
from tournaments.models import TableLateArrival, TableResult

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
FAR_FUTURE = "9999-12-31T23:59:59Z"
EDGES = ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+01:00"]
RATE = int(DEFAULT_REFUSAL_RATE.split("/")[0])
FLOOD = 10_000


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()


@dataclass
class Kind:
    """A kind of phone, running, with what the tests post and read."""

    name: str
    save_url: Callable[[int], str]  # deal -> the phone's save address
    valid: Callable[[int], dict[str, Any]]  # deal -> a valid entry's fields
    invalid: Callable[[int], dict[str, Any]]  # deal -> an entry refused 422 (points 95)
    results: Callable[[], int]  # results stored
    late: Any  # the kind's late arrival model
    holder: Any
    page: str  # the director's page listing the late arrivals
    handled_url: Callable[[int], str]
    organiser: Any
    deals: list[int]  # deals the phone may enter now

    def director(self) -> Client:
        client = Client()
        client.force_login(self.organiser)
        return client


def duplicate() -> Kind:
    event = running_event(tables=3, rounds=2, deals_per_round=4)
    table = event.tables.get(number=1)
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    deals = list(
        event.deals.filter(deal_set=play.deal_set)
        .order_by("number")
        .values_list("number", flat=True)
    )

    def fields(number: int, **values: str) -> dict[str, Any]:
        base = {"contract": "garde", "oudlers": "2", "points": "46", **values}
        return {"round": "1", **{f"d{number}-{k}": v for k, v in base.items()}}

    return Kind(
        name="duplicate",
        save_url=lambda n: reverse("table:deal_save", args=[table.code, n]),
        valid=fields,
        invalid=lambda n: fields(n, points="95"),
        results=lambda: TableResult.objects.filter(table=table).count(),
        late=TableLateArrival,
        holder=table,
        page=reverse("organiser:control", args=[event.pk]),
        handled_url=lambda pk: reverse("organiser:late_arrival_handled", args=[event.pk, pk]),
        organiser=OrganiserFactory(clubs=[event.club]),
        deals=deals,
    )


def cup() -> Kind:
    running = running_match(deals_per_quarter=3)
    room = running.rooms["open"]

    def fields(number: int, points: int | None = None) -> dict[str, Any]:
        outcome = feasible(running.deal(number), "garde", 50)
        if points is not None:
            outcome = {**outcome, "points": points}
        from tests.teammatch.worlds import form_data

        return form_data(number, outcome)

    return Kind(
        name="cup",
        save_url=lambda n: reverse("teammatch:room_deal", args=[room.code, n]),
        valid=fields,
        invalid=lambda n: fields(n, points=95),
        results=lambda: RoomResult.objects.filter(match=running.match, room="open").count(),
        late=RoomLateArrival,
        holder=room,
        page=reverse("teammatch:organiser_cup", args=[running.cup.pk]),
        handled_url=lambda pk: reverse(
            "teammatch:organiser_late_handled", args=[running.cup.pk, pk]
        ),
        organiser=running.organiser,
        deals=[1, 2, 3],
    )


def free_deal() -> Kind:
    tournament = RunningFreeDealFactory(parties=3)
    table = tournament.tables.get()
    seated = tournament.table_players(1, 1)

    def fields(number: int, points: str = "46") -> dict[str, Any]:
        values = {"contract": "garde", "taker": seated[0], "oudlers": "2", "points": points}
        return {"party": 1, **{f"d{number}-{k}": v for k, v in values.items()}}

    return Kind(
        name="free-deal",
        save_url=lambda n: reverse("freedeal:table_deal", args=[table.code, n]),
        valid=fields,
        invalid=lambda n: fields(n, points="95"),
        results=lambda: FreeDealResult.objects.filter(table=table).count(),
        late=FreeDealLateArrival,
        holder=table,
        page=reverse("freedeal:organiser_detail", args=[tournament.pk]),
        handled_url=lambda pk: reverse("freedeal:organiser_late_handled", args=[tournament.pk, pk]),
        organiser=OrganiserFactory(clubs=[tournament.club]),
        deals=list(range(1, tournament.deals_per_party + 1)),
    )


KINDS = {"duplicate": duplicate, "cup": cup, "free-deal": free_deal}


@pytest.fixture(params=list(KINDS))
def kind(request: Any) -> Kind:
    return KINDS[request.param]()


def post(kind: Kind, deal: int, data: dict[str, Any], kept: str | None, **extra: Any) -> Any:
    headers = {**JSON, **extra}
    if kept is not None:
        headers["HTTP_X_ENTRY_KEPT_SINCE"] = kept
    return Client().post(kind.save_url(deal), data, **headers)


# ------------------------------------------------------------------- the kept-since instant


def test_a_far_future_kept_since_leaves_the_directors_pages_open(kind: Kind) -> None:
    deal = kind.deals[0]
    refused = post(kind, deal, kind.invalid(deal), FAR_FUTURE)
    assert refused.status_code == 422 and refused.json()["status"] == "invalid"
    arrival = kind.late.objects.get()
    assert arrival.kept_since_sent == FAR_FUTURE
    assert arrival.kept_since <= timezone.now() + late_arrivals.AFTER_NOW
    director = kind.director()
    page = director.get(kind.page)
    assert page.status_code == 200
    html = page.content.decode()
    assert f'id="late-{arrival.pk}"' in html and FAR_FUTURE in html
    assert director.post(kind.handled_url(arrival.pk)).status_code == 302
    arrival.refresh_from_db()
    assert arrival.handled and director.get(kind.page).status_code == 200


@pytest.mark.parametrize("raw", EDGES)
def test_the_ranges_edges_never_refuse_a_save(kind: Kind, raw: str) -> None:
    first, second = kind.deals[:2]
    stored = post(kind, first, kind.valid(first), raw, HTTP_IDEMPOTENCY_KEY="edge-1")
    assert stored.status_code == 201, stored.content
    assert kind.results() == 1 and not kind.late.objects.exists()  # as without the header
    refused = post(kind, second, kind.invalid(second), raw, HTTP_IDEMPOTENCY_KEY="edge-2")
    assert refused.status_code == 422
    arrival = kind.late.objects.get()
    assert arrival.kept_since_sent == raw
    assert kind.director().get(kind.page).status_code == 200


def test_a_database_holding_an_out_of_range_arrival_opens_and_marks_it_handled(
    kind: Kind,
) -> None:
    far = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.UTC)
    early = datetime.datetime(1, 1, 1, 0, 0, 0, tzinfo=datetime.UTC)
    arrivals = [
        kind.late.objects.create(holder=kind.holder, deal=deal, code="invalid", kept_since=when)
        for deal, when in zip(kind.deals[:2], (far, early), strict=True)
    ]  # written as before the clamp: straight into the database
    kind.late.objects.filter(pk=arrivals[0].pk).update(kept_since=far, arrived_at=far)
    director = kind.director()
    page = director.get(kind.page)
    assert page.status_code == 200
    html = page.content.decode()
    assert all(f'id="late-{arrival.pk}"' in html for arrival in arrivals)
    assert "9999-12-31T23:59:59+00:00" in html  # shown in UTC, local time cannot show it
    for arrival in arrivals:
        assert director.post(kind.handled_url(arrival.pk)).status_code == 302
    assert not kind.late.objects.filter(handled=False).exists()
    assert director.get(kind.page).status_code == 200


# ---------------------------------------------------------------------------- what is kept


def test_only_the_kinds_outcome_fields_are_kept_each_capped(kind: Kind) -> None:
    deal = kind.deals[0]
    fat = {
        **kind.invalid(deal),
        f"d{deal}-points": "9" * 5000,
        **{f"junk{n}": "x" * 1800 for n in range(900)},
    }
    kept = (timezone.now() - datetime.timedelta(minutes=3)).isoformat()
    assert post(kind, deal, fat, kept).status_code == 422
    arrival = kind.late.objects.get()
    assert arrival.kept_since_sent == ""  # inside the window: stored as sent
    assert not any(name.startswith("junk") for name in arrival.outcome)
    assert arrival.outcome[f"d{deal}-points"] == "9" * late_arrivals.VALUE_MAX
    assert all(len(str(value)) <= late_arrivals.VALUE_MAX for value in arrival.outcome.values())
    assert len(arrival.message) <= late_arrivals.MESSAGE_MAX


def test_the_latest_refusal_of_a_deal_replaces_its_unhandled_arrival(kind: Kind) -> None:
    first, second = kind.deals[:2]
    kept = timezone.now().isoformat()
    for points in ("95", "96", "97"):
        data = {**kind.invalid(first), f"d{first}-points": points}
        assert post(kind, first, data, kept).status_code == 422
    post(kind, second, kind.invalid(second), kept)
    rows = kind.late.objects.order_by("deal")
    assert [row.deal for row in rows] == [first, second]
    assert rows[0].outcome[f"d{first}-points"] == "97"
    # Once handled, the next refusal of that deal is a new arrival; the handled one stays.
    kind.late.objects.filter(deal=first).update(handled=True)
    post(kind, first, kind.invalid(first), kept)
    assert kind.late.objects.filter(deal=first).count() == 2
    assert kind.late.objects.filter(deal=first, handled=False).count() == 1


def test_the_database_refuses_a_second_unhandled_arrival_of_a_deal(kind: Kind) -> None:
    deal = kind.deals[0]
    now = timezone.now()
    kind.late.objects.create(holder=kind.holder, deal=deal, code="invalid", kept_since=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        kind.late.objects.create(holder=kind.holder, deal=deal, code="invalid", kept_since=now)
    kind.late.objects.create(
        holder=kind.holder, deal=deal, code="invalid", kept_since=now, handled=True
    )
    assert kind.late.objects.count() == 2


def test_the_directors_list_is_50_to_a_page(kind: Kind) -> None:
    now = timezone.now()
    kind.late.objects.bulk_create(
        kind.late(holder=kind.holder, deal=deal, code="invalid", kept_since=now)
        for deal in range(1, 121)
    )
    director = kind.director()
    first = director.get(kind.page).content.decode()
    assert first.count('<tr id="late-') == 50
    with translation.override("en"):
        assert "120 late arrivals to handle" in first and "Page 1 of 3" in first
    last = director.get(kind.page, {"late": "3"}).content.decode()
    assert last.count('<tr id="late-') == 20 and 'rel="prev"' in last
    assert director.get(kind.page, {"late": "junk"}).status_code == 200
    assert director.get(kind.page, {"late": "999"}).content.decode().count('<tr id="late-') == 20


# ---------------------------------------------------------------------------- the throttle


def test_a_phone_flushing_40_kept_deals_is_never_throttled() -> None:
    event = running_event(tables=3, rounds=4, deals_per_round=10)
    table = event.tables.get(number=1)
    plays = [event.schedule.play(table=1, round=r) for r in range(1, 5)]
    deals = [
        (play.round, deal)
        for play in plays
        if play is not None
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number")
    ]
    assert len(deals) == 40
    for _round, deal in deals:  # the director entered them all meanwhile
        table_services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    kept = (timezone.now() - datetime.timedelta(minutes=30)).isoformat()
    statuses = []
    for round_number, deal in deals:
        n = deal.number
        data = {f"d{n}-contract": "garde", f"d{n}-oudlers": "2", f"d{n}-points": "50"}
        response = Client().post(
            reverse("table:deal_save", args=[table.code, n]), {"round": round_number, **data},
            HTTP_IDEMPOTENCY_KEY=f"kept-{n}", HTTP_X_ENTRY_KEPT_SINCE=kept, **JSON,
        )  # fmt: skip
        statuses.append(response.status_code)
    assert 429 not in statuses and set(statuses) <= {403, 409}
    assert TableLateArrival.objects.filter(holder=table, handled=False).count() == 40


@pytest.mark.served  # a load: 10,000 posts (outside the fast loop, run by ./dev test --all)
def test_10000_refused_posts_are_at_most_one_row_per_deal_and_429_past_the_throttle(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """The flood as a prankster sends it (10,000 posts from one code, the test client in a
    loop); the throttle's count is the default one, its period a day so that the flood stays
    within one period however long the machine takes (the cache forgets by the clock)."""
    settings.PHONE_REFUSAL_RATE = f"{RATE}/day"
    kind = duplicate()
    phone = Client()
    url = {deal: kind.save_url(deal) for deal in kind.deals}
    data = {deal: kind.invalid(deal) for deal in kind.deals}
    statuses: dict[int, int] = {}
    retry_after = set()
    for n in range(FLOOD):
        deal = kind.deals[n % len(kind.deals)]
        response = phone.post(url[deal], data[deal], HTTP_X_ENTRY_KEPT_SINCE=FAR_FUTURE, **JSON)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        if response.status_code == 429:
            retry_after.add(response["Retry-After"])
            if n == RATE:
                body = response.json()
                assert (body["status"], body["code"], body["deal"]) == (
                    "throttled",
                    "throttled",
                    deal,
                )
    assert statuses == {422: RATE, 429: FLOOD - RATE}
    assert all(int(seconds) >= 1 for seconds in retry_after)
    rows = TableLateArrival.objects.filter(holder=kind.holder)
    assert rows.count() == len(kind.deals)  # one per deal
    # A plain post (no script) past the throttle reads a page saying so.
    page = phone.post(url[kind.deals[1]], data[kind.deals[1]])
    assert page.status_code == 429 and page["Retry-After"]
    # The table's real phone is answered 429 too, keeps its entry, and after Retry-After...
    valid = kind.valid(kind.deals[0])
    assert phone.post(url[kind.deals[0]], valid, **JSON).status_code == 429
    later = time.time() + int(max(retry_after, key=int)) + 1
    monkeypatch.setattr(RefusalThrottle, "timer", lambda self: later)
    saved = phone.post(url[kind.deals[0]], valid, **JSON)
    assert saved.status_code == 201 and kind.results() == 1
    # The director's page stays small: one row per deal.
    html = kind.director().get(kind.page).content.decode()
    assert html.count('<tr id="late-') == len(kind.deals)

"""The phones' outbox (issue 23): an entry saved with no network waits on the phone, survives a
reload and a browser restart, is sent once the phone is back online, and is stored once.

Each of the three phone pages (a duplicate table, a cup room, a free-deal table) is opened as a
club room serves it: the served instance (``tests.browser.served``: debug off, collected static
files), plain HTTP through a non-loopback name (``club.test``, mapped to 127.0.0.1), an
insecure origin where no service worker registers. Chromium runs on a persistent profile (what
survives closing the browser is on disk). Nothing is timed: each step waits for what the page
says, then the instance's database is read (through its helper process).

``PHONE_OUTBOX_SHOTS=<folder>`` saves screenshots at 390 px in French (the pending notice and
badge, the sent notice, a refusal, the director's list of late arrivals).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tests.browser import world
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS
from tests.browser.served import PHONE_HOST_RULE, ServedInstance
from tests.builders import random_outcome, running_event
from tests.factories import DEFAULT_PASSWORD, OrganiserFactory, RunningFreeDealFactory
from tests.teammatch.worlds import feasible, running_match

PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("PHONE_OUTBOX_SHOTS")
pytestmark = [pytest.mark.browser]

CHECKED = "<checked>"
WAITING = "Saved on this phone, waiting to be sent"
REFUSED = "Not saved: the server refused this entry."


def french(msgid: str) -> str:
    with translation.override("fr"):
        return translation.gettext(msgid)


def french_count(count: int) -> str:
    with translation.override("fr"):
        singular, plural = "%(n)s deal waiting to be sent", "%(n)s deals waiting to be sent"
        return translation.ngettext(singular, plural, count) % {"n": count}


@dataclass
class Kind:
    """One kind of phone page, set up with an open deal to enter."""

    name: str
    path: str  # the phone page
    deal: int  # the deal the tests enter
    other_deal: int  # another open deal of the page
    fill: list[tuple[str, str]]  # the deal's form as a player fills it: (field, value)
    results: Callable[[], int]  # how many results the deal has
    overwrite: Callable[[], None]  # the director stores another outcome meanwhile
    control_url: str  # the director's page listing the late arrivals
    organiser: Any


def check(name: str, value: object) -> tuple[str, str]:
    """A choice a player taps (a radio button): checked by :meth:`Page.fill`."""
    return (f"input[name='{name}'][value='{value}']", CHECKED)


def duplicate_table() -> Kind:
    event = running_event(tables=3, rounds=2, deals_per_round=3, club=world.club())
    table = event.tables.get(number=1)
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    first, second, _third = event.deals.filter(deal_set=play.deal_set).order_by("number")
    n = first.number

    fill = [check(f"d{n}-contract", "garde"), check(f"d{n}-oudlers", 2), (f"#id_d{n}-points", "46")]

    def overwrite() -> None:
        from tournaments import services

        rng = random.Random(3)
        outcome = random_outcome(rng, first)
        while (outcome["contract"], outcome["oudlers"], outcome["points"]) == ("garde", 2, 46):
            outcome = random_outcome(rng, first)
        services.table_result_enter(table=table, deal=first, outcome=outcome, via="organiser")

    return Kind(
        name="duplicate",
        path=reverse("table:entry", args=[table.code]),
        deal=n,
        other_deal=second.number,
        fill=fill,
        results=lambda: table.results.filter(deal=first).count(),
        overwrite=overwrite,
        control_url=reverse("organiser:control", args=[event.pk]),
        organiser=OrganiserFactory(clubs=[event.club]),
    )


def cup_room() -> Kind:
    running = running_match(deals_per_quarter=2)
    room = running.rooms["open"]
    outcome = feasible(running.deal(1), "garde", 50)

    fill = [
        check("d1-contract", outcome["contract"]),
        check("d1-oudlers", outcome["oudlers"]),
        ("#id_d1-points", str(outcome["points"])),
    ]

    def overwrite() -> None:
        points = outcome["points"] + 10 if outcome["points"] <= 70 else outcome["points"] - 10
        running.enter("open", 1, outcome["contract"], points)

    from teammatch.models import RoomResult

    return Kind(
        name="cup",
        path=reverse("teammatch:room", args=[room.code]),
        deal=1,
        other_deal=2,
        fill=fill,
        results=lambda: RoomResult.objects.filter(match=running.match, deal__number=1).count(),
        overwrite=overwrite,
        control_url=reverse("teammatch:organiser_cup", args=[running.cup.pk]),
        organiser=running.organiser,
    )


def free_deal_table() -> Kind:
    from freedeal import services
    from freedeal.models import FreeDealResult

    tournament = RunningFreeDealFactory(parties=3)
    table = tournament.tables.get()
    seated = tournament.table_players(1, 1)

    fill = [
        check("d1-contract", "garde"),
        check("d1-taker", seated[0]),
        check("d1-oudlers", 2),
        ("#id_d1-points", "46"),
    ]

    def overwrite() -> None:
        data = {"contract": "garde", "taker": seated[1], "oudlers": 2, "points": 56}
        services.free_deal_result_enter(table=table, deal=1, data=data, party=1)

    organiser = OrganiserFactory(clubs=[tournament.club])
    return Kind(
        name="free-deal",
        path=reverse("freedeal:table", args=[table.code]),
        deal=1,
        other_deal=2,
        fill=fill,
        results=lambda: FreeDealResult.objects.filter(table=table, party=1, deal=1).count(),
        overwrite=overwrite,
        control_url=reverse("freedeal:organiser_detail", args=[tournament.pk]),
        organiser=organiser,
    )


KINDS = {"duplicate": duplicate_table, "cup": cup_room, "free-deal": free_deal_table}
#: (In the instance's helper process) the kinds built, by key: their closures read and write
#: the instance's database.
KEPT: dict[int, Kind] = {}


def build(name: str) -> dict[str, Any]:
    """(In the instance) a kind of phone page, kept for :func:`results` and
    :func:`overwrite`; what the test needs of it."""
    with translation.override("fr"):  # the French pages, at / (no language prefix)
        kind = KINDS[name]()
    key = len(KEPT) + 1
    KEPT[key] = kind
    return {
        "key": key,
        "name": kind.name,
        "path": kind.path,
        "deal": kind.deal,
        "other_deal": kind.other_deal,
        "control_url": kind.control_url,
        "organiser": kind.organiser.username,
        "fields": kind.fill,
    }


def results(key: int) -> int:
    """(In the instance) how many results the kind's deal has."""
    return KEPT[key].results()


def overwrite(key: int) -> None:
    """(In the instance) the director stores another outcome for the kind's deal."""
    KEPT[key].overwrite()


@dataclass
class Page:
    """A kind of phone page, as the test sees it (built in the instance)."""

    served: ServedInstance
    key: int
    name: str
    path: str
    deal: int
    other_deal: int
    control_url: str
    organiser: str
    fields: list[tuple[str, str]]

    def fill(self, page: Any) -> None:
        """Fill the deal's form as a player would."""
        for selector, value in self.fields:
            if value == CHECKED:
                page.locator(selector).check()
            else:
                page.locator(selector).fill(value)

    def results(self) -> int:
        return int(self.served.call(results, self.key))

    def overwrite(self) -> None:
        self.served.call(overwrite, self.key)


@pytest.fixture(params=list(KINDS))
def kind(request: Any, served: ServedInstance) -> Page:
    return Page(served=served, **served.call(build, request.param))


@pytest.fixture
def browser(served: ServedInstance, tmp_path: Path) -> Iterator[Any]:
    """``browser.open()``: Chromium on one persistent profile (a phone); ``browser.url(path)``
    the phone page at http://club.test:<port>; the last context opened is closed at the end."""
    from playwright.sync_api import sync_playwright

    profile = tmp_path / "profile"
    with sync_playwright() as playwright:
        opened: list[Any] = []

        class Phone:
            @staticmethod
            def url(path: str) -> str:
                return f"{served.phone_url}{path}"

            @staticmethod
            def open() -> Any:
                context = playwright.chromium.launch_persistent_context(
                    str(profile),
                    executable_path=CHROMIUM,
                    headless=True,
                    args=[*CHROMIUM_ARGS, PHONE_HOST_RULE],
                    viewport=PHONE,
                    is_mobile=True,
                    has_touch=True,
                    locale="fr-FR",
                    # a persistent profile asks in its own language unless told
                    extra_http_headers={"Accept-Language": "fr-FR,fr;q=0.9"},
                )
                context.set_default_timeout(TIMEOUT_MS)
                opened.append(context)
                return context

        try:
            yield Phone
        finally:
            for context in opened:
                with contextlib.suppress(Exception):  # closed by the test already
                    context.close()


def tab(context: Any) -> Any:
    return context.pages[0] if context.pages else context.new_page()


def save(page: Any, deal: int) -> None:
    page.locator(f"#form-{deal} button[type=submit]").click()


def waiting_at(page: Any, deal: int) -> Any:
    notice = page.locator(f"#deal-{deal} .outbox-notice.waiting")
    notice.wait_for()
    return notice


def outbox(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("JSON.parse(localStorage.getItem('duplitarot-outbox') || '[]')")


def block_saves(context: Any, kind: Page) -> str:
    """The server unreachable for this page's saves (the page itself loads)."""
    pattern = f"**{kind.path}deal*/**"
    context.route(pattern, lambda route: route.abort("internetdisconnected"))
    return pattern


def test_an_entry_saved_offline_waits_survives_a_restart_and_is_stored_once(
    kind: Page, browser: Any
) -> None:
    context = browser.open()
    page = tab(context)
    page.goto(browser.url(kind.path))
    assert page.evaluate("window.isSecureContext") is False  # as on a club's Wi-Fi
    assert page.locator("#phone-outbox").is_hidden()
    context.set_offline(True)
    kind.fill(page)
    save(page, kind.deal)

    # The card says the entry waits on this phone (no outcome shown); the badge counts it.
    assert waiting_at(page, kind.deal).inner_text().strip() == french(WAITING)
    assert page.locator(f"#form-{kind.deal}").is_hidden()
    assert page.locator(".outbox-count").inner_text() == french_count(1)
    assert page.locator("#phone-outbox .outbox-resend").is_visible()
    # The other deals of the page can still be entered.
    assert page.locator(f"#form-{kind.other_deal} button[type=submit]").is_enabled()
    [entry] = outbox(page)
    assert len(entry["key"]) == 32 and entry["deal"] == kind.deal
    assert "csrfmiddlewaretoken" not in {name for name, _ in entry["fields"]}
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=f"{SHOTS}/{kind.name}-waiting.png")
    assert kind.results() == 0
    # The browser is closed, the entry still unsent. The page is left first, still offline:
    # closing a context lifts its offline emulation before the page's timers stop, and a retry
    # would then reach the server, which a phone switched off never does.
    page.goto("about:blank")
    context.close()
    assert kind.results() == 0

    # A new browser on the same profile: the page opens online, the server still unreachable.
    context = browser.open()
    page = tab(context)
    blocked = block_saves(context, kind)
    page.goto(browser.url(kind.path))
    waiting_at(page, kind.deal)
    assert page.locator(".outbox-count").inner_text() == french_count(1)
    page.reload()
    waiting_at(page, kind.deal)
    assert kind.results() == 0

    # Back online: sent with the key it was made with, saying it waited; stored once.
    sent: list[dict[str, str]] = []
    page.on("request", lambda r: sent.append(r.headers) if r.method == "POST" else None)
    context.unroute(blocked)
    context.set_offline(True)
    context.set_offline(False)  # the "online" event
    notice = page.locator(f"#deal-{kind.deal} .outbox-notice.sent")
    notice.wait_for()
    assert kind.results() == 1
    assert page.locator("#phone-outbox").is_hidden()
    assert outbox(page) == []
    assert sent and sent[-1]["idempotency-key"] == entry["key"]
    assert "x-entry-kept-since" in sent[-1]
    assert page.locator(f"#deal-{kind.deal} form").count() == 0  # its card as stored now
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{kind.name}-sent.png")

    # Opened again: nothing left to send, the result once.
    page.reload()
    page.locator(f"#deal-{kind.deal}").wait_for()
    assert page.locator("#phone-outbox").is_hidden()
    assert kind.results() == 1


def test_one_entry_sent_from_two_tabs_is_stored_once(kind: Page, browser: Any) -> None:
    context = browser.open()
    first = tab(context)
    blocked = block_saves(context, kind)
    first.goto(browser.url(kind.path))
    kind.fill(first)
    save(first, kind.deal)
    waiting_at(first, kind.deal)
    second = context.new_page()
    second.goto(browser.url(kind.path))
    waiting_at(second, kind.deal)  # the other tab shows the same waiting entry
    assert second.locator(".outbox-count").inner_text() == french_count(1)

    context.unroute(blocked)
    # Both tabs send it at once.
    for page in (first, second):
        page.evaluate("document.querySelector('.outbox-resend').click()")
    for page in (first, second):
        page.locator(f"#deal-{kind.deal} .outbox-notice.sent").wait_for()
        page.locator("#phone-outbox").wait_for(state="hidden")
    assert kind.results() == 1
    assert outbox(first) == []


def test_an_entry_whose_code_no_longer_exists_leaves_the_phone(kind: Page, browser: Any) -> None:
    """The table's code changed while an entry waited (another code's page sends it to its own
    address): nothing can take it any more, so it is cleared from the phone, never shown."""
    context = browser.open()
    page = tab(context)
    blocked = block_saves(context, kind)
    page.goto(browser.url(kind.path))
    kind.fill(page)
    save(page, kind.deal)
    waiting_at(page, kind.deal)
    page.evaluate(
        """() => {
          const list = JSON.parse(localStorage.getItem('duplitarot-outbox'));
          list.forEach(e => {
            e.url = e.url.replace(e.code, 'GONE7GONE7'); e.code = 'GONE7GONE7';
          });
          localStorage.setItem('duplitarot-outbox', JSON.stringify(list));
        }"""
    )
    context.unroute(blocked)
    page.reload()
    page.wait_for_function(
        "JSON.parse(localStorage.getItem('duplitarot-outbox') || '[]').length === 0"
    )
    assert page.locator("#phone-outbox").is_hidden()
    assert kind.results() == 0


def test_an_entry_refused_on_arrival_shows_why_and_reaches_the_director(
    kind: Page, browser: Any
) -> None:
    context = browser.open()
    page = tab(context)
    page.goto(browser.url(kind.path))
    context.set_offline(True)
    kind.fill(page)
    save(page, kind.deal)
    waiting_at(page, kind.deal)
    kind.overwrite()  # meanwhile the director enters another outcome for this deal

    context.set_offline(False)
    refused = page.locator(f"#deal-{kind.deal} .outbox-notice.refused")
    refused.wait_for()
    text = refused.inner_text()
    assert french(REFUSED) in text
    assert len([line for line in text.splitlines() if line.strip()]) >= 2  # reason, fix
    assert page.locator("#phone-outbox").is_hidden()
    assert outbox(page) == []
    assert kind.results() == 1  # the director's, unchanged
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        refused.scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/{kind.name}-refused.png")

    director = kind.served.server
    status, _headers, _html = director.get("/login/")
    assert status == 200
    status, _headers, _html = director.post(
        "/login/", {"username": kind.organiser, "password": DEFAULT_PASSWORD}
    )
    assert status == 302, _html[-2000:]
    status, _headers, html = director.get(kind.control_url)
    assert status == 200
    assert 'id="late-arrivals"' in html
    assert html.count('id="late-') == 2  # the section and its one row
    if SHOTS:  # the director's list on a phone, for a reviewer: read, not asserted
        page.goto(browser.url("/login/"))
        page.fill("input[name=username]", kind.organiser)
        page.fill("input[name=password]", DEFAULT_PASSWORD)
        page.locator("form button[type=submit]").last.click()
        page.wait_for_load_state()
        page.goto(browser.url(kind.control_url))
        late = page.locator("#late-arrivals")
        late.scroll_into_view_if_needed()
        late.screenshot(path=f"{SHOTS}/{kind.name}-late-arrivals.png")
        late.locator(".scroll-x").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
        late.screenshot(path=f"{SHOTS}/{kind.name}-late-arrivals-scrolled.png")


def thirty_kept_deals() -> dict[str, Any]:
    """(In the instance) a running event whose three tables play ten deals each at the first
    position: the tables' phone pages and their deals, and the event."""
    from tests.builders import running_event

    with translation.override("fr"):
        event = running_event(tables=3, rounds=2, deals_per_round=10, club=world.club())
        tables = []
        for table in event.tables.order_by("number"):
            play = event.schedule.play(table=table.number, round=1)
            assert play is not None
            deals = event.deals.filter(deal_set=play.deal_set).order_by("number")
            path = reverse("table:entry", args=[table.code])
            tables.append([path, list(deals.values_list("number", flat=True))])
    return {"event": event.pk, "tables": tables}


def event_results(event_id: int) -> int:
    """(In the instance) how many results the event's tables have."""
    from tournaments.models import TableResult

    return TableResult.objects.filter(table__event_id=event_id).count()


def test_a_phone_with_30_deals_kept_offline_reconnects_and_all_30_are_stored(
    browser: Any, served: ServedInstance
) -> None:
    """Thirty entries kept on one phone while the server was unreachable (ten deals at each of
    three tables, the phone passed from table to table) all reach the server when it comes
    back, none throttled, each stored once; the phone is left with nothing to send."""
    made = served.call(thirty_kept_deals)
    tables: list[tuple[str, list[int]]] = [(path, deals) for path, deals in made["tables"]]
    assert sum(len(deals) for _path, deals in tables) == 30
    context = browser.open()
    page = tab(context)
    blocked = "**/table/*/deal*/**"
    context.route(blocked, lambda route: route.abort("internetdisconnected"))
    for path, deals in tables:
        page.goto(browser.url(path))
        for deal in deals:
            page.locator(f"input[name='d{deal}-contract'][value='garde']").check()
            page.locator(f"input[name='d{deal}-oudlers'][value='2']").check()
            page.locator(f"#id_d{deal}-points").fill("46")
            save(page, deal)
            waiting_at(page, deal)
    assert len(outbox(page)) == 30
    assert served.call(event_results, made["event"]) == 0

    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if r.request.method == "POST" else None)
    context.unroute(blocked)
    context.set_offline(True)
    context.set_offline(False)  # the "online" event: everything waiting is sent
    page.wait_for_function(
        "JSON.parse(localStorage.getItem('duplitarot-outbox') || '[]').length === 0",
        timeout=240_000,
    )
    assert served.call(event_results, made["event"]) == 30
    assert not [status for status in answers if 400 <= status < 500]  # never 429, nor refused


def test_a_phone_answered_429_keeps_the_entry_and_sends_it_after_retry_after(
    browser: Any, served: ServedInstance
) -> None:
    """A 429 (too many refused entries from this code) is no answer to the entry: it stays on
    the phone, is not sent again before ``Retry-After``, then is stored."""
    kind = Page(served=served, **served.call(build, "duplicate"))
    context = browser.open()
    page = tab(context)
    page.goto(browser.url(kind.path))
    posts: list[str] = []
    throttled = {"left": 1}

    def answer(route: Any) -> None:
        key = route.request.headers.get("idempotency-key")
        if not key:  # the live preview of the marks
            route.continue_()
            return
        posts.append(key)
        if throttled["left"]:
            throttled["left"] -= 1
            body = json.dumps({"status": "throttled", "code": "throttled", "deal": kind.deal})
            route.fulfill(
                status=429, body=body, content_type="application/json",
                headers={"Retry-After": "5"},
            )  # fmt: skip
        else:
            route.continue_()

    pattern = f"**{kind.path}deal*/**"
    context.route(pattern, answer)
    kind.fill(page)
    save(page, kind.deal)
    waiting_at(page, kind.deal)
    [entry] = outbox(page)  # kept, with the time before which it is not sent again
    assert entry["not_before"] and posts == [entry["key"]]
    page.evaluate("document.querySelector('.outbox-resend').click()")  # too early: not sent
    page.wait_for_timeout(500)
    assert posts == [entry["key"]] and kind.results() == 0 and len(outbox(page)) == 1
    # Past Retry-After (5 s), sent again by itself, and stored.
    page.locator(f"#deal-{kind.deal} .outbox-notice.sent").wait_for()
    assert posts == [entry["key"], entry["key"]]
    assert outbox(page) == [] and kind.results() == 1

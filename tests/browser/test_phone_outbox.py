"""The phones' outbox (issue 23): an entry saved with no network waits on the phone, survives a
reload and a browser restart, is sent once the phone is back online, and is stored once.

Each of the three phone pages (a duplicate table, a cup room, a free-deal table) is opened as a
club room serves it: plain HTTP through a non-loopback name (``club.test``, mapped to
127.0.0.1), an insecure origin where no service worker registers. Chromium runs on a
persistent profile (what survives closing the browser is on disk). Nothing is timed: each step
waits for what the page says, then the database is read.

``PHONE_OUTBOX_SHOTS=<folder>`` saves screenshots at 390 px in French (the pending notice and
badge, the sent notice, a refusal); ``PHONE_OUTBOX_FR=<json>`` (default
/tmp/phone-outbox-fr.json, when present) lends them the French texts not yet in the catalogue.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS
from tests.builders import random_outcome, running_event
from tests.factories import OrganiserFactory, RunningFreeDealFactory
from tests.teammatch.worlds import feasible, running_match
from tournaments.models import TableResult

PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("PHONE_OUTBOX_SHOTS")
FRENCH = Path(os.environ.get("PHONE_OUTBOX_FR", "/tmp/phone-outbox-fr.json"))
HOST = "club.test"
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

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
    fill: Callable[[Any], None]  # fills the deal's form as a player would
    results: Callable[[], int]  # how many results the deal has
    overwrite: Callable[[], None]  # the director stores another outcome meanwhile
    control_url: str  # the director's page listing the late arrivals
    organiser: Any


def check(page: Any, name: str, value: object) -> None:
    page.locator(f"input[name='{name}'][value='{value}']").check()


def duplicate_table() -> Kind:
    event = running_event(tables=3, rounds=2, deals_per_round=3)
    table = event.tables.get(number=1)
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    first, second, _third = event.deals.filter(deal_set=play.deal_set).order_by("number")
    n = first.number

    def fill(page: Any) -> None:
        check(page, f"d{n}-contract", "garde")
        check(page, f"d{n}-oudlers", 2)
        page.locator(f"#id_d{n}-points").fill("46")

    def overwrite() -> None:
        from tournaments import services

        rng = random.Random(3)
        outcome = random_outcome(rng, first)
        while (outcome["contract"], outcome["oudlers"], outcome["points"]) == ("garde", 2, 46):
            outcome = random_outcome(rng, first)
        services.table_result_submit(table=table, deal=first, outcome=outcome, via="organiser")

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

    def fill(page: Any) -> None:
        check(page, "d1-contract", outcome["contract"])
        check(page, "d1-oudlers", outcome["oudlers"])
        page.locator("#id_d1-points").fill(str(outcome["points"]))

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

    def fill(page: Any) -> None:
        check(page, "d1-contract", "garde")
        check(page, "d1-taker", seated[0])
        check(page, "d1-oudlers", 2)
        page.locator("#id_d1-points").fill("46")

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


@pytest.fixture(params=list(KINDS))
def kind(request: Any) -> Kind:
    with translation.override("fr"):  # the French pages, at / (no language prefix)
        return KINDS[request.param]()


def _po_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


@pytest.fixture
def french_texts(settings: Any, tmp_path: Path) -> None:
    """For the screenshots only: the French of the new texts, from the JSON file, in a
    catalogue of their own (``LOCALE_PATHS``) while the project's does not have them yet."""
    if not (SHOTS and FRENCH.exists()):
        return
    texts = json.loads(FRENCH.read_text(encoding="utf-8"))
    lines = [
        'msgid ""',
        'msgstr "Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=2; '
        'plural=(n > 1);\\n"',
        "",
    ]
    for singular, plural, fr_one, fr_other in texts.pop("_plurals", []):
        lines += [
            f"msgid {_po_string(singular)}",
            f"msgid_plural {_po_string(plural)}",
            f"msgstr[0] {_po_string(fr_one)}",
            f"msgstr[1] {_po_string(fr_other)}",
            "",
        ]
    for msgid, msgstr in texts.items():
        lines += [f"msgid {_po_string(msgid)}", f"msgstr {_po_string(msgstr)}", ""]
    folder = tmp_path / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text("\n".join(lines), encoding="utf-8")
    subprocess.run(
        ["msgfmt", "-o", str(folder / "django.mo"), str(folder / "django.po")], check=True
    )
    settings.LOCALE_PATHS = [str(tmp_path / "locale"), *settings.LOCALE_PATHS]


@pytest.fixture
def browser(live_server: Any, tmp_path: Path, french_texts: None) -> Iterator[Any]:
    """``browser.open()``: Chromium on one persistent profile (a phone); ``browser.url(path)``
    the phone page at http://club.test:<port>; the last context opened is closed at the end."""
    from playwright.sync_api import sync_playwright

    port = urlparse(live_server.url).port
    profile = tmp_path / "profile"
    with sync_playwright() as playwright:
        opened: list[Any] = []

        class Phone:
            @staticmethod
            def url(path: str) -> str:
                return f"http://{HOST}:{port}{path}"

            @staticmethod
            def open() -> Any:
                context = playwright.chromium.launch_persistent_context(
                    str(profile),
                    executable_path=CHROMIUM,
                    headless=True,
                    args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
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
            from django.db import connections

            connections.close_all()
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


def block_saves(context: Any, kind: Kind) -> str:
    """The server unreachable for this page's saves (the page itself loads)."""
    pattern = f"**{kind.path}deal*/**"
    context.route(pattern, lambda route: route.abort("internetdisconnected"))
    return pattern


def test_an_entry_saved_offline_waits_survives_a_restart_and_is_stored_once(
    kind: Kind, browser: Any
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
    context.close()  # the browser is closed, the entry still unsent

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


def test_one_entry_sent_from_two_tabs_is_stored_once(kind: Kind, browser: Any) -> None:
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


def test_an_entry_whose_code_no_longer_exists_leaves_the_phone(kind: Kind, browser: Any) -> None:
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
    kind: Kind, browser: Any
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

    director = Client()
    director.force_login(kind.organiser)
    html = director.get(kind.control_url).content.decode()
    assert 'id="late-arrivals"' in html
    assert html.count('id="late-') == 2  # the section and its one row


def test_on_a_secure_origin_a_phone_page_opens_with_no_network(
    live_server: Any, new_page: Any, french_texts: None
) -> None:
    """localhost is a secure context: the service worker registers, caches the static assets
    and the offline shell, never a phone page; with no network the page opens as the shell,
    which lists the entry waiting on the phone (its deal, no outcome)."""
    with translation.override("fr"):
        kind = duplicate_table()
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page.goto(live_server.url + kind.path)
    assert page.evaluate("window.isSecureContext") is True
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    kind.fill(page)
    save(page, kind.deal)
    waiting_at(page, kind.deal)
    page.reload()
    page.locator(".offline-shell").wait_for()
    listed = page.locator(".outbox-elsewhere li")
    assert listed.count() == 1 and str(kind.deal) in listed.inner_text()
    assert page.locator(".outbox-count").inner_text() == french_count(1)
    cached = page.evaluate(
        "caches.keys().then(names => Promise.all(names.map(n => caches.open(n)"
        ".then(c => c.keys())))).then(all => all.flat().map(r => new URL(r.url).pathname))"
    )
    with translation.override("fr"):  # the French page's shell, whatever this thread speaks
        assert reverse("phone_offline") in cached
    assert any(path.endswith("/js/phone.js") for path in cached)
    assert not [path for path in cached if "/table/" in path]  # never a phone page
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/offline-shell.png")
    page.context.set_offline(False)  # back online: the page itself, which sends the entry
    page.locator(f"#deal-{kind.deal}").wait_for()


def test_a_phone_with_30_deals_kept_offline_reconnects_and_all_30_are_stored(
    browser: Any,
) -> None:
    """Issue 30: thirty entries kept on one phone while the server was unreachable (ten deals
    at each of three tables, the phone passed from table to table) all reach the server when
    it comes back, none throttled, each stored once; the phone is left with nothing to send."""
    with translation.override("fr"):
        event = running_event(tables=3, rounds=2, deals_per_round=10)
        paths = [reverse("table:entry", args=[t.code]) for t in event.tables.order_by("number")]
    tables: list[tuple[str, list[int]]] = []
    for number, path in enumerate(paths, start=1):
        play = event.schedule.play(table=number, round=1)
        assert play is not None
        deals = event.deals.filter(deal_set=play.deal_set).order_by("number")
        tables.append((path, list(deals.values_list("number", flat=True))))
    assert sum(len(deals) for _path, deals in tables) == 30
    context = browser.open()
    page = tab(context)
    blocked = "**/table/*/deal*/**"
    context.route(blocked, lambda route: route.abort("internetdisconnected"))
    for path, deals in tables:
        page.goto(browser.url(path))
        for deal in deals:
            check(page, f"d{deal}-contract", "garde")
            check(page, f"d{deal}-oudlers", 2)
            page.locator(f"#id_d{deal}-points").fill("46")
            save(page, deal)
            waiting_at(page, deal)
    assert len(outbox(page)) == 30
    assert TableResult.objects.filter(table__event=event).count() == 0

    answers: list[int] = []
    page.on("response", lambda r: answers.append(r.status) if r.request.method == "POST" else None)
    context.unroute(blocked)
    context.set_offline(True)
    context.set_offline(False)  # the "online" event: everything waiting is sent
    # The test server's in-memory SQLite answers some of the 30 concurrent saves 503 (a table
    # locked): no answer to the phone, which keeps them and sends them again 20 s later.
    page.wait_for_function(
        "JSON.parse(localStorage.getItem('duplitarot-outbox') || '[]').length === 0",
        timeout=240_000,
    )
    assert TableResult.objects.filter(table__event=event).count() == 30
    assert not [status for status in answers if 400 <= status < 500]  # never 429, nor refused


def test_a_phone_answered_429_keeps_the_entry_and_sends_it_after_retry_after(
    browser: Any,
) -> None:
    """Issue 30: a 429 (too many refused entries from this code) is no answer to the entry:
    it stays on the phone, is not sent again before ``Retry-After``, then is stored."""
    with translation.override("fr"):
        kind = duplicate_table()
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

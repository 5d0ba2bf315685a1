"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright's sync API.

The phone and control-room tests run against the real served instance (``served``,
``tests.browser.served``), the way a club runs it: debug off, collected static files.

A missing browser fails the test with a clear message (never a silent skip): install it with
``apt-get install -y chromium`` (``./dev test`` and ``.ci/run`` do it when they can).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.served import PHONE_HOST_RULE, ServedInstance

# Playwright's sync API runs an asyncio loop in the test thread; Django's ORM (used by the live
# server's fixtures and the tests' checks) refuses to run there unless told it is safe.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 20_000
#: How long a save may take to be answered: the phone gives up on a server silent for 15 s and
#: sends again 20 s later (config/static/js/phone.js), so a server held up once (the machine
#: busy with other tests) still answers within one retry.
ANSWER_MS = 60_000


@pytest.fixture
def new_page() -> Iterator[Callable[..., Any]]:
    """A factory of headless Chromium pages: ``new_page(**context_options)``."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium) "
            "to run the browser tests."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, PHONE_HOST_RULE]
        )
        contexts: list[Any] = []

        def open_page(**options: Any) -> Any:
            context = browser.new_context(**options)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            return page

        try:
            yield open_page
        finally:
            # The tests' own ORM queries inside the Playwright context opened connections that
            # Django's teardown cannot see: close them so the test database can be dropped.
            from django.db import connections

            connections.close_all()
            for context in contexts:
                context.close()
            browser.close()


@pytest.fixture(scope="session")
def served_instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedInstance]:
    """The real served instance (``tests.browser.served``) on a data folder of its own,
    started once for the test run (once for each pytest-xdist worker that needs it): each test
    builds its own competitions there."""
    instance = ServedInstance(tmp_path_factory.mktemp("served") / "club")
    try:
        yield instance
    finally:
        instance.close()


@pytest.fixture
def served(served_instance: ServedInstance) -> ServedInstance:
    """The served instance, serving (a test that stopped it and failed leaves it stopped)."""
    served_instance.ensure_serving()
    return served_instance


def answered(page: Any, deal: int, how: str = "sent") -> Any:
    """The answer the phone script shows at deal ``deal`` once the server answered its save
    (config/static/js/phone.js): ``sent`` (stored or replayed) or ``refused`` (refused or
    invalid). Waits for it."""
    notice = page.locator(f"#deal-{deal} .outbox-notice.{how}")
    try:
        notice.wait_for(timeout=ANSWER_MS)
    except Exception as error:
        card = page.locator(f"#deal-{deal}")
        shown = card.inner_text() if card.count() else "(no such deal on the page)"
        outbox = page.evaluate("window.localStorage.getItem('duplitarot-outbox')")
        raise AssertionError(
            f"no '{how}' answer at deal {deal} of {page.url}\n"
            f"the card says: {shown!r}\nthe phone keeps: {outbox}"
        ) from error
    return notice

"""A phone page opens with no network where a service worker can register (issues 23 and 30).

The one phone test on loopback: ``http://localhost:<port>`` is a secure context, as HTTPS is,
where the room's plain-HTTP Wi-Fi is not. Against the real served instance (debug off, static
files collected under hashed names): ``/phone-sw.js`` used to answer 500 there, so the offline
page never installed while the debug-on tests passed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tests.browser.served import ServedInstance
from tests.builders import running_event
from tournaments.models import TableResult

PHONE = {"width": 390, "height": 844}
pytestmark = [pytest.mark.browser]

CACHED_PATHS = (
    "caches.keys().then(names => Promise.all(names.map(n => caches.open(n)"
    ".then(c => c.keys())))).then(all => all.flat().map(r => new URL(r.url).pathname))"
)
HASHED = re.compile(r"/static/.+\.[0-9a-f]{12}\.(?:js|css|svg)")


def a_table() -> dict[str, Any]:
    """(In the instance) a running event; table 1's page and its first deal."""
    with translation.override("fr"):
        event = running_event(tables=3, rounds=2, deals_per_round=3)
        table = event.tables.get(number=1)
        play = event.schedule.play(table=1, round=1)
        assert play is not None
        first = event.deals.filter(deal_set=play.deal_set).order_by("number").first()
        assert first is not None
        return {
            "path": reverse("table:entry", args=[table.code]),
            "table": table.pk,
            "deal": first.number,
            "shell": reverse("phone_offline"),
        }


def results_of(table: int, deal: int) -> int:
    """(In the instance) how many results table ``table`` has for deal ``deal``."""
    return TableResult.objects.filter(table_id=table, deal__number=deal).count()


def test_on_localhost_the_service_worker_opens_the_page_with_no_network(
    served: ServedInstance, new_page: Any
) -> None:
    table = served.call(a_table)
    deal = table["deal"]
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page.set_default_timeout(30_000)
    page.goto(served.secure_url + table["path"])
    assert page.evaluate("window.isSecureContext") is True

    # The worker, served with debug off; what it caches are the shell's hashed names.
    script = page.request.get(served.secure_url + "/phone-sw.js")
    assert script.status == 200, script.text()[-2000:]
    assert 'const STATIC = "/static/";' in script.text()
    # Registered, activated, and this page under its control before the network is cut.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null"
        " && navigator.serviceWorker.controller.state === 'activated'"
    )
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith(
        "/phone-sw.js?shell=" + table["shell"]
    )

    # No network: the deal is saved on the phone, and the page reloaded opens as the shell,
    # which lists it (its number, no outcome).
    page.context.set_offline(True)
    page.locator(f"input[name='d{deal}-contract'][value='garde']").check()
    page.locator(f"input[name='d{deal}-oudlers'][value='2']").check()
    page.locator(f"#id_d{deal}-points").fill("46")
    page.locator(f"#form-{deal} button[type=submit]").click()
    page.locator(f"#deal-{deal} .outbox-notice.waiting").wait_for()
    page.reload()
    page.locator(".offline-shell").wait_for()
    listed = page.locator(".outbox-elsewhere li")
    assert listed.count() == 1 and str(deal) in listed.inner_text()
    assert "46" not in page.locator("main").inner_text()
    assert page.locator(".outbox-count").inner_text() == "1 donne en attente d'envoi"
    cached = page.evaluate(CACHED_PATHS)
    assert table["shell"] in cached
    assert any(re.fullmatch(r"/static/js/phone\.[0-9a-f]{12}\.js", path) for path in cached)
    assert [path for path in cached if path.startswith("/static/")] == [
        path for path in cached if HASHED.fullmatch(path)
    ], cached
    assert not [path for path in cached if "/table/" in path]  # never a phone page

    # Back online: the page itself opens again and sends the entry, stored once.
    page.context.set_offline(False)
    page.locator(f"#deal-{deal} .outbox-notice.sent").wait_for()
    assert served.call(results_of, table["table"], deal) == 1

    # Online, the server stopped: the page opens as the shell; it opens the page again by
    # itself once the server answers (no "online" event comes: the phone never left the
    # network).
    served.stop_server()
    page.reload()
    page.locator(".offline-shell").wait_for()
    served.start_server()
    page.locator(f"#deal-{deal}").wait_for(timeout=60_000)
    assert page.locator(".offline-shell").count() == 0
    assert served.call(results_of, table["table"], deal) == 1

"""The round clock as a room sees it: the projector and a table phone whose own clock is 90 s
ahead show the same time left, through a reload, a pause, more time and a server restart in
the middle of a position (``tournaments.views.clock``, ``js/clock.js``).

The real serve command on a data folder of the test; the phone opens the table page through a
name that is not loopback (``club.test``), as on a club's Wi-Fi."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS
from tests.instance.serving import Served, free_port, run_command, serve
from tests.instance.test_serve import _set_up

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("services")]

SHIFT_MS = 90_000
# The phone's own clock runs 90 s ahead of the server's (and the projector's).
SHIFTED_CLOCK = """
(() => {
  const SHIFT = SHIFT_MS;
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) { super(RealDate.now() + SHIFT); } else { super(...args); }
    }
    static now() { return RealDate.now() + SHIFT; }
  }
  window.Date = ShiftedDate;
})();
""".replace("SHIFT_MS", str(SHIFT_MS))

BUILD = """
from clubs.models import Club
from tests.builders import running_event
from tournaments.models import Table
event = running_event(tables=3, rounds=3, deals_per_round=2, club=Club.objects.get())
print("EVENT", event.pk, Table.objects.filter(event=event, number=1).get().code)
"""


END_SOON = """
import datetime as dt
from django.utils import timezone
from tournaments.models import RoundClock
RoundClock.objects.update(ends_at=timezone.now() + dt.timedelta(seconds=2))
"""


def _left(page: Any) -> int:
    value = page.get_attribute("#round-clock", "data-left-seconds")
    assert value is not None, "the clock shows no time left"
    return int(value)


def _same_time_left(projector: Any, phone: Any) -> int:
    shown = _left(projector)
    assert abs(_left(phone) - shown) <= 2, (shown, _left(phone))
    return shown


def _wait_state(page: Any, state: str) -> None:
    page.wait_for_function(
        "s => document.querySelector('#round-clock')?.getAttribute('data-state') === s",
        arg=state,
        timeout=TIMEOUT_MS,
    )


def _wait_left_above(page: Any, seconds: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#round-clock')?.getAttribute('data-left-seconds'))"
        " > n",
        arg=seconds,
        timeout=TIMEOUT_MS,
    )


def _serve(data: Path, port: int) -> Served:
    return serve(data, port=port, extra=("--public-url", f"http://club.test:{port}"))


def test_the_projector_and_a_phone_with_a_wrong_clock_agree(tmp_path: Path) -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    data = tmp_path / "club"
    port = free_port()
    served = _serve(data, port)
    try:
        assert served.setup_code is not None
        _set_up(served, served.setup_code)
        built = run_command(data, "shell", "-c", BUILD)
        assert built.returncode == 0, built.stderr[-3000:]
        event_id, code = built.stdout.split("EVENT", 1)[1].split()
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP club.test 127.0.0.1"],
            )
            try:
                director = browser.new_context(locale="fr-FR").new_page()
                projector = browser.new_context(locale="fr-FR").new_page()
                phone_context = browser.new_context(
                    locale="fr-FR", viewport={"width": 390, "height": 844}
                )
                phone_context.add_init_script(SHIFTED_CLOCK)
                phone = phone_context.new_page()
                for page in (director, projector, phone):
                    page.set_default_timeout(TIMEOUT_MS)
                assert phone.evaluate("Date.now()") - projector.evaluate("Date.now()") > 80_000
                # The director sets 20 minutes a position and starts position 1.
                director.goto(f"{base}/login/")
                director.fill("input[name=username]", "marie")
                director.fill("input[name=password]", "le-petit-au-bout")
                director.click("#login-form button[type=submit]")
                director.goto(f"{base}/organiser/events/{event_id}/control/?round=1")
                director.fill("#clock-minutes", "20")
                director.click("#clock-start")
                director.wait_for_selector("#clock-pause")
                projector.goto(f"{base}/events/{event_id}/ranking/projector/")
                phone.goto(f"http://club.test:{port}/table/{code}/")
                _wait_state(projector, "running")
                _wait_state(phone, "running")
                shown = _same_time_left(projector, phone)
                assert 19 * 60 - 30 < shown <= 20 * 60  # not 90 s off
                assert "Position 1" in (phone.text_content("#round-clock") or "")

                phone.reload()
                _wait_state(phone, "running")
                _same_time_left(projector, phone)

                director.click("#clock-pause")
                _wait_state(projector, "paused")
                _wait_state(phone, "paused")
                paused = _same_time_left(projector, phone)
                phone.wait_for_timeout(1500)
                assert _left(phone) == paused  # a paused clock stands still

                director.click("#clock-resume")
                director.fill("#clock-extra", "5")
                director.click("#clock-extend")
                _wait_left_above(projector, paused + 200)
                _wait_left_above(phone, paused + 200)
                extended = _same_time_left(projector, phone)
                assert paused + 240 < extended <= paused + 300

                # The server restarts in the middle of the position: the same time left.
                assert served.stop() == 0
                served = _serve(data, port)
                phone.reload()
                _wait_state(phone, "running")
                _wait_state(projector, "running")
                after = _same_time_left(projector, phone)
                assert after <= extended
                projector.reload()
                _wait_state(projector, "running")
                _same_time_left(projector, phone)
                director.goto(f"{base}/organiser/events/{event_id}/control/?round=1")
                assert "Chronomètre des positions" in (director.text_content("#clock") or "")
                # The position's time runs out (as if 20 minutes had passed): announced on both.
                ended = run_command(data, "shell", "-c", END_SOON)
                assert ended.returncode == 0, ended.stderr[-3000:]
                for page in (projector, phone):
                    page.wait_for_selector("#round-clock .clock-over", state="visible")
                    assert "changement de position" in (page.text_content(".clock-over") or "")
                    assert _left(page) == 0
            finally:
                browser.close()
    finally:
        served.stop()

"""The round clock as a room sees it: the projector and a table phone whose own clock is 90 s
ahead show the same time left, through a reload, a pause, more time and a server restart in
the middle of a position (``tournaments.views.clock``, ``js/clock.js``).

The real serve command on a data folder of the test; the phone opens the table page through a
name that is not loopback (``club.test``), as on a club's Wi-Fi."""

from __future__ import annotations

import json
import re
import urllib.request
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


# ------------------------------------------------------------ the clock follows the positions

# Garde outcomes the deals' cards allow, as a phone taps them (contract, bouts, points).
BUILD_POSITIONS = """
import json, random
from clubs.models import Club
from rules.enums import Contract
from rules.feasibility import feasible_points
from rules.hand_checks import fitting_outcome
from tests.builders import running_event
from tournaments.models import SEATS, Table
from clubs.outcomes import prepared_hands
event = running_event(tables=3, rounds=3, deals_per_round=2, club=Club.objects.get())
rng = random.Random(7)
reachable = feasible_points(4, Contract("garde"), 1, None, None)
def draw():
    oudlers = rng.choice([count for count in range(4) if reachable[count]])
    points = rng.choice(sorted(h for h in reachable[oudlers] if h % 2 == 0)) // 2
    return {"contract": "garde", "oudlers": oudlers, "points": points}
plays = {}
for play in event.schedule.playing():
    deals = event.deals.filter(deal_set=play.deal_set).order_by("number")
    plays.setdefault(play.table, {})[play.round] = [
        [d.number, fitting_outcome(draw, prepared_hands(d.cards), SEATS.index(d.taker_seat))]
        for d in deals
    ]
codes = {t.number: t.code for t in Table.objects.filter(event=event)}
print("EVENT", json.dumps({"event": event.pk, "codes": codes, "plays": plays}))
"""


def _api_enter(base: str, code: str, deal: int, outcome: dict[str, Any]) -> None:
    request = urllib.request.Request(
        f"{base}/api/v1/tables/{code}/results/",
        data=json.dumps({"deal": deal, "outcome": outcome}).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201, answer.read()


def _phone_enter(phone: Any, deal: int, outcome: dict[str, Any]) -> None:
    """Enter ``outcome`` (a Garde, as the phone taps it) for ``deal`` on the table page."""
    section = phone.locator(f"#deal-{deal}")
    section.locator("label.segment", has_text=re.compile(r"^Garde$")).click()
    section.locator("label.segment", has_text=re.compile(rf"^{outcome['oudlers']}$")).click()
    phone.locator(f"#id_d{deal}-points").fill(str(outcome["points"]))
    section.get_by_role("button", name="Enregistrer").click()
    phone.wait_for_url(re.compile(rf"(#deal-{deal}|#next-places)$"))


def _clock_text(page: Any) -> str:
    return " ".join((page.text_content("#round-clock") or "").split())


def _wait_text(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => (document.querySelector('#round-clock')?.textContent || '')"
        ".replace(/\\s+/g, ' ').includes(t)",
        arg=text,
        timeout=TIMEOUT_MS,
    )


def _wait_hidden(page: Any) -> None:
    page.wait_for_function(
        "() => { const box = document.querySelector('#round-clock'); return !box || box.hidden; }",
        timeout=TIMEOUT_MS,
    )


def test_the_clock_follows_the_positions_and_goes_with_the_event(tmp_path: Path) -> None:
    """Two tables at different positions: each phone names its table's position and counts
    down only its own; the control room offers position 2 once a table has finished position
    1, and starts it by itself (auto-advance) when the last table's last result of position 1
    is saved from its phone; a table behind the position the director started names its own;
    the finish stops the clock everywhere."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    data = tmp_path / "club"
    port = free_port()
    # Two serving processes: a save on either hands the auto-advance to the one runner.
    public = ("--public-url", f"http://club.test:{port}")
    served = serve(data, port=port, extra=(*public, "--processes", "2"))
    try:
        assert served.setup_code is not None
        _set_up(served, served.setup_code)
        built = run_command(data, "shell", "-c", BUILD_POSITIONS)
        assert built.returncode == 0, built.stderr[-3000:]
        room = json.loads(built.stdout.split("EVENT", 1)[1])
        event_id, codes, plays = room["event"], room["codes"], room["plays"]
        base = f"http://127.0.0.1:{port}"
        phone_base = f"http://club.test:{port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                headless=True,
                args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP club.test 127.0.0.1"],
            )
            try:
                wide = {"width": 1366, "height": 900}
                narrow = {"width": 390, "height": 844}
                director = browser.new_context(locale="fr-FR", viewport=wide).new_page()
                projector = browser.new_context(locale="fr-FR", viewport=wide).new_page()
                phones = {}
                for table in ("1", "2"):
                    context = browser.new_context(locale="fr-FR", viewport=narrow)
                    context.add_init_script(SHIFTED_CLOCK)
                    phones[table] = context.new_page()
                for page in (director, projector, *phones.values()):
                    page.set_default_timeout(TIMEOUT_MS)
                control = f"{base}/organiser/events/{event_id}/control/"
                director.goto(f"{base}/login/")
                director.fill("input[name=username]", "marie")
                director.fill("input[name=password]", "le-petit-au-bout")
                director.click("#login-form button[type=submit]")
                # 20 minutes a position, auto-advance chosen, position 1 started.
                director.goto(control)
                assert "Démarrer la position 1" in (director.text_content("#clock-start") or "")
                director.fill("#clock-minutes", "20")
                director.check("#clock-auto")
                director.click("#clock-start")
                director.wait_for_selector("#clock-pause")
                assert director.is_checked("#clock-auto")
                assert director.query_selector("#clock-next") is None
                projector.goto(f"{base}/events/{event_id}/ranking/projector/")
                for table, phone in phones.items():
                    phone.goto(f"{phone_base}/table/{codes[table]}/")
                for page in (director, projector, *phones.values()):
                    _wait_state(page, "running")
                    assert "Position 1 · Temps restant" in _clock_text(page)

                # Table 1 finishes position 1: its phone names position 2 and counts nothing
                # down; table 2's phone still counts position 1 down; the control room (its
                # board refreshes by itself) offers position 2.
                for deal, outcome in plays["1"]["1"]:
                    _api_enter(base, codes["1"], deal, outcome)
                ahead = phones["1"]
                _wait_state(ahead, "elsewhere")
                text = _clock_text(ahead)
                assert text.startswith("Votre table : position 2"), text
                assert "Le chronomètre compte la position 1, pas celle de votre table." in text
                assert ahead.is_hidden("#round-clock .clock-time")
                assert ahead.get_attribute("#round-clock", "data-left-seconds") is None
                assert "Position 1 · Temps restant" in _clock_text(phones["2"])
                assert _left(phones["2"]) > 19 * 60 - 60
                director.wait_for_selector("#clock-next", timeout=30_000)
                assert (director.text_content("#clock-next") or "").strip() == (
                    "Démarrer la position 2"
                )
                assert "Position 2 : table 1" in (director.text_content("#clock-positions") or "")

                # Table 3 finishes position 1 through the API, table 2 on its phone: the last
                # result of position 1 starts position 2 by itself, with its full time.
                for deal, outcome in plays["3"]["1"]:
                    _api_enter(base, codes["3"], deal, outcome)
                behind = phones["2"]
                for deal, outcome in plays["2"]["1"]:
                    _phone_enter(behind, deal, outcome)
                for page in (projector, ahead, behind):
                    _wait_text(page, "Position 2 · Temps restant")
                    _wait_state(page, "running")
                    assert _left(page) > 19 * 60 - 60
                director.reload()
                _wait_text(director, "Position 2 · Temps restant")
                assert director.query_selector("#clock-next") is None
                assert "Redémarrer la position 2" in (director.text_content("#clock-live") or "")

                # Table 1 finishes position 2; the director starts position 3 without waiting:
                # table 2's phone, behind, names its position 2 and counts nothing down.
                for deal, outcome in plays["1"]["2"]:
                    _api_enter(base, codes["1"], deal, outcome)
                director.wait_for_selector("#clock-next", timeout=30_000)
                director.click("#clock-next")
                _wait_text(director, "Position 3 · Temps restant")
                _wait_text(ahead, "Position 3 · Temps restant")
                _wait_state(behind, "elsewhere")
                assert _clock_text(behind).startswith("Votre table : position 2")
                assert "compte la position 3, pas celle de votre table" in _clock_text(behind)

                # The event finishes: the clock stops and disappears everywhere.
                director.goto(f"{base}/organiser/events/{event_id}/finish/")
                director.click("#confirm-finish")
                director.wait_for_url(re.compile(rf"/organiser/events/{event_id}/$"))
                for page in (projector, ahead, behind):
                    _wait_hidden(page)
                for page in (projector, ahead):
                    page.reload()
                    assert page.query_selector("#round-clock") is None
                director.goto(control)
                assert director.query_selector("#clock") is None
                assert director.query_selector("#round-clock") is None
            finally:
                browser.close()
    finally:
        served.stop()

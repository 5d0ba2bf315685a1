"""The phone pages on a slow network: what a player's phone waits for and how many bytes it
receives (``manage.py bench_phone``, issue 23).

A benchmark, not a test: it measures, it asserts nothing about times.

1. A new temporary data folder gets the demo (``demo.services.build_demo``, about 12 s), built by
   a child ``manage.py bench_phone --build`` whose only setting is that folder (SQLite there), as
   a club's instance would hold it. The child prints, as JSON, the three phones to open and, for
   each, one open deal with an outcome its cards allow (the simulator plays it).
2. ``python -m instance --data-dir DIR serve --host 127.0.0.1 --port P --public-url
   http://club.test:P`` serves it (waitress, debug off, gzip, the static files collected with
   hashed names: exactly the club's evening), in its own process group, without the caller's
   settings (as ``manage.py loadtest --serve`` starts it).
3. Debian's Chromium (``/usr/bin/chromium``, Playwright) opens each phone page through a name
   that is not loopback (``--host-resolver-rules="MAP club.test 127.0.0.1"``: Chromium treats
   loopback specially, a phone on the room's Wi-Fi reaches a name), with the network emulated
   through the DevTools protocol (``Network.emulateNetworkConditions``; default 400 kbit/s down
   and up, 2000 ms latency). For each phone, in one browser context (one phone):

   - **first load**: the page and its assets, nothing cached;
   - **repeat load**: the page opened again (the hashed assets come from the cache);
   - **save**: the open deal's form filled in and sent (the POST and what follows it: the
     redirect and the page, or the JSON answer when the phone script sends it).

   Each reports the time (from the navigation or the click to the page's ``load``, or to the
   save's answer when no page follows) and the bytes received: the sum of ``encodedDataLength``
   of the DevTools ``Network.loadingFinished`` events (headers and body as they crossed the
   network) and of the redirects' responses, with the number of requests that reached the
   server (those the browser's cache answered are not counted).

The folder is removed at the end (kept and named with ``--keep``).
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.loadtest import clean_environment, free_port, stop_group, stop_with_parent

CHROMIUM = "/usr/bin/chromium"
HOST = "club.test"
READY_SECONDS = 90.0
STOP_SECONDS = 15.0
BUILD_SECONDS = 300.0
NAVIGATION_TIMEOUT_MS = 180_000


class BenchError(Exception):
    """The benchmark could not run: one line for the command's error."""


@dataclass(frozen=True)
class Network:
    """The emulated network; ``None`` for no emulation (the loopback as it is)."""

    down_kbps: int = 400
    up_kbps: int = 400
    latency_ms: int = 2000

    def cdp(self) -> dict[str, Any]:
        # Throughputs in bytes per second (1 kbit = 1000 bits).
        return {
            "offline": False,
            "latency": self.latency_ms,
            "downloadThroughput": self.down_kbps * 1000 / 8,
            "uploadThroughput": self.up_kbps * 1000 / 8,
        }


@dataclass(frozen=True)
class Phone:
    """One phone page to measure: its path and one open deal's form to save."""

    name: str
    path: str
    form: str  # the form's id: form-N
    fields: dict[str, str]


@dataclass
class Step:
    seconds: float
    bytes: int
    requests: int
    status: int | None = None  # the save's answer (302: stored, then the page)


@dataclass
class PhoneReport:
    name: str
    path: str
    steps: dict[str, Step] = field(default_factory=dict)


# ------------------------------------------------------------------------- the demo (child)


def demo_table_in_play(summary: Any) -> tuple[Any, Any, int]:
    """The demo's live event, a table still playing in it and its open round (``BenchError``
    when the demo has none): what the benchmarks on the demo save to."""
    from demo.selectors import table_in_play

    event = summary.live_event
    if event is None:
        raise BenchError("the demo has no event in play")
    round_number = next(d.unfinished_round for d in summary.events if d.event == event)
    assert round_number is not None
    table = table_in_play(event, round_number)
    if table is None:
        raise BenchError("the demo's live event has no table still playing")
    return event, table, round_number


def build_phones(seed: int = 7) -> list[Phone]:
    """Build the demo in the configured database and choose what each phone saves: runs in the
    child, on the data folder's SQLite file."""
    from demo.plays import play_outcome
    from demo.services import build_demo

    summary = build_demo()
    rng = random.Random(seed)
    phones = []
    _event, table, round_number = demo_table_in_play(summary)
    deal = _open_duplicate_deal(table, round_number)
    outcome = play_outcome(deal, rng)
    phones.append(
        Phone(
            "duplicate table",
            f"/table/{table.code}/",
            f"form-{deal.number}",
            _fields(deal.number, outcome),
        )
    )
    if summary.cup is not None:
        phones.append(_cup_phone(summary.cup, rng))
    if summary.free_deal is not None:
        phones.append(_free_deal_phone(summary.free_deal, rng))
    return phones


def _fields(number: int, outcome: dict[str, Any], *extra: str) -> dict[str, str]:
    names = ("contract", "oudlers", "points", "petit_au_bout", *extra)
    return {
        f"d{number}-{name}": "" if outcome.get(name) is None else str(outcome[name])
        for name in names
    }


def _open_duplicate_deal(table: Any, round_number: int) -> Any:
    from tournaments.models import Deal, TableResult

    play = table.event.schedule.play(table=table.number, round=round_number)
    entered = set(
        TableResult.objects.filter(table=table, round_number=round_number).values_list(
            "deal__number", flat=True
        )
    )
    deals = Deal.objects.filter(event=table.event, deal_set=play.deal_set).order_by("number")
    deal = next((d for d in deals if d.number not in entered), None)
    if deal is None:
        raise BenchError("the demo's table in play has entered every deal")
    return deal


def _cup_phone(cup: Any, rng: random.Random) -> Phone:
    from demo.plays import play_outcome
    from teammatch import selectors
    from teammatch.models import CupMatch, MatchDeal, MatchRoom, RoomResult

    final = CupMatch.objects.filter(cup=cup).order_by("-round", "slot").first()
    room = MatchRoom.objects.get(match=final, room="open")
    done = RoomResult.objects.filter(match=final, room="open")
    entered = set(done.values_list("deal__number", flat=True))
    deals = MatchDeal.objects.filter(match=final).order_by("number")
    open_deals = [d for d in deals if d.number not in entered]
    if not open_deals:
        raise BenchError("the demo's final has every deal entered in the open room")
    deal = open_deals[0]
    for _ in range(20):
        outcome = play_outcome(selectors.rules_deal_of(deal), rng)
        if outcome["contract"] in ("garde", "garde_sans", "garde_contre"):
            break
    path = f"/cups/room/{room.code}/"
    return Phone("cup room", path, f"form-{deal.number}", _fields(deal.number, outcome))


def _free_deal_phone(tournament: Any, rng: random.Random) -> Phone:
    from demo.free_deals import simulated_entry
    from freedeal.models import FreeDealResult

    party = tournament.open_party or tournament.parties
    table = tournament.tables.order_by("-number").first()
    done = FreeDealResult.objects.filter(table=table, party=party)
    entered = set(done.values_list("deal", flat=True))
    number = next(n for n in range(1, tournament.deals_per_party + 1) if n not in entered)
    seated = tournament.table_players(party, table.number)
    for _ in range(50):
        entry = simulated_entry(tournament, seated, number, rng)
        if entry.get("contract") not in (None, "passed") and "partner" not in entry:
            break
    fields = _fields(number, entry, "taker")
    fields["party"] = str(party)
    return Phone("free-deal table", f"/free-deal/table/{table.code}/", f"form-{number}", fields)


# ----------------------------------------------------------------------- serving (parent)


def build_child(
    command: str, data_dir: Path, base_dir: Path, log: Path, seconds: float = BUILD_SECONDS
) -> Any:
    """Run ``manage.py <command> --build`` in ``data_dir`` (the child that builds the demo
    there, with none of the caller's settings); the JSON of its last line. Its errors go to
    ``log``; a failure or a build over ``seconds`` is a :class:`BenchError`."""
    env = clean_environment(DUPLITAROT_DATA_DIR=str(data_dir))
    try:
        with log.open("ab") as err:
            done = subprocess.run(
                [sys.executable, "manage.py", command, "--build"],
                cwd=base_dir, env=env, stdout=subprocess.PIPE, stderr=err,
                timeout=seconds, check=False,
            )  # fmt: skip
    except subprocess.TimeoutExpired as late:
        raise BenchError(f"building the demo took over {seconds:.0f} s") from late
    if done.returncode != 0:
        raise BenchError(f"building the demo failed ({done.returncode}): see {log}")
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


def build_in(data_dir: Path, base_dir: Path, log: Path) -> list[Phone]:
    """The child that builds the demo in ``data_dir``; its phones."""
    return [Phone(**item) for item in build_child("bench_phone", data_dir, base_dir, log)]


@contextlib.contextmanager
def serving(data_dir: Path, base_dir: Path, log: Path) -> Iterator[int]:
    """``duplitarot serve`` on 127.0.0.1, its public URL ``http://club.test:P``; the port."""
    port = free_port()
    argv = [
        sys.executable, "-m", "instance", "--data-dir", str(data_dir), "serve",
        "--host", "127.0.0.1", "--port", str(port), "--public-url", f"http://{HOST}:{port}",
    ]  # fmt: skip
    with log.open("ab") as out:
        process = subprocess.Popen(
            argv, cwd=base_dir, env=clean_environment(), stdin=subprocess.DEVNULL,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=stop_with_parent,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + READY_SECONDS
        while True:
            if process.poll() is not None:
                raise BenchError(f"serve exited with {process.returncode}: see {log}")
            if _answers(f"http://127.0.0.1:{port}/api/v1/"):
                break
            if time.monotonic() > deadline:
                raise BenchError(f"serve did not answer in {READY_SECONDS:.0f} s: see {log}")
            time.sleep(0.2)
        yield port
    finally:
        stop_group(process, STOP_SECONDS)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status < 500)
    except urllib.error.HTTPError as error:
        return error.code < 500
    except OSError:
        return False


# ------------------------------------------------------------------------ the browser


class Counter:
    """Bytes received and requests, from the DevTools Network events of one page."""

    def __init__(self) -> None:
        self.bytes = 0
        self.requests = 0
        self.cached: set[str] = set()

    def from_cache(self, event: dict[str, Any]) -> None:
        self.cached.add(str(event.get("requestId")))

    def received(self, event: dict[str, Any]) -> None:
        if event.get("response", {}).get("fromDiskCache"):
            self.cached.add(str(event.get("requestId")))

    def finished(self, event: dict[str, Any]) -> None:
        """A request done: its bytes; counted as a request unless the cache answered it."""
        self.bytes += int(event.get("encodedDataLength") or 0)
        if str(event.get("requestId")) not in self.cached:
            self.requests += 1

    def will_send(self, event: dict[str, Any]) -> None:
        redirect = event.get("redirectResponse")
        if redirect:
            self.bytes += int(redirect.get("encodedDataLength") or 0)
            self.requests += 1

    def take(self) -> tuple[int, int]:
        taken = (self.bytes, self.requests)
        self.bytes = self.requests = 0
        return taken


FILL_JS = """([formId, fields]) => {
  const form = document.getElementById(formId);
  if (!form) return false;
  for (const [name, value] of Object.entries(fields)) {
    for (const element of form.querySelectorAll(`[name="${name}"]`)) {
      if (element.type === "radio" || element.type === "checkbox") {
        element.checked = element.value === value;
      } else {
        element.value = value;
      }
    }
  }
  return true;
}"""


def measure(
    base_url: str, phones: list[Phone], network: Network | None, say: Callable[[str], None]
) -> list[PhoneReport]:
    if not Path(CHROMIUM).exists():
        raise BenchError(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    reports = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
            ],
        )  # fmt: skip
        try:
            for phone in phones:
                say(f"{phone.name}: {base_url}{phone.path}")
                reports.append(_measure_phone(browser, base_url, phone, network))
        finally:
            browser.close()
    return reports


def _settle(page: Any, quiet_ms: int) -> None:
    with contextlib.suppress(Exception):
        page.wait_for_load_state("networkidle", timeout=NAVIGATION_TIMEOUT_MS)
    page.wait_for_timeout(quiet_ms)


def _measure_phone(browser: Any, base_url: str, phone: Phone, network: Network | None) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True, has_touch=True
    )
    report = PhoneReport(phone.name, phone.path)
    try:
        page = context.new_page()
        page.set_default_timeout(NAVIGATION_TIMEOUT_MS)
        cdp = context.new_cdp_session(page)
        counter = Counter()
        cdp.on("Network.loadingFinished", counter.finished)
        cdp.on("Network.requestWillBeSent", counter.will_send)
        cdp.on("Network.requestServedFromCache", counter.from_cache)
        cdp.on("Network.responseReceived", counter.received)
        cdp.send("Network.enable")
        if network is not None:
            cdp.send("Network.emulateNetworkConditions", network.cdp())
        quiet = 200 if network is None else 1000
        url = base_url + phone.path
        for step in ("first load", "repeat load"):
            started = time.monotonic()
            answer = page.goto(url, wait_until="load")
            seconds = time.monotonic() - started
            _settle(page, quiet)
            received, requests = counter.take()
            report.steps[step] = Step(
                round(seconds, 3), received, requests, answer.status if answer else None
            )
        if not page.evaluate(FILL_JS, [phone.form, phone.fields]):
            raise BenchError(f"{phone.name}: no open deal form #{phone.form} on the page")
        save_path = page.eval_on_selector(f"#{phone.form}", "form => new URL(form.action).pathname")
        started = time.monotonic()
        with page.expect_response(
            lambda r: r.request.method == "POST" and r.url.split("#")[0].endswith(save_path)
        ) as answered:
            page.click(f"#{phone.form} button[type=submit]")
        status = answered.value.status
        page.wait_for_load_state("load")
        seconds = time.monotonic() - started
        _settle(page, quiet)
        received, requests = counter.take()
        report.steps["save"] = Step(round(seconds, 3), received, requests, status)
    finally:
        context.close()
    return report


# ------------------------------------------------------------------------------ the run


def run(
    *,
    base_dir: Path,
    network: Network | None,
    keep: bool,
    say: Callable[[str], None],
) -> dict[str, Any]:
    data_dir = Path(tempfile.mkdtemp(prefix="duplitarot-bench-phone-"))
    log = data_dir / "bench.log"
    failed = True
    try:
        say(f"building the demo in {data_dir}")
        phones = build_in(data_dir, base_dir, log)
        say("starting duplitarot serve")
        with serving(data_dir, base_dir, log) as port:
            reports = measure(f"http://{HOST}:{port}", phones, network, say)
        failed = False
    finally:
        if keep or failed:
            say(f"data folder kept: {data_dir}")
        else:
            shutil.rmtree(data_dir, ignore_errors=True)
    return {
        "network": None if network is None else asdict(network),
        "host": HOST,
        "phones": [
            {
                "name": report.name,
                "path": report.path,
                "steps": {name: asdict(step) for name, step in report.steps.items()},
            }
            for report in reports
        ],
    }


def format_report(report: dict[str, Any]) -> str:
    network = report["network"]
    lines = [
        "Phone pages on "
        + (
            f"{network['down_kbps']} kbit/s down, {network['up_kbps']} kbit/s up, "
            f"{network['latency_ms']} ms latency"
            if network
            else "the loopback, no network emulation"
        )
        + f" (Chromium, http://{report['host']}:PORT)",
        "",
        f"{'phone':<17} {'step':<12} {'time':>8} {'received':>10} {'requests':>9}  answer",
    ]
    for phone in report["phones"]:
        for name, step in phone["steps"].items():
            lines.append(
                f"{phone['name']:<17} {name:<12} {step['seconds']:>7.2f}s "
                f"{step['bytes'] / 1024:>8.1f} KB {step['requests']:>9}  {step['status'] or ''}"
            )
    return "\n".join(lines)

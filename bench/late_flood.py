"""A flood of refused posts from one table code against ``duplitarot serve``, and the control
room after it (``manage.py bench_late_flood``, issue 30).

A measurement, not a test: it reports, it asserts nothing about times.

1. A new temporary data folder gets the demo (``demo.services.build_demo``), built by a child
   ``manage.py bench_late_flood --build`` whose only setting is that folder; the child prints,
   as JSON, the live event's table in play (its code and round deals), and a signed-in
   session of one of the event's organisers (for the control room).
2. ``python -m instance --data-dir DIR serve`` serves it (as ``bench_phone`` does).
3. The control room is fetched (its size and time, the median of a few) before the flood.
4. ``--posts`` (10,000) refused posts are sent from that table code, as a prankster on the
   room's Wi-Fi would: each an impossible outcome (points 95, so 422) carrying
   ``X-Entry-Kept-Since: 9999-12-31T23:59:59Z``, over the table's deals, from ``--clients``
   concurrent connections. The answers are counted by status.
5. The control room again (size and time), the late arrivals stored, the database's size.

The folder is removed at the end (kept and named with ``--keep``).
"""

from __future__ import annotations

import http.cookiejar
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from bench.phone import BenchError, build_child, demo_table_in_play, serving

BUILD_SECONDS = 1200.0  # the demo, on a loaded machine
FAR_FUTURE = "9999-12-31T23:59:59Z"
PAGE_SAMPLES = 5


def build_target() -> dict[str, Any]:
    """Build the demo in the configured database; the table to flood and a director's
    session: runs in the child, on the data folder's SQLite file."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    from demo.services import build_demo

    event, table, round_number = demo_table_in_play(build_demo())
    play = event.schedule.play(table=table.number, round=round_number)
    assert play is not None
    deals = list(
        event.deals.filter(deal_set=play.deal_set)
        .order_by("number")
        .values_list("number", flat=True)
    )
    director = event.club.organisers.first()
    if director is None:
        raise BenchError("the demo's club has no organiser")
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    store[SESSION_KEY] = str(director.pk)
    # The backend that loads the user back (not the login throttle's, which loads nobody).
    backend = next(b for b in settings.AUTHENTICATION_BACKENDS if "axes" not in b.lower())
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = director.get_session_auth_hash()
    store.create()
    return {
        "code": table.code,
        "round": round_number,
        "deals": deals,
        "event": event.pk,
        "session": store.session_key,
    }


def _opener() -> tuple[urllib.request.OpenerDirector, http.cookiejar.CookieJar]:
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)), jar


def _fetch(opener: Any, request: Any) -> tuple[int, bytes]:
    try:
        with opener.open(request, timeout=60) as response:
            return int(response.status), response.read()
    except urllib.error.HTTPError as error:
        return int(error.code), error.read()


def _control_room(base: str, target: dict[str, Any]) -> dict[str, float]:
    """The control room as the director's browser gets it: bytes and seconds (median)."""
    opener, _jar = _opener()
    url = f"{base}/organiser/events/{target['event']}/control/"
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={target['session']}"})
    sizes, times, statuses = [], [], []
    for _ in range(PAGE_SAMPLES):
        start = time.perf_counter()
        status, body = _fetch(opener, request)
        times.append(time.perf_counter() - start)
        sizes.append(len(body))
        statuses.append(status)
    return {
        "status": max(statuses),
        "bytes": statistics.median(sizes),
        "seconds": round(statistics.median(times), 4),
    }


def _flood(base: str, target: dict[str, Any], posts: int, clients: int) -> dict[str, Any]:
    """``posts`` refused posts from the table's code over ``clients`` connections."""
    code, deals = target["code"], target["deals"]
    statuses: Counter[int] = Counter()
    retry_after: set[str] = set()
    lock = threading.Lock()
    counter = iter(range(posts))

    def client() -> None:
        opener, jar = _opener()
        _fetch(opener, f"{base}/table/{code}/")  # the page: its CSRF cookie
        token = next((c.value or "" for c in jar if c.name == "csrftoken"), "")
        while True:
            with lock:
                n = next(counter, None)
            if n is None:
                return
            deal = deals[n % len(deals)]
            fields = {f"d{deal}-contract": "garde", f"d{deal}-oudlers": "2"}
            fields.update({f"d{deal}-points": "95", "round": str(target["round"])})
            request = urllib.request.Request(
                f"{base}/table/{code}/deal/{deal}/",
                data=urllib.parse.urlencode(fields).encode(),
                headers={
                    "Accept": "application/json", "X-CSRFToken": token,
                    "X-Entry-Kept-Since": FAR_FUTURE, "Referer": f"{base}/table/{code}/",
                },
            )  # fmt: skip
            try:
                with opener.open(request, timeout=60) as response:
                    status, after = int(response.status), response.headers.get("Retry-After")
            except urllib.error.HTTPError as error:
                status, after = int(error.code), error.headers.get("Retry-After")
            with lock:
                statuses[status] += 1
                if after:
                    retry_after.add(after)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - start
    return {
        "posts": posts,
        "clients": clients,
        "seconds": round(seconds, 2),
        "per_second": round(posts / seconds, 1) if seconds else None,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "retry_after": sorted(retry_after, key=int),
    }


def _database_bytes(data_dir: Path) -> int:
    """The database's file with its write-ahead log (the log holds the latest writes)."""
    return sum(path.stat().st_size for path in data_dir.glob("*.sqlite3*"))


def _late_rows(html: bytes) -> int:
    return len(re.findall(rb'<tr id="late-\d+"', html))


def run(posts: int, clients: int, keep: bool, base_dir: Path) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="duplitarot-bench-flood-"))
    data_dir = folder / "data"
    log = folder / "bench.log"
    try:
        target: dict[str, Any] = build_child(
            "bench_late_flood", data_dir, base_dir, log, BUILD_SECONDS
        )
        database = data_dir / "duplitarot.sqlite3"
        with serving(data_dir, base_dir, log) as port:
            base = f"http://127.0.0.1:{port}"
            before = _control_room(base, target)
            size_before = _database_bytes(data_dir)
            flood = _flood(base, target, posts, clients)
            after = _control_room(base, target)
            opener, _jar = _opener()
            cookie = {"Cookie": f"sessionid={target['session']}"}
            page = urllib.request.Request(
                f"{base}/organiser/events/{target['event']}/control/", headers=cookie
            )
            _status, html = _fetch(opener, page)
            size_after = _database_bytes(data_dir)
        return {
            "table_code": target["code"],
            "deals_flooded": len(target["deals"]),
            "control_room_before": before,
            "flood": flood,
            "control_room_after": after,
            "late_rows_shown": _late_rows(html),
            "database_bytes_before": size_before,
            "database_bytes_after": size_after,
            "database": str(database) if keep else "",
        }
    finally:
        if keep:
            print(f"data folder kept: {data_dir}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def format_report(report: dict[str, Any]) -> str:
    flood, before, after = (
        report["flood"],
        report["control_room_before"],
        report["control_room_after"],
    )
    lines = [
        f"flood: {flood['posts']} refused posts from table {report['table_code']} over "
        f"{report['deals_flooded']} deals, {flood['clients']} connections, {flood['seconds']} s "
        f"({flood['per_second']}/s); answers {flood['statuses']}; Retry-After "
        f"{', '.join(flood['retry_after']) or '-'} s",
        f"control room before: {before['status']}, {before['bytes']:.0f} bytes, "
        f"{before['seconds'] * 1000:.0f} ms (median of {PAGE_SAMPLES})",
        f"control room after:  {after['status']}, {after['bytes']:.0f} bytes, "
        f"{after['seconds'] * 1000:.0f} ms (median of {PAGE_SAMPLES}); "
        f"{report['late_rows_shown']} late arrival rows shown",
        f"database: {report['database_bytes_before']} bytes before, "
        f"{report['database_bytes_after']} after",
    ]
    return "\n".join(lines)

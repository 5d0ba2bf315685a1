"""``python manage.py bench_recompute``: the standings recompute against its I/O floor (PostgreSQL).

``--tables 25,100,500,2500 --deals 24 [--deals-per-round 4] [--runs 5] [--budget SECONDS]
[--seed S] [--sections-above 100] [--section-tables 25] [--keep] [--json]``

For each size (smallest first) an event is built and filled in bulk
(:func:`bench.scale.scale_event_build`: ``deals / deals-per-round`` rounds, every result
entered): up to ``--sections-above`` tables (default 100) one individual event of that many
tables; above, a **simultaneous** of ``tables / --section-tables`` sections of
``--section-tables`` tables each (default 25: 2,500 tables = 100 sections × 25; the size must
be a multiple), as a national simultaneous is played. Its standings are computed once
(untimed: the snapshot exists afterwards), then each run measures, on the event (the
simultaneous, whose standings compare every section):

- **full**: ``standings_recompute(event_id=..., force=True, full=True)``, every deal rescored;
- **change**: one stored result (of any section) changed by a director correction
  (``tournaments.services.table_result_director_correct``: its points moved by 10, so its
  marks change)
  and ``scoring.services.standings_refresh(event_id=<the event or simultaneous>)`` (what the
  Celery task runs), timed from just before the correction until the snapshot is at the version
  the correction stamped. The ``results_changed`` signal is muted meanwhile, so the refresh
  runs once, here, whatever the broker settings (the load test measures the path through a real
  worker); the hand scores of the changed result and the ranking lines of its players (overall
  and in their section) are checked afterwards;
- **floor**: one raw read of the same results (every section's: a cursor ``SELECT`` of the
  columns the recompute needs, joined to the table for its number, ``fetchall``) plus a
  ``COPY ... FROM STDIN`` (text format, the buffer prepared before the timer: the event's own
  ``HandScore`` rows) of as many rows as the snapshot's ``HandScore`` rows into a scratch table
  created ``(LIKE <handscore table> INCLUDING DEFAULTS INCLUDING INDEXES)`` (checked to have the
  same columns and indexes), committed; the scratch table is dropped after each run.

The full and change runs are also split (medians) into **read** (the consistent read, the
recompute's ``_compute`` less its scoring), **compute** (``_score``, ``_merged``,
``standings_from_hands``) and **write** (``_publish``), and the change run's correction itself,
by wrapping those functions of ``scoring.services`` while timing (``split`` is ``null`` if
they are renamed).

Reported: the medians and the ratios full/floor and change/floor, per size; then the public
pages of the largest event measured (Django test client, first GET and median of 5 more): its
ranking, a score card (of the overall leader, on the pages of the leader's section for a
simultaneous), a frequency sheet (deal 1) and, for a simultaneous, that section's ranking.

Bounded: each size has a time budget (``--budget``, default 900 s, build included); a size that
exceeds it stops its runs (at least one is done) and the larger sizes are skipped with a
message. The events are deleted at the end unless ``--keep``. Needs PostgreSQL: on another
database, exit 2 with one line. Progress goes to stderr; the report (a table, or one JSON
document with ``--json``) to stdout.
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connection, transaction
from django.db.models import Sum
from django.dispatch import Signal
from django.test import Client
from django.urls import reverse

from bench.scale import MAX_SECTIONS, MAX_TABLES, MIN_TABLES, scale_event_build, scale_event_delete
from clubs.errors import DomainError
from scoring import services as scoring_services
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from scoring.services import standings_recompute, standings_refresh
from tournaments.management.base import OneLineErrorCommand
from tournaments.models import Entrant, Event, Table, TableResult
from tournaments.selectors import result_outcome
from tournaments.services import table_result_director_correct
from tournaments.signals import results_changed

DEFAULT_BUDGET = 900.0
#: Sizes above this many tables are a simultaneous of sections of SECTION_TABLES tables.
SECTIONS_ABOVE = 100
SECTION_TABLES = 25
PAGE_GETS = 5
MAX_RUNS = 50
CORRECTION_ATTEMPTS = 20
# The columns the recompute reads per result (see scoring.services), for the floor's raw read.
RESULT_COLUMNS = (
    "id", "kind", "confirmed", "director_assigned", "round_number", "deal_id",
    "seat_n_id", "seat_e_id", "seat_s_id", "seat_w_id", "mark_n", "mark_e", "mark_s", "mark_w",
    "artificial_n", "artificial_e", "artificial_s", "artificial_w",
)  # fmt: skip
# What the split wraps in scoring.services: the read-and-compute step, its scoring parts, the
# publishing step. The read is the first less the second.
SPLIT_COMPUTE = ("_score", "_merged", "standings_from_hands")
SPLIT_PARTS = ("correct", "read", "compute", "write")


def _bad(message: str) -> CommandError:
    return CommandError(f"[invalid_arguments] {message}", returncode=2)


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


@contextmanager
def _muted(signal: Signal) -> Iterator[None]:
    """``signal`` sends to nobody inside the block (its receivers are restored after)."""
    saved = signal.receivers
    signal.receivers = []
    signal.sender_receivers_cache.clear()
    try:
        yield
    finally:
        signal.receivers = saved
        signal.sender_receivers_cache.clear()


# ------------------------------------------------------------------------------- split


class _Split:
    """Seconds spent in the recompute's steps while wrapped (see the module docstring)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.available = all(
            callable(getattr(scoring_services, name, None))
            for name in ("_compute", "_publish", *SPLIT_COMPUTE)
        )

    def _timed(self, key: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[key] = self.seconds.get(key, 0.0) + time.perf_counter() - started

        return wrapper

    @contextmanager
    def wrapping(self) -> Iterator[None]:
        """Count the steps' seconds inside the block (nothing is wrapped if they are missing)."""
        self.seconds = {}
        if not self.available:
            yield
            return
        keys = {"_compute": "read+compute", "_publish": "write"}
        keys.update({name: "compute" for name in SPLIT_COMPUTE})
        saved = {name: getattr(scoring_services, name) for name in keys}
        for name, key in keys.items():
            setattr(scoring_services, name, self._timed(key, saved[name]))
        try:
            yield
        finally:
            for name, function in saved.items():
                setattr(scoring_services, name, function)

    def parts(self, correct: float | None = None) -> dict[str, float] | None:
        if not self.available:
            return None
        compute = self.seconds.get("compute", 0.0)
        parts = {
            "read": max(0.0, self.seconds.get("read+compute", 0.0) - compute),
            "compute": compute,
            "write": self.seconds.get("write", 0.0),
        }
        if correct is not None:
            parts["correct"] = correct
        return parts


# ------------------------------------------------------------------------------ report


@dataclass
class SizeReport:
    tables: int
    deals: int
    rounds: int
    sections: int = 0  # 0: one event; else a simultaneous of that many sections
    section_tables: int | None = None
    event_id: int = 0
    member_ids: list[int] = field(default_factory=list)  # the events holding the results
    results: int = 0
    hand_rows: int = 0
    ranking_rows: int = 0
    build_s: float = 0.0
    first_s: float = 0.0
    full: list[float] = field(default_factory=list)
    change: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    split: dict[str, list[dict[str, float]]] = field(
        default_factory=lambda: {"full": [], "change": []}
    )
    over_budget: bool = False

    @property
    def layout(self) -> str:
        if self.sections:
            return f"{self.tables} = {self.sections} × {self.section_tables}"
        return f"{self.tables} (one event)"

    def _split_medians(self) -> dict[str, dict[str, float]] | None:
        if not self.split["full"] and not self.split["change"]:
            return None
        return {
            kind: {
                part: round(_median([sample[part] for sample in samples]), 6)
                for part in SPLIT_PARTS
                if samples and part in samples[0]
            }
            for kind, samples in self.split.items()
        }

    def to_dict(self) -> dict[str, Any]:
        full, change, floor = _median(self.full), _median(self.change), _median(self.floor)
        return {
            "tables": self.tables,
            "sections": self.sections,
            "section_tables": self.section_tables,
            "layout": self.layout,
            "deals": self.deals,
            "rounds": self.rounds,
            "event": self.event_id,
            "results": self.results,
            "hand_rows": self.hand_rows,
            "ranking_rows": self.ranking_rows,
            "build_s": round(self.build_s, 3),
            "first_recompute_s": round(self.first_s, 6),
            "full_s": round(full, 6),
            "change_s": round(change, 6),
            "floor_s": round(floor, 6),
            "ratios": {
                "full": round(full / floor, 2) if floor else None,
                "change": round(change / floor, 2) if floor else None,
            },
            "split": self._split_medians(),
            "runs": len(self.floor),
            "samples": {
                "full_s": [round(v, 6) for v in self.full],
                "change_s": [round(v, 6) for v in self.change],
                "floor_s": [round(v, 6) for v in self.floor],
            },
            "over_budget": self.over_budget,
        }


# ------------------------------------------------------------------------------- floor


def _columns(table: str) -> list[tuple[str, str, str, str | None]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = %s ORDER BY ordinal_position",
            [table],
        )
        return [(str(a), str(b), str(c), d) for a, b, c, d in cursor.fetchall()]


def _indexes(table: str) -> list[str]:
    """The table's index definitions without their names and table name (comparable)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() "
            "AND tablename = %s",
            [table],
        )
        definitions = [str(row[0]) for row in cursor.fetchall()]
    return sorted(re.sub(r"INDEX \S+ ON \S+ ", "INDEX ON t ", d) for d in definitions)


def _scratch_create(source: str, scratch: str) -> None:
    """Create ``scratch`` like ``source`` and check it has the same columns and indexes."""
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {scratch}")
        cursor.execute(
            f"CREATE TABLE {scratch} (LIKE {source} INCLUDING DEFAULTS INCLUDING INDEXES)"
        )
    # LIKE copies no identity: compare what a COPY of explicit values depends on.
    if [c[:3] for c in _columns(scratch)] != [c[:3] for c in _columns(source)]:
        raise CommandError(f"bench_recompute: {scratch} does not have the columns of {source}")
    if _indexes(scratch) != _indexes(source):
        raise CommandError(f"bench_recompute: {scratch} does not have the indexes of {source}")


def _id_list(event_ids: list[int]) -> str:
    return ", ".join(str(int(pk)) for pk in event_ids)


def _hand_rows_buffer(source: str, event_ids: list[int]) -> tuple[list[str], bytes, int]:
    """The events' own hand score rows in COPY text format: (columns, buffer, row count)."""
    names = [c[0] for c in _columns(source)]
    quoted = ", ".join(connection.ops.quote_name(n) for n in names)
    chunks: list[bytes] = []
    statement = (
        f"COPY (SELECT {quoted} FROM {source} WHERE event_id IN ({_id_list(event_ids)})) TO STDOUT"
    )
    with connection.cursor() as cursor, cursor.copy(statement) as copy:
        for block in copy:
            chunks.append(bytes(block))
    data = b"".join(chunks)
    return names, data, data.count(b"\n")


def _raw_read_sql(event_ids: list[int]) -> str:
    result, table = TableResult._meta.db_table, Table._meta.db_table
    columns = ", ".join(f"r.{name}" for name in RESULT_COLUMNS)
    return (
        f"SELECT {columns}, t.number FROM {result} r JOIN {table} t ON t.id = r.table_id "
        f"WHERE r.event_id IN ({_id_list(event_ids)})"
    )


def _floor_run(event_ids: list[int], buffer: bytes, names: list[str]) -> tuple[float, int]:
    """One floor measurement (raw read + COPY of ``buffer``, committed); (seconds, rows read)."""
    source = HandScore._meta.db_table
    scratch = f"bench_floor_{os.getpid()}"
    _scratch_create(source, scratch)
    read = _raw_read_sql(event_ids)
    copy_sql = (
        f"COPY {scratch} ({', '.join(connection.ops.quote_name(n) for n in names)}) FROM STDIN"
    )
    try:
        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(read)
            rows = cursor.fetchall()
        with transaction.atomic(), connection.cursor() as cursor, cursor.copy(copy_sql) as copy:
            copy.write(buffer)
        elapsed = time.perf_counter() - started
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {scratch}")
    return elapsed, len(rows)


# ------------------------------------------------------------------------------ change


def _other_outcome(result: TableResult) -> dict[str, Any] | None:
    """The result's outcome with its points moved by 10 (its marks change), or None."""
    outcome = result_outcome(result)
    if outcome is None:
        return None
    points = outcome["points"]
    outcome["points"] = points + 10 if points <= 81 else points - 10
    return outcome


def _check_ranking(ranking_event_ids: list[int], entrant_ids: list[int]) -> None:
    """In each of ``ranking_event_ids``' individual rankings (the event's, or the
    simultaneous's and the section's), the lines of ``entrant_ids`` total the marks of their
    hand scores."""
    totals = dict(
        HandScore.objects.filter(entrant_id__in=entrant_ids)
        .values("entrant_id")
        .annotate(total=Sum("mark"))
        .values_list("entrant_id", "total")
    )
    for event_id in ranking_event_ids:
        ranked = dict(
            RankingEntry.objects.filter(
                event_id=event_id, kind=RankingEntry.Kind.INDIVIDUAL, entrant_id__in=entrant_ids
            ).values_list("entrant_id", "marks_total")
        )
        if ranked != totals:
            raise CommandError(
                f"bench_recompute: event {event_id}: the ranking totals {ranked} are not the "
                f"hand scores' {totals}"
            )


def _change_run(
    event_id: int, result_ids: list[int], rng: random.Random, split: _Split
) -> tuple[float, dict[str, float] | None]:
    """Correct one result (of ``event_id`` or of one of its sections), refresh ``event_id``,
    until the snapshot shows it; checked, then timed: (seconds, split)."""
    for _attempt in range(CORRECTION_ATTEMPTS):
        result = TableResult.objects.get(pk=rng.choice(result_ids))
        outcome = _other_outcome(result)
        if outcome is None:
            continue
        with _muted(results_changed), split.wrapping():
            started = time.perf_counter()
            try:
                corrected = table_result_director_correct(
                    result=result, outcome=outcome, actor=None, reason="bench_recompute"
                )
            except DomainError:
                continue  # e.g. a chelem whose points cannot move: take another result
            correct = time.perf_counter() - started
            standings_refresh(event_id=event_id)
            shown = StandingsSnapshot.objects.filter(
                event_id=event_id, results_version__gte=corrected.version
            ).exists()
            elapsed = time.perf_counter() - started
        if not shown:
            raise CommandError(
                f"bench_recompute: event {event_id}: the snapshot does not show version "
                f"{corrected.version} after standings_refresh"
            )
        marks = dict(HandScore.objects.filter(result_id=corrected.pk).values_list("seat", "mark"))
        expected = {s: m for s, m in corrected.seat_marks().items() if s in marks}
        if not marks or marks != expected:
            raise CommandError(
                f"bench_recompute: event {event_id}: the hand scores of result {corrected.pk} "
                f"show {marks}, not the corrected marks {expected}"
            )
        rankings = sorted({event_id, corrected.event_id})
        _check_ranking(rankings, [pk for pk in corrected.seat_entrant_ids().values() if pk])
        return elapsed, split.parts(correct=correct)
    raise CommandError(f"bench_recompute: event {event_id}: no result could be corrected")


# ------------------------------------------------------------------------------- pages


def _client() -> Client:
    hosts = [h for h in settings.ALLOWED_HOSTS if h and h != "*" and not h.startswith(".")]
    return Client(HTTP_HOST=hosts[0] if hosts else "127.0.0.1")


def _time_page(client: Client, url: str) -> dict[str, Any]:
    timings, status = [], 0
    for _get in range(PAGE_GETS + 1):
        started = time.perf_counter()
        response = client.get(url, secure=True)
        timings.append(time.perf_counter() - started)
        status = response.status_code
        if status != 200:
            break
    return {
        "url": url,
        "status": status,
        "first_s": round(timings[0], 4),
        "median_s": round(_median(timings[1:]), 4) if len(timings) > 1 else None,
    }


PAGE_NAMES = ("ranking", "section_ranking", "scorecard", "deal_sheet")


def _pages(event_id: int, sections: int) -> dict[str, Any]:
    """The public pages of the event (see the module docstring)."""
    client = _client()
    leader = (
        RankingEntry.objects.filter(event_id=event_id, kind=RankingEntry.Kind.INDIVIDUAL)
        .order_by("rank", "pk")
        .values_list("entrant_id", flat=True)
        .first()
    )
    pages: dict[str, Any] = {"event": event_id, "simultaneous": bool(sections)}
    pages["ranking"] = _time_page(client, reverse("public:ranking", args=[event_id]))
    if leader is not None:
        # A simultaneous's score card lives on the pages of the player's section.
        home = Entrant.objects.values_list("event_id", flat=True).get(pk=leader)
        if sections:
            url = reverse("public:ranking", args=[home])
            pages["section_ranking"] = _time_page(client, url)
        pages["scorecard"] = _time_page(client, reverse("public:scorecard", args=[home, leader]))
    pages["deal_sheet"] = _time_page(client, reverse("public:deal", args=[event_id, 1]))
    return pages


# ----------------------------------------------------------------------------- command


def _server_version() -> str:
    number = int(connection.pg_version)  # type: ignore[attr-defined]
    return f"{number // 10000}.{number % 10000}"


def _integer(name: str, value: str, low: int, high: int) -> int:
    if not value.isdigit() or not low <= int(value) <= high:
        raise _bad(f"--{name}: {value!r} is not a whole number in {low}..{high}")
    return int(value)


def _sizes(raw: str, *, sections_above: int, section_tables: int) -> list[int]:
    sizes = []
    for part in raw.split(","):
        part = part.strip()
        if not part.isdigit():
            raise _bad(f"--tables: {part!r} is not a number of tables (e.g. 25,100,500)")
        size = int(part)
        if not MIN_TABLES <= size <= MAX_TABLES:
            raise _bad(f"--tables: {size} is outside {MIN_TABLES}..{MAX_TABLES}")
        if size > sections_above:
            if size % section_tables:
                raise _bad(
                    f"--tables: {size} is above {sections_above} tables, so a simultaneous of "
                    f"{section_tables}-table sections: give a multiple of {section_tables}"
                )
            if size // section_tables > MAX_SECTIONS:
                raise _bad(
                    f"--tables: {size} would be {size // section_tables} sections, more than "
                    f"{MAX_SECTIONS}"
                )
        sizes.append(size)
    if not sizes or len(sizes) > 10:
        raise _bad("--tables: give 1 to 10 sizes")
    return sorted(set(sizes))


class Command(OneLineErrorCommand):
    help = (
        "Benchmark the standings recompute (full, and one change until the ranking shows it) "
        "against the I/O floor on PostgreSQL, for events of the given sizes (a simultaneous of "
        "sections for the large ones)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", default="25,100,500,2500",
                            help="comma-separated event sizes in tables")  # fmt: skip
        parser.add_argument("--deals", default="24", help="deals played by each table")
        parser.add_argument("--deals-per-round", default="4", help="deals per round (1..12)")
        parser.add_argument("--runs", default="5", help=f"runs per size (1..{MAX_RUNS})")
        parser.add_argument("--budget", default=str(int(DEFAULT_BUDGET)),
                            help="seconds per size, build included (default 900)")  # fmt: skip
        parser.add_argument("--seed", default="1", help="seed of the events")
        parser.add_argument("--sections-above", default=str(SECTIONS_ABOVE),
                            help="larger sizes are a simultaneous of sections "
                                 f"(default {SECTIONS_ABOVE} tables)")  # fmt: skip
        parser.add_argument("--section-tables", default=str(SECTION_TABLES),
                            help=f"tables of each section (default {SECTION_TABLES})")  # fmt: skip
        parser.add_argument("--keep", action="store_true", help="keep the events built")
        parser.add_argument("--json", action="store_true", help="print one JSON document")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise _bad(
                f"bench_recompute needs PostgreSQL (DATABASE_URL=postgres://...), "
                f"not {connection.vendor}"
            )
        sections_above = _integer("sections-above", str(options["sections_above"]),
                                  MIN_TABLES, MAX_TABLES)  # fmt: skip
        section_tables = _integer("section-tables", str(options["section_tables"]),
                                  MIN_TABLES, MAX_TABLES)  # fmt: skip
        sizes = _sizes(str(options["tables"]), sections_above=sections_above,
                       section_tables=section_tables)  # fmt: skip
        per_round = _integer("deals-per-round", str(options["deals_per_round"]), 1, 12)
        deals = _integer("deals", str(options["deals"]), 1, 240)
        if deals % per_round:
            raise _bad(f"--deals: {deals} is not a multiple of --deals-per-round {per_round}")
        runs = _integer("runs", str(options["runs"]), 1, MAX_RUNS)
        budget = float(_integer("budget", str(options["budget"]), 1, 86_400))
        seed = _integer("seed", str(options["seed"]), 0, 2**62)
        rounds = deals // per_round

        reports: list[SizeReport] = []
        skipped: list[dict[str, Any]] = []
        pages: dict[str, Any] | None = None
        built: list[int] = []
        try:
            for index, tables in enumerate(sizes):
                report = SizeReport(tables=tables, deals=deals, rounds=rounds)
                if tables > sections_above:
                    report.sections = tables // section_tables
                    report.section_tables = section_tables
                self._measure(report, per_round=per_round, runs=runs, budget=budget,
                              seed=seed, built=built)  # fmt: skip
                reports.append(report)
                if report.over_budget and index + 1 < len(sizes):
                    for larger in sizes[index + 1 :]:
                        skipped.append({"tables": larger, "reason": "budget"})
                    self._progress(
                        f"{tables} tables exceeded the budget of {budget:.0f} s: skipping "
                        + ", ".join(str(s) for s in sizes[index + 1 :])
                    )
                    break
            if reports:
                self._progress(f"pages of event {reports[-1].event_id} ({reports[-1].layout})…")
                pages = _pages(reports[-1].event_id, reports[-1].sections)
        finally:
            if not options["keep"]:
                for event_id in built:
                    self._progress(f"deleting event {event_id}…")
                    scale_event_delete(event_id=event_id)
        document = {
            "database": "postgresql",
            "server_version": _server_version(),
            "load_average": [round(value, 2) for value in os.getloadavg()],
            "cpus": os.cpu_count(),
            "deals": deals,
            "deals_per_round": per_round,
            "runs": runs,
            "budget_s": budget,
            "sections_above": sections_above,
            "section_tables": section_tables,
            "sizes": [report.to_dict() for report in reports],
            "skipped": skipped,
            "pages": pages,
            "kept": bool(options["keep"]),
        }
        if options["json"]:
            self.stdout.write(json.dumps(document, ensure_ascii=False))
        else:
            self._print(document)

    def _progress(self, message: str) -> None:
        sys.stderr.write(f"bench_recompute: {message}\n")
        sys.stderr.flush()

    def _measure(
        self,
        report: SizeReport,
        *,
        per_round: int,
        runs: int,
        budget: float,
        seed: int,
        built: list[int],
    ) -> None:
        tables = report.tables
        started = time.perf_counter()
        shape = (
            f"{report.sections} sections × {report.section_tables}"
            if report.sections
            else "one event"
        )
        self._progress(f"building {tables} tables ({shape}) × {report.deals} deals…")
        if report.sections:
            name = (
                f"Bench {tables} tables ({report.sections} sections × {report.section_tables}) "
                f"× {report.deals} donnes"
            )
            assert report.section_tables is not None
            event = scale_event_build(tables=report.section_tables, sections=report.sections,
                                      rounds=report.rounds, deals_per_round=per_round, fill=100,
                                      seed=seed, name=name)  # fmt: skip
        else:
            name = f"Bench {tables} tables × {report.deals} donnes"
            event = scale_event_build(tables=tables, rounds=report.rounds,
                                      deals_per_round=per_round, fill=100, seed=seed,
                                      name=name)  # fmt: skip
        built.append(event.pk)
        report.event_id = event.pk
        report.member_ids = list(
            Event.objects.filter(simultaneous=event).order_by("pk").values_list("pk", flat=True)
        ) or [event.pk]
        members = report.member_ids
        report.build_s = time.perf_counter() - started
        report.results = TableResult.objects.filter(event_id__in=members).count()
        self._progress(f"built event {event.pk} in {report.build_s:.1f} s; first recompute…")
        first = time.perf_counter()
        standings_recompute(event_id=event.pk, force=True, full=True)
        report.first_s = time.perf_counter() - first
        report.hand_rows = HandScore.objects.filter(event_id__in=members).count()
        report.ranking_rows = RankingEntry.objects.filter(event_id__in={event.pk, *members}).count()
        names, buffer, copied = _hand_rows_buffer(HandScore._meta.db_table, members)
        if copied != report.hand_rows:
            raise CommandError(
                f"bench_recompute: the COPY buffer holds {copied} rows, not {report.hand_rows}"
            )
        result_ids = list(
            TableResult.objects.filter(event_id__in=members).values_list("pk", flat=True)
        )
        rng = random.Random(seed)
        split = _Split()

        def full() -> float:
            with split.wrapping():
                elapsed = self._timed_full(event.pk)
            parts = split.parts()
            if parts is not None:
                report.split["full"].append(parts)
            return elapsed

        def change() -> float:
            elapsed, parts = _change_run(event.pk, result_ids, rng, split)
            if parts is not None:
                report.split["change"].append(parts)
            return elapsed

        measures: list[tuple[list[float], Callable[[], float]]] = [
            (report.full, full),
            (report.change, change),
            (report.floor, lambda: self._timed_floor(members, buffer, names, report.results)),
        ]
        for run in range(runs):
            for samples, measure in measures:
                samples.append(measure())
            self._progress(
                f"{tables} tables, run {run + 1}/{runs}: full {report.full[-1]:.3f} s, "
                f"change {report.change[-1]:.3f} s, floor {report.floor[-1]:.3f} s"
            )
            if time.perf_counter() - started > budget:
                report.over_budget = True
                break

    def _timed_full(self, event_id: int) -> float:
        started = time.perf_counter()
        standings_recompute(event_id=event_id, force=True, full=True)
        return time.perf_counter() - started

    def _timed_floor(
        self, event_ids: list[int], buffer: bytes, names: list[str], results: int
    ) -> float:
        elapsed, read = _floor_run(event_ids, buffer, names)
        if read != results:
            raise CommandError(f"bench_recompute: the raw read found {read} results, not {results}")
        return elapsed

    def _print(self, document: dict[str, Any]) -> None:
        out = self.stdout.write
        load = ", ".join(f"{value:.2f}" for value in document["load_average"])
        out(
            f"bench_recompute on PostgreSQL {document['server_version']}: {document['deals']} "
            f"deals per table, medians of up to {document['runs']} runs (load average {load} "
            f"on {document['cpus']} CPUs)"
        )
        header = (
            f"{'tables':>18} {'results':>8} {'hands':>8} {'ranking':>8} {'full s':>8} "
            f"{'change s':>9} {'floor s':>8} {'full/floor':>10} {'change/floor':>12} {'runs':>5}"
        )
        out(header)
        for size in document["sizes"]:
            ratios = size["ratios"]
            out(
                f"{size['layout']:>18} {size['results']:>8} {size['hand_rows']:>8} "
                f"{size['ranking_rows']:>8} {size['full_s']:>8.3f} {size['change_s']:>9.3f} "
                f"{size['floor_s']:>8.3f} {ratios['full'] or 0:>10.2f} "
                f"{ratios['change'] or 0:>12.2f} {size['runs']:>5}"
            )
        for size in document["sizes"]:
            split = size["split"]
            if not split:
                continue
            parts = "; ".join(
                f"{kind} " + ", ".join(f"{part} {seconds:.3f}" for part, seconds in values.items())
                for kind, values in split.items()
                if values
            )
            out(f"  split of {size['layout']} (s): {parts}")
        for skipped in document["skipped"]:
            out(f"{skipped['tables']:>18} skipped: the previous size exceeded the time budget")
        pages = document["pages"]
        if pages:
            out(f"pages of event {pages['event']} (first GET, then median of {PAGE_GETS}):")
            for name in PAGE_NAMES:
                page = pages.get(name)
                if page is None:
                    continue
                median = "-" if page["median_s"] is None else f"{page['median_s']:.3f} s"
                out(
                    f"  {name:<15} HTTP {page['status']}  first {page['first_s']:.3f} s, "
                    f"median {median}  {page['url']}"
                )

"""The movement validator: hard checks 1–8 of ``docs/domain/movements.md`` and the quality report.

Vocabulary
- A table is *played* in a round when none of its seats holds a phantom. A table holding a
  phantom is a sit-out table: nobody plays there, and the real entrants seated there sit out
  that round (they count as byes in the quality report, like the entrants listed in ``byes``).
- Meetings, replays and comparability are counted on played tables only.
- Teammates (same non-null ``team``) sitting together as defenders are partners, not opponents:
  their sharing a table is not a meeting. A teammate at the taker seat facing his own team is
  a hard error (check 6).

The validator never raises on bad input: anything ill-formed is reported as a check-1 violation.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import Any

from .document import FORMATS, KINDS, SCHEMA, SEATS

# The largest tables / rounds / deal_sets / copies count a movement may declare (a federation's
# simultaneous has some 2,500 tables).
MAX_HEADER_COUNT = 10_000

KIND_FOR_FORMAT = {
    "individual": ("line", "howell"),
    "triplette": ("pools",),
    "quadrette": ("matches",),
}


@dataclass(frozen=True)
class Violation:
    """A hard error: ``check`` is the number of the hard check in docs/domain/movements.md (1–8)."""

    check: int
    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "code": self.code, "message": self.message}

    def __str__(self) -> str:
        return f"check {self.check} [{self.code}] {self.message}"


@dataclass(frozen=True)
class QualityWarning:
    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


@dataclass
class ValidationReport:
    errors: list[Violation] = field(default_factory=list)
    warnings: list[QualityWarning] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors

    def checks_failed(self) -> set[int]:
        return {violation.check for violation in self.errors}

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "errors": [v.to_dict() for v in self.errors],
            "warnings": [w.to_dict() for w in self.warnings],
            "metrics": self.metrics,
        }

    def format_text(self) -> str:
        lines: list[str] = []
        if self.ok:
            lines.append("Movement OK: every hard check passes.")
        else:
            lines.append(f"Movement REFUSED: {len(self.errors)} hard error(s).")
            lines.extend(f"  ERROR {violation}" for violation in self.errors)
        lines.extend(f"  warning {warning}" for warning in self.warnings)
        m = self.metrics
        if "meeting_histogram" in m:
            hist = ", ".join(f"{k}×: {v}" for k, v in m["meeting_histogram"].items())
            lines.append(f"Meetings (opponent pairs by times met): {hist}")
            lines.append(f"Max meetings allowed: {m['max_meetings']}")
        if "deal_coverage" in m:
            cov = m["deal_coverage"]
            lines.append(
                f"Deal sets played per entrant: {cov['min']}..{cov['max']} of {m['deal_sets']}"
            )
        if "seat_balance" in m:
            lines.append(f"Seat balance: largest spread per entrant {m['seat_balance']['spread']}")
        if "byes" in m:
            byes = m["byes"]
            lines.append(
                f"Byes per real entrant: {byes['min']}..{byes['max']} "
                f"(total {byes['total']}, sit-out tables {m['sit_out_tables']})"
            )
        if m.get("tables_walked"):
            walked = ", ".join(
                f"r{w['round']}: {w['moved']} moved/{w['distance']}" for w in m["tables_walked"]
            )
            lines.append(f"Tables walked (entrants moved/total distance): {walked}")
        return "\n".join(lines)


@dataclass(frozen=True)
class _Table:
    table: int
    seats: dict[str, int]
    deal_set: int
    copy: int


@dataclass(frozen=True)
class _Round:
    round: int
    tables: list[_Table]
    byes: list[int]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def default_max_meetings(kind: str, tables: int) -> int:
    """docs/domain/movements.md: 1, except 2 for a 3-table Howell and for triplette pools."""
    if kind == "pools" or (kind == "howell" and tables == 3):
        return 2
    return 1


class _Validator:
    def __init__(self, document: object, max_meetings: int | None) -> None:
        self.doc = document
        self.report = ValidationReport()
        self.max_meetings_arg = max_meetings

    def error(self, check: int, code: str, message: str) -> None:
        self.report.errors.append(Violation(check, code, message))

    def warn(self, code: str, message: str) -> None:
        self.report.warnings.append(QualityWarning(code, message))

    # ----------------------------------------------------------------- parsing (check 1)
    def parse(self) -> bool:
        doc = self.doc
        if not isinstance(doc, dict):
            self.error(1, "not_an_object", "the movement document must be a JSON object")
            return False
        missing = [
            key
            for key in (
                "schema",
                "format",
                "kind",
                "tables",
                "rounds",
                "seats",
                "deal_sets",
                "copies",
                "entrants",
                "schedule",
            )
            if key not in doc
        ]
        if missing:
            self.error(1, "missing_key", f"missing key(s): {', '.join(missing)}")
            return False
        if doc["schema"] != SCHEMA:
            self.error(1, "schema", f"schema must be {SCHEMA!r}, not {doc['schema']!r}")
        if doc["format"] not in FORMATS:
            self.error(1, "format", f"unknown format {doc['format']!r}")
        if doc["kind"] not in KINDS:
            self.error(1, "kind", f"unknown kind {doc['kind']!r}")
        elif doc["format"] in FORMATS and doc["kind"] not in KIND_FOR_FORMAT[doc["format"]]:
            self.error(1, "kind", f"kind {doc['kind']!r} does not fit format {doc['format']!r}")
        for key in ("tables", "rounds", "deal_sets", "copies"):
            if not _is_int(doc[key]) or doc[key] < 1:
                self.error(1, "header", f"{key} must be a positive integer")
            elif doc[key] > MAX_HEADER_COUNT:
                # A count sizes the lists built to check the schedule: bounded, whoever calls.
                self.error(1, "header", f"{key} must be at most {MAX_HEADER_COUNT}")
        if doc["seats"] != list(SEATS):
            self.error(1, "seats", f"seats must be {list(SEATS)}")
        if self.report.errors:
            return False
        self.format: str = doc["format"]
        self.kind: str = doc["kind"]
        self.tables: int = doc["tables"]
        self.rounds: int = doc["rounds"]
        self.deal_sets: int = doc["deal_sets"]
        self.copies: int = doc["copies"]
        self.taker_seat: str | None = None
        if "taker_seat" in doc:
            if doc["taker_seat"] in SEATS:
                self.taker_seat = doc["taker_seat"]
            else:
                self.error(1, "taker_seat", f"taker_seat must be one of {list(SEATS)}")
        default = default_max_meetings(self.kind, self.tables)
        self.max_meetings = default
        if self.max_meetings_arg is not None:
            self.max_meetings = self.max_meetings_arg
        elif "max_meetings" in doc:
            declared = doc["max_meetings"]
            if not _is_int(declared) or declared < 1:
                self.error(1, "max_meetings", "max_meetings must be a positive integer")
            else:
                self.max_meetings = declared
                if declared > default:
                    self.warn(
                        "max_meetings_relaxed",
                        f"the document allows {declared} meetings per pair "
                        f"(default for a {self.kind} movement: {default})",
                    )
        return self.parse_entrants() and self.parse_schedule()

    def parse_entrants(self) -> bool:
        raw = self.doc["entrants"]  # type: ignore[index]
        if not isinstance(raw, list) or not raw:
            self.error(1, "entrants", "entrants must be a non-empty list")
            return False
        self.line: dict[int, str | None] = {}
        self.team: dict[int, int | None] = {}
        self.phantom: dict[int, bool] = {}
        for index, item in enumerate(raw):
            if not isinstance(item, dict) or not _is_int(item.get("id")):
                self.error(1, "entrants", f"entrant #{index + 1} must be an object with an id")
                return False
            eid = item["id"]
            line, team, phantom = item.get("line"), item.get("team"), item.get("phantom", False)
            if line is not None and line not in SEATS:
                self.error(1, "entrants", f"entrant {eid}: line must be a seat or null")
                return False
            if team is not None and not _is_int(team):
                self.error(1, "entrants", f"entrant {eid}: team must be an integer or null")
                return False
            if not isinstance(phantom, bool):
                self.error(1, "entrants", f"entrant {eid}: phantom must be true or false")
                return False
            if eid in self.line:
                self.error(1, "entrants", f"entrant id {eid} is listed twice")
                return False
            self.line[eid], self.team[eid], self.phantom[eid] = line, team, phantom
        if sorted(self.line) != list(range(1, len(raw) + 1)):
            self.error(1, "entrants", f"entrant ids must be exactly 1..{len(raw)}")
            return False
        return True

    def parse_schedule(self) -> bool:
        raw = self.doc["schedule"]  # type: ignore[index]
        if not isinstance(raw, list):
            self.error(1, "schedule", "schedule must be a list of rounds")
            return False
        if len(raw) != self.rounds:
            self.error(
                1, "round_count", f"schedule lists {len(raw)} rounds, header says {self.rounds}"
            )
        self.schedule: list[_Round] = []
        for index, item in enumerate(raw):
            where = f"round #{index + 1}"
            if not isinstance(item, dict) or not isinstance(item.get("tables"), list):
                self.error(1, "schedule", f"{where} must be an object with a list of tables")
                return False
            if item.get("round") != index + 1:
                self.error(1, "round_number", f"{where} is numbered {item.get('round')!r}")
            byes = item.get("byes", [])
            if not isinstance(byes, list) or not all(_is_int(b) for b in byes):
                self.error(1, "schedule", f"{where}: byes must be a list of entrant ids")
                return False
            tables: list[_Table] = []
            for entry in item["tables"]:
                table = self.parse_table(entry, index + 1)
                if table is None:
                    return False
                tables.append(table)
            numbers = sorted(t.table for t in tables)
            if numbers != list(range(1, self.tables + 1)):
                self.error(
                    1,
                    "table_numbers",
                    f"round {index + 1} must list tables 1..{self.tables} once each, "
                    f"lists {numbers}",
                )
            self.schedule.append(_Round(index + 1, tables, list(byes)))
        return True

    def parse_table(self, entry: object, round_number: int) -> _Table | None:
        where = f"round {round_number}"
        if not isinstance(entry, dict) or not _is_int(entry.get("table")):
            self.error(1, "table", f"{where}: each table must be an object with a table number")
            return None
        where += f" table {entry['table']}"
        seats = entry.get("seats")
        if (
            not isinstance(seats, dict)
            or sorted(seats) != sorted(SEATS)
            or not all(_is_int(v) for v in seats.values())
        ):
            self.error(1, "table_seats", f"{where}: seats must map exactly N, E, S, W to ids")
            return None
        deal_set, copy = entry.get("deal_set"), entry.get("copy")
        if not _is_int(deal_set) or not _is_int(copy):
            self.error(1, "table", f"{where}: deal_set and copy must be integers")
            return None
        assert isinstance(deal_set, int) and isinstance(copy, int)
        if not 1 <= deal_set <= self.deal_sets:
            self.error(
                1, "deal_set_range", f"{where}: deal set {deal_set} is not in 1..{self.deal_sets}"
            )
        if not 1 <= copy <= self.copies:
            self.error(1, "copy_range", f"{where}: copy {copy} is not in 1..{self.copies}")
        return _Table(entry["table"], dict(seats), deal_set, copy)

    # ----------------------------------------------------------------- helpers
    def real(self, eid: int) -> bool:
        return eid in self.phantom and not self.phantom[eid]

    def played(self, table: _Table) -> bool:
        return all(eid in self.phantom and not self.phantom[eid] for eid in table.seats.values())

    def teammates(self, a: int, b: int) -> bool:
        return self.team.get(a) is not None and self.team.get(a) == self.team.get(b)

    # ----------------------------------------------------------------- hard checks
    def check_presence(self) -> None:
        for rnd in self.schedule:
            seen: Counter[int] = Counter()
            for table in rnd.tables:
                seen.update(table.seats.values())
            seen.update(rnd.byes)
            for eid, count in sorted(seen.items()):
                if eid not in self.phantom:
                    self.error(
                        2,
                        "unknown_entrant",
                        f"round {rnd.round}: entrant {eid} is not in the entrant list",
                    )
                elif count > 1:
                    self.error(
                        2,
                        "double_booking",
                        f"round {rnd.round}: entrant {eid} is placed {count} times",
                    )
            for eid in sorted(self.phantom):
                if eid not in seen:
                    self.error(
                        2,
                        "missing",
                        f"round {rnd.round}: entrant {eid} is neither seated nor in byes",
                    )

    def check_etuis(self) -> None:
        for rnd in self.schedule:
            where: dict[tuple[int, int], list[int]] = defaultdict(list)
            for table in rnd.tables:
                where[(table.deal_set, table.copy)].append(table.table)
            for (deal_set, copy), tables in sorted(where.items()):
                if len(tables) > 1:
                    self.error(
                        3,
                        "etui_clash",
                        f"round {rnd.round}: deal set {deal_set} copy {copy} is at tables {tables}",
                    )

    def check_replays(self) -> None:
        first: dict[tuple[int, int], int] = {}
        for rnd in self.schedule:
            for table in rnd.tables:
                if not self.played(table):
                    continue
                for eid in table.seats.values():
                    key = (eid, table.deal_set)
                    if key in first:
                        self.error(
                            4,
                            "replay",
                            f"entrant {eid} plays deal set {table.deal_set} "
                            f"twice (rounds {first[key]} and {rnd.round})",
                        )
                    else:
                        first[key] = rnd.round

    def check_lines(self) -> None:
        if self.kind != "line":
            return
        for eid, line in sorted(self.line.items()):
            if line is None:
                self.error(5, "line_missing", f"entrant {eid} has no line in a line movement")
        reported: set[int] = set()
        for rnd in self.schedule:
            for table in rnd.tables:
                for seat, eid in table.seats.items():
                    line = self.line.get(eid)
                    if line is not None and line != seat and eid not in reported:
                        reported.add(eid)
                        self.error(
                            5,
                            "line_broken",
                            f"entrant {eid} of line {line} sits {seat} "
                            f"at table {table.table} in round {rnd.round}",
                        )

    def check_meetings(self) -> None:
        self.meetings: Counter[tuple[int, int]] = Counter()
        rounds_met: dict[tuple[int, int], list[int]] = defaultdict(list)
        for rnd in self.schedule:
            for table in rnd.tables:
                if not self.played(table):
                    continue
                for a, b in combinations(sorted(table.seats.values()), 2):
                    if self.teammates(a, b):
                        continue
                    self.meetings[(a, b)] += 1
                    rounds_met[(a, b)].append(rnd.round)
                if self.taker_seat is not None:
                    taker = table.seats[self.taker_seat]
                    for seat, eid in table.seats.items():
                        if seat != self.taker_seat and self.teammates(taker, eid):
                            self.error(
                                6,
                                "teammates",
                                f"round {rnd.round} table {table.table}: "
                                f"taker {taker} faces his teammate {eid}",
                            )
        for (a, b), count in sorted(self.meetings.items()):
            if count > self.max_meetings:
                self.error(
                    6,
                    "meeting",
                    f"entrants {a} and {b} meet {count} times (rounds "
                    f"{', '.join(map(str, rounds_met[(a, b)]))}; at most "
                    f"{self.max_meetings} allowed)",
                )

    def check_comparability(self) -> None:
        holders: dict[tuple[int, str], set[int]] = defaultdict(set)
        for rnd in self.schedule:
            for table in rnd.tables:
                if self.played(table):
                    for seat, eid in table.seats.items():
                        holders[(table.deal_set, seat)].add(eid)
        for (deal_set, seat), who in sorted(
            holders.items(), key=lambda kv: (kv[0][0], SEATS.index(kv[0][1]))
        ):
            if len(who) < 2:
                self.error(
                    7,
                    "comparability",
                    f"hand (deal set {deal_set}, {seat}) is held by "
                    f"only {len(who)} real entrant(s)",
                )

    def check_teams(self) -> None:
        if self.format not in ("triplette", "quadrette"):
            return
        if self.taker_seat is None:
            self.error(8, "taker_seat", "a team movement must name its taker_seat")
            return
        no_team = [eid for eid, team in self.team.items() if team is None]
        if no_team:
            self.error(8, "team_missing", f"entrants without a team: {no_team[:10]}")
            return
        taker_seat = self.taker_seat
        for rnd in self.schedule:
            sides: list[tuple[_Table, int, set[int]]] = []
            for table in rnd.tables:
                if not self.played(table):
                    continue
                taker_team = self.team[table.seats[taker_seat]]
                defenders = {self.team[e] for s, e in table.seats.items() if s != taker_seat}
                assert taker_team is not None
                sides.append((table, taker_team, {d for d in defenders if d is not None}))
                if len(defenders) != 1:
                    code = "pool_defenders" if self.format == "triplette" else "match_defenders"
                    self.error(
                        8,
                        code,
                        f"round {rnd.round} table {table.table}: the three non-taker "
                        f"seats hold teams {sorted(d for d in defenders if d is not None)}",
                    )
            if self.format == "quadrette":
                self.check_matches(rnd, sides)

    def check_matches(self, rnd: _Round, sides: list[tuple[_Table, int, set[int]]]) -> None:
        taker_count = Counter(team for _, team, _ in sides)
        for team, count in sorted(taker_count.items()):
            if count > 1:
                self.error(
                    8, "match_team_twice", f"round {rnd.round}: team {team} takes at {count} tables"
                )
        for table, taker_team, defenders in sides:
            if len(defenders) != 1:
                continue
            (defending_team,) = defenders
            mirrors = [
                other
                for other, other_taker, other_def in sides
                if other is not table
                and other_taker == defending_team
                and other_def == {taker_team}
                and other.deal_set == table.deal_set
            ]
            if len(mirrors) != 1:
                self.error(
                    8,
                    "match_unpaired",
                    f"round {rnd.round} table {table.table}: team "
                    f"{taker_team} takes against team {defending_team} but no single "
                    "table mirrors it on the same deal set",
                )

    # ----------------------------------------------------------------- quality report
    def quality(self) -> None:
        metrics = self.report.metrics
        real = [eid for eid in sorted(self.phantom) if not self.phantom[eid]]
        metrics["max_meetings"] = self.max_meetings
        metrics["deal_sets"] = self.deal_sets
        histogram: Counter[int] = Counter()
        for a, b in combinations(real, 2):
            if not self.teammates(a, b):
                histogram[self.meetings.get((a, b), 0)] += 1
        metrics["meeting_histogram"] = {str(k): histogram[k] for k in sorted(histogram)}
        coverage: dict[int, set[int]] = {eid: set() for eid in real}
        seat_counts: dict[int, Counter[str]] = {eid: Counter() for eid in real}
        bye_rounds: dict[int, list[int]] = {eid: [] for eid in real}
        position: dict[int, dict[int, int]] = defaultdict(dict)
        sit_out_tables = 0
        for rnd in self.schedule:
            for eid in rnd.byes:
                if eid in bye_rounds:
                    bye_rounds[eid].append(rnd.round)
            for table in rnd.tables:
                played = self.played(table)
                sit_out_tables += not played
                for seat, eid in table.seats.items():
                    if eid not in coverage:
                        continue
                    position[rnd.round][eid] = table.table
                    if played:
                        coverage[eid].add(table.deal_set)
                        seat_counts[eid][seat] += 1
                    else:
                        bye_rounds[eid].append(rnd.round)
        metrics["sit_out_tables"] = sit_out_tables
        played_counts = [len(c) for c in coverage.values()] or [0]
        metrics["deal_coverage"] = {
            "min": min(played_counts),
            "max": max(played_counts),
            "per_entrant": {str(e): len(c) for e, c in coverage.items()},
        }
        spreads = [
            max(c[s] for s in SEATS) - min(c[s] for s in SEATS) for c in seat_counts.values()
        ] or [0]
        if self.kind == "howell":  # line and team movements fix the seats by design
            metrics["seat_balance"] = {
                "spread": max(spreads),
                "per_entrant": {str(e): {s: c[s] for s in SEATS} for e, c in seat_counts.items()},
            }
        self.quality_byes(bye_rounds)
        walked = []
        for rnd in self.schedule[1:]:
            before, now = position[rnd.round - 1], position[rnd.round]
            moves = [abs(now[e] - before[e]) for e in now if e in before and now[e] != before[e]]
            walked.append({"round": rnd.round, "moved": len(moves), "distance": sum(moves)})
        metrics["tables_walked"] = walked

    def quality_byes(self, bye_rounds: dict[int, list[int]]) -> None:
        counts = {eid: len(rounds) for eid, rounds in bye_rounds.items()}
        values = list(counts.values()) or [0]
        self.report.metrics["byes"] = {
            "min": min(values),
            "max": max(values),
            "total": sum(values),
            "per_entrant": {str(e): c for e, c in counts.items() if c},
        }
        if max(values) - min(values) > 1:
            self.warn("bye_spread", f"byes per entrant range {min(values)}..{max(values)}")
        running: Counter[int] = Counter()
        for rnd in self.schedule:
            for eid, rounds in bye_rounds.items():
                if rnd.round in rounds:
                    running[eid] += 1
            if (
                running
                and max(running.values()) >= 2
                and len([e for e in counts if running[e] == 0])
            ):
                self.warn(
                    "bye_order",
                    f"round {rnd.round}: an entrant sits out twice before "
                    "everyone has sat out once",
                )
                break
        for eid, rounds in bye_rounds.items():
            if any(b - a == 1 for a, b in pairwise(rounds)):
                self.warn("bye_twice_in_a_row", f"entrant {eid} sits out two rounds in a row")

    def run(self) -> ValidationReport:
        if self.parse():
            self.check_presence()
            self.check_etuis()
            self.check_replays()
            self.check_lines()
            self.check_meetings()
            self.check_comparability()
            self.check_teams()
            self.quality()
        self.report.errors.sort(key=lambda v: v.check)
        return self.report


def validate(document: object, *, max_meetings: int | None = None) -> ValidationReport:
    """Run hard checks 1–8 and build the quality report; never raises on bad input.

    ``max_meetings`` overrides the limit of check 6; otherwise the document's ``max_meetings``
    (a warning says when it exceeds the kind's default) or the default by kind applies.
    """
    return _Validator(document, max_meetings).run()

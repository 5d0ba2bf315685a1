"""Individual movements: line movements (T ≥ 5 tables), the 3-table Howell, the 4-table affine
plane, and a Howell search for small fields with phantoms.

Line movements
    Tables, the T players of each line (N, E, S, W) and the deal sets are indexed by a finite
    group G of order m (m = T, or T - 1 with phantoms). Round r is a *row* x[r] of 5 elements
    (N, E, S, W, deal set): player i of line a sits at table i + x[r][a]; deal set d is at
    table d + x[r][D]. x[r][N] = 0 (N stays). Two entrants of lines a, b meet, and a player
    plays a deal set, at most once exactly when the differences x[r][a] - x[r][b] are distinct
    over the rounds. Rows come from:

    - ``cyclic``: gcd(m, 6) = 1, row r = (0, 2r, r, 3r, -r) in Z_m — N stays, S +1, E +2,
      W +3, deal sets -1 — m rounds;
    - ``galois``: m a prime power (8, 9, 16, 27, 32): row r = r·(0, c_E, c_S, c_W, c_D) in
      GF(m) with distinct multipliers — m rounds;
    - ``search``: otherwise a seeded, iteration- and time-bounded search for rows in Z_m
      (the per-round "skips"): rounds = the longest set found (≥ 6 for T ≥ 7, 5 for T = 6).

Phantoms (P = 4T - k players, k = 1..3; line movements from 8 tables)
    The phantom slots are grouped at table T (the sit-out table), which is outside the group:
    the N line's slot there is always a phantom (N stays), and so are the E and S slots when
    k ≥ 2, 3. Every other line has an extra real member "∞": each round one regular member u
    of such a line goes to table T (sits out, bye) and ∞ takes his place at table u + x[r][a].
    The ∞ tables are extra row columns (linear multipliers when the group has enough units,
    else a seeded row search, else a seeded backtracking on the plain rows), so that ∞ members
    meet nobody twice and replay nothing, and nobody sits out twice (fair byes). The deal sets
    1..T-1 are all played every round; table T carries deal set T, which nobody plays (it
    need not be prepared; ``deal_coverage`` shows it). Phantom slots take the last ids.
    With 3..7 tables and phantoms a Howell search is used instead (phantoms grouped at the
    last table, sit-outs chosen fairly, every table plays the round's deal set).

Every generator validates its document and raises :class:`MovementError` on any hard error.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from itertools import permutations
from math import gcd

from .document import SEATS, Document, Entrant, MovementError, RoundPlan, Seating, build_document
from .groups import FiniteGroup, cyclic_group, galois_field, prime_power
from .validation import validate

LINE_COUNT = 5  # N, E, S, W and the deal sets
DEAL_LINE = 4

#: Restarts and wall-clock seconds granted to the row search and the sit-out search.
SEARCH_RESTARTS = 60
SEARCH_SECONDS = 20.0  # safety net only: the node budgets end the searches first
ROW_NODES = 20_000
ROW_TOTAL_NODES = 40_000
MIN_LINE_ROUNDS = 6
SEARCH_PATIENCE = 12  # restarts without a longer result before the row search stops
HOWELL_RESTARTS = 80
FILL_NODES = 3_000
SITOUT_NODES = 8_000

Row = tuple[int, ...]


# --------------------------------------------------------------------------- rows
def _columns(phantoms: int) -> tuple[int, list[int]]:
    """Number of row columns and the substituted lines (whose ∞ member has its own column)."""
    if not phantoms:
        return LINE_COUNT, []
    substituted = list(range(phantoms, 4))
    return LINE_COUNT + len(substituted), substituted


def _column_pairs(columns: int) -> list[tuple[int, int, bool]]:
    """(i, j, zero_only): two ∞ columns only must not coincide twice; others stay distinct."""
    return [
        (i, j, i >= LINE_COUNT and j >= LINE_COUNT)
        for i in range(columns)
        for j in range(i + 1, columns)
    ]


def _multipliers(group: FiniteGroup, columns: int) -> list[int] | None:
    """Distinct multipliers whose pairwise differences are units (rows r·c are then valid)."""
    m = group.order
    if group.mul_table is not None:
        if columns > m:
            return None
        # Z_p keeps the classic N 0, E +2, S +1, W +3, deal sets -1 rotation.
        preferred = [0, 2, 1, 3, m - 1, *[c for c in range(4, m - 1)]]
        return preferred[:columns] if m > 4 else None
    if gcd(m, 6) != 1:
        return None
    chosen: list[int] = []
    candidates = [0, 2, 1, 3, m - 1] + [c for c in range(4, m - 1)]

    def unit(d: int) -> bool:
        return gcd(d % m, m) == 1

    def extend(start: int) -> bool:
        if len(chosen) == columns:
            return True
        for k in range(start, len(candidates)):
            c = candidates[k]
            if all(unit(c - o) for o in chosen):
                chosen.append(c)
                if extend(k + 1):
                    return True
                chosen.pop()
        return False

    return chosen if extend(0) else None


def _rows_for(
    m: int, columns: int, wanted: int | None, rng: random.Random, deadline: float
) -> tuple[FiniteGroup, list[Row], str]:
    if gcd(m, 6) == 1:
        group = cyclic_group(m)
        mult = _multipliers(group, columns)
        if mult is not None:
            return group, [tuple((c * r) % m for c in mult) for r in range(m)], "cyclic"
    elif prime_power(m) is not None and m >= 5:
        field = galois_field(m)
        mult = _multipliers(field, columns)
        if mult is not None:
            return field, [tuple(field.mul(r, c) for c in mult) for r in range(m)], "galois"
    return cyclic_group(m), _search_rows(m, columns, wanted, rng, deadline), "search"


def _search_rows(
    m: int, columns: int, wanted: int | None, rng: random.Random, deadline: float
) -> list[Row]:
    """Greedy rows, each found by a bounded backtracking, restarted; keeps the longest."""
    best: list[Row] = []
    target = wanted if wanted is not None else m
    pairs = _column_pairs(columns)
    budget = [ROW_TOTAL_NODES]
    stale = 0
    for _restart in range(SEARCH_RESTARTS):
        if budget[0] <= 0 or stale >= SEARCH_PATIENCE:
            break
        rows = _greedy_rows(m, columns, pairs, target, rng, budget)
        stale += 1
        if len(rows) > len(best):
            best, stale = rows, 0
        if len(best) >= target:
            break
        if time.monotonic() > deadline:
            raise MovementError(f"movement search for {m} tables ran out of time")
    return best


def _greedy_rows(
    m: int,
    columns: int,
    pairs: list[tuple[int, int, bool]],
    target: int,
    rng: random.Random,
    budget: list[int],
) -> list[Row]:
    used: dict[tuple[int, int], set[int]] = {(i, j): {0} for i, j, _ in pairs}
    zero_only = {(i, j) for i, j, flag in pairs if flag}
    rows: list[Row] = [(0,) * columns]
    values = list(range(m))
    while len(rows) < target:
        row = _next_row(m, columns, used, zero_only, values, rng, budget)
        if row is None:
            break
        rows.append(row)
        for i, j, _ in pairs:
            used[(i, j)].add((row[j] - row[i]) % m)
    return rows


def _next_row(
    m: int,
    columns: int,
    used: dict[tuple[int, int], set[int]],
    zero_only: set[tuple[int, int]],
    values: list[int],
    rng: random.Random,
    budget: list[int],
) -> Row | None:
    row = [0]
    nodes = 0

    def candidates(k: int) -> list[int]:
        forbidden: set[int] = set()
        for i in range(k):
            if (i, k) in zero_only:
                forbidden.add(row[i])
            else:
                forbidden.update((row[i] + d) % m for d in used[(i, k)])
        free = [v for v in values if v not in forbidden]
        rng.shuffle(free)
        return free

    def extend(k: int) -> bool:
        nonlocal nodes
        if k == columns:
            return True
        nodes += 1
        budget[0] -= 1
        if nodes > ROW_NODES or budget[0] <= 0:
            return False
        for v in candidates(k):
            row.append(v)
            if extend(k + 1):
                return True
            row.pop()
        return False

    return tuple(row) if extend(1) else None


# --------------------------------------------------------------------------- sit-outs
Entity = tuple[int, int]  # (line, member); member m is the line's "∞" member


def _sitout_columns(
    group: FiniteGroup,
    rows: Sequence[Row],
    substituted: list[int],
    rng: random.Random,
    deadline: float,
) -> list[Row] | None:
    """Backtracking placement of the ∞ members on plain 5-column rows.

    Returns the rows extended by one column per substituted line (the ∞ member's table), or
    None when the node budget or the time runs out. Exact: only pairs that really sit at a
    played table are checked, so it succeeds where the linear columns do not exist.
    """
    m = group.order
    used_pairs: set[tuple[Entity, Entity]] = set()
    sent_out: dict[int, set[int]] = {a: set() for a in substituted}
    placed: list[Row] = []
    nodes = 0

    def occupant(row: Row, tables: dict[int, int], line: int, table: int) -> Entity:
        if tables.get(line) == table:
            return (line, m)
        return (line, group.sub(table, row[line]))

    def new_pairs(row: Row, tables: dict[int, int]) -> list[tuple[Entity, Entity]] | None:
        pairs: list[tuple[Entity, Entity]] = []
        for table in set(tables.values()):
            people = [occupant(row, tables, line, table) for line in range(LINE_COUNT)]
            for i in range(LINE_COUNT):
                for j in range(i + 1, LINE_COUNT):
                    if people[i][1] == m or people[j][1] == m:
                        pair = (min(people[i], people[j]), max(people[i], people[j]))
                        if pair in used_pairs:
                            return None
                        pairs.append(pair)
        return pairs

    def solve(r: int, k: int, tables: dict[int, int]) -> bool:
        nonlocal nodes
        if r == len(rows):
            return True
        nodes += 1
        if nodes % 512 == 0 and time.monotonic() > deadline:
            raise MovementError("the sit-out search ran out of time")
        if nodes > SITOUT_NODES:
            return False
        row = rows[r]
        if k == len(substituted):
            pairs = new_pairs(row, tables)
            if pairs is None:
                return False
            benched = {a: group.sub(t, row[a]) for a, t in tables.items()}
            used_pairs.update(pairs)
            for a, u in benched.items():
                sent_out[a].add(u)
            placed.append(row + tuple(tables[a] for a in substituted))
            if solve(r + 1, 0, {}):
                return True
            placed.pop()
            for a, u in benched.items():
                sent_out[a].discard(u)
            used_pairs.difference_update(pairs)
            return False
        line = substituted[k]
        candidates = [t for t in range(m) if group.sub(t, row[line]) not in sent_out[line]]
        rng.shuffle(candidates)
        for t in candidates:
            # Early pruning: partners whose seat is already known (lines never substituted,
            # or substituted lines placed earlier in this round).
            settled = [
                b for b in range(LINE_COUNT) if b != line and (b not in substituted or b in tables)
            ]
            me = (line, m)
            if any(
                (min(me, other), max(me, other)) in used_pairs
                for other in (occupant(row, tables, b, t) for b in settled)
            ):
                continue
            tables[line] = t
            if solve(r, k + 1, tables):
                return True
            del tables[line]
        return False

    return placed if solve(0, 0, {}) else None


# --------------------------------------------------------------------------- line movement
def _line_movement(tables: int, rounds: int | None, phantoms: int, seed: int) -> Document:
    rng = random.Random(seed)
    deadline = time.monotonic() + SEARCH_SECONDS
    m = tables - 1 if phantoms else tables
    if rounds is not None and rounds > m:
        raise MovementError(
            f"a line movement on {tables} tables has at most {m} rounds here (asked {rounds})"
        )
    columns, substituted = _columns(phantoms)
    group, rows, method = _rows_for(m, columns, rounds, rng, deadline)
    enough = rounds if rounds is not None else min(MIN_LINE_ROUNDS, m)
    if phantoms and len(rows) < enough:
        # No (or too few) ∞ columns: place the ∞ members by backtracking on plain rows,
        # asking for fewer rounds until it succeeds (bounded in nodes).
        group, plain, plain_method = _rows_for(m, LINE_COUNT, rounds, rng, deadline)
        top = rounds if rounds is not None else len(plain)
        bottom = rounds if rounds is not None else max(len(rows) + 1, 3)
        for count in range(top, max(bottom, top - 3) - 1, -1):
            extended = _sitout_columns(group, plain[:count], substituted, rng, deadline)
            if extended is not None:
                rows, method = extended, plain_method + "+sitout-search"
                break
    if rounds is None:
        rounds = len(rows)
    if len(rows) < rounds or rounds < 2:
        raise MovementError(f"no {rounds}-round line movement found for {tables} tables")
    return _line_document(tables, rows[:rounds], substituted, phantoms, group, method, seed)


def _line_document(
    tables: int,
    rows: Sequence[Row],
    substituted: list[int],
    phantoms: int,
    group: FiniteGroup,
    method: str,
    seed: int,
) -> Document:
    m = group.order

    # Ids run line by line (N 1..T, E T+1..2T, ...) over the real slots; the phantom slots
    # come last, so P players bind to slots 1..P.
    slots = [(a, i) for a in range(4) for i in range(tables)]
    ghosts = [(a, m) for a in range(phantoms)]
    ordered = [slot for slot in slots if slot not in ghosts] + ghosts
    ids = {slot: k + 1 for k, slot in enumerate(ordered)}

    def entrant_id(line: int, member: int) -> int:
        return ids[(line, member)]

    entrants = [Entrant(id=ids[(a, i)], line=SEATS[a], phantom=(a, i) in ghosts) for a, i in slots]
    plans: list[RoundPlan] = []
    for r, row in enumerate(rows):
        inverse: dict[tuple[int, int], int] = {}
        for a in range(LINE_COUNT):
            for i in range(m):
                inverse[(a, group.add(i, row[a]))] = i
        benched: dict[int, int] = {}
        for k, a in enumerate(substituted):
            table = row[LINE_COUNT + k]
            benched[a] = inverse[(a, table)]
            inverse[(a, table)] = m
        seatings = []
        for t in range(m):
            seats = {SEATS[a]: entrant_id(a, inverse[(a, t)]) for a in range(4)}
            seatings.append(Seating(t + 1, seats, inverse[(DEAL_LINE, t)] + 1))
        if phantoms:
            # The sit-out table: phantoms, the members sent out, the deal set left out.
            seats = {SEATS[a]: entrant_id(a, benched.get(a, m)) for a in range(4)}
            seatings.append(Seating(tables, seats, tables))
        plans.append(RoundPlan(r + 1, seatings))
    return build_document(
        format="individual",
        kind="line",
        tables=tables,
        deal_sets=tables,
        copies=1,
        entrants=entrants,
        rounds=plans,
        max_meetings=1,
        generator={"name": f"line-{method}", "seed": seed, "phantoms": phantoms},
    )


# --------------------------------------------------------------------------- Howell family
def _balance_seats(
    groups: list[list[int]], counts: dict[int, dict[str, int]]
) -> list[dict[str, int]]:
    """Seat each table's four entrants so that everybody's seat counts stay even."""
    out = []
    for group in groups:
        best: tuple[int, int, tuple[int, ...]] | None = None
        for order in permutations(group):
            cost = [counts[e][SEATS[k]] for k, e in enumerate(order)]
            key = (max(cost), sum(c * c for c in cost), order)
            if best is None or key[:2] < best[:2]:
                best = key
        assert best is not None
        seats = {SEATS[k]: e for k, e in enumerate(best[2])}
        for seat, e in seats.items():
            counts[e][seat] += 1
        out.append(seats)
    return out


def _affine_four(seed: int) -> Document:
    """The affine plane of order 4: 16 players, 5 rounds, every pair meets exactly once."""
    field = galois_field(4)
    groups_by_round: list[list[list[int]]] = []
    for slope in range(5):
        lines: list[list[int]] = []
        for b in range(4):
            if slope == 4:
                points = [(b, y) for y in range(4)]
            else:
                points = [(x, field.add(field.mul(slope, x), b)) for x in range(4)]
            lines.append([4 * x + y + 1 for x, y in points])
        groups_by_round.append(lines)
    counts: dict[int, dict[str, int]] = {e: dict.fromkeys(SEATS, 0) for e in range(1, 17)}
    plans = []
    for r, lines in enumerate(groups_by_round):
        seated = _balance_seats(lines, counts)
        plans.append(
            RoundPlan(r + 1, [Seating(t + 1, s, r + 1, t + 1) for t, s in enumerate(seated)])
        )
    return build_document(
        format="individual",
        kind="howell",
        tables=4,
        deal_sets=5,
        copies=4,
        entrants=[Entrant(id=e) for e in range(1, 17)],
        rounds=plans,
        max_meetings=1,
        generator={"name": "affine-plane-4", "seed": seed},
    )


def _howell_search(
    tables: int, rounds: int, phantoms: int, max_meetings: int, seed: int
) -> Document | None:
    """Seeded search for a Howell movement; phantoms are grouped at the last table."""
    rng = random.Random(seed)
    deadline = time.monotonic() + SEARCH_SECONDS
    slots = 4 * tables
    real = list(range(1, slots - phantoms + 1))
    phantom_ids = list(range(slots - phantoms + 1, slots + 1))
    deal_sets = rounds
    played_tables = tables - 1 if phantoms else tables
    # Three tables are cheap to search: a bigger budget usually reaches 6 rounds.
    restarts = HOWELL_RESTARTS * (4 if tables == 3 else 1)
    for _restart in range(restarts):
        met: dict[tuple[int, int], int] = {}
        byes: dict[int, int] = dict.fromkeys(real, 0)
        last_out: set[int] = set()
        schedule: list[tuple[list[list[int]], list[int]]] = []
        for _round in range(rounds):
            out: list[int] = []
            if phantoms:
                fewest = min(byes.values())
                pool = [e for e in real if byes[e] == fewest and e not in last_out]
                rng.shuffle(pool)
                extra = [e for e in real if byes[e] == fewest + 1 and e not in last_out]
                rng.shuffle(extra)
                out = (pool + extra)[: 4 - phantoms]
                if len(out) < 4 - phantoms:
                    break
            players = [e for e in real if e not in out]
            groups = _fill_tables(players, played_tables, met, max_meetings, rng)
            if groups is None:
                break
            for group in groups:
                for i, a in enumerate(group):
                    for b in group[i + 1 :]:
                        key = (min(a, b), max(a, b))
                        met[key] = met.get(key, 0) + 1
            for e in out:
                byes[e] += 1
            last_out = set(out)
            schedule.append((groups, out))
        if len(schedule) == rounds:
            break
        if time.monotonic() > deadline:
            raise MovementError(f"the Howell search for {tables} tables ran out of time")
    else:
        return None
    counts: dict[int, dict[str, int]] = {e: dict.fromkeys(SEATS, 0) for e in range(1, slots + 1)}
    plans = []
    for r, (groups, out) in enumerate(schedule):
        all_groups = [*groups, out + phantom_ids] if phantoms else groups
        seated = _balance_seats(all_groups, counts)
        plans.append(
            RoundPlan(
                r + 1,
                [Seating(t + 1, s, r + 1, t + 1) for t, s in enumerate(seated)],
            )
        )
    entrants = [Entrant(id=e, phantom=e in phantom_ids) for e in range(1, slots + 1)]
    return build_document(
        format="individual",
        kind="howell",
        tables=tables,
        deal_sets=deal_sets,
        copies=tables,
        entrants=entrants,
        rounds=plans,
        max_meetings=max_meetings,
        generator={"name": "howell-search", "seed": seed, "phantoms": phantoms},
    )


def _fill_tables(
    players: list[int],
    table_count: int,
    met: dict[tuple[int, int], int],
    max_meetings: int,
    rng: random.Random,
) -> list[list[int]] | None:
    order = players[:]
    rng.shuffle(order)
    groups: list[list[int]] = [[] for _ in range(table_count)]
    nodes = 0

    def fits(e: int, t: int) -> bool:
        return all(met.get((min(e, o), max(e, o)), 0) < max_meetings for o in groups[t])

    def place(k: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > FILL_NODES:
            return False
        if k == len(order):
            return True
        e = order[k]
        tried_empty = False
        for t in range(table_count):
            if len(groups[t]) == 4 or not fits(e, t):
                continue
            if not groups[t]:
                if tried_empty:
                    continue  # empty tables are interchangeable (same deal set everywhere)
                tried_empty = True
            groups[t].append(e)
            if place(k + 1):
                return True
            groups[t].pop()
        return False

    return groups if place(0) else None


# --------------------------------------------------------------------------- public entry
def generate_individual(
    *,
    tables: int,
    rounds: int | None = None,
    players: int | None = None,
    seed: int = 0,
) -> Document:
    """An individual movement for ``tables`` tables (3..), validated.

    ``players`` defaults to 4·tables; 4·tables - 3 .. 4·tables - 1 adds phantoms.
    ``rounds`` defaults to the longest movement the construction gives.
    """
    if tables < 3:
        raise MovementError("an individual movement needs at least 3 tables")
    slots = 4 * tables
    players = slots if players is None else players
    if not slots - 3 <= players <= slots:
        raise MovementError(f"{tables} tables seat {slots - 3}..{slots} players, not {players}")
    if rounds is not None and rounds < 2:
        raise MovementError("a movement needs at least 2 rounds (hands must be compared)")
    phantoms = slots - players
    doc: Document | None
    if tables == 4 and not phantoms:
        if rounds is not None and rounds > 5:
            raise MovementError("the 4-table affine movement has 5 rounds")
        doc = _affine_four(seed)
        if rounds is not None:
            doc = truncate(doc, rounds)
    elif tables <= 4 or (phantoms and tables <= 7):
        doc = _small_howell(tables, rounds, phantoms, seed)
    else:
        doc = _line_movement(tables, rounds, phantoms, seed)
    return ensure_valid(doc)


def _small_howell(tables: int, rounds: int | None, phantoms: int, seed: int) -> Document:
    # 3 tables: a repeat is unavoidable (max 2). 4 tables with phantoms: the sit-out table
    # makes single meetings too tight for 5 rounds, so 2 is declared as well. 5-7 tables with
    # phantoms: the line construction has too few rounds there; a Howell keeps single meetings.
    max_meetings = 2 if tables <= 4 else 1
    wanted = [rounds] if rounds is not None else [6, 5, 4] if tables == 3 else [5, 4, 3]
    for count in wanted:
        doc = _howell_search(tables, count, phantoms, max_meetings, seed)
        if doc is not None:
            return doc
    raise MovementError(f"no Howell movement found for {tables} tables and {wanted[-1]} rounds")


def truncate(doc: Document, rounds: int) -> Document:
    """The first ``rounds`` rounds of a movement (every hard check survives truncation)."""
    out = dict(doc)
    out["schedule"] = doc["schedule"][:rounds]
    out["rounds"] = len(out["schedule"])
    return out


def ensure_valid(doc: Document) -> Document:
    report = validate(doc)
    if not report.ok:
        details = "; ".join(str(v) for v in report.errors[:5])
        raise MovementError(f"generated movement failed validation: {details}")
    return doc

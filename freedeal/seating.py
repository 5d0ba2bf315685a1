"""Free-deal tournaments (donnes libres): table sizes, re-seating between parties, the ranking.
Pure: it imports no framework and no app (the ``pure`` import contract).

Not duplicate: each table plays its own random deals. A tournament is a number of *parties* of
a fixed number of deals (typically 5 parties of 4 deals); between parties the players are
re-seated so that they meet as few times as possible (docs/domain/duplicate.md).

Table sizes (:func:`table_sizes`)
    Tables of 4; the remainder r of N = 4q + r is absorbed by tables of 5 (r tables of 5 when
    q >= r), else by one table of 3 (r = 3: 7 → 4+3, 11 → 4+4+3) or two (6 → 3+3). So 5 → 5,
    9 → 5+4, 10 → 5+5, 14 → 5+5+4, 15 → 5+5+5. Fewer than 3 players cannot play.

Seating (:func:`seat_parties`)
    Players are numbered 1..N. Two players *meet* when they sit at the same table in a party.
    :func:`meeting_bound` is a lower bound of the maximum number of times a pair meets, the
    largest of: each party holds sum C(s, 2) pair meetings over the C(N, 2) pairs; some player
    meets at least the average number of players per party, over his N - 1 others; and from the
    second party on, a table bigger than the number of tables seats two players who sat
    together in the previous party (pigeonhole), so 2.
    The search is a seeded greedy seating followed by simulated annealing (swaps of two players
    of one party) over a fixed number of steps and restarts, so a seed always gives the same
    seating. Its cost is, per pair, (meetings)² plus a heavy penalty per meeting above the
    bound: with a fixed total of meetings this lowers the most frequent meetings first, then
    maximises the number of distinct pairs that meet. It stops early when the cost reaches its
    lower bound (meetings spread evenly). Tables of 3 or 5 rotate fairly (each player sits at
    one in the floor or the ceiling of the average number of parties) unless that keeps the
    maximum above the bound; then the fairest rotation found among the free searches that reach
    it is kept (14 players over 5 parties: the fair search does not reach 2). Tables are listed
    largest first, players of a table in increasing order.

Ranking (:func:`free_deal_ranking`)
    A player's total is the sum of his marks over the parties. Ties on the total are broken, by
    default (``tie_break="best_party"``), by the better best party (the highest mark of one
    party); players still equal share the place (1, 2, 2, 4). ``tie_break="shared"`` skips the
    best-party rule: equal totals share the place at once.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Generic, TypeVar

MIN_PLAYERS = 3
MAX_PLAYERS = 400
MAX_PARTIES = 30
#: Search budget: restarts per mode (fair rotation, then free) and swap attempts per restart.
RESTARTS = 4
STEPS_PER_RESTART = 20_000
#: Annealing: starting temperature (in pair-cost units).
START_TEMPERATURE = 2.0
#: Extra cost of a pair meeting more often than :func:`meeting_bound` (per excess², in c² units).
EXCESS_PENALTY = 50
TIE_BREAKS = ("best_party", "shared")


class SeatingError(ValueError):
    """A free-deal tournament cannot be seated or ranked with these parameters."""


Party = list[tuple[int, ...]]
Tables = list[list[list[int]]]


# --------------------------------------------------------------------------- table sizes
def table_sizes(players: int) -> tuple[int, ...]:
    """The table sizes for ``players`` players, largest first (see the module docstring)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise SeatingError("the number of players must be a whole number")
    if players < MIN_PLAYERS:
        raise SeatingError(f"a free-deal tournament needs at least {MIN_PLAYERS} players")
    if players > MAX_PLAYERS:
        raise SeatingError(f"a free-deal tournament seats at most {MAX_PLAYERS} players")
    fours, rest = divmod(players, 4)
    if rest == 0:
        return (4,) * fours
    if fours >= rest:
        return (5,) * rest + (4,) * (fours - rest)
    # Not enough tables of 4 to grow: 3, 6, 7 and 11 players use tables of 3.
    threes = 4 - rest  # 4q + r = 4(q + 1 - (4 - r)) + 3(4 - r)
    return (4,) * (fours + 1 - threes) + (3,) * threes


# --------------------------------------------------------------------------- bounds
def _check_parties(parties: int) -> None:
    if isinstance(parties, bool) or not isinstance(parties, int):
        raise SeatingError("the number of parties must be a whole number")
    if not 1 <= parties <= MAX_PARTIES:
        raise SeatingError(f"a free-deal tournament has 1 to {MAX_PARTIES} parties")


def meeting_bound(players: int, parties: int) -> int:
    """A lower bound of the most times any two players meet (see the module docstring)."""
    sizes = table_sizes(players)
    _check_parties(parties)
    pair_meetings = parties * sum(comb(size, 2) for size in sizes)
    by_pairs = -(-pair_meetings // comb(players, 2))
    # Some player meets at least the average number of opponents-seats (2 per pair meeting).
    busiest = -(-2 * pair_meetings // players)
    by_player = -(-busiest // (players - 1))
    # From the second party on, a table bigger than the number of tables takes two players who
    # sat together in the previous party (pigeonhole).
    by_tables = 2 if parties >= 2 and sizes[0] > len(sizes) else 1
    return max(by_pairs, by_player, by_tables)


def distinct_pairs_bound(players: int, parties: int) -> int:
    """An upper bound of the number of distinct pairs that meet at least once."""
    sizes = table_sizes(players)
    _check_parties(parties)
    return min(comb(players, 2), parties * sum(comb(size, 2) for size in sizes))


def _even_square_sum(total: int, buckets: int) -> int:
    """The least sum of squares of ``buckets`` non-negative integers summing to ``total``."""
    low, extra = divmod(total, buckets)
    return (buckets - extra) * low * low + extra * (low + 1) * (low + 1)


def meeting_counts(seating: Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How many times each pair (low, high) met over the parties (pairs that never met omitted)."""
    counts: dict[tuple[int, int], int] = {}
    for party in seating:
        for table in party:
            ordered = sorted(table)
            for i, first in enumerate(ordered):
                for second in ordered[i + 1 :]:
                    counts[(first, second)] = counts.get((first, second), 0) + 1
    return counts


# --------------------------------------------------------------------------- search
class _Search:
    """Seating state: tables per party (0-based players), pair counts and odd-table counts."""

    def __init__(
        self, players: int, parties: int, sizes: tuple[int, ...], bound: int, rng: random.Random
    ):
        self.players = players
        # weight[c]: a pair's cost after c meetings, c² plus a penalty above the bound.
        self.weight = [c * c + EXCESS_PENALTY * max(0, c - bound) ** 2 for c in range(parties + 2)]
        self.up = [self.weight[c + 1] - self.weight[c] for c in range(parties + 1)]
        self.down = [0] + [self.weight[c - 1] - self.weight[c] for c in range(1, parties + 1)]
        self.sizes = sizes
        self.odd_table = [size != 4 for size in sizes]
        self.rng = rng
        self.counts = [[0] * players for _ in range(players)]
        self.odd = [0] * players  # parties each player spent at a table of 3 or 5
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []  # where[party][player] = table index
        for _ in range(parties):
            self._greedy_party()

    def _greedy_party(self) -> None:
        """Seat one more party: odd tables to the players who had the fewest, then greedily."""
        order = list(range(self.players))
        self.rng.shuffle(order)
        order.sort(key=lambda p: self.odd[p])
        odd_seats = sum(size for size in self.sizes if size != 4)
        at_odd = set(order[:odd_seats])
        # Hardest first: the players who already met the most distinct people.
        order.sort(key=lambda p: -sum(1 for c in self.counts[p] if c))
        tables: list[list[int]] = [[] for _ in self.sizes]
        for player in order:
            best: tuple[int, int] | None = None
            choice = 0
            for index, table in enumerate(tables):
                if len(table) >= self.sizes[index] or self.odd_table[index] != (player in at_odd):
                    continue
                row = self.counts[player]
                key = (sum(self.up[row[other]] for other in table), self.rng.randrange(1 << 16))
                if best is None or key < best:
                    best, choice = key, index
            tables[choice].append(player)
        where = [0] * self.players
        for index, table in enumerate(tables):
            for player in table:
                where[player] = index
                if self.odd_table[index]:
                    self.odd[player] += 1
            for i, first in enumerate(table):
                for second in table[i + 1 :]:
                    self.counts[first][second] += 1
                    self.counts[second][first] += 1
        self.tables.append(tables)
        self.where.append(where)

    def cost(self) -> int:
        return sum(
            self.weight[self.counts[a][b]]
            for a in range(self.players)
            for b in range(a + 1, self.players)
        )

    def _delta(self, party: int, a: int, b: int) -> int:
        """Change of the pair cost if ``a`` and ``b`` (of different tables) swap in ``party``."""
        ta, tb = self.where[party][a], self.where[party][b]
        tables = self.tables[party]
        row_a, row_b = self.counts[a], self.counts[b]
        change = 0
        for other in tables[ta]:
            if other != a:
                change += self.down[row_a[other]] + self.up[row_b[other]]
        for other in tables[tb]:
            if other != b:
                change += self.down[row_b[other]] + self.up[row_a[other]]
        return change

    def _swap(self, party: int, a: int, b: int) -> None:
        ta, tb = self.where[party][a], self.where[party][b]
        tables = self.tables[party]
        for other in tables[ta]:
            if other != a:
                self.counts[a][other] -= 1
                self.counts[other][a] -= 1
                self.counts[b][other] += 1
                self.counts[other][b] += 1
        for other in tables[tb]:
            if other != b:
                self.counts[b][other] -= 1
                self.counts[other][b] -= 1
                self.counts[a][other] += 1
                self.counts[other][a] += 1
        if self.odd_table[ta] != self.odd_table[tb]:
            shift = 1 if self.odd_table[tb] else -1
            self.odd[a] += shift
            self.odd[b] -= shift
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        self.where[party][a], self.where[party][b] = tb, ta

    def snapshot(self) -> Tables:
        return [[list(table) for table in tables] for tables in self.tables]

    def _partner_party(self, party: int, a: int, b: int) -> int | None:
        """Another party where ``b`` sits at an odd table and ``a`` at a table of 4, if any."""
        candidates = [
            other
            for other in range(len(self.tables))
            if other != party
            and self.odd_table[self.where[other][b]]
            and not self.odd_table[self.where[other][a]]
        ]
        return self.rng.choice(candidates) if candidates else None

    def anneal(self, steps: int, floor: int, fair: bool) -> tuple[int, Tables]:
        """Simulated annealing over swaps, cooling linearly; the best state seen and its cost.

        With ``fair``, every move keeps each player's number of parties at a table of 3 or 5
        (fair from the greedy start): two players of tables of the same kind swap in one party;
        a player leaving a table of 3 or 5 for a table of 4 in one party takes it back from the
        other player in another party. Without, any two players of one party may swap. Stops
        as soon as the cost reaches ``floor`` (its lower bound).
        """
        energy = self.cost()
        best = (energy, self.snapshot())
        if len(self.sizes) < 2:
            return best
        parties = len(self.tables)
        for step in range(steps):
            if best[0] <= floor:
                break
            temperature = START_TEMPERATURE * (1 - step / steps)
            party = self.rng.randrange(parties)
            a, b = self.rng.sample(range(self.players), 2)
            ta, tb = self.where[party][a], self.where[party][b]
            if ta == tb:
                continue
            second: int | None = None
            if fair and self.odd_table[ta] != self.odd_table[tb]:
                if self.odd_table[tb]:
                    a, b = b, a  # a leaves the table of 3 or 5
                second = self._partner_party(party, a, b)
                if second is None:
                    continue
            change = self._delta(party, a, b)
            if second is not None:
                self._swap(party, a, b)
                change += self._delta(second, a, b)
            if change > 0 and (
                temperature <= 0 or self.rng.random() >= math.exp(-change / temperature)
            ):
                if second is not None:
                    self._swap(party, a, b)  # undo
                continue
            if second is None:
                self._swap(party, a, b)
            else:
                self._swap(second, a, b)
            energy += change
            if energy < best[0]:
                best = (energy, self.snapshot())
        return best


def _seating(state: Tables) -> list[Party]:
    """Player numbers from 1, tables largest first, each table in increasing order."""
    result: list[Party] = []
    for tables in state:
        rows = [tuple(sorted(player + 1 for player in table)) for table in tables]
        rows.sort(key=lambda row: (-len(row), row))
        result.append(rows)
    return result


def seat_parties(players: int, parties: int, seed: int = 0) -> list[Party]:
    """The tables of each party (player numbers 1..N), meeting as few times as possible.

    Deterministic for a seed; the work is bounded by 2 × :data:`RESTARTS` ×
    :data:`STEPS_PER_RESTART` swap attempts (see the module docstring for the objective).
    """
    sizes = table_sizes(players)
    _check_parties(parties)
    pair_meetings = parties * sum(comb(size, 2) for size in sizes)
    floor = _even_square_sum(pair_meetings, comb(players, 2))
    bound = meeting_bound(players, parties)
    rng = random.Random(seed)
    best: tuple[tuple[int, int, int], list[Party]] | None = None
    for fair in (True, False):
        for _ in range(RESTARTS):
            search = _Search(players, parties, sizes, bound, random.Random(rng.randrange(1 << 30)))
            cost, state = search.anneal(STEPS_PER_RESTART, floor, fair)
            seating = _seating(state)
            key = (max(meeting_counts(seating).values(), default=0), _odd_spread(seating), cost)
            if best is None or key < best[0]:
                best = (key, seating)
            if key[0] <= bound and cost <= floor:
                break
        if best is not None and best[0][0] <= bound:
            break  # the fair rotation reaches the bound: no need to give it up
    assert best is not None
    return best[1]


def _odd_spread(seating: list[Party]) -> int:
    """Most minus fewest parties a player spends at a table of 3 or 5."""
    odd = Counter(p for party in seating for table in party if len(table) != 4 for p in table)
    players = sum(len(table) for table in seating[0])
    counts = [odd.get(player, 0) for player in range(1, players + 1)]
    return max(counts) - min(counts)


# --------------------------------------------------------------------------- ranking
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class RankingRow(Generic[K]):
    """One player's line: place (shared on a full tie), total, best party, marks per party."""

    place: int
    player: K
    total: int
    best_party: int
    parties: tuple[int, ...]
    tied: bool = False


def free_deal_ranking(
    marks: Mapping[K, Sequence[int]], tie_break: str = "best_party"
) -> list[RankingRow[K]]:
    """Rank players by the sum of their marks per party (tie-break: see the module docstring).

    Players who remain equal keep the mapping's order and share the place.
    """
    if tie_break not in TIE_BREAKS:
        raise SeatingError(f"unknown tie-break {tie_break!r} ({', '.join(TIE_BREAKS)})")
    lines: list[tuple[K, tuple[int, ...]]] = []
    for player, per_party in marks.items():
        values = tuple(per_party)
        if not values:
            raise SeatingError(f"player {player!r} has no party marks")
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise SeatingError(f"player {player!r}: marks must be whole numbers")
        lines.append((player, values))

    def key(line: tuple[K, tuple[int, ...]]) -> tuple[int, ...]:
        values = line[1]
        if tie_break == "best_party":
            return (-sum(values), -max(values))
        return (-sum(values),)

    ordered = sorted(lines, key=key)
    keys = [key(line) for line in ordered]
    rows: list[RankingRow[K]] = []
    for index, (player, values) in enumerate(ordered):
        place = index + 1
        if index and keys[index] == keys[index - 1]:
            place = rows[-1].place
        tied = (index > 0 and keys[index] == keys[index - 1]) or (
            index + 1 < len(ordered) and keys[index] == keys[index + 1]
        )
        rows.append(
            RankingRow(
                place=place,
                player=player,
                total=sum(values),
                best_party=max(values),
                parties=values,
                tied=tied,
            )
        )
    return rows

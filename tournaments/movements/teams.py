"""Team movements: triplette pools and quadrette matches.

Conventions (documented in the document itself by the extra key ``taker_seat``)
- The étuis of a team event name **N** as the taker seat (``TEAM_TAKER_SEAT``); the member of
  the taking team sits N, the three defenders (one team) sit E, S, W.
- Entrants are team members: team k (1..n) owns entrant ids ``size·(k-1)+1 .. size·k``
  (size 3 for triplettes, 4 for quadrettes) with ``team = k``.
- Every table of a round plays the same deal set (deal set = round), one copy per table, so the
  whole field is compared on every deal.

Triplettes (kind ``pools``)
    Teams are grouped in pools of 4 on 3 tables (pool q uses tables 3q+1..3q+3). In round r
    (1..4) the r-th team of each pool splits up: its member j takes at the pool's table j; the
    other three teams each defend at one table. Over 4 rounds every team supplies the takers
    once and defends once against a member of each other team. Team counts that are not a
    multiple of 4 get phantom teams (spread over the pools); a table with a phantom is a
    sit-out table. max_meetings is 2 (a pair of opponents meets once each way).

Quadrettes (kind ``matches``)
    A match A–B uses two tables: A's taker (member ``round mod 4`` of A) sits N at the first
    table facing the other three members of B, and B's taker sits N at the second table facing
    the other three members of A. Pairings: round robin by the circle method (an odd count
    gives a bye team each round) or, with fewer rounds than a round robin needs, Swiss pairing
    by maximum-weight matching without rematches (:func:`pair_swiss_round`): pre-paired here
    (every round at the start, from seeded random orders), or live, each round from the
    standings of the previous one (:mod:`.swiss`, ``docs/swiss.md``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]

from .document import (
    TEAM_TAKER_SEAT,
    Document,
    Entrant,
    MovementError,
    RoundPlan,
    Seating,
    build_document,
)
from .individual import ensure_valid

DEFENDER_SEATS = ("E", "S", "W")
SWISS_ATTEMPTS = 40


# --------------------------------------------------------------------------- triplettes
def generate_triplette(*, teams: int, seed: int = 0) -> Document:
    """Triplette pools for ``teams`` teams (≥ 3); 4k teams need no phantom team."""
    if teams < 3:
        raise MovementError("a triplette event needs at least 3 teams")
    pools = -(-teams // 4)
    slots = 4 * pools
    phantom_teams = slots - teams
    # Pool q holds teams at pool positions; phantom teams go last, one per pool first.
    pool_members: list[list[int]] = [[] for _ in range(pools)]
    real_iter = iter(range(1, teams + 1))
    phantom_iter = iter(range(teams + 1, slots + 1))
    phantom_in_pool = [0] * pools
    for k in range(phantom_teams):
        phantom_in_pool[k % pools] += 1
    for q in range(pools):
        reals = 4 - phantom_in_pool[q]
        pool_members[q] = [next(real_iter) for _ in range(reals)]
        pool_members[q] += [next(phantom_iter) for _ in range(phantom_in_pool[q])]

    def member(team: int, j: int) -> int:
        return 3 * (team - 1) + j + 1

    plans = []
    for r in range(4):
        seatings: list[Seating] = []
        for q, pool in enumerate(pool_members):
            takers = pool[r]
            defenders = [pool[(r + k) % 4] for k in (1, 2, 3)]
            for j in range(3):
                table = 3 * q + j + 1
                defending = defenders[(j + r) % 3]
                seats = {TEAM_TAKER_SEAT: member(takers, j)}
                for k, seat in enumerate(DEFENDER_SEATS):
                    seats[seat] = member(defending, (k + r) % 3)
                seatings.append(Seating(table, seats, r + 1, table))
        plans.append(RoundPlan(r + 1, seatings))
    entrants = [
        Entrant(id=member(team, j), team=team, phantom=team > teams)
        for team in range(1, slots + 1)
        for j in range(3)
    ]
    doc = build_document(
        format="triplette",
        kind="pools",
        tables=3 * pools,
        deal_sets=4,
        copies=3 * pools,
        entrants=entrants,
        rounds=plans,
        max_meetings=2,
        taker_seat=TEAM_TAKER_SEAT,
        generator={"name": "triplette-pools", "seed": seed, "phantom_teams": phantom_teams},
    )
    return ensure_valid(doc)


# --------------------------------------------------------------------------- pairings
@dataclass(frozen=True)
class Pairing:
    """One round of matches: (home, away) team pairs and the team with a bye, if any."""

    matches: list[tuple[int, int]]
    bye: int | None = None


def circle_pairings(teams: int) -> list[Pairing]:
    """Round robin by the circle method: n-1 rounds (n even) or n rounds with a bye (n odd)."""
    ring: list[int | None] = list(range(1, teams + 1))
    if teams % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for _ in range(n - 1):
        matches: list[tuple[int, int]] = []
        bye = None
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                matches.append((a, b))
        rounds.append(Pairing(matches, bye))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _balance_adjustment(a: int, b: int, balance: Mapping[int, int], scale: int) -> int:
    """The weight adjustment of the match a–b for the room balance (home minus away counts).

    The best orientation sends the team with the lower balance home: 0 when both teams stay
    within ±1, -1 (a tie-break) when one reaches ±2, ``-scale·n²``-like (given as ``scale``)
    when one would reach ±3.
    """
    low, high = sorted((balance.get(a, 0), balance.get(b, 0)))
    worst = max(abs(low + 1), abs(high - 1))
    if worst <= 1:
        return 0
    if worst == 2:
        return -1
    return -scale


def pair_swiss_round(
    standings: Sequence[int],
    previous_pairs: Iterable[tuple[int, int]],
    previous_byes: Iterable[int] = (),
    balance: Mapping[int, int] | None = None,
) -> Pairing:
    """Pair the next Swiss round: closest standings first, no rematch.

    ``standings`` lists every team, best first. With an odd count the bye goes to a team that
    has had the fewest byes, the lowest-placed first. Maximum-weight matching (networkx) with
    weight ``big - (rank gap)²`` keeps every team paired if at all possible. ``balance`` (each
    team's home minus away matches, live Swiss) refines it: the weights are scaled by n + 1
    and a match that would push a team to ±2 loses 1 (a tie-break among equally close
    pairings), one that would push a team to ±3 loses n²·(n + 1) (avoided whenever another
    pairing exists). Raises :class:`MovementError` when no rematch-free pairing exists.
    """
    order = list(standings)
    if len(set(order)) != len(order):
        raise MovementError("standings list a team twice")
    met = {frozenset(p) for p in previous_pairs}
    bye_count: dict[int, int] = dict.fromkeys(order, 0)
    for team in previous_byes:
        if team in bye_count:
            bye_count[team] += 1
    rank = {team: i for i, team in enumerate(order)}
    n = len(order)
    big = 4 * n * n + 1
    graph = nx.Graph()
    graph.add_nodes_from(order)
    scale = 1 if balance is None else n + 1
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if frozenset((a, b)) not in met:
                weight = scale * (big - (rank[a] - rank[b]) ** 2)
                if balance is not None:
                    weight += _balance_adjustment(a, b, balance, scale * n * n)
                graph.add_edge(a, b, weight=weight)
    bye_node = 0
    if n % 2:
        fewest = min(bye_count.values())
        for team in order:
            if bye_count[team] == fewest:
                graph.add_edge(bye_node, team, weight=scale * (big - (n - rank[team]) ** 2))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    expected = (n + 1) // 2
    if len(matching) != expected:
        raise MovementError("no Swiss pairing without a rematch exists for this round")
    matches: list[tuple[int, int]] = []
    bye = None
    for a, b in matching:
        if bye_node in (a, b):
            bye = b if a == bye_node else a
        else:
            first, second = sorted((a, b), key=lambda t: rank[t])
            matches.append((first, second))
    matches.sort(key=lambda m: rank[m[0]])
    return Pairing(matches, bye)


def _pre_pair_swiss(teams: int, rounds: int, rng: random.Random) -> list[Pairing] | None:
    """All rounds paired in advance (no standings yet): seeded order, no rematch."""
    for _attempt in range(SWISS_ATTEMPTS):
        order = list(range(1, teams + 1))
        rng.shuffle(order)
        pairs: list[tuple[int, int]] = []
        byes: list[int] = []
        result: list[Pairing] = []
        try:
            for _ in range(rounds):
                pairing = pair_swiss_round(order, pairs, byes)
                result.append(pairing)
                pairs.extend(pairing.matches)
                if pairing.bye is not None:
                    byes.append(pairing.bye)
                rng.shuffle(order)
        except MovementError:
            continue
        return result
    return None


# --------------------------------------------------------------------------- quadrettes
def generate_quadrette(*, teams: int, rounds: int | None = None, seed: int = 0) -> Document:
    """Quadrette matches for ``teams`` teams (≥ 2): round robin, or Swiss with fewer rounds."""
    if teams < 2:
        raise MovementError("a quadrette event needs at least 2 teams")
    full = teams - 1 if teams % 2 == 0 else teams
    if rounds is not None and not 1 <= rounds <= full:
        raise MovementError(f"{teams} teams play 1..{full} rounds without a rematch")
    if rounds is None or rounds == full:
        pairings, method = circle_pairings(teams), "round-robin"
    else:
        pre = _pre_pair_swiss(teams, rounds, random.Random(seed))
        pairings, method = (
            (pre, "swiss")
            if pre is not None
            else (circle_pairings(teams)[:rounds], "round-robin-prefix")
        )
    return quadrette_document(teams, pairings, seed=seed, method=method)


def quadrette_document(
    teams: int,
    pairings: Sequence[Pairing],
    *,
    seed: int = 0,
    method: str = "given",
    deal_sets: int | None = None,
) -> Document:
    """The movement of given match pairings (used by Swiss events round after round too).

    Round r plays deal set r; ``deal_sets`` (default: one per round given) may be larger, for a
    live Swiss movement whose later rounds are paired during the event (:mod:`.swiss`).
    """

    def member(team: int, j: int) -> int:
        return 4 * (team - 1) + j % 4 + 1

    tables = 2 * (teams // 2)
    plans = []
    for r, pairing in enumerate(pairings):
        if len(pairing.matches) * 2 != tables:
            raise MovementError(f"round {r + 1} must pair every team but one at most")
        taker = r % 4
        seatings = []
        for i, (a, b) in enumerate(pairing.matches):
            for k, (takers, defenders) in enumerate(((a, b), (b, a))):
                table = 2 * i + k + 1
                seats = {TEAM_TAKER_SEAT: member(takers, taker)}
                for s, seat in enumerate(DEFENDER_SEATS):
                    seats[seat] = member(defenders, taker + 1 + (s + r) % 3)
                seatings.append(Seating(table, seats, r + 1, table))
        byes = [member(pairing.bye, j) for j in range(4)] if pairing.bye is not None else []
        plans.append(RoundPlan(r + 1, seatings, byes))
    entrants = [
        Entrant(id=member(team, j), team=team) for team in range(1, teams + 1) for j in range(4)
    ]
    doc = build_document(
        format="quadrette",
        kind="matches",
        tables=tables,
        deal_sets=len(plans) if deal_sets is None else deal_sets,
        copies=tables,
        entrants=entrants,
        rounds=plans,
        max_meetings=1,
        taker_seat=TEAM_TAKER_SEAT,
        generator={"name": f"quadrette-{method}", "seed": seed},
    )
    return ensure_valid(doc)

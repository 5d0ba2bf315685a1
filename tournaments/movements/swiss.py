"""Live Swiss pairing of quadrette events: each round is paired from the standings of the last.

Pure (no Django). A *live* Swiss movement is an ordinary quadrette movement document (kind
``matches``) holding only the rounds paired so far, plus the documented extra key ``swiss``::

    "swiss": {"mode": "live", "rounds": R, "teams": n, "seed": s,
              "paired": [{"round": 1, "matches": [[home, away], ...], "bye": null,
                          "standings": null}, ...]}

- ``rounds`` (R) is the number of rounds the event plays; ``deal_sets`` is R from the start (the
  deals of every round are prepared before the event starts), the document's own ``rounds`` and
  ``schedule`` count the rounds paired so far (1..k), so the validator and every reader see a
  complete, valid movement of k rounds. Rounds k+1..R are *pending*
  (``Schedule.pending_rounds``): round r+1 is paired when the director closes round r.
- ``paired`` is the pairing history, round by round: the matches as (home, away) team numbers
  (team k owns the entrant slots ``4(k-1)+1 .. 4k`` of the generator), the bye team and the
  standings order the round was paired from (``null`` for round 1).

The algorithm
-------------
1. **Round 1** is drawn: the teams are shuffled with ``random.Random(seed)`` (the movement's
   seed: the same seed gives the same draw) and paired in the order drawn (1st–2nd, 3rd–4th…),
   the last one drawn having the bye when the count is odd.
2. **Round r+1** (:func:`pair_next_round`) is paired from the standings after round r (every
   team, best first) by :func:`~.teams.pair_swiss_round`: a maximum-weight matching of the
   teams that have not met, weight ``big - (gap in the standings)²``, with maximum cardinality
   (everybody is paired when at all possible), so the closest standings are preferred (with no
   constraint, 1st–2nd, 3rd–4th…); an odd count gives the bye to the lowest-placed team among
   those with the fewest byes (nobody gets a second bye before everybody had one).
3. **Room balance**: in a quadrette match the *home* team's taker sits North at the match's
   first (lower-numbered) table and the away team's at the second. A team's *balance* is its
   home matches minus its away matches. :func:`orient`: of the two teams, home is the one with
   the lower balance; on equal balances the one that was away in its last match (so that a
   team alternates); else the better placed. The matching itself takes the balance into
   account second to the standings (``pair_swiss_round(..., balance=)``): among equally close
   pairings it prefers those keeping every balance within ±1, and it avoids any match that
   would push a team to ±3 whenever another rematch-free pairing exists. So every team's
   balance stays within ±2 (tests check it), mostly within ±1.
4. The matches take tables 1–2, 3–4… in the order of the standings of their home or away team
   (the top match at tables 1–2); the members seated follow the generator's rotation (the
   taker of round r is member ``(r-1) mod 4`` of each team, see :mod:`.teams`).

Guarantee: with R ≤ ⌈n/2⌉ rounds (:func:`max_live_rounds`) a rematch-free pairing always exists,
whatever the results: after k < R rounds every team has met at most k others, so in the graph of
possible matches (plus a bye node for an odd count) every vertex has degree ≥ half the vertex
count, which has a Hamiltonian cycle (Dirac) and so a perfect matching. More rounds are only
possible pre-paired (the whole movement searched at the start).

A team's current members are read from the document itself, so a substitute or a withdrawal
written into the movement (``tournaments.services.late_changes``) keeps its seat in the rounds
paired later: a team's members are its slots seated in the last round it played.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .document import TEAM_TAKER_SEAT, Document, MovementError
from .individual import ensure_valid
from .teams import DEFENDER_SEATS, Pairing, pair_swiss_round, quadrette_document

LIVE = "live"
PREPAIRED = "prepaired"
MODES = (LIVE, PREPAIRED)
SWISS_KEY = "swiss"
#: Late changes starting at a round not paired yet: [{"slot", "by", "from_round"}].
REPLACEMENTS_KEY = "replacements"


def max_live_rounds(teams: int) -> int:
    """The most rounds a live Swiss of ``teams`` teams can always pair without a rematch."""
    return (teams + 1) // 2


@dataclass(frozen=True)
class PairedRound:
    """One paired round: its matches as (home, away), its bye team, the standings it used."""

    round: int
    matches: tuple[tuple[int, int], ...]
    bye: int | None = None
    standings: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "matches": [list(match) for match in self.matches],
            "bye": self.bye,
            "standings": None if self.standings is None else list(self.standings),
        }


@dataclass(frozen=True)
class LiveSwiss:
    """The ``swiss`` key of a live document, read."""

    rounds: int
    teams: int
    seed: int
    paired: tuple[PairedRound, ...]

    @property
    def paired_count(self) -> int:
        return len(self.paired)

    @property
    def pending(self) -> tuple[int, ...]:
        """The round numbers not paired yet."""
        return tuple(range(self.paired_count + 1, self.rounds + 1))

    def met(self) -> list[tuple[int, int]]:
        return [match for rnd in self.paired for match in rnd.matches]

    def byes(self) -> list[int]:
        return [rnd.bye for rnd in self.paired if rnd.bye is not None]


def live_swiss(doc: Document | None) -> LiveSwiss | None:
    """The live Swiss state of a movement document, or None (not a live Swiss movement)."""
    if not doc:
        return None
    raw = doc.get(SWISS_KEY)
    if not isinstance(raw, dict) or raw.get("mode") != LIVE:
        return None
    paired = tuple(
        PairedRound(
            round=int(item["round"]),
            matches=tuple((int(a), int(b)) for a, b in item["matches"]),
            bye=None if item.get("bye") is None else int(item["bye"]),
            standings=None
            if item.get("standings") is None
            else tuple(int(t) for t in item["standings"]),
        )
        for item in raw.get("paired", [])
    )
    return LiveSwiss(
        rounds=int(raw["rounds"]), teams=int(raw["teams"]), seed=int(raw.get("seed", 0)),
        paired=paired,
    )  # fmt: skip


def live_problem(doc: Document | None) -> str | None:
    """Why the ``swiss`` key of a (valid) document is unusable, or None (also None for a
    movement that is not live Swiss). Checks what the pairing relies on: the paired rounds
    are the schedule's rounds 1..k, the teams those of the entrants, every round has a deal
    set."""
    if not doc or not isinstance(doc.get(SWISS_KEY), dict):
        return None
    try:
        state = live_swiss(doc)
    except (KeyError, TypeError, ValueError) as exc:
        return f"swiss: unreadable ({exc})"
    if state is None:
        return None if doc[SWISS_KEY].get("mode") in MODES else "swiss: unknown mode"
    numbers = [int(r.get("round", 0)) for r in doc.get("schedule", [])]
    if [r.round for r in state.paired] != numbers or numbers != list(range(1, len(numbers) + 1)):
        return "swiss: the paired rounds differ from the schedule's rounds"
    if not len(numbers) <= state.rounds <= int(doc.get("deal_sets", 0)):
        return "swiss: more rounds than deal sets"
    teams = {e.get("team") for e in doc.get("entrants", [])}
    if teams != set(range(1, state.teams + 1)):
        return "swiss: the teams differ from the entrants' teams"
    for rnd in state.paired:
        listed = [t for m in rnd.matches for t in m] + ([rnd.bye] if rnd.bye else [])
        if sorted(listed) != list(range(1, state.teams + 1)):
            return f"swiss: round {rnd.round} does not pair every team once"
    return None


# --------------------------------------------------------------------------- pairing


def balances(history: Sequence[PairedRound]) -> dict[int, int]:
    """Each team's home matches minus its away matches over ``history``."""
    balance: dict[int, int] = {}
    for rnd in history:
        for home, away in rnd.matches:
            balance[home] = balance.get(home, 0) + 1
            balance[away] = balance.get(away, 0) - 1
    return balance


def orient(
    pairing: Pairing, history: Sequence[PairedRound], standings: Sequence[int]
) -> tuple[tuple[int, int], ...]:
    """The matches of ``pairing`` as (home, away) by the room balance (module docstring, 3.)."""
    rank = {team: i for i, team in enumerate(standings)}
    balance = balances(history)
    last_home: dict[int, bool] = {}
    for rnd in history:
        for home, away in rnd.matches:
            last_home[home], last_home[away] = True, False

    def key(team: int) -> tuple[int, int, int]:
        # smaller is "more due to be home"
        return (balance.get(team, 0), 1 if last_home.get(team, False) else 0, rank[team])

    return tuple(
        (a, b) if key(a) <= key(b) else (b, a)
        for a, b in pairing.matches  # already in the order of the standings
    )


def draw_first_round(teams: int, seed: int) -> PairedRound:
    """Round 1: the teams in a random order drawn with ``seed``, paired 1st–2nd, 3rd–4th…"""
    if teams < 2:
        raise MovementError("a quadrette event needs at least 2 teams")
    order = list(range(1, teams + 1))
    random.Random(seed).shuffle(order)
    matches = tuple((order[i], order[i + 1]) for i in range(0, teams - 1, 2))
    bye = order[-1] if teams % 2 else None
    return PairedRound(round=1, matches=matches, bye=bye, standings=None)


def next_pairing(state: LiveSwiss, standings: Sequence[int]) -> PairedRound:
    """The pairing of the next round from ``standings`` (every team, best first)."""
    if not state.pending:
        raise MovementError(f"all {state.rounds} rounds are paired")
    if sorted(standings) != list(range(1, state.teams + 1)):
        raise MovementError(f"the standings must list teams 1..{state.teams} once each")
    pairing = pair_swiss_round(standings, state.met(), state.byes(), balances(state.paired))
    return PairedRound(
        round=state.paired_count + 1,
        matches=orient(pairing, state.paired, standings),
        bye=pairing.bye,
        standings=tuple(standings),
    )


# --------------------------------------------------------------------------- documents


def live_document(*, teams: int, rounds: int, seed: int = 0) -> Document:
    """A live Swiss movement: round 1 drawn, rounds 2..``rounds`` pending."""
    if teams < 3:
        raise MovementError("live Swiss pairing needs at least 3 teams")
    limit = max_live_rounds(teams)
    if not 1 <= rounds <= limit:
        raise MovementError(
            f"live Swiss pairing of {teams} teams plays 1..{limit} rounds (more only pre-paired)"
        )
    first = draw_first_round(teams, seed)
    doc = quadrette_document(
        teams,
        [Pairing(list(first.matches), first.bye)],
        seed=seed,
        method="swiss-live",
        deal_sets=rounds,
    )
    doc[SWISS_KEY] = {
        "mode": LIVE,
        "rounds": rounds,
        "teams": teams,
        "seed": seed,
        "paired": [first.to_dict()],
    }
    return ensure_valid(doc)


def _current_members(doc: Document, team: int, round_number: int) -> list[int]:
    """The team's four slots for round ``round_number``: those seated in the last round it
    played (substitutes included), each replaced by its substitute when a late change starts
    at a round not paired yet (:func:`replace_in_pending`) on or before ``round_number``."""
    team_slots = {e["id"] for e in doc["entrants"] if e.get("team") == team}
    members: list[int] | None = None
    for raw_round in reversed(doc["schedule"]):
        seated = sorted(
            slot
            for table in raw_round["tables"]
            for slot in table["seats"].values()
            if slot in team_slots
        )
        if seated:
            if len(seated) != 4:
                raise MovementError(f"team {team} has {len(seated)} members seated, not 4")
            members = seated
            break
    if members is None:  # never seated (only byes so far): its original members
        members = [4 * (team - 1) + j + 1 for j in range(4)]
    replacements = sorted(
        doc[SWISS_KEY].get(REPLACEMENTS_KEY, []), key=lambda item: int(item["from_round"])
    )
    for item in replacements:
        if int(item["from_round"]) <= round_number and int(item["slot"]) in members:
            members[members.index(int(item["slot"]))] = int(item["by"])
    return members


def replace_in_pending(doc: Document, slot: int, by: int, from_round: int) -> Document:
    """A copy of the live document where slot ``by`` (already an entrant of the same team)
    takes slot ``slot``'s place in the team from round ``from_round`` on, a round not paired
    yet: the rounds paired later seat ``by`` where the team's rotation seats ``slot``."""
    state = live_swiss(doc)
    if state is None:
        raise MovementError("not a live Swiss movement")
    if not len(state.paired) < from_round <= state.rounds:
        raise MovementError(f"round {from_round} is not a pending round")
    new = copy.deepcopy(doc)
    new[SWISS_KEY].setdefault(REPLACEMENTS_KEY, []).append(
        {"slot": slot, "by": by, "from_round": from_round}
    )
    return ensure_valid(new)


def _round_tables(doc: Document, paired: PairedRound) -> list[dict[str, Any]]:
    """The tables of a new round, as :func:`~.teams.quadrette_document` seats them."""
    r = paired.round - 1
    taker = r % 4
    tables = []
    for i, (home, away) in enumerate(paired.matches):
        for k, (takers, defenders) in enumerate(((home, away), (away, home))):
            table = 2 * i + k + 1
            taking = _current_members(doc, takers, paired.round)
            defending = _current_members(doc, defenders, paired.round)
            seats = {TEAM_TAKER_SEAT: taking[taker % 4]}
            for s, seat in enumerate(DEFENDER_SEATS):
                seats[seat] = defending[(taker + 1 + (s + r) % 3) % 4]
            tables.append(
                {
                    "table": table,
                    "seats": {seat: seats[seat] for seat in ("N", "E", "S", "W")},
                    "deal_set": paired.round,
                    "copy": table,
                }
            )
    return tables


def pair_next_round(doc: Document, standings: Sequence[int]) -> Document:
    """A copy of the live document with its next round paired from ``standings`` (validated).

    ``standings`` lists every team number of the document, best first. Raises
    :class:`MovementError` when the document is not live Swiss, every round is paired, or no
    pairing without a rematch exists.
    """
    state = live_swiss(doc)
    if state is None:
        raise MovementError("not a live Swiss movement")
    paired = next_pairing(state, standings)
    new = copy.deepcopy(doc)
    byes = []
    if paired.bye is not None:
        byes = _current_members(new, paired.bye, paired.round)
    tables = _round_tables(new, paired)
    # entrants of the team never seated again (replaced) sit in the byes, as late changes do
    seated = {slot for table in tables for slot in table["seats"].values()} | set(byes)
    others = sorted(e["id"] for e in new["entrants"] if e["id"] not in seated)
    new["schedule"].append({"round": paired.round, "tables": tables, "byes": sorted(byes + others)})
    new["rounds"] = paired.round
    new[SWISS_KEY]["paired"].append(paired.to_dict())
    return ensure_valid(new)


def unpair_after(doc: Document, round_number: int) -> Document:
    """A copy of the live document without its rounds after ``round_number`` (pending again)."""
    state = live_swiss(doc)
    if state is None:
        raise MovementError("not a live Swiss movement")
    if round_number < 1:
        raise MovementError("round 1 is paired at the start and stays paired")
    new = copy.deepcopy(doc)
    new["schedule"] = [r for r in new["schedule"] if int(r["round"]) <= round_number]
    new["rounds"] = len(new["schedule"])
    new[SWISS_KEY]["paired"] = [
        item for item in new[SWISS_KEY]["paired"] if int(item["round"]) <= round_number
    ]
    return ensure_valid(new)

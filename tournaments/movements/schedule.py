"""The one reader of a stored movement document: typed rounds, tables and plays.

Every module outside the generators and the validator reads a movement through
:class:`Schedule`; nothing else indexes the document's ``schedule``.

Vocabulary (docs/domain/movements.md):

- a :class:`TablePlay` is one table in one round: the entrant slot at each seat and the étui
  (deal set, copy) it plays;
- a table holding a phantom slot is a *sit-out table*: it is listed with its four seats, but
  nobody plays there that round (its real entrants have a bye). This is THE rule of which
  tables play: the phantom flags of the document's ``entrants`` decide it;
- ``byes`` of a round are the entrants not seated at all (for example a quadrette bye team);
- deal set *k* holds deals ``(k-1)·dpr+1 .. k·dpr`` for ``dpr`` deals per round
  (:func:`deal_numbers`, :func:`deal_set_of`).

A *live Swiss* movement (quadrettes, ``swiss.py``) holds only the rounds paired so far: the
later ones are :attr:`Schedule.pending_rounds` (round r+1 is paired when round r closes), and
:attr:`Schedule.planned_rounds` counts them all. Every other movement has no pending round.

The reader trusts a document that passed the validator (the services never store another);
an absent document (``None`` or ``{}``) reads as an empty schedule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .document import SEATS, TEAM_TAKER_SEAT, Entrant


def deal_numbers(deal_set: int, deals_per_round: int) -> range:
    """The deal numbers of deal set ``deal_set``: ``(k-1)·dpr+1 .. k·dpr``."""
    return range((deal_set - 1) * deals_per_round + 1, deal_set * deals_per_round + 1)


def deal_set_of(deal_number: int, deals_per_round: int) -> int:
    """The deal set holding deal ``deal_number``."""
    return (deal_number - 1) // deals_per_round + 1


@dataclass(frozen=True)
class TablePlay:
    """One table in one round: who sits where and which étui it plays."""

    round: int
    table: int
    seats: Mapping[str, int]  # seat -> entrant slot
    deal_set: int
    copy: int
    sits_out: bool  # a phantom is seated: nobody plays at this table this round

    @property
    def plays(self) -> bool:
        return not self.sits_out

    @property
    def slots(self) -> tuple[int, ...]:
        """The slots seated N, E, S, W."""
        return tuple(self.seats[seat] for seat in SEATS)


@dataclass(frozen=True)
class Round:
    """One round (position) of the movement."""

    number: int
    tables: tuple[TablePlay, ...]  # by table number, sit-out tables included
    byes: tuple[int, ...] = ()  # slots not seated at all this round

    @property
    def playing(self) -> tuple[TablePlay, ...]:
        """The tables that really play this round (no phantom seated)."""
        return tuple(play for play in self.tables if play.plays)


@dataclass(frozen=True)
class Schedule:
    """A movement document, read once into typed rounds (see the module docstring)."""

    format: str = ""
    kind: str = ""
    table_count: int = 0
    deal_set_count: int = 0
    copies: int = 0
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    taker_seat: str | None = None  # team formats: the étui's taker seat
    # live Swiss: the rounds not paired yet (each paired when the round before it closes)
    pending_rounds: tuple[int, ...] = ()
    swiss_mode: str = ""  # "live" for a live Swiss movement (the document's ``swiss`` key)
    _by_table: dict[int, tuple[TablePlay, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )

    # ----------------------------------------------------------------------- building

    @classmethod
    def from_document(cls, doc: Mapping[str, Any] | None) -> Schedule:
        """Read a (validated) movement document; ``None`` or ``{}`` gives an empty schedule."""
        if not doc:
            return cls()
        entrants = tuple(
            Entrant(
                id=int(raw["id"]),
                line=raw.get("line"),
                team=None if raw.get("team") is None else int(raw["team"]),
                phantom=bool(raw.get("phantom")),
            )
            for raw in sorted(doc.get("entrants", []), key=lambda raw: int(raw["id"]))
        )
        phantoms = {entrant.id for entrant in entrants if entrant.phantom}
        rounds = []
        for raw_round in doc.get("schedule", []):
            number = int(raw_round["round"])
            tables = []
            for raw in raw_round.get("tables", []):
                seats = {seat: int(raw["seats"][seat]) for seat in SEATS}
                tables.append(
                    TablePlay(
                        round=number,
                        table=int(raw["table"]),
                        seats=seats,
                        deal_set=int(raw["deal_set"]),
                        copy=int(raw.get("copy", 1)),
                        sits_out=any(slot in phantoms for slot in seats.values()),
                    )
                )
            tables.sort(key=lambda play: play.table)
            byes = tuple(sorted(int(slot) for slot in raw_round.get("byes", [])))
            rounds.append(Round(number=number, tables=tuple(tables), byes=byes))
        rounds.sort(key=lambda rnd: rnd.number)
        by_table: dict[int, list[TablePlay]] = {}
        for rnd in rounds:
            for play in rnd.tables:
                by_table.setdefault(play.table, []).append(play)
        taker = doc.get("taker_seat")
        swiss = doc.get("swiss")
        pending: tuple[int, ...] = ()
        if isinstance(swiss, Mapping) and swiss.get("mode") == "live":
            pending = tuple(range(len(rounds) + 1, int(swiss.get("rounds", 0)) + 1))
        return cls(
            format=str(doc.get("format", "")),
            kind=str(doc.get("kind", "")),
            table_count=int(doc.get("tables", 0)),
            deal_set_count=int(doc.get("deal_sets", 0)),
            copies=int(doc.get("copies", 0)),
            entrants=entrants,
            rounds=tuple(rounds),
            taker_seat=str(taker) if taker is not None else None,
            pending_rounds=pending,
            swiss_mode=str(swiss.get("mode", "")) if isinstance(swiss, Mapping) else "",
            _by_table={table: tuple(plays) for table, plays in by_table.items()},
        )

    # ------------------------------------------------------------------------ reading

    def __bool__(self) -> bool:
        return bool(self.rounds)

    @property
    def round_numbers(self) -> list[int]:
        return [rnd.number for rnd in self.rounds]

    @property
    def planned_rounds(self) -> int:
        """Every round of the event: the paired ones and the pending ones (live Swiss)."""
        return len(self.rounds) + len(self.pending_rounds)

    @property
    def live_swiss(self) -> bool:
        """A live Swiss movement (its later rounds are paired during the event)."""
        return self.swiss_mode == "live"

    @property
    def phantom_slots(self) -> frozenset[int]:
        return frozenset(entrant.id for entrant in self.entrants if entrant.phantom)

    @property
    def slots(self) -> frozenset[int]:
        """Every slot of the document, phantoms included."""
        return frozenset(entrant.id for entrant in self.entrants)

    @property
    def real_entrants(self) -> tuple[Entrant, ...]:
        return tuple(entrant for entrant in self.entrants if not entrant.phantom)

    def team_taker_seat(self) -> str:
        """The seat the étuis of a team event name as taker seat (N unless the document says)."""
        return self.taker_seat or TEAM_TAKER_SEAT

    def round(self, number: int) -> Round | None:
        return next((rnd for rnd in self.rounds if rnd.number == number), None)

    def plays(self) -> Iterator[TablePlay]:
        """Every (round, table), sit-out tables included, round by round."""
        for rnd in self.rounds:
            yield from rnd.tables

    def playing(self) -> Iterator[TablePlay]:
        """Every (round, table) where the table really plays."""
        return (play for play in self.plays() if play.plays)

    def plays_of_table(self, table: int) -> tuple[TablePlay, ...]:
        """What ``table`` plays, round by round (its sit-out rounds included)."""
        return self._by_table.get(table, ())

    def play(self, *, table: int, round: int) -> TablePlay | None:
        """``table`` in round ``round``."""
        return next((p for p in self.plays_of_table(table) if p.round == round), None)

    def play_of_deal_set(self, *, table: int, deal_set: int) -> TablePlay | None:
        """The round in which ``table`` plays ``deal_set`` (a table meets a deal set once)."""
        return next((p for p in self.plays_of_table(table) if p.deal_set == deal_set), None)

    def tables_per_deal_set(self) -> Counter[int]:
        """How many real plays each deal set has over the event (Neuberg's N per deal)."""
        return Counter(play.deal_set for play in self.playing())

    def copies_per_deal_set(self) -> dict[int, int]:
        """How many copies of each étui the director prepares: the most tables that really
        play the deal set in one round (they play it at the same time), by deal set."""
        at_once = Counter((play.round, play.deal_set) for play in self.playing())
        copies: dict[int, int] = {}
        for (_, deal_set), tables in at_once.items():
            copies[deal_set] = max(copies.get(deal_set, 0), tables)
        return dict(sorted(copies.items()))

    def playing_count(self, round: int | None = None) -> int:
        """How many (round, table) really play, over the event or in round ``round``."""
        if round is None:
            return sum(1 for _ in self.playing())
        rnd = self.round(round)
        return len(rnd.playing) if rnd is not None else 0

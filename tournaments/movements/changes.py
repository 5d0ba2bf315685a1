"""Late changes to a stored movement: a seat handed over to a new slot from a round on.

Pure (no Django). The document is read through :class:`~.schedule.Schedule` (the one reader)
and written back with the document's own builders (:class:`~.document.Entrant`,
:class:`~.document.Seating`, :class:`~.document.RoundPlan`), so a service never walks the
document's ``schedule`` itself (``tournaments.services.late_changes`` calls :func:`hand_over`).

**Hand-over**: from round *r* on, slot *old*'s seats (its tables, seats and deal sets, round by
round) are held by a **new slot** (the next free id; a phantom for a withdrawal, whose tables
then sit out), and *old* sits in the ``byes``; before *r* the new slot is in the ``byes``.
Every slot stays present once per round, the line and team carry over to the new slot, and no
new meeting appears: the result passes the validator whenever the document did. The other keys
of the document (``max_meetings``, ``taker_seat``, ``generator``, ``swiss``...) are kept.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .document import Document, Entrant, MovementError, RoundPlan, Seating
from .schedule import Schedule


@dataclass(frozen=True)
class HandOver:
    """The changed document and the slot that holds the seats from the round on."""

    document: Document
    slot: int


def hand_over(doc: Mapping[str, Any], *, slot: int, from_round: int, phantom: bool) -> HandOver:
    """A copy of ``doc`` where a new slot (a phantom when ``phantom``) holds slot ``slot``'s
    seats from round ``from_round`` on (see the module docstring). :class:`MovementError` if
    ``slot`` is not an entrant of the document."""
    schedule = Schedule.from_document(doc)
    source = next((entrant for entrant in schedule.entrants if entrant.id == slot), None)
    if source is None:
        raise MovementError(f"slot {slot} is not an entrant of the movement")
    new = max(schedule.slots) + 1
    entrants = [
        *schedule.entrants,
        Entrant(id=new, line=source.line, team=source.team, phantom=phantom),
    ]
    plans = []
    for rnd in schedule.rounds:
        if rnd.number < from_round:
            seatings = [
                Seating(play.table, play.seats, play.deal_set, play.copy) for play in rnd.tables
            ]
            byes = [*rnd.byes, new]
        else:
            seatings = [
                Seating(
                    play.table,
                    {seat: new if held == slot else held for seat, held in play.seats.items()},
                    play.deal_set,
                    play.copy,
                )
                for play in rnd.tables
            ]
            byes = [new if held == slot else held for held in rnd.byes] + [slot]
        plans.append(RoundPlan(rnd.number, seatings, byes))
    document: Document = copy.deepcopy(dict(doc))
    document["entrants"] = [entrant.to_dict() for entrant in sorted(entrants, key=lambda e: e.id)]
    document["schedule"] = [plan.to_dict() for plan in plans]
    return HandOver(document, new)

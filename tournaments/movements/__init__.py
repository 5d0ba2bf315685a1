"""Movements: who sits where, round by round — generated, validated, stored as JSON.

Pure package: no Django import (tests/test_purity.py), mypy strict.

The document (schema ``duplitarot-movement/1``, see docs/domain/movements.md) is a
plain dict with the keys ``schema, format, kind, tables, rounds, seats, deal_sets, copies,
entrants, schedule``. Generators add these documented extra keys (the validator tolerates
extra keys anywhere and reads only these):

- ``max_meetings`` (int): the limit of hard check 6 the movement was built for. The validator
  uses it (warning ``max_meetings_relaxed`` when above the default by kind); otherwise the
  default by kind applies: 2 for a 3-table Howell and for triplette pools, else 1.
- ``taker_seat`` ("N"): team formats only — the seat the étuis name as taker seat; the taking
  team's member sits there, the three defenders of one team on the other seats.
- ``generator`` (object): informational — algorithm name, seed, phantoms.

Vocabulary and invariants
- Entrant ids are abstract slots 1..P; ``phantom`` marks an empty slot. A table holding a
  phantom is a *sit-out table*: it is listed with its four seats (shape check 1) but nobody
  plays there; the real entrants seated there sit out (bye). Phantoms of an individual
  movement are always grouped at one table (table T). ``byes`` lists entrants not seated at
  all (e.g. a quadrette bye team). The quality report counts both kinds of sit-out as byes.
- Every generator validates its document before returning it and raises
  :class:`MovementError` instead of returning a movement with a hard error.
- Generation is deterministic for a given seed; searches are bounded by node counts (and by
  a generous wall-clock safety net that raises).

Public API
- ``generate_individual(*, tables, rounds=None, players=None, seed=0) -> dict``
  tables 3..; players 4·tables-3 .. 4·tables (phantoms fill the rest). 3 tables: Howell
  search (max_meetings 2); 4 tables: affine plane of order 4 (5 rounds, all pairs once,
  copies 4); ≥ 5 tables: line movement (cyclic when gcd(T, 6) = 1 → T rounds; Galois field
  for prime powers → T rounds; seeded row search otherwise); with phantoms on 5–7 tables a
  Howell search.
- ``generate_triplette(*, teams, seed=0) -> dict``: pools of 4 teams on 3 tables, 4 rounds.
- ``generate_quadrette(*, teams, rounds=None, seed=0) -> dict``: crossed matches on 2 tables;
  round robin (circle method) or Swiss pre-pairing when ``rounds`` is below a round robin.
- ``pair_swiss_round(standings, previous_pairs, previous_byes=()) -> Pairing`` (matches, bye)
  and ``quadrette_document(teams, pairings, *, seed=0, method="given") -> dict``.
- ``generate(format, entrants, *, tables=None, rounds=None, seed=0, swiss="prepaired")``:
  THE dispatcher from a format and its parameters to its generator (tables default
  ceil(players/4)); ``swiss="live"``: a live Swiss quadrette movement (round 1 only).
- Live Swiss (``swiss.py``, ``docs/swiss.md``): ``live_document(*, teams, rounds, seed)``,
  ``live_swiss(doc) -> LiveSwiss | None`` (the documented extra key ``swiss``),
  ``replace_in_pending(doc, slot, by, from_round)`` (a substitute from a round not paired yet),
  ``pair_next_round(doc, standings) -> dict``, ``unpair_after(doc, round) -> dict``,
  ``max_live_rounds(teams)``; ``Schedule.pending_rounds`` lists the rounds not paired yet.
- ``hand_over(doc, *, slot, from_round, phantom) -> HandOver`` (``changes.py``): a late change,
  a new slot (a substitute, or a phantom for a withdrawal) holds a slot's seats from a round on.
- ``propose(format, entrant_count, *, rounds=None, seed=0) -> dict`` with ``document``.
- ``validate(document, *, max_meetings=None) -> ValidationReport`` (``ok``, ``errors``
  [:class:`Violation` (check, code, message)], ``warnings``, ``metrics``, ``to_dict()``,
  ``format_text()``); never raises.
- ``Schedule.from_document(doc)``: THE reader of a stored document (typed rounds, table plays,
  sit-out tables, the tables playing a deal set); ``deal_numbers(deal_set, dpr)``,
  ``deal_set_of(deal, dpr)``. Nothing outside the generators and the validator indexes the
  document's ``schedule`` (see ``schedule.py``).
- ``table_cards(doc)``, ``route_cards(doc)``, ``deal_set_routes(doc)``, ``render_text(doc)``.
- ``MovementError(ValueError)``.
"""

from .changes import HandOver, hand_over
from .dispatch import generate
from .document import SCHEMA, SEATS, TEAM_TAKER_SEAT, MovementError
from .individual import generate_individual
from .propose import propose
from .schedule import Round, Schedule, TablePlay, deal_numbers, deal_set_of
from .swiss import (
    LIVE,
    PREPAIRED,
    LiveSwiss,
    live_document,
    live_problem,
    live_swiss,
    max_live_rounds,
    pair_next_round,
    replace_in_pending,
    unpair_after,
)
from .teams import (
    Pairing,
    circle_pairings,
    generate_quadrette,
    generate_triplette,
    pair_swiss_round,
    quadrette_document,
)
from .validation import QualityWarning, ValidationReport, Violation, validate
from .views import deal_set_routes, render_text, route_cards, table_cards

__all__ = [
    "LIVE",
    "PREPAIRED",
    "SCHEMA",
    "SEATS",
    "TEAM_TAKER_SEAT",
    "HandOver",
    "LiveSwiss",
    "MovementError",
    "Pairing",
    "QualityWarning",
    "Round",
    "Schedule",
    "TablePlay",
    "ValidationReport",
    "Violation",
    "circle_pairings",
    "deal_numbers",
    "deal_set_of",
    "deal_set_routes",
    "generate",
    "generate_individual",
    "generate_quadrette",
    "generate_triplette",
    "hand_over",
    "live_document",
    "live_problem",
    "live_swiss",
    "max_live_rounds",
    "pair_next_round",
    "pair_swiss_round",
    "propose",
    "quadrette_document",
    "render_text",
    "replace_in_pending",
    "route_cards",
    "table_cards",
    "unpair_after",
    "validate",
]

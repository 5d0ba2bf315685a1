"""Events of any size, filled in bulk: for benchmarks, the load test and people trying the product.

:func:`scale_event_build` builds one public **individual** event of ``tables`` tables and
``rounds`` rounds in the club :data:`SCALE_CLUB_NAME` and fills it with results:

- setup, the real services' way where that is cheap: ``event_create``; ``4 × tables`` players
  (``bulk_create``) registered as entrants in that order (the rows ``entrant_register`` would
  create: slots 1..n, one ``bulk_create``); ``event_movement_set`` with the generated movement
  (seeded), ``event_deals_generate`` (seeded) and ``event_start``;
- results for the first ``fill`` percent of the scheduled plays (every deal of every table that
  plays, in round, then table, then deal order: ``fill=50`` over 6 rounds fills rounds 1-3),
  written **in bulk** (``TableResult`` and ``ResultChange`` ``bulk_create``), never through the
  per-result services, yet the very rows ``table_result_submit`` stores for the same outcome:
  seats copied from the movement (``event.schedule``), outcome fields and marks from
  ``tournaments.services.outcome_score``, kind played, confirmed, entered via ``"table"``, one
  ``ResultChange`` *create* line each (same label, same ``after`` state). Every row gets
  ``version`` 1 and the event ``results_version`` 1: one bulk write;
- outcomes: simulating a play per result is too slow at national scale, so each deal gets a
  few complete simulated plays (``demo.services.play_outcome``): one per two tables that play
  it, at least 2, at most :data:`OUTCOMES_PER_DEAL`, each scored once; each table draws one of
  its deal's (seeded), so the frequency sheets look like a real event's.

Nothing is recomputed (the caller decides: ``scoring.services.standings_recompute``). The whole
build is one transaction. Deterministic for given arguments; the rows of a smaller ``fill`` are
a prefix of a larger one's (outcomes are simulated per deal from their own seed, draws follow
the plays' order). :func:`scale_event_delete` removes such an event again, players included
(benchmarks clean up after themselves).

Shaped for sections: :func:`_populate` sets one event's players, movement, deals and start,
:func:`_fill_results` writes the results of a list of plays; a simultaneous will call them per
section and bump the version once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from demo.services import FIRST_NAMES, LAST_NAMES, play_outcome
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from tournaments.models import (
    Club,
    Deal,
    Entrant,
    Event,
    Player,
    ResultChange,
    Table,
    TableResult,
)
from tournaments.movements import TablePlay
from tournaments.services import (
    event_create,
    event_deals_generate,
    event_movement_set,
    event_start,
    outcome_score,
)
from tournaments.services.results import result_state

SCALE_CLUB_NAME = "Tarot Club Grande Échelle"
SCALE_CLUB_CITY = "Paris"
#: Bounds of the builder (an individual movement needs 3 tables; 2,500 is a national simultaneous).
MIN_TABLES, MAX_TABLES = 3, 2500
MAX_ROUNDS = 20
#: Distinct simulated plays per deal (fewer when fewer tables play the deal).
OUTCOMES_PER_DEAL = 12
BATCH = 2000


@dataclass(frozen=True)
class ScalePlay:
    """One deal to fill at one table: where it is in the schedule and who sits there."""

    play: TablePlay
    deal: Deal


def _check(tables: int, rounds: int, deals_per_round: int, fill: float) -> None:
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise ValueError(
            f"tables: an individual event here has {MIN_TABLES} to {MAX_TABLES} tables, "
            f"not {tables}"
        )
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds: 1 to {MAX_ROUNDS}, not {rounds}")
    if not 1 <= deals_per_round <= 12:
        raise ValueError(f"deals per round: 1 to 12, not {deals_per_round}")
    if not 0 <= fill <= 100:
        raise ValueError(f"fill: a percentage from 0 to 100, not {fill}")


def scale_event_build(
    *,
    tables: int,
    rounds: int,
    deals_per_round: int = 4,
    fill: float = 100.0,
    seed: int = 1,
    name: str | None = None,
    start: bool = True,
    outcomes_per_deal: int = OUTCOMES_PER_DEAL,
) -> Event:
    """Build and fill one public individual event (see the module docstring).

    ``start=False`` leaves the event a draft ready to start (players, movement, deals) and
    stores no results. Raises ``ValueError`` on bad arguments and
    :class:`tournaments.errors.TournamentError` when no movement fits ``tables`` and ``rounds``
    (for example 6 rounds on 4, 5 or 6 tables).
    """
    _check(tables, rounds, deals_per_round, fill)
    if outcomes_per_deal < 1:
        raise ValueError("outcomes per deal: at least 1")
    name = (name or f"Grand tournoi {tables} tables × {rounds} tours").strip()
    if not name or len(name) > 200:
        raise ValueError("name: 1 to 200 characters")
    with transaction.atomic():
        club, _created = Club.objects.get_or_create(
            name=SCALE_CLUB_NAME, defaults={"city": SCALE_CLUB_CITY}
        )
        event = event_create(
            club=club,
            name=name,
            date=timezone.localdate(),
            format=Event.Format.INDIVIDUAL,
            deals_per_round=deals_per_round,
            public=True,
        )
        event = _populate(event, club, tables=tables, rounds=rounds, seed=seed, start=start)
        if start:
            plays = _first_plays(event, fill)
            if plays:
                _fill_results(event, plays, seed=seed, version=1,
                              outcomes_per_deal=outcomes_per_deal)  # fmt: skip
                Event.objects.filter(pk=event.pk).update(results_version=1)
    return Event.objects.get(pk=event.pk)


# ------------------------------------------------------------------------------- setup


def _player_names(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` plausible names, distinct as long as the name lists allow (then numbered)."""
    pairs = [(first, last) for last in LAST_NAMES for first in FIRST_NAMES]
    rng.shuffle(pairs)
    names = []
    for index in range(count):
        first, last = pairs[index % len(pairs)]
        lap = index // len(pairs)
        names.append((first, f"{last} {lap + 1}" if lap else last))
    return names


def _populate(
    event: Event, club: Club, *, tables: int, rounds: int, seed: int, start: bool
) -> Event:
    """One event's players, entrants, movement, deals and (if ``start``) start."""
    rng = random.Random(f"scale-players:{seed}")
    series = ("2", "3", "3", "4")
    players = Player.objects.bulk_create(
        (
            Player(first_name=first, last_name=last, club=club, series=rng.choice(series))
            for first, last in _player_names(rng, 4 * tables)
        ),
        batch_size=BATCH,
    )
    # What entrant_register leaves, one player at a time: slots 1..n in registration order.
    Entrant.objects.bulk_create(
        (
            Entrant(event=event, player=player, slot=slot)
            for slot, player in enumerate(players, start=1)
        ),
        batch_size=BATCH,
    )
    event_movement_set(event=event, tables=tables, rounds=rounds, seed=seed)
    event_deals_generate(event=Event.objects.get(pk=event.pk), seed=seed)
    event = Event.objects.get(pk=event.pk)
    if start:
        event = event_start(event=event)
    return event


def _first_plays(event: Event, fill: float) -> list[ScalePlay]:
    """The first ``fill`` percent (rounded down) of the scheduled plays: by round, table, deal."""
    deals_by_set: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(event=event).order_by("number"):
        deals_by_set.setdefault(deal.deal_set, []).append(deal)
    plays = [
        ScalePlay(play=play, deal=deal)
        for play in event.schedule.playing()
        for deal in deals_by_set.get(play.deal_set, [])
    ]
    keep = int(Fraction(str(fill)) * len(plays) / 100)
    return plays[:keep]


# ----------------------------------------------------------------------------- results


def _outcome_count(plays: int, most: int) -> int:
    """Distinct simulated plays for a deal played at ``plays`` tables: about one per two tables
    (the simulation is the cost of the build), at least 2 where 2 tables play it, at most
    ``most``."""
    return max(1, min(most, plays, max(2, -(-plays // 2))))


def _deal_outcomes(deal: Deal, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` simulated plays of ``deal``, scored as the entry service scores them.

    Each deal has its own seed, so its outcomes do not depend on which deals are filled.
    """
    rng = random.Random(f"scale-deal:{seed}:{deal.number}")
    return [outcome_score(deal=deal, outcome=play_outcome(deal, rng)).fields for _ in range(count)]


def _fill_results(
    event: Event,
    plays: Sequence[ScalePlay],
    *,
    seed: int,
    version: int,
    outcomes_per_deal: int,
) -> int:
    """Store a result for each of ``plays`` in bulk (see the module docstring); returns the count.

    The caller bumps the event's ``results_version`` to ``version``.
    """
    entrant_of_slot = dict(Entrant.objects.filter(event=event).values_list("slot", "id"))
    table_id = dict(Table.objects.filter(event=event).values_list("number", "id"))
    plays_of_set = event.schedule.tables_per_deal_set()
    outcomes: dict[int, list[dict[str, Any]]] = {}
    draw = random.Random(f"scale-draw:{seed}")
    rows: list[TableResult] = []
    for item in plays:
        deal, play = item.deal, item.play
        choices = outcomes.get(deal.pk)
        if choices is None:
            count = _outcome_count(plays_of_set[deal.deal_set], outcomes_per_deal)
            choices = outcomes[deal.pk] = _deal_outcomes(deal, count, seed)
        fields = choices[draw.randrange(len(choices))]
        rows.append(
            TableResult(
                event_id=event.pk,
                deal_id=deal.pk,
                table_id=table_id[play.table],
                round_number=play.round,
                seat_n_id=entrant_of_slot[play.seats["N"]],
                seat_e_id=entrant_of_slot[play.seats["E"]],
                seat_s_id=entrant_of_slot[play.seats["S"]],
                seat_w_id=entrant_of_slot[play.seats["W"]],
                kind=TableResult.Kind.PLAYED,
                confirmed=True,
                entered_via="table",
                version=version,
                **fields,
            )
        )
    TableResult.objects.bulk_create(rows, batch_size=BATCH)
    # The line table_result_submit appends for each result (services.results._record).
    ResultChange.objects.bulk_create(
        (
            ResultChange(
                event_id=event.pk,
                result_id=row.pk,
                action=ResultChange.Action.CREATE,
                actor=None,
                actor_label=_("table %(table)s") % {"table": item.play.table},
                reason="",
                before=None,
                after=result_state(row),
            )
            for row, item in zip(rows, plays, strict=True)
        ),
        batch_size=BATCH,
    )
    return len(rows)


# ------------------------------------------------------------------------------ delete


def scale_event_delete(*, event_id: int) -> None:
    """Delete a scale event with its standings, history, results and players (one transaction).

    Refuses (``ValueError``) an event outside the scale club: nothing else is ever touched.
    """
    with transaction.atomic():
        event = Event.objects.select_related("club").get(pk=event_id)
        if event.club.name != SCALE_CLUB_NAME:
            raise ValueError(f"event {event_id} is not a scale event ({SCALE_CLUB_NAME})")
        players = list(
            Entrant.objects.filter(event=event, player__isnull=False).values_list(
                "player_id", flat=True
            )
        )
        # Derived rows first (one DELETE each), then the history that protects the results,
        # then the results that protect the entrants, then the event and its players.
        HandScore.objects.filter(event_id=event_id).delete()
        RankingEntry.objects.filter(event_id=event_id).delete()
        StandingsSnapshot.objects.filter(event_id=event_id).delete()
        ResultChange.objects.filter(event_id=event_id).delete()
        TableResult.objects.filter(event_id=event_id).delete()
        event.delete()
        Player.objects.filter(pk__in=players, club=event.club, entries__isnull=True).delete()

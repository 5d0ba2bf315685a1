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
  per-result services, yet the very rows ``table_result_enter`` stores for the same outcome:
  seats copied from the movement (``event.schedule``), outcome fields and marks from
  ``clubs.outcomes.outcome_score``, kind played, confirmed, entered via ``"table"``, one
  ``ResultChange`` *create* line each (same label, same ``after`` state). Every row gets
  ``version`` 1 and the event ``results_version`` 1: one bulk write;
- outcomes: simulating a play per result is too slow at national scale, so each deal gets a
  few complete simulated plays (``demo.plays.play_outcome``): one per two tables that play
  it, at least 2, at most :data:`OUTCOMES_PER_DEAL`, each scored once; each table draws one of
  its deal's (seeded), so the frequency sheets look like a real event's.

Nothing is recomputed (the caller decides: ``scoring.services.standings_recompute``, given the
event, or the simultaneous below). The whole build is one transaction. Deterministic for given
arguments; the rows of a smaller ``fill`` are a prefix of a larger one's (outcomes are
simulated per deal from their own seed, draws follow the plays' order).
:func:`scale_event_delete` removes such an event again, players included (benchmarks clean up
after themselves).

**Sections** (``sections=K``): a simultaneous (``tournaments.services.sections``) of K
sections of ``tables`` tables each (``tables=25, sections=100``: 2,500 tables), built through
the same services as one event:

- the movement document of one section (``tables`` tables, ``rounds`` rounds, seeded) is
  generated once, first, to know how many deal sets it uses (``Schedule.deal_set_count``: a
  T-table line movement uses T sets); ``simultaneous_create(rounds=<those sets>, seed=...)``
  in the scale club then holds ``sets × deals_per_round`` deals;
- each section: ``section_create`` with its own club (:func:`section_club_name`, created once
  and reused) and ``4 × tables`` players of that club registered as above; ``event_movement_set``
  with that same document (the service validates it and binds the section's entrants: each
  section stores its own copy); then ``event_start`` of every section (the first start starts
  the simultaneous; movements are all set before it, as a movement set in a running
  simultaneous changes its comparison and bumps its version);
- results: the first ``fill`` percent of **every** section's plays, in bulk as above. Outcomes
  are simulated once per deal number for the whole simultaneous (one per two tables playing
  the deal over all sections, at most :data:`OUTCOMES_PER_DEAL`); each section draws from them
  with its own seeded draw, so sections do not repeat one another. Results of a section count
  in its simultaneous's ``results_version`` (``services.results._commit_version``): the rows
  are stamped with the simultaneous's next version, 1, which the simultaneous takes; every
  section's own ``results_version`` stays 0.

:func:`scale_event_delete` given a simultaneous deletes it whole (its sections first).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.history import Author, EnteredVia
from clubs.models import Club, Player
from clubs.newcomers import player_new
from clubs.outcomes import outcome_score
from demo.plays import play_outcome
from demo.services import FIRST_NAMES, LAST_NAMES
from scoring.models import HandScore, RankingEntry, RecomputeState, StandingsSnapshot
from tournaments import movements
from tournaments.models import Deal, Entrant, Event, ResultChange, Table, TableResult
from tournaments.movements import Schedule, TablePlay
from tournaments.services import (
    event_create,
    event_deals_generate,
    event_movement_set,
    event_start,
    section_create,
    simultaneous_create,
)
from tournaments.services.deals import MAX_SIMULTANEOUS_ROUNDS
from tournaments.services.results import result_state

SCALE_CLUB_NAME = "Tarot Club Grande Échelle"
SCALE_CLUB_CITY = "Paris"
#: Bounds of the builder (an individual movement needs 3 tables; 2,500 is a national
#: simultaneous: the bound holds for one event and for all the sections of a simultaneous).
MIN_TABLES, MAX_TABLES = 3, 2500
MAX_ROUNDS = 20
MAX_SECTIONS = 500
#: Distinct simulated plays per deal (fewer when fewer tables play the deal).
OUTCOMES_PER_DEAL = 12
BATCH = 2000
#: Cities of the sections' clubs (section k is in the k-th, round robin).
SECTION_CITIES = (
    "Lyon", "Marseille", "Toulouse", "Nice", "Nantes", "Strasbourg", "Montpellier", "Bordeaux",
    "Lille", "Rennes", "Reims", "Toulon", "Grenoble", "Dijon", "Angers", "Brest", "Limoges",
    "Tours", "Amiens", "Metz", "Besançon", "Perpignan", "Orléans", "Rouen", "Caen", "Nancy",
)  # fmt: skip


@dataclass(frozen=True)
class ScalePlay:
    """One deal to fill at one table: where it is in the schedule and who sits there."""

    play: TablePlay
    deal: Deal


def section_club_name(number: int) -> str:
    """The club of section ``number`` (1-based) of a scale simultaneous."""
    return f"{SCALE_CLUB_NAME} — section {number}"


def _is_scale_club(name: str) -> bool:
    return name == SCALE_CLUB_NAME or name.startswith(f"{SCALE_CLUB_NAME} — section ")


def _check(tables: int, rounds: int, deals_per_round: int, fill: float, sections: int) -> None:
    if not 0 <= sections <= MAX_SECTIONS:
        raise ValueError(f"sections: 0 (one event) to {MAX_SECTIONS}, not {sections}")
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise ValueError(
            f"tables: an individual event here has {MIN_TABLES} to {MAX_TABLES} tables, "
            f"not {tables}"
        )
    if sections and tables * sections > MAX_TABLES:
        raise ValueError(
            f"tables × sections: a simultaneous here has at most {MAX_TABLES} tables in all, "
            f"not {tables} × {sections} = {tables * sections}"
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
    sections: int = 0,
) -> Event:
    """Build and fill one public individual event (see the module docstring).

    ``sections=K`` (K > 0) builds a simultaneous of K sections of ``tables`` tables instead and
    returns the simultaneous. ``start=False`` leaves the event (every section) a draft ready
    to start (players, movement, deals) and stores no results. Raises ``ValueError`` on bad
    arguments and :class:`tournaments.errors.DomainError` when no movement fits ``tables``
    and ``rounds`` (for example 6 rounds on 4, 5 or 6 tables).
    """
    _check(tables, rounds, deals_per_round, fill, sections)
    if outcomes_per_deal < 1:
        raise ValueError("outcomes per deal: at least 1")
    default = (
        f"Simultané {sections} sections × {tables} tables × {rounds} tours"
        if sections
        else f"Grand tournoi {tables} tables × {rounds} tours"
    )
    name = (name or default).strip()
    if not name or len(name) > 200:
        raise ValueError("name: 1 to 200 characters")
    if sections:
        return _simultaneous_build(
            tables=tables, rounds=rounds, deals_per_round=deals_per_round, fill=fill, seed=seed,
            name=name, start=start, outcomes_per_deal=outcomes_per_deal, sections=sections,
        )  # fmt: skip
    with transaction.atomic():
        club = _scale_club()
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
                _fill_results(
                    event, plays, seed=seed, version=1, outcomes_per_deal=outcomes_per_deal,
                    tables_of_set=event.schedule.tables_per_deal_set(), outcomes={},
                    draw=random.Random(f"scale-draw:{seed}"),
                )  # fmt: skip
                Event.objects.filter(pk=event.pk).update(results_version=1)
    return Event.objects.get(pk=event.pk)


def _simultaneous_build(
    *,
    tables: int,
    rounds: int,
    deals_per_round: int,
    fill: float,
    seed: int,
    name: str,
    start: bool,
    outcomes_per_deal: int,
    sections: int,
) -> Event:
    """A simultaneous of ``sections`` sections of ``tables`` tables (see the module docstring)."""
    document = _movement_document(tables=tables, rounds=rounds, seed=seed)
    sets = Schedule.from_document(document).deal_set_count
    if sets > MAX_SIMULTANEOUS_ROUNDS:
        raise ValueError(
            f"tables: the movement of a {tables}-table section uses {sets} deal sets, a "
            f"simultaneous holds at most {MAX_SIMULTANEOUS_ROUNDS}: choose smaller sections"
        )
    with transaction.atomic():
        parent = simultaneous_create(
            club=_scale_club(),
            name=name,
            date=timezone.localdate(),
            format=Event.Format.INDIVIDUAL,
            deals_per_round=deals_per_round,
            rounds=sets,
            public=True,
            seed=seed,
        )
        members: list[Event] = []
        for number in range(1, sections + 1):
            club = _section_club(number)
            section = section_create(
                simultaneous=parent, club=club, name=f"Section {number} — {club.city}"
            )
            section = _populate(section, club, tables=tables, rounds=rounds, seed=seed,
                                start=False, movement=document,
                                players_key=f"{seed}:{number}")  # fmt: skip
            members.append(section)
        if start:
            # Every movement is set before the first start: a movement set while the
            # simultaneous runs changes its comparison and bumps its version.
            members = [event_start(event=section) for section in members]
            _fill_simultaneous(parent, members, fill=fill, seed=seed,
                               outcomes_per_deal=outcomes_per_deal)  # fmt: skip
    return Event.objects.get(pk=parent.pk)


def _fill_simultaneous(
    parent: Event, members: Sequence[Event], *, fill: float, seed: int, outcomes_per_deal: int
) -> int:
    """Every section's first ``fill`` percent, stamped with the simultaneous's next version."""
    tables_of_set: Counter[int] = Counter()
    for section in members:
        tables_of_set.update(section.schedule.tables_per_deal_set())
    version = Event.objects.values_list("results_version", flat=True).get(pk=parent.pk) + 1
    outcomes: dict[int, list[dict[str, Any]]] = {}  # deal number -> shared simulated plays
    stored = 0
    for number, section in enumerate(members, start=1):
        plays = _first_plays(section, fill)
        if plays:
            stored += _fill_results(
                section, plays, seed=seed, version=version, outcomes_per_deal=outcomes_per_deal,
                tables_of_set=tables_of_set, outcomes=outcomes,
                draw=random.Random(f"scale-draw:{seed}:{number}"),
            )  # fmt: skip
    if stored:
        Event.objects.filter(pk=parent.pk).update(results_version=version)
    return stored


# ------------------------------------------------------------------------------- setup


def _scale_club() -> Club:
    club, _created = Club.objects.get_or_create(
        name=SCALE_CLUB_NAME, defaults={"city": SCALE_CLUB_CITY}
    )
    return club


def _section_club(number: int) -> Club:
    city = SECTION_CITIES[(number - 1) % len(SECTION_CITIES)]
    club, _created = Club.objects.get_or_create(
        name=section_club_name(number), defaults={"city": city}
    )
    return club


def _movement_document(*, tables: int, rounds: int, seed: int) -> dict[str, Any]:
    """The generated individual movement of ``tables`` full tables (as the service builds it)."""
    try:
        return movements.generate(
            Event.Format.INDIVIDUAL, 4 * tables, tables=tables, rounds=rounds, seed=seed
        )
    except (movements.MovementError, ValueError, TypeError) as exc:
        raise DomainError(
            "no_movement", _("No movement for these parameters: %(reason)s") % {"reason": exc}
        ) from exc


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
    event: Event,
    club: Club,
    *,
    tables: int,
    rounds: int,
    seed: int,
    start: bool,
    movement: dict[str, Any] | None = None,
    players_key: str | None = None,
) -> Event:
    """One event's players, entrants, movement, deals and (if ``start``) start.

    With ``movement`` (a section: its deals are its simultaneous's copies) that document is
    set instead of a generated one, and no deals are generated.
    """
    rng = random.Random(f"scale-players:{players_key or seed}")
    series = ("2", "3", "3", "4")
    players = Player.objects.bulk_create(
        (
            player_new(club=club, first_name=first, last_name=last, series=rng.choice(series))
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
    if movement is None:
        event_movement_set(event=event, tables=tables, rounds=rounds, seed=seed)
        event_deals_generate(event=Event.objects.get(pk=event.pk), seed=seed)
    else:
        event_movement_set(event=event, movement=movement)
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
    tables_of_set: Mapping[int, int],
    outcomes: dict[int, list[dict[str, Any]]],
    draw: random.Random,
) -> int:
    """Store a result for each of ``plays`` in bulk (see the module docstring); returns the count.

    ``tables_of_set``: the tables that play each deal set (over the whole simultaneous for a
    section), which sets how many plays are simulated per deal; ``outcomes``: the simulated
    plays per deal number, filled as needed (shared by the sections of a simultaneous, whose
    deals are copies); ``draw``: each table's pick among them. The caller bumps the
    ``results_version`` of the event (or of its simultaneous) to ``version``.
    """
    entrant_of_slot = dict(Entrant.objects.filter(event=event).values_list("slot", "id"))
    table_id = dict(Table.objects.filter(event=event).values_list("number", "id"))
    rows: list[TableResult] = []
    for item in plays:
        deal, play = item.deal, item.play
        choices = outcomes.get(deal.number)
        if choices is None:
            count = _outcome_count(tables_of_set[deal.deal_set], outcomes_per_deal)
            choices = outcomes[deal.number] = _deal_outcomes(deal, count, seed)
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
                # who entered it, as table_result_enter stamps it (clubs.history)
                **Author(
                    label=_("table %(table)s") % {"table": play.table}, via=EnteredVia.TABLE
                ).fields(),
                version=version,
                **fields,
            )
        )
    TableResult.objects.bulk_create(rows, batch_size=BATCH)
    # The line table_result_enter appends for each result (services.results._record).
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

    A simultaneous is deleted whole: its sections first (their standings, history, results,
    players), then itself. Refuses (``ValueError``) an event outside the scale clubs (the scale
    club, the sections' clubs), and a section alone (delete its simultaneous): nothing else is
    ever touched. The clubs stay (the next build reuses them).
    """
    with transaction.atomic():
        event = Event.objects.select_related("club").get(pk=event_id)
        if event.simultaneous_id is not None:
            raise ValueError(
                f"event {event_id} is a section of simultaneous {event.simultaneous_id}: "
                "delete the simultaneous"
            )
        sections = list(Event.objects.select_related("club").filter(simultaneous=event))
        for one in (event, *sections):
            if not _is_scale_club(one.club.name):
                raise ValueError(f"event {one.pk} is not a scale event ({SCALE_CLUB_NAME})")
        ids = [event.pk, *(section.pk for section in sections)]
        players = list(
            Entrant.objects.filter(event_id__in=ids, player__isnull=False).values_list(
                "player_id", flat=True
            )
        )
        clubs = {event.club_id, *(section.club_id for section in sections)}
        # Derived rows first (one DELETE each), then the history that protects the results,
        # then the results that protect the entrants, then the sections, the event and the
        # players.
        HandScore.objects.filter(event_id__in=ids).delete()
        RankingEntry.objects.filter(event_id__in=ids).delete()
        StandingsSnapshot.objects.filter(event_id__in=ids).delete()
        RecomputeState.objects.filter(event_id__in=ids).delete()
        ResultChange.objects.filter(event_id__in=ids).delete()
        TableResult.objects.filter(event_id__in=ids).delete()
        Event.objects.filter(pk__in=[section.pk for section in sections]).delete()
        event.delete()
        for start in range(0, len(players), BATCH):
            Player.objects.filter(
                pk__in=players[start : start + BATCH], club_id__in=clubs, entries__isnull=True
            ).delete()

"""The demonstration club: three public events played by simulation, for ``manage.py demo``.

What :func:`build_demo` leaves behind (in the configured database):

- the club ``Tarot Club de Démo`` and its organiser account (``organisateur``, password given
  or generated, printed by the command);
- a 7-table **individual** event (28 players, line movement), still *running*: every round but
  the last is complete and the last one is partly entered, so the live state (provisional
  ranking, deals still in play with their cards hidden) shows;
- a 16-team **triplette** event and an 8-team **quadrette** event, finished.

Everything goes through the real services, as at a real tournament: the tournaments services
set the events up (players, entrants, teams, generated movement, seeded deals, start),
``table_result_submit`` takes every result, ``standings_recompute`` computes the standings.
Every result comes from a complete simulated play of the deal's actual cards by the rules
engine's one card-play AI, :func:`rules.simulation.simulate_deal`: the taker sits at the étui's
taker seat and bids at least a Garde (sometimes more, :data:`CONTRACT_FLOORS`), and the players
follow a whim now and then (``whim``: the engine's players are otherwise deterministic, so
identical cards would give identical results at every table). ``rules.play.outcome_from_play``
validates the whole play before counting it: each result is a legally played deal. The tables
that play are the movement's, read through ``event.schedule``.

Idempotent: the demo club's previous events, players and results are deleted first; nothing
outside the demo club is touched. Deterministic for a given ``seed``.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from rules import deal as rules_deal
from rules.enums import Contract
from rules.play import outcome_from_play
from rules.scoring import outcome_to_dict
from rules.simulation import simulate_deal
from scoring.services import standings_recompute
from tournaments.models import Club, Deal, Entrant, Event, Player, ResultChange, Table, TableResult
from tournaments.services import (
    entrant_register,
    event_create,
    event_deals_generate,
    event_finish,
    event_movement_set,
    event_start,
    player_create,
    table_result_submit,
    team_create,
)

DEMO_CLUB_NAME = "Tarot Club de Démo"
DEMO_CLUB_CITY = "Lyon"
DEMO_USERNAME = "organisateur"
DEFAULT_SEED = 2026
DEALS_PER_ROUND = 3

FIRST_NAMES = (
    "Alain", "Anne", "Antoine", "Bernard", "Brigitte", "Camille", "Catherine", "Christian",
    "Claire", "Claude", "Daniel", "Denise", "Dominique", "Élise", "Françoise", "François",
    "Gérard", "Hélène", "Henri", "Isabelle", "Jacques", "Jacqueline", "Jean", "Jeanne",
    "Julien", "Laurent", "Léa", "Louis", "Lucie", "Marc", "Marie", "Martine", "Michel",
    "Monique", "Nathalie", "Nicolas", "Odile", "Patrick", "Paul", "Philippe", "Pierre",
    "Renée", "Robert", "Sophie", "Suzanne", "Sylvie", "Thierry", "Thomas", "Valérie", "Yves",
)  # fmt: skip
LAST_NAMES = (
    "Martin", "Bernard", "Thomas", "Petit", "Robert", "Richard", "Durand", "Dubois", "Moreau",
    "Laurent", "Simon", "Michel", "Lefèvre", "Leroy", "Roux", "David", "Bertrand", "Morel",
    "Fournier", "Girard", "Bonnet", "Dupont", "Lambert", "Fontaine", "Rousseau", "Vincent",
    "Muller", "Lefebvre", "Faure", "André", "Mercier", "Blanc", "Guérin", "Boyer", "Garnier",
    "Chevalier", "François", "Legrand", "Gauthier", "Garcia", "Perrin", "Robin", "Clément",
    "Morin", "Nicolas", "Henry", "Roussel", "Mathieu", "Gautier", "Masson", "Marchand",
    "Duval", "Denis", "Dumont", "Marie", "Lemaire", "Noël", "Meyer", "Dufour", "Meunier",
    "Brun", "Blanchard", "Giraud", "Joly", "Rivière", "Lucas", "Brunet", "Gaillard", "Barbier",
    "Arnaud", "Martinez", "Gérard", "Roche", "Renard", "Schmitt", "Roy", "Leroux", "Colin",
    "Vidal", "Caron", "Picard", "Roger", "Fabre", "Aubert", "Lemoine", "Renaud", "Dumas",
    "Lacroix", "Olivier", "Philippe", "Bourgeois", "Pierre", "Benoît", "Rey", "Leclerc",
    "Payet", "Rolland", "Leclercq", "Guillaume", "Lecomte", "Lopez", "Jean", "Dupuy",
    "Guillot", "Hubert", "Berger", "Carpentier", "Sanchez", "Dupuis", "Moulin", "Louis",
    "Deschamps", "Huet", "Vasseur", "Perez", "Boucher", "Fleury", "Royer", "Klein",
)  # fmt: skip
TRIPLETTE_NAMES = (
    "Les Bouts", "Petit au Bout", "Garde Contre", "Les Excusés", "Poignée Double",
    "Le Chien Fou", "Les Rois de Cœur", "Les Cavaliers", "Les Dames de Pique", "Les Valets",
    "Atout Maître", "Le Vingt-et-Un", "Les Chelems", "Les Preneurs", "La Défense",
    "Les Étuis",
)  # fmt: skip
QUADRETTE_NAMES = (
    "Croix-Rousse", "Villeurbanne", "Bron", "Vénissieux", "Caluire", "Écully", "Oullins",
    "Tassin",
)  # fmt: skip


@dataclass
class DemoEvent:
    event: Event
    results: int
    unfinished_round: int | None = None


@dataclass
class DemoSummary:
    """What the demo built, for the command's printout (ids are the database's)."""

    club: Club
    username: str
    password: str
    events: list[DemoEvent] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def results(self) -> int:
        return sum(item.results for item in self.events)

    @property
    def live_event(self) -> Event | None:
        return next((d.event for d in self.events if d.unfinished_round is not None), None)


class DemoError(Exception):
    """The demo cannot be built here without touching data that is not the demo's."""


# ------------------------------------------------------------------------------ reset


def demo_reset() -> None:
    """Delete the demo club with its events, results and players (nothing else)."""
    club = Club.objects.filter(name=DEMO_CLUB_NAME).first()
    if club is None:
        return
    with transaction.atomic():
        events = Event.objects.filter(club=club)
        # History protects results, results protect the entrants seated in them: remove the
        # demo's history, then its results, before its events.
        ResultChange.objects.filter(event__in=events).delete()
        TableResult.objects.filter(event__in=events).delete()
        events.delete()
        Player.objects.filter(club=club).exclude(entries__isnull=False).delete()
        club.delete()


# ----------------------------------------------------------------------------- players


def _demo_players(rng: random.Random, count: int, club: Club, start: int) -> list[Player]:
    """``count`` players with distinct plausible names and licence numbers."""
    used = {(p.first_name, p.last_name) for p in Player.objects.filter(club=club)}
    players: list[Player] = []
    while len(players) < count:
        name = (rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES))
        if name in used:
            continue
        used.add(name)
        number = start + len(players)
        players.append(
            player_create(
                first_name=name[0],
                last_name=name[1],
                licence=f"{690000 + number:07d}",
                club=club,
                series=rng.choice(("2", "3", "3", "4")),
            )
        )
    return players


def _register(event: Event, players: Sequence[Player]) -> list[Entrant]:
    return [entrant_register(event=event, player=player) for player in players]


# ------------------------------------------------------------------------------- play


# Contract floors a demo taker is given, by weight: most tables bid Garde, some go higher.
CONTRACT_FLOORS: tuple[tuple[Contract, float], ...] = (
    (Contract.GARDE, 0.65),
    (Contract.GARDE_SANS, 0.25),
    (Contract.GARDE_CONTRE, 0.10),
)
# A table's players play a random legal card with a probability drawn in this range.
WHIMS = (0.05, 0.3)


def play_outcome(deal: Deal, rng: random.Random) -> dict[str, Any]:
    """A complete simulated play of ``deal``'s cards: the outcome the table reports.

    The rules engine's players bid (the taker sits at the étui's taker seat and bids at least
    the floor drawn from :data:`CONTRACT_FLOORS`), discard, show poignées and play, following a
    whim now and then so that tables differ. ``outcome_from_play`` validates the whole play
    (legal cards, écart, leaders) before counting it.
    """
    floor = rng.choices(
        [contract for contract, _ in CONTRACT_FLOORS],
        weights=[weight for _, weight in CONTRACT_FLOORS],
    )[0]
    played = simulate_deal(
        rules_deal.deal_from_text(deal.cards),
        rng,
        taker_seat=deal.taker_seat,
        min_contract=floor,
        whim=rng.uniform(*WHIMS),
    )
    if played.record is None:  # cannot happen with an imposed taker; never store a guess
        raise DemoError(f"deal {deal.number}: the simulation passed the deal out")
    outcome = outcome_to_dict(outcome_from_play(played.record))
    outcome.pop("players", None)  # always 4 at a duplicate table
    return outcome


def play_event(
    event: Event,
    rng: random.Random,
    *,
    keep: Callable[[int, int, int], bool] = lambda round_number, table, index: True,
) -> int:
    """Enter a simulated result for every (deal, table) played that ``keep`` accepts.

    ``keep(round, table, deal index in the set)``. All results go in one transaction, so the
    standings recompute sent on commit runs once for the lot (later tasks find it up to date).
    """
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    deals_by_set: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(event=event).order_by("number"):
        deals_by_set.setdefault(deal.deal_set, []).append(deal)
    stored = 0
    with transaction.atomic():
        for play in event.schedule.playing():
            for index, deal in enumerate(deals_by_set.get(play.deal_set, [])):
                if not keep(play.round, play.table, index):
                    continue
                table_result_submit(
                    table=tables[play.table],
                    deal=deal,
                    outcome=play_outcome(deal, rng),
                    via="table",
                )
                stored += 1
    return stored


# ------------------------------------------------------------------------------ events


def _new_event(club: Club, name: str, date: dt.date, format: str) -> Event:
    return event_create(
        club=club,
        name=name,
        date=date,
        format=format,
        deals_per_round=DEALS_PER_ROUND,
        public=True,
    )


def _prepare(event: Event, seed: int, **movement: Any) -> Event:
    event_movement_set(event=event, seed=seed, **movement)
    event_deals_generate(event=event, seed=seed)
    return event_start(event=Event.objects.get(pk=event.pk))


def _individual(club: Club, rng: random.Random, seed: int, today: dt.date) -> DemoEvent:
    event = _new_event(club, "Individuel du samedi", today, Event.Format.INDIVIDUAL)
    _register(event, _demo_players(rng, 28, club, start=1))
    event = _prepare(event, seed, tables=7)
    last = event.schedule.round_numbers[-1]
    tables = event.schedule.table_count

    def keep(round_number: int, table: int, index: int) -> bool:
        # The last round is in play: the first tables are done, one table is halfway through.
        if round_number < last:
            return True
        if table <= tables // 2:
            return True
        return table == tables // 2 + 1 and index == 0

    stored = play_event(event, rng, keep=keep)
    standings_recompute(event_id=event.pk)
    return DemoEvent(event=Event.objects.get(pk=event.pk), results=stored, unfinished_round=last)


def _team_event(
    club: Club,
    rng: random.Random,
    seed: int,
    *,
    name: str,
    date: dt.date,
    format: str,
    team_names: Sequence[str],
    size: int,
    start: int,
) -> DemoEvent:
    event = _new_event(club, name, date, format)
    entrants = _register(event, _demo_players(rng, len(team_names) * size, club, start=start))
    for index, team_name in enumerate(team_names):
        team_create(
            event=event, name=team_name, entrants=entrants[index * size : (index + 1) * size]
        )
    event = _prepare(event, seed)
    stored = play_event(event, rng)
    standings_recompute(event_id=event.pk)
    event_finish(event=event)
    return DemoEvent(event=Event.objects.get(pk=event.pk), results=stored)


def build_demo(*, seed: int = DEFAULT_SEED, password: str | None = None) -> DemoSummary:
    """Reset and rebuild the demo club, its organiser and its three events (see module doc)."""
    started = time.monotonic()
    rng = random.Random(seed)
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    if user is not None and not Club.objects.filter(name=DEMO_CLUB_NAME, organisers=user).exists():
        raise DemoError(
            f"a user named {DEMO_USERNAME!r} already exists and does not organise the demo club; "
            "use another database (DATABASE_URL) for the demo"
        )
    demo_reset()
    club = Club.objects.create(name=DEMO_CLUB_NAME, city=DEMO_CLUB_CITY)
    password = password or secrets.token_urlsafe(9)
    if user is None:
        user = user_model(username=DEMO_USERNAME)
    user.set_password(password)
    user.is_active = True
    user.save()
    club.organisers.add(user)

    today = timezone.localdate()
    summary = DemoSummary(club=club, username=DEMO_USERNAME, password=password)
    summary.events.append(_individual(club, rng, seed, today))
    summary.events.append(
        _team_event(
            club, rng, seed + 1,
            name="Triplettes de la Saint-Martin", date=today - dt.timedelta(days=11),
            format=Event.Format.TRIPLETTE, team_names=TRIPLETTE_NAMES, size=3, start=101,
        )
    )  # fmt: skip
    summary.events.append(
        _team_event(
            club, rng, seed + 2,
            name="Quadrettes du club", date=today - dt.timedelta(days=25),
            format=Event.Format.QUADRETTE, team_names=QUADRETTE_NAMES, size=4, start=201,
        )
    )  # fmt: skip
    summary.seconds = time.monotonic() - started
    return summary

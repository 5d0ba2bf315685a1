"""The demonstration club: three public events played by simulation, for ``manage.py demo``.

What :func:`build_demo` leaves behind (in the configured database):

- the club ``Tarot Club de Démo`` and its organiser account (``organisateur``, password given
  or generated, printed by the command);
- a 7-table **individual** event (28 players, line movement), still *running*: every round but
  the last is complete and the last one is partly entered, so the live state (provisional
  ranking, deals still in play with their cards hidden) shows;
- a 16-team **triplette** event and an 8-team **quadrette** event, finished;
- a **simultaneous**, *Simultané du Comité*, organised by the club's league (``Comité de Tarot
  du Rhône``, which the demo organiser also directs: he directs every section) and played in
  three sections of different sizes, each its own club's: *Lyon* (the demo club, 4 tables,
  finished), *Villeurbanne* (5 tables, its last round in play: the deals some of its tables
  have still to play show no outcome on any page of the simultaneous) and *Vienne* (3 tables,
  running: its first rounds were scored on paper and imported from a CSV file through
  ``section_results_import``, the others entered at the tables);
- a public **team-match cup**, *Coupe de France par équipes* (``demo.cups``): four teams
  of the club's players in a knockout bracket, the semi-finals played (substitutions between
  quarters), the final in its third quarter;
- a public **free-deal tournament**, *Tournoi de donnes libres* (``demo.free_deals``): 14 of the
  club's players at tables of 5, 5 and 4 under the traditional rules, its last party in play;
- a public **series**, *Challenge du club* (:data:`SERIES_NAME`), over the club's events and
  its Lyon section: the finished triplette and quadrette count, the running individual event
  and the section (its simultaneous still in play) are listed until their final rankings.

Everything goes through the real services, as at a real tournament: the tournaments services
set the events up (players, entrants, teams, generated movement, seeded deals, start),
``table_result_enter`` takes every result, ``standings_recompute`` computes the standings.
Every result comes from a complete simulated play of the deal's actual cards by the rules
engine's one card-play AI, :func:`rules.simulation.simulate_deal`: the taker sits at the étui's
taker seat and bids at least a Garde (sometimes more, :data:`CONTRACT_FLOORS`), and the players
follow a whim now and then (``whim``: the engine's players are otherwise deterministic, so
identical cards would give identical results at every table). ``rules.play.outcome_from_play``
validates the whole play before counting it: each result is a legally played deal. The tables
that play are the movement's, read through ``event.schedule``.

Idempotent: the demo clubs' previous events, players and results are deleted first (the demo
club, its league and the demo simultaneous with its sections' players); nothing else is
touched. Deterministic for a given ``seed``.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from clubs.models import Club, Player
from clubs.register import register_player_add
from clubs.services import club_create
from demo import cups as cup_demo
from demo import free_deals as free_deal_demo
from demo.plays import DemoError, play_outcome
from rules.enums import Contract
from scoring.services import standings_recompute
from series.models import Series
from series.services import series_create, series_event_add
from tournaments.models import Deal, Entrant, Event, ResultChange, Table, TableResult
from tournaments.publication import deals_hidden_from
from tournaments.services import (
    entrant_register,
    event_create,
    event_deals_generate,
    event_finish,
    event_movement_set,
    event_start,
    section_create,
    section_results_import,
    simultaneous_create,
    table_result_enter,
    team_create,
)

DEMO_CLUB_NAME = "Tarot Club de Démo"
DEMO_CLUB_CITY = "Lyon"
DEMO_USERNAME = "organisateur"
DEFAULT_SEED = 2026
DEALS_PER_ROUND = 3

DEMO_LEAGUE_NAME = "Comité de Tarot du Rhône"
DEMO_LEAGUE_CITY = "Lyon"
SIMULTANEOUS_NAME = "Simultané du Comité"
SIMULTANEOUS_ROUNDS = 5
SERIES_NAME = "Challenge du club"


@dataclass(frozen=True)
class SectionPlan:
    """One section of the demo simultaneous: its name (its town: the Section column of the
    rankings says the rest), its club and how far it is."""

    name: str
    club: str
    city: str
    tables: int
    state: str  # FINISHED, LAST_ROUND or IMPORTED
    first_player: int  # licence numbers of its players start here


FINISHED = "finished"  # every result entered, the section finished by its director
LAST_ROUND = "last_round"  # the last round in play: some tables have deals still to enter
IMPORTED = "imported"  # running, complete; its first rounds imported from a CSV file
IMPORTED_ROUNDS = 3  # Vienne's first rounds, scored on paper, then imported

SECTION_PLANS = (
    SectionPlan("Lyon", DEMO_CLUB_NAME, DEMO_CLUB_CITY, 4, FINISHED, 301),
    SectionPlan("Villeurbanne", "Tarot Club de Villeurbanne", "Villeurbanne", 5, LAST_ROUND, 321),
    SectionPlan("Vienne", "Tarot Club de Vienne", "Vienne", 3, IMPORTED, 341),
)  # fmt: skip

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
class DemoSection:
    """A section of the demo simultaneous as built: ``imported`` of its ``results`` came from
    the CSV file; ``unfinished_round`` is the round still in play."""

    event: Event
    state: str
    results: int
    imported: int = 0
    unfinished_round: int | None = None
    results_csv: str = ""  # the file imported (``IMPORTED``)


@dataclass
class DemoSimultaneous:
    """The demo simultaneous, its sections and two deals to show: one every section has
    played (public) and one still in play (hidden on every page)."""

    event: Event
    sections: list[DemoSection]
    public_deal: int | None
    hidden_deal: int | None

    @property
    def results(self) -> int:
        return sum(section.results for section in self.sections)

    @property
    def imported_section(self) -> DemoSection | None:
        """The section whose first rounds were imported from a CSV file (its ``results_csv``)."""
        return next((s for s in self.sections if s.results_csv), None)


@dataclass
class DemoSummary:
    """What the demo built, for the command's printout (ids are the database's)."""

    club: Club
    username: str
    password: str
    events: list[DemoEvent] = field(default_factory=list)
    simultaneous: DemoSimultaneous | None = None
    series: Series | None = None
    cup: Any = None  # teammatch.models.Cup
    free_deal: Any = None  # freedeal.models.FreeDealTournament
    seconds: float = 0.0

    @property
    def results(self) -> int:
        extra = self.simultaneous.results if self.simultaneous is not None else 0
        return sum(item.results for item in self.events) + extra

    @property
    def live_event(self) -> Event | None:
        return next((d.event for d in self.events if d.unfinished_round is not None), None)


# ------------------------------------------------------------------------------ reset


def demo_club_names() -> frozenset[str]:
    """The clubs the demo builds: its club, its league and the simultaneous's section clubs."""
    return frozenset({DEMO_CLUB_NAME, DEMO_LEAGUE_NAME, *(plan.club for plan in SECTION_PLANS)})


def foreign_data() -> str | None:
    """What in the database is not the demo's (a club, a player, an account, another
    application's tables), None when the database is empty or holds the demo only: the demo
    refuses to run on real data. Reads as few columns as it can, before any migration, so that
    a database of an older schema is judged too (and refused when it cannot be read)."""
    tables = set(connection.introspection.table_names())
    if not tables:
        return None
    if "django_migrations" not in tables:
        return "tables of another application"
    try:
        names = demo_club_names()
        if Club._meta.db_table in tables:
            club = Club.objects.exclude(name__in=names).order_by("pk").values_list("name")
            if club.exists():
                return f"the club {club[0][0]!r}"
        if Player._meta.db_table in tables and (
            Player.objects.filter(Q(club__isnull=True) | ~Q(club__name__in=names)).exists()
        ):
            return "players of no demo club"
        user_model = get_user_model()
        if user_model._meta.db_table in tables:
            users = user_model.objects.exclude(username=DEMO_USERNAME).order_by("pk")
            if users.exists():
                return f"the account {users.values_list('username', flat=True)[0]!r}"
    except DatabaseError as exc:
        return f"data the demo cannot read ({type(exc).__name__})"
    return None


def demo_reset() -> None:
    """Delete the demo club and its league with their events, results and players, and the
    demo simultaneous's sections with the players who played them (nothing else).

    The other sections' clubs are left when something that is not the demo's remains in them.
    """
    owned = list(Club.objects.filter(name__in=(DEMO_CLUB_NAME, DEMO_LEAGUE_NAME)))
    if not owned:
        return
    section_clubs = {plan.club for plan in SECTION_PLANS} - {DEMO_CLUB_NAME}
    with transaction.atomic():
        _reset_cups_and_free_deals(owned)
        own = list(Event.objects.filter(club__in=owned).values_list("pk", flat=True))
        ids = [*own, *Event.objects.filter(simultaneous__in=own).values_list("pk", flat=True)]
        players = set(
            Entrant.objects.filter(event_id__in=ids, player__isnull=False).values_list(
                "player_id", flat=True
            )
        )
        # History protects results, results protect the entrants seated in them: remove the
        # demo's history, then its results, before its events (the sections before the
        # simultaneous they belong to).
        ResultChange.objects.filter(event_id__in=ids).delete()
        TableResult.objects.filter(event_id__in=ids).delete()
        Event.objects.filter(pk__in=ids, simultaneous__isnull=False).delete()
        Event.objects.filter(pk__in=ids).delete()
        clubs = Club.objects.filter(Q(pk__in=[c.pk for c in owned]) | Q(name__in=section_clubs))
        Player.objects.filter(Q(club__in=owned) | Q(pk__in=players, club__in=clubs)).exclude(
            entries__isnull=False
        ).delete()
        Club.objects.filter(
            name__in=section_clubs, events__isnull=True, players__isnull=True
        ).delete()
        for club in owned:
            club.delete()


def _reset_cups_and_free_deals(clubs: Sequence[Club]) -> None:
    """Delete the clubs' team-match cups and free-deal tournaments (histories protect their
    results, results and matches protect what they name: those go first)."""
    from freedeal.models import FreeDealChange, FreeDealTournament
    from teammatch.models import Cup, CupMatch, RoomResult, RoomResultChange

    RoomResultChange.objects.filter(result__match__cup__club__in=clubs).delete()
    RoomResult.objects.filter(match__cup__club__in=clubs).delete()
    CupMatch.objects.filter(cup__club__in=clubs).delete()
    Cup.objects.filter(club__in=clubs).delete()
    FreeDealChange.objects.filter(tournament__club__in=clubs).delete()
    FreeDealTournament.objects.filter(club__in=clubs).delete()


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
            register_player_add(
                club=club,
                first_name=name[0],
                last_name=name[1],
                licence=f"{690000 + number:07d}",
                series=rng.choice(("2", "3", "3", "4")),
            ).player
        )
    return players


def _register(event: Event, players: Sequence[Player]) -> list[Entrant]:
    return [entrant_register(event=event, player=player) for player in players]


# ------------------------------------------------------------------------------- play


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
                table_result_enter(
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
    event_finish(event=event)
    standings_recompute(event_id=event.pk)  # the final standings (finishing publishes all)
    return DemoEvent(event=Event.objects.get(pk=event.pk), results=stored)


# ------------------------------------------------------------------------ simultaneous


#: The CSV columns of the imported file, as a French director's spreadsheet names them
#: (``docs/results-import-format.md``).
CSV_HEADER = (
    "Table", "Donne", "Contrat", "Bouts", "Points", "Petit au bout", "Poignée attaque",
    "Poignées défense", "Chelem annoncé", "Chelem réalisé",
)  # fmt: skip
CSV_CONTRACTS = {
    Contract.GARDE.value: "Garde",
    Contract.GARDE_SANS.value: "Garde sans",
    Contract.GARDE_CONTRE.value: "Garde contre",
}
CSV_SIDES = {"attack": "attaque", "defence": "défense"}


def _csv_points(points: object) -> str:
    """``46`` or ``40,5`` (the decimal comma of a French spreadsheet)."""
    return str(points).replace(".", ",")


def csv_line(table: int, deal: int, outcome: dict[str, Any]) -> str:
    """One line of the results file: a table's outcome of a deal, as a director types it."""
    poignees = outcome.get("poignees") or []
    attack = next((p["size"] for p in poignees if p["side"] == "attack"), "")
    defence = " + ".join(p["size"] for p in poignees if p["side"] == "defence")
    chelem = outcome.get("chelem") or {}
    cells = (
        str(table),
        str(deal),
        CSV_CONTRACTS[str(outcome["contract"])],
        str(outcome["oudlers"]),
        _csv_points(outcome["points"]),
        CSV_SIDES.get(str(outcome.get("petit_au_bout")), ""),
        attack,
        defence,
        "oui" if chelem.get("announced") else "",
        CSV_SIDES.get(str(chelem.get("made_by")), ""),
    )
    return ";".join(cells)


def results_csv(event: Event, rng: random.Random, rounds: Sequence[int]) -> str:
    """The CSV file of every simulated result of ``rounds``: one line per (deal, table), in the
    order of the deal sheets that travel with the étuis (deal, then table)."""
    deals_by_set: dict[int, list[Deal]] = {}
    for deal in Deal.objects.filter(event=event).order_by("number"):
        deals_by_set.setdefault(deal.deal_set, []).append(deal)
    lines: list[tuple[int, int, str]] = []
    for play in event.schedule.playing():
        if play.round not in rounds:
            continue
        for deal in deals_by_set.get(play.deal_set, []):
            outcome = play_outcome(deal, rng)
            lines.append((deal.number, play.table, csv_line(play.table, deal.number, outcome)))
    lines.sort()
    return "\n".join([";".join(CSV_HEADER), *(line for _deal, _table, line in lines)]) + "\n"


def _section_club(plan: SectionPlan, club: Club) -> Club:
    if plan.club == club.name:
        return club
    found, _created = Club.objects.get_or_create(name=plan.club, defaults={"city": plan.city})
    return found


def _play_section(section: Event, plan: SectionPlan, rng: random.Random, user: Any) -> DemoSection:
    """Enter ``section``'s results as ``plan.state`` says (see :data:`SECTION_PLANS`)."""
    last = section.schedule.round_numbers[-1]
    if plan.state == FINISHED:
        stored = play_event(section, rng)
        event_finish(event=section)
        return DemoSection(Event.objects.get(pk=section.pk), plan.state, stored)
    if plan.state == LAST_ROUND:
        tables = section.schedule.table_count
        # The last round in play: the first tables are done, the last two have entered one
        # and two of their deals.
        partial = {tables - 1: 1, tables: 2}

        def keep(round_number: int, table: int, index: int) -> bool:
            return round_number < last or index < partial.get(table, DEALS_PER_ROUND)

        stored = play_event(section, rng, keep=keep)
        return DemoSection(section, plan.state, stored, unfinished_round=last)
    # IMPORTED: the first rounds were scored on paper and typed into a spreadsheet; the
    # director imports the file, the tables enter the following rounds from their phones.
    imported = tuple(range(1, IMPORTED_ROUNDS + 1))
    text = results_csv(section, rng, imported)
    report = section_results_import(section=section, file=text.encode(), actor=user)
    if not report.ok:  # the simulation's outcomes are legal: never store half a demo
        raise DemoError(f"{section.name}: the results file was refused: {report.errors[0]}")
    stored = play_event(
        section, rng, keep=lambda round_number, table, index: round_number > IMPORTED_ROUNDS
    )
    imported_count = len(report.stored)
    return DemoSection(
        section, plan.state, stored + imported_count, imported=imported_count, results_csv=text
    )


def _simultaneous(
    club: Club, user: Any, rng: random.Random, seed: int, today: dt.date
) -> DemoSimultaneous:
    """The league's simultaneous and its sections (:data:`SECTION_PLANS`), played."""
    # The league's director (its owner) directs every section.
    league = club_create(name=DEMO_LEAGUE_NAME, city=DEMO_LEAGUE_CITY, organiser=user)
    parent = simultaneous_create(
        club=league, name=SIMULTANEOUS_NAME, date=today, format=Event.Format.INDIVIDUAL,
        deals_per_round=DEALS_PER_ROUND, rounds=SIMULTANEOUS_ROUNDS, public=True, seed=seed,
    )  # fmt: skip
    sections: list[Event] = []
    for index, plan in enumerate(SECTION_PLANS):
        section = section_create(
            simultaneous=parent, club=_section_club(plan, club), name=plan.name
        )
        players = _demo_players(rng, 4 * plan.tables, section.club, start=plan.first_player)
        _register(section, players)
        event_movement_set(
            event=section, tables=plan.tables, rounds=SIMULTANEOUS_ROUNDS, seed=seed + index
        )
        sections.append(section)
    # Every movement is set before the first section starts (a movement set in a running
    # simultaneous changes the tables playing each deal); then each section starts and plays.
    played = [
        _play_section(event_start(event=Event.objects.get(pk=section.pk)), plan, rng, user)
        for section, plan in zip(sections, SECTION_PLANS, strict=True)
    ]
    standings_recompute(event_id=parent.pk)
    parent = Event.objects.get(pk=parent.pk)
    hidden = deals_hidden_from(parent, directs=False)
    numbers = list(
        Deal.objects.filter(event=parent).order_by("number").values_list("number", flat=True)
    )
    return DemoSimultaneous(
        event=parent,
        sections=[replace(item, event=Event.objects.get(pk=item.event.pk)) for item in played],
        public_deal=next((n for n in numbers if n not in hidden), None),
        hidden_deal=next((n for n in numbers if n in hidden), None),
    )


def _series(club: Club, summary: DemoSummary) -> Series:
    """The club's season series over its events and its section of the simultaneous."""
    series = series_create(
        club=club, name=SERIES_NAME, season=f"{timezone.localdate().year}", public=True,
        method=Series.Method.POINTS, points_table=[10, 8, 6, 5, 4, 3, 2, 1], points_default=1,
        best_n=3, min_events=1,
    )  # fmt: skip
    events = [item.event for item in summary.events]
    if summary.simultaneous is not None:
        events += [s.event for s in summary.simultaneous.sections if s.event.club_id == club.pk]
    for event in sorted(events, key=lambda event: event.date):
        series_event_add(series=series, event=event)
    return series


def _cup_and_free_deal(club: Club, seed: int, today: dt.date) -> tuple[Any, Any]:
    """The club's team-match cup and free-deal tournament, played by its own members (those
    of the individual event: a club's players play every kind of competition)."""

    members = list(Player.objects.filter(club=club).order_by("licence")[:34])
    cup = cup_demo.build_demo(club=club, players=members[:20], seed=seed, today=today)
    free_deal = free_deal_demo.build_demo(
        club=club, players=members[20:34], seed=seed + 1, today=today - dt.timedelta(days=4)
    )
    return cup, free_deal


def build_demo(*, seed: int = DEFAULT_SEED, password: str | None = None) -> DemoSummary:
    """Reset and rebuild the demo club, its organiser, its three events and its league's
    simultaneous (see module doc)."""
    started = time.monotonic()
    rng = random.Random(seed)
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    if user is not None and not Club.objects.filter(name=DEMO_CLUB_NAME, organisers=user).exists():
        raise DemoError(
            f"a user named {DEMO_USERNAME!r} already exists and does not organise the demo club; "
            "use another database (DATABASE_URL) for the demo"
        )
    league = Club.objects.filter(name=DEMO_LEAGUE_NAME).first()
    if league is not None and league.organisers.exclude(username=DEMO_USERNAME).exists():
        raise DemoError(
            f"a club named {DEMO_LEAGUE_NAME!r} already exists with organisers of its own; "
            "use another database (DATABASE_URL) for the demo"
        )
    demo_reset()
    password = password or secrets.token_urlsafe(9)
    if user is None:
        user = user_model(username=DEMO_USERNAME)
    user.set_password(password)
    user.is_active = True
    user.save()
    club = club_create(name=DEMO_CLUB_NAME, city=DEMO_CLUB_CITY, organiser=user)  # its owner

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
    summary.simultaneous = _simultaneous(club, user, rng, seed + 3, today)
    summary.series = _series(club, summary)
    summary.cup, summary.free_deal = _cup_and_free_deal(club, seed + 4, today)
    summary.seconds = time.monotonic() - started
    return summary

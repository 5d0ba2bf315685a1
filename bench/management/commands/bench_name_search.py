"""``python manage.py bench_name_search``: time the searches and lists of people on a large
register, on whatever database the settings name (SQLite or PostgreSQL).

``--players N`` (default 30,000) builds, once, the club ``Registre Grande Échelle`` with N
players on its register (French names in capitals with accents, as federation exports write
them, one of them ``GUÉRIN Chloé``), then runs each read ``--runs`` times (default 50) and
prints its median, 95th percentile and worst time in milliseconds, and the database's plan for
it (``--json``: one JSON document). The reads: the event's player search (``chloe guerin``,
``guerin``), the register's page (first 500 lines in French order, and a search), the
namesakes looked up before a guest is created. Bad arguments exit with status 2 and one line.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import connection, transaction

from clubs.models import Club, Membership, Player
from clubs.register import register_namesakes
from clubs.selectors import people_matching, register_active_players, register_lines
from tournaments.management.base import OneLineErrorCommand
from tournaments.selectors import players_search

CLUB = "Registre Grande Échelle"
MAX_PLAYERS = 200_000
LAST = ["GUÉRIN", "DUPRÉ", "ÉTIENNE", "LEFÈVRE", "GARÇON", "BÉRARD", "MÉNARD", "NOËL", "ŒUVRAY",
        "D'HARCOURT", "LE GALL", "CHÂTEL", "FAURÉ", "GIRAUD", "GAILLARD", "VIDAL", "ROUX",
        "MARTIN", "BERNARD", "PETIT", "DURAND", "LEROY", "MOREAU", "SIMON", "LAURENT", "MICHEL",
        "GARCIA", "DAVID", "BERTRAND", "FONTAINE", "ROUSSEAU", "VINCENT", "MULLER", "LEFÈBVRE",
        "FAURE", "ANDRÉ", "MERCIER", "BLANC", "GUÉRARD", "BOYER", "CLÉMENT", "GÉRARD", "PÉRON",
        "HÉBERT", "BÉNARD", "RENAUD", "SCHMITT", "COLIN", "ARNAUD", "JOLY"]  # fmt: skip
FIRST = ["Chloé", "Hélène", "Léa", "Zoé", "Anaïs", "Noémie", "Clément", "Jérôme", "François",
         "Gaëlle", "Loïc", "Élodie", "Benoît", "Joël", "Agnès", "Cécile", "Marc", "Anne", "Paul",
         "Luc", "Jean", "Marie", "Pierre", "Sophie", "Thomas", "Julie", "Nicolas",
         "Camille"]  # fmt: skip


def _bad(message: str) -> CommandError:
    return CommandError(f"[invalid_arguments] {message}", returncode=2)


def _register(size: int) -> Club:
    """The benchmark's club with ``size`` players on its register (built once per size)."""
    club, _created = Club.objects.get_or_create(name=CLUB, defaults={"city": "Brest"})
    have = Membership.objects.filter(club=club).count()
    if have == size:
        return club
    rng = random.Random(31)
    with transaction.atomic():
        Membership.objects.filter(club=club).delete()
        Player.objects.filter(club=club).delete()
        players = [Player(last_name="GUÉRIN", first_name="Chloé", licence="0412345", club=club)]
        for number in range(1, size):
            last = rng.choice(LAST) + ("" if number % 3 else f"-{rng.choice(LAST).title()}")
            players.append(
                Player(
                    last_name=last,
                    first_name=rng.choice(FIRST),
                    licence=f"9{number:07d}" if number % 5 else None,
                    club=club,
                )
            )
        created = Player.objects.bulk_create(players, batch_size=2000)
        Membership.objects.bulk_create(
            [Membership(club=club, player=player) for player in created], batch_size=2000
        )
    return club


def _plan(sql: str, params: Any) -> list[str]:
    prefix = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN "
    with connection.cursor() as cursor:
        cursor.execute(prefix + sql, params)
        return [" ".join(str(cell) for cell in row) for row in cursor.fetchall()]


def _timed(read: Callable[[], Any], runs: int) -> dict[str, Any]:
    """Wall-clock figures, and the median CPU time of this process (the whole read on
    SQLite, which runs in the process; only the client's part on PostgreSQL)."""
    times, cpu = [], []
    for _run in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        found = read()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    times.sort()
    return {
        "found": found,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[min(len(times) - 1, int(0.95 * len(times)))], 2),
        "max_ms": round(times[-1], 2),
        "cpu_median_ms": round(statistics.median(cpu), 2),
    }


class Command(OneLineErrorCommand):
    help = "Time the searches and lists of people on a register of N players (default 30,000)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", default="30000")
        parser.add_argument("--runs", default="50")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            size, runs = int(options["players"]), int(options["runs"])
        except ValueError:
            raise _bad("--players and --runs are whole numbers") from None
        if not 1 <= size <= MAX_PLAYERS or not 1 <= runs <= 1000:
            raise _bad(f"--players is 1..{MAX_PLAYERS} and --runs 1..1000")
        start = time.perf_counter()
        club = _register(size)
        built = round(time.perf_counter() - start, 1)

        def search(query: str) -> Any:
            return people_matching(register_active_players(club), query)[:20]

        reads: list[tuple[str, Any, Callable[[], int]]] = [
            ("event search 'chloe guerin'", search("chloe guerin"),
             lambda: len(players_search(query="chloe guerin", club=club))),
            ("event search 'guerin'", search("guerin"),
             lambda: len(players_search(query="guerin", club=club))),
            ("register page, first 500 in French order", register_lines(club)[:500],
             lambda: len(list(register_lines(club)[:500]))),
            ("register search 'dupre'", register_lines(club, query="dupre")[:500],
             lambda: len(list(register_lines(club, query="dupre")[:500]))),
            ("namesakes of 'Chloe Guerin'", None,
             lambda: len(register_namesakes(club=club, first_name="Chloe", last_name="Guerin"))),
        ]  # fmt: skip
        results: dict[str, Any] = {}
        for name, queryset, read in reads:
            figures = _timed(read, runs)
            if queryset is not None:
                sql, params = queryset.query.sql_with_params()
                figures["plan"] = _plan(sql, params)
            results[name] = figures
        document = {
            "database": connection.vendor,
            "players": size,
            "runs": runs,
            "built_s": built,
            "reads": results,
        }
        if options["json"]:
            self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
            return
        self.stdout.write(f"{connection.vendor}: {size} players on the register, {runs} runs")
        for name, figures in results.items():
            self.stdout.write(
                f"  {name}: {figures['found']} found, median {figures['median_ms']} ms, "
                f"p95 {figures['p95_ms']} ms, max {figures['max_ms']} ms "
                f"(CPU of this process: median {figures['cpu_median_ms']} ms)"
            )
            for line in figures.get("plan", []):
                self.stdout.write(f"      {line}")

"""``python manage.py demo``: a ready-to-click demonstration of duplitarot on this machine.

Works on the demo's own database (:mod:`instance.demo_database`: ``demo.sqlite3`` beside the default
``db.sqlite3`` unless ``DUPLITAROT_DEMO_DATABASE_URL`` or an explicit ``DATABASE_URL`` names
another), never on a club's: a database holding anything but the demo (another club, player or
account) is refused, exit code 2, nothing changed. Checks first that it can serve on its port (a
port another server holds is one line on stderr and exit code 2, nothing built nor written), then
migrates that database, (re)builds the demo club with its organiser, three simulated events and
its league's simultaneous of three sections (see :mod:`demo.services`), prints what to open,
then serves the site on 127.0.0.1 (``--port``, default 8000) until Ctrl-C. ``--no-serve`` stops
after the setup. ``--lan`` serves on every address of the machine (0.0.0.0) for phones on the
room's Wi-Fi: it prints the machine's LAN address (:func:`instance.network.lan_address`, or
``--public-url``) as the address to open, and the table cards' QR codes point there
(``settings.DUPLITAROT_PUBLIC_URL``). The output is flushed as it goes (a pipe or a log file
sees the credentials at once).

Running it again rebuilds the demo data from scratch in the demo's database; nothing else is
touched. The CSV file one section imported is written to the temporary directory
(:data:`CSV_DIR`), for the organiser to import it again on the section's import page.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.db import connections
from django.utils.text import slugify

from clubs.errors import DomainError
from demo.plays import DemoError
from demo.selectors import finished_deal, ranking_leader, table_in_play
from demo.services import (
    DEFAULT_SEED,
    FINISHED,
    IMPORTED,
    IMPORTED_ROUNDS,
    LAST_ROUND,
    DemoSimultaneous,
    DemoSummary,
    build_demo,
    foreign_data,
)
from instance.demo_database import DEMO_DATABASE_ENV, DEMO_DATABASE_FILE
from instance.network import bind_problem, lan_address
from tournaments.management.base import OneLineErrorCommand
from tournaments.models import Entrant, Event

#: Where the imported results file is written (under the system's temporary directory).
CSV_DIR = "duplitarot-demo"


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise CommandError(f"--port: {value!r} is not a port number", returncode=2) from None
    if not 1 <= port <= 65535:
        raise CommandError(f"--port: {port} is outside 1..65535", returncode=2)
    return port


def _database_name() -> str:
    """The demo's database as the organiser knows it: its file, or its name."""
    return str(connections["default"].settings_dict["NAME"])


def _public_url(value: str) -> str:
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise CommandError(
            f"--public-url: {value!r} is not an address such as http://192.168.1.20:8000",
            returncode=2,
        )
    return value.strip().rstrip("/")


class Command(OneLineErrorCommand):
    help = (
        "Set up a demonstration club with three simulated events (individual, triplette, "
        "quadrette) and its league's simultaneous of three sections, and serve the site on "
        "127.0.0.1."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-serve", action="store_true",
                            help="stop after setting up the demo data")  # fmt: skip
        parser.add_argument("--port", default="8000", help="port to serve on (default 8000)")
        parser.add_argument(
            "--lan",
            action="store_true",
            help="serve on the room's network (0.0.0.0) for the players' phones, print the "
            "machine's LAN address and put it in the QR codes",
        )
        parser.add_argument(
            "--public-url",
            default="",
            help="with --lan: the address phones open, e.g. http://192.168.1.20:8000 "
            "(default: the LAN address found)",
        )
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                            help="seed of the deals and of the simulated play")  # fmt: skip
        parser.add_argument("--password", default="",
                            help="organiser password (default: generated)")  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        port = _port(str(options["port"]))
        password = options["password"]
        if password and len(password) < 8:
            raise CommandError("--password: use at least 8 characters", returncode=2)
        host, base = self._address(port, lan=options["lan"], public_url=options["public_url"])
        if not options["no_serve"]:
            # Before anything is built: a taken port leaves every database as it was.
            problem = bind_problem(host, port)
            if problem is not None:
                raise CommandError(
                    f"demo: cannot serve on {host}:{port}: {problem} (another server, an older "
                    "demo?); nothing was changed: stop that server or choose another --port",
                    returncode=2,
                )
        foreign = foreign_data()
        if foreign is not None:
            raise CommandError(
                f"demo: the database {_database_name()} holds {foreign}, not only the demo; "
                f"nothing was changed: the demo runs on a database of its own ({DEMO_DATABASE_FILE}"
                f" by default, or {DEMO_DATABASE_ENV})",
                returncode=2,
            )
        self._say("Migrating the demo's database…")
        call_command("migrate", interactive=False, verbosity=0)
        self._say("Building the demo club and playing its deals (about ten seconds)…")
        try:
            summary = build_demo(seed=options["seed"], password=password or None)
        except DemoError as exc:
            raise CommandError(f"demo: {exc}", returncode=2) from exc
        except (ValidationError, DomainError) as exc:
            message = "; ".join(getattr(exc, "messages", None) or [str(exc)])
            raise CommandError(f"demo: could not set up the events: {message}",
                               returncode=2) from exc  # fmt: skip
        csv_path = self._write_csv(summary)
        self._print_summary(summary, base, csv_path)
        if options["lan"]:
            self.stdout.write(f"Phones on the room's Wi-Fi open {base}/ (the table cards' QR codes "
                              f"point there); serving on every address of this machine, port "
                              f"{port}.")  # fmt: skip
            self.stdout.write("")
        self.stdout.flush()
        if options["no_serve"]:
            return
        self._say(self.style.SUCCESS(f"Serving on {base}/ — press Ctrl-C to stop."))
        call_command("runserver", f"{host}:{port}", use_reloader=False,
                     insecure_serving=True)  # fmt: skip

    def _say(self, line: str) -> None:
        """One line of progress, flushed at once (a pipe would otherwise hold it back)."""
        self.stdout.write(line)
        self.stdout.flush()

    def _address(self, port: int, *, lan: bool, public_url: str) -> tuple[str, str]:
        """Where to serve and the base URL to print: loopback, or with ``lan`` every address
        and the LAN address found (or ``public_url``), which the QR codes then use."""
        if public_url and not lan:
            raise CommandError("--public-url goes with --lan", returncode=2)
        if not lan:
            return "127.0.0.1", f"http://127.0.0.1:{port}"
        if public_url:
            base = _public_url(public_url)
        else:
            address = lan_address()
            if address is None:
                raise CommandError(
                    "demo --lan: this machine has no address on a local network (join the "
                    "room's Wi-Fi, or give --public-url http://ADDRESS:PORT)",
                    returncode=2,
                )
            base = f"http://{address}:{port}"
        hostname = urlsplit(base).hostname or ""
        if "*" not in settings.ALLOWED_HOSTS and hostname not in settings.ALLOWED_HOSTS:
            settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, hostname]
        settings.DUPLITAROT_PUBLIC_URL = base
        return "0.0.0.0", base

    def _write_csv(self, summary: DemoSummary) -> Path | None:
        """The imported results file, written for the organiser to try the import page."""
        section = summary.simultaneous and summary.simultaneous.imported_section
        if not section:
            return None
        name = f"resultats-{slugify(section.event.name)}.csv"
        path = Path(tempfile.gettempdir()) / CSV_DIR / name
        try:
            path.parent.mkdir(exist_ok=True)
            path.write_text(section.results_csv, encoding="utf-8")
        except OSError:
            return None  # the demo works without it
        return path

    def _print_summary(self, summary: DemoSummary, base: str, csv_path: Path | None) -> None:
        out = self.stdout.write
        simultaneous = summary.simultaneous
        sections = ""
        if simultaneous is not None:
            sections = f" and a simultaneous of {len(simultaneous.sections)} sections"
        out(self.style.SUCCESS(
            f"Demo ready in {summary.seconds:.1f} s: {len(summary.events)} events{sections}, "
            f"{summary.results} results played by simulation."
        ))  # fmt: skip
        out("")
        out(f"Organiser account:  {summary.username} / {summary.password}")
        out(f"  log in at         {base}/login/   (then {base}/organiser/)")
        out("")
        out(f"Public home:        {base}/        (English: {base}/en/)")
        for item in summary.events:
            event = item.event
            state = (
                f"running, round {item.unfinished_round} in play"
                if item.unfinished_round is not None
                else str(event.status)  # the printout is English: the status's value
            )
            out("")
            out(f"{event.name} — {event.get_format_display()}, {state}")
            out(f"  event home        {base}/events/{event.pk}/")
            out(f"  live ranking      {base}/events/{event.pk}/ranking/")
            out(f"  projector         {base}/events/{event.pk}/ranking/projector/")
            if event.is_team_event:
                out(f"  team ranking      {base}/events/{event.pk}/teams/")
            if event.format == Event.Format.QUADRETTE:
                out(f"  match sheets      {base}/events/{event.pk}/matches/")
            out(f"  movement          {base}/events/{event.pk}/movement/")
            finished = finished_deal(event)
            if finished is not None:
                out(f"  frequency sheet   {base}/events/{event.pk}/deals/{finished}/")
            leader = ranking_leader(event)
            if leader is not None:
                out(f"  a score card      {base}/events/{event.pk}/players/{leader}/")
            if item.unfinished_round is not None:
                table = table_in_play(event, item.unfinished_round)
                if table is not None:
                    out(f"  table entry       {base}/table/{table.code}/   "
                        f"(table {table.number}, still playing)")  # fmt: skip
            out(f"  exports           {base}/events/{event.pk}/export/ranking.xlsx  "
                f"{base}/events/{event.pk}/export/results.csv")  # fmt: skip
        if simultaneous is not None:
            self._print_simultaneous(simultaneous, base, csv_path)
        if summary.series is not None:
            series = summary.series
            out("")
            out(f"{series.name} — a series of the club's season")
            out(f"  series ranking    {base}/series/{series.pk}/   "
                f"(export: {base}/series/{series.pk}/export/ranking.csv)")  # fmt: skip
            out(f"  its formula       {base}/organiser/series/{series.pk}/")
        if summary.cup is not None:
            self._print_cup(summary.cup, base)
        if summary.free_deal is not None:
            self._print_free_deal(summary.free_deal, base)
        out("")
        out(f"REST API:           {base}/api/v1/   (docs: {base}/api/docs/)")
        out("")

    def _print_cup(self, cup: Any, base: str) -> None:
        from teammatch.models import CupMatch, MatchRoom

        out = self.stdout.write
        out("")
        out(f"{cup.name} — a knockout cup of team matches, the final in play")
        out(f"  bracket (live)    {base}/cups/{cup.pk}/")
        final = CupMatch.objects.filter(cup=cup).order_by("-round", "slot").first()
        if final is not None:
            out(f"  the final's sheet {base}/cups/{cup.pk}/matches/{final.pk}/")
            for room in MatchRoom.objects.filter(match=final).order_by("-room"):
                out(f"  {room.room + ' room phone':<17} {base}/cups/room/{room.code}/")
        out(f"  director          {base}/organiser/cups/{cup.pk}/")
        out(f"  API               {base}/api/v1/cups/{cup.pk}/bracket/")

    def _print_free_deal(self, tournament: Any, base: str) -> None:
        out = self.stdout.write
        out("")
        out(f"{tournament.name} — free deals, its last party in play")
        out(f"  ranking           {base}/free-deal/{tournament.pk}/")
        out(f"  seating           {base}/free-deal/{tournament.pk}/seating/")
        table = tournament.tables.order_by("-number").first()
        if table is not None:
            out(f"  table entry       {base}/free-deal/table/{table.code}/   "
                f"(table {table.number}, still playing)")  # fmt: skip
        out(f"  director          {base}/organiser/free-deal/{tournament.pk}/")
        out(f"  API               {base}/api/v1/free-deal/{tournament.pk}/ranking/")

    def _print_simultaneous(
        self, simultaneous: DemoSimultaneous, base: str, csv_path: Path | None
    ) -> None:
        out = self.stdout.write
        event = simultaneous.event
        url = f"{base}/events/{event.pk}"
        tables = sum(s.event.schedule.table_count for s in simultaneous.sections)
        out("")
        out(f"{event.name} — {event.get_format_display()}, a simultaneous of {event.club.name}, "
            f"{event.status}: {len(simultaneous.sections)} sections, {tables} tables")  # fmt: skip
        out(f"  home (sections)   {url}/")
        out(f"  overall ranking   {url}/ranking/   (a Section column)")
        if simultaneous.public_deal is not None:
            out(f"  frequency sheet   {url}/deals/{simultaneous.public_deal}/   "
                "(every section's tables)")  # fmt: skip
        if simultaneous.hidden_deal is not None:
            out(f"  a deal in play    {url}/deals/{simultaneous.hidden_deal}/   "
                "(hidden until every section has played it)")  # fmt: skip
        leader = ranking_leader(event)
        if leader is not None:
            section_id = Entrant.objects.values_list("event_id", flat=True).get(pk=leader)
            out(f"  a score card      {base}/events/{section_id}/players/{leader}/")
        out(f"  organiser         {base}/organiser/events/{event.pk}/   (its sections; "
            "the printed account directs every one)")  # fmt: skip
        for item in simultaneous.sections:
            section = item.event
            if item.state == LAST_ROUND:
                state = f"running, round {item.unfinished_round} in play"
            elif item.state == IMPORTED:
                state = (f"running, rounds 1-{IMPORTED_ROUNDS} imported from a CSV file "
                         f"({item.imported} results)")  # fmt: skip
            else:
                assert item.state == FINISHED
                state = "finished"
            out(f"  section {section.name} — {section.club.name}, "
                f"{section.schedule.table_count} tables, {state}")  # fmt: skip
            out(f"    section ranking {base}/events/{section.pk}/ranking/")
            if item.unfinished_round is not None:
                table = table_in_play(section, item.unfinished_round)
                if table is not None:
                    out(f"    table entry     {base}/table/{table.code}/   "
                        f"(table {table.number}, still playing)")  # fmt: skip
            if item.state == IMPORTED:
                out(f"    results import  {base}/organiser/events/{section.pk}/results/import/")
                if csv_path is not None:
                    out(f"    the file        {csv_path}   (importing it again changes nothing)")

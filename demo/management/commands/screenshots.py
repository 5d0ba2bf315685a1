"""``python manage.py screenshots``: full-page PNGs of the main pages, for a reviewer to look at.

Builds the demo (:func:`demo.services.build_demo`) in a fresh temporary SQLite database, or with
``--database configured`` reuses the demo already in the demo's own database (``demo.sqlite3``
unless configured otherwise: :mod:`instance.demo_database`; building it only when it is missing, and
refusing a database that holds anything but the demo), serves the site in-process on a free
loopback port and has Debian's Chromium (``/usr/bin/chromium``, through Playwright) save a
full-page screenshot of the main public and organiser pages (logged in as the demo organiser) at
each width, in one language. Prints the files written. Every wait is bounded; bad arguments end
with exit code 2 and one line.

The pages are listed once, here (:data:`ROUTES`, :func:`site_pages`), for every named URL of the
``public``, ``organiser``, ``series``, ``teammatch`` and ``freedeal`` namespaces: the
phone-width browser test visits all of them and checks that the list covers the URL resolver (a
URL is either visited or excluded with its reason in :data:`EXCLUDED`). The screenshots take the
main ones; ``--all`` takes every one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import MultipleObjectsReturned, ObjectDoesNotExist
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.urls import reverse
from django.utils import translation

from tournaments.management.base import OneLineErrorCommand

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
PAGE_TIMEOUT_MS = 30_000
#: The whole run in a temporary database (building the demo included), in seconds.
CHILD_TIMEOUT_S = 900
PHONE_HEIGHT, DESKTOP_HEIGHT = 844, 768
#: Set in the child process that works on the temporary database.
CHILD_ENV = "DUPLITAROT_SCREENSHOTS_CHILD"

# The demo's events a page is shown for.
INDIVIDUAL = "individual"  # running, its last round in play
TRIPLETTE = "triplette"  # finished
QUADRETTE = "quadrette"  # finished, with match sheets
SIMULTANEOUS = "simultaneous"  # the league's simultaneous (its sections' parent)
SECTION = "section"  # a section whose last round is in play
SITE = "site"  # pages of no event
SERIES = "series"  # the demo club's series (its Target's ``event`` is the Series)
CUP = "cup"  # the demo club's team-match cup, its final in play (``event`` is the Cup)
FREE_DEAL = "free_deal"  # the demo club's free-deal tournament, its last party in play
PLAYED = (INDIVIDUAL, TRIPLETTE, QUADRETTE, SECTION)
EVENTS = (*PLAYED, SIMULTANEOUS)
TEAMS = (TRIPLETTE, QUADRETTE)


@dataclass(frozen=True)
class Target:
    """One demo event and what its pages need: a deal whose results are public, a player's score
    card, a round, a table's result."""

    kind: str
    event: Any = None
    deal: int | None = None
    scorecard: tuple[int, int] | None = None  # (event id, entrant id)
    round_number: int = 1
    result: tuple[int, int] | None = None  # (table number, deal number)
    table_code: str | None = None


Kwargs = Callable[[Target], dict[str, object]]


def _none(target: Target) -> dict[str, object]:
    return {}


def _event_id(target: Target) -> dict[str, object]:
    return {"event_id": target.event.pk}


def _pk(target: Target) -> dict[str, object]:
    return {"pk": target.event.pk}


def _series_id(target: Target) -> dict[str, object]:
    return {"series_id": target.event.pk}


def _series_pk(target: Target) -> dict[str, object]:
    return {"series_pk": target.event.pk}


def _deal(target: Target) -> dict[str, object]:
    assert target.deal is not None, f"no public deal in the {target.kind} event"
    return {"event_id": target.event.pk, "number": target.deal}


def _scorecard(target: Target) -> dict[str, object]:
    assert target.scorecard is not None, f"no ranking in the {target.kind} event"
    return {"event_id": target.scorecard[0], "entrant_id": target.scorecard[1]}


def _round(target: Target) -> dict[str, object]:
    return {"pk": target.event.pk, "number": target.round_number}


def _sheets_round(target: Target) -> dict[str, object]:
    return {"pk": target.event.pk, "round_number": target.round_number}


def _sheet_table(target: Target) -> dict[str, object]:
    """A table that plays the target's round (its paper score sheet)."""
    rnd = target.event.schedule.round(target.round_number)
    table = next(play.table for play in rnd.tables if not play.sits_out)
    return {**_sheets_round(target), "table_number": table}


def _result(target: Target) -> dict[str, object]:
    assert target.result is not None, f"no result in the {target.kind} event"
    return {
        "pk": target.event.pk,
        "table_number": target.result[0],
        "deal_number": target.result[1],
    }


def _table(target: Target) -> dict[str, object]:
    assert target.table_code is not None, f"no table in play in the {target.kind} event"
    return {"code": target.table_code}


def _cup(target: Target) -> dict[str, object]:
    return {"cup_id": target.event.pk}


def _cup_final(target: Target) -> dict[str, object]:
    """The cup's last match (the final, in play)."""
    final = target.event.matches.order_by("-round", "slot").first()
    return {"cup_id": target.event.pk, "match_id": final.pk}


def _cup_team(target: Target) -> dict[str, object]:
    return {"cup_id": target.event.pk, "team_id": target.event.teams.order_by("seed")[0].pk}


def _cup_result(target: Target) -> dict[str, object]:
    """The director's page of the final's first deal in the open room."""
    kwargs = _cup_final(target)
    deal = target.event.matches.get(pk=kwargs["match_id"]).deals.order_by("number")[0]
    return {**kwargs, "number": deal.number, "room": "open"}


def _cup_room(target: Target) -> dict[str, object]:
    final = target.event.matches.order_by("-round", "slot").first()
    return {"code": final.rooms.get(room="open").code}


def _free_deal(target: Target) -> dict[str, object]:
    return {"pk": target.event.pk}


def _free_deal_player(target: Target) -> dict[str, object]:
    return {"pk": target.event.pk, "number": 1}


def _free_deal_table(target: Target) -> dict[str, object]:
    """A table still playing the last party (the highest number: the first one is done)."""
    return {"code": target.event.tables.order_by("-number")[0].code}


def _free_deal_result(target: Target) -> dict[str, object]:
    result = target.event.results.order_by("party", "table__number", "deal")[0]
    return {"pk": target.event.pk, "party": result.party, "table": result.table.number,
            "deal": result.deal}  # fmt: skip


@dataclass(frozen=True)
class Route:
    kinds: tuple[str, ...]
    kwargs: Kwargs
    main: tuple[str, ...] = ()  # the kinds whose page is among the main ones (screenshots)
    organiser: bool = False


#: Every page (a GET answering 200) of the public, organiser and series namespaces, and the table
#: phone's page, with the demo events (or series) it is visited for.
ROUTES: dict[str, Route] = {
    "public:home": Route((SITE,), _none, (SITE,)),
    "public:event": Route(EVENTS, _event_id, (INDIVIDUAL, SIMULTANEOUS)),
    "public:ranking": Route(EVENTS, _event_id, (INDIVIDUAL, QUADRETTE, SIMULTANEOUS)),
    "public:ranking_projector": Route(EVENTS, _event_id),
    "public:deals": Route(EVENTS, _event_id, (INDIVIDUAL,)),
    "public:deal": Route(EVENTS, _deal, (INDIVIDUAL, SIMULTANEOUS)),
    "public:players": Route(EVENTS, _event_id, (INDIVIDUAL,)),
    "public:scorecard": Route(PLAYED, _scorecard, (INDIVIDUAL,)),
    "public:teams": Route(TEAMS, _event_id, TEAMS),
    "public:matches": Route((QUADRETTE,), _event_id, (QUADRETTE,)),
    "public:movement": Route(EVENTS, _event_id, (INDIVIDUAL,)),
    "public:organiser_restore": Route((SITE,), _none, (SITE,), organiser=True),
    "organiser:home": Route((SITE,), _none, (SITE,), organiser=True),
    "organiser:event_create": Route((SITE,), _none, organiser=True),
    "organiser:simultaneous_create": Route((SITE,), _none, organiser=True),
    "organiser:event": Route(EVENTS, _pk, (INDIVIDUAL, SIMULTANEOUS), organiser=True),
    "organiser:event_edit": Route(EVENTS, _pk, organiser=True),
    "organiser:players": Route(EVENTS, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:teams": Route(TEAMS, _pk, (TRIPLETTE,), organiser=True),
    "organiser:movement": Route(EVENTS, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:deals": Route(EVENTS, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:simultaneous_deals": Route((SIMULTANEOUS,), _pk, organiser=True),
    "organiser:results_import": Route((SECTION,), _pk, organiser=True),
    "organiser:print_tables": Route(PLAYED, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:print_routes": Route(PLAYED, _pk, organiser=True),
    "organiser:print_deal_sets": Route(PLAYED, _pk, organiser=True),
    "organiser:print_hands": Route(PLAYED, _pk, organiser=True),
    "organiser:print_score_sheets_index": Route(PLAYED, _pk, organiser=True),
    "organiser:print_score_sheets": Route(PLAYED, _sheets_round, organiser=True),
    "organiser:print_score_sheet": Route(PLAYED, _sheet_table, (INDIVIDUAL,), organiser=True),
    "public:print_ranking": Route(PLAYED, _pk, (QUADRETTE,), organiser=True),
    "public:print_frequencies": Route(PLAYED, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:entry_grid": Route(PLAYED, _round, (INDIVIDUAL,), organiser=True),
    "organiser:entry_result": Route((INDIVIDUAL, QUADRETTE), _result, organiser=True),
    "organiser:penalties": Route(EVENTS, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:history": Route(EVENTS, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:control": Route(PLAYED, _pk, (INDIVIDUAL,), organiser=True),
    "organiser:control_missing": Route(PLAYED, _pk, organiser=True),
    "organiser:event_finish": Route((INDIVIDUAL, SECTION), _pk, (INDIVIDUAL,), organiser=True),
    "organiser:event_reopen": Route(TEAMS, _pk, organiser=True),
    "table:entry": Route((INDIVIDUAL, SECTION), _table, (INDIVIDUAL,)),
    "series:index": Route((SITE,), _none, (SITE,)),
    "series:ranking": Route((SERIES,), _series_id, (SERIES,)),
    "series:organiser_list": Route((SITE,), _none, organiser=True),
    "series:organiser_create": Route((SITE,), _none, organiser=True),
    "series:organiser_edit": Route((SERIES,), _series_pk, (SERIES,), organiser=True),
    "teammatch:index": Route((SITE,), _none, (SITE,)),
    "teammatch:bracket": Route((CUP,), _cup, (CUP,)),
    "teammatch:match": Route((CUP,), _cup_final, (CUP,)),
    "teammatch:room": Route((CUP,), _cup_room, (CUP,)),
    "teammatch:organiser_list": Route((SITE,), _none, organiser=True),
    "teammatch:organiser_create": Route((SITE,), _none, organiser=True),
    "teammatch:organiser_cup": Route((CUP,), _cup, (CUP,), organiser=True),
    "teammatch:organiser_team": Route((CUP,), _cup_team, organiser=True),
    "teammatch:organiser_match": Route((CUP,), _cup_final, (CUP,), organiser=True),
    "teammatch:organiser_result": Route((CUP,), _cup_result, organiser=True),
    "freedeal:index": Route((SITE,), _none, (SITE,)),
    "freedeal:ranking": Route((FREE_DEAL,), _free_deal, (FREE_DEAL,)),
    "freedeal:seating": Route((FREE_DEAL,), _free_deal, (FREE_DEAL,)),
    "freedeal:player": Route((FREE_DEAL,), _free_deal_player, (FREE_DEAL,)),
    "freedeal:table": Route((FREE_DEAL,), _free_deal_table, (FREE_DEAL,)),
    "freedeal:organiser_list": Route((SITE,), _none, organiser=True),
    "freedeal:organiser_create": Route((SITE,), _none, organiser=True),
    "freedeal:organiser_detail": Route((FREE_DEAL,), _free_deal, (FREE_DEAL,), organiser=True),
    "freedeal:organiser_correct": Route((FREE_DEAL,), _free_deal_result, organiser=True),
}

_ACTION = "POST only: an action that redirects to a page listed here, no page of its own"
_FILE = "a file download, not a page"
#: The named URLs of the public, organiser and series namespaces that are not pages, and why.
EXCLUDED: dict[str, str] = {
    "public:export_ranking": _FILE,
    "public:export_results": _FILE,
    "public:organiser_archive": _FILE + " (the event's JSON archive)",
    "public:organiser_results_file": _FILE + " (the results file for the league, CSV or JSON)",
    "series:export": _FILE,
    "teammatch:room_deal": _ACTION + " (a room phone saves a deal)",
    "teammatch:room_deal_correct": _ACTION + " (a room phone corrects its entry)",
    "teammatch:room_deal_preview": "POST only: an htmx fragment of the room page (the marks)",
    "freedeal:table_deal": _ACTION + " (a table phone saves a deal)",
    "freedeal:table_correct": _ACTION + " (a table phone corrects its entry of a deal)",
    "freedeal:table_preview": "POST only: an htmx fragment of the table phone (the marks)",
    "freedeal:organiser_action": _ACTION + " (the director's set-up and party actions)",
    "freedeal:organiser_late_handled": _ACTION + " (a late arrival marked handled)",
    "teammatch:organiser_late_handled": _ACTION + " (a late arrival marked handled)",
    "organiser:late_arrival_handled": _ACTION + " (a late arrival marked handled)",
    "organiser:clock_action": _ACTION + " (the director's round clock, on the control room)",
    **{
        f"teammatch:{name}": _ACTION
        for name in (
            "organiser_start", "organiser_finish_cup", "organiser_lineup",
            "organiser_close_quarter", "organiser_finish_match",
        )
    },
    **{
        f"series:{name}": _ACTION
        for name in ("organiser_event_add", "organiser_event_remove", "organiser_delete")
    },
    **{
        f"organiser:{name}": _ACTION
        for name in (
            "event_start", "round_close", "round_reopen", "player_add", "player_register",
            "players_import", "entrant_withdraw", "teams_auto", "team_delete", "movement_import",
            "deals_import", "deal_seats", "section_add", "section_delete",
            "simultaneous_deals_import", "entrant_substitute", "entrant_forfeit",
        )
    },
}  # fmt: skip


@dataclass(frozen=True)
class Page:
    name: str  # the URL name
    kind: str
    path: str  # without the language prefix
    organiser: bool
    main: bool

    @property
    def label(self) -> str:
        return f"{self.name.replace(':', '-').replace('_', '-')}-{self.kind}"


def demo_targets() -> dict[str, Target]:
    """The demo's events (as :func:`demo.services.build_demo` leaves them) and what their pages
    need, read from the database."""
    from demo.selectors import finished_deal, ranking_leader, table_in_play
    from demo.services import (
        DEMO_CLUB_NAME,
        DEMO_LEAGUE_NAME,
        LAST_ROUND,
        SECTION_PLANS,
        SERIES_NAME,
        SIMULTANEOUS_NAME,
    )
    from freedeal.models import FreeDealTournament
    from series.models import Series
    from teammatch.models import Cup
    from tournaments.models import Entrant, Event, TableResult
    from tournaments.publication import deals_hidden_from

    own = Event.objects.filter(club__name=DEMO_CLUB_NAME, simultaneous__isnull=True)
    simultaneous = Event.objects.get(club__name=DEMO_LEAGUE_NAME, name=SIMULTANEOUS_NAME)
    running = next(plan.name for plan in SECTION_PLANS if plan.state == LAST_ROUND)
    events = {
        INDIVIDUAL: own.get(format=Event.Format.INDIVIDUAL),
        TRIPLETTE: own.get(format=Event.Format.TRIPLETTE),
        QUADRETTE: own.get(format=Event.Format.QUADRETTE),
        SIMULTANEOUS: simultaneous,
        SECTION: simultaneous.sections.get(name=running),
    }
    series = Series.objects.get(club__name=DEMO_CLUB_NAME, name=SERIES_NAME)
    targets = {SITE: Target(SITE), SERIES: Target(SERIES, series)}
    targets[CUP] = Target(CUP, Cup.objects.get(club__name=DEMO_CLUB_NAME))
    targets[FREE_DEAL] = Target(
        FREE_DEAL, FreeDealTournament.objects.get(club__name=DEMO_CLUB_NAME)
    )
    for kind, event in events.items():
        if kind in (SIMULTANEOUS, SECTION):
            # A section plays its simultaneous's deals; the first one every section has played.
            hidden = deals_hidden_from(event, directs=False)
            numbers = simultaneous.deals.order_by("number").values_list("number", flat=True)
            deal = next((n for n in numbers if n not in hidden), None)
        else:
            deal = finished_deal(event)
        leader = ranking_leader(simultaneous if kind == SECTION else event)
        scorecard = None
        if leader is not None:
            scorecard = (Entrant.objects.values_list("event_id", flat=True).get(pk=leader), leader)
        result = (
            TableResult.objects.filter(event=event)
            .order_by("round_number", "table__number", "deal__number")
            .values_list("table__number", "deal__number")
            .first()
        )
        rounds = event.schedule.round_numbers
        in_play = None
        if kind in (INDIVIDUAL, SECTION) and rounds:
            table = table_in_play(event, rounds[-1])
            in_play = table.code if table is not None else None
        targets[kind] = Target(
            kind, event, deal, scorecard, rounds[-1] if rounds else 1, result, in_play
        )
    return targets


def site_pages(targets: dict[str, Target]) -> list[Page]:
    """Every page of :data:`ROUTES` for the demo's events, in that order; the paths are those of
    the default language (French: no prefix)."""
    pages = []
    with translation.override(settings.LANGUAGE_CODE):
        for name, route in ROUTES.items():
            for kind in route.kinds:
                path = reverse(name, kwargs=route.kwargs(targets[kind]))
                pages.append(Page(name, kind, path, route.organiser, kind in route.main))
    return pages


def localised(path: str, language: str) -> str:
    """``path`` (reversed in the default language) in ``language``: the i18n patterns put every
    other language under its prefix (``/en/...``); the API and ``/table/`` pages too."""
    if language == settings.LANGUAGE_CODE:
        return path
    return f"/{language}{path}"


def organiser_session() -> str:
    """A session key of the demo organiser (logged in without a password, as tests do)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from demo.services import DEMO_USERNAME

    client = Client()
    client.force_login(get_user_model().objects.get(username=DEMO_USERNAME))
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def demo_present() -> bool:
    try:
        demo_targets()
    except (ObjectDoesNotExist, MultipleObjectsReturned):
        return False
    return True


@contextmanager
def served() -> Iterator[str]:
    """The site (static files included) on a free loopback port, in a thread; its base URL."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler, allow_reuse_address=False)
    server.set_app(StaticFilesHandler(get_wsgi_application()))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _widths(value: str) -> list[int]:
    widths = []
    for item in value.split(","):
        try:
            width = int(item.strip())
        except ValueError:
            raise CommandError(
                f"--widths: {item.strip()!r} is not a width in pixels", returncode=2
            ) from None
        if not 200 <= width <= 4000:
            raise CommandError(f"--widths: {width} is outside 200..4000", returncode=2)
        if width not in widths:
            widths.append(width)
    return widths


class Command(OneLineErrorCommand):
    help = (
        "Save full-page screenshots of the main public and organiser pages of the demo at "
        "each width (default 390 and 1366 px) into a folder, and print the files."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", default="screenshots",
                            help="folder of the PNG files (default ./screenshots/)")  # fmt: skip
        parser.add_argument("--widths", default="390,1366",
                            help="viewport widths in pixels, comma-separated")  # fmt: skip
        parser.add_argument("--lang", default="fr", help="language of the pages (default fr)")
        parser.add_argument("--database", choices=("temporary", "configured"),
                            default="temporary",
                            help="build the demo in a temporary SQLite database (default), "
                                 "or reuse (or build) it in the demo's own "
                                 "(demo.sqlite3)")  # fmt: skip
        parser.add_argument("--all", action="store_true",
                            help="every page, not only the main ones")  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        widths = _widths(str(options["widths"]))
        language = str(options["lang"])
        languages = [code for code, _name in settings.LANGUAGES]
        if language not in languages:
            raise CommandError(f"--lang: {language!r} is not one of {', '.join(languages)}",
                               returncode=2)  # fmt: skip
        out = Path(str(options["out"]))
        if out.exists() and not out.is_dir():
            raise CommandError(f"--out: {out} exists and is not a folder", returncode=2)
        if not Path(CHROMIUM).exists():
            raise CommandError(f"screenshots: {CHROMIUM} is missing (apt-get install chromium)",
                               returncode=2)  # fmt: skip
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            raise CommandError("screenshots: the playwright package is missing (uv sync)",
                               returncode=2) from None  # fmt: skip
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"--out: cannot create {out}: {exc.strerror}",
                               returncode=2) from None  # fmt: skip
        if options["database"] == "temporary" and not os.environ.get(CHILD_ENV):
            self._in_temporary_database(out, options)
            return
        self._shoot(out, widths, language, every=bool(options["all"]))

    def _in_temporary_database(self, out: Path, options: dict[str, Any]) -> None:
        """Run this command again in a child process whose database is a new SQLite file."""
        with tempfile.TemporaryDirectory(prefix="duplitarot-screenshots-") as folder:
            env = dict(os.environ)
            env[CHILD_ENV] = "1"
            env["DATABASE_URL"] = f"sqlite:///{Path(folder) / 'demo.sqlite3'}"
            env["CELERY_TASK_ALWAYS_EAGER"] = "true"
            env.pop("CELERY_BROKER_URL", None)
            command = [
                sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "screenshots",
                "--out", str(out.resolve()), "--widths", str(options["widths"]),
                "--lang", str(options["lang"]), "--database", "configured",
                *(["--all"] if options["all"] else []),
            ]  # fmt: skip
            try:
                done = subprocess.run(command, env=env, timeout=CHILD_TIMEOUT_S, check=False)
            except subprocess.TimeoutExpired:
                raise CommandError(
                    f"screenshots: not done after {CHILD_TIMEOUT_S} s, stopped", returncode=1
                ) from None
        if done.returncode:
            raise CommandError("screenshots: failed (see above)", returncode=done.returncode)

    def _shoot(self, out: Path, widths: list[int], language: str, *, every: bool) -> None:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        from demo.services import build_demo, foreign_data
        from instance.demo_database import DEMO_DATABASE_ENV, DEMO_DATABASE_FILE

        foreign = foreign_data()
        if foreign is not None:
            raise CommandError(
                f"screenshots: the database holds {foreign}, not only the demo; nothing was "
                f"changed: the demo runs on a database of its own ({DEMO_DATABASE_FILE} by "
                f"default, or {DEMO_DATABASE_ENV})",
                returncode=2,
            )
        call_command("migrate", interactive=False, verbosity=0)
        if not demo_present():
            self.stderr.write("Building the demo (about a minute)…")
            build_demo()
        pages = [page for page in site_pages(demo_targets()) if every or page.main]
        session = organiser_session()
        written: list[Path] = []
        # Playwright's sync API runs an event loop in this thread: the ORM is done with above.
        with served() as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            try:
                for width in widths:
                    height = PHONE_HEIGHT if width < 800 else DESKTOP_HEIGHT
                    context = browser.new_context(
                        viewport={"width": width, "height": height}, locale=language
                    )
                    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                                          "value": session, "url": base}])  # fmt: skip
                    tab = context.new_page()
                    tab.set_default_timeout(PAGE_TIMEOUT_MS)
                    for index, page in enumerate(pages, start=1):
                        file = out / f"{index:02d}-{page.label}-{width}.png"
                        try:
                            tab.goto(base + localised(page.path, language))
                            tab.screenshot(path=str(file), full_page=True, animations="disabled")
                        except PlaywrightError as exc:
                            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                            raise CommandError(f"screenshots: {page.path}: {first}",
                                               returncode=1) from None  # fmt: skip
                        written.append(file)
                        self.stdout.write(str(file))
                    context.close()
            finally:
                browser.close()
        self.stderr.write(f"{len(written)} screenshots in {out}")

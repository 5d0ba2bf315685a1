"""No licence number reaches an anonymous visitor: the demo walked as the public sees it.

The demo is built (:func:`demo.services.build_demo`: running and finished events, a
simultaneous in three sections, a series, a team-match cup, a free-deal tournament), then an
anonymous client walks it: from the home pages (French and English), every page the screenshot
list names for the public (:data:`demo.management.commands.screenshots.ROUTES`), every phone
page and phone API of every table, cup room and free-deal table code, every export of every
event and of the series, and every read of the JSON API for every event, deal, series, cup and
free-deal tournament, it follows every link (``href``, ``src``, ``hx-get``, redirects, and the
URLs a JSON answer gives) that stays on the site and off the organisers' pages. Each answer
(HTML, JSON, CSV, the XML inside an XLSX) is searched for every licence of the register. The
public player search is asked every licence and finds nobody.

The walk is checked to be real: it reached every public URL name of the site and of the API
that answers a GET. Then the demo's organiser sees the licences where he needs them: his
exports, the results file for the league, a score card and the search by licence.
"""

from __future__ import annotations

import contextlib
import html
import io
import re
import zipfile
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from clubs.models import Player
from config.urls import API_ENDPOINTS
from demo.management.commands.screenshots import ROUTES, demo_targets, site_pages
from demo.services import DEMO_CLUB_NAME, DEMO_USERNAME, build_demo
from freedeal.models import FreeDealTable, FreeDealTournament
from series.models import Series
from teammatch.models import Cup, MatchRoom
from tournaments.models import Entrant, Event, Table

# Both tests read the one demo the module builds (:func:`built_demo`): they run on one xdist worker.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("public_licences")]

PASSWORD = "licences-demo-2026"
#: The walk stops there (it takes about 1,600 answers): a loop would fail, not hang.
MAX_ANSWERS = 8000
#: Never followed: the organisers' pages (a visitor gets the login page), the back office,
#: login and logout, the first run, static files, the language switch.
OFF_LIMITS = re.compile(
    r"^/(?:en/)?(?:organiser/|admin/|login/|logout/|setup/|invitation/)|^/static/|^/i18n/"
)
LINK = re.compile(r'(?:href|src|hx-get)="([^"]+)"')
#: The file downloads a visitor may take (the screenshot list names pages only).
DOWNLOADS = {"public:export_ranking", "public:export_results", "series:export"}


def _api_names(patterns: list[Any], namespace: str | None = None) -> Iterator[tuple[str, Any]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _api_names(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name and namespace == "api":
            yield f"api:{entry.name}", entry.callback


def public_url_names() -> set[str]:
    """Every named URL a visitor may GET: the public pages of the screenshot list (which
    covers the resolver's public namespaces: ``tests/browser/test_phone_width.py``), the
    downloads, and every API endpoint that answers GET (an API view class with ``get``)."""
    pages = {name for name, route in ROUTES.items() if not route.organiser}
    api = {
        name
        for name, callback in _api_names(get_resolver().url_patterns)
        if hasattr(callback.cls, "get")
    }
    return pages | DOWNLOADS | api


def _body(response: Any) -> str:
    """The answer as text: an XLSX's XML parts, a CSV or a page decoded."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if content.startswith(b"PK\x03\x04"):  # an XLSX: a zip of XML parts
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return "\n".join(archive.read(name).decode("utf-8") for name in archive.namelist())
    return content.decode("utf-8", errors="replace")


def _links(response: Any, text: str) -> Iterator[str]:
    kind = response.get("Content-Type", "")
    if kind.startswith("text/html"):
        for link in LINK.findall(text):
            yield html.unescape(link)
    elif kind.startswith("application/json"):
        yield from re.findall(r'"(http://testserver/[^"{}]+|/api/v1/[^"{}]+)"', text)
    if response.status_code in (301, 302, 303, 307, 308):
        yield response["Location"]


def _local(link: str) -> str | None:
    """``link`` as a path (with its query) on this site, or None (elsewhere, a fragment)."""
    parts = urlsplit(link)
    if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
        return None
    if not parts.path.startswith("/"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


class Walk:
    def __init__(self, client: Client, licences: set[str]) -> None:
        self.client = client
        self.found = re.compile(
            r"(?<![0-9A-Za-z])(" + "|".join(map(re.escape, sorted(licences))) + r")(?![0-9A-Za-z])"
        )
        self.seen: set[str] = set()
        self.queue: deque[str] = deque()
        self.leaks: list[str] = []
        self.names: set[str] = set()
        self.answers = 0

    def add(self, paths: Iterable[str]) -> None:
        for path in paths:
            local = _local(path)
            if local is None or local in self.seen or OFF_LIMITS.search(local):
                continue
            self.seen.add(local)
            self.queue.append(local)

    def run(self) -> None:
        while self.queue:
            path = self.queue.popleft()
            self.answers += 1
            assert self.answers <= MAX_ANSWERS, "the walk does not end"
            response = self.client.get(path)
            assert response.status_code < 500, path
            with contextlib.suppress(Resolver404):
                self.names.add(resolve(urlsplit(path).path).view_name)
            text = _body(response)
            for match in set(self.found.findall(text)):
                self.leaks.append(f"{path}: licence {match}")
            self.add(_links(response, text))


def _api_paths(events: list[Event]) -> Iterator[str]:
    """Every API read of the demo: each endpoint with each object it takes."""
    codes = {
        "table": Table.objects.values_list("code", flat=True),
        "cup_room": MatchRoom.objects.values_list("code", flat=True),
        "free_deal_table": FreeDealTable.objects.values_list("code", flat=True),
    }
    ids = {
        "series_ranking": Series.objects.values_list("pk", flat=True),
        "cup_bracket": Cup.objects.values_list("pk", flat=True),
        "free_deal_ranking": FreeDealTournament.objects.values_list("pk", flat=True),
    }
    for key, template in API_ENDPOINTS.items():
        path = "/api/v1/" + template
        if "{code}" in template:
            prefix = next(name for name in codes if key.startswith(name))
            for code in codes[prefix]:
                yield path.replace("{code}", code)
        elif key in ids:
            for pk in ids[key]:
                yield path.replace("{id}", str(pk))
        elif "{number}" in template:
            for event in events:
                for number in event.deals.values_list("number", flat=True):
                    yield path.replace("{event_id}", str(event.pk)).replace("{number}", str(number))
        elif "{" in template:
            for event in events:
                yield path.replace("{id}", str(event.pk)).replace("{event_id}", str(event.pk))
        else:
            yield path
    for event in events:
        for kind in ("individual", "line", "team"):
            yield f"/api/v1/events/{event.pk}/rankings/?kind={kind}"


def _exports(events: list[Event]) -> Iterator[str]:
    for prefix in ("/", "/en/"):
        for event in events:
            for what in ("ranking", "results"):
                for fmt in ("csv", "xlsx"):
                    yield f"{prefix}events/{event.pk}/export/{what}.{fmt}"
        for series in Series.objects.all():
            for fmt in ("csv", "xlsx"):
                yield f"{prefix}series/{series.pk}/export/ranking.{fmt}"


def _phone_pages() -> Iterator[str]:
    for code in Table.objects.values_list("code", flat=True):
        yield f"/table/{code}/"
    for code in MatchRoom.objects.values_list("code", flat=True):
        yield f"/cups/room/{code}/"
    for code in FreeDealTable.objects.values_list("code", flat=True):
        yield f"/free-deal/table/{code}/"


@pytest.fixture(scope="module")
def built_demo(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The demo, built once for the module in a transaction rolled back after its last test.
    Each test runs in a savepoint of that transaction (``django_db``): what one writes (a
    session, a login) is rolled back before the next one, which meets the demo as built."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            build_demo(password=PASSWORD)
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    yield
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)


def test_no_licence_reaches_an_anonymous_visitor(built_demo: None) -> None:
    licences = set(Player.objects.exclude(licence=None).values_list("licence", flat=True))
    first = Event.objects.filter(club__name=DEMO_CLUB_NAME).order_by("pk").first()
    assert first is not None
    first_licences = set(
        Entrant.objects.filter(event=first, player__licence__isnull=False).values_list(
            "player__licence", flat=True
        )
    )
    assert len(first_licences) == 28 and first_licences <= licences
    events = list(Event.objects.filter(public=True).order_by("pk"))
    assert len(events) == 7  # three events, the simultaneous and its three sections

    walk = Walk(Client(), licences)
    walk.add(["/", "/en/", "/api/v1/", "/api/schema/"])
    walk.add(page.path for page in site_pages(demo_targets()) if not page.organiser)
    walk.add(_phone_pages())
    walk.add(_exports(events))
    walk.add(_api_paths(events))
    walk.run()

    assert walk.leaks == [], "\n".join(walk.leaks[:40])
    missing = public_url_names() - walk.names
    assert missing == set(), f"the walk never reached {sorted(missing)}"
    assert walk.answers > 1000

    # The public search does not find a player by his licence.
    for event in events:
        if event.simultaneous_id is not None:
            continue  # searched from its simultaneous, which spans every section
        players = Entrant.objects.filter(
            event__in=[event, *event.sections.all()], player__licence__isnull=False
        ).values_list("player__licence", flat=True)
        for licence in players:
            response = Client().get(f"/en/events/{event.pk}/players/", {"q": licence})
            assert response.status_code == 200, licence
            assert "No player matches" in response.content.decode(), licence


def test_the_organiser_sees_the_licences_where_he_needs_them(built_demo: None) -> None:
    organiser = Client()
    organiser.force_login(get_user_model().objects.get(username=DEMO_USERNAME))
    own = Event.objects.filter(club__name=DEMO_CLUB_NAME, simultaneous__isnull=True)
    individual = own.get(format=Event.Format.INDIVIDUAL)
    triplette = own.get(format=Event.Format.TRIPLETTE)

    def licences_of(event: Event) -> set[str]:
        return set(
            Entrant.objects.filter(event=event, player__licence__isnull=False).values_list(
                "player__licence", flat=True
            )
        )

    for fmt in ("csv", "xlsx"):
        text = _body(organiser.get(f"/events/{individual.pk}/export/ranking.{fmt}"))
        assert licences_of(individual) <= set(re.findall(r"\b\d{7}\b", text))
    results_file = organiser.get(f"/organiser/events/{triplette.pk}/results-file.json").json()
    assert licences_of(triplette) == {row["licence"] for row in results_file["ranking"]}
    series = Series.objects.get(club__name=DEMO_CLUB_NAME)
    text = _body(organiser.get(f"/series/{series.pk}/export/ranking.csv"))
    assert licences_of(triplette) & set(re.findall(r"\b\d{7}\b", text))
    entrant = Entrant.objects.filter(event=individual, phantom=False).order_by("slot").first()
    assert entrant is not None and entrant.player is not None
    card = organiser.get(f"/en/events/{individual.pk}/players/{entrant.pk}/").content.decode()
    assert f"licence {entrant.player.licence}" in card
    found = organiser.get(f"/en/events/{individual.pk}/players/", {"q": entrant.player.licence})
    assert found.status_code == 302
    assert found["Location"] == f"/en/events/{individual.pk}/players/{entrant.pk}/"
    # The same pages for a visitor: no licence.
    visitor = Client()
    assert (
        f"licence {entrant.player.licence}"
        not in visitor.get(f"/en/events/{individual.pk}/players/{entrant.pk}/").content.decode()
    )
    assert "Licence" not in _body(visitor.get(f"/en/events/{individual.pk}/export/ranking.csv"))

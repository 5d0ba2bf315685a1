"""Schemathesis against the OpenAPI schema: every operation, a bounded number of examples.

The schema is the one drf-spectacular serves at ``/api/schema/``, loaded in-process from the
WSGI application; every request goes through the whole Django stack (no network). For each
operation, audience (anonymous visitor, organiser logged in with a session cookie) and
generation mode (data that fits the schema, data that does not), Hypothesis draws
``FUZZ_EXAMPLES`` cases (default 30), derandomised so that every run tries the same ones.
Path parameters and result bodies are steered, three times out of four at each step (a random
generator seeded by the operation and the example's rank), to what exists: the events, their
deal numbers, the table codes, the tables and the deals they play, a legal outcome. So the
cases reach past the 404s: reads of a running, a finished team and a private draft event,
results stored (201), replayed (200), conflicting (409), refused (400, 403), unknown table
codes throttled (429).

Every answer must be no server error, and conform to the schema: a documented status code, the
documented content type and headers, a body that validates against the documented schema.
Every example is sent even after a failure; the test fails at the end with one reproducer
(a curl command) per distinct failure (operation, mode, check, status code). ``-s`` prints, per
audience and mode, the examples tried and the status codes answered.

A longer run (more examples, other cases; a few minutes)::

    FUZZ_EXAMPLES=200 DJANGO_DEBUG=1 .venv/bin/python -m pytest -s -p no:cacheprovider \
        tests/test_api_fuzz.py
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.builders import random_outcome, scored_event, team_event
from tests.factories import EventFactory, OrganiserFactory
from tournaments.models import Event, TableResult
from tournaments.movements.schedule import deal_numbers

pytestmark = pytest.mark.django_db(transaction=True)

DEFAULT_EXAMPLES = 30


def examples_per_operation() -> int:
    """``FUZZ_EXAMPLES`` (a positive whole number), else ``DEFAULT_EXAMPLES``."""
    raw = os.environ.get("FUZZ_EXAMPLES", "").strip()
    if not raw:
        return DEFAULT_EXAMPLES
    if not raw.isdigit() or int(raw) < 1:
        raise pytest.UsageError(f"FUZZ_EXAMPLES={raw!r}: expected a positive whole number")
    return int(raw)


MAX_EXAMPLES = examples_per_operation()
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
# Any 32 alphanumeric characters are a valid CSRF secret (cookie and header alike).
CSRF_TOKEN = "fuzzfuzzfuzzfuzzfuzzfuzzfuzzfuzz"


@dataclasses.dataclass
class World:
    """What exists: the steering targets of path parameters and result bodies."""

    event_ids: list[int]
    deal_numbers: dict[int, list[int]]  # event id -> its deal numbers
    table_deals: dict[int, dict[int, list[int]]]  # event id -> table number -> deals it plays
    table_codes: dict[str, tuple[int, int]]  # code -> (event id, table number)
    open_deals: dict[str, list[int]]  # code -> deals of its table's first round not entered
    organiser: AbstractBaseUser


def rounds_of_tables(event: Event) -> dict[int, list[list[int]]]:
    """Table number -> the deal numbers it plays, round by round (sit-out rounds left out)."""
    schedule = event.schedule
    return {
        number: [
            list(deal_numbers(play.deal_set, event.deals_per_round))
            for play in schedule.plays_of_table(number)
            if play.plays
        ]
        for number in event.tables.values_list("number", flat=True)
    }


@pytest.fixture
def world() -> World:
    cache.clear()  # the unknown table code throttle counts in the cache: every test from zero
    running = scored_event(tables=5, rounds_played=1)
    team = team_event(format=Event.Format.QUADRETTE, teams=4)
    draft = EventFactory(club=running.club, public=False)
    organiser = OrganiserFactory(username="fuzz-organiser", clubs=[running.club])
    events = [running, team, draft]
    entered = set(TableResult.objects.values_list("table__code", "deal__number"))
    table_deals: dict[int, dict[int, list[int]]] = {}
    table_codes: dict[str, tuple[int, int]] = {}
    open_deals: dict[str, list[int]] = {}
    for event in events:
        rounds = rounds_of_tables(event)
        table_deals[event.pk] = {t: [n for d in deals for n in d] for t, deals in rounds.items()}
        for code, number in event.tables.values_list("code", "number"):
            table_codes[code] = (event.pk, number)
            missing = [d for d in rounds[number] if any((code, n) not in entered for n in d)]
            open_deals[code] = missing[0] if missing else []
    return World(
        event_ids=[event.pk for event in events],
        deal_numbers={e.pk: list(e.deals.values_list("number", flat=True)) for e in events},
        table_deals=table_deals,
        table_codes=table_codes,
        open_deals=open_deals,
        organiser=organiser,
    )


@pytest.fixture(scope="module")
def api_schema(django_db_setup: None, django_db_blocker: Any) -> Any:
    """The served schema, loaded once per module through the WSGI application. Django's
    request signals check the database connection (``close_old_connections``): the test
    database is unblocked for that one request."""
    with django_db_blocker.unblock():
        return schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())


def organiser_credentials(organiser: AbstractBaseUser) -> tuple[dict[str, str], dict[str, str]]:
    """Cookies and headers of a session of the organiser (``force_login``: the login page and
    its throttling are not under test here)."""
    client = Client()
    client.force_login(organiser)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    cookies = {settings.SESSION_COOKIE_NAME: session, settings.CSRF_COOKIE_NAME: CSRF_TOKEN}
    return cookies, {"X-CSRFToken": CSRF_TOKEN}


def steer(case: Any, rng: random.Random, world: World) -> None:
    """Point the case, three times out of four at each step, at what exists: an event, a table
    code, a deal it plays (of its open round, for a table code), a legal outcome. The other
    times the drawn value stays."""

    def often() -> bool:
        return rng.random() < 0.75

    params = case.path_parameters or {}
    event_id: int | None = None
    code: str | None = None
    for name in ("event_id", "id"):
        if name in params and often():
            params[name] = event_id = rng.choice(world.event_ids)
    if "code" in params and often():
        params["code"] = code = rng.choice(sorted(world.table_codes))
        event_id = world.table_codes[code][0]
    if event_id is None:
        return
    deals = world.deal_numbers[event_id]
    if "number" in params and deals and often():
        params["number"] = rng.choice(deals)
    body = case.body
    if case.method != "POST" or not isinstance(body, dict):
        return
    if code is not None:
        deals = world.open_deals[code] or deals
    elif "table" in body and world.table_deals[event_id] and often():
        tables = world.table_deals[event_id]
        body["table"] = table = rng.choice(sorted(tables))
        deals = tables[table] or deals
    if deals and often():
        body["deal"] = rng.choice(deals)
    if often():
        body["outcome"] = random_outcome(rng)


@dataclasses.dataclass
class Tally:
    """Examples tried, and one reproducer per distinct failure (check, status code)."""

    examples: int = 0
    unsatisfiable: bool = False
    statuses: Counter[int] = dataclasses.field(default_factory=Counter)
    failures: dict[str, str] = dataclasses.field(default_factory=dict)


def fuzz(operation: Any, mode: GenerationMode, call: Callable[[Any], Any], world: World) -> Tally:
    """Every example of ``operation`` is sent and checked; a failure is recorded, not raised,
    so that the run goes on and reports every distinct failure of every operation."""
    tally = Tally()

    @hypothesis_settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        tally.examples += 1
        # Seeded by the operation and the example's rank: every run steers the same way.
        steer(case, random.Random(f"{operation.label} {mode.value} {tally.examples}"), world)
        response = call(case)
        tally.statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except (Failure, FailureGroup) as error:
            found = error.exceptions if isinstance(error, FailureGroup) else (error,)
            for failure in found:
                key = f"{operation.label} [{mode.value}] {failure.code} {failure.title}"
                key += f" (HTTP {response.status_code})"
                tally.failures.setdefault(key, f"{failure.message}\n{case.as_curl_command()}")

    try:
        run()
    except Unsatisfiable:
        # Nothing of the operation can be made invalid (a string path parameter, no query, no
        # body): no negative case exists. Any other operation is tried in every mode.
        if tally.examples or mode is not GenerationMode.NEGATIVE:
            raise
        tally.unsatisfiable = True
    return tally


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize("audience", ["anonymous", "organiser"])
def test_every_operation_answers_as_documented(
    api_schema: Any, world: World, audience: str, mode: GenerationMode
) -> None:
    cookies, headers = (
        organiser_credentials(world.organiser) if audience == "organiser" else ({}, {})
    )

    def call(case: Any) -> Any:
        # The API answers gzip to a client that accepts it (GZipMiddleware): the checks read
        # the bodies as a client that does not.
        return case.call(cookies=cookies, headers={**headers, "Accept-Encoding": "identity"})

    operations = [result.ok() for result in api_schema.get_all_operations()]
    tallies = {op.label: fuzz(op, mode, call, world) for op in operations}
    examples = sum(t.examples for t in tallies.values())
    failures = {key: text for t in tallies.values() for key, text in t.failures.items()}
    statuses = sum((t.statuses for t in tallies.values()), Counter[int]())
    print(
        f"\n{audience}/{mode.value}: {len(operations)} operations, {examples} examples, "
        f"{len(failures)} distinct failures; statuses {dict(sorted(statuses.items()))}"
    )
    for label, tally in tallies.items():
        tried = "no invalid case exists" if tally.unsatisfiable else f"{tally.examples} examples"
        print(f"  {label}: {tried} {dict(sorted(tally.statuses.items()))}")
    assert len(operations) >= 12
    # Steering reaches past the 404s: stored results are read, and in valid mode written.
    assert statuses[200] > 0
    if mode is GenerationMode.POSITIVE and audience == "organiser":
        assert statuses[201] > 0
    assert not failures, "\n\n".join(f"{key}\n{text}" for key, text in failures.items())

"""Every phone route (page or API) looks its code up through the kernel's one path, throttled.

The routes come from the URL configuration itself: every pattern whose route captures a
``code`` must be a page decorated by :func:`clubs.phone_codes.phone_page` or an API view of
:class:`clubs.phone_codes.PhoneCodeAPIView`. Each one is then sent unknown codes from one
address until the throttle answers 429 with ``Retry-After``, and a valid code still works from
that address.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from clubs.phone_codes import (
    PHONE_CODE_ALPHABET,
    PHONE_CODE_LENGTH,
    PhoneCodeAPIView,
    UnknownCode,
    new_phone_code,
    phone_code_lookup,
)


@dataclass(frozen=True)
class Route:
    name: str  # namespaced URL name
    pattern: str  # the route as written, namespaces' prefixes included
    callback: Any
    kwargs: tuple[str, ...]  # the captured names

    @property
    def is_api(self) -> bool:
        return hasattr(self.callback, "cls")

    def url(self, code: str) -> str:
        values: dict[str, Any] = {name: 1 for name in self.kwargs}
        values["code"] = code
        return reverse(self.name, kwargs=values)


def _walk(resolver: URLResolver, prefix: str = "", namespace: str = "") -> Iterator[Route]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = namespace
            if entry.namespace:
                ns = f"{namespace}{entry.namespace}:"
            yield from _walk(entry, prefix + str(entry.pattern), ns)
        elif isinstance(entry, URLPattern) and entry.name:
            converters = getattr(entry.pattern, "converters", {})
            yield Route(
                name=namespace + entry.name,
                pattern=prefix + str(entry.pattern),
                callback=entry.callback,
                kwargs=tuple(converters),
            )


def phone_routes() -> list[Route]:
    """Every named route capturing a ``code`` (once per name: i18n prefixes repeat them)."""
    seen: dict[str, Route] = {}
    for route in _walk(get_resolver()):
        if "code" in route.kwargs and route.name not in seen:
            seen[route.name] = route
    return sorted(seen.values(), key=lambda route: route.name)


ROUTES = phone_routes()


def test_the_walk_finds_the_phones_of_every_kind() -> None:
    names = {route.name for route in ROUTES}
    assert {"table:entry", "api:table", "teammatch:room", "freedeal:table"} <= names


@pytest.mark.parametrize("route", ROUTES, ids=lambda route: route.name)
def test_every_route_taking_a_code_goes_through_the_kernel(route: Route) -> None:
    if route.is_api:
        assert issubclass(route.callback.cls, PhoneCodeAPIView), route.pattern
    else:
        assert getattr(route.callback, "phone_code_route", False), route.pattern


def test_codes_avoid_look_alikes() -> None:
    codes = {new_phone_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == PHONE_CODE_LENGTH
        assert set(code) <= set(PHONE_CODE_ALPHABET)
    assert not set("01ILOU") & set(PHONE_CODE_ALPHABET)


@pytest.mark.django_db
def test_the_lookup_finds_a_code_and_counts_nothing_then() -> None:
    from tests.factories import TableFactory
    from tournaments.models import Table

    table = TableFactory()
    request = type("R", (), {"META": {"REMOTE_ADDR": "127.0.0.9"}})()
    assert phone_code_lookup(request, Table.objects.all(), table.code) == table
    with pytest.raises(UnknownCode):
        phone_code_lookup(request, Table.objects.all(), "NOPE")


@pytest.mark.django_db
@override_settings(TABLE_CODE_FAILURE_RATE="3/min")
@pytest.mark.parametrize("route", ROUTES, ids=lambda route: route.name)
def test_unknown_codes_are_throttled_on_every_phone_route(route: Route) -> None:
    client = Client(REMOTE_ADDR="127.0.0.7")
    probe = client.get(route.url("NOPE0"))
    method = "post" if probe.status_code == 405 else "get"  # a POST-only route answers 405
    send = getattr(client, method)
    codes = [probe.status_code] if method == "get" else []
    while len(codes) < 3:
        codes.append(send(route.url(f"NOPE{len(codes) + 1}")).status_code)
    assert codes == [404, 404, 404], (route.name, codes)
    blocked = send(route.url("NOPEAGAIN"))
    assert blocked.status_code == 429, (route.name, blocked.status_code)
    assert int(blocked["Retry-After"]) >= 1
    other = Client(REMOTE_ADDR="127.0.0.8")
    assert getattr(other, method)(route.url("NOPE")).status_code == 404


def _phone_object_code(route: Route) -> str:
    """A valid code of the kind of phone ``route`` serves (a table of a duplicate event, a cup
    room, a free-deal table)."""
    from teammatch.models import MatchRoom, RoomName
    from tests.factories import CupMatchFactory, RunningFreeDealFactory, TableFactory

    if route.name.startswith(("api:cup_room", "teammatch:")):
        return MatchRoom.objects.create(match=CupMatchFactory(), room=RoomName.OPEN).code
    if route.name.startswith(("api:free_deal", "freedeal:")):
        return str(RunningFreeDealFactory().tables.get().code)
    assert route.name.startswith(("api:table", "table:")), route.name
    return str(TableFactory().code)


def test_the_printed_codes_have_a_lower_case() -> None:
    assert PHONE_CODE_ALPHABET.lower() != PHONE_CODE_ALPHABET


@pytest.mark.django_db
@override_settings(TABLE_CODE_FAILURE_RATE="1/min")
@pytest.mark.parametrize("route", ROUTES, ids=lambda route: route.name)
def test_a_code_typed_in_lower_case_is_the_code(route: Route) -> None:
    """Every phone route of the three kinds takes the card's code in lower case: a page read
    by GET redirects to its canonical address, anything else answers as the code itself does;
    no failure counted (else the second try, past the rate of 1, would be a 429)."""
    code = _phone_object_code(route)
    client = Client(REMOTE_ADDR="127.0.0.6")
    probe = client.get(route.url(code))
    method = "post" if probe.status_code == 405 else "get"
    expected = getattr(client, method)(route.url(code)).status_code
    for _ in range(2):
        answer = getattr(client, method)(route.url(code.lower()))
        if method == "get" and not route.is_api:
            assert answer.status_code == 302, (route.name, answer.status_code)
            assert answer["Location"] == route.url(code)
        else:
            assert answer.status_code == expected, (route.name, answer.status_code, expected)
    # The address has not used its one failure: an unknown code is a 404, not yet a 429.
    assert getattr(client, method)(route.url("NOPE")).status_code == 404
    assert getattr(client, method)(route.url("NOPE2")).status_code == 429


@pytest.mark.django_db
def test_a_redirect_keeps_the_query() -> None:
    from tests.factories import TableFactory

    table = TableFactory()
    answer = Client().get(reverse("table:entry", kwargs={"code": table.code.lower()}) + "?x=1")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("table:entry", kwargs={"code": table.code}) + "?x=1"


@pytest.mark.django_db
def test_an_older_mixed_case_code_is_still_found_as_typed() -> None:
    from tests.factories import TableFactory
    from tournaments.models import Table

    table = TableFactory(code="abcDEF-x_9")
    other = TableFactory(code="ABCDEF-X_9")
    request = type("R", (), {"META": {"REMOTE_ADDR": "127.0.0.9"}})()
    assert phone_code_lookup(request, Table.objects.all(), "abcDEF-x_9") == table
    assert phone_code_lookup(request, Table.objects.all(), "abcdef-x_9") == other
    answer = Client().get(reverse("table:entry", kwargs={"code": table.code}))
    assert answer.status_code != 302  # its own canonical address

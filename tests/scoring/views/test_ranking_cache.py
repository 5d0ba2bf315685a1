"""The cached ranking stays inert: whatever the cache gives back is shown as text, never run.

The ranking table is cached on the standings' versions (``scoring.views.public.ranking``). A
cache is shared (Redis on a server, a folder of files on a club's laptop): what comes back from
it is data, rendered through the template's escaping, never markup marked safe. These tests
write a ``<script>`` into the cached ranking, as somebody who can write to the cache would, and
read the pages back as another process would (without the fragments this one rendered itself:
``rendered_fragments``, process memory).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils.safestring import SafeString

from scoring.views.public.ranking import RenderedFragments, rendered_fragments
from tests.builders import scored_event, team_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('cache')</script>"


def _ranking_keys() -> list[str]:
    """The keys of the cached rankings, as ``cache.set`` takes them (the local-memory cache's
    stored keys carry the key prefix and version, ``:1:``)."""
    stored = list(cache._cache)  # type: ignore[attr-defined]
    keys = [key.split(":", 2)[2] for key in stored if "public-ranking" in key]
    assert keys, "the page cached no ranking"
    return keys


def _pages(event: Event) -> list[tuple[str, dict[str, str]]]:
    url = f"/en/events/{event.pk}/ranking/"
    return [
        (url, {}),
        (url, {"HX-Request": "true"}),
        (f"/en/events/{event.pk}/ranking/projector/", {}),
    ]


def _read(client: Client, event: Event) -> list[str]:
    bodies = []
    for url, headers in _pages(event):
        response = client.get(url, headers=headers)
        assert response.status_code in (200, 286), url
        bodies.append(response.content.decode())
    return bodies


@pytest.fixture
def event() -> Event:
    """Every round played: the ranking is published."""
    return scored_event(tables=3, deals_per_round=1)


def test_markup_planted_in_the_cache_is_not_served(client: Client, event: Event) -> None:
    _read(client, event)
    for key in _ranking_keys():
        cache.set(key, f"<table><tr><td>{SCRIPT}</td></tr></table>", 3600)
    # This process serves what it rendered itself; another one reads the shared cache.
    assert all(SCRIPT not in body for body in _read(client, event))
    rendered_fragments.clear()
    for body in _read(client, event):
        assert SCRIPT not in body
    # The page still shows the ranking: the cached value was not taken for one.
    assert "<table" in _read(client, event)[0]


def _poisoned(value: Any) -> Any:
    """``value`` (a cached ranking's rows) with a script for every name it holds."""
    if isinstance(value, list | tuple):
        return type(value)(_poisoned(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if field.name in ("name", "team", "section_name") and isinstance(item, str):
                changes[field.name] = SCRIPT
            elif isinstance(item, list | tuple):
                changes[field.name] = _poisoned(item)
        return dataclasses.replace(value, **changes)
    return value


@pytest.mark.parametrize("kind", ["individual", "quadrette"])
def test_a_script_written_into_the_cached_rows_is_rendered_as_text(
    client: Client, kind: str
) -> None:
    event = (
        scored_event(tables=3, deals_per_round=1)
        if kind == "individual"
        else team_event(format=Event.Format.QUADRETTE, teams=4)
    )
    _read(client, event)
    if kind == "quadrette":
        client.get(f"/en/events/{event.pk}/ranking/?view=team")
    planted = 0
    for key in _ranking_keys():
        value = cache.get(key)
        poisoned = _poisoned(value)
        assert poisoned != value, "the cache holds no names"
        cache.set(key, poisoned, 3600)
        planted += 1
    assert planted
    rendered_fragments.clear()  # another process
    bodies = _read(client, event)
    if kind == "quadrette":
        bodies.append(client.get(f"/en/events/{event.pk}/ranking/?view=team").content.decode())
    for body in bodies:
        assert SCRIPT not in body
        assert "&lt;script&gt;alert(&#x27;cache&#x27;)&lt;/script&gt;" in body


def test_a_process_keeps_its_last_fragments_for_a_while() -> None:
    kept = RenderedFragments(kept=2, seconds=3600)
    for key in ("a", "b"):
        kept.put(key, SafeString(key))
    assert kept.get("a") == "a"  # now the most recent
    kept.put("c", SafeString("c"))
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == ("a", None, "c")
    expired = RenderedFragments(kept=2, seconds=-1)
    expired.put("a", SafeString("a"))
    assert expired.get("a") is None

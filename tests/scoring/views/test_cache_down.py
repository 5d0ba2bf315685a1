"""Redis (the cache) down: pages render from the database instead of answering 500.

The cache is django-redis with ``IGNORE_EXCEPTIONS``: a read is a miss, a write is skipped.
Here it points at a loopback port nobody listens on.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.builders import scored_event

pytestmark = pytest.mark.django_db

UNREACHABLE = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers Redis there
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 0.2,
            "SOCKET_TIMEOUT": 0.2,
        },
    }
}


def test_pages_render_with_the_cache_down(client: Client, settings: pytest.FixtureRequest) -> None:
    event = scored_event(tables=3, deals_per_round=1, rounds_played=1)
    settings.CACHES = UNREACHABLE  # type: ignore[attr-defined]
    assert cache.get("anything") is None  # a miss, not an error
    for name in ("public:ranking", "public:ranking_projector", "public:event"):
        response = client.get(reverse(name, args=[event.pk]))
        assert response.status_code == 200, name
    assert b"%" in client.get(reverse("public:ranking", args=[event.pk])).content

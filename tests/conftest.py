"""Shared fixtures. Tests of the pure packages never touch the database.

The run uses ``config.settings_test`` (pytest's ``DJANGO_SETTINGS_MODULE``) and turns every
warning into an error (``filterwarnings`` in pyproject.toml).
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_outside_requests() -> Iterator[None]:
    """Service and form messages are asserted in the English source language.

    French is the product's default (pages under ``/`` are French, ``/en/`` English); tests that
    check French wording ask for it explicitly (``translation.override("fr")`` or a French URL).
    """
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Nothing cached by one test (rankings, and the fragments a process keeps of its own
    rendering) is seen by the next one."""
    yield
    cache.clear()
    from scoring.views.public.ranking import rendered_fragments

    rendered_fragments.clear()


@pytest.fixture(autouse=True)
def _no_published_hands_across_tests() -> Iterator[None]:
    """The recompute keeps the hands it published per (event, version); SQLite reuses primary
    keys after a test's rollback, so the next test must not find them."""
    yield
    from scoring.services import forget_published_hands

    forget_published_hands()


# ------------------------------------------------------------------------------- the fast loop
#: Fixtures that start a browser or a server for the test.
BROWSER_FIXTURES = frozenset({"new_page"})
SERVER_FIXTURES = frozenset({"live_server"})
TESTS_DIR = Path(__file__).resolve().parent


def _starts_its_own_services(item: pytest.Item) -> bool:
    """A test of the ``services`` group that needs real services: it starts servers, workers or a
    load of its own (``duplitarot serve``, gunicorn, Celery, Redis, PostgreSQL...)."""
    in_services_group = any(
        mark.args[:1] == ("services",) for mark in item.iter_markers("xdist_group")
    )
    return in_services_group and item.get_closest_marker("integration") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what starts a browser (``browser``) or servers and load (``served``); both are
    ``slow``: outside the fast loop (``./dev test``), run by ``./dev test --all``."""
    browser_dir = TESTS_DIR / "browser"
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.path.is_relative_to(browser_dir) or fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if fixtures & SERVER_FIXTURES or _starts_its_own_services(item):
            item.add_marker(pytest.mark.served)
        if item.get_closest_marker("browser") or item.get_closest_marker("served"):
            item.add_marker(pytest.mark.slow)

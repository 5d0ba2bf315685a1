"""Shared fixtures. Tests of the pure packages never touch the database.

The run uses ``config.settings_test`` (pytest's ``DJANGO_SETTINGS_MODULE``) and turns every
warning into an error (``filterwarnings`` in pyproject.toml).
"""

from collections.abc import Iterator

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

"""Shared fixtures. Tests of the pure packages never touch the database."""

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_outside_requests() -> Iterator[None]:
    """Service and form messages are asserted in the English source language.

    French is the product's default (pages under ``/`` are French, ``/en/`` English); tests that
    check French wording ask for it explicitly (``translation.override("fr")`` or a French URL).
    """
    with translation.override("en"):
        yield

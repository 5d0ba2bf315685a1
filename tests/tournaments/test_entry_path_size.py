"""What one table save reads does not grow with the event: a table phone saving a result
loads its own seats' entrants and its own deal sets, never the whole field, and never decodes
the movement document (the schedule comes from the per-process cache)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from tests.builders import first_play, random_outcome, running_event
from tournaments.models import Deal, Entrant, Event

pytestmark = pytest.mark.django_db


@contextmanager
def loaded_rows() -> Iterator[Counter[str]]:
    """Count the model instances built from the database, by model name."""
    counts: Counter[str] = Counter()
    original = Model.from_db.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Model], db: str, field_names: object, values: object) -> Model:
        counts[cls.__name__] += 1
        return original(cls, db, field_names, values)  # type: ignore[no-any-return]

    with mock.patch.object(Model, "from_db", classmethod(counting)):
        yield counts


def _save_first_deal(client: Client, event: Event) -> tuple[Counter[str], int]:
    table, deal, _play = first_play(event)
    with loaded_rows() as counts:
        response = client.post(
            reverse("api:table_results", kwargs={"code": table.code}),
            data=json.dumps(
                {"deal": deal.number, "outcome": random_outcome(random.Random(3), deal)}
            ),
            content_type="application/json",
        )
    return counts, response.status_code


def test_a_save_reads_the_tables_own_rows_not_the_events(client: Client) -> None:
    rounds, deals_per_round = 3, 2
    event = running_event(tables=16, rounds=rounds, deals_per_round=deals_per_round, seed=1)
    # What table 1 can see over the event: 4 seats and one deal set a round.
    seat_bound = 4 * rounds
    deal_bound = rounds * deals_per_round
    assert Entrant.objects.filter(event=event).count() > 2 * seat_bound
    assert Deal.objects.filter(event=event).count() > 2 * deal_bound

    rows, status = _save_first_deal(client, event)

    assert status == 201
    # Read at most twice (the table's rounds, then the save's own seating check).
    assert 0 < rows["Entrant"] <= 2 * seat_bound
    assert 0 < rows["Deal"] <= 2 * deal_bound


def test_a_save_does_not_decode_the_movement_document(client: Client) -> None:
    event = running_event(tables=6, rounds=3, deals_per_round=2, seed=2)
    _save_first_deal(client, event)  # the schedule enters the per-process cache
    with mock.patch(
        "tournaments.models.Schedule.from_document", side_effect=AssertionError("decoded")
    ):
        _rows, status = _save_first_deal(client, event)
    assert status in (200, 201)

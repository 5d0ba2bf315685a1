"""Players of equal rank in French order of their names, the same in every outlet: the ranking
page, the printed ranking, the CSV export, the API and the results file (one rule: the core's
``tie_order``, stored with the ranking and read in that order)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client

from scoring.selectors import ranking_rows
from tests.factories import OrganiserFactory
from tests.scoring import results_file_world as world
from tournaments.models import Event

pytestmark = pytest.mark.django_db

#: The four at 50 % share rank 3; registered (their ids) as ROUX, BÉRARD, DUPRÉ, GARÇON.
TIED_IN_FRENCH_ORDER = ["BÉRARD", "DUPRÉ", "GARÇON", "ROUX"]


def tied_event() -> Event:
    """``results_file_world.individual_event``'s deals: slots 3, 4, 7 and 8 score 50 %."""
    lyon, _villeurbanne = world.clubs()
    names = ["Arnaud", "Berger", "ROUX", "BÉRARD", "Faure", "Girard", "DUPRÉ", "GARÇON"]
    players = [
        world.player("Anne", last, f"09{number:05d}", lyon, registers=[(lyon, "")])
        for number, last in enumerate(names, start=1)
    ]
    event = world.services.event_create(
        club=lyon, name="Égalités", date=world.DATE, format=Event.Format.INDIVIDUAL,
        deals_per_round=2, public=True,
    )  # fmt: skip
    event = world._prepared(event, players, ["N", "E"])
    world.enter(
        event,
        {
            (1, 1): world.MADE_60,
            (2, 1): world.FAILED_60,
            (1, 2): world.MADE_60,
            (2, 2): world.MADE_80,
        },
    )
    return world._finished(event)


def test_every_outlet_lists_equal_ranks_in_french_order() -> None:
    event = tied_event()
    rows = ranking_rows(event)
    assert [row.entrant.player.last_name for row in rows if row.rank == 3] == TIED_IN_FRENCH_ORDER
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))

    def in_order(text: str) -> list[str]:
        found = {name: text.find(name) for name in TIED_IN_FRENCH_ORDER}
        assert all(position >= 0 for position in found.values()), found
        return sorted(found, key=found.__getitem__)

    page = client.get(f"/events/{event.pk}/ranking/").content.decode()
    assert in_order(page) == TIED_IN_FRENCH_ORDER
    paper = client.get(f"/organiser/events/{event.pk}/print/ranking/").content.decode()
    assert in_order(paper) == TIED_IN_FRENCH_ORDER
    export = client.get(f"/events/{event.pk}/export/ranking.csv").content.decode("utf-8-sig")
    assert in_order(export) == TIED_IN_FRENCH_ORDER
    api = client.get(f"/api/v1/events/{event.pk}/rankings/").json()
    assert [row["rank"] for row in api["rows"]] == [1, 1, 3, 3, 3, 3, 7, 7]
    assert in_order(json.dumps(api, ensure_ascii=False)) == TIED_IN_FRENCH_ORDER
    document = client.get(f"/organiser/events/{event.pk}/results-file.json").json()
    tied = [line["last_name"] for line in document["ranking"] if line["rank"] == 3]
    assert tied == TIED_IN_FRENCH_ORDER
    text = client.get(f"/organiser/events/{event.pk}/results-file.csv").content.decode("utf-8-sig")
    rows_csv = list(csv.DictReader(io.StringIO(text)))
    assert [r["last_name"] for r in rows_csv if r["rank"] == "3"] == TIED_IN_FRENCH_ORDER
    # the ranks and the other lines are untouched: Arnaud and Girard first, Berger and Faure last
    assert [line["last_name"] for line in document["ranking"]] == [
        "Arnaud", "Girard", *TIED_IN_FRENCH_ORDER, "Berger", "Faure"
    ]  # fmt: skip

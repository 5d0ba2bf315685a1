"""REST API v1 of the scoring app: rankings and the hand scores of a finished deal."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.services import standings_recompute
from tests.builders import GARDE_46, first_play, running_event
from tests.factories import OrganiserFactory
from tournaments.models import Event
from tournaments.services.results import table_result_enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return running_event(tables=5, rounds=2)


@pytest.fixture
def client() -> APIClient:
    return APIClient()


def test_rankings_and_hand_scores(client, event, django_assert_max_num_queries):
    table, deal, _ = first_play(event)
    client.post(
        f"/api/v1/tables/{table.code}/results/",
        {"deal": deal.number, "outcome": GARDE_46},
        format="json",
    )
    standings_recompute(event_id=event.pk)
    ranking = client.get(f"/api/v1/events/{event.pk}/rankings/").json()
    assert ranking["kind"] == "individual"
    assert ranking["status"]["state"] == "provisional"
    # The deal is still to be played at another table: the public ranking counts no deal yet,
    # the organisers' counts it.
    assert ranking["rows"] == []
    assert (ranking["status"]["deals_counted"], ranking["status"]["deals_total"]) == (0, 10)
    organiser = APIClient()
    organiser.force_login(OrganiserFactory(clubs=[event.club]))
    assert len(organiser.get(f"/api/v1/events/{event.pk}/rankings/").json()["rows"]) == 4
    assert organiser.get(f"/api/v1/events/{event.pk}/rankings/?kind=line").json()["rows"]
    bad = client.get(f"/api/v1/events/{event.pk}/rankings/?kind=best", HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid"
    assert bad.json()["errors"]["kind"][0].startswith("kind: ")
    # The API speaks French unless the client asks otherwise.
    bad_fr = client.get(f"/api/v1/events/{event.pk}/rankings/?kind=best")
    assert bad_fr.status_code == 400
    assert "valeurs possibles" in bad_fr.json()["detail"]
    url = f"/api/v1/events/{event.pk}/deals/{deal.number}/hand-scores/"
    # The deal is still to be played at its round-2 table: its scores are not published yet.
    assert client.get(url).status_code == 404
    second = next(
        play.table for play in event.schedule.round(2).tables if play.deal_set == deal.deal_set
    )
    # (entered as the director does: that table's phone writes its own open round only)
    table_result_enter(table=event.tables.get(number=second), deal=deal, outcome=GARDE_46)
    standings_recompute(event_id=event.pk)
    with django_assert_max_num_queries(8):  # one query for the rows, not one per row
        scores = client.get(url).json()
    assert len(scores) == 8
    assert {s["percentage"] for s in scores} == {"50.00"}
    assert client.get(f"/api/v1/events/{event.pk}/deals/999/hand-scores/").status_code == 404

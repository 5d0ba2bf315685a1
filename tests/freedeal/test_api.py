"""The free-deal API: the ranking (public only, provisional from the publication rule) and the
table phone's endpoints (the code is the credential): read the open party, enter (201), replay
(200), conflict (409 with the stored result, nothing changed), explicit correction, refusals."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from freedeal import services
from freedeal.models import FreeDealChange, FreeDealResult, FreeDealTable, FreeDealTournament
from tests.factories import OrganiserFactory, RunningFreeDealFactory

pytestmark = pytest.mark.django_db

PASSED = {"contract": "passed"}


def table_url(table: FreeDealTable) -> str:
    return reverse("api:free_deal_table", args=[table.code])


def results_url(table: FreeDealTable) -> str:
    return reverse("api:free_deal_table_results", args=[table.code])


def correct_url(table: FreeDealTable, deal: int) -> str:
    return reverse("api:free_deal_table_correct", args=[table.code, deal])


def post(url: str, body: Any, client: Client | None = None) -> Any:
    return (client or Client()).post(url, body, content_type="application/json")


def garde(taker: int, points: int = 46) -> dict[str, Any]:
    return {"contract": "garde", "taker": taker, "oudlers": 2, "points": points}


def snapshot() -> tuple[list[Any], list[Any]]:
    results = list(
        FreeDealResult.objects.order_by("pk").values_list(
            "pk", "party", "deal", "taker", "contract", "outcome", "marks", "updated_at"
        )
    )
    return results, list(FreeDealChange.objects.order_by("pk").values_list("pk", "after"))


@pytest.fixture
def tournament() -> FreeDealTournament:
    return RunningFreeDealFactory(parties=2)


@pytest.fixture
def table(tournament: FreeDealTournament) -> FreeDealTable:
    return tournament.tables.get()


@pytest.fixture
def seated(tournament: FreeDealTournament) -> tuple[int, ...]:
    return tournament.table_players(1, 1)


# --------------------------------------------------------------------------- ranking
def test_api_ranking(tournament, table, seated) -> None:
    services.free_deal_result_enter(table=table, deal=1, data=garde(seated[0]))
    data = Client().get(f"/api/v1/free-deal/{tournament.pk}/ranking/").json()
    assert data["provisional"] and data["deals_entered"] == 1 and data["deals_total"] == 8
    assert data["ranking"][0]["number"] == seated[0] and data["ranking"][0]["total"] == 180
    assert data["ranking"][0]["parties"] == [180]
    assert Client().get("/api/v1/free-deal/999999/ranking/").status_code == 404


def test_api_ranking_is_final_once_finished(tournament) -> None:
    for _ in range(2):
        services.free_deal_party_close(tournament=tournament, confirm=True)
    services.free_deal_finish(tournament=tournament)
    data = Client().get(f"/api/v1/free-deal/{tournament.pk}/ranking/").json()
    assert data["provisional"] is False and data["status"] == "finished"


def test_api_ranking_of_a_private_tournament_is_for_its_directors_only() -> None:
    private = RunningFreeDealFactory(public=False)
    organiser = Client()
    organiser.force_login(OrganiserFactory(clubs=[private.club]))
    other = Client()
    other.force_login(OrganiserFactory())
    for client in (Client(), other):
        response = client.get(f"/api/v1/free-deal/{private.pk}/ranking/")
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert organiser.get(f"/api/v1/free-deal/{private.pk}/ranking/").status_code == 200


# --------------------------------------------------------------------------- the table
def test_the_table_reads_its_open_party(table, seated) -> None:
    services.free_deal_result_enter(table=table, deal=2, data=garde(seated[1]))
    data = Client().get(table_url(table)).json()
    assert (data["table"], data["size"], data["party"], data["provisional"]) == (1, 4, 1, True)
    assert data["tournament"]["parties"] == 2 and data["tournament"]["deals_per_party"] == 4
    assert [p["number"] for p in data["players"]] == list(seated)
    assert [d["deal"] for d in data["deals"]] == [1, 2, 3, 4]
    assert [d["dealer"] for d in data["deals"]] == [seated[0], seated[1], seated[2], seated[3]]
    assert data["deals"][0]["result"] is None
    stored = data["deals"][1]["result"]
    assert stored["taker"] == seated[1] and stored["marks"][str(seated[1])] == 180
    assert stored["entered_by"] == "Table 1" and stored["party"] == 1


def test_the_table_once_every_party_is_closed(tournament, table) -> None:
    for _ in range(2):
        services.free_deal_party_close(tournament=tournament, confirm=True)
    data = Client().get(table_url(table)).json()
    assert data["party"] is None and data["deals"] == []


def test_an_unknown_code_is_404_then_throttled() -> None:
    cache.clear()
    with override_settings(TABLE_CODE_FAILURE_RATE="2/min"):
        client = Client(REMOTE_ADDR="127.0.0.31")
        for _ in range(2):
            response = client.get("/api/v1/free-deal/tables/NOPE/")
            assert response.status_code == 404 and response.json()["code"] == "unknown_table_code"
        blocked = post("/api/v1/free-deal/tables/NOPE/results/", {"deal": 1}, client)
        assert blocked.status_code == 429 and blocked.json()["code"] == "throttled"
        assert int(blocked["Retry-After"]) >= 1
        table = RunningFreeDealFactory().tables.get()
        assert client.get(table_url(table)).status_code == 200  # a valid code still works
    cache.clear()


# --------------------------------------------------------------------------- entry
def test_enter_201_with_the_marks(table, seated) -> None:
    response = post(results_url(table), {"deal": 1, "outcome": garde(seated[0])})
    assert response.status_code == 201
    data = response.json()
    assert data["marks"] == {str(seated[0]): 180, **{str(n): -60 for n in seated[1:]}}
    assert (data["deal"], data["party"], data["table"], data["value"]) == (1, 1, 1, 60)
    assert FreeDealChange.objects.get().actor_label == "Table 1"


def test_the_same_outcome_again_is_a_200_replay(table, seated) -> None:
    first = post(results_url(table), {"deal": 1, "outcome": garde(seated[0])}).json()
    before = snapshot()
    again = post(results_url(table), {"deal": 1, "party": 1, "outcome": garde(seated[0])})
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first["id"]
    assert snapshot() == before


def test_another_outcome_is_a_409_with_the_stored_result(table, seated) -> None:
    post(results_url(table), {"deal": 1, "outcome": garde(seated[0])})
    before = snapshot()
    response = post(results_url(table), {"deal": 1, "outcome": garde(seated[0], points=60)})
    assert response.status_code == 409
    data = response.json()
    assert data["code"] == "result_exists" and "pas été enregistrée" in data["detail"]
    assert data["result"]["outcome"]["points"] == 46 and data["result"]["taker"] == seated[0]
    assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "key", "code"),
    [
        ({"deal": 1, "outcome": {"contract": "garde", "taker": "SEAT0", "oudlers": 2,
                                  "points": 95}}, "outcome.points", "points_out_of_range"),
        ({"deal": 1, "outcome": {"contract": "garde", "taker": 99, "oudlers": 2, "points": 46}},
         "outcome.taker", "not_at_table"),
        ({"deal": 1, "outcome": {"contract": "garde", "oudlers": 2, "points": 46}},
         "outcome.taker", "missing_field"),
        ({"deal": 7, "outcome": PASSED}, "deal", "unknown_deal"),
        ({"deal": 1, "party": 5, "outcome": PASSED}, "party", "unknown_party"),
        ({"outcome": PASSED}, "deal", "invalid"),
        ({"deal": 1, "outcome": "passed"}, "outcome", "invalid"),
        ({"deal": "one", "outcome": PASSED}, "deal", "invalid"),
    ],
)  # fmt: skip
def test_bad_entries_are_400_naming_the_field(table, seated, body, key, code) -> None:
    if isinstance(body.get("outcome"), dict) and body["outcome"].get("taker") == "SEAT0":
        body = {**body, "outcome": {**body["outcome"], "taker": seated[0]}}
    response = post(results_url(table), body)
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == code and key in data["errors"], data
    assert all(": " in message for message in data["errors"][key])  # each names its field
    assert not FreeDealResult.objects.exists()


def test_a_closed_party_is_403(tournament, table, seated) -> None:
    services.free_deal_party_close(tournament=tournament, confirm=True)
    response = post(results_url(table), {"deal": 1, "party": 1, "outcome": PASSED})
    assert response.status_code == 403
    assert response.json()["code"] == "party_closed"
    assert not FreeDealResult.objects.exists()
    # without a party: the open one (2)
    assert post(results_url(table), {"deal": 1, "outcome": PASSED}).json()["party"] == 2


def test_a_later_party_is_403(table) -> None:
    response = post(results_url(table), {"deal": 1, "party": 2, "outcome": PASSED})
    assert response.status_code == 403 and response.json()["code"] == "party_not_open"


def test_a_finished_tournament_takes_nothing(tournament, table) -> None:
    for _ in range(2):
        services.free_deal_party_close(tournament=tournament, confirm=True)
    response = post(results_url(table), {"deal": 1, "outcome": PASSED})
    assert response.status_code == 403 and response.json()["code"] == "party_closed"
    services.free_deal_finish(tournament=tournament)
    response = post(results_url(table), {"deal": 1, "outcome": PASSED})
    assert response.status_code == 403 and response.json()["code"] == "free_deal_not_running"


def test_no_csrf_token_is_needed_with_the_code(table) -> None:
    client = Client(enforce_csrf_checks=True)
    response = post(results_url(table), {"deal": 1, "outcome": PASSED}, client)
    assert response.status_code == 201


# --------------------------------------------------------------------------- correction
def test_the_table_corrects_through_the_api(table, seated) -> None:
    post(results_url(table), {"deal": 1, "outcome": garde(seated[0])})
    response = post(correct_url(table, 1), {"party": 1, "outcome": garde(seated[0], points=60)})
    assert response.status_code == 200 and "Idempotent-Replayed" not in response
    assert response.json()["outcome"]["points"] == 60
    line = FreeDealChange.objects.order_by("pk").last()
    assert line is not None and (line.action, line.actor_label) == ("correct", "Table 1")
    assert line.before["outcome"]["points"] == 46


def test_a_correction_to_the_same_outcome_is_a_replay(table, seated) -> None:
    post(results_url(table), {"deal": 1, "outcome": garde(seated[0])})
    before = snapshot()
    response = post(correct_url(table, 1), {"outcome": garde(seated[0])})
    assert response.status_code == 200 and response["Idempotent-Replayed"] == "true"
    assert snapshot() == before


def test_the_correction_of_a_deal_not_entered_enters_it(table, seated) -> None:
    response = post(correct_url(table, 1), {"party": 1, "outcome": garde(seated[0])})
    assert response.status_code == 200 and "Idempotent-Replayed" not in response
    assert response.json()["outcome"]["points"] == 46
    line = FreeDealChange.objects.order_by("pk").last()
    assert line is not None and (line.action, line.actor_label) == ("create", "Table 1")
    # the same outcome again is a replay; the entry path then sees it stored
    response = post(correct_url(table, 1), {"party": 1, "outcome": garde(seated[0])})
    assert response.status_code == 200 and response["Idempotent-Replayed"] == "true"


def test_correction_refusals(tournament, table, seated) -> None:
    post(results_url(table), {"deal": 1, "outcome": garde(seated[0])})
    before = snapshot()
    response = post(correct_url(table, 1), {"outcome": garde(seated[0], points=99)})
    assert response.status_code == 400 and "outcome.points" in response.json()["errors"]
    response = post(correct_url(table, 1), {})
    assert response.status_code == 400 and "outcome" in response.json()["errors"]
    services.free_deal_party_close(tournament=tournament, confirm=True)
    response = post(correct_url(table, 1), {"party": 1, "outcome": PASSED})
    assert response.status_code == 403 and response.json()["code"] == "party_closed"
    assert snapshot() == before


def test_the_schema_documents_the_table_endpoints() -> None:
    schema = Client().get("/api/schema/").content.decode()
    for operation in (
        "free_deal_table",
        "free_deal_table_result_enter",
        "free_deal_table_result_correct",
        "unknown_table_code",
    ):
        assert operation in schema

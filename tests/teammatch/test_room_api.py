"""The room phone's API (``/api/v1/cups/rooms/<code>/``): what the room reads, and the entry
semantics: 201 stored, 200 replay, 409 conflict with the stored result, 400 naming the field,
403 outside the writable quarter; an explicit correction endpoint; 404/429 for unknown codes."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from teammatch import services
from teammatch.models import CupMatch, RoomResult
from tests.teammatch.worlds import feasible, other, running_match, stored_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    return running_match()


def api(**options) -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en", **options)  # the API speaks French by default


def room_url(running, room: str = "open", tail: str = "") -> str:
    return f"/api/v1/cups/rooms/{running.rooms[room].code}/{tail}"


def post(running, room: str, body: dict, tail: str = "results/", client: Client | None = None):
    return (client or api()).post(
        room_url(running, room, tail), body, content_type="application/json"
    )


def test_the_room_reads_its_quarter_lineup_and_deals(running):
    data = api().get(room_url(running, "closed")).json()
    match = running.match
    assert (data["match"], data["room"], data["quarter"], data["status"]) == (
        match.pk,
        "closed",
        1,
        "playing",
    )
    assert data["round_name"] == "Final" and data["cup"] == running.cup.name
    assert (data["writable"], data["closed"]) == (True, False)
    assert data["lineup"]["taker_team"] == match.team_b.name  # B takes in the closed room
    assert len(data["lineup"]["defenders"]) == 3
    deals = running.match.deals.filter(quarter=1).order_by("number")
    assert [(d["number"], d["taker_seat"], d["result"]) for d in data["deals"]] == [
        (deal.number, deal.taker_seat, None) for deal in deals
    ]
    assert "cards" not in data["deals"][0]


def test_the_room_reads_its_own_results_never_the_other_rooms(running):
    _, mine = running.enter("open", 1, "garde", 60)
    running.enter("closed", 1, "garde_sans", 40)
    running.enter("closed", 2, "garde", 45)
    data = api().get(room_url(running, "open")).json()
    first, second = data["deals"]
    assert first["result"]["room"] == "open" and first["result"]["value"] == mine.value
    assert first["result"]["taker_mark"] == mine.taker_mark
    assert second["result"] is None


def test_an_entry_is_stored_201(running):
    outcome = feasible(running.deal(1), "garde", 55)
    answer = post(running, "open", {"deal": 1, "outcome": outcome})
    assert answer.status_code == 201
    stored = RoomResult.objects.get()
    body = answer.json()
    assert (body["deal"], body["room"], body["value"], body["taker_mark"]) == (
        1,
        "open",
        stored.value,
        stored.taker_mark,
    )
    assert stored.history.get().actor_label == "open room phone"


def test_the_same_outcome_again_is_a_replay_200(running):
    outcome, result = running.enter("open", 1)
    before = stored_state(running.match)
    answer = post(running, "open", {"deal": 1, "outcome": outcome})
    assert answer.status_code == 200 and answer["Idempotent-Replayed"] == "true"
    assert answer.json()["value"] == result.value
    assert stored_state(running.match) == before


def test_another_outcome_is_a_conflict_409_with_the_stored_result(running):
    outcome, result = running.enter("open", 1)
    before = stored_state(running.match)
    answer = post(running, "open", {"deal": 1, "outcome": other(outcome)})
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "result_exists" and "already stored" in body["detail"]
    assert body["result"]["outcome"]["points"] == outcome["points"]
    assert body["result"]["value"] == result.value
    assert stored_state(running.match) == before


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"deal": 1, "outcome": {"contract": "garde", "oudlers": 2, "points": 95}}, "points"),
        ({"deal": 1, "outcome": {"contract": "prise", "oudlers": 2, "points": 50}}, "contract"),
        ({"deal": 99, "outcome": {"contract": "garde", "oudlers": 2, "points": 50}}, "deal"),
        ({"deal": "x", "outcome": {}}, "deal"),
        ({"deal": 1}, "outcome"),
        ({"deal": 1, "outcome": [1]}, "outcome"),
    ],
)
def test_a_bad_entry_is_400_naming_its_field(running, body, key):
    answer = post(running, "open", body)
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert key in errors or f"outcome.{key}" in errors, errors
    assert not RoomResult.objects.exists()


def test_the_refusal_is_in_the_answer_language(running):
    body = {"deal": 1, "outcome": {"contract": "garde", "oudlers": 2, "points": 95}}
    english = post(running, "open", body).json()
    assert english["errors"]["outcome.points"] == ["points: 95 is outside 0..91"]
    french = (
        Client()
        .post(room_url(running, "open", "results/"), body, content_type="application/json")
        .json()
    )
    assert "n'est pas compris entre 0 et 91" in french["errors"]["outcome.points"][0]


def test_a_deal_of_a_later_quarter_is_403(running):
    outcome = feasible(running.deal(3), "garde", 50)
    answer = post(running, "open", {"deal": 3, "outcome": outcome})
    assert answer.status_code == 403 and answer.json()["code"] == "deal_not_in_quarter"
    assert not RoomResult.objects.exists()


def test_a_quarter_without_lineup_is_403():
    running = running_match(lined_up=False)
    outcome = feasible(running.deal(1), "garde", 50)
    answer = post(running, "open", {"deal": 1, "outcome": outcome})
    assert answer.status_code == 403 and answer.json()["code"] == "no_lineup"
    assert api().get(room_url(running)).json()["writable"] is False


def test_a_closed_quarter_is_409_with_the_stored_result_for_another_outcome_and_200_for_a_replay(
    running,
):
    entered = {}
    for number in (1, 2):
        entered[number], _ = running.enter("open", number)
        running.enter("closed", number)
    services.match_quarter_close(match=running.match, quarter=1)
    before = stored_state(running.match)
    refused = post(running, "open", {"deal": 1, "outcome": other(entered[1])})
    assert refused.status_code == 409 and refused.json()["code"] == "result_exists"
    assert refused.json()["result"]["outcome"]["points"] == entered[1]["points"]
    replay = post(running, "open", {"deal": 1, "outcome": entered[1]})
    assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true"
    corrected = post(running, "open", {"deal": 1, "outcome": other(entered[1])}, "results/correct/")
    assert corrected.status_code == 403
    assert stored_state(running.match) == before


def test_a_match_not_in_play_is_400(running):
    CupMatch.objects.filter(pk=running.match.pk).update(status=CupMatch.Status.FINISHED)
    outcome = feasible(running.deal(1), "garde", 50)
    answer = post(running, "open", {"deal": 1, "outcome": outcome})
    assert answer.status_code == 400 and answer.json()["code"] == "match_not_playing"
    assert api().get(room_url(running)).json()["writable"] is False


def test_the_correction_endpoint_corrects_with_a_history_line(running):
    outcome, result = running.enter("closed", 2)
    answer = post(running, "closed", {"deal": 2, "outcome": other(outcome)}, "results/correct/")
    assert answer.status_code == 200 and "Idempotent-Replayed" not in answer
    assert answer.json()["outcome"]["points"] == other(outcome)["points"]
    line = result.history.order_by("pk").last()
    assert (line.action, line.actor_label) == ("correct", "closed room phone")
    again = post(running, "closed", {"deal": 2, "outcome": other(outcome)}, "results/correct/")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert result.history.count() == 2


def test_the_correction_endpoint_enters_a_deal_not_entered(running):
    outcome = feasible(running.deal(1), "garde", 50)
    answer = post(running, "open", {"deal": 1, "outcome": outcome}, "results/correct/")
    assert answer.status_code == 200
    assert RoomResult.objects.get().history.get().action == "create"


def test_the_correction_endpoint_refuses_the_directors_result(running):
    outcome = feasible(running.deal(1), "garde", 50)
    services.room_result_director_correct(
        match=running.match,
        room="open",
        deal_number=1,
        outcome=outcome,
        actor=running.organiser,
        reason="slip",
    )
    before = stored_state(running.match)
    answer = post(running, "open", {"deal": 1, "outcome": other(outcome)}, "results/correct/")
    assert answer.status_code == 403 and answer.json()["code"] == "not_own_entry"
    assert stored_state(running.match) == before


def test_the_correction_endpoint_names_a_bad_field(running):
    outcome, _ = running.enter("open", 1)
    before = stored_state(running.match)
    bad = {"deal": 1, "outcome": {**outcome, "points": -3}}
    answer = post(running, "open", bad, "results/correct/")
    assert answer.status_code == 400 and "outcome.points" in answer.json()["errors"]
    assert stored_state(running.match) == before


def test_no_session_and_no_csrf_token_needed(running):
    client = api(enforce_csrf_checks=True)
    client.force_login(running.organiser)
    outcome = feasible(running.deal(1), "garde", 50)
    assert post(running, "open", {"deal": 1, "outcome": outcome}, client=client).status_code == 201
    # the session counts for nothing: the room phone writes, not the director
    assert not RoomResult.objects.get().entered_by_director


@pytest.mark.parametrize(
    ("method", "tail"), [("get", ""), ("post", "results/"), ("post", "results/correct/")]
)
def test_unknown_codes_are_404_then_429(running, method, tail):
    client = api(REMOTE_ADDR="10.0.0.6")
    with override_settings(TABLE_CODE_FAILURE_RATE="2/min"):
        for attempt in range(2):
            answer = getattr(client, method)(f"/api/v1/cups/rooms/NOPE{attempt}/{tail}")
            assert answer.status_code == 404 and answer.json()["code"] == "unknown_room_code"
        blocked = getattr(client, method)(f"/api/v1/cups/rooms/NOPE9/{tail}")
        assert blocked.status_code == 429 and blocked.json()["code"] == "throttled"
        assert int(blocked["Retry-After"]) >= 1
        assert getattr(client, method)(room_url(running, "open", tail)).status_code in (200, 400)
    cache.clear()


def test_the_schema_documents_the_room_phone():
    schema = Client().get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    room = paths["/api/v1/cups/rooms/{code}/"]["get"]
    assert {"200", "404", "429"} <= set(room["responses"])
    enter = paths["/api/v1/cups/rooms/{code}/results/"]["post"]
    assert {"200", "201", "400", "403", "404", "409", "429"} <= set(enter["responses"])
    correct = paths["/api/v1/cups/rooms/{code}/results/correct/"]["post"]
    assert {"200", "400", "403", "404", "429"} <= set(correct["responses"])

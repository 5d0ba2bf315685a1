"""The room phone's pages (the kernel's phone skeleton): entry, replay, conflict, the explicit
correction, the live preview of the marks, and what the room may read."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from teammatch import services
from teammatch.models import RoomResult
from tests.teammatch.worlds import feasible, form_data, other, running_match, stored_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    return running_match(deals_per_quarter=3)


def url(running, room: str = "open", tail: str = "") -> str:
    return f"/en/cups/room/{running.rooms[room].code}/{tail}"


def test_the_page_is_the_phone_skeleton_with_a_card_per_deal_of_the_quarter(running):
    page = Client().get(url(running, "closed"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Closed room · Quarter 1" in html and 'class="entry table-phone room-phone"' in html
    code = running.rooms["closed"].code
    for number in (1, 2, 3):
        assert f'id="deal-{number}"' in html
        assert f'action="/en/cups/room/{code}/deals/{number}/#deal-{number}"' in html
        assert f'hx-post="/en/cups/room/{code}/deals/{number}/preview/"' in html
        assert f'id="preview-{number}"' in html
    assert 'id="deal-4"' not in html  # quarter 2
    cards = page.context["cards"]
    assert [card.number for card in cards] == [1, 2, 3]
    assert all(card.form is not None and not card.done for card in cards)
    assert "0 of 3 deals entered" in html


def test_the_page_is_french_by_default(running):
    html = Client().get(f"/cups/room/{running.rooms['open'].code}/").content.decode()
    assert "Salle ouverte" in html and 'lang="fr"' in html


def test_an_entry_is_saved_and_shown(running):
    outcome = feasible(running.deal(2), "garde_sans", 50)
    saved = Client().post(url(running, "closed", "deals/2/"), form_data(2, outcome))
    assert saved.status_code == 302 and saved["Location"].endswith("#deal-2")
    result = RoomResult.objects.get(deal__number=2, room="closed")
    assert (result.contract, result.points) == (outcome["contract"], outcome["points"])
    assert result.history.get().actor_label == "closed room phone"
    page = Client().get(url(running, "closed"))
    card = page.context["cards"][1]
    assert card.done and card.form is None and card.result == result
    assert card.correct_url == f"/en/cups/room/{running.rooms['closed'].code}/?correct=2"
    assert f"<strong>{result.taker_mark}</strong>" in page.content.decode()


def test_the_same_entry_again_says_it_was_already_saved(running):
    outcome, _ = running.enter("open", 1)
    before = stored_state(running.match)
    client = Client()
    again = client.post(url(running, "open", "deals/1/"), form_data(1, outcome))
    assert again.status_code == 302
    assert stored_state(running.match) == before
    page = client.get(again["Location"]).content.decode()
    assert "Deal 1 received: the same entry was already saved." in page


def test_another_outcome_for_an_entered_deal_is_a_conflict_showing_the_stored_result(running):
    outcome, result = running.enter("open", 1)
    before = stored_state(running.match)
    page = Client().post(url(running, "open", "deals/1/"), form_data(1, other(outcome)))
    assert page.status_code == 409
    html = page.content.decode()
    assert 'id="conflict"' in html
    assert "Deal 1 is already entered in this room with another outcome" in html
    assert f"{result.points} points" in html and f"<strong>{result.taker_mark}</strong>" in html
    code = running.rooms["open"].code
    assert f'href="/en/cups/room/{code}/?correct=1#deal-1" id="correct-stored"' in html
    assert stored_state(running.match) == before


def test_a_conflict_with_the_directors_result_sends_to_the_director(running):
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
    page = Client().post(url(running, "open", "deals/1/"), form_data(1, other(outcome)))
    assert page.status_code == 409
    html = page.content.decode()
    assert 'id="conflict"' in html and 'id="correct-stored"' not in html
    assert "only the director can correct it" in html
    assert stored_state(running.match) == before


def test_the_correction_form_is_filled_with_the_stored_outcome(running):
    outcome, _ = running.enter("open", 2)
    code = running.rooms["open"].code
    page = Client().get(url(running, "open", "?correct=2"))
    html = page.content.decode()
    assert f'action="/en/cups/room/{code}/deals/2/correct/#deal-2"' in html
    assert f'value="{outcome["points"]}"' in html and "Save the correction" in html
    card = page.context["cards"][1]
    assert card.correcting and card.cancel_url == f"/en/cups/room/{code}/"


def test_the_room_corrects_its_entry_explicitly(running):
    outcome, result = running.enter("open", 2)
    client = Client()
    corrected = client.post(url(running, "open", "deals/2/correct/"), form_data(2, other(outcome)))
    assert corrected.status_code == 302
    result.refresh_from_db()
    assert result.points == other(outcome)["points"]
    line = result.history.order_by("pk").last()
    assert (line.action, line.actor_label) == ("correct", "open room phone")
    assert "Deal 2 corrected." in client.get(corrected["Location"]).content.decode()


def test_an_invalid_correction_is_refused_with_its_field(running):
    outcome, _ = running.enter("open", 2)
    before = stored_state(running.match)
    bad = {**form_data(2, outcome), "d2-points": "95"}
    page = Client().post(url(running, "open", "deals/2/correct/"), bad)
    assert page.status_code == 400
    assert "Points: " in page.content.decode()
    assert page.context["cards"][1].correcting
    assert stored_state(running.match) == before


def test_a_closed_quarter_can_no_longer_be_corrected_by_the_room(running):
    entered = {}
    for number in (1, 2, 3):
        entered[number], _ = running.enter("open", number)
        running.enter("closed", number)
    services.match_quarter_close(match=running.match, quarter=1)
    before = stored_state(running.match)
    page = Client().post(url(running, "open", "deals/1/correct/"), form_data(1, other(entered[1])))
    assert page.status_code == 403
    assert "Deal 1 is not in quarter 2" in page.content.decode()
    entry = Client().post(url(running, "open", "deals/1/"), form_data(1, other(entered[1])))
    assert entry.status_code == 409 and 'id="conflict"' in entry.content.decode()  # the stored
    assert stored_state(running.match) == before
    assert "Open room · Quarter 2" in Client().get(url(running)).content.decode()


def test_the_room_may_not_correct_the_directors_result(running):
    outcome = feasible(running.deal(1), "garde", 50)
    services.room_result_director_correct(
        match=running.match,
        room="open",
        deal_number=1,
        outcome=outcome,
        actor=running.organiser,
        reason="slip",
    )
    page = Client().get(url(running))
    assert page.context["cards"][0].correct_url is None
    before = stored_state(running.match)
    refused = Client().post(url(running, "open", "deals/1/correct/"), form_data(1, other(outcome)))
    assert refused.status_code == 403 and "ask the director" in refused.content.decode()
    assert stored_state(running.match) == before


def test_the_preview_gives_the_value_and_the_takers_mark_the_save_stores(running):
    outcome = feasible(running.deal(1), "garde", 62)
    preview = Client().post(
        url(running, "open", "deals/1/preview/"), form_data(1, outcome), HTTP_HX_REQUEST="true"
    )
    assert preview.status_code == 200
    assert not RoomResult.objects.exists()
    _, result = running.enter("open", 1, "garde", 62)
    html = preview.content.decode()
    assert f"Deal value: {result.value}" in html
    assert f"<strong>{result.taker_mark}</strong>" in html


def test_the_preview_names_the_fields_in_error_with_422(running):
    outcome = feasible(running.deal(1), "garde", 50)
    bad = {**form_data(1, outcome), "d1-points": "95"}
    preview = Client().post(url(running, "open", "deals/1/preview/"), bad)
    assert preview.status_code == 422
    html = preview.content.decode()
    assert "Points: " in html and "errorlist" in html
    assert not RoomResult.objects.exists()


def test_the_preview_of_a_deal_outside_the_quarter_is_refused(running):
    outcome = feasible(running.deal(4), "garde", 50)
    later = Client().post(url(running, "open", "deals/4/preview/"), form_data(4, outcome))
    assert later.status_code == 403 and "not in quarter 1" in later.content.decode()
    assert Client().post(url(running, "open", "deals/99/preview/"), {}).status_code == 404


def test_the_room_never_reads_the_other_rooms_result(running):
    running.enter("closed", 1, "garde_contre", 70)
    page = Client().get(url(running, "open"))
    card = page.context["cards"][0]
    assert card.result is None and not card.done and card.form is not None
    assert 'class="stored-result"' not in page.content.decode()
    assert page.context["page"].results == {}


def test_without_a_lineup_the_room_waits_for_the_director():
    running = running_match(lined_up=False)
    page = Client().get(url(running))
    html = page.content.decode()
    assert "The line-up of quarter 1 is not set yet: ask the director." in html
    assert all(card.form is None for card in page.context["cards"])
    outcome = feasible(running.deal(1), "garde", 50)
    refused = Client().post(url(running, "open", "deals/1/"), form_data(1, outcome))
    assert refused.status_code == 409 and "ask the director" in refused.content.decode()
    assert not RoomResult.objects.exists()


def test_a_finished_match_shows_no_form(running):
    from teammatch.models import CupMatch

    CupMatch.objects.filter(pk=running.match.pk).update(status=CupMatch.Status.FINISHED)
    page = Client().get(url(running))
    assert "This match is not in play" in page.content.decode()
    assert all(card.form is None for card in page.context["cards"])


@pytest.mark.parametrize(
    ("method", "tail"),
    [("get", ""), ("post", "deals/1/"), ("post", "deals/1/correct/"), ("post", "deals/1/preview/")],
)
def test_unknown_codes_are_not_found_then_throttled(running, method, tail):
    client = Client(REMOTE_ADDR="10.0.0.5")
    with override_settings(TABLE_CODE_FAILURE_RATE="2/min"):
        for attempt in range(2):
            assert getattr(client, method)(f"/en/cups/room/NOPE{attempt}/{tail}").status_code == 404
        blocked = getattr(client, method)(f"/en/cups/room/NOPE9/{tail}")
        assert blocked.status_code == 429 and int(blocked["Retry-After"]) >= 1
        # a valid code still opens its room from the blocked address
        valid = getattr(client, method)(url(running, "open", tail))
        assert valid.status_code in (200, 400, 422)
    cache.clear()


def test_a_deal_the_match_does_not_have_is_not_found(running):
    assert Client().post(url(running, "open", "deals/99/"), {}).status_code == 404
    assert Client().post(url(running, "open", "deals/99/correct/"), {}).status_code == 404


def test_fifty_conflicting_posts_are_all_refused_and_change_nothing(running):
    outcome, _ = running.enter("open", 1, "garde", 40)
    before = stored_state(running.match)
    client = Client()
    points = [p for p in range(20, 86) if p != outcome["points"]][:50]
    answers = [
        client.post(
            url(running, "open", "deals/1/"), form_data(1, {**outcome, "points": p})
        ).status_code
        for p in points
    ]
    assert answers == [409] * 50
    assert stored_state(running.match) == before


def test_a_deals_heading_names_the_taker_as_the_player_list_does(running):
    """The room's players are listed by role (taker, defence): each deal names the taker by
    name, with the étui's seat he takes it at, never a bare "taker E"."""
    page = Client().get(f"/cups/room/{running.rooms['open'].code}/")
    taker = page.context["page"].taker
    assert taker is not None
    for card in page.context["cards"]:
        assert str(taker) in card.subtitle
        assert card.subtitle.startswith("preneur : ")
    assert f"preneur : {taker}, place " in page.content.decode()

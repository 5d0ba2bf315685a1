"""Entry pages: the phone page at a table, htmx preview, conflict, organiser grid and actions."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.builders import GARDE_46, first_play, running_event
from tests.factories import OrganiserFactory, UserFactory
from tournaments import services
from tournaments.models import Event, Penalty, ResultChange, TableResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return running_event(tables=5, rounds=2)


def first_deals(event: Event):
    """Table 1, every deal it plays in round 1, and that play of the movement."""
    table, _, play = first_play(event)
    return table, list(event.deals.filter(deal_set=play.deal_set).order_by("number")), play


def form_data(deal, **values) -> dict[str, str]:
    base = {"contract": "garde", "oudlers": "2", "points": "46", "petit_au_bout": ""}
    base.update(values)
    return {f"d{deal.number}-{key}": value for key, value in base.items()}


def test_phone_page_shows_round_players_and_one_form_per_deal(client: Client, event):
    table, deals, play = first_deals(event)
    response = client.get(f"/table/{table.code}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="viewport"' in html
    for deal in deals:
        assert f'id="deal-{deal.number}"' in html
        assert f'name="d{deal.number}-points"' in html
        assert f"/table/{table.code}/deal/{deal.number}/preview/" in html
    player = event.entrants.get(slot=play.seats["N"]).player
    assert player.last_name.upper() in html
    assert 'value="prise"' not in html  # duplicate: at least a Garde


def test_unknown_code_is_404(client: Client, event):
    assert client.get("/table/not-a-code/").status_code == 404


def test_preview_returns_marks_or_named_errors(client: Client, event):
    table, deals, _ = first_deals(event)
    deal = deals[0]
    url = f"/table/{table.code}/deal/{deal.number}/preview/"
    ok = client.post(url, form_data(deal), HTTP_HX_REQUEST="true")
    assert ok.status_code == 200
    assert "180" in ok.content.decode()
    assert "-60" in ok.content.decode()
    bad = client.post(url, form_data(deal, points="95"))
    assert bad.status_code == 422
    assert "Points\u202f: " in bad.content.decode()  # French colon
    assert "91" in bad.content.decode()
    assert TableResult.objects.count() == 0


def test_save_then_conflict_page_shows_the_stored_result(client: Client, event):
    table, deals, _ = first_deals(event)
    deal = deals[0]
    url = f"/table/{table.code}/deal/{deal.number}/"
    response = client.post(url, form_data(deal))
    assert response.status_code == 302
    result = TableResult.objects.get()
    assert result.value == 60
    assert result.entered_via == "table"
    second = Client()
    conflict = second.post(url, form_data(deal, points="60"))
    assert conflict.status_code == 409
    html = conflict.content.decode()
    assert "46" in html
    assert "180" in html
    result.refresh_from_db()
    assert result.value == 60
    page = client.get(f"/en/table/{table.code}/?round=1").content.decode()
    assert "Round recap" in page


def test_invalid_save_is_400_with_the_field_error_and_stores_nothing(client: Client, event):
    table, deals, _ = first_deals(event)
    deal = deals[0]
    response = client.post(
        f"/table/{table.code}/deal/{deal.number}/",
        form_data(deal, oudlers="0", points="46", petit_au_bout="attack"),
    )
    assert response.status_code == 400
    assert "Petit au bout\u202f: " in response.content.decode()  # the French colon
    assert TableResult.objects.count() == 0
    event.refresh_from_db()
    assert event.results_version == 0


def test_event_not_running_shows_no_form_and_refuses(client: Client):
    event = running_event(tables=5, rounds=2, status=Event.Status.FINISHED)
    table, deals, _ = first_deals(event)
    page = client.get(f"/table/{table.code}/").content.decode()
    assert f'name="d{deals[0].number}-points"' not in page
    response = client.post(f"/table/{table.code}/deal/{deals[0].number}/", form_data(deals[0]))
    assert response.status_code == 400
    assert TableResult.objects.count() == 0


def test_defender_confirmation_step(client: Client):
    event = running_event(tables=5, rounds=2, opponent_confirmation=True)
    table, deals, _ = first_deals(event)
    deal = deals[0]
    client.post(f"/table/{table.code}/deal/{deal.number}/", form_data(deal))
    result = TableResult.objects.get()
    assert not result.confirmed
    page = client.get(f"/table/{table.code}/").content.decode()
    assert f"/table/{table.code}/deal/{deal.number}/confirm/" in page
    bad = client.post(f"/table/{table.code}/deal/{deal.number}/confirm/", {"seat": deal.taker_seat})
    assert bad.status_code == 400
    defender = next(s for s in "NESW" if s != deal.taker_seat)
    ok = client.post(f"/table/{table.code}/deal/{deal.number}/confirm/", {"seat": defender})
    assert ok.status_code == 302
    result.refresh_from_db()
    assert result.confirmed


def test_organiser_pages_need_the_clubs_organiser(client: Client, event):
    url = f"/organiser/events/{event.pk}/entry/round/1/"
    assert client.get(url).status_code == 302  # login
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(OrganiserFactory(clubs=[event.club]))
    assert client.get(url).status_code == 200
    assert client.get(f"/organiser/events/{event.pk}/entry/round/9/").status_code == 404


def test_grid_saves_filled_rows_and_reports_bad_ones(client: Client, event):
    organiser = OrganiserFactory(clubs=[event.club])
    client.force_login(organiser)
    url = f"/organiser/events/{event.pk}/entry/round/1/"
    page = client.get(url).content.decode()
    plays = event.schedule.round(1).tables
    assert len(re.findall(r'name="t\d+-d\d+-points"', page)) == len(plays) * 2
    t1, t2 = plays[0], plays[1]
    d1 = event.deals.filter(deal_set=t1.deal_set).order_by("number").first()
    d2 = event.deals.filter(deal_set=t2.deal_set).order_by("number").first()
    data = {
        f"t1-d{d1.number}-contract": "garde",
        f"t1-d{d1.number}-oudlers": "2",
        f"t1-d{d1.number}-points": "46",
        f"t2-d{d2.number}-contract": "garde",
        f"t2-d{d2.number}-oudlers": "3",
        f"t2-d{d2.number}-points": "2",
    }
    # As a browser posts it: every row's selects, with empty oudlers and points where unused.
    posted = dict.fromkeys(re.findall(r'name="(t\d+-d\d+-(?:oudlers|points))"', page), "")
    posted.update(dict.fromkeys(re.findall(r'name="(t\d+-d\d+-contract)"', page), "garde"))
    posted.update(data)
    response = client.post(url, posted)
    assert response.status_code == 400
    assert "Points\u202f: " in response.content.decode()  # French colon
    saved = TableResult.objects.get()
    assert (saved.table.number, saved.deal_id, saved.entered_via) == (1, d1.pk, "organiser")
    assert saved.entered_by == organiser


def test_director_actions_with_required_reason_and_history(client: Client, event):
    organiser = OrganiserFactory(clubs=[event.club])
    table, deals, _ = first_deals(event)
    services.table_result_enter(table=table, deal=deals[0], outcome=GARDE_46)
    client.force_login(organiser)
    url = f"/organiser/events/{event.pk}/entry/table/1/deal/{deals[0].number}/"
    assert client.get(url).status_code == 200
    correct = {
        "action": "correct",
        "correct-taker_seat": deals[0].taker_seat,
        "correct-contract": "garde",
        "correct-oudlers": "2",
        "correct-points": "36",
        "correct-reason": "",
    }
    refused = client.post(url, correct)
    assert refused.status_code == 400
    assert TableResult.objects.get().value == 60
    assert client.post(url, {**correct, "correct-reason": "miscount"}).status_code == 302
    assert TableResult.objects.get().value == -60
    artificial = {
        "action": "artificial",
        "artificial-N": "60",
        "artificial-E": "40",
        "artificial-S": "60",
        "artificial-W": "40",
        "artificial-reason": "fouled",
    }
    assert client.post(url, artificial).status_code == 302
    assert TableResult.objects.get().kind == "artificial"
    url2 = f"/organiser/events/{event.pk}/entry/table/1/deal/{deals[1].number}/"
    assert (
        client.post(url2, {"action": "not_played", "not_played-reason": "late"}).status_code == 302
    )
    assert [c.action for c in ResultChange.objects.order_by("pk")] == [
        "create",
        "correct",
        "artificial",
        "not_played",
    ]
    history = client.get(f"/organiser/events/{event.pk}/entry/history/")
    assert history.status_code == 200
    assert "miscount" in history.content.decode()


def test_penalty_page(client: Client, event):
    client.force_login(OrganiserFactory(clubs=[event.club]))
    url = f"/organiser/events/{event.pk}/entry/penalties/"
    assert client.get(url).status_code == 200
    entrant = event.entrants.first()
    assert (
        client.post(url, {"entrant": entrant.pk, "points": "0", "reason": "x"}).status_code == 400
    )
    assert client.post(url, {"points": "1", "reason": "x"}).status_code == 400
    assert (
        client.post(url, {"entrant": entrant.pk, "points": "1.5", "reason": "late"}).status_code
        == 302
    )
    assert Penalty.objects.get().points == 1.5


def test_stored_result_with_poignee_and_chelem_renders(client: Client, event):
    table, deals, _ = first_deals(event)
    deals[0].cards = ""  # unknown cards: this poignée is not checked against them
    services.table_result_enter(
        table=table,
        deal=deals[0],
        outcome={
            **GARDE_46,
            "poignees": [{"side": "defence", "size": "simple"}],
            "chelem": {"announced": True, "made_by": None},
        },
    )
    html = client.get(f"/en/table/{table.code}/").content.decode()
    assert "poignée simple (defence)" in html
    assert "chelem announced" in html


def test_a_signed_in_user_is_no_credential_on_the_table_page(client: Client):
    """Only a user who directs the event skips the opponent confirmation."""
    event = running_event(tables=5, rounds=2, opponent_confirmation=True)
    table, deals, _ = first_deals(event)
    client.force_login(UserFactory())  # e.g. a player signed in on his phone
    url = f"/table/{table.code}/deal/{deals[0].number}/"
    assert client.post(url, form_data(deals[0])).status_code == 302
    by_player = TableResult.objects.get(deal=deals[0])
    assert (by_player.confirmed, by_player.entered_by) == (False, None)
    organiser = OrganiserFactory(clubs=[event.club])
    client.force_login(organiser)
    url = f"/table/{table.code}/deal/{deals[1].number}/"
    assert client.post(url, form_data(deals[1])).status_code == 302
    by_organiser = TableResult.objects.get(deal=deals[1])
    assert (by_organiser.confirmed, by_organiser.entered_by) == (True, organiser)


def test_confirmation_refusals_are_400(client: Client):
    event = running_event(tables=5, rounds=2, opponent_confirmation=True)
    table, deals, _ = first_deals(event)
    deal = deals[0]
    client.post(f"/table/{table.code}/deal/{deal.number}/", form_data(deal))
    defender = next(s for s in "NESW" if s != deal.taker_seat)
    url = f"/en/table/{table.code}/deal/{deal.number}/confirm/"
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    finished = client.post(url, {"seat": defender})
    assert finished.status_code == 400
    assert "the event is not running" in finished.content.decode()
    assert not TableResult.objects.get().confirmed
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    assert client.post(url, {"seat": defender}).status_code == 302
    again = client.post(url, {"seat": defender})
    assert again.status_code == 400
    assert "already confirmed" in again.content.decode()
    assert ResultChange.objects.filter(action="confirm").count() == 1


def test_the_directors_correction_of_a_deal_not_entered_enters_it(client: Client, event):
    """As in every kind: the director enters a missing table's result from the correction."""
    organiser = OrganiserFactory(clubs=[event.club])
    _table, deals, _ = first_deals(event)
    client.force_login(organiser)
    url = f"/organiser/events/{event.pk}/entry/table/1/deal/{deals[0].number}/"
    correct = {
        "action": "correct",
        "correct-taker_seat": deals[0].taker_seat,
        "correct-contract": "garde",
        "correct-oudlers": "2",
        "correct-points": "46",
        "correct-reason": "the table left early",
    }
    assert client.post(url, correct).status_code == 302
    saved = TableResult.objects.get()
    assert (saved.deal_id, saved.value, saved.entered_via) == (deals[0].pk, 60, "organiser")
    assert [(c.action, c.reason) for c in ResultChange.objects.all()] == [
        ("create", "the table left early")
    ]

"""Organiser screens: login, club isolation (404), forms, step flow and printouts."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import Player
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments import services
from tournaments.models import Deal, Entrant, Event, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return OrganiserFactory(clubs=[ClubFactory(name="Tarot Club de Lyon")])


@pytest.fixture
def client_in(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def url(name: str, *args: object) -> str:
    """The English URL (``/en/...``): assertions read the English source strings."""
    with translation.override("en"):
        return reverse(name, args=args)


def own_event(organiser, **kwargs) -> Event:
    return EventFactory(club=organiser.clubs.first(), **kwargs)


def ready_event(organiser, players: int = 28) -> Event:
    event = own_event(organiser, deals_per_round=2)
    for _ in range(players):
        services.entrant_register(event=event, player=PlayerFactory())
    services.event_movement_set(event=event, tables=7)
    event.refresh_from_db()
    return event


def test_login_required() -> None:
    response = Client().get(url("organiser:home"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_home_lists_only_own_events(client_in, organiser) -> None:
    mine = own_event(organiser, name="Mon tournoi")
    EventFactory(name="Tournoi voisin")
    response = client_in.get(url("organiser:home"))
    assert response.status_code == 200
    assert "Mon tournoi" in response.text and "Tournoi voisin" not in response.text
    assert url("organiser:event", mine.pk) in response.text


@pytest.mark.parametrize(
    "name",
    [
        "organiser:event",
        "organiser:event_edit",
        "organiser:players",
        "organiser:movement",
        "organiser:deals",
        "organiser:teams",
        "organiser:print_tables",
        "organiser:print_routes",
        "organiser:print_deal_sets",
        "organiser:print_hands",
    ],
)
def test_other_clubs_event_is_404(client_in, name: str) -> None:
    other = EventFactory()
    assert client_in.get(url(name, other.pk)).status_code == 404


def test_posts_on_other_clubs_event_are_404_and_change_nothing(client_in) -> None:
    other = EventFactory()
    player = PlayerFactory()
    assert (
        client_in.post(
            url("organiser:player_register", other.pk), {"player": player.pk}
        ).status_code
        == 404
    )
    assert client_in.post(url("organiser:event_start", other.pk)).status_code == 404
    assert client_in.post(url("organiser:deals", other.pk), {"seed": 1}).status_code == 404
    assert not other.entrants.exists()


def test_event_create_valid_then_invalid(client_in, organiser) -> None:
    club = organiser.clubs.first()
    data = {
        "name": "Open de Lyon",
        "date": "2026-12-05",
        "club": club.pk,
        "format": "individual",
        "deals_per_round": 3,
    }
    response = client_in.post(url("organiser:event_create"), data)
    event = Event.objects.get(name="Open de Lyon")
    assert response.status_code == 302
    assert response["Location"] == url("organiser:players", event.pk)
    # Another club's id is not a valid choice: re-rendered with the field error, nothing stored.
    response = client_in.post(
        url("organiser:event_create"), {**data, "name": "Pirate", "club": ClubFactory().pk}
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.text
    response = client_in.post(url("organiser:event_create"), {**data, "deals_per_round": 0})
    assert response.status_code == 400
    assert Event.objects.count() == 1


def test_player_add_by_hand_and_field_error(client_in, organiser) -> None:
    event = own_event(organiser)
    response = client_in.post(
        url("organiser:player_add", event.pk),
        {"last_name": "Martin", "first_name": "Alice", "licence": "777"},
    )
    assert response.status_code == 302
    assert event.entrants.get().player.licence == "777"
    # the licence is known: it is that player, under his stored name (already registered)
    response = client_in.post(
        url("organiser:player_add", event.pk),
        {"last_name": "Autre", "first_name": "Bob", "licence": "777"},
    )
    assert response.status_code == 400
    assert "already registered" in response.text
    assert Player.objects.get().last_name == "Martin"
    response = client_in.post(
        url("organiser:player_add", event.pk), {"last_name": "Sans", "first_name": ""}
    )
    assert response.status_code == 400 and Player.objects.count() == 1


def test_search_and_register_known_player(client_in, organiser) -> None:
    event = own_event(organiser)
    player = PlayerFactory(last_name="Dupont", licence="555", club=event.club)
    PlayerFactory(last_name="Dupond", licence="556")  # another club's: not offered
    response = client_in.get(url("organiser:players", event.pk), {"q": "dupo"})
    assert "DUPOND" not in response.text
    assert response.status_code == 200 and "DUPONT" in response.text
    response = client_in.get(
        url("organiser:players", event.pk), {"q": "555"}, headers={"HX-Request": "true"}
    )
    assert "DUPONT" in response.text and "<html" not in response.text
    other = PlayerFactory(club=event.club)
    other.memberships.update(active=False)  # deactivated: not offered
    response = client_in.post(url("organiser:player_register", event.pk), {"player": other.pk})
    assert response.status_code == 400 and not event.entrants.exists()
    response = client_in.post(url("organiser:player_register", event.pk), {"player": player.pk})
    assert response.status_code == 302
    assert event.entrants.get().player == player
    response = client_in.post(url("organiser:player_register", event.pk), {"player": player.pk})
    assert response.status_code == 400 and event.entrants.count() == 1


def test_csv_import_page_shows_line_report(client_in, organiser) -> None:
    event = own_event(organiser)
    csv = "last_name,first_name,licence\nMartin,Alice,1\nSolo,,2\nBernard,Chloé,3\n"
    upload = SimpleUploadedFile("players.csv", csv.encode(), content_type="text/csv")
    response = client_in.post(url("organiser:players_import", event.pk), {"file": upload})
    assert response.status_code == 200
    assert 'id="import-report"' in response.text
    assert "first name is required" in response.text
    assert event.entrants.count() == 2
    empty = SimpleUploadedFile("e.csv", b"", content_type="text/csv")
    response = client_in.post(url("organiser:players_import", event.pk), {"file": empty})
    assert response.status_code == 400 and event.entrants.count() == 2


def test_withdraw_before_start_marks_movement_stale(client_in, organiser) -> None:
    event = ready_event(organiser)
    entrant = event.entrants.filter(phantom=False).first()
    response = client_in.post(url("organiser:entrant_withdraw", event.pk, entrant.pk), follow=True)
    assert response.status_code == 200
    assert "regenerate the movement" in response.text
    event.refresh_from_db()
    assert event.movement is None and not Entrant.objects.filter(pk=entrant.pk).exists()


def test_teams_page_creates_a_team(client_in, organiser) -> None:
    event = own_event(organiser, format=Event.Format.TRIPLETTE)
    entrants = [services.entrant_register(event=event, player=PlayerFactory()) for _ in range(4)]
    assert client_in.get(url("organiser:teams", event.pk)).status_code == 200
    response = client_in.post(
        url("organiser:teams", event.pk),
        {"name": "Les As", "members": [e.pk for e in entrants[:2]]},
    )
    assert response.status_code == 400 and not Team.objects.exists()
    response = client_in.post(
        url("organiser:teams", event.pk),
        {"name": "Les As", "members": [e.pk for e in entrants[:3]]},
    )
    assert response.status_code == 302 and Team.objects.get().members.count() == 3


def test_movement_page_proposes_and_saves(client_in, organiser) -> None:
    event = own_event(organiser)
    for _ in range(28):
        services.entrant_register(event=event, player=PlayerFactory())
    response = client_in.get(url("organiser:movement", event.pk))
    assert response.status_code == 200
    assert 'id="movement-preview"' in response.text and "7 tables" in response.text
    response = client_in.get(url("organiser:movement", event.pk), {"tables": "x"})
    assert response.status_code == 400
    response = client_in.post(url("organiser:movement", event.pk), {"tables": 2, "seed": 0})
    assert response.status_code == 400
    event.refresh_from_db()
    assert event.movement is None
    previewed = client_in.get(url("organiser:movement", event.pk)).context["preview"]
    response = client_in.post(
        url("organiser:movement", event.pk),
        {"tables": 7, "seed": 0, "document": json.dumps(previewed)},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.movement == previewed  # exactly what was shown is stored
    response = client_in.get(url("organiser:movement", event.pk))
    assert 'id="current-movement"' in response.text and "Every hard check passes." in response.text


def test_deals_generate_import_and_start(client_in, organiser) -> None:
    event = ready_event(organiser)
    response = client_in.post(url("organiser:deals", event.pk), {"seed": -1})
    assert response.status_code == 400 and not Deal.objects.filter(event=event).exists()
    bad = SimpleUploadedFile("deals.txt", b"N: S1 S2\n", content_type="text/plain")
    response = client_in.post(url("organiser:deals_import", event.pk), {"file": bad})
    assert response.status_code == 400 and "Deal 1" in response.text
    response = client_in.post(url("organiser:deals", event.pk), {"seed": 11})
    assert response.status_code == 302
    expected = event.movement["deal_sets"] * event.deals_per_round
    assert Deal.objects.filter(event=event).count() == expected
    response = client_in.post(url("organiser:event_start", event.pk))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    response = client_in.post(url("organiser:event_start", event.pk))
    assert response.status_code == 409


def test_start_refused_shows_problems(client_in, organiser) -> None:
    event = ready_event(organiser)
    response = client_in.post(url("organiser:event_start", event.pk))
    assert response.status_code == 409 and "Deals are missing" in response.text
    assert "cannot start yet" not in response.text  # the problems, without the heading
    event.refresh_from_db()
    assert event.status == Event.Status.DRAFT


def test_print_pages(client_in, organiser, django_assert_max_num_queries) -> None:
    event = ready_event(organiser)
    with django_assert_max_num_queries(8):  # no query per table or per seat
        response = client_in.get(url("organiser:print_tables", event.pk))
    assert response.status_code == 200
    assert response.text.count('class="page table-card"') == 7
    assert response.text.count("<svg") == 7
    table = event.tables.get(number=1)
    assert f"http://testserver/table/{table.code}/" in response.text
    first = event.entrants.select_related("player").get(slot=1)
    assert str(first.player) in response.text
    with django_assert_max_num_queries(8):
        response = client_in.get(url("organiser:print_routes", event.pk))
    assert response.text.count('class="route-card"') == 28
    assert response.text.count('class="route-sheet"') == 4  # 8 cards to an A4 sheet
    response = client_in.get(url("organiser:print_deal_sets", event.pk))
    assert response.text.count('class="page deal-set-route"') == event.movement["deal_sets"]
    response = client_in.get(url("organiser:print_hands", event.pk))
    assert response.status_code == 302  # no deals yet
    services.event_deals_generate(event=event, seed=5)
    response = client_in.get(url("organiser:print_hands", event.pk))
    assert response.status_code == 200
    assert (
        response.text.count('class="page hand-diagram-page"')
        == Deal.objects.filter(event=event).count()
    )
    assert "♠" in response.text and "Chien" in response.text


def test_print_without_movement_redirects(client_in, organiser) -> None:
    event = own_event(organiser)
    response = client_in.get(url("organiser:print_tables", event.pk))
    assert response.status_code == 302
    assert response["Location"] == url("organiser:movement", event.pk)


def test_dashboard_shows_steps(client_in, organiser) -> None:
    event = ready_event(organiser)
    response = client_in.get(url("organiser:event", event.pk))
    assert response.status_code == 200
    assert 'id="step-movement"' in response.text and 'id="print-tables"' in response.text


def test_movement_file_import_refuses_hard_errors(client_in, organiser) -> None:
    source = ready_event(organiser)
    event = own_event(organiser)
    for _ in range(28):
        services.entrant_register(event=event, player=PlayerFactory())
    broken = json.loads(json.dumps(source.movement))
    broken["schedule"][1]["tables"][0]["deal_set"] = broken["schedule"][0]["tables"][0]["deal_set"]
    upload = SimpleUploadedFile("m.json", json.dumps(broken).encode(), "application/json")
    response = client_in.post(url("organiser:movement_import", event.pk), {"file": upload})
    assert response.status_code == 400 and "hard errors" in response.text
    garbage = SimpleUploadedFile("m.json", b"{not json", "application/json")
    response = client_in.post(url("organiser:movement_import", event.pk), {"file": garbage})
    assert response.status_code == 400 and "not a JSON document" in response.text
    event.refresh_from_db()
    assert event.movement is None and not event.tables.exists()
    upload = SimpleUploadedFile("m.json", json.dumps(source.movement).encode(), "application/json")
    response = client_in.post(url("organiser:movement_import", event.pk), {"file": upload})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.movement == source.movement and event.tables.count() == 7


def test_print_pages_with_phantoms_show_sit_outs(client_in, organiser) -> None:
    event = own_event(organiser, deals_per_round=2)
    for _ in range(26):
        services.entrant_register(event=event, player=PlayerFactory())
    services.event_movement_set(event=event, tables=7)
    event.refresh_from_db()
    schedule = event.schedule
    sit_out_tables = {play.table for play in schedule.plays() if play.sits_out}
    played_tables = {play.table for play in schedule.playing()}
    assert sit_out_tables
    response = client_in.get(url("organiser:print_tables", event.pk))
    assert response.text.count('class="page table-card"') == len(played_tables)
    assert "phantom" not in response.text.lower()
    response = client_in.get(url("organiser:print_routes", event.pk))
    assert response.text.count('class="route-card"') == 26
    byes = response.text.count('<td colspan="3">Bye</td>')
    assert byes == 2 * len(schedule.rounds)  # the 2 players seated with 2 phantoms


def test_details_edit_and_running_dashboard(client_in, organiser) -> None:
    event = ready_event(organiser)
    response = client_in.post(
        url("organiser:event_edit", event.pk),
        {"name": "", "date": "2026-12-06", "deals_per_round": 2},
    )
    assert response.status_code == 400 and "This field is required" in response.text
    response = client_in.post(
        url("organiser:event_edit", event.pk),
        {"name": "Open 2", "date": "2026-12-06", "deals_per_round": 2, "public": "on"},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Open 2" and event.public
    services.event_deals_generate(event=event, seed=1)
    services.event_start(event=event)
    response = client_in.get(url("organiser:event", event.pk))
    assert response.status_code == 200 and "Finish the event" in response.text
    table = event.tables.get(number=1)
    assert f"/table/{table.code}/" in response.text
    response = client_in.post(
        url("organiser:event_edit", event.pk),
        {"name": "Late change", "date": "2026-12-06", "deals_per_round": 2},
    )
    assert response.status_code == 400
    event.refresh_from_db()
    assert event.name == "Open 2"
    # Results are missing: finishing needs the director's confirmation.
    refused = client_in.post(url("organiser:event_finish", event.pk))
    assert refused.status_code == 409 and 'id="missing-results"' in refused.text
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    confirmed = client_in.post(url("organiser:event_finish", event.pk), {"confirm": "1"})
    assert confirmed.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_event_create_offers_the_defenders_confirmation_off_by_default(
    client_in, organiser
) -> None:
    """Issue 24: the choice is on the creation form with its one-line explanation."""
    html = client_in.get(url("organiser:event_create")).text
    field = re.search(r'<input[^>]*name="opponent_confirmation"[^>]*>', html)
    assert field is not None
    assert "checked" not in field.group(0)
    assert "A defender confirms each result" in html
    assert "as bridge scoring terminals ask the other side to confirm" in html
    club = organiser.clubs.first()
    data = {"name": "Checked", "date": "2026-12-05", "club": club.pk, "format": "individual",
            "deals_per_round": 3}  # fmt: skip
    client_in.post(url("organiser:event_create"), {**data, "opponent_confirmation": "on"})
    client_in.post(url("organiser:event_create"), {**data, "name": "Unchecked"})
    assert Event.objects.get(name="Checked").opponent_confirmation
    assert not Event.objects.get(name="Unchecked").opponent_confirmation

"""Series pages: the public ranking and its export, the organiser's screens and their access,
and the publication rule (only finished public events' final rankings count)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client

from scoring.selectors import ranking_rows
from scoring.services import standings_recompute
from series import services
from series.models import Series
from series.selectors import NOT_FINISHED, NOT_PUBLIC, UPDATING, series_ranking
from tests.builders import scored_event
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tests.series.worlds import finished_event, finished_team_event
from tournaments import services as tournament_services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

POINTS = {"method": "points", "points_table": [10, 7, 4], "points_default": 0,
          "best_n": None, "min_events": 2}  # fmt: skip


@pytest.fixture
def season():
    """Tarot Lyon's season: two counted events, one running, one private, one behind.

    Counted: E1 A 1st 60 %, B 2nd 55 %, C 3rd 45 %; E2 B 1st 58 %, D 2nd 40 %, A 3rd 52 %.
    Points 10/7/4, two events to be ranked: B 7+10 = 17, A 10+4 = 14; D 7 and C 4 unranked.
    """
    club = ClubFactory(name="Tarot Lyon")
    a, b, c, d = (
        PlayerFactory(club=club, last_name=name, first_name="X")
        for name in ("Arnaud", "Bernard", "Colin", "Durand")
    )
    e1 = finished_event(club, [(a, 1, "60.00"), (b, 2, "55.00"), (c, 3, "45.00")], day=1)
    e2 = finished_event(club, [(b, 1, "58.00"), (d, 2, "40.00"), (a, 3, "52.00")], day=8)
    running = finished_event(club, [(d, 1, "70.00")], day=15, status=Event.Status.RUNNING,
                             name="En cours")  # fmt: skip
    private = finished_event(club, [(c, 1, "70.00")], day=16, public=False, name="Privé")
    behind = finished_event(club, [(c, 1, "70.00")], day=17, behind=True, name="Recalcul")
    series = services.series_create(club=club, name="Challenge", season="2026-2027",
                                     public=True, **POINTS)  # fmt: skip
    for event in (e1, e2, running, private, behind):
        services.series_event_add(series=series, event=event)
    organiser = OrganiserFactory(clubs=[club])
    return {"series": series, "players": (a, b, c, d), "events": (e1, e2, running, private,
            behind), "organiser": organiser, "club": club}  # fmt: skip


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_ranking_counts_only_the_final_rankings_of_finished_public_events(season):
    ranking = series_ranking(season["series"])
    a, b, c, d = season["players"]
    assert [(line.event.name, line.reason) for line in ranking.events] == [
        ("Tournoi 1", None),
        ("Tournoi 8", None),
        ("En cours", NOT_FINISHED),
        ("Privé", NOT_PUBLIC),
        ("Recalcul", UPDATING),
    ]
    assert [(s.player_id, s.place, s.played, int(s.score)) for s in ranking.standings] == [
        (b.pk, 1, 2, 17),
        (a.pk, 2, 2, 14),
        (d.pk, None, 1, 7),
        (c.pk, None, 1, 4),
    ]


def test_the_public_page_shows_the_ranking_the_unranked_and_the_events(season):
    series = season["series"]
    e1 = season["events"][0]
    response = _client().get(f"/en/series/{series.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.index("BERNARD X") < html.index("ARNAUD X") < html.index("Not ranked")
    assert html.index("Not ranked") < html.index("DURAND X") < html.index("COLIN X")
    assert f'href="/en/events/{e1.pk}/ranking/"' in html  # each result links its event
    assert "Not counted yet: not finished" in html
    assert "Not counted: its results are not public" in html
    assert "Not counted yet: its final ranking is being computed" in html
    assert "ranked from 2 events played" in html
    assert '<div class="scroll-x"><table class="ranking series-ranking">' in html
    # French by default
    french = _client().get(f"/series/{series.pk}/")
    assert french.status_code == 200
    assert 'lang="fr"' in french.content.decode()


def test_a_private_series_shows_to_its_clubs_organisers_only(season):
    series = season["series"]
    services.series_update(series=series, public=False)
    assert _client().get(f"/series/{series.pk}/").status_code == 404
    assert _client().get(f"/series/{series.pk}/export/ranking.csv").status_code == 404
    assert _client(OrganiserFactory()).get(f"/series/{series.pk}/").status_code == 404
    assert _client(season["organiser"]).get(f"/series/{series.pk}/").status_code == 200
    listed = _client().get("/en/series/").content.decode()
    assert "Challenge" not in listed


def _rows(response) -> list[list[str]]:
    text = response.content.decode("utf-8-sig")
    delimiter = ";" if text.splitlines()[0].count(";") > 1 else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def test_the_csv_export_follows_the_language(season):
    series = season["series"]
    services.series_update(series=series, method="percentage", min_events=1)
    # averages: B (55 + 58) / 2 = 56.50, A (60 + 52) / 2 = 56.00, C 45.00, D 40.00
    french = _client().get(f"/series/{series.pk}/export/ranking.csv")
    assert french.status_code == 200
    assert french["Content-Type"].startswith("text/csv")
    text = french.content.decode("utf-8-sig")
    assert text.splitlines()[0].count(";") == 7
    rows = _rows(french)
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]
    assert rows[1][1:2] + rows[1][3:8] == ["BERNARD X", "2", "2", "56,50", "55,00", "58,00"]
    english = _client().get(f"/en/series/{series.pk}/export/ranking.csv")
    rows = _rows(english)
    # No licence for a visitor.
    assert rows[0][:6] == ["Place", "Name", "Club", "Events played", "Results counted",
                           "Average"]  # fmt: skip
    assert rows[0][6:] == ["Tournoi 1", "Tournoi 8"]
    assert rows[2][1:2] + rows[2][5:8] == ["ARNAUD X", "56.00", "60.00", "52.00"]
    # The series' organisers have the players' licences.
    rows = _rows(_client(season["organiser"]).get(f"/en/series/{series.pk}/export/ranking.csv"))
    assert rows[0][:4] == ["Place", "Name", "Licence", "Club"]
    a = season["players"][0]
    assert rows[2][1:3] == ["ARNAUD X", a.licence]
    assert _client().get(f"/series/{series.pk}/export/ranking.pdf").status_code == 404
    xlsx = _client().get(f"/series/{series.pk}/export/ranking.xlsx")
    assert xlsx.status_code == 200


def test_an_unranked_player_is_named_so_in_the_export(season):
    rows = _rows(_client().get(f"/en/series/{season['series'].pk}/export/ranking.csv"))
    assert [row[0] for row in rows[1:]] == ["1", "2", "not ranked", "not ranked"]
    assert rows[3][5:] == ["7", "", "7"]  # Durand: 2nd of Tournoi 8 only


def test_a_team_events_players_take_their_teams_place_and_percentage():
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(6)]
    event = finished_team_event(club, [(players[:3], 2, "48.00"), (players[3:], 1, "52.00")], day=3)
    series = services.series_create(club=club, name="Triplettes", **{**POINTS, "min_events": 1})
    services.series_event_add(series=series, event=event)
    ranking = series_ranking(series)
    places = {s.player_id: (s.place, int(s.score)) for s in ranking.standings}
    assert places == {
        **{p.pk: (1, 10) for p in players[3:]},
        **{p.pk: (4, 7) for p in players[:3]},
    }
    assert {r.percentage for s in ranking.standings for r in s.results} == {
        Decimal("48.00"),
        Decimal("52.00"),
    }


def test_a_played_event_counts_once_finished_with_its_published_ranking():
    """A real event (deals played, standings recomputed): not counted while running; once
    finished, each player's place is his rank in the event's published individual ranking."""
    event = scored_event(tables=3, deals_per_round=1)
    series = services.series_create(club=event.club, name="Saison", public=True,
                                    **{**POINTS, "min_events": 1})  # fmt: skip
    services.series_event_add(series=series, event=event)
    ranking = series_ranking(series)
    assert [line.reason for line in ranking.events] == [NOT_FINISHED]
    assert ranking.standings == []
    tournament_services.event_finish(event=Event.objects.get(pk=event.pk))
    standings_recompute(event_id=event.pk)
    ranking = series_ranking(series)
    assert [line.reason for line in ranking.events] == [None]
    expected = {
        row.entrant.player_id: (row.rank, row.percentage)
        for row in ranking_rows(Event.objects.get(pk=event.pk))
    }
    got = {s.player_id: (s.results[0].place, s.results[0].percentage) for s in ranking.standings}
    assert got == expected and len(got) == 12


# ----------------------------------------------------------------------------- organiser


def test_organiser_screens_need_a_login_then_the_series_club(season):
    series = season["series"]
    edit = f"/organiser/series/{series.pk}/"
    assert _client().get(edit).status_code == 302
    assert "/login/" in _client().get(edit)["Location"]
    other = _client(OrganiserFactory())
    assert other.get(edit).status_code == 404
    e1 = season["events"][0]
    assert other.post(f"{edit}events/{e1.pk}/remove/").status_code == 404
    assert other.post(f"{edit}delete/").status_code == 404
    assert other.post(f"{edit}events/add/", {"event": e1.pk}).status_code == 404
    assert other.get("/organiser/series/").status_code == 200
    assert "Challenge" not in other.get("/en/organiser/series/").content.decode()
    own = _client(season["organiser"])
    assert own.get(edit).status_code == 200
    assert "Challenge" in own.get("/en/organiser/series/").content.decode()


def test_an_organiser_creates_a_series_and_bad_points_are_refused_on_their_field():
    club = ClubFactory()
    client = _client(OrganiserFactory(clubs=[club]))
    form = {"name": "Saison", "season": "2026-2027", "club": club.pk, "method": "points",
            "points_table": "12; 9 7,5", "points_default": "1", "best_n": "", "min_events": "3",
            "public": "on"}  # fmt: skip
    response = client.post("/en/organiser/series/new/", form)
    assert response.status_code == 302
    series = Series.objects.get()
    assert response["Location"] == f"/en/organiser/series/{series.pk}/"
    assert (series.points_table, series.points_default, series.best_n, series.min_events) == (
        [12, 9, 7, 5],
        1,
        None,
        3,
    )
    bad = client.post("/en/organiser/series/new/", {**form, "points_table": "10, dix"})
    assert bad.status_code == 400
    assert "Write the points as whole numbers separated by commas: dix is not one." in (
        bad.content.decode()
    )
    negative = client.post("/en/organiser/series/new/", {**form, "points_table": "10, -1"})
    assert negative.status_code == 400
    assert "place 2: -1 is not a whole number of points of 0 or more" in (negative.content.decode())
    zero = client.post(f"/en/organiser/series/{series.pk}/", {**form, "best_n": "0"})
    assert zero.status_code == 400
    assert "count at least 1 result" in zero.content.decode()
    assert Series.objects.count() == 1


def test_an_organiser_adds_and_removes_events(season):
    series = season["series"]
    organiser = season["organiser"]
    client = _client(organiser)
    extra = finished_event(season["club"], [], day=20, name="Nouveau")
    foreign = finished_event(ClubFactory(), [], day=21, name="Ailleurs")
    page = client.get(f"/en/organiser/series/{series.pk}/").content.decode()
    assert "Nouveau" in page and "Ailleurs" not in page  # a club series offers its events
    added = client.post(f"/en/organiser/series/{series.pk}/events/add/", {"event": extra.pk})
    assert added.status_code == 302
    assert series.events.filter(pk=extra.pk).exists()
    refused = client.post(f"/en/organiser/series/{series.pk}/events/add/",
                          {"event": foreign.pk})  # fmt: skip
    assert refused.status_code == 400
    removed = client.post(f"/en/organiser/series/{series.pk}/events/{extra.pk}/remove/")
    assert removed.status_code == 302
    assert not series.events.filter(pk=extra.pk).exists()
    assert client.get(f"/organiser/series/{series.pk}/events/{extra.pk}/remove/").status_code == (
        405
    )
    deleted = client.post(f"/en/organiser/series/{series.pk}/delete/")
    assert deleted.status_code == 302
    assert not Series.objects.exists()
    assert Event.objects.filter(pk=extra.pk).exists()


def test_the_home_pages_lead_to_the_series(season):
    assert 'href="/en/series/"' in _client().get("/en/").content.decode()
    organiser = _client(season["organiser"]).get("/en/organiser/").content.decode()
    assert 'href="/en/organiser/series/"' in organiser
    index = _client().get("/en/series/").content.decode()
    assert f'href="/en/series/{season["series"].pk}/"' in index


def test_the_edit_page_says_when_no_event_is_left_to_add(season):
    client = _client(season["organiser"])
    page = client.get(f"/en/organiser/series/{season['series'].pk}/").content.decode()
    assert "Every event of the club is in this series." in page
    assert 'id="series-event-add"' not in page


def test_removing_an_event_not_in_the_series_is_a_404_and_changes_nothing(season):
    series = season["series"]
    client = _client(season["organiser"])
    stranger = finished_event(season["club"], [], day=22, name="Ailleurs")
    other_series = services.series_create(club=season["club"], name="Coupe", **POINTS)
    services.series_event_add(series=other_series, event=stranger)
    url = f"/en/organiser/series/{series.pk}/events/{stranger.pk}/remove/"
    assert client.post(url).status_code == 404
    assert client.post(f"/en/organiser/series/{series.pk}/events/999999/remove/").status_code == (
        404
    )
    assert other_series.events.filter(pk=stranger.pk).exists()
    assert series.events.count() == 5


def test_an_event_removed_meanwhile_is_said_so_not_a_server_error(season, monkeypatch):
    from clubs.errors import DomainError

    series = season["series"]
    e1 = season["events"][0]

    def gone(**kwargs):
        raise DomainError("event_not_in_series", "Tournoi 1 is not in this series", field="event")

    monkeypatch.setattr(services, "series_event_remove", gone)
    client = _client(season["organiser"])
    response = client.post(f"/en/organiser/series/{series.pk}/events/{e1.pk}/remove/",
                           follow=True)  # fmt: skip
    assert response.status_code == 200
    assert "Tournoi 1 is not in this series" in response.content.decode()


def test_an_event_the_organiser_may_not_add_is_refused_on_the_field(season):
    series = season["series"]
    client = _client(season["organiser"])
    private_elsewhere = EventFactory(club=ClubFactory(), name="Secret")
    response = client.post(f"/en/organiser/series/{series.pk}/events/add/",
                           {"event": private_elsewhere.pk})  # fmt: skip
    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()
    assert 'id="series-event-add"' in response.content.decode()  # the form stays to correct
    assert not series.events.filter(pk=private_elsewhere.pk).exists()


def test_a_league_series_with_another_clubs_event_cannot_turn_club_only(season):
    series = season["series"]
    services.series_update(series=series, league=True)
    foreign = finished_event(ClubFactory(name="Tarot Vienne"), [], day=23, name="Open",
                             public=True)  # fmt: skip
    client = _client(season["organiser"])
    assert client.post(f"/en/organiser/series/{series.pk}/events/add/",
                       {"event": foreign.pk}).status_code == 302  # fmt: skip
    form = {"name": "Challenge", "season": "2026-2027", "method": "points",
            "points_table": "10, 7, 4", "points_default": "0", "best_n": "", "min_events": "2",
            "public": "on"}  # fmt: skip
    refused = client.post(f"/en/organiser/series/{series.pk}/", form)
    assert refused.status_code == 400
    assert "Open is an event of Tarot Vienne: remove it first" in refused.content.decode()
    series.refresh_from_db()
    assert series.league


def test_the_edit_page_offers_at_most_the_latest_events(season, monkeypatch):
    from series import views

    monkeypatch.setattr(views, "ADDABLE_EVENTS", 1)
    club = season["club"]
    finished_event(club, [], day=24, name="Avant-dernier")
    finished_event(club, [], day=25, name="Dernier")
    page = _client(season["organiser"]).get(f"/en/organiser/series/{season['series'].pk}/")
    html = page.content.decode()
    assert "Dernier" in html and "Avant-dernier" not in html

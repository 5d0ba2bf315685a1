"""``manage.py demo --no-serve``: three public events whose pages and API answer, sound scores.

Runs the real command on the test database (migrate, build through the services, simulated
play, standings) and checks what a newcomer would click through.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from clubs.models import Club, Player
from demo.services import DEMO_CLUB_NAME, DEMO_USERNAME, demo_reset
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from series.models import Series
from series.selectors import series_ranking
from tests.builders import enter_round, running_event
from tests.factories import ClubFactory
from tournaments.models import Entrant, Event, Table, TableResult

PASSWORD = "demo-pass-2026"


def run_demo(*args: str) -> str:
    out = StringIO()
    call_command("demo", "--no-serve", "--password", PASSWORD, *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_demo_builds_three_public_events_with_sound_scores(client: Client) -> None:
    output = run_demo()
    # The demo club's own events (its section of the simultaneous: test_demo_simultaneous).
    own = Event.objects.filter(club__name=DEMO_CLUB_NAME, simultaneous__isnull=True)
    events = {e.format: e for e in own}
    assert set(events) == {"individual", "triplette", "quadrette"}
    individual, triplette, quadrette = (events[f] for f in ("individual", "triplette",
                                                            "quadrette"))  # fmt: skip

    # Sizes asked for: 7 tables / 28 players, 16 triplettes, 8 quadrettes.
    assert Entrant.objects.filter(event=individual, phantom=False).count() == 28
    assert Table.objects.filter(event=individual).count() == 7
    assert triplette.teams.count() == 16
    assert quadrette.teams.count() == 8

    # One event is live (last round unfinished), the others are finished and complete.
    assert individual.status == Event.Status.RUNNING
    live = StandingsSnapshot.objects.get(event=individual)
    assert 0 < live.results_entered < live.results_expected
    assert not live.complete
    for event in (triplette, quadrette):
        assert event.status == Event.Status.FINISHED
        snapshot = StandingsSnapshot.objects.get(event=event)
        assert snapshot.complete and snapshot.results_version == event.results_version
    assert live.results_version == individual.results_version

    # Every result comes from the rules engine through the entry service: Garde or more.
    results = TableResult.objects.filter(event__in=own)
    assert results.count() > 300
    assert not results.exclude(kind=TableResult.Kind.PLAYED).exists()
    assert not results.filter(contract="prise").exists()
    for result in results.only("mark_n", "mark_e", "mark_s", "mark_w"):
        assert result.mark_n + result.mark_e + result.mark_s + result.mark_w == 0

    # The individual event's hands average exactly 50 % (complete hands, no Neuberg).
    by_hand: dict[tuple[int, str], list[HandScore]] = defaultdict(list)
    for score in HandScore.objects.filter(event=individual):
        by_hand[(score.deal_id, score.seat)].append(score)
    scheduled = individual.schedule.table_count  # a line movement: each set at every table once
    complete = [scores for scores in by_hand.values() if len(scores) == scheduled]
    assert len(complete) >= 4 * 9  # the deal sets whose last-round table is done
    for scores in complete:
        mean = sum(Fraction(s.matchpoints) / Fraction(s.top) for s in scores) / len(scores)
        assert mean == Fraction(1, 2)
        assert abs(sum(s.percentage for s in scores) / len(scores) - 50) < Fraction(1, 100)

    # The public pages and the API answer, in French and in English.
    for event in events.values():
        entrant = RankingEntry.objects.filter(event=event, kind="individual").first()
        assert entrant is not None
        pages = [
            f"events/{event.pk}/",
            f"events/{event.pk}/ranking/",
            f"events/{event.pk}/ranking/projector/",
            f"events/{event.pk}/deals/",
            f"events/{event.pk}/deals/1/",
            f"events/{event.pk}/players/",
            f"events/{event.pk}/players/{entrant.entrant_id}/",
            f"events/{event.pk}/movement/",
            f"events/{event.pk}/export/ranking.csv",
            f"events/{event.pk}/export/results.xlsx",
        ]
        if event.is_team_event:
            pages.append(f"events/{event.pk}/teams/")
        if event.format == "quadrette":
            pages.append(f"events/{event.pk}/matches/")
        for page in pages:
            for prefix in ("/", "/en/"):
                assert client.get(prefix + page).status_code == 200, prefix + page
        api = [
            f"/api/v1/events/{event.pk}/",
            f"/api/v1/events/{event.pk}/entrants/",
            f"/api/v1/events/{event.pk}/movement/",
            f"/api/v1/events/{event.pk}/deals/",
            f"/api/v1/events/{event.pk}/results/",
            f"/api/v1/events/{event.pk}/rankings/",
            f"/api/v1/events/{event.pk}/deals/1/hand-scores/",
        ]
        for url in api:
            assert client.get(url).status_code == 200, url
    assert client.get("/").status_code == 200
    assert client.get("/api/docs/").status_code == 200

    # The printout names the organiser account, and it logs in.
    assert f"{DEMO_USERNAME} / {PASSWORD}" in output
    assert f"/events/{individual.pk}/ranking/" in output
    assert "/table/" in output and "/api/docs/" in output
    # Through the login page (django-axes' backend needs the request that client.login lacks).
    login = client.post("/login/", {"username": DEMO_USERNAME, "password": PASSWORD})
    assert login.status_code == 302 and login["Location"] == "/organiser/"

    assert RankingEntry.objects.filter(event=triplette, kind="team").count() == 16
    assert RankingEntry.objects.filter(event=quadrette, kind="team").count() == 8

    # Quadrette match sheets: 4 matches a round over a 7-round round robin, ranked by PM.
    matches = client.get(f"/en/events/{quadrette.pk}/matches/").content.decode()
    assert matches.count('class="card match"') == 4 * 7
    sheets = StandingsSnapshot.objects.get(event=quadrette).data["matches"]
    assert {len(sheet["deals"]) for sheet in sheets} == {quadrette.deals_per_round}
    assert not RankingEntry.objects.filter(
        event=quadrette, kind="team", points_de_match__isnull=True
    ).exists()

    # The club's series: the finished triplette and quadrette count; the running individual
    # event and the Lyon section (its simultaneous still in play) are listed, not counted.
    series = Series.objects.get(club__name=DEMO_CLUB_NAME)
    ranking = series_ranking(series)
    assert len(ranking.events) == 4
    assert {line.event.pk for line in ranking.events if line.counted} == {
        triplette.pk,
        quadrette.pk,
    }
    assert len(ranking.ranked) == 16 * 3 + 8 * 4
    assert client.get(f"/series/{series.pk}/").status_code == 200
    assert f"/series/{series.pk}/" in output


@pytest.mark.django_db
def test_demo_refuses_bad_options_clearly() -> None:
    with pytest.raises(CommandError, match="--port"):
        call_command("demo", "--no-serve", "--port", "http")
    with pytest.raises(CommandError, match="at least 8"):
        call_command("demo", "--no-serve", "--password", "short")


@pytest.mark.django_db
def test_demo_reset_removes_the_demo_club_and_nothing_else() -> None:
    """A second ``demo`` run starts with this reset, then builds afresh."""
    demo_club = ClubFactory(name=DEMO_CLUB_NAME)
    old_demo = running_event(tables=5, deals_per_round=1, club=demo_club)
    enter_round(old_demo, 1, random.Random(1))
    other = running_event(tables=5, deals_per_round=1)
    enter_round(other, 1, random.Random(2))
    demo_players = Player.objects.filter(club=demo_club).count()
    assert demo_players == 20

    demo_reset()

    assert not Club.objects.filter(name=DEMO_CLUB_NAME).exists()
    assert not Event.objects.filter(pk=old_demo.pk).exists()
    assert TableResult.objects.filter(event=other).count() == 5
    assert Player.objects.filter(entries__event=other).count() == 20
    assert Player.objects.count() == 20


@pytest.mark.django_db
def test_demo_refuses_to_take_over_another_organisateur_account() -> None:
    get_user_model().objects.create_user(username=DEMO_USERNAME, password="someone-else-1")
    with pytest.raises(CommandError, match="already exists") as raised:
        call_command("demo", "--no-serve", stdout=StringIO())
    assert raised.value.returncode == 2
    assert not Event.objects.exists()

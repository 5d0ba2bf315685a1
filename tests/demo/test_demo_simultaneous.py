"""``manage.py demo``: the league's simultaneous of three sections, built, played and shown.

Runs the real command once (migrate, build through the services, simulated play, one section's
first rounds imported from a CSV file, standings) and checks what a director and players would
click through: the sections' sizes and states, the results each holds, the overall standings,
the publication rule across sections, the public and organiser pages, the printout. A second
test checks that the reset removes the demo simultaneous and nothing else of its sections'
clubs.
"""

from __future__ import annotations

import random
import re
import tempfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from clubs.models import Club, Player
from demo.services import (
    DEMO_CLUB_NAME,
    DEMO_LEAGUE_NAME,
    DEMO_USERNAME,
    SIMULTANEOUS_NAME,
    demo_reset,
)
from scoring.models import RankingEntry, StandingsSnapshot
from scoring.selectors import standings_status
from tests.builders import EVENT_DATE, enter_round, running_event
from tests.factories import ClubFactory, PlayerFactory
from tournaments import services
from tournaments.models import Entrant, Event, Table, TableResult
from tournaments.publication import deals_hidden_from

PASSWORD = "demo-pass-2026"
ROUNDS = 5
DEALS_PER_ROUND = 3
# name: (club, tables, status)
SECTIONS = {
    "Lyon": (DEMO_CLUB_NAME, 4, Event.Status.FINISHED),
    "Villeurbanne": ("Tarot Club de Villeurbanne", 5, Event.Status.RUNNING),
    "Vienne": ("Tarot Club de Vienne", 3, Event.Status.RUNNING),
}
IMPORTED = 3 * 3 * DEALS_PER_ROUND  # Vienne: 3 tables, rounds 1 to 3
HIDDEN_SENTENCE = "The results of this deal are published once every table has played it."
SECTION_COLUMN = '<th class="col-section">Section</th>'


def expected_results(tables: int) -> int:
    return tables * ROUNDS * DEALS_PER_ROUND


@pytest.mark.django_db
def test_demo_builds_the_league_simultaneous_of_three_sections(
    client: Client, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    out = StringIO()
    call_command("demo", "--no-serve", "--password", PASSWORD, stdout=out)
    output = out.getvalue()

    parent = Event.objects.get(name=SIMULTANEOUS_NAME, simultaneous__isnull=True)
    assert parent.club.name == DEMO_LEAGUE_NAME
    assert parent.public and parent.status == Event.Status.RUNNING
    assert parent.format == Event.Format.INDIVIDUAL
    assert parent.deals.count() == ROUNDS * DEALS_PER_ROUND
    sections = {s.name: s for s in Event.objects.filter(simultaneous=parent)}
    assert set(sections) == set(SECTIONS)

    # Sizes, clubs, statuses; deals shared (copies of the simultaneous's).
    cards = list(parent.deals.order_by("number").values_list("number", "cards"))
    for name, (club, tables, status) in SECTIONS.items():
        section = sections[name]
        assert section.club.name == club
        assert section.status == status
        assert Table.objects.filter(event=section).count() == tables
        assert Entrant.objects.filter(event=section, phantom=False).count() == 4 * tables
        assert list(section.deals.order_by("number").values_list("number", "cards")) == cards

    # Results: Lyon complete, Villeurbanne's last round in play (3 deals missing), Vienne
    # complete with its first three rounds imported from the CSV file.
    lyon, villeurbanne, vienne = (sections[name] for name in SECTIONS)
    counts = {name: TableResult.objects.filter(event=s).count() for name, s in sections.items()}
    assert counts == {
        "Lyon": expected_results(4),
        "Villeurbanne": expected_results(5) - 3,
        "Vienne": expected_results(3),
    }
    imported = TableResult.objects.filter(entered_via="import")
    assert imported.count() == IMPORTED
    assert set(imported.values_list("event_id", flat=True)) == {vienne.pk}
    assert set(imported.values_list("round_number", flat=True)) == {1, 2, 3}
    assert (
        not TableResult.objects.filter(event=vienne, round_number__gt=3)
        .exclude(entered_via="table")
        .exists()
    )
    last = villeurbanne.schedule.round_numbers[-1]
    assert set(
        TableResult.objects.filter(event=villeurbanne)
        .exclude(round_number=last)
        .values_list("round_number", flat=True)
    ) == set(range(1, last))

    # Standings computed for the whole simultaneous, provisional while sections run.
    standings = standings_status(parent)
    assert standings.state == "provisional"
    assert (standings.entered, standings.expected) == (177, 180)
    for section in sections.values():
        assert standings_status(section).state == "provisional"
    snapshot = StandingsSnapshot.objects.get(event=parent)
    assert snapshot.results_version == parent.results_version
    public = RankingEntry.objects.filter(event=parent, kind="individual", published=True)
    assert public.count() == 48

    # The publication rule: the deals Villeurbanne's last round has still to play are hidden.
    hidden = deals_hidden_from(parent, directs=False)
    assert len(hidden) == 3
    for section in sections.values():
        assert deals_hidden_from(section, directs=False) == hidden
    hidden_deal, public_deal = min(hidden), min(set(range(1, 16)) - hidden)

    # Public pages of the simultaneous and of every section, in French and English.
    leader = RankingEntry.objects.filter(event=parent, kind="individual").order_by("rank").first()
    assert leader is not None and leader.entrant is not None
    leader_section = leader.entrant.event_id
    pages = [
        f"events/{parent.pk}/",
        f"events/{parent.pk}/ranking/",
        f"events/{parent.pk}/ranking/projector/",
        f"events/{parent.pk}/deals/",
        f"events/{parent.pk}/deals/{public_deal}/",
        f"events/{parent.pk}/deals/{hidden_deal}/",
        f"events/{parent.pk}/players/",
        f"events/{parent.pk}/export/ranking.csv",
        f"events/{parent.pk}/export/results.csv",
        f"events/{leader_section}/players/{leader.entrant_id}/",
    ]
    for section in sections.values():
        pages += [
            f"events/{section.pk}/",
            f"events/{section.pk}/ranking/",
            f"events/{section.pk}/deals/{public_deal}/",
            f"events/{section.pk}/deals/{hidden_deal}/",
            f"events/{section.pk}/players/",
            f"events/{section.pk}/movement/",
        ]
    for page in pages:
        for prefix in ("/", "/en/"):
            assert client.get(prefix + page).status_code == 200, prefix + page
    for url in (
        f"/api/v1/events/{parent.pk}/",
        f"/api/v1/events/{parent.pk}/results/",
        f"/api/v1/events/{parent.pk}/rankings/",
    ):
        assert client.get(url).status_code == 200, url

    home = client.get(f"/en/events/{parent.pk}/").content.decode()
    for name, (club, _tables, _status) in SECTIONS.items():
        assert f"<strong>{name}</strong>" in home and club in home
    ranking = client.get(f"/en/events/{parent.pk}/ranking/").content.decode()
    sheet = client.get(f"/en/events/{parent.pk}/deals/{public_deal}/").content.decode()
    assert SECTION_COLUMN in ranking and HIDDEN_SENTENCE not in sheet
    for name, section in sections.items():  # every section's players, every section's tables
        assert f'<a href="/en/events/{section.pk}/ranking/">{name}</a>' in ranking
        assert f">{name}</a>" in sheet
    for event in (parent, lyon):  # Lyon has played every deal, yet shows none still in play
        html = client.get(f"/en/events/{event.pk}/deals/{hidden_deal}/").content.decode()
        assert HIDDEN_SENTENCE in html
    assert f'href="/en/events/{parent.pk}/"' in client.get("/en/").content.decode()

    # The printout lists the simultaneous, its sections and the import; the file is written.
    base = "http://127.0.0.1:8000"
    assert f"{SIMULTANEOUS_NAME} — " in output
    assert f"{base}/events/{parent.pk}/\n" in output  # its public home
    assert f"{base}/events/{parent.pk}/ranking/" in output
    assert f"{base}/events/{parent.pk}/deals/{public_deal}/" in output
    assert f"{base}/events/{parent.pk}/deals/{hidden_deal}/" in output
    assert f"{base}/organiser/events/{parent.pk}/" in output
    assert f"{base}/organiser/events/{vienne.pk}/results/import/" in output
    for section in sections.values():
        assert f"{base}/events/{section.pk}/ranking/" in output
    assert re.search(rf"{base}/table/\w+/ +\(table \d, still playing\)", output)
    assert "and a simultaneous of 3 sections" in output
    csv_file = tmp_path / "duplitarot-demo" / "resultats-vienne.csv"
    assert str(csv_file) in output
    lines = csv_file.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("Table;Donne;Contrat;Bouts;Points;")
    assert len(lines) == 1 + IMPORTED

    # The printed account directs the simultaneous, hence every section: its organiser pages
    # answer, and importing the same file again on the import page changes nothing.
    # Through the login page (django-axes' backend needs the request that client.login lacks).
    login = client.post("/login/", {"username": DEMO_USERNAME, "password": PASSWORD})
    assert login.status_code == 302 and login["Location"] == "/organiser/"
    organiser = [f"/en/organiser/events/{parent.pk}/"]
    for section in sections.values():
        organiser += [
            f"/en/organiser/events/{section.pk}/",
            f"/en/organiser/events/{section.pk}/results/import/",
            f"/en/organiser/events/{section.pk}/entry/round/{ROUNDS}/",
        ]
    for url in organiser:
        assert client.get(url).status_code == 200, url
    version = Event.objects.get(pk=parent.pk).results_version
    with csv_file.open("rb") as upload:
        response = client.post(
            f"/en/organiser/events/{vienne.pk}/results/import/", {"file": upload}
        )
    assert response.status_code == 200
    assert f"{IMPORTED} lines identical to stored results." in response.content.decode()
    assert TableResult.objects.filter(event=vienne).count() == expected_results(3)
    assert Event.objects.get(pk=parent.pk).results_version == version


@pytest.mark.django_db
def test_demo_reset_removes_the_demo_simultaneous_and_nothing_else() -> None:
    """The league's simultaneous goes with its sections and their players; what else the
    sections' clubs hold stays (and so do the clubs then)."""
    league = ClubFactory(name=DEMO_LEAGUE_NAME)
    vienne = ClubFactory(name="Tarot Club de Vienne")
    villeurbanne = ClubFactory(name="Tarot Club de Villeurbanne")
    parent = services.simultaneous_create(
        club=league, name=SIMULTANEOUS_NAME, date=EVENT_DATE, format=Event.Format.INDIVIDUAL,
        deals_per_round=1, rounds=3, public=True, seed=3,
    )  # fmt: skip
    for club in (vienne, villeurbanne):
        section = services.section_create(simultaneous=parent, club=club, name=club.name)
        for _ in range(12):
            services.entrant_register(event=section, player=PlayerFactory(club=club))
        services.event_movement_set(event=section, tables=3, rounds=3)
        section = services.event_start(event=Event.objects.get(pk=section.pk))
        enter_round(section, 1, random.Random(1))
    other = running_event(tables=5, deals_per_round=1, club=vienne)  # Vienne's own event
    enter_round(other, 1, random.Random(2))
    assert Player.objects.count() == 44

    demo_reset()

    assert not Event.objects.filter(pk=parent.pk).exists()
    assert not Event.objects.filter(simultaneous_id=parent.pk).exists()
    assert not Club.objects.filter(name__in=(DEMO_LEAGUE_NAME, villeurbanne.name)).exists()
    assert Club.objects.filter(pk=vienne.pk).exists()
    assert TableResult.objects.filter(event=other).count() == 5
    assert Player.objects.count() == 20
    assert Player.objects.filter(entries__event=other).count() == 20

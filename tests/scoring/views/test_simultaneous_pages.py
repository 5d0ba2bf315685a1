"""Public pages of a simultaneous and of its sections, and the publication rule across them.

A simultaneous of 5 rounds of one deal (deal k = deal set k) set up through the services, with
three sections of different sizes and movements: Nord (3 tables), Est (4 tables), Sud
(5 tables, a line movement). Nord is finished; Sud has entered everything and is still
running; Est has entered everything but one table's deal of round 5 (:data:`OPEN_DEAL`). That
deal must show no outcome anywhere (the simultaneous's pages and every section's: Nord has
finished it, Sud has played it everywhere), while the others are public. A section added
later (not started) then hides every deal.
"""

from __future__ import annotations

import csv
import io
import random
import re
from typing import Any

import pytest
from django.test import Client

from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from scoring.services import standings_recompute
from tests.builders import EVENT_DATE, random_outcome
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tournaments import services
from tournaments.models import Entrant, Event, Table, TableResult
from tournaments.publication import deal_summaries, deals_hidden_from

pytestmark = pytest.mark.django_db

ROUNDS = 5
SECTIONS = {"Section Nord": 3, "Section Est": 4, "Section Sud": 5}
HIDDEN_SENTENCE = "The results of this deal are published once every table has played it."
PROVISIONAL = '<span class="badge provisional"'
SECTION_COLUMN = '<th class="col-section">Section</th>'


class Simultaneous:
    """The simultaneous, its sections by name, and the deal Est has still to play."""

    def __init__(self, parent: Event, sections: dict[str, Event], open_deal: int) -> None:
        self.parent = parent
        self.sections = sections
        self.open_deal = open_deal

    def refresh(self) -> None:
        self.parent = Event.objects.get(pk=self.parent.pk)
        self.sections = {name: Event.objects.get(pk=s.pk) for name, s in self.sections.items()}

    @property
    def all_events(self) -> list[Event]:
        return [self.parent, *self.sections.values()]


def add_section(parent: Event, name: str, tables: int, *, start: bool = True) -> Event:
    section = services.section_create(
        simultaneous=parent, club=ClubFactory(name=f"Club {name}"), name=name
    )
    for _ in range(4 * tables):
        services.entrant_register(event=section, player=PlayerFactory())
    services.event_movement_set(event=section, tables=tables, rounds=ROUNDS)
    section = Event.objects.get(pk=section.pk)
    if start:
        section = services.event_start(event=section)
    return Event.objects.get(pk=section.pk)


def enter(section: Event, rng: random.Random, *, skip: tuple[int, int] | None = None) -> None:
    """Every deal of every playing table, but the (table, round) ``skip``."""
    tables = {table.number: table for table in Table.objects.filter(event=section)}
    for play in section.schedule.playing():
        if skip == (play.table, play.round):
            continue
        for deal in section.deals.filter(deal_set=play.deal_set):
            services.table_result_enter(
                table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal)
            )


def build() -> Simultaneous:
    parent = services.simultaneous_create(
        club=ClubFactory(name="Fédération"), name="Simultané de printemps", date=EVENT_DATE,
        format=Event.Format.INDIVIDUAL, deals_per_round=1, rounds=ROUNDS, public=True, seed=11,
    )  # fmt: skip
    sections = {name: add_section(parent, name, tables) for name, tables in SECTIONS.items()}
    rng = random.Random(5)
    enter(sections["Section Nord"], rng)
    services.event_finish(event=sections["Section Nord"])
    enter(sections["Section Sud"], rng)
    est = sections["Section Est"]
    play = est.schedule.play(table=1, round=ROUNDS)
    assert play is not None and not play.sits_out
    enter(est, rng, skip=(1, ROUNDS))
    standings_recompute(event_id=parent.pk)
    simultaneous = Simultaneous(parent, sections, open_deal=play.deal_set)  # one deal a set
    simultaneous.refresh()
    return simultaneous


@pytest.fixture
def sim() -> Simultaneous:
    return build()


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.content.decode()


def section_of(entrant_id: int | None) -> int:
    return Entrant.objects.values_list("event_id", flat=True).get(pk=entrant_id)


# --- home -------------------------------------------------------------------------------------


def test_the_home_lists_every_section_with_its_progress(client: Client, sim: Simultaneous) -> None:
    html = page(client, f"/en/events/{sim.parent.pk}/")
    snapshot = StandingsSnapshot.objects.get(event=sim.parent)
    stored = {row["event"]: row for row in snapshot.data["sections"]}
    for name, section in sim.sections.items():
        assert f'href="/en/events/{section.pk}/"' in html
        assert f"<strong>{name}</strong>" in html
        assert f"Club {name}" in html
        row = stored[section.pk]
        assert f"{row['entered']} / {row['expected']} results entered" in html
        assert f'href="/en/events/{section.pk}/ranking/"' in html
    est = stored[sim.sections["Section Est"].pk]
    assert est["entered"] == est["expected"] - 1
    assert "finished</span>" in html and "in play</span>" in html
    assert f'href="/en/events/{sim.parent.pk}/ranking/"' in html
    assert PROVISIONAL in html  # Est and Sud are still running
    assert "3 sections" in html and "12 tables" in html and "48 players" in html
    assert "The overall ranking stays provisional until every section has finished." in html


def test_a_public_simultaneous_lists_once_on_the_home_page(
    client: Client, sim: Simultaneous
) -> None:
    html = page(client, "/en/")
    assert f'href="/en/events/{sim.parent.pk}/"' in html
    for section in sim.sections.values():
        assert f'href="/en/events/{section.pk}/"' not in html


def test_the_ranking_is_final_once_every_section_has_finished(
    client: Client, sim: Simultaneous
) -> None:
    est = sim.sections["Section Est"]
    table = Table.objects.get(event=est, number=1)
    deal = est.deals.get(number=sim.open_deal)
    services.table_result_enter(
        table=table, deal=deal, outcome=random_outcome(random.Random(2), deal)
    )
    for name in ("Section Est", "Section Sud"):
        services.event_finish(event=Event.objects.get(pk=sim.sections[name].pk))
    standings_recompute(event_id=sim.parent.pk)
    sim.refresh()
    assert sim.parent.status == Event.Status.FINISHED
    for event in sim.all_events:
        assert '<span class="badge final">Final</span>' in page(
            client, f"/en/events/{event.pk}/ranking/"
        )
    assert PROVISIONAL not in page(client, f"/en/events/{sim.parent.pk}/ranking/")


# --- rankings ---------------------------------------------------------------------------------


def test_the_overall_ranking_names_each_player_section(client: Client, sim: Simultaneous) -> None:
    html = page(client, f"/en/events/{sim.parent.pk}/ranking/")
    assert SECTION_COLUMN in html
    assert PROVISIONAL in html
    rows = re.findall(r"<tr>\s*<td class=\"num\">\d+</td>.*?</tr>", html, re.S)
    entries = RankingEntry.objects.filter(event=sim.parent, kind="individual", published=True)
    assert len(rows) == entries.count() == 48
    names = {section.pk: name for name, section in sim.sections.items()}
    for entry in entries.select_related("entrant"):
        section = section_of(entry.entrant_id)
        row = next(r for r in rows if f"/players/{entry.entrant_id}/" in r)
        # The player links to his score card on his section's pages, his section to its ranking.
        assert f'href="/en/events/{section}/players/{entry.entrant_id}/"' in row
        assert f'<a href="/en/events/{section}/ranking/">{names[section]}</a>' in row
        assert f"{entry.percentage}" in row


def test_a_section_ranking_says_it_is_computed_over_the_simultaneous(
    client: Client, sim: Simultaneous
) -> None:
    section = sim.sections["Section Est"]
    html = page(client, f"/en/events/{section.pk}/ranking/")
    assert "computed over the whole simultaneous Simultané de printemps" in html
    assert f'href="/en/events/{sim.parent.pk}/ranking/"' in html
    assert SECTION_COLUMN not in html
    rows = RankingEntry.objects.filter(event=section, kind="individual", published=True)
    assert rows.count() == 16
    for row in rows:
        assert f'href="/en/events/{section.pk}/players/{row.entrant_id}/"' in html
    # The percentages are the overall ones.
    overall = dict(
        RankingEntry.objects.filter(
            event=sim.parent, kind="individual", published=True
        ).values_list("entrant_id", "percentage")
    )
    assert all(row.percentage == overall[row.entrant_id] for row in rows)
    # Projector and htmx fragment of the overall ranking carry the section too.
    fragment = client.get(
        f"/en/events/{sim.parent.pk}/ranking/", headers={"HX-Request": "true"}
    ).content.decode()
    assert SECTION_COLUMN in fragment and "<html" not in fragment
    assert "Section Sud" in page(client, f"/en/events/{sim.parent.pk}/ranking/projector/")


def test_a_finished_section_waits_for_the_others(client: Client, sim: Simultaneous) -> None:
    nord = sim.sections["Section Nord"]
    for url in (f"/en/events/{nord.pk}/", f"/en/events/{nord.pk}/ranking/"):
        html = page(client, url)
        assert PROVISIONAL in html
        assert "the other sections of the simultaneous have not finished yet" in html
    est = page(client, f"/en/events/{sim.sections['Section Est'].pk}/")
    assert "the other sections of the simultaneous" not in est


# --- deals ------------------------------------------------------------------------------------


def test_the_deal_sheet_holds_every_section_results(client: Client, sim: Simultaneous) -> None:
    number = 1 if sim.open_deal != 1 else 2
    html = page(client, f"/en/events/{sim.parent.pk}/deals/{number}/")
    assert HIDDEN_SENTENCE not in html
    results = TableResult.objects.filter(
        event__simultaneous=sim.parent, deal__number=number
    ).select_related("event", "table")
    scheduled = sum(
        s.schedule.tables_per_deal_set()[s.deals.get(number=number).deal_set]
        for s in sim.sections.values()
    )
    assert results.count() == scheduled == 12  # every table of every section plays it
    assert "12 of 12 tables have a result" in html
    assert "<th>Section</th>" in html
    for result in results:
        label = (
            f'<td><a href="/en/events/{result.event_id}/deals/{number}/">{result.event.name}</a>'
            f'</td><td class="num">{result.table.number}</td>'
        )
        assert label in html
    # Percentages from the hand scores of every section's copies.
    scores = HandScore.objects.filter(event__simultaneous=sim.parent, deal__number=number)
    assert scores.count() == 48
    for score in scores:
        assert f"{score.percentage} %" in html
    # The frequencies count the tables of every section.
    frequencies = html[html.index("<h2>Frequencies</h2>") :]
    counts = re.findall(r'<td class="num">(\d+)</td><td class="num">[\d.]*</td></tr>', frequencies)
    assert sum(int(count) for count in counts) == 12


def test_a_section_deal_sheet_links_to_the_whole_simultaneous(
    client: Client, sim: Simultaneous
) -> None:
    nord = sim.sections["Section Nord"]
    html = page(client, f"/en/events/{nord.pk}/deals/2/")
    assert f'href="/en/events/{sim.parent.pk}/deals/2/"' in html
    assert "<th>Section</th>" not in html
    assert "3 of 3 tables have a result" in html  # its own tables


def test_the_deal_lists(client: Client, sim: Simultaneous) -> None:
    html = page(client, f"/en/events/{sim.parent.pk}/deals/")
    for number in range(1, ROUNDS + 1):
        assert f'href="/en/events/{sim.parent.pk}/deals/{number}/"' in html
    assert html.count("played everywhere") == ROUNDS - 1
    assert "11 / 12" in html and "1 section still to play" in html
    est = page(client, f"/en/events/{sim.sections['Section Est'].pk}/deals/")
    assert "3 / 4" in est and "11 / 12" in est and "This section" in est


def test_unknown_deals_and_players_are_404(client: Client, sim: Simultaneous) -> None:
    for event in sim.all_events:
        page(client, f"/en/events/{event.pk}/deals/{ROUNDS + 1}/", 404)
    other = Entrant.objects.exclude(event__simultaneous=sim.parent).first()
    page(client, f"/en/events/{sim.parent.pk}/players/999999/", 404)
    if other is not None:
        page(client, f"/en/events/{sim.parent.pk}/players/{other.pk}/", 404)


# --- players ----------------------------------------------------------------------------------


def test_the_player_search_spans_every_section(client: Client, sim: Simultaneous) -> None:
    sud = Entrant.objects.filter(event=sim.sections["Section Sud"]).select_related("player")
    target = sud.first()
    assert target is not None and target.player is not None
    # By licence: for the simultaneous's organisers only (a visitor finds nobody by it).
    response = client.get(f"/en/events/{sim.parent.pk}/players/", {"q": target.player.licence})
    assert response.status_code == 200
    assert "No player matches" in response.content.decode()
    director = Client()
    director.force_login(OrganiserFactory(clubs=[sim.parent.club]))
    response = director.get(f"/en/events/{sim.parent.pk}/players/", {"q": target.player.licence})
    assert response.status_code == 302
    assert response["Location"] == f"/en/events/{target.event_id}/players/{target.pk}/"
    # Every player's first name starts with "Prénom": the search lists all 48, with sections.
    html = page(client, f"/en/events/{sim.parent.pk}/players/?q=pr%C3%A9nom")
    links = re.findall(r'href="/en/events/(\d+)/players/(\d+)/"', html)
    assert len(links) == 48
    for event_id, entrant_id in links:
        assert section_of(int(entrant_id)) == int(event_id)
    assert {int(e) for e, _ in links} == {s.pk for s in sim.sections.values()}
    for name in SECTIONS:
        assert f"· {name}</span>" in html
    # The simultaneous's score card URL leads to the section's.
    response = client.get(f"/en/events/{sim.parent.pk}/players/{target.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/en/events/{target.event_id}/players/{target.pk}/"
    # Without a query, no list of thousands: an invitation to search.
    assert "search covers the players of every section" in page(
        client, f"/en/events/{sim.parent.pk}/players/"
    )


def test_a_section_score_card_shows_the_overall_rank(client: Client, sim: Simultaneous) -> None:
    # The public page reads the published ranking (some deal is withheld: the complete one
    # exists too, as unpublished rows).
    entry = RankingEntry.objects.filter(
        event=sim.parent, kind="individual", published=True
    ).order_by("rank")[0]
    section = section_of(entry.entrant_id)
    html = page(client, f"/en/events/{section}/players/{entry.entrant_id}/")
    assert "Overall rank" in html and "Rank in the section" in html
    assert f'{entry.rank}<small class="muted"> / 48</small>' in html


# --- publication rule -------------------------------------------------------------------------


def open_deal_outcomes(sim: Simultaneous) -> tuple[list[TableResult], list[HandScore]]:
    results = list(
        TableResult.objects.filter(event__simultaneous=sim.parent, deal__number=sim.open_deal)
    )
    scores = list(
        HandScore.objects.filter(event__simultaneous=sim.parent, deal__number=sim.open_deal)
    )
    assert len(results) == 11 and len(scores) == 44
    return results, scores


def assert_no_outcome(html: str, results: list[TableResult], scores: list[HandScore]) -> None:
    assert HIDDEN_SENTENCE in html
    assert "Frequencies" not in html and '<span class="num">' not in html
    for result in results:
        assert f'<td class="num">{result.value}</td>' not in html
    for score in scores:
        assert f"{score.percentage} %" not in html


def test_a_deal_still_played_in_one_section_is_hidden_everywhere(
    client: Client, sim: Simultaneous
) -> None:
    results, scores = open_deal_outcomes(sim)
    for event in sim.all_events:
        assert deals_hidden_from(event, directs=False) == {sim.open_deal}, event.name
        html = page(client, f"/en/events/{event.pk}/deals/{sim.open_deal}/")
        assert_no_outcome(html, results, scores)
        assert "The hands will be shown once" in html
    # Nord finished the deal long ago; Sud played it at every table: neither sees it.
    nord = sim.sections["Section Nord"]
    html = page(client, f"/en/events/{nord.pk}/deals/{sim.open_deal}/")
    assert "3 of 3 tables have a result" in html and "1 section still to play" in html
    # Nor do their score cards, nor the results export.
    for name in ("Section Nord", "Section Sud"):
        section = sim.sections[name]
        score = next(s for s in scores if s.event_id == section.pk and s.mark is not None)
        card = page(client, f"/en/events/{section.pk}/players/{score.entrant_id}/")
        link = f'href="/en/events/{section.pk}/deals/{sim.open_deal}/"'
        line = card[card.index(link) : card.index("</tr>", card.index(link))]
        assert "in play" in line and f"{score.percentage}" not in line
        export = client.get(f"/en/events/{section.pk}/export/results.csv").content.decode()
        rows = list(csv.DictReader(io.StringIO(export.removeprefix("\ufeff"))))
        assert rows and all(row["Deal"] != str(sim.open_deal) for row in rows)
    # The other deals are public everywhere.
    other = 1 if sim.open_deal != 1 else 2
    for event in sim.all_events:
        assert HIDDEN_SENTENCE not in page(client, f"/en/events/{event.pk}/deals/{other}/")


def test_organisers_see_what_they_direct(client: Client, sim: Simultaneous) -> None:
    results, scores = open_deal_outcomes(sim)
    nord = sim.sections["Section Nord"]
    director = Client()
    director.force_login(OrganiserFactory(clubs=[sim.parent.club]))  # directs every section
    for event in sim.all_events:
        html = page(director, f"/en/events/{event.pk}/deals/{sim.open_deal}/")
        assert HIDDEN_SENTENCE not in html
    local = Client()
    local.force_login(OrganiserFactory(clubs=[nord.club]))  # directs Nord only
    assert HIDDEN_SENTENCE not in page(local, f"/en/events/{nord.pk}/deals/{sim.open_deal}/")
    html = page(local, f"/en/events/{sim.parent.pk}/deals/{sim.open_deal}/")
    assert_no_outcome(html, results, scores)  # Nord's director does not see Est's or Sud's


def test_a_section_not_started_yet_counts_as_still_to_play(
    client: Client, sim: Simultaneous
) -> None:
    est = sim.sections["Section Est"]
    services.table_result_enter(
        table=Table.objects.get(event=est, number=1),
        deal=(deal := est.deals.get(number=sim.open_deal)),
        outcome=random_outcome(random.Random(3), deal),
    )
    standings_recompute(event_id=sim.parent.pk)
    sim.refresh()
    assert all(not deals_hidden_from(e, directs=False) for e in sim.all_events)
    late = add_section(sim.parent, "Section Ouest", 3, start=False)  # joins, not started
    every = set(range(1, ROUNDS + 1))
    for event in [*sim.all_events, late]:
        event = Event.objects.get(pk=event.pk)
        assert deals_hidden_from(event, directs=False) == every, event.name
        if event != late:
            assert HIDDEN_SENTENCE in page(client, f"/en/events/{event.pk}/deals/1/")
    summaries = deal_summaries(Event.objects.get(pk=sim.parent.pk))
    assert all(summary.sections_to_play == 1 for summary in summaries)
    home = page(client, f"/en/events/{sim.parent.pk}/")
    assert "Section Ouest" in home and "not started</span>" in home
    # Once it has played everything, the deals are public again.
    late = services.event_start(event=late)
    enter(late, random.Random(4))
    for event in [*sim.all_events, late]:
        assert not deals_hidden_from(Event.objects.get(pk=event.pk), directs=False)


# --- queries ----------------------------------------------------------------------------------


def test_pages_use_a_bounded_number_of_queries(
    client: Client, sim: Simultaneous, django_assert_max_num_queries: Any
) -> None:
    entrant = Entrant.objects.filter(event=sim.sections["Section Sud"]).first()
    assert entrant is not None
    pages = [
        "events/{id}/",
        "events/{id}/ranking/",
        "events/{id}/ranking/projector/",
        "events/{id}/deals/",
        "events/{id}/deals/1/",
        f"events/{{id}}/deals/{sim.open_deal}/",
        "events/{id}/players/?q=nom",
        "events/{id}/movement/",
    ]
    for event in sim.all_events:
        for path in pages:
            url = "/en/" + path.format(id=event.pk)
            with django_assert_max_num_queries(12):
                assert client.get(url).status_code == 200, url
    with django_assert_max_num_queries(12):
        url = f"/en/events/{entrant.event_id}/players/{entrant.pk}/"
        assert client.get(url).status_code == 200


# --- API --------------------------------------------------------------------------------------


def test_the_api_spans_the_sections(client: Client, sim: Simultaneous) -> None:
    number = 1 if sim.open_deal != 1 else 2
    rows = client.get(f"/api/v1/events/{sim.parent.pk}/deals/{number}/hand-scores/").json()
    assert len(rows) == 48
    assert {row["section"] for row in rows} == {s.pk for s in sim.sections.values()}
    for event in sim.all_events:
        url = f"/api/v1/events/{event.pk}/deals/{sim.open_deal}/hand-scores/"
        assert client.get(url).status_code == 404, event.name
    ranking = client.get(f"/api/v1/events/{sim.parent.pk}/rankings/").json()
    assert len(ranking["rows"]) == 48
    assert all(row["section"] == section_of(row["entrant"]) for row in ranking["rows"])


# --- triplettes -------------------------------------------------------------------------------


def test_a_triplette_simultaneous_ranks_its_teams_overall_and_per_section(client: Client) -> None:
    parent = services.simultaneous_create(
        club=ClubFactory(), name="Simultané triplettes", date=EVENT_DATE,
        format=Event.Format.TRIPLETTE, deals_per_round=1, rounds=4, public=True, seed=3,
    )  # fmt: skip
    rng = random.Random(9)
    sections: list[Event] = []
    for name, teams in (("Section Alpha", 4), ("Section Bêta", 5)):
        section = services.section_create(simultaneous=parent, club=ClubFactory(), name=name)
        entrants = [
            services.entrant_register(event=section, player=PlayerFactory())
            for _ in range(3 * teams)
        ]
        for index in range(teams):
            services.team_create(event=section, name=f"{name[8:]} {index + 1}",
                                 entrants=entrants[3 * index : 3 * index + 3])  # fmt: skip
        services.event_movement_set(event=section, seed=1)
        section = services.event_start(event=Event.objects.get(pk=section.pk))
        enter(Event.objects.get(pk=section.pk), rng)
        sections.append(section)
    standings_recompute(event_id=parent.pk)

    html = page(client, f"/en/events/{parent.pk}/teams/")
    assert "Overall team ranking" in html and SECTION_COLUMN in html
    entries = RankingEntry.objects.filter(event=parent, kind="team").select_related("team")
    assert entries.count() == 9
    for entry in entries:
        assert f"<strong>{entry.team.name}</strong>" in html
        for member in entry.team.members.all():
            assert f'href="/en/events/{entry.team.event_id}/players/{member.pk}/"' in html
        assert f'href="/en/events/{entry.team.event_id}/ranking/?view=team">' in html
    ranking = page(client, f"/en/events/{parent.pk}/ranking/")  # opens on the team tab
    assert "?view=team" in ranking and SECTION_COLUMN in ranking
    for section in sections:
        html = page(client, f"/en/events/{section.pk}/teams/")
        assert "computed over the whole simultaneous" in html
        assert f'href="/en/events/{parent.pk}/teams/"' in html
        own = RankingEntry.objects.filter(event=section, kind="team")
        assert own.count() == section.teams.count()
        assert min(e.rank for e in own) == 1


def test_the_simultaneous_exports_hold_every_section(client: Client, sim: Simultaneous) -> None:
    """The federation downloads one file: every section's results (but the deal still in
    play), and the overall ranking, each row naming its section."""
    export = client.get(f"/en/events/{sim.parent.pk}/export/results.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(export.removeprefix("\ufeff"))))
    stored = TableResult.objects.filter(event__simultaneous=sim.parent)
    expected = stored.exclude(deal__number=sim.open_deal).count()
    assert len(rows) == expected > 0
    assert {row["Section"] for row in rows} == set(sim.sections)
    assert all(row["Deal"] != str(sim.open_deal) for row in rows)
    ranking = client.get(f"/en/events/{sim.parent.pk}/export/ranking.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(ranking.removeprefix("\ufeff"))))
    individual = [row for row in lines if row["Ranking"] == "Individual"]
    assert (
        len(individual)
        == RankingEntry.objects.filter(event=sim.parent, kind="individual", published=True).count()
    )
    assert {row["Section"] for row in individual} <= set(sim.sections)


def test_the_api_lists_every_section_results(client: Client, sim: Simultaneous) -> None:
    response = client.get(f"/api/v1/events/{sim.parent.pk}/results/")
    assert response.status_code == 200
    body = response.json()
    rows = body["results"] if isinstance(body, dict) else body
    stored = TableResult.objects.filter(event__simultaneous=sim.parent)
    if isinstance(body, dict) and body.get("count") is not None:
        assert body["count"] == stored.exclude(deal__number=sim.open_deal).count()
    assert rows and {row["event"] for row in rows} <= {s.pk for s in sim.sections.values()}
    assert all(row["deal"] != sim.open_deal for row in rows)

"""A deal some table has still to play never leaks its outcomes, except to the organisers.

The event is a real 5-table line movement (one deal per round, deal set k = deal k): rounds 1-4
are entered everywhere and round 5 everywhere but at table 1, so deal 5 (table 1's deal in
round 5) has 4 of its 5 results while deals 1-4 are finished. The frequency sheet, the results
API, the hand scores API, the results export and the score cards must not show deal 5's
contracts, points, values, marks or percentages to the public; the organisers see them; once
table 1 enters deal 5 (or the event is finished), everybody does. Quadrette match sheets (page
and team ranking API) likewise leave out the per-deal net of an open deal.
"""

from __future__ import annotations

import csv
import io
import random
import re

import pytest
from django.test import Client

from scoring.models import HandScore, RankingEntry
from scoring.services import standings_recompute
from tests.builders import random_outcome, running_team_event, scored_event
from tests.factories import OrganiserFactory, UserFactory
from tournaments.models import Contract, Deal, Entrant, Event, Table, TableResult
from tournaments.publication import deals_hidden_from
from tournaments.services.results import table_result_enter, table_result_mark_not_played

pytestmark = pytest.mark.django_db

OPEN_DEAL = 5  # table 1 plays deal set (1 + 4) % 5 + 1 = 5 in round 5
LAST_TABLE = 1
HIDDEN_SENTENCE = "The results of this deal are published once every table has played it."


@pytest.fixture
def event() -> Event:
    event = scored_event(tables=5, deals_per_round=1, rounds_played=4, seed=3)
    rng = random.Random(8)
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    for play in event.schedule.round(5).tables:
        if play.table == LAST_TABLE:
            assert play.deal_set == OPEN_DEAL
            continue
        deal = Deal.objects.get(event=event, deal_set=play.deal_set)
        table_result_enter(table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal))
    standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    assert TableResult.objects.filter(event=event, deal__number=OPEN_DEAL).count() == 4
    return event


@pytest.fixture
def organiser(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def enter_last_table(event: Event) -> None:
    table = Table.objects.get(event=event, number=LAST_TABLE)
    deal = Deal.objects.get(event=event, number=OPEN_DEAL)
    table_result_enter(table=table, deal=deal, outcome=random_outcome(random.Random(1), deal))
    standings_recompute(event_id=event.pk)


def open_deal_scores(event: Event) -> list[HandScore]:
    scores = list(HandScore.objects.filter(event=event, deal__number=OPEN_DEAL))
    assert len(scores) == 16  # 4 tables x 4 seats
    return scores


def open_deal_results(event: Event) -> list[TableResult]:
    return list(TableResult.objects.filter(event=event, deal__number=OPEN_DEAL))


def assert_sheet_reveals(html: str, event: Event) -> None:
    for score in HandScore.objects.filter(event=event, deal__number=OPEN_DEAL):
        assert f"{score.percentage} %" in html
    for result in open_deal_results(event):
        assert f'<td class="num">{result.value}</td>' in html
    assert HIDDEN_SENTENCE not in html


def csv_rows(client: Client, event: Event) -> list[dict[str, str]]:
    response = client.get(f"/en/events/{event.pk}/export/results.csv")
    assert response.status_code == 200
    text = response.content.decode("utf-8").removeprefix("\ufeff")
    return list(csv.DictReader(io.StringIO(text)))


def card_line(html: str, event: Event, deal_number: int) -> str:
    """The score card's main row of one deal (up to the next row)."""
    link = f'href="/en/events/{event.pk}/deals/{deal_number}/"'
    start = html.index(link)
    return html[start : html.index("</tr>", start)]


def open_deal_player(event: Event) -> tuple[Entrant, HandScore]:
    """A player who played the open deal, with their hand score of it."""
    score = (
        HandScore.objects.filter(event=event, deal__number=OPEN_DEAL, result__kind="played")
        .select_related("entrant", "result")
        .order_by("table_number", "seat")
        .first()
    )
    assert score is not None and score.mark is not None
    return score.entrant, score


def test_the_publication_rule_tells_the_open_deal_apart(event: Event) -> None:
    assert deals_hidden_from(event, directs=False) == {OPEN_DEAL}
    assert deals_hidden_from(event, directs=True) == set()
    enter_last_table(event)
    assert deals_hidden_from(event, directs=False) == set()


def test_frequency_sheet_shows_who_entered_but_no_outcome(
    client: Client, organiser: Client, event: Event
) -> None:
    url = f"/en/events/{event.pk}/deals/{OPEN_DEAL}/"
    html = client.get(url).content.decode()
    assert "4 of 5 tables have a result" in html
    assert HIDDEN_SENTENCE in html
    for result in open_deal_results(event):
        assert f'<td class="num">{result.value}</td>' not in html
        assert str(result.seat_n) in html  # which tables entered (and who sat there) is public
    for score in open_deal_scores(event):
        assert f"{score.percentage} %" not in html
    assert '<span class="num">' not in html  # no seat mark
    assert "Frequencies" not in html
    for label in Contract.labels:
        assert f"<td>{label}</td>" not in html

    assert_sheet_reveals(organiser.get(url).content.decode(), event)
    stranger = Client()
    stranger.force_login(OrganiserFactory())  # organises another club only
    assert HIDDEN_SENTENCE in stranger.get(url).content.decode()

    enter_last_table(event)
    html = client.get(url).content.decode()
    assert "5 of 5 tables have a result" in html
    assert_sheet_reveals(html, event)


def test_finished_deals_stay_public(client: Client, event: Event) -> None:
    html = client.get(f"/en/events/{event.pk}/deals/2/").content.decode()
    assert HIDDEN_SENTENCE not in html
    for score in HandScore.objects.filter(event=event, deal__number=2):
        assert f"{score.percentage} %" in html


def test_results_api_leaves_the_open_deal_out(
    client: Client, organiser: Client, event: Event
) -> None:
    url = f"/api/v1/events/{event.pk}/results/"
    public = client.get(url).json()
    public_rows = public["results"] if isinstance(public, dict) else public
    assert len(public_rows) == 20
    assert OPEN_DEAL not in {row["deal"] for row in public_rows}
    directed = organiser.get(url).json()
    directed_rows = directed["results"] if isinstance(directed, dict) else directed
    assert len(directed_rows) == 24
    assert sum(1 for row in directed_rows if row["deal"] == OPEN_DEAL) == 4

    enter_last_table(event)
    public = client.get(url).json()
    public_rows = public["results"] if isinstance(public, dict) else public
    assert sum(1 for row in public_rows if row["deal"] == OPEN_DEAL) == 5


def test_hand_scores_api_is_404_until_every_table_played(
    client: Client, organiser: Client, event: Event
) -> None:
    url = f"/api/v1/events/{event.pk}/deals/{OPEN_DEAL}/hand-scores/"
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert "published once every table has played it" in response.json()["detail"]
    assert client.get(f"/api/v1/events/{event.pk}/deals/2/hand-scores/").status_code == 200

    directed = organiser.get(url)
    assert directed.status_code == 200
    assert {row["percentage"] for row in directed.json()} == {
        str(score.percentage) for score in open_deal_scores(event)
    }

    enter_last_table(event)
    response = client.get(url)
    assert response.status_code == 200
    assert len(response.json()) == 20


def test_results_export_leaves_the_open_deal_out(
    client: Client, organiser: Client, event: Event
) -> None:
    rows = csv_rows(client, event)
    assert len(rows) == 20
    assert str(OPEN_DEAL) not in {row["Deal"] for row in rows}
    directed = csv_rows(organiser, event)
    values = {int(row["Value"]) for row in directed if row["Deal"] == str(OPEN_DEAL)}
    assert values == {result.value for result in open_deal_results(event)}

    enter_last_table(event)
    assert sum(1 for row in csv_rows(client, event) if row["Deal"] == str(OPEN_DEAL)) == 5


def test_score_card_shows_the_open_deal_in_play(
    client: Client, organiser: Client, event: Event
) -> None:
    entrant, score = open_deal_player(event)
    url = f"/en/events/{event.pk}/players/{entrant.pk}/"
    html = client.get(url).content.decode()
    line = card_line(html, event, OPEN_DEAL)
    assert "in play" in line
    assert str(score.percentage) not in line
    assert f'<td class="num">{score.mark}</td>' not in line
    assert str(Contract(score.result.contract).label) not in line
    # The other deals are finished and shown; the totals are the live ranking row's.
    finished = HandScore.objects.filter(event=event, entrant=entrant).exclude(
        deal__number=OPEN_DEAL
    )
    for other in finished:
        assert str(other.percentage) in card_line(html, event, other.deal.number)
    entry = RankingEntry.objects.get(
        event=event, entrant=entrant, kind="individual", published=True
    )
    # The published row counts the finished deals only: the hidden line adds nothing up.
    assert entry.marks_total == sum(other.mark for other in finished)
    assert f'<strong class="big">{entry.marks_total}</strong>' in html
    assert f"{entry.percentage} %" in html

    directed = card_line(organiser.get(url).content.decode(), event, OPEN_DEAL)
    assert "in play" not in directed
    assert str(score.percentage) in directed

    enter_last_table(event)
    score = HandScore.objects.get(event=event, entrant=entrant, deal__number=OPEN_DEAL)
    line = card_line(client.get(url).content.decode(), event, OPEN_DEAL)
    assert "in play" not in line
    assert str(score.percentage) in line


def marks_by_entrant(scores) -> dict[int, int]:
    totals: dict[int, int] = {}
    for score in scores:
        totals[score.entrant_id] = totals.get(score.entrant_id, 0) + (score.mark or 0)
    return totals


def ranked_marks(rows) -> dict[int, int]:
    return {row["entrant"]: row["marks_total"] for row in rows}


def test_public_rankings_count_only_the_deals_finished_everywhere(
    client: Client, organiser: Client, event: Event
) -> None:
    every = HandScore.objects.filter(event=event)
    finished = marks_by_entrant(every.exclude(deal__number=OPEN_DEAL))
    complete = marks_by_entrant(every)
    assert finished != complete  # deal 5 moves the totals: publishing them would reveal it
    public = RankingEntry.objects.filter(event=event, kind="individual", published=True)
    assert {e.entrant_id: e.marks_total for e in public} == finished
    directed = RankingEntry.objects.filter(event=event, kind="individual", published=False)
    assert {e.entrant_id: e.marks_total for e in directed} == complete

    api = f"/api/v1/events/{event.pk}/rankings/"
    seen = client.get(api).json()
    assert (seen["status"]["deals_counted"], seen["status"]["deals_total"]) == (4, 5)
    assert ranked_marks(seen["rows"]) == finished
    assert ranked_marks(organiser.get(api).json()["rows"]) == complete
    line = client.get(f"{api}?kind=line").json()["rows"]
    assert ranked_marks(line) == finished

    page = client.get(f"/en/events/{event.pk}/ranking/").content.decode()
    assert "Ranking on 4 of the 5 deals" in page
    assert "Organiser&#x27;s view" not in page
    french = client.get(f"/events/{event.pk}/ranking/").content.decode()
    assert "Classement sur 4 des 5 donnes" in french
    directed_page = organiser.get(f"/en/events/{event.pk}/ranking/").content.decode()
    assert "The public ranking counts 4 of the 5 deals" in directed_page
    # The projector shows the room the public ranking, whoever drives it.
    projector = organiser.get(f"/en/events/{event.pk}/ranking/projector/").content.decode()
    assert "Ranking on 4 of the 5 deals" in projector

    export = client.get(f"/en/events/{event.pk}/export/ranking.csv").content.decode()
    exported = {
        row["Name"]: int(row["Marks"])
        for row in csv.DictReader(io.StringIO(export.removeprefix("\ufeff")))
        if not row["Line"]
    }
    names = {e.pk: str(e) for e in Entrant.objects.filter(event=event).select_related("player")}
    assert exported == {names[pk]: marks for pk, marks in finished.items()}

    enter_last_table(event)
    assert not RankingEntry.objects.filter(event=event, published=False).exists()
    every = HandScore.objects.filter(event=event)
    seen = client.get(api).json()
    assert (seen["status"]["deals_counted"], seen["status"]["deals_total"]) == (5, 5)
    assert ranked_marks(seen["rows"]) == marks_by_entrant(every)
    page = client.get(f"/en/events/{event.pk}/ranking/").content.decode()
    assert "Ranking on" not in page


def test_finishing_the_event_publishes_every_deal(client: Client, event: Event) -> None:
    from tournaments.services.events import event_finish

    before = event.results_version
    event = event_finish(event=event)  # table 1 never entered deal 5
    assert event.results_version == before + 1
    standings_recompute(event_id=event.pk)
    assert not RankingEntry.objects.filter(event=event, published=False).exists()
    seen = client.get(f"/api/v1/events/{event.pk}/rankings/").json()
    assert (seen["status"]["deals_counted"], seen["status"]["deals_total"]) == (5, 5)
    assert ranked_marks(seen["rows"]) == marks_by_entrant(HandScore.objects.filter(event=event))


def test_a_not_played_result_also_finishes_the_deal(client: Client, event: Event) -> None:
    director = OrganiserFactory(clubs=[event.club])
    table_result_mark_not_played(
        event=event,
        table=Table.objects.get(event=event, number=LAST_TABLE),
        deal=Deal.objects.get(event=event, number=OPEN_DEAL),
        actor=director,
        reason="players arrived late",
    )
    standings_recompute(event_id=event.pk)
    assert deals_hidden_from(event, directs=False) == set()
    html = client.get(f"/en/events/{event.pk}/deals/{OPEN_DEAL}/").content.decode()
    assert HIDDEN_SENTENCE not in html


def test_a_finished_event_shows_every_deal(client: Client, event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    assert deals_hidden_from(event, directs=False) == set()
    assert_sheet_reveals(client.get(f"/en/events/{event.pk}/deals/{OPEN_DEAL}/").content.decode(),
                         event)  # fmt: skip
    assert len(csv_rows(client, event)) == 24
    response = client.get(f"/api/v1/events/{event.pk}/deals/{OPEN_DEAL}/hand-scores/")
    assert response.status_code == 200


def test_a_plain_user_sees_what_the_public_sees(event: Event) -> None:
    user = Client()
    user.force_login(UserFactory())
    response = user.get(f"/api/v1/events/{event.pk}/deals/{OPEN_DEAL}/hand-scores/")
    assert response.status_code == 404
    assert len(csv_rows(user, event)) == 20


def match_sheet_nets(html: str, event: Event, deal_number: int) -> list[str]:
    """The net cell of ``deal_number`` in every match sheet of the page (a sheet's deals are
    its columns: their links head them, the net row follows)."""
    link = f'<a href="/en/events/{event.pk}/deals/{deal_number}/">{deal_number}</a>'
    nets: list[str] = []
    for card in html.split('class="card match"')[1:]:
        head, _, body = card.partition("</thead>")
        columns = re.split(r"<th[ >]", head)[2:]  # the first header cell names the rows
        if not any(link in column for column in columns):
            continue
        index = next(i for i, column in enumerate(columns) if link in column)
        net_row = body.split("</tr>", 1)[0]
        cells = [cell.split(">", 1)[1].split("</td>", 1)[0] for cell in net_row.split("<td")[1:]]
        nets.append(cells[index])
    return nets


def is_figure(net: str) -> bool:
    """A signed figure (``+40``, ``−40``, ``0``), not the dash of a deal in play."""
    return net.lstrip("+\u2212").isdigit()


def quadrette_with_open_deal() -> Event:
    """A running 4-team quadrette, every result entered but deal 1 at table 4 (round 1)."""
    event = running_team_event(format=Event.Format.QUADRETTE, teams=4, deals_per_round=1)
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    rng = random.Random(5)
    for play in event.schedule.plays():
        for deal in Deal.objects.filter(event=event, deal_set=play.deal_set):
            if (deal.number, play.table) == (1, 4):
                continue
            table_result_enter(
                table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal)
            )
    standings_recompute(event_id=event.pk)
    event.refresh_from_db()
    return event


def test_quadrette_match_sheets_hide_the_open_deal(client: Client) -> None:
    """Deal 1 is played by both round-1 matches; table 4 has not entered it yet."""
    event = quadrette_with_open_deal()
    assert TableResult.objects.filter(event=event, deal__number=1).count() == 3
    organiser = Client()
    organiser.force_login(OrganiserFactory(clubs=[event.club]))

    url = f"/en/events/{event.pk}/matches/"
    # The public sheets count the finished deals only: deal 1 is in play, or not listed yet.
    public = match_sheet_nets(client.get(url).content.decode(), event, 1)
    assert not any(is_figure(net) for net in public)
    directed = match_sheet_nets(organiser.get(url).content.decode(), event, 1)
    assert any(is_figure(net) for net in directed)  # tables 1-2 both entered it
    assert any(is_figure(net) for net in match_sheet_nets(
        client.get(url).content.decode(), event, 2))  # fmt: skip

    api = f"/api/v1/events/{event.pk}/rankings/?kind=team"
    public_deals = {d["deal"] for m in client.get(api).json()["matches"] for d in m["deals"]}
    assert public_deals == {2, 3}
    directed_deals = {d["deal"] for m in organiser.get(api).json()["matches"] for d in m["deals"]}
    assert directed_deals == {1, 2, 3}

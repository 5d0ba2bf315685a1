"""Public pages of an event: languages, visibility, live ranking, frequency sheets, score cards.

The event is a real one: a 5-table line movement, results entered through
``table_result_enter`` and standings written by ``standings_recompute``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client

from rules import deal as rules_deal
from scoring.models import HandScore, RankingEntry
from scoring.services import standings_recompute
from tests.builders import enter_round, scored_event
from tests.factories import EventFactory, OrganiserFactory
from tournaments.models import Deal, Entrant, Event
from tournaments.services.events import event_finish

pytestmark = pytest.mark.django_db

PAGES = [
    "events/{id}/",
    "events/{id}/ranking/",
    "events/{id}/ranking/?view=line",
    "events/{id}/ranking/projector/",
    "events/{id}/deals/",
    "events/{id}/deals/1/",
    "events/{id}/players/",
    "events/{id}/players/{entrant}/",
    "events/{id}/movement/",
]


def page_urls(event: Event, prefix: str = "/") -> list[str]:
    entrant = Entrant.objects.filter(event=event, phantom=False).first()
    assert entrant is not None
    return [prefix + page.format(id=event.pk, entrant=entrant.pk) for page in PAGES]


def give_cards(event: Event, seed: int = 11) -> None:
    deals = rules_deal.generate_deals(players=4, count=Deal.objects.filter(event=event).count(),
                                      seed=seed)  # fmt: skip
    for row, generated in zip(Deal.objects.filter(event=event).order_by("number"), deals,
                              strict=True):  # fmt: skip
        row.cards = rules_deal.deal_to_text(generated)
        row.save(update_fields=["cards"])


@pytest.fixture
def event() -> Event:
    """Four of five rounds played: the ranking is provisional."""
    return scored_event(tables=5, deals_per_round=1, rounds_played=4)


def test_home_lists_public_events_only(client: Client, event: Event) -> None:
    hidden = scored_event(tables=5, deals_per_round=1, rounds_played=0)
    Event.objects.filter(pk=hidden.pk).update(public=False, name="Secret event")
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'href="/events/{event.pk}/"' in html
    assert "Secret event" not in html
    assert 'href="/login/"' in html


@pytest.mark.parametrize(("prefix", "lang"), [("/", "fr"), ("/en/", "en")])
def test_every_page_renders_in_both_languages(
    client: Client, event: Event, prefix: str, lang: str
) -> None:
    for url in [prefix, *page_urls(event, prefix)]:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html, url
        # Links stay in the page's language.
        links = re.findall(r'(?:href|hx-get)="(/[^"]*events/\d+/[^"]*)"', html)
        assert links, url
        assert all(link.startswith(f"{prefix}events/") for link in links), (url, links)


def test_english_pages_use_english_labels(client: Client, event: Event) -> None:
    html = client.get(f"/en/events/{event.pk}/ranking/").content.decode()
    assert "Provisional" in html
    assert "Ranking" in html


def test_non_public_event_is_hidden_but_its_organisers_may_preview(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(public=False)
    anonymous = Client()
    urls = [
        *page_urls(event),
        f"/events/{event.pk}/export/ranking.csv",
        f"/events/{event.pk}/export/results.xlsx",
    ]
    for url in urls:
        assert anonymous.get(url).status_code == 404, url
    stranger = Client()
    stranger.force_login(OrganiserFactory())
    assert stranger.get(urls[0]).status_code == 404
    organiser = Client()
    organiser.force_login(OrganiserFactory(clubs=[event.club]))
    for url in urls:
        assert organiser.get(url).status_code == 200, url
    assert "not public yet" in organiser.get(f"/en/events/{event.pk}/").content.decode()


def test_unknown_event_and_deal_are_404(client: Client, event: Event) -> None:
    assert client.get("/events/999999/").status_code == 404
    assert client.get(f"/events/{event.pk}/deals/999/").status_code == 404
    assert client.get(f"/events/{event.pk}/teams/").status_code == 404  # individual event
    assert client.get(f"/events/{event.pk}/matches/").status_code == 404
    assert client.get(f"/events/{event.pk}/export/ranking.pdf").status_code == 404


def test_ranking_is_provisional_then_final_and_refreshes(client: Client, event: Event) -> None:
    url = f"/en/events/{event.pk}/ranking/"
    page = client.get(url).content.decode()
    assert 'hx-trigger="every 15s"' in page
    assert "badge provisional" in page
    assert "20 of 25 results entered" in page
    response = client.get(url, headers={"HX-Request": "true"})
    assert "HX-Request" in response["Vary"]
    fragment = response.content.decode()
    assert "<html" not in fragment
    assert "badge provisional" in fragment
    # Every deal of this movement is still to be played at one table: nothing is published.
    assert "Ranking on 0 of the 5 deals" in fragment
    assert not RankingEntry.objects.filter(event=event, published=True).exists()

    enter_round(event, 5, random.Random(3))
    # The snapshot is behind the results: still provisional, whatever the cache holds; the
    # counts are the snapshot's until the recompute.
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "badge provisional" in fragment
    assert "20 of 25 results entered · the ranking is being updated" in fragment
    standings_recompute(event_id=event.pk)
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "25 of 25 results entered" in fragment
    leaders = RankingEntry.objects.filter(event=event, kind="individual", rank=1)
    assert leaders and all(str(leader.entrant) in fragment for leader in leaders)
    assert "Ranking on" not in fragment
    assert "badge provisional" in fragment  # every result counted, the event still open
    assert "the event is not closed yet" in fragment
    event_finish(event=event)
    standings_recompute(event_id=event.pk)
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "badge final" in fragment
    assert "badge provisional" not in fragment


def test_per_line_ranking_lists_the_four_lines(client: Client, event: Event) -> None:
    client.force_login(OrganiserFactory(clubs=[event.club]))  # every deal is still in play
    html = client.get(f"/en/events/{event.pk}/ranking/?view=line").content.decode()
    for line in ("North", "East", "South", "West"):
        assert f"Line {line}" in html


def test_projector_mode_is_full_screen_and_scrolls(client: Client, event: Event) -> None:
    html = client.get(f"/events/{event.pk}/ranking/projector/").content.decode()
    assert 'class="projector"' in html
    assert "window.scrollBy" in html
    assert 'hx-trigger="every 15s"' in html


def test_frequency_sheet_hides_cards_until_the_deal_is_played_everywhere(
    client: Client, event: Event
) -> None:
    give_cards(event)
    deal = Deal.objects.get(event=event, number=1)
    url = f"/en/events/{event.pk}/deals/1/"
    html = client.get(url).content.decode()
    assert "4 of 5 tables have a result" in html
    assert 'data-place="chien"' not in html
    assert "will be shown once this deal has been played at every table" in html
    first_hand_line = deal.cards.splitlines()[1]
    assert first_hand_line not in html

    enter_round(event, 5, random.Random(5))
    standings_recompute(event_id=event.pk)
    html = client.get(url).content.decode()
    assert "5 of 5 tables have a result" in html
    for place in ("N", "E", "S", "W", "chien"):
        assert f'data-place="{place}"' in html


def test_frequency_sheet_shows_every_table_with_marks_and_percentages(
    client: Client, event: Event
) -> None:
    enter_round(event, 5, random.Random(5))  # deal 2 finished: its results are public
    standings_recompute(event_id=event.pk)
    html = client.get(f"/en/events/{event.pk}/deals/2/").content.decode()
    scores = HandScore.objects.filter(deal__event=event, deal__number=2)
    assert scores.count() == 20  # 5 tables x 4 seats
    for score in scores:
        assert f"{score.percentage} %" in html
        assert str(score.entrant) in html
    assert html.count('<td class="seat taker">') == 5


def test_player_search_and_score_card(client: Client, event: Event) -> None:
    enter_round(event, 5, random.Random(5))  # every deal finished: the card shows them all
    standings_recompute(event_id=event.pk)
    entrant = Entrant.objects.filter(event=event, phantom=False).select_related("player").first()
    assert entrant is not None and entrant.player is not None
    entrant.player.last_name = "Zéphyrin"
    entrant.player.save()
    url = f"/en/events/{event.pk}/players/"
    response = client.get(url, {"q": "zéphyrin"})
    assert response.status_code == 302
    assert response["Location"] == f"/en/events/{event.pk}/players/{entrant.pk}/"
    listing = client.get(url, {"q": "Prénom"}).content.decode()  # the factories' first names
    assert listing.count(f"/en/events/{event.pk}/players/") >= 2
    assert "No player matches" in client.get(url, {"q": "nobody-here"}).content.decode()

    card = client.get(response["Location"]).content.decode()
    scores = list(HandScore.objects.filter(event=event, entrant=entrant))
    assert scores
    total = sum(score.mark or 0 for score in scores)
    assert f'<th class="num">{total}</th>' in card
    for score in scores:
        assert f'href="/en/events/{event.pk}/deals/{score.deal.number}/"' in card
    assert ("against" in card) and ("taker" in card or "defence" in card)
    line_rank = RankingEntry.objects.get(event=event, kind="line", entrant=entrant).rank
    assert f"Rank in line {entrant.get_line_display()}" in card
    assert f'<strong class="big">{line_rank}</strong>' in card


def test_movement_page_shows_every_round_and_table(client: Client, event: Event) -> None:
    html = client.get(f"/en/events/{event.pk}/movement/").content.decode()
    for round_number in range(1, 6):
        assert f"Round {round_number}" in html
    assert html.count("<tr>") >= 25  # 5 rounds x 5 tables
    entrant = Entrant.objects.filter(event=event).first()
    assert str(entrant) in html


QUERY_BOUND_PAGES = [
    *PAGES,
    "events/{id}/export/ranking.csv",
    "events/{id}/export/results.xlsx",
]


def test_pages_use_a_bounded_number_of_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    """A 7-table event with 70 results stays under the bound: no query per row."""
    event = scored_event(tables=7, deals_per_round=2, rounds_played=5)
    entrant = Entrant.objects.filter(event=event).first()
    assert entrant is not None
    for page in QUERY_BOUND_PAGES:
        url = "/" + page.format(id=event.pk, entrant=entrant.pk)
        with django_assert_max_num_queries(12):
            assert client.get(url).status_code == 200, url


def test_a_public_event_not_yet_prepared_shows_empty_states(client: Client) -> None:
    event = EventFactory(public=True)  # a draft: no movement, no deals, no results
    for url in [f"/en/{page.format(id=event.pk)}" for page in PAGES if "{entrant}" not in page]:
        if "/deals/1/" in url:
            assert client.get(url).status_code == 404
            continue
        assert client.get(url).status_code == 200, url
    assert "No ranking yet" in client.get(f"/en/events/{event.pk}/ranking/").content.decode()
    assert (
        "movement has not been set yet"
        in client.get(f"/en/events/{event.pk}/movement/").content.decode()
    )
    assert "Coming soon" in client.get("/en/").content.decode()

"""The director's control room and the event's life cycle (``tournaments.views.control``).

The board per round (entered / missing / unconfirmed), its htmx fragment, the printable list
of missing results, closing and reopening a round (refused with the list unless confirmed),
finishing with results missing (a confirmation page listing them) and reopening a finished
event (kept in the history, a new results version each time).
"""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.builders import GARDE_46, enter_round, running_event
from tests.factories import OrganiserFactory
from tournaments import services
from tournaments.models import Deal, Event, Table, TableResult
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


@pytest.fixture
def event() -> Event:
    return running_event(tables=5, rounds=4, deals_per_round=2)


@pytest.fixture
def director(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def deals_at(event: Event, table_number: int, round_number: int) -> list[Deal]:
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    return list(event.deals.filter(deal_set=play.deal_set).order_by("number"))


def enter(event: Event, table_number: int, deals: list[Deal]) -> None:
    table = Table.objects.get(event=event, number=table_number)
    for deal in deals:
        services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)


def version(event: Event) -> int:
    return Event.objects.values_list("results_version", flat=True).get(pk=event.pk)


# ------------------------------------------------------------------------------- the board


def test_the_board_counts_entered_missing_and_unconfirmed_per_round_table_and_deal():
    event = running_event(tables=5, rounds=3, deals_per_round=2, opponent_confirmation=True)
    first, second = deals_at(event, 1, 1)
    enter(event, 1, [first])  # no director: awaits a defender's confirmation
    organiser = OrganiserFactory(clubs=[event.club])
    services.table_result_enter(
        table=Table.objects.get(event=event, number=1), deal=second, outcome=GARDE_46,
        actor=organiser, via="organiser",
    )  # fmt: skip
    board = event_services.results_board(event)
    assert [rnd.number for rnd in board] == [1, 2, 3]
    round_one = board[0]
    table_one = round_one.tables[0]
    assert [(d.deal.number, d.state) for d in table_one.deals] == [
        (first.number, "unconfirmed"),
        (second.number, "entered"),
    ]
    assert round_one.expected == 10 and round_one.entered == 1
    assert round_one.unconfirmed == 1 and round_one.missing == 8
    lines = event_services.gap_lines([round_one])
    assert len(lines) == 9
    assert any("table 1" in line and "confirmation" in line for line in lines)


def test_the_control_page_shows_every_table_and_refreshes_as_an_htmx_fragment(director, event):
    enter(event, 1, deals_at(event, 1, 1))
    page = director.get(url("organiser:control", event.pk))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'hx-trigger="every 10s"' in html and "<html" in html
    first, _second = deals_at(event, 1, 1)
    # Table 1 complete: each deal links to its correction; table 2's first deal to the grid.
    assert f'id="cell-t1-d{first.number}"' in html
    correction = url("organiser:entry_result", event.pk, 1, first.number)
    assert correction in html
    other = deals_at(event, 2, 1)[0]
    assert f"{url('organiser:entry_grid', event.pk, 1)}#t2-d{other.number}" in html
    assert 'id="control-t1" class="table-complete"' in html
    assert 'id="control-t2" class="table-incomplete"' in html
    fragment = director.get(url("organiser:control", event.pk) + "?round=1", HTTP_HX_REQUEST="1")
    assert fragment.status_code == 200
    assert "<html" not in fragment.content.decode()
    assert 'id="control-table"' in fragment.content.decode()
    assert "HX-Request" in fragment["Vary"]
    # The fragment follows what is entered: table 2 completes.
    enter(event, 2, deals_at(event, 2, 1))
    fragment = director.get(url("organiser:control", event.pk) + "?round=1", HTTP_HX_REQUEST="1")
    assert 'id="control-t2" class="table-complete"' in fragment.content.decode()


def test_the_control_room_is_the_directors_only(event):
    outsider = Client()
    outsider.force_login(OrganiserFactory())
    assert outsider.get(url("organiser:control", event.pk)).status_code == 404
    assert outsider.get(url("organiser:control_missing", event.pk)).status_code == 404
    assert outsider.post(url("organiser:round_close", event.pk, 1)).status_code == 404
    assert Event.objects.get(pk=event.pk).closed_rounds == []


def test_the_printable_list_names_each_missing_deal(director, event):
    rng = random.Random(3)
    enter_round(event, 1, rng)
    enter(event, 1, deals_at(event, 1, 2))
    page = director.get(url("organiser:control_missing", event.pk) + "?round=2")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="missing-row"') == 8  # tables 2-5 x 2 deals
    assert "css/control.css" in html
    complete = director.get(url("organiser:control_missing", event.pk) + "?round=1")
    assert 'id="nothing-missing"' in complete.content.decode()


# ------------------------------------------------------------------------------- rounds


def test_closing_a_round_with_results_missing_needs_the_confirmation(director, event):
    enter(event, 1, deals_at(event, 1, 1))
    refused = director.post(url("organiser:round_close", event.pk, 1))
    assert refused.status_code == 409
    html = refused.content.decode()
    assert html.count('class="missing-item"') == 8
    assert 'name="confirm"' in html
    assert Event.objects.get(pk=event.pk).closed_rounds == []
    closed = director.post(url("organiser:round_close", event.pk, 1), {"confirm": "1"})
    assert closed.status_code == 302
    assert Event.objects.get(pk=event.pk).closed_rounds == [1]
    history = director.get(url("organiser:history", event.pk)).content.decode()
    assert "Round 1 closed" in history and "8 results missing" in history
    reopened = director.post(url("organiser:round_reopen", event.pk, 1), {"reason": "late"})
    assert reopened.status_code == 302
    assert Event.objects.get(pk=event.pk).closed_rounds == []
    again = director.post(url("organiser:round_reopen", event.pk, 1))
    assert again.status_code == 409  # not closed
    assert "Round 1 reopened" in director.get(url("organiser:history", event.pk)).content.decode()


def test_a_complete_round_closes_at_once_and_an_unknown_round_is_refused(director, event):
    enter_round(event, 1, random.Random(5))
    assert director.post(url("organiser:round_close", event.pk, 1)).status_code == 302
    assert director.post(url("organiser:round_close", event.pk, 9)).status_code == 400
    assert Event.objects.get(pk=event.pk).closed_rounds == [1]


def test_closing_needs_a_running_event():
    event = running_event(tables=5, rounds=2, status=Event.Status.DRAFT)
    with pytest.raises(services.DomainError) as refused:
        event_services.round_close(event=event, round_number=1, confirm=True)
    assert refused.value.code == "event_not_running"


# ----------------------------------------------------------------------- finish, reopen


def test_finishing_with_results_missing_lists_them_and_needs_the_confirmation(director, event):
    enter_round(event, 1, random.Random(7))
    page = director.get(url("organiser:event_finish", event.pk))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="missing-results"' in html
    assert html.count('class="missing-item"') == 30  # rounds 2-4, 5 tables x 2 deals
    assert "Table 1, deal" in html
    before = version(event)
    refused = director.post(url("organiser:event_finish", event.pk))
    assert refused.status_code == 409
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    assert version(event) == before
    finished = director.post(url("organiser:event_finish", event.pk), {"confirm": "1"})
    assert finished.status_code == 302
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    assert version(event) == before + 1  # the standings republish what finishing made public
    history = director.get(url("organiser:history", event.pk)).content.decode()
    assert "Event finished" in history and "30 results missing" in history


def test_a_finished_event_is_reopened_with_a_reason_and_kept_in_the_history(director, event):
    enter(event, 1, deals_at(event, 1, 1))
    event_services.event_finish(event=event)
    page = director.get(url("organiser:event", event.pk)).content.decode()
    assert url("organiser:event_reopen", event.pk) in page
    before = version(event)
    without = director.post(url("organiser:event_reopen", event.pk), {"reason": " "})
    assert without.status_code == 409 and "reason is required" in without.content.decode()
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    reopened = director.post(url("organiser:event_reopen", event.pk), {"reason": "table 3 late"})
    assert reopened.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert version(event) == before + 1
    history = director.get(url("organiser:history", event.pk)).content.decode()
    assert "Event reopened" in history and "table 3 late" in history
    # The tables enter again.
    deal = deals_at(event, 2, 1)[0]
    code = Table.objects.get(event=event, number=2).code
    saved = Client().post(
        f"/en/table/{code}/deal/{deal.number}/",
        {f"d{deal.number}-contract": "garde", f"d{deal.number}-oudlers": "2",
         f"d{deal.number}-points": "46"},
    )  # fmt: skip
    assert saved.status_code == 302
    assert TableResult.objects.filter(deal=deal, table__number=2).exists()
    # Reopening a running event is refused.
    assert director.post(url("organiser:event_reopen", event.pk), {"reason": "x"}).status_code == (
        409
    )


def test_reopening_a_section_runs_its_finished_simultaneous_again():
    from tests.tournaments.test_sections import section, simultaneous

    parent = simultaneous()
    small, large = section(parent, 3), section(parent, 4)
    for child in (small, large):
        services.event_start(event=child)
        event_services.event_finish(event=Event.objects.get(pk=child.pk))
    parent.refresh_from_db()
    assert parent.status == Event.Status.FINISHED
    before = version(parent)
    organiser = OrganiserFactory(clubs=[small.club])
    event_services.event_reopen(
        event=Event.objects.get(pk=small.pk), actor=organiser, reason="a late result"
    )
    parent.refresh_from_db()
    assert parent.status == Event.Status.RUNNING
    assert Event.objects.get(pk=large.pk).status == Event.Status.FINISHED
    assert version(parent) == before + 1  # the simultaneous's standings republish
    with pytest.raises(services.DomainError) as refused:
        event_services.event_reopen(event=parent, reason="no")
    assert refused.value.code == "simultaneous_reopen"

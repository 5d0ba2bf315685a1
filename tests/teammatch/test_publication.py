"""The cups' publication rule in one place (``teammatch.publication``) and the reads that apply
it: a deal counts once entered in both rooms; directors see everything; figures are
provisional until the cup is finished; a room phone reads its own room's results only."""

from __future__ import annotations

import pytest
from django.test import Client

from teammatch import selectors, services
from teammatch.models import Cup, RoomResult
from teammatch.publication import match_publication, publication_of, room_may_read
from tests.factories import CupFactory, CupTeamFactory
from tests.teammatch.worlds import running_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    """Deal 1 entered in both rooms, deal 2 in the open room only, deal 3 (quarter 2) in
    neither."""
    running = running_match()
    running.enter("open", 1, "garde", 60)
    running.enter("closed", 1, "garde", 40)
    running.enter("open", 2, "garde_sans", 50)
    return running


def test_publication_of_withholds_the_deals_not_entered_in_both_rooms():
    cup = CupFactory()
    entered = {1: ["open", "closed"], 2: ["open"], 3: []}
    public = publication_of(cup, [1, 2, 3, 4], entered, directs=False)
    assert public.withheld == frozenset({2, 3, 4})
    assert public.shows(1) and not public.shows(2) and not public.shows(4)
    assert public.provisional and not public.everything


def test_publication_of_shows_everything_to_directors():
    director = publication_of(CupFactory(), [1, 2], {}, directs=True)
    assert director.everything and director.shows(1) and director.shows(2)


def test_match_publication_reads_the_stored_rows(running):
    public = match_publication(running.match, directs=False)
    assert public.withheld == frozenset(range(2, 9))
    assert public.shows(1) and not public.shows(2)
    assert match_publication(running.match, directs=True).withheld == frozenset()


def test_figures_are_provisional_until_the_cup_is_finished(running):
    assert match_publication(running.match, directs=False).provisional
    Cup.objects.filter(pk=running.cup.pk).update(status=Cup.Status.FINISHED)
    running.refresh()
    assert not match_publication(running.match, directs=False).provisional
    assert not selectors.match_sheet(running.match, directs=False).provisional


def test_a_room_reads_its_own_results_only(running):
    open_room, closed_room = running.rooms["open"], running.rooms["closed"]
    for result in RoomResult.objects.filter(match=running.match):
        assert room_may_read(open_room, result) == (result.room == "open")
        assert room_may_read(closed_room, result) == (result.room == "closed")
    elsewhere = running_match()
    stranger = elsewhere.rooms["open"]
    assert not any(room_may_read(stranger, r) for r in RoomResult.objects.filter(room="open"))


def test_the_public_sheet_counts_only_deals_entered_in_both_rooms(running):
    sheet = selectors.match_sheet(running.match, directs=False)
    first, second = sheet.quarters[0].deals
    assert first.complete and first.net_a is not None and first.pm_a is not None
    assert second.open is None and second.closed is None and second.net_a is None
    assert (sheet.counted, sheet.total) == (1, 8)
    assert sheet.pm_a == first.pm_a and sheet.net_a == first.net_a


def test_the_directors_sheet_shows_every_entered_result(running):
    sheet = selectors.match_sheet(running.match, directs=True)
    second = sheet.quarters[0].deals[1]
    assert second.open is not None and second.closed is None
    assert sheet.counted == 1  # a deal in one room has no net yet, even for the director


def test_the_room_page_reads_only_the_rooms_own_results(running):
    closed = selectors.room_page(running.rooms["closed"])
    assert set(closed.results) == {1} and closed.results[1].room == "closed"
    opened = selectors.room_page(running.rooms["open"])
    assert set(opened.results) == {1, 2}
    assert opened.writable and opened.entered == 2
    assert opened.may_correct(2) and not opened.may_correct(3)


def test_the_bracket_page_and_api_apply_the_publication(running):
    page = Client().get(f"/en/cups/{running.cup.pk}/")
    (round_,) = page.context["rounds"]
    (line,) = round_.matches
    assert round_.name == "Final" and line.sheet.counted == 1
    api = Client().get(f"/api/v1/cups/{running.cup.pk}/bracket/").json()
    (row,) = api["matches"]
    assert (row["deals_counted"], row["pm_a"]) == (1, line.sheet.pm_a)
    assert api["provisional"] is True
    organiser = Client()
    organiser.force_login(running.organiser)
    mine = organiser.get(f"/en/cups/{running.cup.pk}/").context["rounds"][0].matches[0]
    assert mine.sheet.quarters[0].deals[1].open is not None


def test_the_match_page_hides_a_deal_in_one_room_from_the_public(running):
    page = Client().get(f"/en/cups/{running.cup.pk}/matches/{running.match.pk}/")
    html = page.content.decode()
    assert "A deal is shown once it has been played in both rooms." in html
    assert page.context["sheet"].quarters[0].deals[1].open is None


def test_the_finished_cup_is_no_longer_provisional_in_the_api(running):
    Cup.objects.filter(pk=running.cup.pk).update(status=Cup.Status.FINISHED)
    assert Client().get(f"/api/v1/cups/{running.cup.pk}/bracket/").json()["provisional"] is False


def test_round_names_count_from_the_final():
    cup = CupFactory()
    for _ in range(5):
        CupTeamFactory(cup=cup)
    services.cup_start(cup=cup)
    rounds = selectors.bracket_rounds(cup, directs=False)
    assert [r.name for r in rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    first = rounds[0].matches
    byes = [line for line in first if line.match.bye]
    assert len(byes) == 3 and all(line.sheet is None and line.decided == "bye" for line in byes)
    assert selectors.match_round_name(first[0].match) == "Quarter-finals"


def test_missing_results_are_listed_by_deal_and_room(running):
    missing = selectors.match_missing_results(running.match, 1)
    assert missing == ["deal 2 in the closed room"]
    assert len(selectors.match_missing_results(running.match)) == 16 - 3

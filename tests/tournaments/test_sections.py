"""Simultaneous tournaments: the simultaneous and its sections, set up through the services.

A simultaneous of R = 5 rounds of 2 deals and three sections of different sizes (3 and 4
tables: Howell; 5 tables: line; all 5 rounds on deal sets 1..5), started and finished at
different times; the deals every section plays are copies of the simultaneous's; a section's
movement must have the simultaneous's rounds; who directs which section.
"""

from __future__ import annotations

import random

import pytest

from clubs.access import directed_by, user_directs, visible_to
from clubs.errors import DomainError
from clubs.models import Club
from tests.builders import EVENT_DATE, random_outcome
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Deal, Event, Table, TableResult
from tournaments.movements import dispatch

pytestmark = pytest.mark.django_db

ROUNDS, DPR = 5, 2


def deal_rows(event: Event) -> list[tuple[object, ...]]:
    return list(
        Deal.objects.filter(event=event)
        .order_by("number")
        .values_list("number", "deal_set", "dealer_seat", "taker_seat", "imposed_contract", "cards")
    )


def simultaneous(club: Club | None = None, **kwargs: object) -> Event:
    options: dict[str, object] = {
        "club": club or ClubFactory(),
        "name": "Simultané national",
        "date": EVENT_DATE,
        "format": Event.Format.INDIVIDUAL,
        "deals_per_round": DPR,
        "rounds": ROUNDS,
        "seed": 11,
        **kwargs,
    }
    return services.simultaneous_create(**options)  # type: ignore[arg-type]


def section(parent: Event, tables: int, *, club: Club | None = None, name: str = "") -> Event:
    """A draft section of ``tables`` full tables, its movement of ROUNDS rounds set."""
    event = services.section_create(
        simultaneous=parent, club=club or ClubFactory(), name=name or f"Section {tables} tables"
    )
    for _ in range(4 * tables):
        services.entrant_register(event=event, player=PlayerFactory())
    services.event_movement_set(event=event, tables=tables, rounds=ROUNDS)
    return Event.objects.get(pk=event.pk)


def status(event: Event) -> str:
    return Event.objects.values_list("status", flat=True).get(pk=event.pk)


def enter_all(event: Event, rng: random.Random) -> int:
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    stored = 0
    for play in event.schedule.playing():
        for deal in event.deals.filter(deal_set=play.deal_set):
            services.table_result_enter(
                table=tables[play.table], deal=deal, outcome=random_outcome(rng, deal)
            )
            stored += 1
    return stored


# --- the simultaneous ----------------------------------------------------------------------


def test_a_simultaneous_holds_its_rounds_of_deals_and_nothing_else() -> None:
    parent = simultaneous()
    assert parent.status == Event.Status.DRAFT and parent.movement is None
    assert Deal.objects.filter(event=parent).count() == ROUNDS * DPR
    assert services.simultaneous_rounds(parent) == ROUNDS
    assert services.is_simultaneous(parent)
    assert not Table.objects.filter(event=parent).exists()
    assert set(Deal.objects.filter(event=parent).values_list("deal_set", flat=True)) == set(
        range(1, ROUNDS + 1)
    )
    # An ordinary draft event is not a simultaneous.
    assert not services.is_simultaneous(EventFactory())


def test_a_triplette_simultaneous_names_the_team_taker_seat() -> None:
    parent = simultaneous(format=Event.Format.TRIPLETTE)
    assert set(Deal.objects.filter(event=parent).values_list("taker_seat", flat=True)) == {"N"}


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"format": Event.Format.QUADRETTE}, "simultaneous_quadrette"),
        ({"rounds": 0}, "rounds_out_of_range"),
        ({"rounds": 61}, "rounds_out_of_range"),
        ({"deals_per_round": 13}, "deals_per_round_out_of_range"),
        ({"name": "  "}, "name_required"),
    ],
)
def test_simultaneous_create_refuses_bad_input(changes: dict[str, object], code: str) -> None:
    with pytest.raises(DomainError) as caught:
        simultaneous(**changes)
    assert caught.value.code == code
    assert not Event.objects.exists()


def test_quadrette_refusal_says_why() -> None:
    with pytest.raises(DomainError, match="two tables of one room"):
        simultaneous(format=Event.Format.QUADRETTE)


def test_a_simultaneous_is_never_started_nor_finished_directly() -> None:
    parent = simultaneous()
    section(parent, 3)
    with pytest.raises(DomainError) as caught:
        services.event_start(event=parent)
    assert caught.value.code == "simultaneous_start"
    with pytest.raises(DomainError) as caught:
        services.event_finish(event=parent)
    assert caught.value.code == "simultaneous_finish"
    assert status(parent) == Event.Status.DRAFT


# --- sections and their deals --------------------------------------------------------------


def test_a_section_copies_the_simultaneous_and_its_deals() -> None:
    parent = simultaneous(public=True, opponent_confirmation=True)
    club = ClubFactory(name="Tarot Club de Brest")
    child = services.section_create(simultaneous=parent, club=club, name=" Brest ")
    assert child.name == "Brest" and child.club == club
    assert child.simultaneous == parent and child.is_section
    assert child.scoring_event_id == parent.pk
    assert (child.format, child.date, child.deals_per_round) == (
        parent.format, parent.date, parent.deals_per_round
    )  # fmt: skip
    assert child.public and child.opponent_confirmation and child.ranking == parent.ranking
    assert child.status == Event.Status.DRAFT and child.movement is None
    assert deal_rows(child) == deal_rows(parent) and len(deal_rows(child)) == ROUNDS * DPR
    assert all(row[5] for row in deal_rows(child))  # the cards are copied too
    assert not services.is_simultaneous(child)


def test_section_create_refusals() -> None:
    parent = simultaneous()
    services.section_create(simultaneous=parent, club=ClubFactory(), name="Lyon")
    with pytest.raises(DomainError) as caught:
        services.section_create(simultaneous=parent, club=ClubFactory(), name="lyon")
    assert caught.value.code == "section_name_taken"
    with pytest.raises(DomainError) as caught:
        services.section_create(simultaneous=parent, club=ClubFactory(), name="")
    assert caught.value.code == "name_required"
    child = Event.objects.get(simultaneous=parent)
    for not_a_simultaneous in (child, EventFactory()):
        with pytest.raises(DomainError) as caught:
            services.section_create(simultaneous=not_a_simultaneous, club=ClubFactory(), name="X")
        assert caught.value.code == "not_simultaneous"


def test_deals_generated_or_imported_on_the_simultaneous_are_copied_to_every_section() -> None:
    parent = simultaneous()
    children = [section(parent, tables) for tables in (3, 4)]
    before = deal_rows(parent)
    services.event_deals_generate(event=parent, seed=99, imposed_contract="garde_sans")
    after = deal_rows(parent)
    assert after != before and len(after) == ROUNDS * DPR
    assert {row[4] for row in after} == {"garde_sans"}
    for child in children:
        assert deal_rows(child) == after
    # A new number of rounds: the simultaneous and its sections follow.
    services.event_deals_generate(event=parent, seed=5, rounds=4)
    assert services.simultaneous_rounds(parent) == 4
    assert all(deal_rows(child) == deal_rows(parent) for child in children)
    # An import keeps the rounds (4 × 2 deals) unless told otherwise.
    from rules import deal as rules_deal

    texts = [
        rules_deal.deal_to_text(deal)
        for deal in rules_deal.generate_deals(players=4, count=10, seed=3)
    ]
    with pytest.raises(DomainError, match="needs 8"):
        services.event_deals_import(event=parent, text="\n\n".join(texts))
    services.event_deals_import(event=parent, text="\n\n".join(texts), rounds=5)
    assert services.simultaneous_rounds(parent) == 5
    assert [row[5] for row in deal_rows(parent)] == texts
    assert all(deal_rows(child) == deal_rows(parent) for child in children)


def test_a_section_never_generates_deals_of_its_own() -> None:
    parent = simultaneous()
    child = section(parent, 3)
    for call in (
        lambda: services.event_deals_generate(event=child, seed=1),
        lambda: services.event_deals_import(event=child, text=""),
    ):
        with pytest.raises(DomainError) as caught:
            call()
        assert caught.value.code == "section_deals"
    assert deal_rows(child) == deal_rows(parent)


def test_the_deals_are_frozen_once_a_section_has_started() -> None:
    parent = simultaneous()
    started, waiting = section(parent, 3), section(parent, 4)
    services.event_start(event=started)
    before = deal_rows(parent)
    with pytest.raises(DomainError) as caught:
        services.event_deals_generate(event=parent, seed=42)
    assert caught.value.code == "section_started"
    assert "being played" in caught.value.message
    assert deal_rows(parent) == before == deal_rows(waiting) == deal_rows(started)


def test_deals_per_round_are_fixed_for_a_simultaneous_and_its_sections() -> None:
    parent = simultaneous()
    child = section(parent, 3)
    for event in (parent, child):
        with pytest.raises(DomainError) as caught:
            services.event_update(
                event=event, name="Renamed", date=EVENT_DATE, deals_per_round=3, public=False
            )
        assert caught.value.code == "simultaneous_deals_per_round"
    services.event_update(
        event=child, name="Renamed", date=EVENT_DATE, deals_per_round=DPR, public=True
    )
    assert Event.objects.get(pk=child.pk).name == "Renamed"
    assert deal_rows(child) == deal_rows(parent)


# --- the movement of a section -------------------------------------------------------------


def movement_document(*, tables: int, rounds: int) -> dict[str, object]:
    return dispatch.generate("individual", 4 * tables, tables=tables, rounds=rounds, seed=0)


def test_a_section_movement_uses_only_the_simultaneous_deal_sets() -> None:
    parent = simultaneous()  # ROUNDS (5) deal sets
    child = services.section_create(simultaneous=parent, club=ClubFactory(), name="Lille")
    for _ in range(28):
        services.entrant_register(event=child, player=PlayerFactory())
    # Seven tables in a line movement need seven deal sets: refused, nothing changes.
    with pytest.raises(DomainError) as caught:
        services.event_movement_set(event=child, tables=7, rounds=4)
    assert caught.value.code == "movement_section"
    assert "holds 5 deal sets" in caught.value.message and "needs 7" in caught.value.message
    child = Event.objects.get(pk=child.pk)
    assert child.movement is None and not child.tables.exists()
    # A movement stored before the rule (or by hand) is refused at the start too.
    document = movement_document(tables=7, rounds=4)
    Event.objects.filter(pk=child.pk).update(movement=document)
    child = Event.objects.get(pk=child.pk)
    problem = services.section_movement_problem(child, child.schedule)
    assert problem is not None and "needs 7" in problem
    with pytest.raises(DomainError) as caught:
        services.event_start(event=child)
    assert caught.value.code == "event_not_ready"
    assert problem in caught.value.details
    assert status(child) == status(parent) == Event.Status.DRAFT
    # Five tables, four rounds: a line movement over the five sets, each table playing four.
    Event.objects.filter(pk=child.pk).update(movement=None)
    for entrant in child.entrants.filter(phantom=False)[:8]:
        services.entrant_withdraw(entrant=entrant)
    services.event_movement_set(event=child, tables=5, rounds=4)
    child = Event.objects.get(pk=child.pk)
    assert len(child.schedule.rounds) == 4 and child.schedule.deal_set_count == 5
    assert services.section_movement_problem(child, child.schedule) is None
    services.event_start(event=child)
    assert status(child) == Event.Status.RUNNING


def test_a_section_needs_the_simultaneous_deals_to_start() -> None:
    parent = simultaneous()
    child = section(parent, 3)
    Deal.objects.filter(event=child, number=1).update(cards="")
    with pytest.raises(DomainError) as caught:
        services.event_start(event=child)
    assert any("differ from the simultaneous" in line for line in caught.value.details)


# --- three sections: starts, finishes, the simultaneous's status ---------------------------


def test_three_sections_start_and_finish_at_different_times() -> None:
    parent = simultaneous()
    small, middle, large = section(parent, 3), section(parent, 4), section(parent, 5)
    assert [s.schedule.table_count for s in (small, middle, large)] == [3, 4, 5]
    for child in (small, middle, large):
        assert deal_rows(child) == deal_rows(parent)
        assert services.section_start_problems(child) == []
    rng = random.Random(4)

    services.event_start(event=middle)
    assert status(parent) == Event.Status.RUNNING  # the first start starts the simultaneous
    assert status(small) == status(large) == Event.Status.DRAFT
    version = Event.objects.get(pk=parent.pk).results_version
    stored = enter_all(Event.objects.get(pk=middle.pk), rng)
    assert stored == 4 * ROUNDS * DPR
    # Every result of a section bumps the simultaneous's version, not the section's.
    assert Event.objects.get(pk=parent.pk).results_version == version + stored
    assert Event.objects.get(pk=middle.pk).results_version == 0

    services.event_start(event=small)
    services.event_finish(event=middle)
    assert status(parent) == Event.Status.RUNNING  # two sections still play
    enter_all(Event.objects.get(pk=small.pk), rng)
    services.event_finish(event=small)
    assert status(parent) == Event.Status.RUNNING  # the large section has not even started

    services.event_start(event=large)
    assert status(parent) == Event.Status.RUNNING
    enter_all(Event.objects.get(pk=large.pk), rng)
    services.event_finish(event=large)
    assert status(parent) == Event.Status.FINISHED  # the last finish finishes it
    assert TableResult.objects.filter(event__simultaneous=parent).count() == (
        (3 + 4 + 5) * ROUNDS * DPR
    )
    with pytest.raises(DomainError) as caught:
        services.section_create(simultaneous=parent, club=ClubFactory(), name="Too late")
    assert caught.value.code == "simultaneous_finished"


def test_a_section_may_join_a_running_simultaneous() -> None:
    parent = simultaneous()
    first = section(parent, 3)
    services.event_start(event=first)
    late = section(parent, 4, name="Late")
    assert deal_rows(late) == deal_rows(parent)
    services.event_start(event=late)
    services.event_finish(event=first)
    assert status(parent) == Event.Status.RUNNING
    services.event_finish(event=late)
    assert status(parent) == Event.Status.FINISHED


def test_deleting_the_last_unstarted_section_finishes_the_simultaneous() -> None:
    parent = simultaneous()
    played, never = section(parent, 3), section(parent, 4)
    services.event_start(event=played)
    with pytest.raises(DomainError):
        services.section_delete(section=played)
    services.event_finish(event=played)
    assert status(parent) == Event.Status.RUNNING  # ``never`` is still a draft
    services.section_delete(section=never)
    assert not Event.objects.filter(pk=never.pk).exists()
    assert status(parent) == Event.Status.FINISHED
    with pytest.raises(DomainError) as caught:
        services.section_delete(section=parent)
    assert caught.value.code == "not_section"


# --- who directs what ----------------------------------------------------------------------


def test_the_simultaneous_directors_direct_every_section_a_section_club_only_its_own() -> None:
    national, brest, lille = ClubFactory(), ClubFactory(), ClubFactory()
    federation = OrganiserFactory(clubs=[national])
    brest_organiser = OrganiserFactory(clubs=[brest])
    lille_organiser = OrganiserFactory(clubs=[lille])
    parent = simultaneous(club=national)
    in_brest = services.section_create(simultaneous=parent, club=brest, name="Brest")
    in_lille = services.section_create(simultaneous=parent, club=lille, name="Lille")
    other = EventFactory(club=brest)

    assert set(directed_by(federation, Event)) == {parent, in_brest, in_lille}
    assert set(directed_by(brest_organiser, Event)) == {in_brest, other}
    assert set(directed_by(lille_organiser, Event)) == {in_lille}
    assert user_directs(federation, in_brest) and user_directs(federation, in_lille)
    assert user_directs(brest_organiser, in_brest)
    assert not user_directs(brest_organiser, in_lille)
    assert not user_directs(brest_organiser, parent)
    assert not user_directs(UserFactory(), in_brest)
    # Private events: each sees what he directs, nothing else.
    assert set(visible_to(lille_organiser, Event)) == {in_lille}
    assert set(visible_to(federation, Event)) == {parent, in_brest, in_lille}
    # No duplicate rows when a user organises both clubs.
    both = OrganiserFactory(clubs=[national, brest])
    directed = list(directed_by(both, Event))
    assert len(directed) == len(set(directed)) == 4


def test_a_result_entered_by_the_simultaneous_director_is_confirmed_at_once() -> None:
    national = ClubFactory()
    federation = OrganiserFactory(clubs=[national])
    parent = simultaneous(club=national, opponent_confirmation=True)
    child = section(parent, 3)
    services.event_start(event=child)
    child = Event.objects.get(pk=child.pk)
    play = child.schedule.play(table=1, round=1)
    assert play is not None
    deal = child.deals.filter(deal_set=play.deal_set).first()
    assert deal is not None
    result = services.table_result_enter(
        table=child.tables.get(number=1),
        deal=deal,
        outcome={"contract": "garde", "oudlers": 2, "points": 46},
        actor=federation,
        via="organiser",
    )
    assert result.confirmed


# --- organiser pages -----------------------------------------------------------------------


def url(name: str, *args: object) -> str:
    from django.urls import reverse
    from django.utils import translation

    with translation.override("en"):
        return reverse(name, args=args)


def logged_in(user: object):
    from django.test import Client

    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_the_simultaneous_page_lists_its_sections_with_their_progress() -> None:
    national = ClubFactory(name="Fédération")
    client = logged_in(OrganiserFactory(clubs=[national]))
    parent = simultaneous(club=national)
    running = section(parent, 3, name="Brest", club=ClubFactory(name="Tarot Brest"))
    section(parent, 4, name="Lille")
    services.event_start(event=running)
    enter_all(Event.objects.get(pk=running.pk), random.Random(1))
    page = client.get(url("organiser:event", parent.pk))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Brest" in text and "Tarot Brest" in text and "Lille" in text
    assert f"{3 * ROUNDS * DPR}/{3 * ROUNDS * DPR}" in text  # results entered / expected
    assert f"0/{4 * ROUNDS * DPR}" in text
    assert url("organiser:results_import", running.pk) in text
    # A section's page is the usual dashboard, with its simultaneous.
    page = client.get(url("organiser:event", running.pk))
    assert page.status_code == 200 and "Section of the simultaneous" in page.content.decode()


def test_creating_a_simultaneous_and_adding_a_section_through_the_pages() -> None:
    club = ClubFactory(name="Comité")
    client = logged_in(OrganiserFactory(clubs=[club]))
    response = client.post(
        url("organiser:simultaneous_create"),
        {"name": "Simultané de printemps", "date": "2027-03-20", "club": club.pk,
         "format": "individual", "deals_per_round": 3, "rounds": 4, "seed": 8},
    )  # fmt: skip
    parent = Event.objects.get(name="Simultané de printemps")
    assert response.status_code == 302 and response["Location"].endswith(f"/{parent.pk}/")
    assert services.simultaneous_rounds(parent) == 4 and parent.deals.count() == 12
    other = ClubFactory(name="Club voisin")
    response = client.post(
        url("organiser:section_add", parent.pk), {"name": "Salle B", "club": other.pk}
    )
    assert response.status_code == 302
    child = Event.objects.get(simultaneous=parent)
    assert child.club == other and deal_rows(child) == deal_rows(parent)
    response = client.post(
        url("organiser:section_add", parent.pk), {"name": "salle b", "club": other.pk}
    )
    assert response.status_code == 400 and "already has a section" in response.content.decode()
    # The deals step of the simultaneous: regenerate with 5 rounds, copied to the section.
    response = client.post(
        url("organiser:simultaneous_deals", parent.pk),
        {"seed": 3, "rounds": 5, "imposed_contract": ""},
    )
    assert response.status_code == 302
    assert parent.deals.count() == 15 and deal_rows(child) == deal_rows(parent)


def test_quadrette_simultaneous_is_refused_on_the_page() -> None:
    club = ClubFactory()
    client = logged_in(OrganiserFactory(clubs=[club]))
    response = client.post(
        url("organiser:simultaneous_create"),
        {"name": "Q", "date": "2027-03-20", "club": club.pk, "format": "quadrette",
         "deals_per_round": 3, "rounds": 4},
    )  # fmt: skip
    assert response.status_code == 400 and not Event.objects.exists()


def test_a_section_organiser_reaches_his_section_only() -> None:
    national, brest = ClubFactory(), ClubFactory()
    parent = simultaneous(club=national)
    in_brest = services.section_create(simultaneous=parent, club=brest, name="Brest")
    in_lille = services.section_create(simultaneous=parent, club=ClubFactory(), name="Lille")
    client = logged_in(OrganiserFactory(clubs=[brest]))
    assert client.get(url("organiser:event", in_brest.pk)).status_code == 200
    assert client.get(url("organiser:event", in_lille.pk)).status_code == 404
    assert client.get(url("organiser:event", parent.pk)).status_code == 404
    assert client.get(url("organiser:simultaneous_deals", parent.pk)).status_code == 404
    response = client.post(url("organiser:section_add", parent.pk), {"name": "X", "club": brest.pk})
    assert response.status_code == 404


def test_the_import_page_shows_the_report_line_by_line() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    national = ClubFactory()
    client = logged_in(OrganiserFactory(clubs=[national]))
    parent = simultaneous(club=national)
    child = section(parent, 3)
    services.event_start(event=child)
    child = Event.objects.get(pk=child.pk)
    play = child.schedule.play(table=1, round=1)
    assert play is not None
    first, second = child.deals.filter(deal_set=play.deal_set).order_by("number")
    bad = f"table;deal;contract;oudlers;points\n1;{first.number};garde;2;95\n1;77;garde;2;46\n"
    response = client.post(
        url("organiser:results_import", child.pk),
        {"file": SimpleUploadedFile("r.csv", bad.encode(), content_type="text/csv")},
    )
    text = response.content.decode()
    assert response.status_code == 400 and "2 errors: nothing was stored" in text
    assert "deal 77 is not a deal of this event" in text
    assert not TableResult.objects.filter(event=child).exists()
    good = (
        "table;deal;contract;oudlers;points\n"
        f"1;{first.number};garde;2;46\n1;{second.number};gs;3;60\n"
    )
    response = client.post(
        url("organiser:results_import", child.pk),
        {"file": SimpleUploadedFile("r.csv", good.encode(), content_type="text/csv")},
    )
    assert response.status_code == 200 and "2 results stored" in response.content.decode()
    assert TableResult.objects.filter(event=child, entered_via="import").count() == 2
    response = client.post(
        url("organiser:results_import", child.pk),
        {"file": SimpleUploadedFile("r.csv", b"a\x00b", content_type="text/csv")},
    )
    assert response.status_code == 400 and "NUL bytes" in response.content.decode()


def test_a_late_section_changes_the_comparison_of_a_running_simultaneous() -> None:
    """A section's tables count in the number of tables playing each deal (Neuberg's N): when
    a section joins, changes its movement or leaves while the simultaneous runs, the
    simultaneous's results version moves, so its standings are recomputed."""
    parent = simultaneous()
    first = section(parent, 3)
    services.event_start(event=first)
    version = Event.objects.get(pk=parent.pk).results_version
    late = section(parent, 4)  # registers, then sets its movement
    after_join = Event.objects.get(pk=parent.pk).results_version
    assert after_join > version
    services.section_delete(section=Event.objects.get(pk=late.pk))
    assert Event.objects.get(pk=parent.pk).results_version > after_join


def test_a_simultaneous_has_no_players_teams_or_movement_of_its_own() -> None:
    parent = simultaneous()
    for attempt in (
        lambda: services.entrant_register(event=parent, player=PlayerFactory()),
        lambda: services.players_import_csv(event=parent, file="first_name;last_name\nA;B\n"),
        lambda: services.event_movement_set(event=parent, tables=3, rounds=3),
    ):
        with pytest.raises(DomainError) as caught:
            attempt()
        assert caught.value.code == "simultaneous_has_sections"
    assert not parent.entrants.exists() and Event.objects.get(pk=parent.pk).movement is None

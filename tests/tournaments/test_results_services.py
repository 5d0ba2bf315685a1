"""Result entry and director actions (tournaments.services.results)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db import connection, connections, transaction
from django.utils import translation

from clubs.errors import DomainError
from clubs.outcomes import outcome_score
from tests.builders import GARDE_46, first_play, running_event
from tests.factories import OrganiserFactory, UserFactory
from tournaments.errors import ResultConflict
from tournaments.models import Event, Penalty, ResultChange, TableResult
from tournaments.services import (
    event_finish,
    penalty_record,
    table_result_assign_artificial,
    table_result_confirm,
    table_result_director_correct,
    table_result_enter,
    table_result_mark_not_played,
)
from tournaments.signals import results_changed

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    return running_event(tables=5, rounds=2)


@pytest.fixture
def sent(monkeypatch):
    calls: list[dict] = []

    def receiver(sender, **kwargs):
        calls.append(kwargs)

    results_changed.connect(receiver, weak=False, dispatch_uid="test-results-sent")
    yield calls
    results_changed.disconnect(dispatch_uid="test-results-sent")


def state(event: Event) -> tuple:
    event.refresh_from_db()
    return (
        event.results_version,
        TableResult.objects.count(),
        ResultChange.objects.count(),
        Penalty.objects.count(),
    )


def test_submit_stores_marks_seats_and_bumps_version(
    event, sent, django_capture_on_commit_callbacks
):
    table, deal, play = first_play(event)
    with django_capture_on_commit_callbacks(execute=True):
        result = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    result.refresh_from_db()
    assert result.kind == TableResult.Kind.PLAYED
    assert result.round_number == 1
    assert result.value == 60
    marks = result.seat_marks()
    assert marks[deal.taker_seat] == 180
    assert sum(marks.values()) == 0
    assert {
        s: e.slot
        for s, e in zip(
            "NESW", [result.seat_n, result.seat_e, result.seat_s, result.seat_w], strict=True
        )
    } == dict(play.seats)
    event.refresh_from_db()
    assert event.results_version == 1
    assert sent == [{"signal": results_changed, "event_id": event.pk, "results_version": 1}]
    change = ResultChange.objects.get(result=result)
    assert change.action == ResultChange.Action.CREATE
    assert change.after["value"] == 60


def test_signal_is_not_sent_before_commit(event, sent, django_capture_on_commit_callbacks):
    table, deal, _ = first_play(event)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert sent == []
    assert len(callbacks) == 1


def test_second_entry_is_a_conflict_carrying_the_stored_result(event):
    table, deal, _ = first_play(event)
    stored = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    before = state(event)
    with pytest.raises(ResultConflict) as caught:
        table_result_enter(table=table, deal=deal, outcome={**GARDE_46, "points": 60})
    assert caught.value.result.pk == stored.pk
    assert caught.value.result.value == 60
    assert caught.value.field == "deal"
    assert state(event) == before


@pytest.mark.parametrize(
    ("outcome", "field", "label"),
    [
        ({"contract": "garde", "oudlers": 2, "points": 95}, "points", "points"),
        ({"contract": "garde", "oudlers": 4, "points": 46}, "oudlers", "oudlers"),
        ({"contract": "prise", "oudlers": 2, "points": 46}, "contract", "contract"),
        ({"contract": "pass", "oudlers": 2, "points": 46}, "contract", "contract"),
        ({"contract": "garde", "oudlers": 2}, "points", "points"),
        ({**GARDE_46, "petit_au_bout": "nobody"}, "petit_au_bout", "petit au bout"),
        (
            {**GARDE_46, "poignees": [{"side": "attack", "size": "huge"}]},
            "poignees[0].size",
            "poignée 1, size",
        ),
        ({**GARDE_46, "colour": "red"}, "colour", "colour"),
    ],
)
def test_invalid_outcome_names_the_field_and_stores_nothing(event, outcome, field, label):
    table, deal, _ = first_play(event)
    before = state(event)
    with pytest.raises(DomainError) as caught:
        table_result_enter(table=table, deal=deal, outcome=outcome)
    assert caught.value.field == field
    # The message names the field by its label; the field key keeps its identifier.
    assert caught.value.describe().startswith(f"{label}: ")
    assert state(event) == before


def test_the_message_names_the_field_by_its_french_label(event):
    table, deal, _ = first_play(event)
    with translation.override("fr"):
        with pytest.raises(DomainError) as caught:
            table_result_enter(
                table=table, deal=deal, outcome={"contract": "garde", "oudlers": 4, "points": 46}
            )
        assert caught.value.describe().startswith("bouts: ")
    assert caught.value.field == "oudlers"  # the field key keeps its identifier


def test_taker_seat_other_than_the_etuis_is_refused(event):
    table, deal, _ = first_play(event)
    other = next(s for s in "NESW" if s != deal.taker_seat)
    with pytest.raises(DomainError) as caught:
        table_result_enter(table=table, deal=deal, outcome={**GARDE_46, "taker_seat": other})
    assert caught.value.field == "taker_seat"


def test_imposed_contract_is_enforced(event):
    table, deal, _ = first_play(event)
    deal.imposed_contract = "garde_sans"
    deal.save()
    with pytest.raises(DomainError) as caught:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert caught.value.code == "contract_imposed"
    result = table_result_enter(
        table=table, deal=deal, outcome={**GARDE_46, "contract": "garde_sans"}
    )
    assert result.value == 120


def test_deal_not_scheduled_at_that_table_is_refused(event):
    table, _, _ = first_play(event)
    scheduled_sets = {play.deal_set for play in event.schedule.plays_of_table(table.number)}
    deal = event.deals.exclude(deal_set__in=scheduled_sets).first()
    with pytest.raises(DomainError) as caught:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert caught.value.code == "deal_not_scheduled"
    assert caught.value.field == "deal"
    assert TableResult.objects.count() == 0


@pytest.mark.parametrize("status", [Event.Status.DRAFT, Event.Status.FINISHED])
def test_event_not_running_is_refused(status):
    event = running_event(tables=5, rounds=2, status=status)
    table, deal, _ = first_play(event)
    with pytest.raises(DomainError) as caught:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert caught.value.code == "event_not_running"


def test_outcome_score_gives_marks_without_writing(event):
    _, deal, _ = first_play(event)
    deal.cards = ""  # unknown cards: this poignée is not checked against them
    scored = outcome_score(
        deal=deal, outcome={**GARDE_46, "poignees": [{"side": "attack", "size": "simple"}]}
    )
    assert scored.value == 80
    assert scored.marks[deal.taker_seat] == 240
    assert TableResult.objects.count() == 0


def test_opponent_confirmation_keeps_table_results_unconfirmed_until_a_defender_confirms():
    event = running_event(tables=5, rounds=2, opponent_confirmation=True)
    table, deal, _ = first_play(event)
    result = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert result.confirmed is False
    with pytest.raises(DomainError) as caught:
        table_result_confirm(result=result, seat=deal.taker_seat)
    assert caught.value.field == "seat"
    defender = next(s for s in "NESW" if s != deal.taker_seat)
    confirmed = table_result_confirm(result=result, seat=defender)
    assert confirmed.confirmed is True
    assert [c.action for c in result.history.order_by("pk")] == ["create", "confirm"]
    event.refresh_from_db()
    assert event.results_version == 2
    # An organiser's entry needs no confirmation.
    organiser = OrganiserFactory(clubs=[event.club])
    deal2 = event.deals.filter(deal_set=deal.deal_set).order_by("number").last()
    by_organiser = table_result_enter(
        table=table, deal=deal2, outcome=GARDE_46, actor=organiser, via="organiser"
    )
    assert by_organiser.confirmed is True


def test_correction_rescores_and_keeps_the_history(event):
    organiser = OrganiserFactory(clubs=[event.club])
    table, deal, _ = first_play(event)
    result = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    with pytest.raises(DomainError) as caught:
        table_result_director_correct(result=result, outcome=GARDE_46, actor=organiser, reason="  ")
    assert caught.value.field == "reason"
    corrected = table_result_director_correct(
        result=result,
        outcome={**GARDE_46, "points": 36},
        actor=organiser,
        reason="points miscounted",
    )
    assert corrected.value == -60
    assert corrected.director_assigned
    history = list(result.history.order_by("pk"))
    assert [c.action for c in history] == ["create", "correct"]
    assert history[1].actor == organiser
    assert history[1].reason == "points miscounted"
    assert history[1].before["value"] == 60
    assert history[1].after["value"] == -60
    event.refresh_from_db()
    assert event.results_version == 2


def test_invalid_correction_changes_nothing(event):
    organiser = OrganiserFactory(clubs=[event.club])
    table, deal, _ = first_play(event)
    result = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    before = state(event)
    with pytest.raises(DomainError) as caught:
        table_result_director_correct(
            result=result, outcome={**GARDE_46, "oudlers": 9}, actor=organiser, reason="typo"
        )
    assert caught.value.field == "oudlers"
    assert state(event) == before
    result.refresh_from_db()
    assert result.value == 60


def test_artificial_scores_replace_or_create_a_result(event):
    organiser = OrganiserFactory(clubs=[event.club])
    table, deal, _ = first_play(event)
    created = table_result_assign_artificial(
        event=event,
        table=table,
        deal=deal,
        actor=organiser,
        reason="fouled deal",
        percentages={"N": "60", "E": 40, "S": Decimal("60"), "W": "50"},
    )
    assert created.kind == TableResult.Kind.ARTIFICIAL
    assert created.artificial_n == Decimal("60.00")
    assert created.seat_n is not None
    assert created.mark_n is None
    with pytest.raises(DomainError) as caught:
        table_result_assign_artificial(
            event=event,
            table=table,
            deal=deal,
            actor=organiser,
            reason="x",
            percentages={"N": 60, "E": 40, "S": 140, "W": 50},
        )
    assert (caught.value.code, caught.value.field) == ("percentage_out_of_range", "percentages.S")
    assert caught.value.message == "140 is outside 0..100"
    # On an existing played result: the history keeps what it was.
    deal2 = event.deals.filter(deal_set=deal.deal_set).order_by("number").last()
    played = table_result_enter(table=table, deal=deal2, outcome=GARDE_46)
    replaced = table_result_assign_artificial(
        event=event,
        table=table,
        deal=deal2,
        actor=organiser,
        reason="slow play",
        percentages={"N": 40, "E": 40, "S": 40, "W": 40},
    )
    assert replaced.pk == played.pk
    assert replaced.value is None
    last = replaced.history.order_by("pk").last()
    assert last.action == ResultChange.Action.ARTIFICIAL
    assert last.before["value"] == 60


def test_mark_not_played(event):
    organiser = OrganiserFactory(clubs=[event.club])
    table, deal, _ = first_play(event)
    result = table_result_mark_not_played(
        event=event, table=table, deal=deal, actor=organiser, reason="table late"
    )
    assert result.kind == TableResult.Kind.NOT_PLAYED
    assert result.history.get().action == ResultChange.Action.NOT_PLAYED
    # The table can no longer enter it.
    with pytest.raises(ResultConflict):
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)


def test_penalty(event):
    organiser = OrganiserFactory(clubs=[event.club])
    entrant = event.entrants.first()
    penalty = penalty_record(
        event=event, entrant=entrant, points="1,5", reason="late", actor=organiser
    )
    assert penalty.points == Decimal("1.50")
    assert penalty.created_by == organiser
    event.refresh_from_db()
    assert event.results_version == 1
    for bad, code in [(0, "penalty_out_of_range"), ("abc", "invalid_type")]:
        with pytest.raises(DomainError) as caught:
            penalty_record(event=event, entrant=entrant, points=bad, reason="r", actor=organiser)
        assert (caught.value.code, caught.value.field) == (code, "points")
    with pytest.raises(DomainError) as caught:
        penalty_record(event=event, points=1, reason="r", actor=organiser)
    assert caught.value.field == "entrant"
    assert Penalty.objects.count() == 1


def test_the_unique_constraint_turns_a_race_into_a_conflict(event, monkeypatch):
    """Two devices pass the pre-check together: the database constraint decides."""
    from tournaments.services import results as service

    table, deal, _ = first_play(event)
    stored = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    real_stored = service._stored
    calls = []

    def stale_precheck(deal_arg, table_arg):
        calls.append(1)
        return None if len(calls) == 1 else real_stored(deal_arg, table_arg)

    monkeypatch.setattr(service, "_stored", stale_precheck)
    before = state(event)
    with pytest.raises(ResultConflict) as caught:
        table_result_enter(table=table, deal=deal, outcome={**GARDE_46, "points": 60})
    assert caught.value.result.pk == stored.pk
    assert len(calls) == 2
    assert state(event) == before


# ------------------------------------------------------------- review fixes (locks, rights)


def phantom_at_first_table(event: Event) -> None:
    """Table 1 sits out round 1: the entrant at its N seat becomes a phantom (in the movement
    document, which decides, and in the entrant rows bound to it)."""
    _, _, play = first_play(event)
    slot = play.seats["N"]
    for entrant in event.movement["entrants"]:
        if entrant["id"] == slot:
            entrant["phantom"] = True
    event.save(update_fields=["movement", "updated_at"])
    event.entrants.filter(slot=slot).update(phantom=True, player=None)


@pytest.mark.parametrize("decision", ["artificial", "not_played"])
def test_director_decisions_are_refused_where_a_phantom_sits(event, decision):
    organiser = OrganiserFactory(clubs=[event.club])
    table, deal, _ = first_play(event)
    phantom_at_first_table(event)
    before = state(event)
    with pytest.raises(DomainError) as caught:
        if decision == "artificial":
            table_result_assign_artificial(
                event=event,
                table=table,
                deal=deal,
                actor=organiser,
                reason="fouled deal",
                percentages={"N": 60, "E": 40, "S": 60, "W": 40},
            )
        else:
            table_result_mark_not_played(
                event=event, table=table, deal=deal, actor=organiser, reason="table late"
            )
    assert (caught.value.code, caught.value.field) == ("table_sits_out", "table")
    assert state(event) == before


def test_only_a_user_who_directs_the_event_skips_the_opponent_confirmation():
    event = running_event(tables=5, rounds=2, opponent_confirmation=True)
    table, deal, play = first_play(event)
    deal2 = event.deals.filter(deal_set=play.deal_set).order_by("number").last()
    other_club = OrganiserFactory()  # an organiser, but of another club
    by_stranger = table_result_enter(table=table, deal=deal, outcome=GARDE_46, actor=other_club)
    assert by_stranger.confirmed is False
    superuser = UserFactory(is_superuser=True, is_staff=True)
    by_superuser = table_result_enter(
        table=table, deal=deal2, outcome=GARDE_46, actor=superuser, via="organiser"
    )
    assert by_superuser.confirmed is True


def test_confirmation_needs_a_running_event():
    event = running_event(tables=5, rounds=2, opponent_confirmation=True)
    table, deal, _ = first_play(event)
    result = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    before = state(event)
    defender = next(s for s in "NESW" if s != deal.taker_seat)
    with pytest.raises(DomainError) as caught:
        table_result_confirm(result=result, seat=defender)
    assert caught.value.code == "event_not_running"
    assert state(event) == before
    result.refresh_from_db()
    assert result.confirmed is False


def test_a_confirmed_result_is_not_confirmed_again(event):
    table, deal, _ = first_play(event)
    result = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert result.confirmed is True  # the event asks no confirmation
    before = state(event)
    defender = next(s for s in "NESW" if s != deal.taker_seat)
    with pytest.raises(DomainError) as caught:
        table_result_confirm(result=result, seat=defender)
    assert caught.value.code == "already_confirmed"
    assert state(event) == before


@pytest.mark.parametrize("vacancy", ["empty", "phantom"])
def test_only_a_seated_defender_confirms(vacancy):
    event = running_event(tables=5, rounds=2, opponent_confirmation=True)
    table, deal, _ = first_play(event)
    result = table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    seat = next(s for s in "NESW" if s != deal.taker_seat)
    field = f"seat_{seat.lower()}"
    if vacancy == "empty":
        TableResult.objects.filter(pk=result.pk).update(**{field: None})
    else:
        event.entrants.filter(pk=getattr(result, f"{field}_id")).update(phantom=True, player=None)
    before = state(event)
    with pytest.raises(DomainError) as caught:
        table_result_confirm(result=result, seat=seat)
    assert (caught.value.code, caught.value.field) == ("seat_not_seated", "seat")
    assert state(event) == before


def test_a_result_never_commits_into_an_event_finished_meanwhile(event, monkeypatch):
    """The event is finished between the early status check and the write."""
    from tournaments.services import results as service

    table, deal, _ = first_play(event)
    real_score = service.outcome_score

    def score_then_finish(**kwargs):
        scored = real_score(**kwargs)
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
        return scored

    monkeypatch.setattr(service, "outcome_score", score_then_finish)
    before = state(event)
    with pytest.raises(DomainError) as caught:
        table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert caught.value.code == "event_not_running"
    assert state(event) == before


# --------------------------------------------- real concurrency (PostgreSQL row locks only)

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks are a no-op on SQLite"
)


def in_thread(work: Callable[[], str], outcomes: list[str]) -> threading.Thread:
    """Run ``work`` on its own database connection; its answer is appended to ``outcomes``."""

    def run() -> None:
        try:
            outcomes.append(work())
        except DomainError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def wait_for_blocked(count: int) -> None:
    """Wait until ``count`` other sessions wait for a lock (held by this test's transaction)."""
    deadline = time.monotonic() + 20
    with connection.cursor() as cursor:
        while True:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            if cursor.fetchone()[0] >= count:
                return
            assert time.monotonic() < deadline, "the writers never waited for the event lock"
            time.sleep(0.02)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_postgres_a_submit_waiting_on_event_finish_is_refused():
    event = running_event(tables=5, rounds=2)
    table, deal, _ = first_play(event)
    outcomes: list[str] = []

    def submit() -> str:
        return table_result_enter(table=table, deal=deal, outcome=GARDE_46).kind

    with transaction.atomic():
        event_finish(event=event)  # holds the event row lock until this block commits
        worker = in_thread(submit, outcomes)
        wait_for_blocked(1)  # past the early (unlocked) status check, waiting for the lock
    worker.join(timeout=20)
    assert outcomes == ["event_not_running"]
    assert TableResult.objects.count() == 0
    # Finishing is the only new version (it publishes every deal); the refused entry adds none.
    assert Event.objects.get(pk=event.pk).results_version == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_postgres_two_devices_at_once_store_one_result_and_get_one_conflict():
    event = running_event(tables=5, rounds=2)
    table, deal, _ = first_play(event)
    outcomes: list[str] = []
    conflicts: list[int] = []

    def submit(points: int) -> Callable[[], str]:
        def work() -> str:
            try:
                outcome = {**GARDE_46, "points": points}
                return table_result_enter(table=table, deal=deal, outcome=outcome).kind
            except ResultConflict as conflict:
                conflicts.append(conflict.result.pk)
                raise

        return work

    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)  # both pass the pre-checks first
        workers = [in_thread(submit(46), outcomes), in_thread(submit(60), outcomes)]
        wait_for_blocked(2)
    for worker in workers:
        worker.join(timeout=20)
    assert sorted(outcomes) == ["played", "result_exists"]
    stored = TableResult.objects.get()
    assert conflicts == [stored.pk]
    assert Event.objects.get(pk=event.pk).results_version == 1
    assert ResultChange.objects.count() == 1

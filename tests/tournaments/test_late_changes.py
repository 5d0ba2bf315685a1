"""Late changes after the start (``tournaments.services.late_changes``): a substitute replaces a
player for the remaining rounds, a withdrawal turns the seat into a phantom whose tables sit
out. Both are written into the movement, recorded (``EntrantChange`` and the director's
``LogEntry``), and reflected in the standings, the printouts and the players page.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from clubs.errors import DomainError
from scoring.models import HandScore, RankingEntry
from scoring.services import standings_recompute
from tests.builders import (
    GARDE_46,
    enter_round,
    random_outcome,
    running_event,
    running_team_event,
)
from tests.factories import OrganiserFactory, PlayerFactory
from tournaments import movements, services
from tournaments.models import Deal, Entrant, EntrantChange, Event, Table, TableResult
from tournaments.services import late_changes

pytestmark = pytest.mark.django_db


def url(name: str, *args: object) -> str:
    with translation.override("en"):
        return reverse(name, args=args)


@pytest.fixture
def event() -> Event:
    """5 tables, 5 rounds of 2 deals, the first 2 rounds entered."""
    event = running_event(tables=5, rounds=5, deals_per_round=2)
    rng = random.Random(3)
    for number in (1, 2):
        enter_round(event, number, rng)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def director(event: Event) -> tuple[Client, Any]:
    user = OrganiserFactory(clubs=[event.club])
    client = Client()
    client.force_login(user)
    return client, user


def entrant_at(event: Event, *, table: int, round_number: int, seat: str) -> Entrant:
    play = event.schedule.play(table=table, round=round_number)
    assert play is not None
    return Entrant.objects.get(event=event, slot=play.seats[seat])


def seated_slots(event: Event, round_number: int) -> set[int]:
    rnd = event.schedule.round(round_number)
    assert rnd is not None
    return {slot for play in rnd.tables for slot in play.slots}


def enter_playing(event: Event, round_number: int, seed: int) -> None:
    """Enter every deal of ``round_number`` at the tables that play it (sit-outs skipped)."""
    rng = random.Random(seed)
    rnd = event.schedule.round(round_number)
    assert rnd is not None
    for play in rnd.playing:
        table = Table.objects.get(event=event, number=play.table)
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number"):
            services.table_result_enter(table=table, deal=deal, outcome=random_outcome(rng, deal))


def ranking(event: Event) -> dict[int, tuple[int, str, int]]:
    rows = RankingEntry.objects.filter(
        event=event, kind=RankingEntry.Kind.INDIVIDUAL, published=False
    ) or RankingEntry.objects.filter(event=event, kind=RankingEntry.Kind.INDIVIDUAL)
    return {
        row.entrant_id: (row.rank, str(row.percentage), row.deals_played)
        for row in rows
        if row.entrant_id is not None
    }


def hands(event: Event) -> list[tuple[int, int, str, int, int]]:
    return sorted(
        HandScore.objects.filter(event=event).values_list(
            "deal_id", "table_number", "seat", "mp_num", "mp_den"
        )
    )


# ------------------------------------------------------------------------------ substitute


def test_a_substitute_takes_the_seat_from_his_round(event: Event) -> None:
    standings_recompute(event_id=event.pk)
    replaced = entrant_at(event, table=1, round_number=1, seat="E")
    substitute_player = PlayerFactory(club=event.club)
    version = event.results_version
    change = late_changes.entrant_substitute(
        event=event, entrant=replaced, player=substitute_player, from_round=3, reason="ill"
    )
    event = Event.objects.get(pk=event.pk)
    substitute = change.replacement
    assert substitute.player == substitute_player
    assert (substitute.line, substitute.team_id) == (replaced.line, replaced.team_id)
    assert event.results_version == version + 1  # the standings are recomputed
    report = movements.validate(event.movement)
    assert report.ok, report.errors
    for number in event.schedule.round_numbers:
        rnd = event.schedule.round(number)
        assert rnd is not None
        if number < 3:
            assert replaced.slot in seated_slots(event, number)
            assert substitute.slot in rnd.byes
        else:
            assert substitute.slot in seated_slots(event, number)
            assert replaced.slot in rnd.byes
    # The seat's route is unchanged: the substitute sits where the replaced player would have.
    before = running_event_route(change, event)
    assert before

    # Round 3 entered: its results seat the substitute; the replaced player keeps rounds 1-2.
    enter_round(event, 3, random.Random(4))
    seats = TableResult.objects.filter(event=event)
    assert seats.filter(round_number=3).filter(late_changes._seated_in(substitute.pk)).exists()
    assert not seats.filter(round_number=3).filter(late_changes._seated_in(replaced.pk)).exists()
    assert seats.filter(round_number__lte=2).filter(late_changes._seated_in(replaced.pk)).count()
    standings_recompute(event_id=event.pk)
    rows = ranking(event)
    assert rows[replaced.pk][2] == 4  # 2 rounds of 2 deals
    assert rows[substitute.pk][2] == 2  # round 3
    recorded = EntrantChange.objects.get(event=event)
    assert (recorded.kind, recorded.from_round, recorded.reason) == ("substitute", 3, "ill")


def running_event_route(change: EntrantChange, event: Event) -> list[tuple[int, int, str]]:
    """The substitute's (round, table, seat) from his round: non-empty where he plays."""
    route = []
    for play in event.schedule.plays():
        for seat, slot in play.seats.items():
            if slot == change.replacement.slot:
                assert play.round >= change.from_round
                route.append((play.round, play.table, seat))
    return route


def test_the_substitute_keeps_the_replaced_players_tables_and_seats(event: Event) -> None:
    replaced = entrant_at(event, table=2, round_number=1, seat="S")
    route = [
        (play.round, play.table, seat)
        for play in event.schedule.plays()
        for seat, slot in play.seats.items()
        if slot == replaced.slot and play.round >= 4
    ]
    change = late_changes.entrant_substitute(
        event=event, entrant=replaced, player=PlayerFactory(), from_round=4
    )
    event = Event.objects.get(pk=event.pk)
    assert running_event_route(change, event) == route


@pytest.mark.parametrize("from_round", [0, 6, 99])
def test_a_round_outside_the_movement_is_refused(event: Event, from_round: int) -> None:
    replaced = entrant_at(event, table=1, round_number=1, seat="N")
    movement = event.movement
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_substitute(
            event=event, entrant=replaced, player=PlayerFactory(), from_round=from_round
        )
    assert refused.value.code == "round_out_of_range"
    assert Event.objects.get(pk=event.pk).movement == movement
    assert not EntrantChange.objects.exists()


def test_a_round_with_results_is_refused(event: Event) -> None:
    replaced = entrant_at(event, table=1, round_number=2, seat="W")
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_withdraw_late(event=event, entrant=replaced, from_round=2)
    assert refused.value.code == "round_has_results"
    assert "3" in refused.value.message  # the earliest round possible
    assert not EntrantChange.objects.exists()
    assert Entrant.objects.filter(event=event).count() == 20


def test_a_player_already_in_the_event_is_refused(event: Event) -> None:
    replaced = entrant_at(event, table=1, round_number=1, seat="N")
    other = entrant_at(event, table=2, round_number=1, seat="N")
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_substitute(
            event=event, entrant=replaced, player=other.player, from_round=3
        )
    assert refused.value.code == "already_registered"


def test_a_player_is_replaced_once_and_a_substitute_not_before_his_round(event: Event) -> None:
    replaced = entrant_at(event, table=1, round_number=1, seat="N")
    change = late_changes.entrant_substitute(
        event=event, entrant=replaced, player=PlayerFactory(), from_round=4
    )
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_withdraw_late(event=event, entrant=replaced, from_round=5)
    assert refused.value.code == "already_changed"
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_withdraw_late(event=event, entrant=change.replacement, from_round=3)
    assert refused.value.code == "before_substitution"
    # The substitute may be replaced in turn, from his own round on.
    second = late_changes.entrant_substitute(
        event=event, entrant=change.replacement, player=PlayerFactory(), from_round=5
    )
    event = Event.objects.get(pk=event.pk)
    assert movements.validate(event.movement).ok
    assert second.replacement.slot in seated_slots(event, 5)
    assert change.replacement.slot in seated_slots(event, 4)


def test_only_a_running_event_changes() -> None:
    draft = running_event(tables=5, rounds=3, status=Event.Status.DRAFT)
    entrant = Entrant.objects.filter(event=draft, phantom=False).first()
    assert entrant is not None
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_substitute(
            event=draft, entrant=entrant, player=PlayerFactory(), from_round=2
        )
    assert refused.value.code == "event_not_running"


# ------------------------------------------------------------------------------ withdrawal


def test_a_withdrawal_turns_the_seat_into_a_phantom_whose_tables_sit_out(event: Event) -> None:
    standings_recompute(event_id=event.pk)
    withdrawn = entrant_at(event, table=3, round_number=1, seat="E")
    before = event.schedule
    sitting_out = [
        play for play in before.plays() if play.round >= 3 and withdrawn.slot in play.slots
    ]
    assert len(sitting_out) == 3  # rounds 3, 4, 5
    change = late_changes.entrant_withdraw_late(event=event, entrant=withdrawn, from_round=3)
    event = Event.objects.get(pk=event.pk)
    assert change.replacement.phantom and change.replacement.player is None
    assert movements.validate(event.movement).ok
    after = event.schedule
    for play in sitting_out:
        now = after.play(table=play.table, round=play.round)
        assert now is not None and now.sits_out
    # Fair sit-outs: the withdrawn seat's table-mates sit out at most once each because of it.
    mates = Counter(slot for play in sitting_out for slot in play.slots if slot != withdrawn.slot)
    assert mates and max(mates.values()) == 1
    # Nothing is expected at those tables: a table code's entry is refused there.
    play = sitting_out[0]
    table = Table.objects.get(event=event, number=play.table)
    deal = event.deals.filter(deal_set=play.deal_set).first()
    assert deal is not None
    with pytest.raises(DomainError) as refused:
        services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert refused.value.code == "table_sits_out"
    # The deals those tables would have played are scheduled once less (Neuberg's N).
    counts_before, counts_after = before.tables_per_deal_set(), after.tables_per_deal_set()
    for lost in {p.deal_set for p in sitting_out}:
        assert counts_after[lost] == counts_before[lost] - 1


def test_the_incremental_recompute_after_a_withdrawal_equals_a_full_one(event: Event) -> None:
    standings_recompute(event_id=event.pk)
    withdrawn = entrant_at(event, table=4, round_number=1, seat="N")
    late_changes.entrant_withdraw_late(event=event, entrant=withdrawn, from_round=3)
    event = Event.objects.get(pk=event.pk)
    enter_playing(event, 3, 5)
    standings_recompute(event_id=event.pk)
    incremental_hands, incremental_ranking = hands(event), ranking(event)
    standings_recompute(event_id=event.pk, force=True, full=True)
    assert hands(event) == incremental_hands
    assert ranking(event) == incremental_ranking
    assert ranking(event)[withdrawn.pk][2] == 4  # ranked on the rounds he played


def test_the_recompute_rescores_the_deals_whose_count_changed(event: Event) -> None:
    """Deal sets the withdrawn seat's tables would have played were already played elsewhere
    in rounds 1-2: their hands are Neuberg-scored again without any new result."""
    standings_recompute(event_id=event.pk)
    withdrawn = entrant_at(event, table=1, round_number=1, seat="S")
    lost = {
        play.deal_set
        for play in event.schedule.plays()
        if play.round >= 3 and withdrawn.slot in play.slots
    }
    played = TableResult.objects.filter(event=event, deal__deal_set__in=lost)
    assert played.exists()  # the line movement plays them at other tables in rounds 1-2
    late_changes.entrant_withdraw_late(event=event, entrant=withdrawn, from_round=3)
    event = Event.objects.get(pk=event.pk)
    standings_recompute(event_id=event.pk)
    incremental = hands(event)
    standings_recompute(event_id=event.pk, force=True, full=True)
    assert hands(event) == incremental
    assert set(played.values_list("version", flat=True)) == {event.results_version}


def test_a_team_event_withdrawal_is_refused_but_a_substitute_joins_the_team() -> None:
    event = running_team_event(format=Event.Format.TRIPLETTE, teams=4)
    entrant = Entrant.objects.filter(event=event, phantom=False).select_related("team").first()
    assert entrant is not None
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_withdraw_late(event=event, entrant=entrant, from_round=2)
    assert refused.value.code == "team_withdrawal"
    change = late_changes.entrant_substitute(
        event=event, entrant=entrant, player=PlayerFactory(), from_round=2
    )
    assert change.replacement.team_id == entrant.team_id
    assert movements.validate(Event.objects.get(pk=event.pk).movement).ok


# ------------------------------------------------------------------------------ organiser UI


def test_the_players_page_offers_the_changes_of_a_running_event(
    event: Event, director: tuple[Client, Any]
) -> None:
    client, _ = director
    page = client.get(url("organiser:players", event.pk))
    assert page.status_code == 200
    html = page.content.decode()
    entrant = entrant_at(event, table=1, round_number=1, seat="N")
    assert url("organiser:entrant_substitute", event.pk, entrant.pk) in html
    assert url("organiser:entrant_forfeit", event.pk, entrant.pk) in html
    assert 'name="from_round" value="3"' in html  # the first round without his results


def test_substitute_by_search_then_choice(event: Event, director: tuple[Client, Any]) -> None:
    client, user = director
    replaced = entrant_at(event, table=1, round_number=1, seat="N")
    PlayerFactory(first_name="Ginette", last_name="Lartigue", club=event.club)
    PlayerFactory(first_name="Gaston", last_name="Lartigue", club=event.club)
    target = url("organiser:entrant_substitute", event.pk, replaced.pk)
    page = client.post(target, {"from_round": "3", "q": "Lartigue", "reason": "malaise"})
    assert page.status_code == 200  # two players match: the director chooses
    assert not EntrantChange.objects.exists()
    chosen = page.context["candidates"][1]
    html = page.content.decode()
    assert f'name="player" value="{chosen.pk}"' in html
    answer = client.post(target, {"from_round": "3", "player": chosen.pk, "reason": "malaise"})
    assert answer.status_code == 302
    change = EntrantChange.objects.get()
    assert (change.replacement.player, change.actor, change.reason) == (chosen, user, "malaise")
    log = LogEntry.objects.get(object_id=str(event.pk))
    data = json.loads(log.change_message)
    assert (data["action"], data["round"], data["substitute"]) == (
        "substitute",
        3,
        str(chosen),
    )
    html = client.get(url("organiser:players", event.pk)).content.decode()
    assert f"replaced by {chosen} from round 3" in html
    history = client.get(url("organiser:history", event.pk)).content.decode()
    assert f"Round 3: {chosen} replaces {replaced}" in history


def test_substitute_a_new_player(event: Event, director: tuple[Client, Any]) -> None:
    client, _ = director
    replaced = entrant_at(event, table=2, round_number=1, seat="E")
    answer = client.post(
        url("organiser:entrant_substitute", event.pk, replaced.pk),
        {"from_round": "4", "first_name": "Odile", "last_name": "Remplaçante"},
    )
    assert answer.status_code == 302
    change = EntrantChange.objects.get()
    assert change.replacement.player.last_name == "Remplaçante"
    assert change.replacement.player.club == event.club


@pytest.mark.parametrize(
    ("data", "code_word"),
    [
        ({"from_round": "", "q": "x"}, "round"),
        ({"from_round": "9", "player": "0"}, "player"),
        ({"from_round": "9", "first_name": "A", "last_name": "B"}, "round"),
        ({"from_round": "2", "first_name": "A", "last_name": "B"}, "results"),
        ({"from_round": "3"}, "substitute"),
        ({"from_round": "3", "q": "zzznobody"}, "matches"),
    ],
)
def test_a_refused_substitution_is_a_400_with_its_reason_and_stores_nothing(
    event: Event, director: tuple[Client, Any], data: dict[str, str], code_word: str
) -> None:
    client, _ = director
    replaced = entrant_at(event, table=1, round_number=1, seat="N")
    players = Entrant.objects.count(), TableResult.objects.count()
    with translation.override("en"):
        answer = client.post(
            url("organiser:entrant_substitute", event.pk, replaced.pk),
            data,
            HTTP_ACCEPT_LANGUAGE="en",
        )
    assert answer.status_code == 400
    shown = " ".join(str(m) for m in answer.context["messages"])
    assert code_word in shown.lower()
    assert not EntrantChange.objects.exists()
    assert (Entrant.objects.count(), TableResult.objects.count()) == players
    assert not Entrant.objects.filter(player__first_name="A", player__last_name="B").exists()


def test_forfeit_from_the_players_page(event: Event, director: tuple[Client, Any]) -> None:
    client, _ = director
    withdrawn = entrant_at(event, table=1, round_number=1, seat="W")
    answer = client.post(
        url("organiser:entrant_forfeit", event.pk, withdrawn.pk),
        {"from_round": "3", "reason": "départ"},
    )
    assert answer.status_code == 302
    change = EntrantChange.objects.get()
    assert change.kind == EntrantChange.Kind.WITHDRAWAL
    refused = client.post(url("organiser:entrant_forfeit", event.pk, withdrawn.pk), {})
    assert refused.status_code == 400
    history = client.get(url("organiser:history", event.pk)).content.decode()
    assert f"Round 3: {withdrawn} withdraws" in history


# ------------------------------------------------------------------------------ printouts


def test_printouts_name_the_substitute_from_his_round(
    event: Event, director: tuple[Client, Any]
) -> None:
    client, _ = director
    replaced = entrant_at(event, table=1, round_number=1, seat="N")
    player = PlayerFactory(first_name="Sosthène", last_name="Suppléant")
    change = late_changes.entrant_substitute(
        event=event, entrant=replaced, player=player, from_round=3
    )
    event = Event.objects.get(pk=event.pk)
    cards = client.get(url("organiser:print_tables", event.pk)).content.decode()
    assert str(player) in cards
    routes = client.get(url("organiser:print_routes", event.pk))
    assert routes.status_code == 200
    html = routes.content.decode()
    assert str(player) in html
    # The replaced player's route card says who takes his seat, the substitute's from when.
    assert f"Replaced by {player} from round 3." in html
    assert f"Replaces {replaced} from round 3." in html
    assert html.count(f'<span class="late-change">replaced by {player}</span>') == 3  # 3-5
    assert html.count("not yet in the event") == 2  # the substitute's rounds 1, 2
    assert change.replacement.pk != replaced.pk


def test_the_route_cards_read_the_changes_once(event: Event, director: tuple[Client, Any]) -> None:
    client, _ = director
    target = url("organiser:print_routes", event.pk)
    with CaptureQueriesContext(connection) as before:
        assert client.get(target).status_code == 200
    for table, seat in ((1, "N"), (2, "E"), (3, "S")):
        entrant = entrant_at(event, table=table, round_number=1, seat=seat)
        late_changes.entrant_substitute(
            event=event, entrant=entrant, player=PlayerFactory(), from_round=3
        )
    with CaptureQueriesContext(connection) as after:
        assert client.get(target).status_code == 200
    # One query for the changes, then their players: never one per route card (23 cards).
    assert len(after) - len(before) <= 1 + 4 * 3


def test_the_route_card_of_a_withdrawn_player(event: Event, director: tuple[Client, Any]) -> None:
    client, _ = director
    withdrawn = entrant_at(event, table=1, round_number=1, seat="E")
    late_changes.entrant_withdraw_late(event=event, entrant=withdrawn, from_round=4)
    html = client.get(url("organiser:print_routes", event.pk)).content.decode()
    assert "Withdrawn from round 4." in html
    assert html.count(">withdrawn</span>") == 2  # rounds 4, 5
    cards = client.get(url("organiser:print_tables", event.pk)).content.decode()
    assert cards.count("Sit-out: no play at this table this round.") == 2


# ------------------------------------------------------------------------------ phones, pages


def test_the_table_phone_and_the_score_cards_name_the_substitute(event: Event) -> None:
    replaced = entrant_at(event, table=1, round_number=1, seat="N")
    player = PlayerFactory(first_name="Prudence", last_name="Relève")
    change = late_changes.entrant_substitute(
        event=event, entrant=replaced, player=player, from_round=3
    )
    event = Event.objects.get(pk=event.pk)
    play = next(
        play
        for play in event.schedule.plays()
        if play.round == 3 and change.replacement.slot in play.slots
    )
    code = Table.objects.get(event=event, number=play.table).code
    phone = Client().get(url("table:entry", code))
    assert phone.status_code == 200
    assert str(player) in phone.content.decode()  # round 3 is this table's open round
    enter_round(event, 3, random.Random(6))
    standings_recompute(event_id=event.pk)
    visitor = Client()
    listing = visitor.get(url("public:players", event.pk)).content.decode()
    assert str(player) in listing and str(replaced) in listing
    card = visitor.get(url("public:scorecard", event.pk, change.replacement.pk))
    assert card.status_code == 200
    assert str(player) in card.content.decode()
    own = visitor.get(url("public:scorecard", event.pk, replaced.pk))
    assert own.status_code == 200


# ------------------------------------------------------------------------------ races


def test_a_result_read_under_the_old_seating_is_refused_after_a_change(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The director replaces a player while a table saves a deal of the substitute's round:
    the result would carry the old player, so it is refused (the table reloads) and nothing of
    the write is stored."""
    from tournaments.services import results as results_services

    play = event.schedule.play(table=1, round=3)
    deal = Deal.objects.filter(event=event, deal_set=play.deal_set).order_by("number").first()
    table = Table.objects.get(event=event, number=1)
    replaced = Entrant.objects.get(event=event, slot=play.seats["N"])
    real_stored = results_services._stored
    changed: list[bool] = []

    def change_then_look(*args: Any, **kwargs: Any) -> Any:
        # What a concurrent director's change commits after the table's seating was read.
        if not changed:
            changed.append(True)
            late_changes.entrant_substitute(
                event=Event.objects.get(pk=event.pk),
                entrant=replaced,
                player=PlayerFactory(club=event.club),
                from_round=3,
                reason="ill",
            )
        return real_stored(*args, **kwargs)

    monkeypatch.setattr(results_services, "_stored", change_then_look)
    with pytest.raises(DomainError) as refused:
        results_services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    assert refused.value.code == "seating_changed"
    assert not TableResult.objects.filter(deal=deal, table=table).exists()

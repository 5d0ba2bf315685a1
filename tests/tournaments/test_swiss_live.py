"""Live Swiss rounds of a quadrette event (tournaments.services.swiss, docs/swiss.md).

10 teams over 5 rounds: results entered round by round, each round closed through the
service, the next round paired from the standings after it (the published team ranking
agrees), never a rematch; reopening a round unpairs the next one, or is refused once it has
results; the live option is refused for the other formats.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubs.errors import DomainError
from scoring.models import RankingEntry
from scoring.services import standings_recompute
from tests.builders import EVENT_DATE, enter_round
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tournaments import movements, services
from tournaments.models import Entrant, Event
from tournaments.movements.swiss import LiveSwiss, next_pairing
from tournaments.services import events as event_services
from tournaments.services import late_changes

pytestmark = pytest.mark.django_db


def team_setup(format: str, teams: int) -> Event:
    size = 4 if format == Event.Format.QUADRETTE else 3
    club = ClubFactory()
    event = services.event_create(club=club, name="Swiss", date=EVENT_DATE, format=format,
                                  deals_per_round=1, public=True)  # fmt: skip
    entrants = [
        services.entrant_register(event=event, player=PlayerFactory(club=club))
        for _ in range(teams * size)
    ]
    for index in range(teams):
        services.team_create(event=event, name=f"Team {index + 1}",
                             entrants=entrants[index * size : (index + 1) * size])  # fmt: skip
    return event


def live_event(teams: int = 10, rounds: int = 5, seed: int = 4) -> Event:
    event = team_setup(Event.Format.QUADRETTE, teams)
    services.event_movement_set(event=event, rounds=rounds, seed=seed)  # live by default
    services.event_deals_generate(event=event, seed=seed)
    services.event_start(event=Event.objects.get(pk=event.pk))
    return Event.objects.get(pk=event.pk)


def state(event: Event) -> LiveSwiss:
    live = movements.live_swiss(Event.objects.get(pk=event.pk).movement)
    assert live is not None
    return live


def team_numbers(event: Event) -> dict[int, int]:
    """Team pk → the movement's team number (team k owns slots 4k-3..4k)."""
    return {
        e.team_id: (e.slot + 3) // 4
        for e in Entrant.objects.filter(event=event, phantom=False)
        if e.team_id is not None and e.slot % 4 == 1
    }


def published_pm(event: Event) -> dict[int, int]:
    """The published team ranking's PM by movement team number (recomputed now)."""
    standings_recompute(event_id=event.pk)
    numbers = team_numbers(event)
    rows = RankingEntry.objects.filter(event=event, kind=RankingEntry.Kind.TEAM, published=True)
    return {numbers[row.team_id]: int(row.points_de_match or 0) for row in rows}


def test_ten_teams_five_rounds_paired_from_the_standings_without_rematch() -> None:
    event = live_event()
    director = OrganiserFactory(clubs=[event.club])
    assert event.schedule.round_numbers == [1]
    assert event.schedule.pending_rounds == (2, 3, 4, 5)
    assert event.deals.count() == 5  # every round's deal set exists from the start
    rng = random.Random(11)
    for round_number in range(1, 6):
        enter_round(event, round_number, rng)
        before = state(event)
        pm = published_pm(event)
        event_services.round_close(event=event, round_number=round_number, actor=director)
        event = Event.objects.get(pk=event.pk)
        after = state(event)
        if round_number == 5:
            assert after == before and event.schedule.pending_rounds == ()
            break
        assert event.schedule.round_numbers == list(range(1, round_number + 2))
        paired = after.paired[round_number]
        assert paired.round == round_number + 1 and paired.standings is not None
        # the order is the standings after this round: PM never increases down the list
        values = [pm.get(team, 0) for team in paired.standings]
        assert values == sorted(values, reverse=True)
        # and the pairing is the matching of exactly those standings
        assert paired == next_pairing(before, paired.standings)
        if round_number == 1:
            leader, met = paired.standings[0], {frozenset(m) for m in before.met()}
            best = next(t for t in paired.standings[1:] if frozenset((leader, t)) not in met)
            assert any(set(m) == {leader, best} for m in paired.matches)
    final = state(event)
    matches = [frozenset(m) for m in final.met()]
    assert len(matches) == 25 and len(set(matches)) == 25
    assert set(event.closed_rounds) == {1, 2, 3, 4, 5}
    actions = [line.action for line in event_services.event_log(event)]
    assert actions.count("pair_round") == 4 and actions.count("close_round") == 5


def test_a_pending_round_cannot_be_closed() -> None:
    event = live_event(teams=6, rounds=3)
    with pytest.raises(DomainError) as caught:
        event_services.round_close(event=event, round_number=2, confirm=True)
    assert caught.value.code == "round_not_paired"
    assert "paired at the close of round 1" in caught.value.message


def test_reopening_unpairs_the_next_round_or_is_refused_once_it_has_results() -> None:
    event = live_event(teams=6, rounds=3)
    director = OrganiserFactory(clubs=[event.club])
    rng = random.Random(2)
    enter_round(event, 1, rng)
    event_services.round_close(event=event, round_number=1, actor=director)
    event = Event.objects.get(pk=event.pk)
    assert event.schedule.round_numbers == [1, 2]
    version = event.results_version
    event_services.round_reopen(event=event, round_number=1, actor=director, reason="typo")
    event = Event.objects.get(pk=event.pk)
    assert event.schedule.round_numbers == [1] and event.schedule.pending_rounds == (2, 3)
    assert event.closed_rounds == [] and event.results_version > version
    actions = [line.action for line in event_services.event_log(event)]
    assert actions[-2:] == ["unpair_round", "reopen_round"]
    # closed again: paired again from the same standings
    event_services.round_close(event=event, round_number=1, actor=director)
    event = Event.objects.get(pk=event.pk)
    assert event.schedule.round_numbers == [1, 2]
    enter_round(event, 2, rng)
    with pytest.raises(DomainError) as caught:
        event_services.round_reopen(event=event, round_number=1, actor=director)
    assert caught.value.code == "swiss_round_played"
    event = Event.objects.get(pk=event.pk)
    assert event.schedule.round_numbers == [1, 2] and event.closed_rounds == [1]


def test_the_default_is_live_and_prepaired_can_be_chosen() -> None:
    event = team_setup(Event.Format.QUADRETTE, 10)
    services.event_movement_set(event=event, rounds=5)
    assert Event.objects.get(pk=event.pk).schedule.live_swiss
    services.event_movement_set(event=event, rounds=5, swiss="prepaired")
    schedule = Event.objects.get(pk=event.pk).schedule
    assert not schedule.live_swiss and schedule.round_numbers == [1, 2, 3, 4, 5]
    # beyond the guarantee the default is pre-paired, and live is refused
    services.event_movement_set(event=event, rounds=7)
    assert not Event.objects.get(pk=event.pk).schedule.live_swiss
    with pytest.raises(DomainError) as caught:
        services.event_movement_set(event=event, rounds=7, swiss="live")
    assert caught.value.code == "swiss_live_rounds"


@pytest.mark.parametrize(
    ("format", "kwargs"),
    [
        (Event.Format.TRIPLETTE, {}),
        (Event.Format.INDIVIDUAL, {"tables": 3}),
    ],
)
def test_live_is_refused_for_other_formats(format: str, kwargs: dict[str, Any]) -> None:
    if format == Event.Format.INDIVIDUAL:
        club = ClubFactory()
        event = services.event_create(club=club, name="I", date=EVENT_DATE, format=format,
                                      deals_per_round=1)  # fmt: skip
        for _ in range(12):
            services.entrant_register(event=event, player=PlayerFactory(club=club))
    else:
        event = team_setup(format, 8)
    with pytest.raises(DomainError) as caught:
        services.event_movement_set(event=event, swiss="live", **kwargs)
    assert caught.value.code == "swiss_live_format"
    assert caught.value.message == "Live Swiss pairing is for quadrette events only."
    assert caught.value.field == "swiss"
    assert Event.objects.get(pk=event.pk).movement is None


def test_a_substitute_keeps_his_seat_in_the_rounds_paired_later() -> None:
    event = live_event(teams=6, rounds=3)
    replaced = Entrant.objects.get(event=event, slot=1)
    change = late_changes.entrant_substitute(
        event=event, entrant=replaced, player=PlayerFactory(club=event.club), from_round=1
    )
    substitute = change.replacement
    assert substitute is not None
    event = Event.objects.get(pk=event.pk)
    enter_round(event, 1, random.Random(5))
    event_services.round_close(event=event, round_number=1)
    schedule = Event.objects.get(pk=event.pk).schedule
    round_two = schedule.round(2)
    assert round_two is not None
    seated = {slot for play in round_two.tables for slot in play.slots}
    assert substitute.slot in seated and 1 not in seated and 1 in round_two.byes


def test_a_substitute_from_a_round_not_paired_yet_is_seated_when_it_is_paired() -> None:
    event = live_event(teams=6, rounds=3)
    enter_round(event, 1, random.Random(6))
    replaced = Entrant.objects.get(event=event, slot=2)
    # round 2 is pending (paired when round 1 closes): the change starts there all the same
    change = late_changes.entrant_substitute(
        event=event, entrant=replaced, player=PlayerFactory(club=event.club), from_round=2
    )
    substitute = change.replacement
    event = Event.objects.get(pk=event.pk)
    assert event.schedule.pending_rounds == (2, 3)
    round_one = event.schedule.round(1)
    assert round_one is not None and substitute.slot in round_one.byes
    assert 2 in {slot for play in round_one.tables for slot in play.slots}
    event_services.round_close(event=event, round_number=1)
    schedule = Event.objects.get(pk=event.pk).schedule
    for number in (2,):
        played = schedule.round(number)
        assert played is not None
        seated = {slot for play in played.tables for slot in play.slots}
        assert substitute.slot in seated and 2 not in seated and 2 in played.byes
    # a round beyond the planned ones is still refused
    with pytest.raises(DomainError) as refused:
        late_changes.entrant_substitute(
            event=Event.objects.get(pk=event.pk),
            entrant=Entrant.objects.get(event=event, slot=3),
            player=PlayerFactory(club=event.club),
            from_round=4,
        )
    assert refused.value.code == "round_out_of_range"


def test_pairing_order_counts_a_bye_as_a_drawn_match() -> None:
    from decimal import Decimal

    from tournaments.movements.swiss import PairedRound
    from tournaments.services.swiss import pairing_order

    state = LiveSwiss(
        rounds=3, teams=3, seed=0,
        paired=(PairedRound(1, ((1, 2),), bye=3), PairedRound(2, ((3, 1),), bye=2)),
    )  # fmt: skip
    numbers = {101: 1, 102: 2, 103: 3}  # team pk -> movement number
    rows = [
        {"team": 101, "rank": 1, "pm": 12, "vp": Decimal("24.50")},
        {"team": 103, "rank": 2, "pm": 5, "vp": Decimal("8.00")},
        {"team": 102, "rank": 3, "pm": -17, "vp": Decimal("7.50")},
    ]
    assert pairing_order(rows, numbers, state, by_vp=False) == [1, 3, 2]
    # VP: 3 has 8 + 10 (its bye) = 18, 2 has 7.5 + 10 = 17.5
    assert pairing_order(rows, numbers, state, by_vp=True) == [1, 3, 2]
    rows[1]["vp"] = Decimal("7.00")  # 3: 17 < 2: 17.5
    assert pairing_order(rows, numbers, state, by_vp=True) == [1, 2, 3]
    # a team without any scored deal is at 0 (PM), below a positive total, above a negative one
    assert pairing_order(rows[:1] + rows[2:], numbers, state, by_vp=False) == [1, 3, 2]

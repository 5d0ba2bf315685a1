"""Event setup services: permissions, registration, CSV import, movement, deals, start."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from clubs.access import directed_by
from clubs.errors import DomainError
from clubs.models import Club, Player
from rules import deal as rules_deal
from rules import enums as rules_enums
from rules.duplicate import DUPLICATE_SEATS
from tests.factories import (
    ClubFactory,
    EntrantFactory,
    EventFactory,
    OrganiserFactory,
    PlayerFactory,
    UserFactory,
)
from tournaments import models, selectors, services
from tournaments.models import Deal, Entrant, Event, Table, Team

pytestmark = pytest.mark.django_db


def register(event: Event, count: int) -> list[Entrant]:
    return [services.entrant_register(event=event, player=PlayerFactory()) for _ in range(count)]


def ready_event(tables: int = 7, players: int | None = None, dpr: int = 2) -> Event:
    event = EventFactory(deals_per_round=dpr)
    register(event, players if players is not None else 4 * tables)
    services.event_movement_set(event=event, tables=tables)
    event.refresh_from_db()
    return event


# --- permissions ---------------------------------------------------------------------------


def test_organiser_sees_only_events_of_his_clubs() -> None:
    club_a, club_b = ClubFactory(), ClubFactory()
    alice = OrganiserFactory(clubs=[club_a])
    bob = OrganiserFactory(clubs=[club_b])
    both = OrganiserFactory(clubs=[club_a, club_b])
    event_a, event_b = EventFactory(club=club_a), EventFactory(club=club_b)
    assert list(directed_by(alice, Event)) == [event_a]
    assert list(directed_by(bob, Event)) == [event_b]
    assert set(directed_by(both, Event)) == {event_a, event_b}
    assert list(directed_by(UserFactory(), Event)) == []
    admin = UserFactory(is_superuser=True, is_staff=True)
    assert set(directed_by(admin, Event)) == {event_a, event_b}


# --- events and players --------------------------------------------------------------------


def test_event_create_makes_a_draft() -> None:
    event = services.event_create(
        club=ClubFactory(),
        name=" Open ",
        date="2026-12-05",
        format="individual",
        deals_per_round=3,
    )
    assert event.status == Event.Status.DRAFT and event.name == "Open"


def test_event_create_rejects_bad_deals_per_round() -> None:
    with pytest.raises(DomainError) as exc:
        services.event_create(
            club=ClubFactory(), name="X", date="2026-12-05", format="individual", deals_per_round=0
        )
    assert (exc.value.code, exc.value.field) == ("deals_per_round_out_of_range", "deals_per_round")
    assert not Event.objects.exists()


def test_a_csv_line_with_a_known_licence_links_that_player_without_renaming_him() -> None:
    known = PlayerFactory(licence="123456", first_name="Jean", last_name="Connu")
    event = EventFactory()
    report = services.players_import_csv(
        event=event, file="last_name;first_name;licence\nAutre;Nom;123456\n"
    )
    assert report.registered == [known] and report.players_matched == 1
    assert Player.objects.get(pk=known.pk).last_name == "Connu"
    assert known.memberships.filter(club=event.club).exists()
    assert Player.objects.count() == 1


def test_register_twice_is_refused() -> None:
    event, player = EventFactory(), PlayerFactory()
    services.entrant_register(event=event, player=player)
    with pytest.raises(DomainError) as exc:
        services.entrant_register(event=event, player=player)
    assert (exc.value.code, exc.value.field) == ("already_registered", "player")
    assert event.entrants.count() == 1


# --- CSV import ----------------------------------------------------------------------------


def test_csv_import_reports_bad_lines_and_imports_good_ones() -> None:
    known = PlayerFactory(licence="0000042", last_name="Connu", first_name="Jean")
    lyon = ClubFactory(name="Tarot Club de Lyon")
    text = (
        "\ufefflast_name;first_name;licence;club;series\n"
        "Martin;Alice;1000001;Tarot Club de Lyon;2\n"
        ";Bob;1000002;Tarot Club de Lyon;3\n"  # line 3: no last name
        "Durand;Chloé;bad licence!;;\n"  # line 4: bad licence
        "Autre;Nom;0000042;;\n"  # line 5: known licence -> the known player
        "\n"
        "Petit;Denis;;Nouveau Club;4\n"  # line 7: an unknown club: no club created
        "Martin;Alice;1000001;;\n"  # line 8: already registered
    ).encode()
    event = EventFactory()
    report = services.players_import_csv(event=event, file=text)
    assert [(e.line,) for e in report.errors] == [(3,), (4,), (8,)]
    assert "last name" in report.errors[0].message
    assert "already registered" in report.errors[2].message
    assert report.players_created == 2 and report.players_matched == 1
    names = [e.player.last_name for e in event.entrants.select_related("player").order_by("slot")]
    assert names == ["Martin", "Connu", "Petit"]
    assert known.entries.get().slot == 2
    # The new players of other clubs join the register of the event's club, without home club:
    # the file writes neither Lyon's players nor a new club.
    for player in Player.objects.filter(last_name__in=["Martin", "Petit"]):
        assert player.club is None
        assert [line.club for line in player.memberships.all()] == [event.club]
    assert not Club.objects.filter(name="Nouveau Club").exists()
    assert not lyon.memberships.exists() and not lyon.players.exists()


def test_csv_import_comma_separator_any_column_order() -> None:
    text = "first_name,last_name,series\nAnne,Zed,1\nBen,Yak,2\n"
    event = EventFactory()
    report = services.players_import_csv(event=event, file=text.encode())
    assert report.ok and len(report.registered) == 2


def test_csv_import_creates_no_club_and_makes_the_event_s_club_its_players_home() -> None:
    event = EventFactory(club=ClubFactory(name="Tarot Club de Brest"))
    text = (
        "last_name;first_name;club\n"
        "Solo;;Club Fantôme\n"  # line 2: no first name
        "Duo;Eve;Club Fantôme\n"
        "Trio;Léa; tarot club de BREST \n"  # the event's club, in another case
        "Quatuor;Max;\n"  # no club: the event's
    )
    report = services.players_import_csv(event=event, file=text.encode())
    assert [e.line for e in report.errors] == [2]
    assert not Club.objects.filter(name="Club Fantôme").exists()
    homes = dict(Player.objects.values_list("last_name", "club"))
    assert homes == {"Duo": None, "Trio": event.club.pk, "Quatuor": event.club.pk}


@pytest.mark.parametrize(
    ("payload", "code", "needle"),
    [
        (b"", "file_empty", "empty"),
        (b"name_of_player;x\nA;B\n", "csv_header", "header"),
        (b"last_name;first_name\nA\x00;B\n", "file_binary", "NUL"),
    ],
)
def test_csv_import_unreadable_file_is_refused(payload: bytes, code: str, needle: str) -> None:
    event = EventFactory()
    with pytest.raises(DomainError) as exc:
        services.players_import_csv(event=event, file=payload)
    assert (exc.value.code, exc.value.field) == (code, "file")
    assert needle in exc.value.message
    assert not event.entrants.exists()


# --- teams ---------------------------------------------------------------------------------


def test_team_create_checks_size_and_membership() -> None:
    event = EventFactory(format=Event.Format.TRIPLETTE)
    entrants = register(event, 4)
    with pytest.raises(DomainError) as exc:
        services.team_create(event=event, name="T", entrants=entrants[:2])
    assert (exc.value.code, exc.value.field) == ("team_size", "members")
    other = EntrantFactory()  # another event's entrant
    with pytest.raises(DomainError) as exc:
        services.team_create(event=event, name="T", entrants=[*entrants[:2], other])
    assert exc.value.code == "member_not_registered"
    team = services.team_create(event=event, name="Les As", entrants=entrants[:3])
    assert set(team.members.all()) == set(entrants[:3])
    with pytest.raises(DomainError) as exc:
        services.team_create(
            event=event, name="Autre", entrants=[entrants[0], entrants[3], entrants[1]]
        )
    assert exc.value.code == "member_in_a_team"
    assert Team.objects.count() == 1


def test_individual_event_has_no_teams() -> None:
    event = EventFactory()
    with pytest.raises(DomainError) as exc:
        services.team_create(event=event, name="T", entrants=register(event, 3))
    assert exc.value.code == "individual_event"


# --- movement ------------------------------------------------------------------------------


def test_movement_set_binds_slots_in_registration_order() -> None:
    event = EventFactory()
    entrants = register(event, 28)
    report = services.event_movement_set(event=event, tables=7)
    assert report.ok
    event.refresh_from_db()
    assert event.movement["tables"] == 7
    assert Table.objects.filter(event=event).count() == 7
    slots = {int(e["id"]): e for e in event.movement["entrants"]}
    bound = {e.pk: e for e in Entrant.objects.filter(event=event)}
    # Registration order is kept: the first registered gets the lowest slot.
    ordered = sorted(bound.values(), key=lambda e: e.slot)
    assert [e.pk for e in ordered] == [e.pk for e in entrants]
    for entrant in ordered:
        assert entrant.line == (slots[entrant.slot]["line"] or "")


def test_movement_with_phantoms_creates_phantom_entrants() -> None:
    event = EventFactory()
    register(event, 26)
    services.event_movement_set(event=event, tables=7)
    phantoms = Entrant.objects.filter(event=event, phantom=True)
    assert phantoms.count() == 2 and all(p.player_id is None for p in phantoms)
    assert Entrant.objects.filter(event=event).count() == 28


def test_movement_with_a_hard_error_is_never_saved() -> None:
    event = ready_event(tables=7)
    stored = copy.deepcopy(event.movement)
    slots_before = list(Entrant.objects.filter(event=event).values_list("pk", "slot"))
    broken = copy.deepcopy(stored)
    first = broken["schedule"][0]["tables"]
    first[0]["seats"]["N"], first[1]["seats"]["N"] = first[1]["seats"]["N"], first[0]["seats"]["N"]
    first[0]["seats"]["E"] = first[1]["seats"]["E"]  # one entrant at two tables
    with pytest.raises(DomainError) as exc:
        services.event_movement_set(event=event, movement=broken)
    assert exc.value.code == "movement_invalid"
    assert "hard errors" in exc.value.message and exc.value.details
    event.refresh_from_db()
    assert event.movement == stored
    assert list(Entrant.objects.filter(event=event).values_list("pk", "slot")) == slots_before


def test_movement_for_another_player_count_is_refused() -> None:
    event = ready_event(tables=7)
    other = EventFactory()
    register(other, 32)
    services.event_movement_set(event=other, tables=8)
    other.refresh_from_db()
    with pytest.raises(DomainError) as exc:
        services.event_movement_set(event=event, movement=other.movement)
    assert exc.value.code == "movement_player_count"
    event.refresh_from_db()
    assert event.movement["tables"] == 7


def test_withdrawal_makes_movement_stale_and_regeneration_rebinds() -> None:
    event = ready_event(tables=7)
    leaving = Entrant.objects.filter(event=event).order_by("slot")[3]
    codes = list(Table.objects.filter(event=event).values_list("code", flat=True))
    services.entrant_withdraw(entrant=leaving)
    event.refresh_from_db()
    assert event.movement is None
    assert "movement" in " ".join(selectors.event_start_problems(event))
    services.event_movement_set(event=event, tables=7)
    event.refresh_from_db()
    assert Entrant.objects.filter(event=event, phantom=False).count() == 27
    assert Entrant.objects.filter(event=event, phantom=True).count() == 1
    # The physical tables (and the codes printed on their cards) are kept.
    assert list(Table.objects.filter(event=event).values_list("code", flat=True)) == codes


def test_late_arrival_makes_movement_stale() -> None:
    event = ready_event(tables=7, players=27)
    services.entrant_register(event=event, player=PlayerFactory())
    event.refresh_from_db()
    assert event.movement is None
    assert not Entrant.objects.filter(event=event, phantom=True).exists()


@pytest.mark.parametrize(
    ("format", "players"), [(Event.Format.TRIPLETTE, 12), (Event.Format.QUADRETTE, 16)]
)
def test_team_movement_binds_team_members(format: str, players: int) -> None:
    event = EventFactory(format=format, deals_per_round=2)
    register(event, players)
    with pytest.raises(DomainError) as exc:
        services.event_movement_set(event=event)
    assert exc.value.code == "no_entrants"  # no team yet
    services.teams_build_in_order(event=event)
    services.event_movement_set(event=event)
    event.refresh_from_db()
    team_of_slot = {int(e["id"]): e["team"] for e in event.movement["entrants"]}
    by_doc_team: dict[int, set[int]] = {}
    for entrant in Entrant.objects.filter(event=event, phantom=False):
        by_doc_team.setdefault(team_of_slot[entrant.slot], set()).add(entrant.team_id)
    # Each movement team is exactly one registered team, and every team is seated.
    assert all(len(teams) == 1 for teams in by_doc_team.values())
    assert len(by_doc_team) == 4
    assert len(set().union(*by_doc_team.values())) == 4
    services.event_deals_generate(event=event, seed=9)
    taker = event.movement.get("taker_seat", "N")
    assert set(Deal.objects.filter(event=event).values_list("taker_seat", flat=True)) == {taker}


# --- deals ---------------------------------------------------------------------------------


def test_deals_generate_numbering_and_seats() -> None:
    event = ready_event(tables=7, dpr=3)
    deals = services.event_deals_generate(event=event, seed=42)
    sets = event.movement["deal_sets"]
    assert len(deals) == sets * 3
    rows = list(Deal.objects.filter(event=event).order_by("number"))
    assert [d.deal_set for d in rows[:7]] == [1, 1, 1, 2, 2, 2, 3]
    assert [d.dealer_seat for d in rows[:5]] == ["N", "E", "S", "W", "N"]
    assert [d.taker_seat for d in rows[:5]] == ["E", "S", "W", "N", "E"]
    assert rules_deal.deal_from_text(rows[0].cards).players == 4
    again = services.event_deals_generate(event=event, seed=42)
    assert [d.cards for d in again] == [d.cards for d in rows]


def test_deals_need_a_movement_and_refuse_prise() -> None:
    event = EventFactory()
    with pytest.raises(DomainError) as exc:
        services.event_deals_generate(event=event, seed=1)
    assert exc.value.code == "movement_missing"
    event = ready_event(tables=7)
    with pytest.raises(DomainError) as exc:
        services.event_deals_generate(event=event, seed=1, imposed_contract="prise")
    assert (exc.value.code, exc.value.field) == ("prise_not_allowed", "imposed_contract")
    with pytest.raises(DomainError) as exc:
        services.event_deals_generate(event=event, seed=1, imposed_contract="pass")
    assert (exc.value.code, exc.value.field) == ("unknown_contract", "imposed_contract")
    assert not Deal.objects.filter(event=event).exists()


def _deals_file(count: int, seed: int = 7) -> str:
    deals = rules_deal.generate_deals(players=4, count=count, seed=seed)
    return "\n\n".join(
        f"# Deal {n}\n{rules_deal.deal_to_text(d)}" for n, d in enumerate(deals, start=1)
    )


def test_deals_import_round_trip() -> None:
    event = ready_event(tables=7)
    count = event.movement["deal_sets"] * event.deals_per_round
    text = _deals_file(count)
    deals = services.event_deals_import(event=event, text=text, imposed_contract="garde")
    assert len(deals) == count
    assert all(d.imposed_contract == "garde" for d in deals)
    expected = rules_deal.generate_deals(players=4, count=count, seed=7)
    assert deals[2].cards == rules_deal.deal_to_text(expected[2])


def test_deals_import_names_the_bad_deal_and_line() -> None:
    event = ready_event(tables=7)
    count = event.movement["deal_sets"] * event.deals_per_round
    services.event_deals_generate(event=event, seed=1)
    before = list(Deal.objects.filter(event=event).values_list("cards", flat=True))
    lines = _deals_file(count).splitlines()
    # Deal 2's header is line 9, its N hand line 11: break a card there.
    assert lines[8] == "# Deal 2" and lines[10].startswith("N: ")
    lines[10] = lines[10].replace("N: ", "N: Z99 ", 1)
    with pytest.raises(DomainError) as exc:
        services.event_deals_import(event=event, text="\n".join(lines))
    assert exc.value.field == "file"
    assert "Deal 2" in exc.value.message and "line 11" in exc.value.message
    with pytest.raises(DomainError) as exc:
        services.event_deals_import(event=event, text=_deals_file(count - 1))
    assert exc.value.code == "deal_count" and "needs" in exc.value.message
    assert list(Deal.objects.filter(event=event).values_list("cards", flat=True)) == before


# --- start and finish ----------------------------------------------------------------------


def test_start_checks_then_runs_then_finishes() -> None:
    event = ready_event(tables=7)
    with pytest.raises(DomainError) as exc:
        services.event_start(event=event)
    assert exc.value.code == "event_not_ready"
    assert any("Deals are missing" in line for line in exc.value.details)
    event.refresh_from_db()
    assert event.status == Event.Status.DRAFT
    services.event_deals_generate(event=event, seed=3)
    Deal.objects.filter(event=event, deal_set=2).first().delete()
    with pytest.raises(DomainError):
        services.event_start(event=event)
    services.event_deals_generate(event=event, seed=3)
    assert services.event_start(event=event).status == Event.Status.RUNNING
    with pytest.raises(DomainError) as exc:
        services.entrant_register(event=event, player=PlayerFactory())
    assert exc.value.code == "event_started"
    with pytest.raises(DomainError) as exc:
        services.event_start(event=event)
    assert exc.value.details == ("The event is not a draft.",)
    assert services.event_finish(event=event).status == Event.Status.FINISHED
    with pytest.raises(DomainError) as exc:
        services.event_finish(event=event)
    assert exc.value.code == "event_not_running"


def test_start_without_movement_is_refused() -> None:
    event = EventFactory()
    register(event, 8)
    with pytest.raises(DomainError) as exc:
        services.event_start(event=event)
    assert "movement" in " ".join(exc.value.details)


# --- vocabulary ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("choices", "enum"),
    [
        (models.Contract, rules_enums.Contract),
        (models.Side, rules_enums.Side),
        (models.PoigneeSize, rules_enums.PoigneeSize),
    ],
)
def test_model_choices_are_the_rules_vocabulary(choices: Any, enum: Any) -> None:
    assert choices.values == [member.value for member in enum]


def test_seats_are_the_duplicate_seats() -> None:
    assert models.Seat.values == list(models.SEATS) == list(DUPLICATE_SEATS)

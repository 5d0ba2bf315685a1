"""Three small finished events whose rankings are computed by hand (``test_results_file``).

Every event plays 2 tables × 1 round (one deal set, two copies): every hand is held at two
tables (or four, in the simultaneous), so each hand's percentage follows from comparing two (or
four) marks (``docs/domain/duplicate.md``: mp = 2 × results below + results equal, top =
2(n − 1)). The outcomes used (FFT scoring, ``docs/domain/tarot-scoring.md``):

- ``MADE_60``: Garde, 2 oudlers, 46 points: made by 5, (25 + 5) × 2 = value 60;
- ``MADE_80``: Garde, 2 oudlers, 56 points: made by 15, (25 + 15) × 2 = value 80;
- ``FAILED_60``: Garde, 2 oudlers, 36 points: failed by 5, value −60.

The taker's mark is 3 × value, each defender's −value. The deals are generated from a seed and
imported with the hand holding the 21 moved to the taker seat (so that two oudlers are always
something the cards allow) and a ``taker:`` line.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from clubs.models import Club, Membership, Player
from rules import deal as rules_deal
from scoring.services import standings_recompute
from tests.factories import ClubFactory
from tournaments import services
from tournaments.models import Deal, Event, Table

DATE = dt.date(2026, 12, 5)
MADE_60 = {"contract": "garde", "oudlers": 2, "points": 46}
MADE_80 = {"contract": "garde", "oudlers": 2, "points": 56}
FAILED_60 = {"contract": "garde", "oudlers": 2, "points": 36}


def two_tables_movement(format: str = "individual") -> dict[str, Any]:
    """Slots 1-4 at table 1 (N, E, S, W), 5-8 at table 2, one round on deal set 1 (a copy each).

    Quadrette: team 1 is slots 1-4 and team 2 slots 5-8, the taker seat N; table 1 seats
    team 1's slot 1 against team 2's slots 6-8, table 2 team 2's slot 5 against slots 2-4
    (the generator's round-robin match for two teams).
    """
    quadrette = format == "quadrette"
    seats = (
        [{"N": 1, "E": 6, "S": 7, "W": 8}, {"N": 5, "E": 2, "S": 3, "W": 4}]
        if quadrette
        else [{"N": 1, "E": 2, "S": 3, "W": 4}, {"N": 5, "E": 6, "S": 7, "W": 8}]
    )
    document: dict[str, Any] = {
        "schema": "duplitarot-movement/1",
        "format": format,
        "kind": "matches" if quadrette else "howell",
        "tables": 2,
        "rounds": 1,
        "seats": ["N", "E", "S", "W"],
        "deal_sets": 1,
        "copies": 2,
        "max_meetings": 1,
        "entrants": [
            {
                "id": slot,
                "line": None,
                "team": (1 if slot <= 4 else 2) if quadrette else None,
                "phantom": False,
            }
            for slot in range(1, 9)
        ],
        "schedule": [
            {
                "round": 1,
                "tables": [
                    {"table": number, "seats": seated, "deal_set": 1, "copy": number}
                    for number, seated in enumerate(seats, start=1)
                ],
                "byes": [],
            }
        ],
    }
    if quadrette:
        document["taker_seat"] = "N"
    return document


def deals_text(takers: Sequence[str], seed: int = 11) -> str:
    """Deals in the text form, deal i's 21 in seat ``takers[i]``'s hand, which takes."""
    blocks = []
    for number, (deal, taker) in enumerate(
        zip(
            rules_deal.generate_deals(players=4, count=len(takers), seed=seed), takers, strict=True
        ),
        1,
    ):
        lines = rules_deal.deal_to_text(deal).split("\n")
        hands = {line[0]: index for index, line in enumerate(lines) if line[:2] in
                 ("N:", "E:", "S:", "W:")}  # fmt: skip
        holder = next(seat for seat, index in hands.items() if " T21" in lines[index] + " ")
        a, b = hands[holder], hands[taker]
        lines[a], lines[b] = f"{holder}:{lines[b][2:]}", f"{taker}:{lines[a][2:]}"
        text = "\n".join(lines).replace("\nN:", f"\ntaker: {taker}\nN:", 1)
        blocks.append(f"# deal {number}\n{text}")
    return "\n\n".join(blocks)


def player(
    first: str,
    last: str,
    licence: str | None,
    club: Club | None,
    *,
    series: str = "",
    registers: Sequence[tuple[Club, str]] = (),
) -> Player:
    """A player of the register: his home ``club`` and his lines (club, category) in registers."""
    created = Player.objects.create(
        first_name=first, last_name=last, licence=licence, club=club, series=series
    )
    for register, category in registers:
        Membership.objects.create(club=register, player=created, category=category)
    return created


def enter(event: Event, outcomes: dict[tuple[int, int], dict[str, Any]]) -> None:
    """Enter ``outcomes`` by (table number, deal number)."""
    for (table_number, deal_number), outcome in outcomes.items():
        services.table_result_enter(
            table=Table.objects.get(event=event, number=table_number),
            deal=Deal.objects.get(event=event, number=deal_number),
            outcome=outcome,
        )


def _prepared(event: Event, players: Sequence[Player], takers: Sequence[str]) -> Event:
    for registered in players:
        services.entrant_register(event=event, player=registered)
    services.event_movement_set(event=event, movement=two_tables_movement(event.format))
    services.event_deals_import(event=Event.objects.get(pk=event.pk), text=deals_text(takers))
    return services.event_start(event=Event.objects.get(pk=event.pk))


def _finished(event: Event) -> Event:
    services.event_finish(event=Event.objects.get(pk=event.pk))
    scoring_id = Event.objects.get(pk=event.pk).scoring_event_id
    standings_recompute(event_id=scoring_id)
    return Event.objects.get(pk=scoring_id)


def clubs() -> tuple[Club, Club]:
    return (
        ClubFactory(name="Tarot Club de Lyon", city="Lyon"),
        ClubFactory(name="Tarot Club de Villeurbanne", city="Villeurbanne"),
    )


def individual_event(*, finish: bool = True) -> Event:
    """8 players, 2 deals (taker N, then E); by hand:

    - deal 1, table 1 MADE_60 (N +180, E/S/W −60), table 2 FAILED_60 (N −180, E/S/W +60):
      every hand of table 1's N and table 2's defenders 100 %, the others 0 %;
    - deal 2, table 1 MADE_60 (E +180, N/S/W −60), table 2 MADE_80 (E +240, N/S/W −80):
      table 2's E and table 1's defenders 100 %, the others 0 %.

    Percentages (mean of two deals): Arnaud (t1 N) 100, Berger (t1 E) 0, Caron (t1 S) 50,
    Dumas (t1 W) 50, Faure (t2 N, a guest) 0, Girard (t2 E) 100, "=Henry" (t2 S) 50, Joly
    (t2 W) 50 less a penalty of 1.50 = 48.50. Ranks: 1, 1, 3, 3, 3, 6, 7, 7.
    """
    lyon, villeurbanne = clubs()
    players = [
        player("Alice", "Arnaud", "0100001", lyon, series="1", registers=[(lyon, "Senior")]),
        player("Bruno", "Berger", "0100002", lyon, series="2", registers=[(lyon, "Vétéran")]),
        # on his home club's register only: its category
        player(
            "Chloé",
            "Caron",
            "0100003",
            villeurbanne,
            series="3",
            registers=[(villeurbanne, "Junior")],
        ),
        # on the register with no category: none
        player("Denis", "Dumas", "0100004", lyon, registers=[(lyon, "")]),
        # a guest: no licence, no club, on no register
        player("Émile", "Faure", None, None),
        # the event club's register comes before the home club's
        player(
            "Gaëlle",
            "Girard",
            "0100006",
            villeurbanne,
            series="2",
            registers=[(villeurbanne, "Senior"), (lyon, "Dame")],
        ),
        # a name a spreadsheet would run as a formula
        player("Hugo", "=Henry", "0100007", lyon, registers=[(lyon, "Senior")]),
        player("Jeanne", "Joly", "0100008", lyon, series="4", registers=[(lyon, "Senior")]),
    ]
    event = services.event_create(club=lyon, name="Individuel de décembre", date=DATE,
                                  format=Event.Format.INDIVIDUAL, deals_per_round=2,
                                  public=True)  # fmt: skip
    event = _prepared(event, players, ["N", "E"])
    enter(event, {(1, 1): MADE_60, (2, 1): FAILED_60, (1, 2): MADE_60, (2, 2): MADE_80})
    joly = event.entrants.get(player__last_name="Joly")
    services.penalty_record(event=event, entrant=joly, points="1.5", reason="Late", actor=None)
    if not finish:
        standings_recompute(event_id=event.pk)
        return Event.objects.get(pk=event.pk)
    return _finished(event)


def quadrette_event() -> Event:
    """Two teams of 4 in one match, 2 deals, the taker always N (team A's Martin at table 1,
    team B's Roux at table 2). By hand:

    - deal 1: table 1 MADE_60 (A's taker +180, B's defenders −60 each), table 2 FAILED_60
      (B's taker −180, A's defenders +60 each): every A hand 100 %, every B hand 0 %; A's net
      = 180 + 3 × 60 = 360 → 8 PM (it reaches 20, 50, 90, 130, 170, 220, 270, 320);
    - deal 2: MADE_60 at both tables: every hand 50 %; A's net = 180 − 3 × 60 = 0 → 0 PM.

    Players: A's 75 (rank 1), B's 25 (rank 5); teams: A 75 %, 8 PM, rank 1; B 25 %, −8 PM.
    Victory points (WBF, 2 deals: B = 15·√2, r = ((√5 − 1)/2)³, 10 + 10·(1 − r^(8/B))/(1 − r)
    = 15.50 for A, 4.50 for B.
    """
    lyon, villeurbanne = clubs()
    members = [
        player("Marc", "Martin", "0200001", lyon, registers=[(lyon, "Senior")]),
        player("Nina", "Noël", "0200002", lyon, registers=[(lyon, "Dame")]),
        player("Olivier", "Olive", "0200003", lyon, registers=[(lyon, "Senior")]),
        player("Paul", "Petit", "0200004", lyon, registers=[(lyon, "Junior")]),
        player("Rémi", "Roux", "0200005", villeurbanne, registers=[(villeurbanne, "Senior")]),
        player("Sarah", "Simon", "0200006", villeurbanne, registers=[(villeurbanne, "Dame")]),
        player("Théo", "Thomas", "0200007", villeurbanne),
        player("Ursule", "Urbain", "0200008", villeurbanne, registers=[(villeurbanne, "Senior")]),
    ]
    event = services.event_create(club=lyon, name="Quadrettes de décembre", date=DATE,
                                  format=Event.Format.QUADRETTE, deals_per_round=2,
                                  public=True)  # fmt: skip
    entrants = [services.entrant_register(event=event, player=member) for member in members]
    services.team_create(event=event, name="Lyon A", entrants=entrants[:4])
    services.team_create(event=event, name="Villeurbanne", entrants=entrants[4:])
    services.event_movement_set(event=event, movement=two_tables_movement("quadrette"))
    services.event_deals_import(event=Event.objects.get(pk=event.pk), text=deals_text("NN"))
    event = services.event_start(event=Event.objects.get(pk=event.pk))
    enter(event, {(1, 1): MADE_60, (2, 1): FAILED_60, (1, 2): MADE_60, (2, 2): MADE_60})
    return _finished(event)


def simultaneous_event(*, finish_all: bool = True) -> tuple[Event, list[Event]]:
    """A simultaneous of two sections (Lyon, Villeurbanne) of 2 tables, one deal (taker N).

    By hand, four tables hold each hand (top = 6): Lyon table 1 MADE_60, Lyon table 2 MADE_80,
    Villeurbanne table 1 FAILED_60, Villeurbanne table 2 MADE_60.

    - N (takers): 240 > 180 = 180 > −180: Lyon t2 100 %, Lyon t1 and Villeurbanne t2 50 %
      (mp 2 + 1 = 3), Villeurbanne t1 0 %;
    - defenders: +60 > −60 = −60 > −80: Villeurbanne t1 100 %, Lyon t1 and Villeurbanne t2
      50 %, Lyon t2 0 %.

    Ranking: 100 % Lyon t2 N and Villeurbanne t1 E, S, W (rank 1); 50 % the eight players of
    Lyon t1 and Villeurbanne t2 (rank 5); 0 % Lyon t2 E, S, W and Villeurbanne t1 N (rank 13).
    """
    lyon, villeurbanne = clubs()
    league = ClubFactory(name="Comité du Lyonnais", city="Lyon")
    parent = services.simultaneous_create(club=league, name="Simultané du Comité", date=DATE,
                                          format=Event.Format.INDIVIDUAL, deals_per_round=1,
                                          rounds=1, public=True, seed=3)  # fmt: skip
    services.event_deals_import(event=parent, text=deals_text("N"))
    names = {
        lyon: ["Abel", "Blanc", "Colin", "David", "Etienne", "Fabre", "Garnier", "Hubert"],
        villeurbanne: ["Ibert", "Jacob", "Klein", "Lacroix", "Mercier", "Nicolas", "Olivier",
                       "Perrin"],
    }  # fmt: skip
    sections = []
    for index, (club, last_names) in enumerate(names.items()):
        section = services.section_create(simultaneous=parent, club=club, name=club.city)
        players = [
            player("Jean", last, f"03{index}{number:04d}", club, registers=[(club, "Senior")])
            for number, last in enumerate(last_names, start=1)
        ]
        for registered in players:
            services.entrant_register(event=section, player=registered)
        services.event_movement_set(event=section, movement=two_tables_movement())
        sections.append(services.event_start(event=Event.objects.get(pk=section.pk)))
    enter(sections[0], {(1, 1): MADE_60, (2, 1): MADE_80})
    enter(sections[1], {(1, 1): FAILED_60, (2, 1): MADE_60})
    for section in sections if finish_all else sections[:1]:
        services.event_finish(event=Event.objects.get(pk=section.pk))
    standings_recompute(event_id=parent.pk)
    return Event.objects.get(pk=parent.pk), [Event.objects.get(pk=s.pk) for s in sections]

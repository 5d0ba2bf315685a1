"""A demo free-deal tournament: 14 players (tables of 5, 5 and 4), 5 parties of 4 deals.

Every deal is dealt and played by the rules engine's heuristic players
(:func:`rules.simulation.simulate_deal`, the tournament's ruleset and the table's size), and
its outcome is entered through :func:`freedeal.services.free_deal_result_enter` like a table
phone would: the marks come from the rules engine, never from this module. The last party is
left half played, so the tournament is "late running" (provisional ranking, an open party).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Any

from clubs.models import Club, Player
from freedeal import outcomes, services
from freedeal.models import FreeDealTournament
from rules.ruleset import traditional
from rules.scoring import outcome_to_dict
from rules.simulation import deal_for_simulation, simulate_deal

DEMO_PLAYERS = 14
DEMO_PARTIES = 5
DEMO_DEALS = 4


def simulated_entry(
    tournament: FreeDealTournament, seated: tuple[int, ...], deal: int, rng: random.Random
) -> dict[str, Any]:
    """A table's entry for one deal, played by the simulator (seat i is ``seated[i]``)."""
    ruleset = outcomes.ruleset_of(tournament)
    size = len(seated)
    dealer = (deal - 1) % size
    played = simulate_deal(
        deal_for_simulation(size, rng, dealer, ruleset), rng, whim=0.1, ruleset=ruleset
    )
    if played.record is None or played.outcome is None:
        return {"contract": outcomes.PASSED}
    data: dict[str, Any] = dict(outcome_to_dict(played.outcome))
    data.pop("players", None)
    data.pop("partner", None)
    data["taker"] = seated[played.record.taker]
    if size == 5 and ruleset.calls_king:
        partner = played.record.partner
        data["partner"] = seated[partner if partner is not None else played.record.taker]
    return data


def build_demo(
    *, club: Club, players: Sequence[Player], seed: int, today: datetime.date
) -> FreeDealTournament:
    """Create and play the demo tournament (public, traditional rules, late running)."""
    if len(players) < DEMO_PLAYERS:
        raise ValueError(f"the free-deal demo needs {DEMO_PLAYERS} players")
    rng = random.Random(seed)
    tournament = services.free_deal_create(
        club=club,
        name="Tournoi de donnes libres",
        date=today,
        ruleset=traditional(pousse_multiplier=2).to_dict(),
        parties=DEMO_PARTIES,
        deals_per_party=DEMO_DEALS,
        public=True,
        seed=seed,
    )
    for player in players[:DEMO_PLAYERS]:
        services.free_deal_player_register(tournament=tournament, player=player)
    tournament = services.free_deal_start(tournament=tournament)
    tables = list(tournament.tables.order_by("number"))
    for party in range(1, DEMO_PARTIES + 1):
        last = party == DEMO_PARTIES
        for table in tables:
            seated = tournament.table_players(party, table.number)
            # The last party is under way: the first table is done, the others half-way.
            deals = DEMO_DEALS if not last or table.number == 1 else DEMO_DEALS // 2
            for deal in range(1, deals + 1):
                services.free_deal_result_enter(
                    table=table, deal=deal, data=simulated_entry(tournament, seated, deal, rng)
                )
        if not last:
            services.free_deal_party_close(tournament=tournament)
        tournament.refresh_from_db()
    return tournament

"""Reads of the tournaments app: one place for every query the pages, printouts and API need.

``setup`` (events directed, entrants, teams, players, deals, readiness to start),
``printouts`` (table cards, route cards, deal-set routes), ``results`` (what a table plays
round by round, a stored outcome, the entry grid of a round, results, their history,
penalties, the tables a phone code opens), ``sections`` (a simultaneous's sections and their
progress). Views make no ORM call: every read they need is here. Access rules live in
:mod:`clubs.access`; the movement is read through ``Event.schedule``. Import from here:
``from tournaments import selectors``.
"""

from tournaments.models import TEAM_SIZES  # transitional: views read Event.team_size instead
from tournaments.selectors.printouts import (
    event_deal_set_routes,
    event_route_cards,
    event_table_cards,
)
from tournaments.selectors.results import (
    RoundGrid,
    TableOutline,
    TableRound,
    event_penalties,
    event_result_changes,
    event_results,
    phone_tables,
    result_history,
    result_outcome,
    result_with_seats,
    round_grid,
    stored_result,
    table_deal_result,
    table_outline,
    table_results,
    table_rounds,
)
from tournaments.selectors.sections import (
    SectionRow,
    section_count,
    section_rows,
    simultaneous_of,
)
from tournaments.selectors.setup import (
    EventSetupState,
    deal_by_number,
    deals_of_set,
    event_deal_count,
    event_deals,
    event_entrant,
    event_entrants,
    event_has_movement,
    event_real_entrants,
    event_register_players,
    event_setup_state,
    event_start_problems,
    event_tables,
    event_team,
    event_teams,
    events_directed_with_counts,
    player_by_pk,
    players_search,
    table_by_number,
)

__all__ = [
    "TEAM_SIZES",
    "EventSetupState",
    "RoundGrid",
    "SectionRow",
    "TableOutline",
    "TableRound",
    "deal_by_number",
    "deals_of_set",
    "event_deal_count",
    "event_deal_set_routes",
    "event_deals",
    "event_entrant",
    "event_entrants",
    "event_has_movement",
    "event_penalties",
    "event_real_entrants",
    "event_register_players",
    "event_result_changes",
    "event_results",
    "event_route_cards",
    "event_setup_state",
    "event_start_problems",
    "event_table_cards",
    "event_tables",
    "event_team",
    "event_teams",
    "events_directed_with_counts",
    "phone_tables",
    "player_by_pk",
    "players_search",
    "result_history",
    "result_outcome",
    "result_with_seats",
    "round_grid",
    "section_count",
    "section_rows",
    "simultaneous_of",
    "stored_result",
    "table_by_number",
    "table_deal_result",
    "table_outline",
    "table_results",
    "table_rounds",
]

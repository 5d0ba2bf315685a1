"""Writes of the tournaments app: keyword-only, typed, atomic service functions.

One module per entity: ``events`` (create, update, start, finish), ``registration`` (players,
entrants, CSV import), ``teams``, ``movement``, ``deals``, ``results`` (table results, director
decisions, penalties), ``sections`` (simultaneous tournaments and their sections), ``imports``
(a section's results from a JSON or CSV file); ``common`` holds what the setup services share
(event lock, draft rule).
Every refusal raises :class:`tournaments.errors.DomainError` (code, translated message,
field, details) and leaves the database as it was. Reads live in :mod:`tournaments.selectors`.

Import from here, whatever module a service lives in: ``from tournaments import services``.
"""

from clubs.errors import DomainError
from tournaments.errors import ResultConflict
from tournaments.services.deals import deal_seats_set, event_deals_generate, event_deals_import
from tournaments.services.events import event_create, event_finish, event_start, event_update
from tournaments.services.imports import ResultsImportReport, section_results_import
from tournaments.services.movement import (
    event_movement_build,
    event_movement_propose,
    event_movement_set,
)
from tournaments.services.registration import (
    ImportLineError,
    ImportReport,
    entrant_register,
    entrant_withdraw,
    entrants_register,
    players_import_csv,
)
from tournaments.services.results import (
    penalty_record,
    table_result_assign_artificial,
    table_result_confirm,
    table_result_director_correct,
    table_result_enter,
    table_result_mark_not_played,
    table_result_table_correct,
)
from tournaments.services.sections import (
    is_simultaneous,
    section_create,
    section_delete,
    section_movement_problem,
    section_start_problems,
    simultaneous_create,
    simultaneous_rounds,
)
from tournaments.services.teams import team_create, team_delete, teams_build_in_order

__all__ = [
    "DomainError",
    "ImportLineError",
    "ImportReport",
    "ResultConflict",
    "ResultsImportReport",
    "deal_seats_set",
    "entrant_register",
    "entrant_withdraw",
    "entrants_register",
    "event_create",
    "event_deals_generate",
    "event_deals_import",
    "event_finish",
    "event_movement_build",
    "event_movement_propose",
    "event_movement_set",
    "event_start",
    "event_update",
    "is_simultaneous",
    "penalty_record",
    "players_import_csv",
    "section_create",
    "section_delete",
    "section_movement_problem",
    "section_results_import",
    "section_start_problems",
    "simultaneous_create",
    "simultaneous_rounds",
    "table_result_assign_artificial",
    "table_result_confirm",
    "table_result_director_correct",
    "table_result_enter",
    "table_result_mark_not_played",
    "table_result_table_correct",
    "team_create",
    "team_delete",
    "teams_build_in_order",
]

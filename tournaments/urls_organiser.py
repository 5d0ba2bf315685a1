"""Organiser screens (login required): event setup step by step, and the printouts.

``event`` dispatches on what the event is (``views.sections.event_home``): a simultaneous's
page with its sections, a section's dashboard, or the usual event dashboard.
"""

from django.urls import path

from tournaments.views import organiser, printing, sections

urlpatterns = [
    path("", organiser.home, name="home"),
    path("events/new/", organiser.event_create, name="event_create"),
    path(
        "events/new-simultaneous/",
        sections.simultaneous_create,
        name="simultaneous_create",
    ),
    path("events/<int:pk>/", sections.event_home, name="event"),
    path("events/<int:pk>/edit/", organiser.event_edit, name="event_edit"),
    path("events/<int:pk>/start/", organiser.event_start, name="event_start"),
    path("events/<int:pk>/finish/", organiser.event_finish, name="event_finish"),
    path("events/<int:pk>/players/", organiser.players, name="players"),
    path("events/<int:pk>/players/add/", organiser.player_add, name="player_add"),
    path(
        "events/<int:pk>/players/register/",
        organiser.player_register,
        name="player_register",
    ),
    path("events/<int:pk>/players/import/", organiser.players_import, name="players_import"),
    path(
        "events/<int:pk>/entrants/<int:entrant_pk>/withdraw/",
        organiser.entrant_withdraw,
        name="entrant_withdraw",
    ),
    path(
        "events/<int:pk>/entrants/<int:entrant_pk>/substitute/",
        organiser.entrant_substitute,
        name="entrant_substitute",
    ),
    path(
        "events/<int:pk>/entrants/<int:entrant_pk>/forfeit/",
        organiser.entrant_forfeit,
        name="entrant_forfeit",
    ),
    path("events/<int:pk>/teams/", organiser.teams, name="teams"),
    path("events/<int:pk>/teams/auto/", organiser.teams_auto, name="teams_auto"),
    path(
        "events/<int:pk>/teams/<int:team_pk>/delete/",
        organiser.team_delete,
        name="team_delete",
    ),
    path("events/<int:pk>/movement/", organiser.movement, name="movement"),
    path(
        "events/<int:pk>/movement/import/",
        organiser.movement_import,
        name="movement_import",
    ),
    path("events/<int:pk>/deals/", organiser.deals, name="deals"),
    path("events/<int:pk>/deals/import/", organiser.deals_import, name="deals_import"),
    path("events/<int:pk>/deals/<int:number>/seats/", organiser.deal_seats, name="deal_seats"),
    path("events/<int:pk>/sections/add/", sections.section_add, name="section_add"),
    path("events/<int:pk>/section/delete/", sections.section_delete, name="section_delete"),
    path(
        "events/<int:pk>/simultaneous/deals/",
        sections.simultaneous_deals,
        name="simultaneous_deals",
    ),
    path(
        "events/<int:pk>/simultaneous/deals/import/",
        sections.simultaneous_deals_import,
        name="simultaneous_deals_import",
    ),
    path("events/<int:pk>/results/import/", sections.results_import, name="results_import"),
    path("events/<int:pk>/print/tables/", printing.table_cards, name="print_tables"),
    path("events/<int:pk>/print/routes/", printing.route_cards, name="print_routes"),
    path(
        "events/<int:pk>/print/deal-sets/",
        printing.deal_set_routes,
        name="print_deal_sets",
    ),
    path("events/<int:pk>/print/hands/", printing.hand_diagrams, name="print_hands"),
    path(
        "events/<int:pk>/print/score-sheets/",
        printing.score_sheets_index,
        name="print_score_sheets_index",
    ),
    path(
        "events/<int:pk>/print/score-sheets/round/<int:round_number>/",
        printing.score_sheets,
        name="print_score_sheets",
    ),
    path(
        "events/<int:pk>/print/score-sheets/round/<int:round_number>/table/<int:table_number>/",
        printing.score_sheets,
        name="print_score_sheet",
    ),
]

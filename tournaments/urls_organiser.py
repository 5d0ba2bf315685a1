"""Organiser screens (login required): event setup step by step, and the printouts."""

from django.urls import path

from tournaments.views import organiser, printing

urlpatterns = [
    path("", organiser.home, name="organiser-home"),
    path("events/new/", organiser.event_create, name="organiser-event-create"),
    path("events/<int:pk>/", organiser.event_dashboard, name="organiser-event"),
    path("events/<int:pk>/edit/", organiser.event_edit, name="organiser-event-edit"),
    path("events/<int:pk>/start/", organiser.event_start, name="organiser-event-start"),
    path("events/<int:pk>/finish/", organiser.event_finish, name="organiser-event-finish"),
    path("events/<int:pk>/players/", organiser.players, name="organiser-players"),
    path("events/<int:pk>/players/add/", organiser.player_add, name="organiser-player-add"),
    path(
        "events/<int:pk>/players/register/",
        organiser.player_register,
        name="organiser-player-register",
    ),
    path(
        "events/<int:pk>/players/import/", organiser.players_import, name="organiser-players-import"
    ),
    path(
        "events/<int:pk>/entrants/<int:entrant_pk>/withdraw/",
        organiser.entrant_withdraw,
        name="organiser-entrant-withdraw",
    ),
    path("events/<int:pk>/teams/", organiser.teams, name="organiser-teams"),
    path("events/<int:pk>/teams/auto/", organiser.teams_auto, name="organiser-teams-auto"),
    path(
        "events/<int:pk>/teams/<int:team_pk>/delete/",
        organiser.team_delete,
        name="organiser-team-delete",
    ),
    path("events/<int:pk>/movement/", organiser.movement, name="organiser-movement"),
    path(
        "events/<int:pk>/movement/import/",
        organiser.movement_import,
        name="organiser-movement-import",
    ),
    path("events/<int:pk>/deals/", organiser.deals, name="organiser-deals"),
    path("events/<int:pk>/deals/import/", organiser.deals_import, name="organiser-deals-import"),
    path("events/<int:pk>/print/tables/", printing.table_cards, name="organiser-print-tables"),
    path("events/<int:pk>/print/routes/", printing.route_cards, name="organiser-print-routes"),
    path(
        "events/<int:pk>/print/deal-sets/",
        printing.deal_set_routes,
        name="organiser-print-deal-sets",
    ),
    path("events/<int:pk>/print/hands/", printing.hand_diagrams, name="organiser-print-hands"),
]

"""Public pages (localised: French at "/", English at "/en/") and exports of an event, and the
results file for the league (its organisers only: ``scoring.views.results_file``)."""

from django.urls import path

from scoring.views import exports, paper, results_file
from scoring.views.public import deals, events, movement, players, ranking, teams

app_name = "public"

urlpatterns = [
    path("", events.home, name="home"),
    path("events/<int:event_id>/", events.event_home, name="event"),
    path("events/<int:event_id>/ranking/", ranking.ranking, name="ranking"),
    path(
        "events/<int:event_id>/ranking/projector/",
        ranking.ranking,
        {"projector": True},
        name="ranking_projector",
    ),
    path("events/<int:event_id>/deals/", deals.deal_list, name="deals"),
    path("events/<int:event_id>/deals/<int:number>/", deals.deal_sheet, name="deal"),
    path("events/<int:event_id>/players/", players.player_list, name="players"),
    path("events/<int:event_id>/players/<int:entrant_id>/", players.score_card, name="scorecard"),
    path("events/<int:event_id>/teams/", teams.team_ranking, name="teams"),
    path("events/<int:event_id>/matches/", teams.match_sheets, name="matches"),
    path("events/<int:event_id>/movement/", movement.movement, name="movement"),
    # Paper for the room (organisers): the ranking for the wall, the frequency sheets.
    path("organiser/events/<int:pk>/print/ranking/", paper.print_ranking, name="print_ranking"),
    path(
        "organiser/events/<int:pk>/print/frequencies/",
        paper.print_frequencies,
        name="print_frequencies",
    ),
    path(
        "events/<int:event_id>/export/ranking.<str:fmt>",
        exports.ranking_export,
        name="export_ranking",
    ),
    path(
        "events/<int:event_id>/export/results.<str:fmt>",
        exports.results_export,
        name="export_results",
    ),
    # The results file for the league (the event's organisers only): .json or .csv.
    path(
        "organiser/events/<int:pk>/results-file.<str:fmt>",
        results_file.results_file,
        name="organiser_results_file",
    ),
]

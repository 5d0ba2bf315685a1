"""Public pages (localised: French at "/", English at "/en/") and exports of an event."""

from django.urls import path

from scoring.views import exports, public

app_name = "public"

urlpatterns = [
    path("", public.home, name="home"),
    path("events/<int:event_id>/", public.event_home, name="event"),
    path("events/<int:event_id>/ranking/", public.ranking, name="ranking"),
    path(
        "events/<int:event_id>/ranking/projector/",
        public.ranking_projector,
        name="ranking_projector",
    ),
    path("events/<int:event_id>/deals/", public.deal_list, name="deals"),
    path("events/<int:event_id>/deals/<int:number>/", public.deal_sheet, name="deal"),
    path("events/<int:event_id>/players/", public.player_list, name="players"),
    path("events/<int:event_id>/players/<int:entrant_id>/", public.score_card, name="scorecard"),
    path("events/<int:event_id>/teams/", public.team_ranking, name="teams"),
    path("events/<int:event_id>/matches/", public.match_sheets, name="matches"),
    path("events/<int:event_id>/movement/", public.movement, name="movement"),
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
]

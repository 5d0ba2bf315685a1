"""Pages of the teammatch app (localised); URL names in the ``teammatch`` namespace.

Public: ``cups/`` and below; room phones: ``cups/room/<code>/`` and below (every one looked
up through ``clubs.phone_codes.phone_page``); organiser screens: ``organiser/cups/`` and below.
"""

from django.urls import path

from teammatch import views

app_name = "teammatch"

_match = "organiser/cups/<int:cup_id>/matches/<int:match_id>/"

urlpatterns = [
    path("cups/", views.cup_index, name="index"),
    path("cups/room/<str:code>/", views.room_phone, name="room"),
    path("cups/room/<str:code>/deals/<int:number>/", views.room_deal_save, name="room_deal"),
    path(
        "cups/room/<str:code>/deals/<int:number>/correct/",
        views.room_deal_correct,
        name="room_deal_correct",
    ),
    path(
        "cups/room/<str:code>/deals/<int:number>/preview/",
        views.room_deal_preview,
        name="room_deal_preview",
    ),
    path("cups/<int:cup_id>/", views.cup_bracket, name="bracket"),
    path("cups/<int:cup_id>/matches/<int:match_id>/", views.match_page, name="match"),
    path("organiser/cups/", views.organiser_list, name="organiser_list"),
    path("organiser/cups/new/", views.organiser_create, name="organiser_create"),
    path("organiser/cups/<int:cup_id>/", views.organiser_cup, name="organiser_cup"),
    path(
        "organiser/cups/<int:cup_id>/teams/<int:team_id>/",
        views.organiser_team,
        name="organiser_team",
    ),
    path("organiser/cups/<int:cup_id>/start/", views.organiser_start, name="organiser_start"),
    path(
        "organiser/cups/<int:cup_id>/late/<int:arrival>/handled/",
        views.organiser_late_handled,
        name="organiser_late_handled",
    ),
    path(
        "organiser/cups/<int:cup_id>/finish/",
        views.organiser_finish_cup,
        name="organiser_finish_cup",
    ),
    path(_match, views.organiser_match, name="organiser_match"),
    path(f"{_match}lineup/<int:quarter>/", views.organiser_lineup, name="organiser_lineup"),
    path(
        f"{_match}quarters/<int:quarter>/close/",
        views.organiser_close_quarter,
        name="organiser_close_quarter",
    ),
    path(f"{_match}finish/", views.organiser_finish_match, name="organiser_finish_match"),
    path(
        f"{_match}deals/<int:number>/<str:room>/",
        views.organiser_result,
        name="organiser_result",
    ),
]

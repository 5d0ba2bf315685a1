"""REST API v1 routes of the teammatch app (included in the ``api`` namespace)."""

from django.urls import path

from teammatch.api import CupBracketView, RoomResultCorrectView, RoomResultsView, RoomView

urlpatterns = [
    path("cups/<int:cup_id>/bracket/", CupBracketView.as_view(), name="cup_bracket"),
    path("cups/rooms/<str:code>/", RoomView.as_view(), name="cup_room"),
    path("cups/rooms/<str:code>/results/", RoomResultsView.as_view(), name="cup_room_results"),
    path(
        "cups/rooms/<str:code>/results/correct/",
        RoomResultCorrectView.as_view(),
        name="cup_room_result_correct",
    ),
]

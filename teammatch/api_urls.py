"""REST API v1 routes of the teammatch app (included in the ``api`` namespace)."""

from django.urls import path

from teammatch.api import CupBracketView

urlpatterns = [
    path("cups/<int:cup_id>/bracket/", CupBracketView.as_view(), name="cup_bracket"),
]

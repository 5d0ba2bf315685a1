"""REST API v1 routes (events, entrants, movement, deals, results, rankings).

Included by ``config/urls.py`` at ``/api/v1/`` with the namespace ``api``; the tournaments
routes come from ``tournaments/api/urls.py`` (tournaments never imports scoring).
"""

from django.urls import include, path

from scoring.api import views

urlpatterns = [
    path("", include("tournaments.api.urls")),
    path("events/<int:event_id>/rankings/", views.RankingView.as_view(), name="event_rankings"),
    path(
        "events/<int:event_id>/deals/<int:number>/hand-scores/",
        views.DealHandScoresView.as_view(),
        name="deal_hand_scores",
    ),
]

"""REST API v1 routes of the freedeal app (included in the ``api`` namespace)."""

from django.urls import path

from freedeal.api import FreeDealRankingView

urlpatterns = [
    path("free-deal/<int:pk>/ranking/", FreeDealRankingView.as_view(), name="free_deal_ranking"),
]

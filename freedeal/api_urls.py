"""REST API v1 routes of the freedeal app (included in the ``api`` namespace)."""

from django.urls import path

from freedeal.api import (
    FreeDealRankingView,
    FreeDealTableCorrectView,
    FreeDealTableResultsView,
    FreeDealTableView,
)

urlpatterns = [
    path("free-deal/<int:pk>/ranking/", FreeDealRankingView.as_view(), name="free_deal_ranking"),
    path("free-deal/tables/<str:code>/", FreeDealTableView.as_view(), name="free_deal_table"),
    path(
        "free-deal/tables/<str:code>/results/",
        FreeDealTableResultsView.as_view(),
        name="free_deal_table_results",
    ),
    path(
        "free-deal/tables/<str:code>/results/<int:deal>/correct/",
        FreeDealTableCorrectView.as_view(),
        name="free_deal_table_correct",
    ),
]

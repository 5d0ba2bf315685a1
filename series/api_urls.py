"""Series routes of the REST API v1 (included by ``config/urls.py`` in the ``api`` namespace)."""

from django.urls import path

from series.api import SeriesRankingView

urlpatterns = [
    path("series/<int:series_id>/ranking/", SeriesRankingView.as_view(), name="series_ranking"),
]

"""Routes of the tournaments API (included by ``scoring/api_urls.py`` under ``/api/v1/``)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments.api import views

router = SimpleRouter()
router.register("events", views.EventViewSet, basename="event")

urlpatterns = [
    *router.urls,
    path("events/<int:event_id>/entrants/", views.EntrantListView.as_view(), name="event-entrants"),
    path("events/<int:event_id>/movement/", views.MovementView.as_view(), name="event-movement"),
    path("events/<int:event_id>/deals/", views.DealListView.as_view(), name="event-deals"),
    path("events/<int:event_id>/results/", views.EventResultsView.as_view(), name="event-results"),
    path("tables/<str:code>/", views.TableView.as_view(), name="table"),
    path("tables/<str:code>/results/", views.TableResultsView.as_view(), name="table-results"),
]

"""Routes of the tournaments API (included by ``scoring/api_urls.py`` under ``/api/v1/``)."""

from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("events/", views.EventViewSet.as_view({"get": "list"}), name="events"),
    path("events/<int:pk>/", views.EventViewSet.as_view({"get": "retrieve"}), name="event"),
    path("events/<int:event_id>/entrants/", views.EntrantListView.as_view(), name="event_entrants"),
    path("events/<int:event_id>/movement/", views.MovementView.as_view(), name="event_movement"),
    path("events/<int:event_id>/deals/", views.DealListView.as_view(), name="event_deals"),
    path("events/<int:event_id>/results/", views.EventResultsView.as_view(), name="event_results"),
    path("tables/<str:code>/", views.TableView.as_view(), name="table"),
    path("tables/<str:code>/results/", views.TableResultsView.as_view(), name="table_results"),
]

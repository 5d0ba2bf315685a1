"""Series pages (localised): the public ranking and export under ``series/``, the organiser's
screens under ``organiser/series/``; URL names in the ``series`` namespace."""

from django.urls import path

from series import views

app_name = "series"

urlpatterns = [
    path("series/", views.series_index, name="index"),
    path("series/<int:series_id>/", views.series_page, name="ranking"),
    path("series/<int:series_id>/export/ranking.<str:fmt>", views.series_export, name="export"),
    path("organiser/series/", views.organiser_list, name="organiser_list"),
    path("organiser/series/new/", views.organiser_create, name="organiser_create"),
    path("organiser/series/<int:series_pk>/", views.organiser_edit, name="organiser_edit"),
    path(
        "organiser/series/<int:series_pk>/events/add/",
        views.organiser_event_add,
        name="organiser_event_add",
    ),
    path(
        "organiser/series/<int:series_pk>/events/<int:event_pk>/remove/",
        views.organiser_event_remove,
        name="organiser_event_remove",
    ),
    path(
        "organiser/series/<int:series_pk>/delete/",
        views.organiser_delete,
        name="organiser_delete",
    ),
]

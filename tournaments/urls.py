"""Organiser screens and table entry (public standings pages live in ``scoring``)."""

from django.urls import include, path

from tournaments.urls_entry import organiser_urlpatterns as entry_organiser_urlpatterns

urlpatterns = [
    path("organiser/", include("tournaments.urls_organiser")),
    path("organiser/", include(entry_organiser_urlpatterns)),
    path("table/", include("tournaments.urls_entry")),
]

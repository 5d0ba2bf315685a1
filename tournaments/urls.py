"""Organiser screens and table entry (public standings pages live in ``scoring``)."""

from django.urls import include, path

urlpatterns = [
    path("organiser/", include("tournaments.urls_organiser")),
    path("table/", include("tournaments.urls_entry")),
]

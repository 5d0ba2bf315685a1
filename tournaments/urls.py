"""Organiser screens and table entry (public standings pages live in ``scoring``).

URL names are namespaced and snake_case: ``organiser:<name>`` for the organiser's screens
(set-up, printouts, the entry grid and the director's actions, all under ``organiser/``) and
``table:<name>`` for the table phones (under ``table/``, reached by the table code).
"""

from django.urls import include, path

from tournaments import urls_entry, urls_organiser

urlpatterns = [
    path(
        "organiser/",
        include(
            (urls_organiser.urlpatterns + urls_entry.organiser_urlpatterns, "organiser"),
            namespace="organiser",
        ),
    ),
    path("table/", include((urls_entry.urlpatterns, "table"), namespace="table")),
]

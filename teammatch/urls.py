"""Pages of the teammatch app (localised); URL names in the ``teammatch`` namespace."""

from django.urls import path  # noqa: F401

app_name = "teammatch"

urlpatterns: list = []

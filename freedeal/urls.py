"""Pages of the freedeal app (localised); URL names in the ``freedeal`` namespace."""

from django.urls import path  # noqa: F401

app_name = "freedeal"

urlpatterns: list = []

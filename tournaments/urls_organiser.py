"""Organiser screens (login required)."""

urlpatterns: list = []

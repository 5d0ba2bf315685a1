"""Admin of the clubs and the player register (the federation/superuser back office)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "player_count")
    search_fields = ("name", "city")
    filter_horizontal = ("organisers",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(_player_count=Count("players"))

    @admin.display(description=_("players"), ordering="_player_count")
    def player_count(self, obj: Club) -> int:
        return obj._player_count  # type: ignore[attr-defined]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("last_name", "first_name", "licence", "club", "series")
    list_filter = ("series", "club")
    search_fields = ("last_name", "first_name", "licence")
    list_select_related = ("club",)
    autocomplete_fields = ("club",)

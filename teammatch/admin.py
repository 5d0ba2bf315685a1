"""Admin of the cups (the federation/superuser back office; organisers use their screens).

The room results' history is read-only here, as every result history of the project.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from teammatch.models import (
    Cup,
    CupMatch,
    CupTeam,
    CupTeamPlayer,
    QuarterLineup,
    RoomResult,
    RoomResultChange,
)


class CupTeamPlayerInline(admin.TabularInline):
    model = CupTeamPlayer
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Cup)
class CupAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "status", "public"]
    list_filter = ["status", "public"]
    search_fields = ["name", "club__name"]


@admin.register(CupTeam)
class CupTeamAdmin(admin.ModelAdmin):
    list_display = ["name", "cup", "seed"]
    search_fields = ["name", "cup__name"]
    inlines = [CupTeamPlayerInline]


@admin.register(CupMatch)
class CupMatchAdmin(admin.ModelAdmin):
    list_display = ["cup", "round", "slot", "team_a", "team_b", "winner", "status"]
    list_filter = ["status"]


@admin.register(QuarterLineup)
class QuarterLineupAdmin(admin.ModelAdmin):
    list_display = ["match", "quarter", "closed"]


@admin.register(RoomResult)
class RoomResultAdmin(admin.ModelAdmin):
    list_display = [
        "match",
        "deal",
        "room",
        "contract",
        "value",
        "taker_mark",
        "entered_by_label",
        "entered_via",
    ]


@admin.register(RoomResultChange)
class RoomResultChangeAdmin(admin.ModelAdmin):
    list_display = ["result", "action", "actor_label", "at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

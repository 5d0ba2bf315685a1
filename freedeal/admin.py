"""Free-deal tournaments in the Django admin (staff): read mostly; results and their history
are written by ``freedeal.services`` only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from freedeal.models import (
    FreeDealChange,
    FreeDealPlayer,
    FreeDealResult,
    FreeDealTable,
    FreeDealTournament,
)


class PlayerInline(admin.TabularInline):
    model = FreeDealPlayer
    extra = 0
    raw_id_fields = ("player",)


class TableInline(admin.TabularInline):
    model = FreeDealTable
    extra = 0
    readonly_fields = ("number", "size", "code")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(FreeDealTournament)
class FreeDealTournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "club", "status", "public", "parties", "deals_per_party")
    list_filter = ("status", "public", "club")
    search_fields = ("name",)
    readonly_fields = ("seating", "closed_parties", "status")
    inlines = [PlayerInline, TableInline]


@admin.register(FreeDealResult)
class FreeDealResultAdmin(admin.ModelAdmin):
    list_display = ("tournament", "party", "table", "deal", "contract", "taker", "value")
    list_filter = ("tournament",)
    readonly_fields = [f.name for f in FreeDealResult._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(FreeDealChange)
class FreeDealChangeAdmin(admin.ModelAdmin):
    list_display = ("tournament", "result", "action", "actor_label", "at")
    readonly_fields = [f.name for f in FreeDealChange._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

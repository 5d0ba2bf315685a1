"""Admin for the tournaments models: lists with useful columns, filters, search and inlines.

The admin is the federation/superuser back office; organisers work in the organiser screens.
Results keep their history: the change history is read-only here.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    Deal,
    Entrant,
    Event,
    Penalty,
    ResultChange,
    Table,
    TableResult,
    Team,
)


class TeamInline(admin.TabularInline):
    model = Team
    extra = 0


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    readonly_fields = ("code",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "club", "format", "status", "public", "deals_per_round")
    list_filter = ("status", "format", "public", "club")
    search_fields = ("name", "club__name")
    date_hierarchy = "date"
    list_select_related = ("club",)
    # The movement, the status, the format and what the deals and results depend on change
    # only through the services (the validator, the start and finish rules, the recompute).
    readonly_fields = (
        "format",
        "status",
        "movement",
        "deals_per_round",
        "seed",
        "simultaneous",
        "results_version",
        "created_at",
        "updated_at",
    )
    inlines = (TeamInline, TableInline)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # events are created by the organiser pages (the services)


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = (
        "event",
        "number",
        "deal_set",
        "dealer_seat",
        "taker_seat",
        "imposed_contract",
        "has_cards",
    )
    list_filter = ("taker_seat", "imposed_contract")
    list_select_related = ("event",)
    search_fields = ("event__name",)

    @admin.display(description=_("cards"), boolean=True)
    def has_cards(self, obj: Deal) -> bool:
        return bool(obj.cards)


class EntrantInline(admin.TabularInline):
    model = Entrant
    fk_name = "team"
    extra = 0
    fields = ("slot", "player", "line", "phantom")
    raw_id_fields = ("player",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "name")
    list_select_related = ("event",)
    search_fields = ("name", "event__name")
    inlines = (EntrantInline,)


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("event", "slot", "player", "team", "line", "phantom")
    list_filter = ("phantom", "line")
    list_select_related = ("event", "player", "team")
    search_fields = ("player__last_name", "player__first_name", "player__licence", "event__name")
    raw_id_fields = ("player", "team")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "code")
    list_select_related = ("event",)
    search_fields = ("event__name", "code")


class ReadOnlyAdmin(admin.ModelAdmin):
    """Results, penalties and their history change only through the services (the organiser's
    entry screens): they compute the marks, keep the history and trigger the recompute."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ResultChangeInline(admin.TabularInline):
    model = ResultChange
    extra = 0
    can_delete = False
    readonly_fields = ("action", "actor", "actor_label", "at", "reason", "before", "after")
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(TableResult)
class TableResultAdmin(ReadOnlyAdmin):
    list_display = (
        "event",
        "deal",
        "table",
        "round_number",
        "kind",
        "taker_seat",
        "contract",
        "value",
        "director_assigned",
        "confirmed",
    )
    list_filter = ("kind", "contract", "director_assigned", "confirmed")
    list_select_related = ("event", "deal", "table")
    search_fields = ("event__name",)
    raw_id_fields = ("deal", "table", "seat_n", "seat_e", "seat_s", "seat_w", "entered_by")
    inlines = (ResultChangeInline,)


@admin.register(ResultChange)
class ResultChangeAdmin(ReadOnlyAdmin):
    """Append-only history: visible, never edited."""

    list_display = ("event", "result", "action", "actor_label", "at")
    list_filter = ("action",)
    list_select_related = ("event", "result__deal", "result__table")
    search_fields = ("event__name", "actor_label", "reason")


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    list_display = ("event", "entrant", "team", "points", "created_by", "created_at")
    list_select_related = ("event", "entrant__player", "team", "created_by")
    search_fields = ("event__name", "reason")
    raw_id_fields = ("entrant", "team")

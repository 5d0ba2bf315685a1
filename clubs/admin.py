"""Admin of the clubs and the player register (the federation/superuser back office)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership, OrganiserInvitation, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city", "player_count")
    search_fields = ("name", "city")
    filter_horizontal = ("organisers",)
    # The owner changes on the club's organisers page, where each change is recorded.
    readonly_fields = ("owner",)

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


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("player", "club", "category", "active", "created_at")
    list_filter = ("active", "club")
    search_fields = ("player__last_name", "player__first_name", "player__licence", "club__name")
    list_select_related = ("player", "club")
    autocomplete_fields = ("club", "player")


@admin.register(OrganiserInvitation)
class OrganiserInvitationAdmin(admin.ModelAdmin):
    """Invitations are created from the club's page (the token is shown only there, once);
    the back office lists them and may revoke them."""

    list_display = ("club", "created_by", "created_at", "expires_at", "accepted_by", "revoked_at")
    list_filter = ("club",)
    list_select_related = ("club", "created_by", "accepted_by")
    readonly_fields = (
        "club",
        "token_hash",
        "created_by",
        "created_at",
        "expires_at",
        "accepted_at",
        "accepted_by",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

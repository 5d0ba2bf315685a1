"""The series in the Django admin (staff): the same formula checks as the organiser pages, and
events added only through those pages (where the club and simultaneous rules are checked)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from clubs.errors import DomainError
from series.models import Series, SeriesEvent
from series.services import series_formula_check


class SeriesEventInline(admin.TabularInline):
    model = SeriesEvent
    extra = 0
    readonly_fields = ("event",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeriesAdminForm(forms.ModelForm):
    class Meta:
        model = Series
        # Not ``events`` (through SeriesEvent): added on the organiser pages only.
        fields = [
            "club", "name", "season", "public", "league",
            "method", "points_table", "points_default", "best_n", "min_events",
        ]  # fmt: skip

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            series_formula_check(
                method=cleaned.get("method", ""),
                points_table=cleaned.get("points_table") or [],
                points_default=cleaned.get("points_default"),
                best_n=cleaned.get("best_n"),
                min_events=cleaned.get("min_events"),
            )
        except DomainError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, forms.ValidationError(error.message, code=error.code))
        return cleaned


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    form = SeriesAdminForm
    list_display = ("name", "season", "club", "method", "public")
    list_filter = ("public", "method")
    search_fields = ("name", "season", "club__name")
    inlines = [SeriesEventInline]

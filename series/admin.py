from django.contrib import admin

from series.models import Series, SeriesEvent


class SeriesEventInline(admin.TabularInline):
    model = SeriesEvent
    extra = 0
    raw_id_fields = ("event",)


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "season", "club", "method", "public")
    list_filter = ("public", "method")
    search_fields = ("name", "season", "club__name")
    inlines = [SeriesEventInline]

"""Table entry (phone at the table, reached by the table code) and the organiser entry grid.

``urlpatterns`` is included at ``table/``; ``organiser_urlpatterns`` at ``organiser/`` (by
``tournaments/urls.py``): the grid, the director's actions, penalties and the history.
"""

from django.urls import path

from tournaments.views import entry

urlpatterns = [
    path("<str:code>/", entry.table_entry, name="entry"),
    path("<str:code>/deal/<int:number>/", entry.deal_save, name="deal_save"),
    path("<str:code>/deal/<int:number>/preview/", entry.deal_preview, name="deal_preview"),
    path("<str:code>/deal/<int:number>/confirm/", entry.deal_confirm, name="deal_confirm"),
]

organiser_urlpatterns = [
    path("events/<int:pk>/entry/round/<int:number>/", entry.entry_grid, name="entry_grid"),
    path(
        "events/<int:pk>/entry/table/<int:table_number>/deal/<int:deal_number>/",
        entry.result_actions,
        name="entry_result",
    ),
    path("events/<int:pk>/entry/penalties/", entry.penalties, name="penalties"),
    path("events/<int:pk>/entry/history/", entry.history, name="history"),
]

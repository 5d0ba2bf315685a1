"""Pages of the freedeal app (localised); URL names in the ``freedeal`` namespace.

Public pages under ``free-deal/``, the table phone under ``free-deal/table/<code>/`` (its
page, a deal's entry, live preview and explicit correction), the organiser's screens under
``organiser/free-deal/``.
"""

from django.urls import path

from freedeal import views

app_name = "freedeal"

urlpatterns = [
    path("free-deal/", views.index, name="index"),
    path("free-deal/<int:pk>/", views.ranking_page, name="ranking"),
    path("free-deal/<int:pk>/seating/", views.seating_page, name="seating"),
    path("free-deal/<int:pk>/players/<int:number>/", views.player_page, name="player"),
    path("free-deal/table/<str:code>/", views.table_phone, name="table"),
    path("free-deal/table/<str:code>/deal/<int:deal>/", views.table_deal_save, name="table_deal"),
    path(
        "free-deal/table/<str:code>/deal/<int:deal>/preview/",
        views.table_deal_preview,
        name="table_preview",
    ),
    path(
        "free-deal/table/<str:code>/deal/<int:deal>/correct/",
        views.table_deal_correct,
        name="table_correct",
    ),
    path("organiser/free-deal/", views.organiser_list, name="organiser_list"),
    path("organiser/free-deal/new/", views.organiser_create, name="organiser_create"),
    path("organiser/free-deal/<int:pk>/", views.organiser_detail, name="organiser_detail"),
    path(
        "organiser/free-deal/<int:pk>/do/<slug:action>/",
        views.organiser_action,
        name="organiser_action",
    ),
    path(
        "organiser/free-deal/<int:pk>/late/<int:arrival>/handled/",
        views.organiser_late_handled,
        name="organiser_late_handled",
    ),
    path(
        "organiser/free-deal/<int:pk>/correct/<int:party>/<int:table>/<int:deal>/",
        views.organiser_correct,
        name="organiser_correct",
    ),
]

"""The club's pages (localised), URL names in the ``clubs`` namespace: the organisers' pages
under ``organiser/clubs/``, the public invitation link under ``invitation/<token>/``."""

from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("organiser/clubs/", views.club_list, name="list"),
    path("organiser/clubs/<int:pk>/", views.club_home, name="club"),
    path("organiser/clubs/<int:pk>/register/", views.register_page, name="register"),
    path("organiser/clubs/<int:pk>/register/add/", views.register_add, name="register_add"),
    path(
        "organiser/clubs/<int:pk>/register/<int:line_pk>/",
        views.register_line,
        name="register_line",
    ),
    path(
        "organiser/clubs/<int:pk>/register/<int:line_pk>/active/",
        views.register_line_active,
        name="register_line_active",
    ),
    path("organiser/clubs/<int:pk>/register/import/", views.register_import, name="import"),
    path("organiser/clubs/<int:pk>/organisers/", views.organisers_page, name="organisers"),
    path("organiser/clubs/<int:pk>/organisers/invite/", views.organiser_invite, name="invite"),
    path(
        "organiser/clubs/<int:pk>/invitations/<int:invitation_pk>/revoke/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    path(
        "organiser/clubs/<int:pk>/organisers/<int:user_pk>/remove/",
        views.organiser_remove,
        name="organiser_remove",
    ),
    path("organiser/clubs/<int:pk>/owner/", views.owner_pass, name="owner_pass"),
    path("invitation/<str:token>/", views.invitation, name="invitation"),
]

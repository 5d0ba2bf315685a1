"""Root URLconf: public pages and organiser screens (localised), the REST API and its schema.

``/api/v1/`` answers with the API's root (:class:`ApiRootView`): its main endpoints and where
its schema and documentation are. The documentation pages (Swagger UI, ReDoc) load their
assets from the app's static files (drf-spectacular-sidecar), never from a CDN.

URL names are snake_case and namespaced by audience: ``public:`` (standings pages),
``organiser:`` (set-up, printouts, entry grid), ``table:`` (table phones), ``api:`` (REST API v1).
"""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse
from drf_spectacular.utils import extend_schema, inline_serializer
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from archives.urls import public_urlpatterns as archive_public_urlpatterns
from clubs import phone_offline
from config.phone_code import phone_code
from scoring.urls import urlpatterns as public_urlpatterns

#: The main endpoints the API root lists: key -> path under /api/v1/ ({…}: a path parameter).
API_ENDPOINTS = {
    "events": "events/",
    "event": "events/{id}/",
    "event_entrants": "events/{event_id}/entrants/",
    "event_movement": "events/{event_id}/movement/",
    "event_deals": "events/{event_id}/deals/",
    "event_results": "events/{event_id}/results/",
    "event_rankings": "events/{event_id}/rankings/",
    "deal_hand_scores": "events/{event_id}/deals/{number}/hand-scores/",
    "series_ranking": "series/{id}/ranking/",
    "cup_bracket": "cups/{id}/bracket/",
    "cup_room": "cups/rooms/{code}/",
    "cup_room_results": "cups/rooms/{code}/results/",
    "free_deal_ranking": "free-deal/{id}/ranking/",
    "free_deal_table": "free-deal/tables/{code}/",
    "free_deal_table_results": "free-deal/tables/{code}/results/",
    "table": "tables/{code}/",
    "table_results": "tables/{code}/results/",
}


class ApiRootView(APIView):
    """The API's root: its version, its main endpoints, its schema and documentation."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="api_root",
        summary="API root",
        description="The API's version, its main endpoints (absolute URLs; {…} is a path "
        "parameter) and where its OpenAPI schema and documentation are.",
        responses=inline_serializer(
            "ApiRoot",
            {
                "name": serializers.CharField(),
                "version": serializers.CharField(),
                "schema": serializers.URLField(),
                "docs": serializers.URLField(),
                "redoc": serializers.URLField(),
                "endpoints": serializers.DictField(child=serializers.CharField()),
            },
        ),
    )
    def get(self, request: Request) -> Response:
        root = request.build_absolute_uri(reverse("api_root"))
        return Response(
            {
                "name": "duplitarot API",
                "version": "v1",
                "schema": request.build_absolute_uri(reverse("api_schema")),
                "docs": request.build_absolute_uri(reverse("api_docs")),
                "redoc": request.build_absolute_uri(reverse("api_redoc")),
                "endpoints": {key: root + path for key, path in API_ENDPOINTS.items()},
            }
        )


urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    # The phone pages' service worker (its scope: the whole site) and web app manifest.
    path("phone-sw.js", phone_offline.service_worker, name="phone_service_worker"),
    path("phone.webmanifest", phone_offline.manifest, name="phone_manifest"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(url_name="api_schema", template_name="api/redoc.html"),
        name="api_redoc",
    ),
    path("api/v1/", ApiRootView.as_view(), name="api_root"),
    path(
        "api/v1/",
        include(
            (
                [
                    path("", include("scoring.api_urls")),
                    path("", include("series.api_urls")),
                    path("", include("freedeal.api_urls")),
                    path("", include("teammatch.api_urls")),
                ],
                "api",
            ),
            namespace="api",
        ),
    ),
]

urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("instance.urls")),
    path("", include("tournaments.urls")),
    # The public pages, and the event archive pages under their historical public: names.
    path("", include(([*public_urlpatterns, *archive_public_urlpatterns], "public"))),
    path("", include("series.urls")),
    path("", include("freedeal.urls")),
    path("", include("teammatch.urls")),
    path("", include("archives.urls")),
    path("", include("clubs.urls")),
    path("phone/offline/", phone_offline.offline_shell, name="phone_offline"),
    # The table code typed on the home page (a phone that cannot scan the card's QR code).
    path("code/", phone_code, name="phone_code"),
    prefix_default_language=False,
)

# An unhandled exception: 503 (Retry-After) when the database is unreachable, else 500; JSON
# under /api/, a standalone page elsewhere (config/errors.py).
handler400 = "config.errors.bad_request"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"

"""Root URLconf: public pages and organiser screens (localised), the REST API and its schema.

URL names are snake_case and namespaced by audience: ``public:`` (standings pages),
``organiser:`` (set-up, printouts, entry grid), ``table:`` (table phones), ``api:`` (REST API v1).
"""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api_schema"), name="api_docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api_schema"), name="api_redoc"),
    path("api/v1/", include(("scoring.api_urls", "api"), namespace="api")),
]

urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
    prefix_default_language=False,
)

# An unhandled exception: 503 (Retry-After) when the database is unreachable, else 500; JSON
# under /api/, a standalone page elsewhere (config/errors.py).
handler500 = "config.errors.server_error"

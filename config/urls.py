"""Top-level URLs: the admin, the API (v1 and its schema), and the site's pages."""
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import errors

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("config.api_urls")),
    # i18n/setlang/ (name set_language) lives in events.urls: it also saves the account's choice.
    path("", include("events.urls")),
]
# MEDIA_ROOT is never served as such: mission packs go out through a staff-only view.

handler404 = errors.not_found
handler500 = errors.server_error
handler403 = errors.forbidden
handler400 = errors.bad_request

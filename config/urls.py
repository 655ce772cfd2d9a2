"""Top-level URLs: the admin, the API (v1 and its schema), and the site's pages."""
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.utils.functional import lazy
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import admin_moves, errors

urlpatterns = [
    # Before the admin's own: /admin/league/<model>/ of a model that moved to another app.
    re_path(admin_moves.pattern(), admin_moves.old_address),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("config.api_urls")),
    # Browsers ask for /favicon.ico on every page (the admin's too): the static icon answers.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.ico"))),
    # i18n/setlang/ (name set_language) lives in events.urls: it also saves the account's choice.
    path("", include("events.urls")),
    path("", include("leagues.urls")),  # the league page and the week lists
    path("", include("circuits.pages")),  # a circuit's standings and breakdowns
    path("", include("teams.page_urls")),  # the captain's draft page
]
# MEDIA_ROOT is never served as such: mission packs go out through a staff-only view.

handler404 = errors.not_found
handler500 = errors.server_error
handler403 = errors.forbidden
handler400 = errors.bad_request

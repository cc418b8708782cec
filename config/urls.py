from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from clubs.signin.oauth_endpoints import ServerMetadataView
from config.health import health
from config.views import favicon, javascript_catalog
from pages import views as page_views
from pages.invitations import invitation_page
from pages.language import LoginView, language_set
from scoring import urls as scoring_urls
from standings import urls as standings_urls

api_v1 = [
    path("", include("clubs.urls")),
    path("", include("rules.web.urls")),
    # The standings' routes keep the names they had inside scoring ("scoring:standings", ...).
    path("", include((scoring_urls.urlpatterns + standings_urls.urlpatterns, "scoring"))),
    path("", include("tournaments.urls")),
    path("", include("series.urls")),
    path("", include("federation.urls")),
    path("", include("webhooks.urls")),
    path("", include("reports.urls")),
]

urlpatterns = [
    path("", page_views.home, name="home"),
    path("health/", health, name="health"),
    path("", include("live.urls")),
    # Browsers ask for /favicon.ico whatever the page says: send them to the one we have.
    path("favicon.ico", favicon),
    path("login/", LoginView.as_view(), name="login"),
    path("language/", language_set, name="language-set"),
    path("jsi18n/<str:language>/", javascript_catalog, name="javascript-catalog"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/apps/registered/", include("clubs.signin.oauth_app_urls")),
    path("account/", include("pages.account_urls")),
    path("oauth/", include("clubs.signin.oauth_urls")),
    path(
        ".well-known/oauth-authorization-server",
        ServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
    path("invite/<str:key>/", invitation_page, name="invitation"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("pages.urls")),
    path("", include("scoring.page_urls")),
    path("", include("standings.page_urls")),
    path("", include("tournaments.page_urls")),
    path("", include("series.page_urls")),
    path("", include("federation.page_urls")),
    path("", include("reports.page_urls")),
    path("", include("archive.page_urls")),
]

handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"

"""The page where a club's owner registers OAuth2 apps, under ``/account/apps/registered/``."""

from django.urls import path

from clubs.signin import oauth_apps

urlpatterns = [
    path("", oauth_apps.registered_apps_page, name="oauth-app-registrations"),
    path("new/", oauth_apps.app_register, name="oauth-app-register"),
    path("<int:application_id>/", oauth_apps.app_redirect_uris_update, name="oauth-app-update"),
    path("<int:application_id>/delete/", oauth_apps.app_delete, name="oauth-app-delete"),
]

"""The OAuth2 endpoints under ``/oauth/`` (django-oauth-toolkit's, with our consent pages and
the endpoints ``clubs.signin.oauth_endpoints`` holds to the RFCs). The namespace is the
toolkit's own, which its views reverse."""

from django.urls import path
from oauth2_provider import views as oauth_views

from clubs.signin import oauth_consent, oauth_endpoints

app_name = "oauth2_provider"

urlpatterns = [
    path("authorize/", oauth_consent.ConsentView.as_view(), name="authorize"),
    path("token/", oauth_endpoints.TokenView.as_view(), name="token"),
    path("revoke/", oauth_views.RevokeTokenView.as_view(), name="revoke-token"),
    path("introspect/", oauth_endpoints.IntrospectTokenView.as_view(), name="introspect"),
    path(
        "device-authorization/",
        oauth_endpoints.DeviceAuthorizationView.as_view(),
        name="device-authorization",
    ),
    path(
        "device/",
        oauth_consent.DeviceUserCodeView.as_view(),
        name="device",
    ),
    path(
        "device/<slug:client_id>/<slug:user_code>/",
        oauth_consent.DeviceConsentView.as_view(),
        name="device-confirm",
    ),
    path(
        "device/<slug:client_id>/<slug:user_code>/done/",
        oauth_views.DeviceGrantStatusView.as_view(template_name="oauth/device_done.html"),
        name="device-grant-status",
    ),
]

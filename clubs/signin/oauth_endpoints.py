"""The toolkit's endpoints, held to the RFCs: the token endpoint taking a device's poll down the
library's path, the device authorization (RFC 8628 section 3.1) and the server's metadata
(RFC 8414) of what it really accepts."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from datetime import timedelta
from typing import Any
from urllib.parse import unquote_plus

from django.http import HttpRequest, HttpResponse, JsonResponse
from oauth2_provider import views as oauth_views
from oauth2_provider.models import (
    DeviceCodeResponse,
    DeviceGrant,
    DeviceRequest,
    create_device_grant,
    get_access_token_model,
    get_application_model,
)
from oauth2_provider.settings import oauth2_settings
from oauthlib.oauth2.rfc6749 import errors as oauth_errors

from clubs.signin import scopes as app_scopes
from clubs.signin.oauth_validator import DEVICE_CODE_GRANT, SIGN_IN_GRANTS


def _oauth_error(error: oauth_errors.OAuth2Error) -> JsonResponse:
    """An OAuth2 error answer (RFC 6749 section 5.2), never cached."""
    return JsonResponse(
        json.loads(error.json), status=error.status_code, headers={"Cache-Control": "no-store"}
    )


class TokenView(oauth_views.TokenView):
    """The token endpoint. A device's poll takes the library's path like every other grant
    (app authentication first, then ``_device_poll``), rather than the toolkit's check of the
    device code before anything else."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return self.authorization_flow_token_response(request)  # type: ignore[no-any-return]
        except get_access_token_model().DoesNotExist:
            # The token just issued was revoked before the toolkit read it back: the same code
            # was traded again at the same moment, which revokes every token it gave.
            return _oauth_error(
                oauth_errors.InvalidGrantError(description="this code was used twice")
            )


def _device_scope(asked: str) -> str:
    """The scopes a device asks for (the default when none), or ``invalid_scope``: an app names
    scopes, never clubs (the person chooses those)."""
    words = asked.split()
    if not words:
        return " ".join(oauth2_settings.DEFAULT_SCOPES)
    unknown = [w for w in words if w not in app_scopes.SCOPES]
    if unknown:
        raise oauth_errors.InvalidScopeError(
            description=(
                f"unknown scope {unknown[0]}: the scopes are {', '.join(app_scopes.ALL_SCOPES)} "
                "(the person chooses the clubs)"
            )
        )
    return " ".join(dict.fromkeys(words))


class DeviceAuthorizationView(oauth_views.DeviceAuthorizationView):
    """Where a device asks for its codes (RFC 8628 section 3.1): only an app registered for
    the device grant gets them (``unauthorized_client`` otherwise), with scopes it may ask for;
    the answer carries ``verification_uri_complete``, the page with the code filled in."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        client_id = request.POST.get("client_id", "")
        application = get_application_model().objects.filter(client_id=client_id).first()
        if client_id and application is None:
            # As the token endpoint answers an unknown app (RFC 6749 section 5.2).
            return _oauth_error(
                oauth_errors.InvalidClientError(description="no app has this client_id")
            )
        headers, body, status = self.create_device_authorization_response(request)
        if status != 200:
            return JsonResponse(json.loads(body), status=status, headers=headers)
        # The library has authenticated the app.
        if application is None or application.authorization_grant_type != DEVICE_CODE_GRANT:
            return _oauth_error(
                oauth_errors.UnauthorizedClientError(
                    description=(
                        "this app is not registered for the device grant: register the device "
                        "app as one"
                    )
                )
            )
        try:
            scope = _device_scope(request.POST.get("scope", ""))
        except oauth_errors.OAuth2Error as error:
            return _oauth_error(error)
        device = create_device_grant(
            DeviceRequest(client_id=application.client_id, scope=scope),
            DeviceCodeResponse(**body),
        )
        # The device's first poll may come at once: its interval counts from that poll.
        DeviceGrant.objects.filter(pk=device.pk).update(
            interval=body["interval"],
            last_checked=device.last_checked - timedelta(seconds=body["interval"]),
        )
        return JsonResponse(body, headers={**headers, "Cache-Control": "no-store"})


def _authenticated_client_id(request: HttpRequest) -> str:
    """The client id the request authenticated with (HTTP Basic, else the form's), read as the
    toolkit's validator reads it; the view has already checked the secret."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header[:6].lower() == "basic ":
        try:
            decoded = base64.b64decode(header[6:], validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return ""
        return unquote_plus(decoded.partition(":")[0])
    return request.POST.get("client_id", "")


class IntrospectTokenView(oauth_views.IntrospectTokenView):
    """Token introspection (RFC 7662) for an app's own tokens only: another app's token, like an
    unknown one, is ``{"active": false}`` (section 2.2: the server may tell a caller nothing of
    a token it has no business with), so no app learns another's scopes or its person."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self._own_token_response(request, request.GET.get("token"))

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self._own_token_response(request, request.POST.get("token"))

    def _own_token_response(self, request: HttpRequest, value: str | None) -> HttpResponse:
        client_id = _authenticated_client_id(request)
        confidential = get_application_model().CLIENT_CONFIDENTIAL
        if (
            not get_application_model()
            .objects.filter(client_id=client_id, client_type=confidential)
            .exists()
        ):
            # As the server's metadata says: introspection takes a secret, which a public
            # app (a phone, a browser) has none of.
            return _oauth_error(
                oauth_errors.InvalidClientError(
                    description="introspection needs a confidential app's client id and secret"
                )
            )
        if value is not None:
            own = (
                get_access_token_model()
                .objects.filter(
                    token_checksum=hashlib.sha256(value.encode()).hexdigest(),
                    application__client_id=client_id,
                )
                .exists()
            )
            if not own:
                return JsonResponse({"active": False})
        return self.get_token_response(value)  # type: ignore[no-any-return]


class ServerMetadataView(oauth_views.OAuthServerMetadataView):
    """RFC 8414 metadata of what this server really accepts: the grants with which the person
    chooses the clubs (no password grant, no client credentials), the device authorization
    endpoint, PKCE with S256 only; public apps authenticate with their client id alone
    (``none``) at the token and revocation endpoints, while introspection takes a secret."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        data = json.loads(super().get(request, *args, **kwargs).content)
        with_secret = ["client_secret_basic", "client_secret_post"]
        data.update(
            response_types_supported=["code"],
            grant_types_supported=list(SIGN_IN_GRANTS),
            code_challenge_methods_supported=["S256"],
            device_authorization_endpoint=self._get_endpoint_url(
                request, "device-authorization", required=True
            ),
            token_endpoint_auth_methods_supported=["none", *with_secret],
            revocation_endpoint_auth_methods_supported=["none", *with_secret],
            introspection_endpoint_auth_methods_supported=with_secret,
        )
        # Public, as the toolkit serves it: any web app may read where to sign in.
        return JsonResponse(data, headers={"Access-Control-Allow-Origin": "*"})

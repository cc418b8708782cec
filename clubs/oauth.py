"""OAuth2 sign-in for score apps, on django-oauth-toolkit: the validator that knows clubs, the
API authentication for its tokens, the consent pages where a person picks the clubs an app
may act in, and where the toolkit's endpoints are held to the RFCs: PKCE with S256 checked
before the consent page, a code traded twice revoking what it gave, the device grant's
``slow_down`` and typed codes, the server's metadata. How an app signs in: docs/api.md."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from oauth2_provider import views as oauth_views
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from oauth2_provider.models import (
    AccessToken,
    DeviceCodeResponse,
    DeviceGrant,
    DeviceRequest,
    RefreshToken,
    create_device_grant,
    get_application_model,
    get_grant_model,
)
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views import AuthorizationView, DeviceConfirmView
from oauthlib.oauth2 import Server
from oauthlib.oauth2.rfc6749 import errors as oauth_errors
from oauthlib.oauth2.rfc8628 import errors as device_errors
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from clubs import scopes as app_scopes
from clubs import selectors
from clubs.models import Membership, SpentAuthorizationCode
from config.middleware import CONTENT_SECURITY_POLICY

log = logging.getLogger(__name__)

DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
# In the order the server's metadata lists them.
SIGN_IN_GRANTS = ("authorization_code", "refresh_token", DEVICE_CODE_GRANT)
# Writing the token's last use on every request would make each call a write; once a minute is
# plenty (as for personal tokens).
LAST_USED_RESOLUTION = timedelta(minutes=1)
# RFC 8628 section 3.5: a device told to slow down waits this much longer from then on.
SLOW_DOWN_SECONDS = 5
# A S256 code challenge: the base64url SHA-256 of the verifier, without padding (RFC 7636 4.2).
S256_CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")


def _member_club_ids(user: Any) -> set[int]:
    return set(Membership.objects.filter(user=user).values_list("club_id", flat=True))


class ClubOAuth2Validator(OAuth2Validator):
    """An app asks for ``read``, ``score`` and ``manage``; the clubs (``club:<id>``) are added
    by the person at consent, from the clubs they belong to, and by nobody else."""

    def validate_scopes(
        self,
        client_id: str,
        scopes: list[str],
        client: Any,
        request: Any,
        *args: Any,
        **kwargs: Any,
    ) -> bool:
        clubs = {int(s.split(":")[1]) for s in scopes if app_scopes.is_club_scope(s)}
        named = {s for s in scopes if not app_scopes.is_club_scope(s)}
        if not named <= set(app_scopes.SCOPES):
            return False
        if not clubs:
            return True
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return False
        return clubs <= _member_club_ids(user)

    def validate_grant_type(
        self, client_id: str, grant_type: str, client: Any, request: Any, *args: Any, **kwargs: Any
    ) -> bool:
        """Only grants where the person chooses the clubs at consent (and refreshing them): no
        password grant, no client credentials (a token with no person)."""
        return grant_type in SIGN_IN_GRANTS and super().validate_grant_type(
            client_id, grant_type, client, request, *args, **kwargs
        )

    def validate_response_type(
        self,
        client_id: str,
        response_type: str,
        client: Any,
        request: Any,
        *args: Any,
        **kwargs: Any,
    ) -> bool:
        """The authorization code only (no implicit grant: its token would skip PKCE)."""
        return response_type == "code" and super().validate_response_type(
            client_id, response_type, client, request, *args, **kwargs
        )

    def save_bearer_token(self, token: dict, request: Any, *args: Any, **kwargs: Any) -> Any:
        """Store the token with its clubs, then answer the scopes the app asked for and the
        clubs beside them (``_answer_clubs_apart``)."""
        if request.grant_type == "refresh_token":
            self._keep_clubs(token, request)
        if request.grant_type == DEVICE_CODE_GRANT:
            saved = self._save_device_token(token, request, *args, **kwargs)
        elif request.grant_type == "authorization_code":
            saved = self._save_code_token(token, request, *args, **kwargs)
        else:
            saved = super().save_bearer_token(token, request, *args, **kwargs)
        _answer_clubs_apart(token)
        return saved

    # --- the authorization code: used once (RFC 6749 section 4.1.2) -------------------------

    def validate_code(
        self, client_id: str, code: str, client: Any, request: Any, *args: Any, **kwargs: Any
    ) -> bool:
        """A code traded a second time is refused, and the tokens the first trade gave are
        revoked: one of the two traders may have stolen it."""
        if super().validate_code(client_id, code, client, request, *args, **kwargs):
            return True
        if _revoke_what_a_spent_code_gave(code, client.client_id):
            raise _code_used_again(request)
        return False

    def _save_code_token(self, token: dict, request: Any, *args: Any, **kwargs: Any) -> Any:
        """The code is spent in the transaction that stores its tokens: of two trades of one
        code at the same moment, the second waits for the first here and finds it spent."""
        now = timezone.now()
        with transaction.atomic():
            grant = (
                get_grant_model()
                .objects.select_for_update()
                .filter(code=request.code, application=request.client)
                .first()
            )
            if grant is not None:
                saved = super().save_bearer_token(token, request, *args, **kwargs)
                grant.delete()
                SpentAuthorizationCode.objects.create(
                    digest=_code_digest(request.code),
                    client_id=request.client.client_id,
                    token_family=getattr(request, "issued_token_family", None),
                    spent_at=now,
                )
                lifetime = oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS
                if lifetime:
                    # Nothing a code older than the refresh tokens' lifetime gave is alive.
                    SpentAuthorizationCode.objects.filter(
                        spent_at__lt=now - timedelta(seconds=lifetime)
                    ).delete()
                return saved
        # Spent by a trade that committed while this one waited.
        _revoke_what_a_spent_code_gave(request.code, request.client.client_id)
        raise _code_used_again(request)

    def _create_refresh_token(
        self, request: Any, refresh_token_code: str, access_token: Any, previous: Any
    ) -> Any:
        refresh_token = super()._create_refresh_token(
            request, refresh_token_code, access_token, previous
        )
        # Remembered with the spent code: its rotations keep the family.
        request.issued_token_family = refresh_token.token_family
        return refresh_token

    def invalidate_authorization_code(
        self, client_id: str, code: str, request: Any, *args: Any, **kwargs: Any
    ) -> None:
        """Already done: ``_save_code_token`` spends the code with its tokens stored."""

    # What the library reads of the code after checking it may be gone by then, spent by a
    # trade of the same code running at the same moment: that trade's tokens are revoked too.

    def _code_gone(self, code: str, request: Any) -> oauth_errors.OAuth2Error:
        if _revoke_what_a_spent_code_gave(code, request.client.client_id):
            return _code_used_again(request)
        return oauth_errors.InvalidGrantError(request=request)

    def confirm_redirect_uri(
        self, client_id: str, code: str, redirect_uri: str, client: Any, *args: Any, **kwargs: Any
    ) -> bool:
        try:
            return bool(
                super().confirm_redirect_uri(client_id, code, redirect_uri, client, *args, **kwargs)
            )
        except get_grant_model().DoesNotExist:
            raise self._code_gone(code, args[0] if args else kwargs["request"]) from None

    def get_code_challenge(self, code: str, request: Any) -> str | None:
        try:
            return super().get_code_challenge(code, request)  # type: ignore[no-any-return]
        except get_grant_model().DoesNotExist:
            raise self._code_gone(code, request) from None

    def get_code_challenge_method(self, code: str, request: Any) -> str | None:
        try:
            return super().get_code_challenge_method(code, request)  # type: ignore[no-any-return]
        except get_grant_model().DoesNotExist:
            raise self._code_gone(code, request) from None

    def _keep_clubs(self, token: dict, request: Any) -> None:
        """A refresh keeps the clubs the person chose, whatever scope it names. oauthlib has
        already refused a scope beyond the original one; a refresh that names scopes without
        clubs (as Authlib and requests-oauthlib send the app's scope on every refresh) would
        otherwise bind the new token to no club at all."""
        original = app_scopes.TokenGrant.parse(
            self.get_original_scopes(request.refresh_token, request)
        )
        asked = app_scopes.TokenGrant.parse(" ".join(request.scopes or []))
        clubs = asked.club_ids or original.club_ids
        scope = app_scopes.scope_string(asked.scopes or original.scopes, clubs)
        request.scopes = scope.split()
        token["scope"] = scope

    def _save_device_token(self, token: dict, request: Any, *args: Any, **kwargs: Any) -> Any:
        """The device grant's token acts for the person who approved it, with the scopes and
        clubs they approved; the device code then gives no second token (RFC 8628 3.5)."""
        device_code = dict(request.decoded_body or []).get("device_code", "")
        with transaction.atomic():
            device = (
                DeviceGrant.objects.select_for_update(of=("self",))
                .filter(
                    device_code=device_code,
                    client_id=request.client.client_id,
                    status=DeviceGrant.AUTHORIZED,
                )
                .select_related("user")
                .first()
            )
            if device is None or device.user is None:
                raise oauth_errors.InvalidGrantError(request=request)
            request.user = device.user
            request.scopes = device.scope.split()
            token["scope"] = device.scope
            saved = super().save_bearer_token(token, request, *args, **kwargs)
            device.delete()
        return saved


def _answer_clubs_apart(token: dict) -> None:
    """The token answer's ``scope`` names only the scopes (the ones the app asked for, unless
    the person granted fewer) and ``clubs`` the ids of the clubs chosen at consent. A client
    library compares the answered scope with the one it asked for and refuses a sign-in whose
    scope changed (requests-oauthlib's "Scope has changed"), and sends that scope again on
    every refresh; the clubs stay on the stored token, which keeps them through refreshes."""
    grant = app_scopes.TokenGrant.parse(token.get("scope", ""))
    token["scope"] = app_scopes.scope_string(grant.scopes, ())
    token["clubs"] = sorted(grant.club_ids)


def _code_digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def _revoke_what_a_spent_code_gave(code: str, client_id: str) -> bool:
    """When ``code`` was already traded by ``client_id``, revoke the refresh tokens it gave
    (with every rotation of them) and their access tokens; whether it was."""
    spent = SpentAuthorizationCode.objects.filter(
        digest=_code_digest(code), client_id=client_id
    ).first()
    if spent is None:
        return False
    if spent.token_family is not None:
        RefreshToken.revoke_family(spent.token_family)
    log.warning("authorization code of app %s traded again: its tokens are revoked", client_id)
    return True


def _code_used_again(request: Any) -> oauth_errors.OAuth2Error:
    return oauth_errors.InvalidGrantError(
        description=(
            "this authorization code was already used: it is refused, and the tokens it gave are "
            "revoked"
        ),
        request=request,
    )


def _s256_only(request: Any) -> dict[str, Any]:
    """PKCE with S256, checked before the person is shown the consent page (RFC 7636 4.4.1: the
    app's redirect with ``invalid_request``; the library would take a challenge without a
    method as ``plain``). Run by the library once the client and redirect URI are known good."""
    challenge = request.code_challenge
    method = request.code_challenge_method
    if not challenge:
        description = "code_challenge is missing: PKCE with code_challenge_method=S256 is required"
    elif method != "S256":
        description = (
            f"code_challenge_method must be S256, not {method or 'absent (which means plain)'}"
        )
    elif not S256_CHALLENGE.fullmatch(challenge):
        description = (
            "code_challenge must be the base64url SHA-256 of the code verifier: 43 characters, "
            "without padding"
        )
    else:
        return {}
    raise oauth_errors.InvalidRequestError(description=description, request=request)


def _device_poll(request: Any) -> None:
    """A device's poll at the token endpoint (RFC 8628 section 3.5), once the library has
    authenticated the app and checked it is registered for the device grant: the code must be
    this app's, the person must have allowed it in time, and a device that polls again sooner
    than its interval is told to ``slow_down``, its interval 5 s longer from then on."""
    device_code = dict(request.decoded_body or []).get("device_code", "")
    if not device_code:
        raise oauth_errors.InvalidRequestError(
            description="device_code is missing: send the one the device authorization gave",
            request=request,
        )
    now = timezone.now()
    error: oauth_errors.OAuth2Error | None = None
    with transaction.atomic():
        device = (
            DeviceGrant.objects.select_for_update()
            .filter(device_code=device_code, client_id=request.client_id)
            .first()
        )
        if device is None:
            error = oauth_errors.InvalidGrantError(
                description=(
                    "no such device_code for this app, or it has already given its token: "
                    "ask for a new one"
                ),
                request=request,
            )
        elif device.status == DeviceGrant.DENIED:
            error = device_errors.AccessDenied(
                description="the person turned the device away", request=request
            )
        elif device.status == DeviceGrant.EXPIRED or now >= device.expires:
            device.status = DeviceGrant.EXPIRED
            device.save(update_fields=["status"])
            error = device_errors.ExpiredTokenError(
                description="the device code has expired: ask for a new one", request=request
            )
        elif device.status == DeviceGrant.AUTHORIZATION_PENDING:
            waited = (now - device.last_checked).total_seconds()
            if waited < device.interval:
                device.interval += SLOW_DOWN_SECONDS
                error = device_errors.SlowDownError(
                    description=(
                        f"polled {waited:.1f} s after the last poll: wait at least "
                        f"{device.interval} s between polls from now on"
                    ),
                    request=request,
                )
            else:
                error = device_errors.AuthorizationPendingError(
                    description="the person has not allowed the device yet", request=request
                )
            # ``last_checked`` is the time of the device's last poll (set by the save).
            device.save(update_fields=["interval", "last_checked"])
    # Raised once the poll's bookkeeping is committed.
    if error is not None:
        raise error


class ClubServer(Server):
    """The library's server with the two checks it has no setting for: PKCE with S256 before
    the consent page, and the device grant's polling rules."""

    def __init__(self, request_validator: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(request_validator, *args, **kwargs)
        self.auth_grant.custom_validators.pre_auth.append(_s256_only)
        self.device_code_grant.custom_validators.post_token.append(_device_poll)


class AppTokenAuthentication(OAuth2Authentication):
    """``Authorization: Bearer <access token>`` of an app signed in with OAuth2. A key that is
    not one falls through to the personal tokens."""

    def authenticate(self, request: Request) -> tuple[Any, AccessToken] | None:
        # Only a Bearer header is looked at (as the schema says): the OAuth2 library's request
        # object, built for every other request too, cost each personal-token call about as
        # much as checking its token.
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != b"bearer":
            return None
        found = super().authenticate(request)
        if found is None:
            return None
        user, token = found
        if user is None or not user.is_active:
            raise exceptions.AuthenticationFailed("the token's user is inactive")
        now = timezone.now()
        if token.updated < now - LAST_USED_RESOLUTION:
            # ``updated`` is the token's last use (the pages show it as such).
            AccessToken.objects.filter(pk=token.pk).update(updated=now)
        return user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


def _chosen_clubs(request: HttpRequest) -> set[int]:
    """The clubs ticked on a consent form, among the person's own (others are ignored)."""
    ticked: set[int] = set()
    for value in request.POST.getlist("clubs"):
        if value.isdigit():
            ticked.add(int(value))
    return ticked & _member_club_ids(request.user)


def _consent_context(request: HttpRequest, scopes: list[str]) -> dict[str, Any]:
    return {
        "clubs": selectors.club_list_for_user(user=request.user),  # type: ignore[arg-type]
        "scope_rows": [
            (s, app_scopes.SCOPES[s]) for s in app_scopes.ALL_SCOPES if s in set(scopes)
        ],
    }


def _consent_policy(application: Any) -> str:
    """The page's Content-Security-Policy: the site's, with the app's redirect URIs added to
    ``form-action`` (browsers apply it to the redirect that answers the consent form)."""
    sources = ["'self'"]
    for uri in (getattr(application, "redirect_uris", "") or "").split():
        parts = urlsplit(uri)
        if parts.scheme in ("http", "https") and parts.netloc:
            sources.append(f"{parts.scheme}://{parts.netloc}")
        elif parts.scheme:
            sources.append(f"{parts.scheme}:")
    return CONTENT_SECURITY_POLICY.replace("form-action 'self'", f"form-action {' '.join(sources)}")


class ConsentView(AuthorizationView):
    """The authorization endpoint's page: which app, what it may do, and in which of the
    person's clubs (at least one)."""

    template_name = "oauth/authorize.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Never approved without the page (``approval_prompt=auto``): the person picks the
        # clubs each time. (An app marked "skip authorization" would get tokens bound to no
        # club, which see nothing; docs/api.md says not to.)
        request.GET = request.GET.copy()
        request.GET.pop("approval_prompt", None)
        return super().get(request, *args, **kwargs)  # type: ignore[no-any-return]

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        response = super().render_to_response(context, **kwargs)
        response["Content-Security-Policy"] = _consent_policy(context.get("application"))
        return response  # type: ignore[no-any-return]

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        scopes = context.get("scopes") or self.request.POST.get("scope", "").split()
        context.update(_consent_context(self.request, scopes))
        return context

    def form_valid(self, form: Any) -> HttpResponse:
        client_id = form.cleaned_data.get("client_id")
        if not get_application_model().objects.filter(client_id=client_id).exists():
            form.add_error(None, "No app has this client id: start again from the app.")
            return self.form_invalid(form)
        if form.cleaned_data.get("allow"):
            clubs = _chosen_clubs(self.request)
            if not clubs:
                form.add_error(None, "Choose at least one club the app may act in.")
                return self.form_invalid(form)
            named = [s for s in form.cleaned_data["scope"].split() if s in app_scopes.SCOPES]
            form.cleaned_data["scope"] = app_scopes.scope_string(named, clubs)
        return super().form_valid(form)  # type: ignore[no-any-return]

    def form_invalid(self, form: Any) -> HttpResponse:
        application = (
            get_application_model().objects.filter(client_id=form.data.get("client_id")).first()
        )
        scopes = form.data.get("scope", "").split()
        return self.render_to_response(
            self.get_context_data(form=form, application=application, scopes=scopes), status=400
        )


class DeviceConsentView(DeviceConfirmView):
    """The device grant's approval page, with the same choice of clubs."""

    template_name = "oauth/device_confirm.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context.update(_consent_context(self.request, context.get("scopes", [])))
        return context

    def form_valid(self, form: Any) -> HttpResponse:
        if form.cleaned_data["action"] == "accept":
            clubs = _chosen_clubs(self.request)
            if not clubs:
                form.add_error(None, "Choose at least one club the device may act in.")
                return self.render_to_response(self.get_context_data(form=form), status=400)
            device = self.get_object()
            named = [s for s in device.scope.split() if s in app_scopes.SCOPES]
            device.scope = app_scopes.scope_string(named, clubs)
            device.save(update_fields=["scope"])
        return super().form_valid(form)  # type: ignore[no-any-return]


# --- the toolkit's endpoints, held to the RFCs ---------------------------------------------------


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
        return self.authorization_flow_token_response(request)  # type: ignore[no-any-return]


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


def normalise_user_code(typed: str) -> str:
    """A user code as a person types it (lower case, a dash or spaces between its halves) as
    it is stored: letters and digits only, in upper case (RFC 8628 section 6.1)."""
    return re.sub(r"[^0-9A-Za-z]", "", typed).upper()


class DeviceCodeForm(forms.Form):
    user_code = forms.CharField(max_length=64)

    def clean_user_code(self) -> str:
        code = normalise_user_code(self.cleaned_data["user_code"])
        device = DeviceGrant.objects.filter(user_code=code).order_by("-expires").first()
        if device is None:
            raise ValidationError(
                "Incorrect user code: no device is waiting with that code. Check it against the "
                "device's screen.",
                code="incorrect_user_code",
            )
        if device.is_expired():
            raise ValidationError(
                "That code has expired: ask the device for a new one.", code="expired_user_code"
            )
        if device.status != DeviceGrant.AUTHORIZATION_PENDING:
            raise ValidationError(
                "That code has already been used: ask the device for a new one.",
                code="user_code_already_used",
            )
        # Read by the toolkit's view, which ties the device to the person.
        self.cleaned_data["device_grant"] = device
        return code


class DeviceUserCodeView(oauth_views.DeviceUserCodeView):
    """Where the person types the device's code (or finds it filled in, from the
    ``verification_uri_complete`` the device shows, to check against the device's screen)."""

    template_name = "oauth/device_code.html"
    form_class = DeviceCodeForm


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

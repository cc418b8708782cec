"""OAuth2 sign-in for score apps, on django-oauth-toolkit: the validator that knows clubs, the
API authentication for its tokens, and the consent pages where a person picks the clubs an app
may act in. How an app signs in: docs/api.md."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from oauth2_provider.models import AccessToken, DeviceGrant
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.views import AuthorizationView, DeviceConfirmView
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from clubs import scopes as app_scopes
from clubs import selectors
from clubs.models import Membership
from config.middleware import CONTENT_SECURITY_POLICY

DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
SIGN_IN_GRANTS = {"authorization_code", "refresh_token", DEVICE_CODE_GRANT}
# Writing the token's last use on every request would make each call a write; once a minute is
# plenty (as for personal tokens).
LAST_USED_RESOLUTION = timedelta(minutes=1)


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
        else:
            saved = super().save_bearer_token(token, request, *args, **kwargs)
        _answer_clubs_apart(token)
        return saved

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
                .filter(device_code=device_code, status=DeviceGrant.AUTHORIZED)
                .select_related("user")
                .first()
            )
            if device is None or device.user is None:
                from oauthlib.oauth2.rfc6749.errors import InvalidGrantError

                raise InvalidGrantError(request=request)
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
        if form.cleaned_data.get("allow"):
            clubs = _chosen_clubs(self.request)
            if not clubs:
                form.add_error(None, "Choose at least one club the app may act in.")
                return self.form_invalid(form)
            named = [s for s in form.cleaned_data["scope"].split() if s in app_scopes.SCOPES]
            form.cleaned_data["scope"] = app_scopes.scope_string(named, clubs)
        return super().form_valid(form)  # type: ignore[no-any-return]

    def form_invalid(self, form: Any) -> HttpResponse:
        from oauth2_provider.models import get_application_model

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

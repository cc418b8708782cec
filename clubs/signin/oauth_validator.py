"""OAuth2 sign-in for score apps, on django-oauth-toolkit: the validator that knows clubs. A
token's scope names the clubs chosen at consent, kept through refreshes; a code traded twice
revokes what it gave. How an app signs in: docs/api.md."""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import DeviceGrant, RefreshToken, get_grant_model
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauthlib.oauth2.rfc6749 import errors as oauth_errors

from clubs import selectors
from clubs.models import SpentAuthorizationCode
from clubs.signin import scopes as app_scopes

log = logging.getLogger(__name__)

DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
# In the order the server's metadata lists them.
SIGN_IN_GRANTS = ("authorization_code", "refresh_token", DEVICE_CODE_GRANT)


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
        return clubs <= selectors.club_ids_for_user(user=user)

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

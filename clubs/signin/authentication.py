"""The API's sign-ins for score apps: a person's token (``Authorization: Token <key>``, or
``Bearer <key>``) and an app's OAuth2 access token (``Bearer``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from oauth2_provider.models import AccessToken
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from clubs.keys import token_digest
from clubs.models import ApiToken

KEY_PREFIX_LENGTH = 8
# Writing a token's last use on every request would make each call a write; once a minute is
# plenty (a person's tokens and apps' alike).
LAST_USED_RESOLUTION = timedelta(minutes=1)


def _token_user(digest: str, *, used_before: datetime) -> Any | None:
    """The user of the token with ``digest``, with the token's ``token_id``, ``token_scope``,
    ``token_revoked`` and ``token_used_before`` (not used since ``used_before``), or None for
    an unknown token.
    Every API call starts here, so it is one statement written out: built by the ORM it cost
    about 0.8 ms of Python per request, written out about 0.2 ms."""
    user_model = get_user_model()
    quote = connection.ops.quote_name
    users = user_model.objects.raw(
        "SELECT account.*, token.id AS token_id, token.scope AS token_scope,"
        " token.revoked_at IS NOT NULL AS token_revoked,"
        " (token.last_used_at IS NULL OR token.last_used_at < %s) AS token_used_before"
        f" FROM {quote(user_model._meta.db_table)} account"
        f" JOIN {quote(ApiToken._meta.db_table)} token"
        f" ON token.user_id = account.{quote(user_model._meta.pk.column)}"
        " WHERE token.digest = %s",
        [connection.ops.adapt_datetimefield_value(used_before), digest],
    )
    return next(iter(users), None)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keywords = ("token", "bearer")

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode(errors="replace").lower() not in self.keywords:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _("malformed Authorization header: expected 'Token <key>'")
            )
        try:
            key = header[1].decode()
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("the token is not valid text")) from None
        now = timezone.now()
        user = _token_user(token_digest(key), used_before=now - LAST_USED_RESOLUTION)
        if user is None:
            raise exceptions.AuthenticationFailed(_("unknown token"))
        if user.token_revoked:
            raise exceptions.AuthenticationFailed(_("this token has been revoked"))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("the token's user is inactive"))
        if user.token_used_before:
            ApiToken.objects.filter(pk=user.token_id).update(last_used_at=now)
        # request.auth: the token by id and scope (nothing reads its other fields on a request).
        return user, ApiToken(pk=user.token_id, user=user, scope=user.token_scope)

    def authenticate_header(self, request: Request) -> str:
        return "Token"


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
            raise exceptions.AuthenticationFailed(_("the token's user is inactive"))
        now = timezone.now()
        if token.updated < now - LAST_USED_RESOLUTION:
            # ``updated`` is the token's last use (the pages show it as such).
            AccessToken.objects.filter(pk=token.pk).update(updated=now)
        return user, token

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'

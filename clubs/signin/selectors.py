"""Reads about signing in: a person's tokens, the apps that can act for them or in a club, the
apps a club's owner registered and their web origins."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from oauth2_provider.models import AccessToken, get_application_model

from clubs.models import ApiToken, Club
from clubs.signin import scopes as app_scopes
from clubs.signin.oauth_redirects import web_origin
from config.errors import NotFoundError

User = AbstractBaseUser | AnonymousUser


def api_token_list(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at")


# --- apps signed in with OAuth2, and personal tokens, as the Apps pages show them -------------


@dataclass
class AppAccess:
    """One app's access: an OAuth2 application a person granted (``application_id``), or one of
    their personal tokens (``token_id``); its scopes, its clubs and when it was last used."""

    name: str
    user: Any
    scopes: list[str]
    club_ids: list[int]
    last_used: datetime | None
    application_id: int | None = None
    token_id: int | None = None
    clubs: list[Club] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "app" if self.application_id is not None else "personal token"


def _club_pattern(club_id: int) -> str:
    return rf"(^| ){app_scopes.club_scope(club_id)}( |$)"


def _live_app_tokens() -> QuerySet[Any]:
    """OAuth2 access tokens that still work, or whose refresh token still does."""
    return (
        AccessToken.objects.filter(application__isnull=False, user__isnull=False)
        .filter(Q(expires__gt=timezone.now()) | Q(refresh_token__revoked__isnull=True))
        .select_related("application", "user")
        .order_by("pk")
    )


def _app_access_rows(tokens: Any, personal: Any) -> list[AppAccess]:
    rows: dict[tuple[str, int, int], AppAccess] = {}
    for token in tokens:
        grant = app_scopes.TokenGrant.parse(token.scope)
        key = ("app", token.application_id, token.user_id)
        row = rows.get(key)
        if row is None:
            row = rows[key] = AppAccess(
                name=token.application.name, user=token.user, scopes=[], club_ids=[],
                last_used=None, application_id=token.application_id,
            )  # fmt: skip
        row.scopes = sorted(set(row.scopes) | grant.scopes, key=app_scopes.ALL_SCOPES.index)
        row.club_ids = sorted(set(row.club_ids) | grant.club_ids)
        if row.last_used is None or token.updated > row.last_used:
            row.last_used = token.updated
    for api_token in personal:
        grant = app_scopes.TokenGrant.parse(api_token.scope)
        rows[("token", api_token.pk, api_token.user_id)] = AppAccess(
            name=api_token.name, user=api_token.user,
            scopes=sorted(grant.scopes, key=app_scopes.ALL_SCOPES.index),
            club_ids=sorted(grant.club_ids), last_used=api_token.last_used_at,
            token_id=api_token.pk,
        )  # fmt: skip
    names = Club.objects.in_bulk({c for row in rows.values() for c in row.club_ids})
    for row in rows.values():
        row.clubs = [names[c] for c in row.club_ids if c in names]
    return list(rows.values())


def app_access_list_for_user(*, user: User) -> list[AppAccess]:
    """The apps ``user`` signed in to with OAuth2 and that can still act, one row per app."""
    return _app_access_rows(_live_app_tokens().filter(user_id=user.pk), [])


def app_access_list_for_club(*, club: Club) -> list[AppAccess]:
    """Every app and personal token that can act in ``club``: one row per app and person, and
    one per personal token."""
    pattern = _club_pattern(club.pk)
    tokens = _live_app_tokens().filter(scope__regex=pattern)
    personal = (
        ApiToken.objects.filter(revoked_at__isnull=True, scope__regex=pattern)
        .select_related("user")
        .order_by("pk")
    )
    return sorted(
        _app_access_rows(tokens, personal), key=lambda row: (row.name.lower(), row.user.pk)
    )


# --- apps registered by a club's owner -----------------------------------------------------------


def oauth_apps_registered_by(*, user: User) -> QuerySet[Any]:
    """The OAuth2 apps ``user`` registered, newest first."""
    return get_application_model().objects.filter(user_id=user.pk).order_by("-created", "-pk")


def oauth_app_registered_by(*, user: User, application_id: int) -> Any:
    """One app ``user`` registered; someone else's app is "not found", as a missing one."""
    application = oauth_apps_registered_by(user=user).filter(pk=application_id).first()
    if application is None:
        raise NotFoundError(_("no app #%(id)s of yours") % {"id": application_id})
    return application


def registered_app_origins() -> frozenset[str]:
    """The web origins of every registered app: those of its https and loopback http redirect
    URIs, and those the operator listed in its allowed origins (the admin's field)."""
    origins: set[str] = set()
    rows = get_application_model().objects.values_list("redirect_uris", "allowed_origins")
    for redirect_uris, allowed_origins in rows:
        for uri in f"{redirect_uris} {allowed_origins}".split():
            origin = web_origin(uri)
            if origin:
                origins.add(origin)
    return frozenset(origins)

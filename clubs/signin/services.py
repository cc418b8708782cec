"""Every write about signing in: accounts, personal API tokens, the OAuth2 apps a club's owner
registers and a person's sign-out of one. Keyword-only, atomic, audited."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import (
    AccessToken,
    Application,
    RefreshToken,
    get_application_model,
    get_device_grant_model,
)

from clubs.audit import audit_record, snapshot
from clubs.keys import token_digest
from clubs.models import ApiToken, Membership, Role
from clubs.signin import scopes as app_scopes
from clubs.signin.authentication import KEY_PREFIX_LENGTH
from clubs.signin.oauth_redirects import MAX_REDIRECT_URIS, redirect_uri_problem
from clubs.validation import model_valid
from config.errors import Conflict, InvalidInput, NotAllowed, NotFoundError
from config.names import name_checked, require_length


@transaction.atomic
def account_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    """A new account (from an invitation's page); Django's password validators apply."""
    username = username.strip()
    User = get_user_model()
    if not username:
        raise InvalidInput("username: " + gettext("choose a username"))
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(
            "username: " + gettext("that username is taken; choose another"),
            code="username_taken",
        )
    user = User(username=username, email=email.strip())
    try:
        user.full_clean(exclude=["password"])
        validate_password(password, user)
    except ValidationError as exc:
        field = (
            next(iter(exc.message_dict), "password") if hasattr(exc, "message_dict") else "password"
        )
        raise InvalidInput(f"{field}: {' '.join(exc.messages)}") from None
    user.set_password(password)
    user.save()
    return user


# --- personal API tokens -------------------------------------------------------------------------


@transaction.atomic
def api_token_create(
    *,
    user: AbstractBaseUser,
    name: str,
    scopes: Collection[str] | None = None,
    club_slugs: Collection[str] | None = None,
) -> tuple[ApiToken, str]:
    """A new token and its key; the key is returned only here and never stored. Left out, its
    scopes are all of them and its clubs all of the user's clubs (as tokens made before scopes
    were); a club the user does not belong to is refused by name."""
    name = name_checked(name)
    if not name:
        raise InvalidInput(
            "name: " + gettext("give the token a name, e.g. the app that will use it")
        )
    require_length(name, field="name", limit=ApiToken._meta.get_field("name").max_length)
    scopes = app_scopes.ALL_SCOPES if scopes is None else list(scopes)
    unknown = [s for s in scopes if s not in app_scopes.SCOPES]
    if unknown or not scopes:
        values = {"scopes": ", ".join(app_scopes.ALL_SCOPES)}
        message = "scopes: " + (
            gettext("unknown scope %(scope)s; the scopes are %(scopes)s")
            % {**values, "scope": repr(unknown[0])}
            if unknown
            else gettext("give at least one; the scopes are %(scopes)s") % values
        )
        raise InvalidInput(message, details={"scopes": message})
    member_clubs = dict(Membership.objects.filter(user=user).values_list("club__slug", "club_id"))
    slugs = list(member_clubs) if club_slugs is None else list(club_slugs)
    outside = [slug for slug in slugs if slug not in member_clubs]
    if outside or not slugs:
        message = "clubs: " + (
            gettext("you are not a member of %(club)s") % {"club": repr(outside[0])}
            if outside
            else gettext("give at least one of your clubs")
        )
        raise InvalidInput(message, details={"clubs": message})
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=key[:KEY_PREFIX_LENGTH],
        digest=token_digest(key),
        scope=app_scopes.scope_string(scopes, [member_clubs[slug] for slug in slugs]),
    )
    audit_record(
        actor=user, club=None, action="token.create", obj=token,
        after={"name": name, "scope": token.scope},
    )  # fmt: skip
    return token, key


@transaction.atomic
def app_access_revoke(*, user: AbstractBaseUser, application_id: int) -> int:
    """Sign ``user`` out of an OAuth2 app: every refresh token revoked and every access token
    deleted, so its next call answers 401. Returns how many tokens stopped working."""
    application = Application.objects.filter(pk=application_id).first()
    if application is None:
        raise NotFoundError(gettext("no app #%(id)s") % {"id": application_id})
    refresh = RefreshToken.objects.filter(
        user=user, application_id=application_id, revoked__isnull=True
    )
    stopped = 0
    for token in refresh.select_for_update():
        token.revoke()
        stopped += 1
    deleted, _ = AccessToken.objects.filter(user=user, application_id=application_id).delete()
    stopped += deleted
    if stopped:
        audit_record(
            actor=user, club=None, action="app.revoke", obj=application,
            after={"application": application.name, "tokens": stopped},
        )  # fmt: skip
    return stopped


@transaction.atomic
def tokens_revoke_on_password_change(*, user: AbstractBaseUser) -> int:
    """A new password ends every key the old one stood behind: the person's API tokens are
    revoked and every app they signed in to is signed out (refresh tokens revoked, access
    tokens deleted), so a key copied before the change stops working. Returns how many."""
    now = timezone.now()
    stopped = ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=now)
    for token in RefreshToken.objects.filter(user=user, revoked__isnull=True).select_for_update():
        token.revoke()
        stopped += 1
    deleted, _ = AccessToken.objects.filter(user=user).delete()
    stopped += deleted
    if stopped:
        audit_record(
            actor=user, club=None, action="tokens.revoke_on_password", obj=user,
            after={"tokens": stopped},
        )  # fmt: skip
    return stopped


@transaction.atomic
def api_token_revoke(*, token: ApiToken, actor: AbstractBaseUser) -> ApiToken:
    token = ApiToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit_record(actor=actor, club=None, action="token.revoke", obj=token)
    return token


# --- OAuth2 apps a club's owner registers --------------------------------------------------------

#: The grants an app may be registered for: by the short names the page and the command use, and
#: by the toolkit's own names (those of ``createapplication``).
APP_GRANT_NAMES = {
    "authorization-code": "authorization-code",
    "device": "urn:ietf:params:oauth:grant-type:device_code",
    "urn:ietf:params:oauth:grant-type:device_code": "urn:ietf:params:oauth:grant-type:device_code",
}
APP_CLIENT_TYPES = ("public", "confidential")
APP_NAME_LENGTH = 80
APP_FIELDS = ["name", "client_id", "client_type", "authorization_grant_type", "redirect_uris"]


def _app_grant(grant: str) -> str:
    found = APP_GRANT_NAMES.get(grant.strip())
    if found is None:
        raise InvalidInput(
            "grant: "
            + gettext(
                "%(grant)s is not offered; an app signs in with the authorization code "
                "(authorization-code) or the device grant (device), each with refresh tokens"
            )
            % {"grant": repr(grant)}
        )
    return found


def _app_redirect_uris(text: str, *, grant: str) -> str:
    """The redirect URIs as stored (space-separated, each once), or a refusal naming the first
    URI that cannot be registered and why."""
    uris = list(dict.fromkeys(text.split()))
    if grant == APP_GRANT_NAMES["device"]:
        if uris:
            raise InvalidInput(
                "redirect_uris: "
                + gettext(
                    "a device app signs in with a code the person types, without a redirect; "
                    "leave the redirect URIs empty"
                )
            )
        return ""
    if not uris:
        raise InvalidInput(
            "redirect_uris: "
            + gettext(
                "give at least one, e.g. https://scores.example/signed-in, "
                "http://127.0.0.1:8765/callback or rummyclub://signed-in"
            )
        )
    if len(uris) > MAX_REDIRECT_URIS:
        raise InvalidInput(
            "redirect_uris: "
            + gettext("at most %(most)s (these are %(count)s)")
            % {"most": MAX_REDIRECT_URIS, "count": len(uris)}
        )
    problems = [problem for problem in map(redirect_uri_problem, uris) if problem]
    if problems:
        raise InvalidInput(f"redirect_uris: {problems[0]}", details={"redirect_uris": problems})
    return " ".join(uris)


@transaction.atomic
def oauth_app_register(
    *,
    user: AbstractBaseUser | None,
    name: str,
    client_type: str,
    grant: str,
    redirect_uris: str = "",
) -> tuple[Any, str]:
    """A new OAuth2 app registered by ``user`` (a club's owner; None when the server's operator
    registers it), and its client secret: empty for a public app, and for a confidential one
    returned only here (it is stored hashed). Never "skip authorization": the person chooses
    the clubs on the consent page every time."""
    if user is not None and not Membership.objects.filter(user=user, role=Role.OWNER).exists():
        raise NotAllowed(gettext("only a club's owner can register an app, and you own no club"))
    name = name_checked(name)
    if not name:
        raise InvalidInput(
            "name: " + gettext("give the app a name, the one people see when they sign in")
        )
    require_length(name, field="name", limit=APP_NAME_LENGTH)
    if client_type not in APP_CLIENT_TYPES:
        raise InvalidInput(
            "client_type: "
            + gettext(
                "%(type)s is neither public (a phone, browser or device app, which cannot keep a "
                "secret) nor confidential (a server, which can)"
            )
            % {"type": repr(client_type)}
        )
    grant = _app_grant(grant)
    secret = generate_client_secret() if client_type == "confidential" else ""
    application = get_application_model()(
        user=user,
        name=name,
        client_type=client_type,
        authorization_grant_type=grant,
        redirect_uris=_app_redirect_uris(redirect_uris, grant=grant),
        client_secret=secret,
        # A public app has no secret: nothing to hash (a hash of "" would look like one).
        hash_client_secret=bool(secret),
        skip_authorization=False,
        algorithm="",
    )
    model_valid(application)
    application.save()
    audit_record(
        actor=user, club=None, action="app.register", obj=application,
        after=snapshot(application, APP_FIELDS),
    )  # fmt: skip
    return application, secret


def _own_app(application: Any, actor: AbstractBaseUser) -> None:
    if application.user_id != actor.pk:
        raise NotAllowed(gettext("only the person who registered an app can change it"))


@transaction.atomic
def oauth_app_update_redirect_uris(
    *, application: Any, actor: AbstractBaseUser, redirect_uris: str
) -> Any:
    """New redirect URIs for an app ``actor`` registered (the sign-ins under way to an address
    no longer listed then fail at the token endpoint)."""
    _own_app(application, actor)
    before = snapshot(application, ["redirect_uris"])
    application.redirect_uris = _app_redirect_uris(
        redirect_uris, grant=application.authorization_grant_type
    )
    model_valid(application)
    application.save(update_fields=["redirect_uris", "updated"])
    audit_record(
        actor=actor, club=None, action="app.update", obj=application, before=before,
        after=snapshot(application, ["redirect_uris"]),
    )  # fmt: skip
    return application


@transaction.atomic
def oauth_app_delete(*, application: Any, actor: AbstractBaseUser) -> None:
    """Delete an app ``actor`` registered: its tokens and codes go with it, so everyone signed
    in with it is signed out, and devices waiting for approval get no token."""
    _own_app(application, actor)
    audit_record(
        actor=actor, club=None, action="app.delete", obj=application,
        before=snapshot(application, APP_FIELDS),
    )  # fmt: skip
    # Device codes name the app by its client id, not by a foreign key.
    get_device_grant_model().objects.filter(client_id=application.client_id).delete()
    application.delete()

"""Every write about clubs, members, players and API tokens. Keyword-only, atomic, audited."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import (
    AccessToken,
    Application,
    RefreshToken,
    get_application_model,
    get_device_grant_model,
)

from clubs import scopes as app_scopes
from clubs.audit import audit_record, snapshot
from clubs.authentication import KEY_PREFIX_LENGTH, token_digest
from clubs.models import ROLE_RANK, ApiToken, Club, Invitation, Membership, Player, Role
from clubs.oauth_redirects import MAX_REDIRECT_URIS, redirect_uri_problem
from config.errors import Conflict, InvalidInput, NotAllowed, NotFoundError
from config.names import require_length, visible_name

CLUB_FIELDS = [
    "name", "slug", "currency", "timezone", "public_standings", "requires_confirmation",
    "table_entry",
]  # fmt: skip
PLAYER_FIELDS = ["name", "user", "active"]


def _full_clean(obj: Any, exclude: list[str] | None = None) -> None:
    """Model validation, reported as ``InvalidInput`` with the failing fields as details."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        details = exc.message_dict
        field, messages = next(iter(details.items()))
        raise InvalidInput(f"{field}: {messages[0]}", details=details) from None


@transaction.atomic
def club_create(
    *,
    owner: AbstractBaseUser,
    name: str,
    slug: str | None = None,
    currency: str = "INR",
    timezone_name: str = "UTC",
    public_standings: bool = False,
    requires_confirmation: bool = False,
    table_entry: str = "off",
) -> Club:
    club = Club(
        name=visible_name(name),
        # A name with no letter or digit to make an address from (emoji only) gets one made up.
        slug=slug or slugify(name)[:60] or f"club-{secrets.token_hex(3)}",
        currency=currency,
        timezone=timezone_name,
        public_standings=public_standings,
        requires_confirmation=requires_confirmation,
        table_entry=table_entry,
    )
    _full_clean(club, exclude=["slug"] if slug is None else None)
    if Club.objects.filter(slug=club.slug).exists():
        raise Conflict(f"slug: a club with slug {club.slug!r} exists", code="slug_taken")
    club.save()
    Membership.objects.create(user=owner, club=club, role=Role.OWNER)
    audit_record(
        actor=owner, club=club, action="club.create", obj=club, after=snapshot(club, CLUB_FIELDS)
    )
    return club


@transaction.atomic
def club_update(*, club: Club, actor: AbstractBaseUser, **changes: Any) -> Club:
    unknown = set(changes) - set(CLUB_FIELDS)
    if unknown:
        raise InvalidInput(f"{sorted(unknown)[0]}: not a club field that can be changed")
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = snapshot(club, CLUB_FIELDS)
    if "name" in changes:
        changes["name"] = visible_name(changes["name"])
    for field, value in changes.items():
        setattr(club, field, value)
    _full_clean(club)
    if "slug" in changes and Club.objects.filter(slug=club.slug).exclude(pk=club.pk).exists():
        raise Conflict(f"slug: a club with slug {club.slug!r} exists", code="slug_taken")
    club.save()
    audit_record(
        actor=actor,
        club=club,
        action="club.update",
        obj=club,
        before=before,
        after=snapshot(club, CLUB_FIELDS),
    )
    return club


def _check_role_grant(*, actor_role: str, role: str) -> None:
    """Organisers manage scorers and players; only an owner grants or takes organiser or owner."""
    if role not in ROLE_RANK:
        raise InvalidInput(f"role: unknown role {role!r}", details={"role": role})
    needed = Role.OWNER if ROLE_RANK[role] >= ROLE_RANK[Role.ORGANISER] else Role.ORGANISER
    if ROLE_RANK[actor_role] < ROLE_RANK[needed]:
        raise NotAllowed(f"only an {needed} can grant or change the {role} role")


def _owner_count(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).count()


@transaction.atomic
def membership_add(
    *, club: Club, actor: AbstractBaseUser, actor_role: str, username: str, role: str
) -> Membership:
    _check_role_grant(actor_role=actor_role, role=role)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise InvalidInput(f"username: no account named {username!r}", code="unknown_user")
    if Membership.objects.filter(club=club, user=user).exists():
        raise Conflict(f"username: {username!r} is already a member of {club.name}")
    membership = Membership.objects.create(club=club, user=user, role=role)
    audit_record(
        actor=actor,
        club=club,
        action="membership.add",
        obj=membership,
        after={"user": username, "role": role},
    )
    return membership


@transaction.atomic
def membership_change_role(
    *, membership: Membership, actor: AbstractBaseUser, actor_role: str, role: str
) -> Membership:
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    _check_role_grant(actor_role=actor_role, role=role)
    _check_role_grant(actor_role=actor_role, role=membership.role)
    if membership.role == Role.OWNER and role != Role.OWNER and _owner_count(membership.club) == 1:
        raise Conflict("a club needs at least one owner", code="last_owner")
    before = {"role": membership.role}
    membership.role = role
    membership.save(update_fields=["role"])
    audit_record(
        actor=actor,
        club=membership.club,
        action="membership.change_role",
        obj=membership,
        before=before,
        after={"role": role},
    )
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, actor: AbstractBaseUser, actor_role: str) -> None:
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    _check_role_grant(actor_role=actor_role, role=membership.role)
    if membership.role == Role.OWNER and _owner_count(membership.club) == 1:
        raise Conflict("a club needs at least one owner", code="last_owner")
    audit_record(
        actor=actor,
        club=membership.club,
        action="membership.remove",
        obj=membership,
        before={"user": membership.user.get_username(), "role": membership.role},
    )
    membership.delete()


def _check_player_user(club: Club, user: AbstractBaseUser | None, exclude_pk: int | None) -> None:
    if user is None:
        return
    taken = Player.objects.filter(club=club, user=user).exclude(pk=exclude_pk)
    if taken.exists():
        raise Conflict(f"user: {user.get_username()!r} is already a player of {club.name}")


def _player_save(player: Player) -> None:
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise Conflict(
            f"name: a player named {player.name!r} is already on the roster", code="name_taken"
        ) from None


@transaction.atomic
def player_create(
    *, club: Club, actor: AbstractBaseUser | None, name: str, user: AbstractBaseUser | None = None
) -> Player:
    player = Player(club=club, name=visible_name(name), user=user)
    _full_clean(player, exclude=["club"])
    _check_player_user(club, user, None)
    _player_save(player)
    audit_record(
        actor=actor,
        club=club,
        action="player.create",
        obj=player,
        after=snapshot(player, PLAYER_FIELDS),
    )
    return player


@transaction.atomic
def player_update(*, player: Player, actor: AbstractBaseUser, **changes: Any) -> Player:
    unknown = set(changes) - set(PLAYER_FIELDS)
    if unknown:
        raise InvalidInput(f"{sorted(unknown)[0]}: not a player field that can be changed")
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.merged_into_id is not None:
        raise Conflict(
            f"{player.name} was merged into player #{player.merged_into_id}: change that player",
            code="player_merged",
        )
    before = snapshot(player, PLAYER_FIELDS)
    if "name" in changes:
        changes["name"] = visible_name(changes["name"])
    for field, value in changes.items():
        setattr(player, field, value)
    _full_clean(player, exclude=["club"])
    if "user" in changes:
        _check_player_user(player.club, player.user, player.pk)
    _player_save(player)
    audit_record(
        actor=actor,
        club=player.club,
        action="player.update",
        obj=player,
        before=before,
        after=snapshot(player, PLAYER_FIELDS),
    )
    return player


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
    name = visible_name(name)
    if not name:
        raise InvalidInput("name: give the token a name, e.g. the app that will use it")
    require_length(name, field="name", limit=ApiToken._meta.get_field("name").max_length)
    scopes = app_scopes.ALL_SCOPES if scopes is None else list(scopes)
    unknown = [s for s in scopes if s not in app_scopes.SCOPES]
    if unknown or not scopes:
        message = (
            f"scopes: unknown scope {unknown[0]!r}" if unknown else "scopes: give at least one"
        ) + f"; the scopes are {', '.join(app_scopes.ALL_SCOPES)}"
        raise InvalidInput(message, details={"scopes": message})
    member_clubs = dict(Membership.objects.filter(user=user).values_list("club__slug", "club_id"))
    slugs = list(member_clubs) if club_slugs is None else list(club_slugs)
    outside = [slug for slug in slugs if slug not in member_clubs]
    if outside or not slugs:
        message = (
            f"clubs: you are not a member of {outside[0]!r}"
            if outside
            else "clubs: give at least one of your clubs"
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
        raise NotFoundError(f"no app #{application_id}")
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
def api_token_revoke(*, token: ApiToken, actor: AbstractBaseUser) -> ApiToken:
    token = ApiToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit_record(actor=actor, club=None, action="token.revoke", obj=token)
    return token


# --- invitations ---------------------------------------------------------------------------------

#: How long an invitation works.
INVITATION_DAYS = 7


@transaction.atomic
def invitation_create(
    *, club: Club, actor: AbstractBaseUser, actor_role: str, role: str, email: str = ""
) -> tuple[Invitation, str]:
    """An invitation to join ``club`` as ``role`` (organisers invite scorers and players, owners
    anyone); returns it with its key, which is shown (or mailed) once and never stored."""
    _check_role_grant(actor_role=actor_role, role=role)
    key = secrets.token_urlsafe(24)
    invitation = Invitation.objects.create(
        club=club, role=role, email=email.strip(), digest=token_digest(key), created_by=actor,
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )  # fmt: skip
    audit_record(
        actor=actor, club=club, action="invitation.create", obj=invitation,
        after={"role": role, "email": invitation.email},
    )  # fmt: skip
    return invitation, key


def invitation_for_key(*, key: str) -> Invitation:
    """The invitation a key opens, if it still works (not used, revoked or expired)."""
    invitation = (
        Invitation.objects.select_related("club")
        .filter(digest=token_digest(key), invitee__isnull=True, username="")
        .first()
    )
    if invitation is None:
        raise NotFoundError("this invitation link is not valid")
    _invitation_open(invitation)
    return invitation


@transaction.atomic
def invitation_for_account(
    *, club: Club, actor: AbstractBaseUser, actor_role: str, username: str, role: str
) -> Invitation:
    """An invitation made out to an account by its username, which that account accepts (or
    declines) from its home page. Made whether or not the account exists or is already a
    member, so that nothing tells the inviter which usernames exist: one that cannot be
    accepted simply expires."""
    _check_role_grant(actor_role=actor_role, role=role)
    username = username.strip()
    user = get_user_model().objects.filter(username=username).first()
    if user is not None and Membership.objects.filter(club=club, user=user).exists():
        user = None  # already in: nothing to accept
    invitation = Invitation.objects.create(
        club=club, role=role, username=username, invitee=user,
        digest=token_digest(secrets.token_urlsafe(24)), created_by=actor,
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )  # fmt: skip
    audit_record(
        actor=actor, club=club, action="invitation.create", obj=invitation,
        after={"role": role, "username": username},
    )  # fmt: skip
    return invitation


def _invitation_open(invitation: Invitation) -> None:
    if invitation.accepted_at is not None:
        raise Conflict("this invitation was already used", code="invitation_used")
    if invitation.revoked_at is not None:
        raise Conflict("this invitation was withdrawn or declined", code="invitation_revoked")
    if invitation.expires_at <= timezone.now():
        raise Conflict("this invitation has expired: ask for a new one", code="invitation_expired")


def _invitation_use(invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """``user`` joins the club with the invitation's role; the invitation is used up."""
    invitation = Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    _invitation_open(invitation)
    if Membership.objects.filter(club=invitation.club, user=user).exists():
        raise Conflict(f"you are already a member of {invitation.club.name}", code="already_member")
    membership = Membership.objects.create(club=invitation.club, user=user, role=invitation.role)
    invitation.accepted_by, invitation.accepted_at = user, timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    audit_record(
        actor=user, club=invitation.club, action="invitation.accept", obj=invitation,
        after={"role": invitation.role, "user": user.get_username()},
    )  # fmt: skip
    return membership


@transaction.atomic
def invitation_accept(*, key: str, user: AbstractBaseUser) -> Membership:
    """``user`` joins the club the invitation link is for."""
    return _invitation_use(invitation_for_key(key=key), user)


def _invitation_received(invitation_id: int, user: AbstractBaseUser) -> Invitation:
    invitation = Invitation.objects.filter(pk=invitation_id, invitee=user).first()
    if invitation is None:
        raise NotFoundError(f"no invitation #{invitation_id} for you")
    return invitation


@transaction.atomic
def invitation_accept_received(*, invitation_id: int, user: AbstractBaseUser) -> Membership:
    """``user`` accepts an invitation made out to their account."""
    return _invitation_use(_invitation_received(invitation_id, user), user)


@transaction.atomic
def invitation_decline(*, invitation_id: int, user: AbstractBaseUser) -> Invitation:
    """``user`` turns down an invitation made out to their account."""
    invitation = Invitation.objects.select_for_update().get(
        pk=_invitation_received(invitation_id, user).pk
    )
    _invitation_open(invitation)
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    audit_record(actor=user, club=invitation.club, action="invitation.decline", obj=invitation)
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, actor: AbstractBaseUser) -> Invitation:
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at is None and invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        audit_record(actor=actor, club=invitation.club, action="invitation.revoke", obj=invitation)
    return invitation


@transaction.atomic
def account_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    """A new account (from an invitation's page); Django's password validators apply."""
    username = username.strip()
    User = get_user_model()
    if not username:
        raise InvalidInput("username: choose a username")
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("username: that username is taken; choose another", code="username_taken")
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
            f"grant: {grant!r} is not offered; an app signs in with the authorization code "
            "(authorization-code) or the device grant (device), each with refresh tokens"
        )
    return found


def _app_redirect_uris(text: str, *, grant: str) -> str:
    """The redirect URIs as stored (space-separated, each once), or a refusal naming the first
    URI that cannot be registered and why."""
    uris = list(dict.fromkeys(text.split()))
    if grant == APP_GRANT_NAMES["device"]:
        if uris:
            raise InvalidInput(
                "redirect_uris: a device app signs in with a code the person types, without a "
                "redirect; leave the redirect URIs empty"
            )
        return ""
    if not uris:
        raise InvalidInput(
            "redirect_uris: give at least one, e.g. https://scores.example/signed-in, "
            "http://127.0.0.1:8765/callback or rummyclub://signed-in"
        )
    if len(uris) > MAX_REDIRECT_URIS:
        raise InvalidInput(f"redirect_uris: at most {MAX_REDIRECT_URIS} (these are {len(uris)})")
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
        raise NotAllowed("only a club's owner can register an app, and you own no club")
    name = visible_name(name)
    if not name:
        raise InvalidInput("name: give the app a name, the one people see when they sign in")
    require_length(name, field="name", limit=APP_NAME_LENGTH)
    if client_type not in APP_CLIENT_TYPES:
        raise InvalidInput(
            f"client_type: {client_type!r} is neither public (a phone, browser or device app, "
            "which cannot keep a secret) nor confidential (a server, which can)"
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
    _full_clean(application)
    application.save()
    audit_record(
        actor=user, club=None, action="app.register", obj=application,
        after=snapshot(application, APP_FIELDS),
    )  # fmt: skip
    return application, secret


def _own_app(application: Any, actor: AbstractBaseUser) -> None:
    if application.user_id != actor.pk:
        raise NotAllowed("only the person who registered an app can change it")


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
    _full_clean(application)
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

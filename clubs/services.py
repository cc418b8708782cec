"""Every write about clubs, members, players and invitations. Keyword-only, atomic, audited."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.audit import audit_record, snapshot
from clubs.keys import token_digest
from clubs.models import (
    ROLE_RANK,
    Club,
    Invitation,
    LanguageChoice,
    Membership,
    Player,
    Role,
    phone_kept,
    role_word,
)
from clubs.validation import model_valid
from config.errors import Conflict, InvalidInput, NotAllowed, NotFoundError
from config.names import name_checked

CLUB_FIELDS = [
    "name", "slug", "currency", "timezone", "public_standings", "requires_confirmation",
    "table_entry", "points_only", "language",
]  # fmt: skip
PLAYER_FIELDS = [
    "name", "user", "active", "upi_id", "payment_link", "nickname", "email", "phone",
    "membership_number",
]  # fmt: skip
#: A player's contact details and the club's number for them: free text, tidied as kept.
PLAYER_DETAILS = ("nickname", "email", "phone", "membership_number")
#: What a player may change of their own roster entry (their account's); organisers change all.
PLAYER_OWN_FIELDS = {"upi_id", "payment_link"}


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
    points_only: bool = False,
    language: str = "",
) -> Club:
    club = Club(
        name=name_checked(name),
        # A name with no letter or digit to make an address from (emoji only) gets one made up.
        slug=slug or slugify(name)[:60] or f"club-{secrets.token_hex(3)}",
        currency=currency,
        timezone=timezone_name,
        public_standings=public_standings,
        requires_confirmation=requires_confirmation,
        table_entry=table_entry,
        points_only=points_only,
        language=language,
    )
    model_valid(club, exclude=["slug"] if slug is None else None)
    if Club.objects.filter(slug=club.slug).exists():
        raise Conflict(_slug_taken(club.slug), code="slug_taken")
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
        raise InvalidInput(f"{sorted(unknown)[0]}: " + _("not a club field that can be changed"))
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = snapshot(club, CLUB_FIELDS)
    if "name" in changes:
        changes["name"] = name_checked(changes["name"])
    for field, value in changes.items():
        setattr(club, field, value)
    model_valid(club)
    if "slug" in changes and Club.objects.filter(slug=club.slug).exclude(pk=club.pk).exists():
        raise Conflict(_slug_taken(club.slug), code="slug_taken")
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


def _slug_taken(slug: str) -> str:
    return "slug: " + _("a club with slug %(slug)s exists") % {"slug": repr(slug)}


def _check_role_grant(*, actor_role: str, role: str) -> None:
    """Organisers manage scorers and players; only an owner grants or takes organiser or owner."""
    if role not in ROLE_RANK:
        raise InvalidInput(
            "role: " + _("unknown role %(role)s") % {"role": repr(role)}, details={"role": role}
        )
    needed = Role.OWNER if ROLE_RANK[role] >= ROLE_RANK[Role.ORGANISER] else Role.ORGANISER
    if ROLE_RANK[actor_role] < ROLE_RANK[needed]:
        raise NotAllowed(
            _("only an %(needed)s can grant or change the %(role)s role")
            % {"needed": role_word(needed), "role": role_word(role)}
        )


def _owner_count(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).count()


@transaction.atomic
def membership_add(
    *, club: Club, actor: AbstractBaseUser, actor_role: str, username: str, role: str
) -> Membership:
    _check_role_grant(actor_role=actor_role, role=role)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise InvalidInput(
            "username: " + _("no account named %(username)s") % {"username": repr(username)},
            code="unknown_user",
        )
    if Membership.objects.filter(club=club, user=user).exists():
        raise Conflict(
            "username: "
            + _("%(username)s is already a member of %(club)s")
            % {"username": repr(username), "club": club.name}
        )
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
        raise Conflict(_("a club needs at least one owner"), code="last_owner")
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
        raise Conflict(_("a club needs at least one owner"), code="last_owner")
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
        raise Conflict(
            "user: "
            + _("%(username)s is already a player of %(club)s")
            % {"username": repr(user.get_username()), "club": club.name}
        )


def player_details_tidied(details: dict[str, Any]) -> dict[str, str]:
    """The contact details as kept: white space collapsed, a phone number without its spaces,
    dashes and brackets."""
    tidied = {field: " ".join(str(value or "").split()) for field, value in details.items()}
    if "phone" in tidied:
        tidied["phone"] = phone_kept(tidied["phone"])
    return tidied


def _player_save(player: Player) -> None:
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as exc:
        if "membership_number" in str(exc):
            raise Conflict(
                "membership_number: "
                + _("%(number)s is another player's") % {"number": repr(player.membership_number)},
                code="membership_number_taken",
            ) from None
        raise Conflict(
            "name: "
            + _("a player named %(name)s is already on the roster") % {"name": repr(player.name)},
            code="name_taken",
        ) from None


@transaction.atomic
def player_create(
    *,
    club: Club,
    actor: AbstractBaseUser | None,
    name: str,
    user: AbstractBaseUser | None = None,
    **details: str,
) -> Player:
    """A new roster player; ``details`` are any of ``PLAYER_DETAILS``."""
    unknown = set(details) - set(PLAYER_DETAILS)
    if unknown:
        raise InvalidInput(f"{sorted(unknown)[0]}: " + _("not a player field that can be set"))
    player = Player(club=club, name=name_checked(name), user=user, **player_details_tidied(details))
    model_valid(player, exclude=["club"])
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
def player_update(
    *, player: Player, actor: AbstractBaseUser, actor_role: str, **changes: Any
) -> Player:
    """Change a roster entry: an organiser anything of it, a player their own payment details
    (the UPI id and payment link of the entry linked to their account)."""
    unknown = set(changes) - set(PLAYER_FIELDS)
    if unknown:
        raise InvalidInput(f"{sorted(unknown)[0]}: " + _("not a player field that can be changed"))
    player = Player.objects.select_for_update().get(pk=player.pk)
    if ROLE_RANK[actor_role] < ROLE_RANK[Role.ORGANISER]:
        if set(changes) - PLAYER_OWN_FIELDS:
            raise NotAllowed(
                _("a player's name, account or status: only the organiser role can change them")
            )
        if player.user_id is None or player.user_id != actor.pk:
            raise NotAllowed(
                _(
                    "payment details: only the player themself (their account) or the organiser "
                    "role can change them"
                )
            )
    for field in PLAYER_OWN_FIELDS & set(changes):
        changes[field] = (changes[field] or "").strip()
        if changes[field] and player.club.points_only:
            raise InvalidInput(
                f"{field}: "
                + _("%(club)s plays for points only: no payment details")
                % {"club": player.club.name},
                details={field: changes[field]},
            )
    if player.merged_into_id is not None:
        raise Conflict(
            _("%(name)s was merged into player #%(id)s: change that player")
            % {"name": player.name, "id": player.merged_into_id},
            code="player_merged",
        )
    before = snapshot(player, PLAYER_FIELDS)
    if "name" in changes:
        changes["name"] = name_checked(changes["name"])
    changes.update(player_details_tidied({k: v for k, v in changes.items() if k in PLAYER_DETAILS}))
    for field, value in changes.items():
        setattr(player, field, value)
    model_valid(player, exclude=["club"])
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
        raise NotFoundError(_("this invitation link is not valid"))
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
        raise Conflict(_("this invitation was already used"), code="invitation_used")
    if invitation.revoked_at is not None:
        raise Conflict(_("this invitation was withdrawn or declined"), code="invitation_revoked")
    if invitation.expires_at <= timezone.now():
        raise Conflict(
            _("this invitation has expired: ask for a new one"), code="invitation_expired"
        )


def _invitation_use(invitation: Invitation, user: AbstractBaseUser) -> Membership:
    """``user`` joins the club with the invitation's role; the invitation is used up."""
    invitation = Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
    _invitation_open(invitation)
    if Membership.objects.filter(club=invitation.club, user=user).exists():
        raise Conflict(
            _("you are already a member of %(club)s") % {"club": invitation.club.name},
            code="already_member",
        )
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
        raise NotFoundError(_("no invitation #%(id)s for you") % {"id": invitation_id})
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
def account_language_set(*, user: AbstractBaseUser, language: str) -> LanguageChoice:
    """The language ``user`` chose for their account (one of the site's languages)."""
    choice = LanguageChoice(user=user, language=language)  # type: ignore[misc]
    model_valid(choice, exclude=["user"])
    LanguageChoice.objects.update_or_create(user=user, defaults={"language": language})
    return choice

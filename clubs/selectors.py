"""Reads about clubs, members and players, always scoped to what the caller may see."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import F, OuterRef, QuerySet, Subquery

from clubs.models import ROLE_RANK, ApiToken, Club, Membership, Player, Role
from config.errors import NotAllowed, NotFoundError

User = AbstractBaseUser | AnonymousUser


def club_list_for_user(*, user: User) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    return (
        Club.objects.filter(memberships__user=user)
        .annotate(caller_role=F("memberships__role"))
        .order_by("name")
    )


def club_role(*, user: User, club: Club) -> str | None:
    """The caller's role in the club, or ``None`` for an outsider."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club=club).values_list("role", flat=True).first()


def club_get_for_user(*, user: User, slug: str, min_role: str = Role.PLAYER) -> Club:
    """The club named ``slug`` if the caller belongs to it with at least ``min_role``.

    An outsider gets "not found" (never "forbidden") so that a club's existence is not leaked;
    a member without the role gets "not allowed"."""
    clubs = Club.objects.filter(slug=slug)
    if user.is_authenticated:
        member_role = Membership.objects.filter(club=OuterRef("pk"), user=user).values("role")[:1]
        clubs = clubs.annotate(caller_role=Subquery(member_role))
    club = clubs.first()
    role = getattr(club, "caller_role", None)
    if club is None or role is None:
        raise NotFoundError(f"no club {slug!r} among your clubs")
    if ROLE_RANK[role] < ROLE_RANK[min_role]:
        raise NotAllowed(f"this needs the {min_role} role in {club.name}; you are {role}")
    return club


def role_at_least(role: str | None, needed: str) -> bool:
    return role is not None and ROLE_RANK[role] >= ROLE_RANK[needed]


def membership_list(*, club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("user__username")


def membership_get(*, club: Club, membership_id: int) -> Membership:
    membership = club.memberships.select_related("user").filter(pk=membership_id).first()
    if membership is None:
        raise NotFoundError(f"no member #{membership_id} in {club.name}")
    return membership


def player_list(*, club: Club, active: bool | None = None) -> QuerySet[Player]:
    players = club.players.select_related("user").order_by("name")
    if active is not None:
        players = players.filter(active=active)
    return players


def player_get(*, club: Club, player_id: int) -> Player:
    player = club.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise NotFoundError(f"no player #{player_id} in {club.name}")
    return player


def api_token_list(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at")


def club_get_public(*, slug: str) -> Club:
    """A club that shows its standings to anyone; any other slug is "not found"."""
    club = Club.objects.filter(slug=slug, public_standings=True).first()
    if club is None:
        raise NotFoundError(f"no public standings for {slug!r}")
    return club

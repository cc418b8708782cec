"""Reads about clubs, members, players and invitations, always scoped to what the caller may see."""

from __future__ import annotations

from collections.abc import Collection

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import (
    ROLE_RANK,
    Club,
    Invitation,
    LanguageChoice,
    Membership,
    Player,
    Role,
    Tombstone,
    phone_kept,
    role_word,
)
from config.errors import InvalidInput, NotAllowed, NotFoundError
from config.names import visible_name

User = AbstractBaseUser | AnonymousUser


def club_list_for_user(*, user: User, club_ids: Collection[int] | None = None) -> QuerySet[Club]:
    """The clubs ``user`` belongs to; with ``club_ids`` (a token's clubs), only those."""
    if not user.is_authenticated:
        return Club.objects.none()
    clubs = Club.objects.filter(memberships__user=user)
    if club_ids is not None:
        clubs = clubs.filter(pk__in=club_ids)
    return clubs.annotate(caller_role=F("memberships__role")).order_by("name")


def club_ids_for_user(*, user: User) -> set[int]:
    """The ids of the clubs ``user`` belongs to."""
    return set(Membership.objects.filter(user_id=user.pk).values_list("club_id", flat=True))


def club_role(*, user: User, club: Club) -> str | None:
    """The caller's role in the club, or ``None`` for an outsider."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, club=club).values_list("role", flat=True).first()


def club_get_for_user(
    *, user: User, slug: str, min_role: str = Role.PLAYER, club_ids: Collection[int] | None = None
) -> Club:
    """The club named ``slug`` if the caller belongs to it with at least ``min_role`` (and, for
    a token, ``club_ids`` holds it).

    An outsider gets "not found" (never "forbidden") so that a club's existence is not leaked;
    so does a token bound to other clubs; a member without the role gets "not allowed"."""
    club = _club_with_role(user.pk, slug) if user.is_authenticated else None
    role = getattr(club, "caller_role", None)
    if club is None or role is None or (club_ids is not None and club.pk not in club_ids):
        raise NotFoundError(_("no club %(slug)s among your clubs") % {"slug": repr(slug)})
    if ROLE_RANK[role] < ROLE_RANK[min_role]:
        raise NotAllowed(
            _("this needs the %(needed)s role in %(club)s; you are %(role)s")
            % {
                "needed": role_word(min_role),
                "club": club.name,
                "role": role_word(role),
            }
        )
    return club


def _club_with_role(user_id: int, slug: str) -> Club | None:
    """The club and the caller's role in it (``caller_role``, None for an outsider). Every API
    call and club page starts here, so it is one statement written out: built by the ORM (a
    subquery annotation) it cost about 1 ms of Python per request, written out about 0.3 ms."""
    quote = connection.ops.quote_name
    clubs = Club.objects.raw(
        f"SELECT club.*, membership.{quote('role')} AS caller_role"
        f" FROM {quote(Club._meta.db_table)} club"
        f" LEFT JOIN {quote(Membership._meta.db_table)} membership"
        " ON membership.club_id = club.id AND membership.user_id = %s"
        " WHERE club.slug = %s",
        [user_id, slug],
    )
    return next(iter(clubs), None)


def role_at_least(role: str | None, needed: str) -> bool:
    return role is not None and ROLE_RANK[role] >= ROLE_RANK[needed]


def membership_list(*, club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("user__username")


def membership_search(*, club: Club, text: str = "") -> QuerySet[Membership]:
    """The club's members whose username starts with ``text``, ignoring case."""
    members = membership_list(club=club)
    text = text.strip()
    if "\x00" in text:  # no username holds one (PostgreSQL keeps none in text)
        return members.none()
    return members.filter(user__username__istartswith=text) if text else members


def membership_get(*, club: Club, membership_id: int) -> Membership:
    membership = club.memberships.select_related("user").filter(pk=membership_id).first()
    if membership is None:
        raise NotFoundError(
            _("no member #%(id)s in %(club)s") % {"id": membership_id, "club": club.name}
        )
    return membership


def member_account_get(*, club: Club, username: str) -> User:
    """The account of one of the club's members, by username: a player is linked only to a
    member, so the answer never tells whether an account outside the club exists."""
    membership = club.memberships.select_related("user").filter(user__username=username).first()
    if membership is None:
        raise NotFoundError(
            "username: "
            + _("no member named %(username)s in %(club)s")
            % {"username": repr(username), "club": club.name},
            details={"username": username},
        )
    return membership.user


def player_list(*, club: Club, active: bool | None = None) -> QuerySet[Player]:
    """The roster: a duplicate merged into another player is no longer on it."""
    players = club.players.filter(merged_into__isnull=True).select_related("user").order_by("name")
    if active is not None:
        players = players.filter(active=active)
    return players


#: The most players a search answers at once: one page of a type-ahead, and the most names a
#: refusal lists when a typed name fits several.
PLAYER_SEARCH_PAGE = 20


def player_search(*, club: Club, text: str, active: bool | None = None) -> QuerySet[Player]:
    """Roster players whose name starts with ``text``, ignoring case, in name order (all of
    them for an empty ``text``). On PostgreSQL the partial index ``player_name_prefix``
    (``club_id, lower(name) text_pattern_ops``) serves the prefix (docs/performance.md)."""
    return players_named_from(player_list(club=club, active=active), text)


def players_named_from(players: QuerySet[Player], text: str) -> QuerySet[Player]:
    """Of ``players``, those whose name starts with ``text`` (ignoring case), in name order."""
    prefix = visible_name(text).lower()
    if "\x00" in prefix:  # no name holds one (PostgreSQL keeps none in text)
        return players.none()
    if prefix:
        players = players.alias(name_lower=Lower("name")).filter(name_lower__startswith=prefix)
    return players.order_by(Lower("name"), "pk")


def player_roster_search(*, club: Club, text: str) -> QuerySet[Player]:
    """The roster's search (the players page, the API's ``q``): see ``players_found_from``."""
    return players_found_from(player_list(club=club), text)


def players_found_from(players: QuerySet[Player], text: str) -> QuerySet[Player]:
    """Of ``players``, those whose name or nickname starts with ``text``, ignoring case, or
    whose phone number holds its digits (three or more, as typed with spaces or dashes), in
    name order. Each start is served by its own index on PostgreSQL (``player_name_prefix``,
    ``player_nickname_prefix``)."""
    prefix = visible_name(text).lower()
    if "\x00" in prefix:  # no name holds one (PostgreSQL keeps none in text)
        return players.none()
    if prefix:
        found = Q(name_lower__startswith=prefix) | Q(nickname_lower__startswith=prefix)
        digits = phone_kept(prefix).lstrip("+")
        if len(digits) >= 3 and digits.isdigit():
            found |= Q(phone__contains=digits)
        players = players.alias(name_lower=Lower("name"), nickname_lower=Lower("nickname"))
        players = players.filter(found)
    return players.order_by(Lower("name"), "pk")


def player_named(*, club: Club, name: str, active: bool | None = None) -> Player | None:
    """The roster player of that name, ignoring case (names are unique in a club so), or None."""
    typed = visible_name(name)
    if not typed or "\x00" in typed:  # no name holds a NUL (PostgreSQL keeps none in text)
        return None
    return (
        player_list(club=club, active=active)
        .alias(name_lower=Lower("name"))
        .filter(name_lower=typed.lower())
        .first()
    )


def player_pick(
    *,
    club: Club,
    field: str,
    player_id: int | None = None,
    name: str = "",
    active: bool | None = None,
) -> Player:
    """The player a picker chose: by id (a form posted by a script or a test), else by the name
    typed: the roster player of that name, ignoring case, or the only one whose name starts
    with it. A refusal naming ``field`` when neither is given, or the name fits no one or
    several."""
    if player_id is not None:
        return player_get(club=club, player_id=player_id)
    typed = visible_name(name)
    if not typed:
        raise InvalidInput(f"{field}: " + _("type a player's name"), details={field: name})
    named = player_named(club=club, name=typed, active=active)
    if named is not None:
        return named
    fits = list(player_search(club=club, text=typed, active=active)[: PLAYER_SEARCH_PAGE + 1])
    if len(fits) == 1:
        return fits[0]
    values = {"club": club.name, "typed": repr(typed)}
    if not fits:
        why = (
            _("no active player of %(club)s is named %(typed)s or has a name starting so")
            if active
            else _("no player of %(club)s is named %(typed)s or has a name starting so")
        )
        raise InvalidInput(
            f"{field}: " + why % values, code="no_such_player", details={field: typed}
        )
    values["names"] = ", ".join(p.name for p in fits[:PLAYER_SEARCH_PAGE])
    why = (
        _("%(typed)s fits several players (%(names)s and more); type the whole name")
        if len(fits) > PLAYER_SEARCH_PAGE
        else _("%(typed)s fits several players (%(names)s); type the whole name")
    )
    raise InvalidInput(f"{field}: " + why % values, code="several_players", details={field: typed})


def player_get(*, club: Club, player_id: int) -> Player:
    player = club.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise NotFoundError(
            _("no player #%(id)s in %(club)s") % {"id": player_id, "club": club.name}
        )
    return player


def player_aliases(*, club: Club) -> dict[int, int]:
    """Each player merged away -> the player who holds their history now (through any chain of
    merges): for results entered before the merge, which name the old id."""
    merged = dict(
        club.players.filter(merged_into__isnull=False).values_list("pk", "merged_into_id")
    )
    aliases = {}
    for pid in merged:
        kept = pid
        while kept in merged:
            kept = merged[kept]
        aliases[pid] = kept
    return aliases


def club_get_public(*, slug: str) -> Club:
    """A club that shows its standings to anyone; any other slug is "not found"."""
    club = Club.objects.filter(slug=slug, public_standings=True).first()
    if club is None:
        raise NotFoundError(_("no public standings for %(slug)s") % {"slug": repr(slug)})
    return club


def invitation_list(*, club: Club) -> QuerySet[Invitation]:
    """Invitations still open (not used, withdrawn or expired), newest first."""
    return club.invitations.filter(
        accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
    ).order_by("-created_at")


def invitation_list_received(*, user: User) -> QuerySet[Invitation]:
    """Invitations made out to ``user``'s account and still open, newest first."""
    return (
        Invitation.objects.filter(
            invitee=user,
            accepted_at__isnull=True,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        )
        .select_related("club", "created_by")
        .order_by("-created_at")
    )


def invitation_get(*, club: Club, invitation_id: int) -> Invitation:
    invitation = club.invitations.filter(pk=invitation_id).first()
    if invitation is None:
        raise NotFoundError(
            _("no invitation #%(id)s in %(club)s") % {"id": invitation_id, "club": club.name}
        )
    return invitation


def owns_a_club(*, user: User) -> bool:
    """Whether ``user`` is the owner of at least one club (who may register apps)."""
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(user_id=user.pk, role=Role.OWNER).exists()


def tombstone_list(*, club: Club) -> QuerySet[Tombstone]:
    """What of the club's synced rows is gone (deleted, or a player merged), oldest first."""
    return Tombstone.objects.filter(club=club).order_by("updated_at", "id")


def account_language(*, user: AbstractBaseUser) -> str | None:
    """The language ``user`` chose for their account, if they chose one."""
    return LanguageChoice.objects.filter(user_id=user.pk).values_list("language", flat=True).first()

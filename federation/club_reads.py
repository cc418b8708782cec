"""A member club's view of its federations: the federations it was invited to or joined, and in
one of them its own sanctioned events, its players' links and what it may still ask for. Only
the club's own rows: the lists' figures stay with ``federation.selectors``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from config.errors import NotFoundError
from federation.models import Federation, MemberClub, PlayerLink, SanctionedEvent
from federation.selectors import is_member_club
from scoring.models import Game, Session
from tournaments.models import Tournament

#: How many of the club's recent nights and tournaments a sanction may be asked for.
CHOICES_SHOWN = 60


def club_memberships(*, club: Club) -> QuerySet[MemberClub]:
    """The federations the club was invited to, joined or declined, by name."""
    return (
        MemberClub.objects.filter(club=club)
        .select_related("federation__preset")
        .order_by("federation__name", "federation_id")
    )


def member_federation(*, club: Club, slug: str) -> Federation:
    """A federation the club is a member of: "not found" otherwise, as for any outsider."""
    federation = Federation.objects.select_related("preset").filter(slug=slug).first()
    if federation is None or not is_member_club(federation=federation, club=club):
        words = _("%(club)s is in no federation %(slug)s")
        raise NotFoundError(words % {"club": club.name, "slug": repr(slug)})
    return federation


def club_events(*, federation: Federation, club: Club) -> list[SanctionedEvent]:
    """The club's sanctioned events in the federation, the newest asked first."""
    return list(federation.events.filter(club=club).order_by("-id"))


def club_links(*, federation: Federation, club: Club) -> list[PlayerLink]:
    """The club's players proposed to the federation (a refused one stays, with its reason)."""
    return list(
        federation.links.filter(player__club=club)
        .select_related("player", "federation_player")
        .order_by("player__name", "-id")
    )


@dataclass(frozen=True)
class EventChoices:
    nights: list[Session]
    tournaments: list[Tournament]


def sanction_choices(*, federation: Federation, club: Club) -> EventChoices:
    """What the club may still ask to have sanctioned: its open nights without a game yet and
    its tournaments not started under the federation's preset, none asked for already."""
    asked = federation.events.filter(club=club)
    nights = (
        club.sessions.filter(status=Session.Status.OPEN)
        .exclude(pk__in=asked.filter(session__isnull=False).values("session_id"))
        .exclude(pk__in=Game.objects.filter(table__session__club=club).values("table__session_id"))
        .order_by("-started_at", "-id")[:CHOICES_SHOWN]
    )
    tournaments = (
        club.tournaments.filter(
            status__in=[Tournament.Status.DRAFT, Tournament.Status.REGISTRATION],
            preset_id=federation.preset_id,
        )
        .exclude(pk__in=asked.filter(tournament__isnull=False).values("tournament_id"))
        .order_by("-created_at", "-id")[:CHOICES_SHOWN]
    )
    return EventChoices(list(nights), list(tournaments))


def link_choices(*, federation: Federation, club: Club) -> list[Player]:
    """The club's active players not proposed yet (or whose proposal was refused)."""
    proposed = federation.links.exclude(status=PlayerLink.Status.REFUSED).values("player_id")
    return list(
        club.players.filter(active=True, merged_into__isnull=True)
        .exclude(pk__in=proposed)
        .order_by("name", "id")
    )

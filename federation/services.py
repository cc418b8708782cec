"""The federation's writes: a federation made, clubs invited (the club's owner accepts), the
player registry (a club proposes a link, an officer confirms it; duplicates merged and unmerged),
sanctioned events (asked before they start, submitted once finished, released or returned by an
officer; a correction after release goes back to the officer) and a rating period published.
Keyword-only, atomic, audited."""

from __future__ import annotations

import secrets
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Club, Player, Role
from clubs.selectors import club_role, role_at_least
from config.errors import Conflict, InvalidInput, NotFoundError
from federation import refusals, selectors
from federation.held import HeldEvent, finished
from federation.models import (
    Federation,
    FederationPlayer,
    MemberClub,
    Officer,
    PlayerLink,
    PlayerMerge,
    RatingEntry,
    RatingPeriod,
    SanctionedEvent,
)
from rules.errors import RuleViolation
from rules.federation import RankingRules
from scoring.models import Game, RulePreset, Session
from tournaments.models import Tournament

#: The settings a federation takes (its lists' rules), with their defaults.
SETTINGS: dict[str, Any] = {
    "period_months": 1,
    "provisional_games": 5,
    "window_days": 3 * 365,
    "full_weight_days": 0,
    "best_n": 5,
    "tiers": {"club": "1", "open": "1.5", "national": "2"},
}
Actor = User


def _checked_settings(values: dict[str, Any]) -> dict[str, Any]:
    """A clear 400 naming the field for settings the lists cannot use."""
    try:
        RankingRules(
            window_days=values["window_days"],
            full_weight_days=values["full_weight_days"],
            best_n=values["best_n"],
            tiers=values["tiers"],
        )
    except RuleViolation as error:
        raise InvalidInput(str(error), code=error.code) from None
    if not 1 <= values["period_months"] <= 12:
        raise InvalidInput("period_months: " + _("1 to 12"), code="bad_number")
    values["tiers"] = {str(k): str(v) for k, v in values["tiers"].items()}
    return values


def federation_create(
    *, actor: Actor, name: str, slug: str, preset: RulePreset, starts_on: date, **settings: Any
) -> Federation:
    """A new federation; whoever makes it is its first rating officer."""
    values = _checked_settings({**SETTINGS, **settings})
    if not name.strip():
        raise InvalidInput("name: " + _("give the federation a name"), code="bad_name")
    with transaction.atomic():
        if Federation.objects.filter(slug=slug).exists():
            raise Conflict(
                "slug: " + _("%(slug)s is taken") % {"slug": repr(slug)}, code="slug_taken"
            )
        federation = Federation.objects.create(
            name=name.strip(), slug=slug, preset=preset, starts_on=starts_on, **values
        )
        Officer.objects.create(federation=federation, user=actor)
        audit_record(
            actor=actor,
            club=None,
            action="federation.create",
            obj=federation,
            after={"name": federation.name, **values},
        )
    return federation


def officer_add(*, actor: Actor, federation: Federation, user: Actor) -> Officer:
    _officer(actor, federation)
    officer, _created = Officer.objects.get_or_create(federation=federation, user=user)
    audit_record(
        actor=actor,
        club=None,
        action="federation.officer_add",
        obj=officer,
        after={"user": user.pk},
    )
    return officer


def _lists_changed(federation_id: int) -> None:
    """The lists' input changed: the ranking list kept in the cache is read afresh (its key
    holds this number, drawn anew in the change's own transaction). Drawn, not counted: a count
    rolled back with its transaction would be counted again by the next change, which would
    then find a list kept for the input of the change that never happened."""
    Federation.objects.filter(pk=federation_id).update(
        lists_version=secrets.randbelow(2**31 - 1) + 1
    )


def _officer(actor: Actor, federation: Federation) -> None:
    if not selectors.is_officer(user=actor, federation=federation):
        raise refusals.officer_needed(federation)


def _club_role(actor: Actor, club: Club, needed: str) -> None:
    role = club_role(user=actor, club=club)
    if role is None:
        raise refusals.not_your_club(club)
    if not role_at_least(role, needed):
        raise refusals.role_too_low(club, needed, role)


# --- clubs --------------------------------------------------------------------------------------


def club_invite(*, actor: Actor, federation: Federation, club: Club) -> MemberClub:
    _officer(actor, federation)
    member, created = MemberClub.objects.get_or_create(federation=federation, club=club)
    if not created and member.status == MemberClub.Status.MEMBER:
        words = _("%(club)s is a member already") % {"club": club.name}
        raise Conflict(words, code="federation_member")
    member.status = MemberClub.Status.INVITED
    member.answered_at = None
    member.save()
    audit_record(
        actor=actor,
        club=club,
        action="federation.club_invite",
        obj=member,
        after={"federation": federation.pk},
    )
    return member


def club_answer(*, actor: Actor, federation: Federation, club: Club, accept: bool) -> MemberClub:
    """The club's owner accepts (or declines) the federation's invitation."""
    _club_role(actor, club, Role.OWNER)
    with transaction.atomic():
        member = (
            MemberClub.objects.select_for_update()
            .filter(federation=federation, club=club, status=MemberClub.Status.INVITED)
            .first()
        )
        if member is None:
            words = _("no invitation of %(club)s to %(federation)s")
            raise NotFoundError(words % {"club": club.name, "federation": federation.name})
        member.status = MemberClub.Status.MEMBER if accept else MemberClub.Status.DECLINED
        member.answered_at = timezone.now()
        member.save()
        audit_record(
            actor=actor,
            club=club,
            action="federation.club_answer",
            obj=member,
            after={"status": member.status},
        )
    return member


def _member(federation: Federation, club: Club) -> None:
    if not selectors.is_member_club(federation=federation, club=club):
        raise refusals.not_member(club, federation)


# --- the registry -------------------------------------------------------------------------------


def link_propose(
    *,
    actor: Actor,
    federation: Federation,
    player: Player,
    date_of_birth: date | None = None,
    email: str = "",
    federation_player: FederationPlayer | None = None,
) -> PlayerLink:
    """A club proposes its player as a federation player (a new one, or one named)."""
    _club_role(actor, player.club, Role.ORGANISER)
    _member(federation, player.club)
    if federation_player is not None and federation_player.federation_id != federation.pk:
        raise refusals.not_in_federation()
    try:
        with transaction.atomic():
            link = PlayerLink.objects.create(
                federation=federation,
                player=player,
                federation_player=federation_player,
                name=player.name,
                date_of_birth=date_of_birth,
                email=email,
            )
    except IntegrityError:
        words = _("%(player)s is proposed or linked already") % {"player": player.name}
        raise Conflict(words, code="already_linked") from None
    audit_record(
        actor=actor,
        club=player.club,
        action="federation.link_propose",
        obj=link,
        after={"player": player.pk, "federation_player": link.federation_player_id},
    )
    return link


def link_decide(
    *,
    actor: Actor,
    link: PlayerLink,
    confirm: bool,
    federation_player: FederationPlayer | None = None,
    reason: str = "",
) -> PlayerLink:
    """The officer confirms a proposal (to the player it names, to ``federation_player``, or
    to a new registry entry) or refuses it with a reason."""
    federation = link.federation
    _officer(actor, federation)
    if link.status != PlayerLink.Status.PROPOSED:
        raise Conflict(_("this proposal was decided already"), code="bad_status")
    if not confirm and not reason.strip():
        raise InvalidInput("reason: " + _("say why the link is refused"), code="reason_required")
    with transaction.atomic():
        if confirm:
            target = federation_player or link.federation_player
            if target is None:
                target = FederationPlayer.objects.create(
                    federation=federation,
                    name=link.name,
                    date_of_birth=link.date_of_birth,
                    email=link.email,
                )
            elif target.federation_id != federation.pk:
                raise refusals.not_in_federation()
            link.federation_player = target
        link.status = PlayerLink.Status.CONFIRMED if confirm else PlayerLink.Status.REFUSED
        link.reason = reason.strip()
        link.decided_at = timezone.now()
        link.save()
        if confirm:
            _lists_changed(federation.pk)
        audit_record(
            actor=actor,
            club=None,
            action="federation.link_decide",
            obj=link,
            after={"status": link.status, "federation_player": link.federation_player_id},
        )
    return link


def player_merge(
    *, actor: Actor, source: FederationPlayer, target: FederationPlayer
) -> PlayerMerge:
    """``source`` is a duplicate of ``target``: it counts as ``target`` on every list."""
    federation = source.federation
    _officer(actor, federation)
    if source.federation_id != target.federation_id or source.pk == target.pk:
        raise InvalidInput(
            "target: " + _("another player of the same federation"), code="bad_field"
        )
    with transaction.atomic():
        if selectors.canonical_ids(federation=federation)[target.pk] == source.pk:
            raise InvalidInput(
                "target: " + _("is merged into this player already"), code="already_merged"
            )
        if source.merged_into_id is not None:
            raise Conflict(_("this player is merged already"), code="already_merged")
        source.merged_into = target
        source.save(update_fields=["merged_into"])
        merge = PlayerMerge.objects.create(
            federation=federation, source=source, target=target, merged_by=actor
        )
        _lists_changed(federation.pk)
        audit_record(
            actor=actor,
            club=None,
            action="federation.merge",
            obj=merge,
            after={"source": source.pk, "target": target.pk},
        )
    return merge


def player_unmerge(*, actor: Actor, merge: PlayerMerge) -> PlayerMerge:
    """Undo a merge: the duplicate counts as itself again; the merge's record is kept."""
    _officer(actor, merge.federation)
    if merge.undone_at is not None:
        raise Conflict(_("this merge was undone already"), code="bad_status")
    with transaction.atomic():
        FederationPlayer.objects.filter(pk=merge.source_id).update(merged_into=None)
        merge.undone_at = timezone.now()
        merge.save(update_fields=["undone_at"])
        _lists_changed(merge.federation_id)
        audit_record(
            actor=actor,
            club=None,
            action="federation.unmerge",
            obj=merge,
            before={"target": merge.target_id},
        )
    return merge


# --- sanctioned events --------------------------------------------------------------------------


def sanction_request(
    *,
    actor: Actor,
    federation: Federation,
    club: Club,
    tier: str,
    session: Session | None = None,
    tournament: Tournament | None = None,
    held_elsewhere: str = "",
    name: str = "",
) -> SanctionedEvent:
    """A club asks, before the event starts, for its night or tournament to count: one of this
    instance, or one it holds on its own instance (``held_elsewhere``, named ``name``), whose
    signed export it imports once finished."""
    _club_role(actor, club, Role.ORGANISER)
    _member(federation, club)
    if (session is not None) + (tournament is not None) + bool(held_elsewhere) != 1:
        raise InvalidInput(
            "event: " + _("name a night, a tournament or one held elsewhere"), code="bad_field"
        )
    if tier not in federation.tiers:
        tiers = ", ".join(federation.tiers)
        raise InvalidInput("tier: " + _("use one of %(tiers)s") % {"tiers": tiers}, code="bad_tier")
    if held_elsewhere:
        if held_elsewhere not in SanctionedEvent.Elsewhere.values or not name.strip():
            raise InvalidInput(
                "held_elsewhere: " + _("a night or a tournament, with its name"),
                code="bad_field",
            )
        name = name.strip()
    elif tournament is not None:
        if tournament.club_id != club.pk:
            raise refusals.no_tournament(tournament.pk, club)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise Conflict("tournament: " + _("ask before it starts"), code="event_started")
        if tournament.preset_id != federation.preset_id:
            raise InvalidInput(
                "tournament: "
                + _("play it under %(preset)s") % {"preset": federation.preset.shown_name},
                code="bad_preset",
            )
        name = tournament.name
    else:
        assert session is not None
        if session.club_id != club.pk:
            raise refusals.no_night(session.pk, club)
        if Game.objects.filter(table__session=session).exists():
            raise Conflict("session: " + _("ask before its first game"), code="event_started")
        name = session.name
    try:
        with transaction.atomic():
            event = SanctionedEvent.objects.create(
                federation=federation,
                club=club,
                session=session,
                tournament=tournament,
                held_elsewhere=held_elsewhere,
                name=name,
                tier=tier,
            )
    except IntegrityError:
        raise Conflict("event: " + _("asked for already"), code="already_asked") from None
    audit_record(
        actor=actor,
        club=club,
        action="federation.sanction_request",
        obj=event,
        after={"federation": federation.pk, "tier": tier},
    )
    return event


def _event_locked(event_id: int) -> SanctionedEvent:
    return (
        SanctionedEvent.objects.select_for_update(of=("self",))
        .select_related("federation__preset", "club")
        .get(pk=event_id)
    )


def sanction_decide(
    *, actor: Actor, event: SanctionedEvent, approve: bool, reason: str = ""
) -> SanctionedEvent:
    _officer(actor, event.federation)
    if not approve and not reason.strip():
        raise InvalidInput("reason: " + _("say why the event is refused"), code="reason_required")
    with transaction.atomic():
        event = _event_locked(event.pk)
        if event.status != SanctionedEvent.Status.REQUESTED:
            raise refusals.event_not_asked(event)
        event.status = (
            SanctionedEvent.Status.SANCTIONED if approve else SanctionedEvent.Status.REFUSED
        )
        event.reason = reason.strip()
        event.save(update_fields=["status", "reason"])
        audit_record(
            actor=actor,
            club=event.club,
            action="federation.sanction_decide",
            obj=event,
            after={"status": event.status, "reason": event.reason},
        )
    return event


def _finished_results(event: SanctionedEvent) -> tuple[dict[str, Any], date]:
    """The event's results, refused while it is not finished or a game broke the preset."""
    if event.held_elsewhere:
        raise Conflict(
            "event: " + _("it is held on the club's own instance; import its signed export"),
            code="held_elsewhere",
        )
    held = HeldEvent(event.club, event.session_id, event.tournament_id)
    return finished(held, event.federation.preset)


def event_submittable_check(event: SanctionedEvent) -> None:
    """Refuse an event whose state takes no submission (one sanctioned, returned or released
    does)."""
    allowed = (
        SanctionedEvent.Status.SANCTIONED,
        SanctionedEvent.Status.RETURNED,
        SanctionedEvent.Status.RELEASED,
    )
    if event.status not in allowed:
        raise refusals.event_not_submittable(event)


def event_submission_store(event: SanctionedEvent, results: Any, played_on: Any) -> None:
    """Store ``results`` as the event's next submitted version (refused when a released event's
    results are unchanged), for the officer to release or return."""
    if event.status == SanctionedEvent.Status.RELEASED and results == event.released_results:
        raise Conflict("event: " + _("nothing changed since its release"), code="nothing_changed")
    event.submitted_results = results
    event.played_on = played_on
    event.version += 1
    event.status = SanctionedEvent.Status.SUBMITTED
    event.reason = ""
    event.save()


def event_submit(*, actor: Actor, event: SanctionedEvent) -> SanctionedEvent:
    """The club submits its finished event (again after a return, or as a correction after
    release): the officer releases it. A released event keeps counting as released until the
    correction is released."""
    _club_role(actor, event.club, Role.ORGANISER)
    with transaction.atomic():
        event = _event_locked(event.pk)
        event_submittable_check(event)
        results, played_on = _finished_results(event)
        event_submission_store(event, results, played_on)
        audit_record(
            actor=actor,
            club=event.club,
            action="federation.event_submit",
            obj=event,
            after={"version": event.version, "players": len(results["places"])},
        )
    return event


def event_release(*, actor: Actor, event: SanctionedEvent) -> SanctionedEvent:
    """The officer releases a submitted event: it counts on both lists, last in the release
    order (a released correction moves there too)."""
    _officer(actor, event.federation)
    with transaction.atomic():
        event = _event_locked(event.pk)
        if event.status != SanctionedEvent.Status.SUBMITTED:
            raise refusals.event_not_submitted(event)
        # The federation's row orders releases: two officers never take one place in the order.
        Federation.objects.select_for_update().get(pk=event.federation_id)
        last = event.federation.events.aggregate(last=Max("release_seq"))["last"] or 0
        event.released_results = event.submitted_results
        event.released_version = event.version
        event.release_seq = last + 1
        event.released_on = timezone.localdate()
        event.status = SanctionedEvent.Status.RELEASED
        event.save()
        _lists_changed(event.federation_id)
        audit_record(
            actor=actor,
            club=event.club,
            action="federation.event_release",
            obj=event,
            after={"version": event.version, "release_seq": event.release_seq},
        )
    return event


def event_return(*, actor: Actor, event: SanctionedEvent, reason: str) -> SanctionedEvent:
    """The officer returns a submission with a reason; a released event stays as released."""
    _officer(actor, event.federation)
    if not reason.strip():
        raise InvalidInput(
            "reason: " + _("say what the club should correct"), code="reason_required"
        )
    with transaction.atomic():
        event = _event_locked(event.pk)
        if event.status != SanctionedEvent.Status.SUBMITTED:
            raise refusals.event_not_submitted(event)
        event.status = (
            SanctionedEvent.Status.RELEASED
            if event.released_version
            else SanctionedEvent.Status.RETURNED
        )
        event.reason = reason.strip()
        event.save(update_fields=["status", "reason"])
        audit_record(
            actor=actor,
            club=event.club,
            action="federation.event_return",
            obj=event,
            after={"reason": event.reason},
        )
    return event


# --- rating periods -----------------------------------------------------------------------------


def period_publish(*, actor: Actor, federation: Federation) -> RatingPeriod:
    """Publish the next rating period's list once it has ended: a stored snapshot."""
    _officer(actor, federation)
    with transaction.atomic():
        Federation.objects.select_for_update().get(pk=federation.pk)
        index, starts_on, ends_on = selectors.next_period(federation=federation)
        if ends_on > timezone.localdate():
            words = _("it ends on %(day)s; publish it then") % {"day": ends_on}
            raise Conflict("period: " + words, code="period_open")
        (lines,) = selectors.rating_lists_at(federation=federation, ends=[ends_on])
        period = RatingPeriod.objects.create(
            federation=federation,
            index=index,
            starts_on=starts_on,
            ends_on=ends_on,
            published_by=actor,
        )
        RatingEntry.objects.bulk_create(
            [
                RatingEntry(
                    period=period,
                    player_id=line.player,
                    rank=line.rank,
                    mu=line.mu,
                    sigma=line.sigma,
                    ordinal=line.ordinal,
                    games=line.games,
                    provisional=line.provisional,
                )
                for line in lines
            ],
            batch_size=2000,
        )
        _lists_changed(federation.pk)
        audit_record(
            actor=actor,
            club=None,
            action="federation.period_publish",
            obj=period,
            after={"index": index, "players": len(lines)},
        )
    return period

"""Merging two roster entries for one person. Here rather than in clubs or scoring: this is the
layer that sees every app holding a player's history (seats and ledger lines in scoring,
ratings in standings, entries in tournaments)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Club, Player
from config.errors import Conflict, InvalidInput
from scoring import merge as scoring_merge
from standings.ratings import ratings_player_merge
from tournaments.models import Entry, Tournament


def _merge_blockers(source: Player, target: Player) -> list[tuple[str, str]]:
    blockers = scoring_merge.merge_blockers(source=source, target=target)
    shared = (
        Entry.objects.filter(player=source, tournament__entries__player=target)
        .values_list("tournament__name", flat=True)
        .first()
    )
    if shared is not None:
        blockers.append(
            (
                "players_met",
                _("%(source)s and %(target)s are both entered in %(tournament)s")
                % {"source": source.name, "target": target.name, "tournament": shared},
            )
        )
    running = (
        Entry.objects.filter(player=source)
        .exclude(tournament__status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
        .values_list("tournament__name", flat=True)
        .first()
    )
    if running is not None:
        blockers.append(
            (
                "tournament_running",
                _("%(source)s is entered in %(tournament)s, not finished yet")
                % {"source": source.name, "tournament": running},
            )
        )
    return blockers


@transaction.atomic
def player_merge(*, source: Player, target: Player, actor: AbstractBaseUser) -> Player:
    """Merge ``source`` (a duplicate roster entry) into ``target``: its seats, ledger lines,
    results, standings, ratings and tournament entries become ``target``'s, and ``source`` is
    kept, retired, as merged (its page leads to ``target``). Nothing is reposted: every total
    of ``target`` afterwards is the sum of both. Refused, with every reason named, when the two
    sat in one game or one tournament, or ``source`` is still in play. Audited."""
    if source.club_id != target.club_id:
        raise InvalidInput("into: " + _("not a player of this club"))
    if source.pk == target.pk:
        raise InvalidInput("into: " + _("a player cannot be merged into themselves"))
    # The club's row first: ratings and standings of the club are written under it.
    Club.objects.select_for_update().filter(pk=target.club_id).first()
    locked = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
    }
    source, target = locked[source.pk], locked[target.pk]
    for player, role in ((source, "merged"), (target, "merged into")):
        if player.merged_into_id is not None:
            raise Conflict(
                _("%(name)s was already merged into player #%(into)s")
                % {"name": player.name, "into": player.merged_into_id},
                code="already_merged",
                details={"player": player.pk, "role": role},
            )
    if source.user_id and target.user_id and source.user_id != target.user_id:
        raise Conflict(
            _("%(source)s and %(target)s are linked to two different accounts: unlink one first")
            % {"source": source.name, "target": target.name},
            code="two_accounts",
        )
    blockers = _merge_blockers(source, target)
    if blockers:
        raise Conflict(
            "; ".join(message for _code, message in blockers),
            code=blockers[0][0],
            details={"blockers": [{"code": c, "message": m} for c, m in blockers]},
        )
    before = {"source": source.name, "target": target.name, "target_user": target.user_id}
    user = source.user
    source.merged_into, source.active, source.user = target, False, None
    source.save(update_fields=["merged_into", "active", "user"])
    if user is not None and target.user_id is None:
        target.user = user
        target.save(update_fields=["user"])
    moved = scoring_merge.player_history_move(source=source, target=target)
    moved["rated_games"] = ratings_player_merge(
        club_id=target.club_id, source_id=source.pk, target_id=target.pk
    )
    moved["entries"] = Entry.objects.filter(player=source).update(player=target)
    audit_record(
        actor=actor,
        club=target.club,
        action="player.merge",
        obj=source,
        before=before,
        after={"merged_into": target.pk, "moved": moved, "target_user": target.user_id},
    )
    return target

"""Corrections of a played table: refused once its round sent players on to a round being played;
otherwise the table (or its whole round) settled again; the organiser's confirmed unwinding of
the rounds played after one."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import Conflict
from scoring.models import Game
from tournaments.changes import E, audit, lock, round_locked
from tournaments.kinds import kind_for
from tournaments.kinds.places import places_changed
from tournaments.models import Entry, Round, RoundTable, Tournament
from tournaments.services.tables import game_stop, table_game_ended


def _table_of(game: Game) -> RoundTable | None:
    return (
        RoundTable.objects.select_related("round__tournament").filter(game=game).first()
        or RoundTable.objects.select_related("round__tournament").filter(tiebreaker=game).first()
    )


def correction_guard(game: Game) -> None:
    """Refuse a correction of a table whose round already sent players on to a round being
    played (or played): the rounds it would change are named."""
    table = _table_of(game)
    if table is None or table.round.status != Round.Status.COMPLETE:
        return
    kind_for(table.round.tournament).correction_check(table.round.tournament, table.round)
    later = list(
        table.round.tournament.round_set.filter(number__gt=table.round.number)
        .exclude(status=Round.Status.DRAFT)
        .values_list("number", flat=True)
    )
    if later:
        raise Conflict(
            ngettext(
                "this table decided who went on to round %(number)s, which is being played; "
                "correcting it would change round(s) %(rounds)s",
                "this table decided who went on to round %(number)s, which is being played; "
                "correcting it would change round(s) %(rounds)s",
                len(later),
            )
            % {"number": later[0], "rounds": ", ".join(map(str, later))},
            code="round_played_on",
            details={"affected_rounds": later},
        )


@transaction.atomic
def table_result_changed(*, game_id: int) -> str:
    """A finished table's result changed (a correction the guard let through): while its round
    is still played, the table is settled again; once complete with the next round only drawn,
    the round is reopened, the draft dropped and every table settled again."""
    game = Game.objects.filter(pk=game_id).first()
    table = _table_of(game) if game is not None else None
    if table is None:
        return "not a tournament table"
    tournament = lock(table.round.tournament)
    played = Round.objects.select_for_update().get(pk=table.round_id)
    following = tournament.round_set.filter(number__gt=played.number)
    if following.exclude(status=Round.Status.DRAFT).exists():
        return "played on"  # the guard refuses these; nothing to redo
    if played.status == Round.Status.COMPLETE:
        following.delete()
        _unplace(tournament.entries.filter(out_in_round=played.number))
        played.status = Round.Status.RELEASED
        played.advanced = []
        played.save(update_fields=["status", "advanced"])
        for each in played.tables.all():
            each.outcome = {}
            each.save(update_fields=["outcome"])
    else:
        table.outcome = {}
        table.save(update_fields=["outcome"])
    audit(tournament, None, "recompute", round=played.number, table=table.pk)
    places_changed(tournament)
    result = "resettled"
    for each in played.tables.all():
        result = table_game_ended(game_id=each.game_id)
    return result


@transaction.atomic
def rounds_unwind(
    *, tournament: Tournament, actor: AbstractBaseUser, number: int, confirm: bool = False
) -> Round:
    """The organiser's confirmed recompute: the rounds played after round ``number`` are taken
    out of the tournament so that a table of round ``number`` may be corrected. Their games
    stay in the night's ledger as played (what was played was played) but no longer count for
    the tournament; games still open there are abandoned; whoever they knocked out is back in;
    prizes already paid are posted again when the tournament finishes again. Round ``number``
    is settled afresh at once, so the next round is a draft again. Audited."""
    tournament = lock(tournament)
    if tournament.status == Tournament.Status.CANCELLED:
        raise Conflict(_("the tournament is cancelled"))
    kind_for(tournament).unwind_check(tournament)
    played = round_locked(tournament, number)
    if played.status != Round.Status.COMPLETE:
        raise Conflict(
            _("round %(number)s is not complete: its tables can be corrected as they are")
            % {"number": number}
        )
    later = list(tournament.round_set.filter(number__gt=number).order_by("number"))
    affected = [r.number for r in later if r.status != Round.Status.DRAFT]
    if not confirm:
        words = (
            ngettext(
                "unwinding round %(number)s takes round(s) %(rounds)s out of the tournament; "
                "confirm to go on",
                "unwinding round %(number)s takes round(s) %(rounds)s out of the tournament; "
                "confirm to go on",
                len(affected),
            )
            if affected
            else _(
                "unwinding round %(number)s takes round(s) none out of the tournament; confirm "
                "to go on"
            )
        )
        raise Conflict(
            words % {"number": number, "rounds": ", ".join(map(str, affected))},
            code="confirm_required",
            details={"affected_rounds": affected},
        )
    games = [
        game
        for table in RoundTable.objects.filter(round__in=later).select_related("game", "tiebreaker")
        for game in (table.game, table.tiebreaker)
        if game is not None
    ]
    for each in later:
        each.delete()
    for game in games:
        if game.status == Game.Status.OPEN:
            game_stop(game, actor)
    _unplace(tournament.entries.filter(out_in_round__gte=number))
    tournament.entries.update(place=None)
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.finished_at = None
        tournament.save(update_fields=["status", "finished_at"])
    played.status = Round.Status.RELEASED
    played.advanced = []
    played.save(update_fields=["status", "advanced"])
    RoundTable.objects.filter(round=played).update(outcome={})
    audit(tournament, actor, "unwind", round=number, rounds_removed=affected, games=len(games))
    for table in played.tables.all():
        table_game_ended(game_id=table.game_id)
    played.refresh_from_db()
    return played


def _unplace(entries: QuerySet[Entry]) -> None:
    """Those out of the rounds taken back are in again; one who left stays out, to be placed
    again when the round completes."""
    entries.filter(status=E.ELIMINATED).update(status=E.ACTIVE)
    entries.update(out_in_round=None, table_place=None)

"""A rebuy: a player knocked out at the end of a level buys back in, where the tournament's
chip-level settings allow it, and is drawn in the next round."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import Conflict, NotFoundError
from tournaments.changes import E, audit, current_round, lock
from tournaments.figures import chips_held
from tournaments.kinds.chips.levels import draw_next, rules_of, set_level
from tournaments.kinds.seating import draw_round
from tournaments.models import Entry, Round, Tournament
from tournaments.purse import purse_rebuy


@transaction.atomic
def entry_rebuy(*, tournament: Tournament, actor: AbstractBaseUser, entry_id: int) -> Entry:
    """A player knocked out at the end of a level buys back in, where the tournament's rules
    allow it: the price into the purse, the rebuy's chips out of it, back in the field and
    seated in the next round (while it is a draft, and the rebuy lifts them to the level's
    minimum)."""
    tournament = lock(tournament)
    if tournament.kind != Tournament.Kind.CHIPS:
        raise Conflict(_("only a chip-level tournament takes rebuys"), code="no_rebuys")
    entry = tournament.entries.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        raise NotFoundError(
            _("no entry #%(entry)s in %(tournament)s")
            % {"entry": entry_id, "tournament": tournament.name}
        )
    rules = rules_of(tournament)
    draft = current_round(tournament)
    went_out = (
        tournament.round_set.filter(number=entry.out_in_round).first()
        if entry.out_in_round
        else None
    )
    if (
        tournament.status != Tournament.Status.RUNNING
        or entry.status != E.ELIMINATED
        or went_out is None
        or draft is None
        or draft.status != Round.Status.DRAFT
        or draft.number != went_out.number + 1
    ):
        raise Conflict(
            _(
                "%(name)s cannot buy back in now: a rebuy is taken from a player knocked out at "
                "the end of the last level played, while the next round is drawn and not released"
            )
            % {"name": entry.player.name},
            code="rebuy_closed",
        )
    level_number = went_out.level or 1
    if not rules.rebuy_allowed(level=level_number, rebuys_taken=entry.rebuys):
        raise Conflict(
            ngettext(
                "%(name)s cannot buy back in: this tournament takes %(rebuys)s rebuy(s) a player "
                "until level %(level)s",
                "%(name)s cannot buy back in: this tournament takes %(rebuys)s rebuy(s) a player "
                "until level %(level)s",
                rules.rebuys,
            )
            % {
                "name": entry.player.name,
                "rebuys": rules.rebuys,
                "level": rules.rebuy_until_level,
            },
            code="rebuy_not_allowed",
        )
    chips = chips_held(tournament=tournament).get(entry.player_id, 0)
    minimum = rules.level(level_number).minimum
    if chips + rules.rebuy_chips < minimum:
        raise Conflict(
            _(
                "%(name)s would have %(chips)s chips after the rebuy, still below the level's "
                "minimum of %(minimum)s"
            )
            % {"name": entry.player.name, "chips": chips + rules.rebuy_chips, "minimum": minimum},
            code="rebuy_too_small",
        )
    purse_rebuy(
        tournament=tournament, actor=actor, player=entry.player,
        price_minor=rules.rebuy_price_minor, chips=rules.rebuy_chips,
    )  # fmt: skip
    entry.status = E.ACTIVE
    entry.rebuys += 1
    entry.out_in_round = None
    entry.table_place = None
    entry.save(update_fields=["status", "rebuys", "out_in_round", "table_place"])
    _redraw(tournament, draft)
    audit(tournament, actor, "rebuy", entry=entry.pk, rebuys=entry.rebuys)
    return entry


def _redraw(tournament: Tournament, draft: Round) -> None:
    """The draft drawn again with the player who bought back in (a replay round stays among
    the players between the thresholds, with the rebuyer; a next level has everyone in)."""
    number, level = draft.number, draft.level or 1
    replay = tournament.round_set.filter(level=level, number__lt=number).exists()
    if replay:
        previous = tournament.round_set.get(number=number - 1)
        players = [p for t in draft.draw.get("tables", []) for p in t]
        back = list(
            tournament.entries.filter(status=E.ACTIVE, out_in_round=None)
            .exclude(pk__in=players)
            .exclude(pk__in=previous.advanced)
            .values_list("pk", flat=True)
        )
        draft.delete()
        draw_round(tournament, number, Round.Stage.ROUND, players + back)
        set_level(tournament, number, level)
    else:
        draft.delete()
        draw_next(tournament, number, level)

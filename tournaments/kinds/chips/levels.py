"""A chip-level tournament's play (``rules.chip_levels``): its settings checked, the opening
stacks, a level's end (each table's points turned into chips at the level's value and kept in
the purse; who is out, who plays the level again, who goes on), the final placed by chips. Each
round of the tournament plays one level (a level played again is a second round at the same
level)."""

from __future__ import annotations

from config.errors import InvalidInput
from rules import chip_levels, knockout
from rules.errors import RuleViolation
from rules.ranking import competition_ranks
from scoring.figures import players_net_points
from scoring.models import Game
from tournaments.changes import E, audit
from tournaments.figures import chips_held
from tournaments.kinds.places import finish_placed
from tournaments.kinds.seating import draw_round
from tournaments.models import Entry, Round, Tournament
from tournaments.purse import purse_chips_issue, purse_chips_move
from tournaments.rule_words import violation_words


def rules_of(tournament: Tournament) -> chip_levels.ChipLevelRules:
    return chip_levels.ChipLevelRules.from_dict(tournament.chip_levels)


def chip_rules_checked(settings: object) -> chip_levels.ChipLevelRules:
    """The chip-level settings given to a new tournament (the default preset when none), or a
    400 naming the setting."""
    if settings in (None, {}):
        return chip_levels.DEFAULT_CHIP_LEVELS
    try:
        return chip_levels.ChipLevelRules.from_dict(settings)
    except RuleViolation as exc:
        raise InvalidInput(
            f"chip_levels: {violation_words(exc)}", code=exc.code, details={"token": exc.token}
        ) from None


def chips_open(tournament: Tournament, entries: list[Entry]) -> None:
    """Everyone starting gets the opening stack."""
    start = rules_of(tournament).starting_chips
    purse_chips_issue(
        tournament=tournament, chips={e.player_id: start for e in entries}, memo="opening chips"
    )


def stage_of(tournament: Tournament, players: int) -> str:
    """A level's round, or the final once the field fits one table."""
    return Round.Stage.FINAL if players <= tournament.table_max else Round.Stage.ROUND


def _post_level_chips(tournament: Tournament, played: Round) -> None:
    """Each table's net points turned into chips at the level's value, one entry per table."""
    level = rules_of(tournament).level(played.level or 1)
    for table in played.tables.order_by("number"):
        points = players_net_points(games=Game.objects.filter(pk=table.game_id).values("pk"))
        moves = chip_levels.chips_for_points(points, level)
        purse_chips_move(
            tournament=tournament, moves=moves,
            memo=f"level {played.level}, round {played.number}, table {table.number}",
        )  # fmt: skip


def level_complete(tournament: Tournament, played: Round) -> None:
    """Every table of a level's round ended: chips posted, then below the minimum out (placed
    by chips), between the thresholds the level again (once, when two or more are between),
    at or above the qualifying figure on; the next round drawn, or the tournament finished."""
    rules = rules_of(tournament)
    number = played.level or 1
    level = rules.level(number)
    _post_level_chips(tournament, played)
    chips = chips_held(tournament=tournament)
    seated = [e for table in played.draw.get("tables", []) for e in table]
    playing = list(tournament.entries.filter(pk__in=seated, status=E.ACTIVE))
    if played.stage == Round.Stage.FINAL:
        final_ranks = competition_ranks({e.pk: chips.get(e.player_id, 0) for e in playing})
        _complete(played, list(final_ranks))
        chips_finish(tournament, final_ranks)
        return
    split = chip_levels.level_split({e.pk: chips.get(e.player_id, 0) for e in playing}, level)
    replayed = tournament.round_set.filter(level=number, number__lt=played.number).exists()
    replay = not replayed and len(split.between) >= max(2, tournament.table_min)
    out = competition_ranks({e: chips[p] for e, p in _players(tournament, split.out).items()})
    for entry in tournament.entries.filter(pk__in=out):
        entry.status = E.ELIMINATED
        entry.out_in_round = played.number
        entry.table_place = out[entry.pk]
        entry.save(update_fields=["status", "out_in_round", "table_place"])
    _complete(played, [*split.qualified, *([] if replay else split.between)])
    audit(
        tournament, None, "level_complete", round=played.number, level=number,
        out=len(split.out), between=len(split.between), qualified=len(split.qualified),
        replay=replay,
    )  # fmt: skip
    if replay:
        draw_round(tournament, played.number + 1, Round.Stage.ROUND, list(split.between))
        set_level(tournament, played.number + 1, number)
        return
    draw_next(tournament, played.number + 1, number + 1)


def _players(tournament: Tournament, entries: tuple[int, ...]) -> dict[int, int]:
    return dict(tournament.entries.filter(pk__in=entries).values_list("pk", "player_id"))


def _complete(played: Round, advanced: list[int]) -> None:
    played.advanced = advanced
    played.status = Round.Status.COMPLETE
    played.save(update_fields=["advanced", "status"])


def set_level(tournament: Tournament, number: int, level: int) -> None:
    tournament.round_set.filter(number=number).update(level=level)


def draw_next(tournament: Tournament, number: int, level: int) -> None:
    """The next round of everyone still in (best chips first): the final when they fit one
    table, the end when one or none is left."""
    chips = chips_held(tournament=tournament)
    active = sorted(
        tournament.entries.filter(status=E.ACTIVE), key=lambda e: (-chips.get(e.player_id, 0), e.pk)
    )
    if len(active) <= 1:
        chips_finish(tournament, {e.pk: 1 for e in active})
        return
    draw_round(tournament, number, stage_of(tournament, len(active)), [e.pk for e in active])
    set_level(tournament, number, level)


def chips_finish(tournament: Tournament, final_ranks: dict[int, int]) -> None:
    """Everyone placed: the final's players by their chips, then those out of each round back
    to the first (by their chips when they went out); the prizes paid."""
    knocked: list[dict[int, int]] = []
    for past in tournament.round_set.order_by("number"):
        knocked.append(
            {
                pk: place
                for pk, place in tournament.entries.filter(
                    out_in_round=past.number, status=E.ELIMINATED
                ).values_list("pk", "table_place")
                if place is not None
            }
        )
    finish_placed(tournament, knockout.final_places(final_ranks, knocked))

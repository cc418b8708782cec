"""Tables, games and their seats: setting them up, a player joining or leaving a points table,
and the organiser ending a game by hand. Keyword-only, atomic, audited; a game is locked with
``select_for_update`` before it is read for a decision."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.audit import audit_record, snapshot
from clubs.models import Club, Player
from clubs.validation import require_no_money
from config.errors import Conflict, InvalidInput
from config.names import name_checked, require_length
from ledger.books import book_open
from scoring.formats import GameEnd, handler_for
from scoring.formats.base import require_open_game
from scoring.lifecycle import game_end
from scoring.models import GAME_BOOK, Deal, Game, PlayerResult, RulePreset, Seat, Session, Table
from scoring.nights import require_open_session
from scoring.posting import ledger_entry_create
from scoring.preset_rules import game_rules

GAME_FIELDS = [
    "format", "preset", "point_value_minor", "entry_fee_minor", "qualifiers", "breaks_tie",
    "status",
]  # fmt: skip


@transaction.atomic
def table_create(*, session: Session, actor: AbstractBaseUser, name: str | None = None) -> Table:
    session = Session.objects.select_for_update().get(pk=session.pk)
    require_open_session(session)
    if not name:
        name = f"Table {session.tables.count() + 1}"
    name = name_checked(name)
    if not name:
        raise InvalidInput("name: " + _("give the table a name that shows, e.g. 'Table 2'"))
    require_length(name, field="name", limit=Table._meta.get_field("name").max_length)
    if session.tables.filter(name=name).exists():
        raise Conflict(
            "name: " + _("this session already has a table named %(name)s") % {"name": repr(name)}
        )
    table = Table.objects.create(session=session, name=name)
    audit_record(
        actor=actor, club=session.club, action="table.create", obj=table, after={"name": name}
    )
    return table


def players_check(club: Club, players: list[Player]) -> None:
    """Refuse players not of the club, retired, or listed twice (the players of a game)."""
    seen: set[int] = set()
    for player in players:
        if player.club_id != club.pk:
            raise InvalidInput(
                "players: "
                + _("%(name)s is not on this club's roster") % {"name": repr(player.name)}
            )
        if player.pk in seen:
            raise InvalidInput(
                "players: " + _("%(name)s is listed twice") % {"name": repr(player.name)}
            )
        if not player.active:
            raise Conflict(
                "players: "
                + _("%(name)s is retired; restore them to seat them") % {"name": repr(player.name)},
                code="player_retired",
            )
        seen.add(player.pk)


@transaction.atomic
def game_create(
    *,
    table: Table,
    actor: AbstractBaseUser,
    preset: RulePreset,
    players: list[Player],
    point_value_minor: int | None = None,
    entry_fee_minor: int | None = None,
    qualifiers: int | None = None,
    breaks_tie: bool = False,
) -> Game:
    """A game at ``table``. A tournament's table (``qualifiers``: how many go on) or tie-breaker
    (``breaks_tie``) plays for the tournament: no stake, no entry fee, whatever its preset says
    (the purse holds the money)."""
    session = Session.objects.select_for_update().get(pk=table.session_id)
    require_open_session(session)
    club = session.club
    if preset.club_id not in (None, club.pk):
        raise InvalidInput("preset: " + _("not a preset of this club"))
    rules = game_rules(preset)
    players_check(club, players)
    if not rules.min_players <= len(players) <= rules.max_players:
        raise InvalidInput(
            "players: "
            + _("a %(preset)s game seats %(least)s to %(most)s players, not %(given)s")
            % {
                "preset": preset.shown_name,
                "least": rules.min_players,
                "most": rules.max_players,
                "given": len(players),
            },
            details={"given": len(players)},
        )
    require_no_money(club=club, field="point_value_minor", amount=point_value_minor)
    require_no_money(club=club, field="entry_fee_minor", amount=entry_fee_minor)
    if qualifiers is not None or breaks_tie or club.points_only:
        # No stake and no fee, whatever the preset says: a tournament's purse holds the money,
        # and a club that plays for points only takes none.
        point_value_minor, entry_fee_minor = 0, 0
    game = Game.objects.create(
        table=table,
        book=book_open(club_id=club.pk, owner=GAME_BOOK),
        format=preset.format,
        preset=preset,
        qualifiers=qualifiers,
        breaks_tie=breaks_tie,
        point_value_minor=rules.point_value_minor
        if point_value_minor is None
        else point_value_minor,
        entry_fee_minor=rules.entry_fee_minor if entry_fee_minor is None else entry_fee_minor,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=index + 1) for index, player in enumerate(players)
    )
    audit_record(
        actor=actor,
        club=club,
        action="game.create",
        obj=game,
        after={**snapshot(game, GAME_FIELDS), "players": [p.pk for p in players]},
    )
    for entry in handler_for(game).game_opened(game=game, rules=rules):
        ledger_entry_create(game=game, kind=entry.kind, lines=entry.lines, memo=entry.memo)
    return game


@transaction.atomic
def seat_add(*, game: Game, actor: AbstractBaseUser, player: Player) -> Seat:
    """A player joins a points rummy game between deals."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__session__club")
        .get(pk=game.pk)
    )
    require_open_session(game.table.session)
    if not handler_for(game).seats_open:
        raise Conflict(
            _("players join a %(format)s game only at the start")
            % {"format": game.get_format_display()},
            code="seating_closed",
        )
    if game.status != Game.Status.OPEN:
        raise Conflict(_("this game has finished"), code="game_finished")
    players_check(game.table.session.club, [player])
    if game.seats.filter(player=player).exists():
        raise Conflict(
            "player: " + _("%(name)s already has a seat in this game") % {"name": repr(player.name)}
        )
    rules = game_rules(game.preset)
    if game.seats.filter(left_after_deal__isnull=True).count() >= rules.max_players:
        raise Conflict(
            _("this game is full (%(seats)s seats)") % {"seats": rules.max_players},
            code="game_full",
        )
    position = (game.seats.aggregate(m=Max("position"))["m"] or 0) + 1
    seat = Seat.objects.create(game=game, player=player, position=position)
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="seat.add",
        obj=seat,
        after={"game": game.pk, "player": player.pk, "position": position},
    )
    return seat


@transaction.atomic
def seat_remove(*, game: Game, actor: AbstractBaseUser, player: Player) -> Seat:
    """A player leaves a points table between deals: they play no later deal, and keep what
    they won or lost (their seat stays in the game's history). A seat that never played is
    removed outright."""
    game = game_lock(game)
    if not handler_for(game).seats_open:
        raise Conflict(
            _("players leave a %(format)s game only by its rules")
            % {"format": game.get_format_display()},
            code="seating_closed",
        )
    require_open_game(game)
    seat = game.seats.filter(player=player, left_after_deal__isnull=True).first()
    if seat is None:
        raise Conflict(
            "player: " + _("%(name)s has no seat at this table") % {"name": repr(player.name)},
            code="not_seated",
        )
    if game.deals.filter(status__in=[Deal.Status.OPEN, Deal.Status.AWAITING_CONFIRMATION]).exists():
        raise Conflict(
            _("a deal is still waiting for its result: leave between deals"), code="deal_open"
        )
    staying = game.seats.filter(left_after_deal__isnull=True).exclude(pk=seat.pk).count()
    if staying < game_rules(game.preset).min_players:
        raise Conflict(
            _("the table would have %(count)s player(s) left") % {"count": staying},
            code="too_few_players",
        )
    last = game.deals.exclude(status=Deal.Status.VOID).aggregate(m=Max("number"))["m"]
    played = PlayerResult.objects.filter(game=game, player=player).exists()
    audit_record(
        actor=actor, club=game.table.session.club, action="seat.remove", obj=seat,
        after={"game": game.pk, "player": player.pk, "left_after_deal": last},
    )  # fmt: skip
    if not played:
        seat.delete()
        return seat
    seat.left_after_deal = last or 0
    seat.save(update_fields=["left_after_deal"])
    return seat


def game_lock(game: Game) -> Game:
    """The game, locked, in a session still open."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("preset", "table__session__club")
        .get(pk=game.pk)
    )
    require_open_session(game.table.session)
    return game


@transaction.atomic
def game_finish(*, game: Game, actor: AbstractBaseUser, end: str = GameEnd.BY_ORGANISER) -> Game:
    """The organiser ends a game by hand, one of the ways its format offers now
    (``GameFormatHandler.endings``): a points table closes, a Rummikub match ends (International
    settles), a pool or deals game is abandoned with its pot refunded."""
    game = game_lock(game)
    if game.status != Game.Status.OPEN:
        raise Conflict(_("this game has finished"), code="game_finished")
    if game.breaks_tie:
        raise Conflict(
            _("a tie-breaker is not ended by hand: it ends by itself when its deal counts"),
            code="tiebreaker_ends_itself",
        )
    offered = handler_for(game).endings(game=game, rules=game_rules(game.preset))
    chosen = next((ending for ending in offered if ending.end == end), None)
    if chosen is None:
        ways = "; ".join(f"{e.end} ({_(e.label).lower()})" for e in offered) or _("none")
        raise Conflict(
            "end: "
            + _("a %(format)s game cannot end %(end)s by hand; it can end: %(ways)s")
            % {"format": game.get_format_display(), "end": repr(str(end)), "ways": ways},
            code="cannot_finish",
            details={"endings": [e.end for e in offered]},
        )
    return game_end(game=game, actor=actor, end=chosen.end)

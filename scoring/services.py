"""Every write of the scoring app: sessions, tables, games, seats, deals and submissions.

Keyword-only, atomic, audited. Rows that compete (a deal receiving versions, a
game receiving deals) are locked with ``select_for_update`` before they are read for a decision."""

from __future__ import annotations

import dataclasses
import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, ProtectedError
from django.utils import timezone

from clubs.audit import audit_record, snapshot
from clubs.models import Club, Player
from config.errors import Conflict, InvalidInput, NotFoundError
from rules.errors import RuleViolation
from scoring.events import deal_event, session_closed_event
from scoring.figures import session_settlement
from scoring.formats import GameEnd, handler_for
from scoring.formats.base import require_open_game
from scoring.formats.purse import PurseFormat
from scoring.formats.reads import account_balance
from scoring.lifecycle import correction_check, game_end, result_changed
from scoring.models import (
    AccountKind,
    Deal,
    Game,
    GameFormat,
    LedgerEntry,
    PlayerResult,
    Quantity,
    RulePreset,
    Season,
    Seat,
    Session,
    Submission,
    Table,
    TransferPaid,
)
from scoring.posting import ledger_entry_create, ledger_entry_reverse
from scoring.preset_rules import game_rules, preset_check_params
from scoring.standings import check_metric_ids
from scoring.submissions import submission_validation_send

GAME_FIELDS = ["format", "preset", "point_value_minor", "entry_fee_minor", "status"]


# --- presets ---------------------------------------------------------------------------------


@transaction.atomic
def preset_create(
    *,
    club: Club,
    actor: AbstractBaseUser,
    key: str,
    name: str,
    format: str,
    variant: str,
    params: dict[str, Any],
) -> RulePreset:
    """A club's preset, or a new version of it when the key exists: old games keep theirs."""
    params = preset_check_params(format=format, variant=variant, params=params)
    latest = (
        RulePreset.objects.select_for_update()
        .filter(club=club, key=key)
        .order_by("-version")
        .first()
    )
    if latest is not None and latest.format != format:
        raise Conflict(
            f"key: preset {key!r} is a {latest.format} preset; a new version cannot be {format}"
        )
    preset = RulePreset.objects.create(
        club=club,
        key=key,
        version=(latest.version + 1) if latest else 1,
        name=name,
        format=format,
        variant=variant,
        params=params,
        created_by=actor,
    )
    audit_record(
        actor=actor,
        club=club,
        action="preset.create",
        obj=preset,
        after={"key": key, "version": preset.version, "params": params},
    )
    return preset


# --- sessions and tables -----------------------------------------------------------------------


@transaction.atomic
def session_create(
    *, club: Club, actor: AbstractBaseUser, name: str, started_at: datetime | None = None
) -> Session:
    name = " ".join(name.split())
    if not name:
        raise InvalidInput("name: give the session a name, e.g. 'Friday 14 March'")
    started_at = started_at or timezone.now()
    session = Session.objects.create(
        club=club,
        name=name,
        started_at=started_at,
        created_by=actor,
        season=season_for(club=club, when=started_at),
    )
    audit_record(
        actor=actor,
        club=club,
        action="session.create",
        obj=session,
        after=snapshot(session, ["name", "started_at"]),
    )
    return session


@dataclass(frozen=True)
class CloseBlocker:
    """Something that keeps a night from closing, and the actions that resolve it."""

    kind: str  # "deal_waiting" or "game_open"
    game_id: int
    table: str
    deal_id: int | None
    deal_number: int | None
    message: str
    actions: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "actions": list(self.actions)}


def session_close_blockers(*, session: Session) -> list[CloseBlocker]:
    """What keeps the session from closing: deals without a counted result (enter or confirm
    one, or void a deal never played) and games whose format cannot be ended by hand (refund
    the pot). Games the organiser may end by hand (a points table, a Rummikub match) do not
    block: closing ends them."""
    blockers: list[CloseBlocker] = []
    games = Game.objects.filter(table__session=session, status=Game.Status.OPEN).select_related(
        "table", "preset"
    )
    waiting = (
        Deal.objects.filter(
            game__in=games, status__in=[Deal.Status.OPEN, Deal.Status.AWAITING_CONFIRMATION]
        )
        .order_by("game_id", "number")
        .values("pk", "number", "status", "game_id")
    )
    pending = set(
        Submission.objects.filter(
            deal__in=[d["pk"] for d in waiting], status=Submission.Status.PENDING
        ).values_list("deal_id", flat=True)
    )
    by_game: dict[int, list[dict[str, Any]]] = {}
    for deal in waiting:
        by_game.setdefault(deal["game_id"], []).append(deal)
    for game in games:
        handler = handler_for(game)
        unit = handler.words.unit
        for deal in by_game.get(game.pk, []):
            if deal["status"] == Deal.Status.AWAITING_CONFIRMATION:
                actions: tuple[str, ...] = ("confirm",)
                why = "has a valid result waiting for confirmation"
            elif deal["pk"] in pending:
                actions = ("wait",)
                why = "has a result being checked"
            else:
                actions = ("enter_result", "void")
                why = "has no counted result"
            blockers.append(
                CloseBlocker(
                    "deal_waiting", game.pk, game.table.name, deal["pk"], deal["number"],
                    f"{game.table.name}: {unit} {deal['number']} {why}", actions,
                )
            )  # fmt: skip
        ends = {ending.end for ending in handler.endings(game=game, rules=game_rules(game.preset))}
        if GameEnd.BY_ORGANISER not in ends:
            blockers.append(
                CloseBlocker(
                    "game_open", game.pk, game.table.name, None, None,
                    f"{game.table.name}: the {game.get_format_display().lower()} game is still "
                    "being played",
                    tuple(str(end) for end in sorted(ends)),
                )
            )  # fmt: skip
    return blockers


@transaction.atomic
def session_close(*, session: Session, actor: AbstractBaseUser) -> Session:
    """Close the night: every game still open that its format lets the organiser end (a points
    table, a Rummikub match) ends through the game lifecycle; anything else still open refuses
    the close, listing what to do (``session_close_blockers``)."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise Conflict(f"session {session.name!r} is already closed", code="session_closed")
    blockers = session_close_blockers(session=session)
    if blockers:
        raise Conflict(
            f"the night cannot close yet: {'; '.join(b.message for b in blockers)}",
            code="session_not_finished",
            details={"blockers": [blocker.as_dict() for blocker in blockers]},
        )
    for game in Game.objects.filter(table__session=session, status=Game.Status.OPEN):
        game_end(game=game, actor=actor, end=GameEnd.BY_ORGANISER)
    session.status = Session.Status.CLOSED
    session.closed_at = timezone.now()
    session.save(update_fields=["status", "closed_at"])
    session_closed_event(session=session)
    audit_record(
        actor=actor,
        club=session.club,
        action="session.close",
        obj=session,
        before={"status": "open"},
        after={"status": "closed"},
    )
    return session


def season_for(*, club: Club, when: datetime) -> Season:
    """The club's season holding ``when`` (in the club's time zone); a calendar-year season is
    made when the club has none for that date."""
    day = timezone.localtime(when, zoneinfo.ZoneInfo(club.timezone)).date()
    season = club.seasons.filter(starts_on__lte=day, ends_on__gte=day).order_by("-starts_on")
    found = season.first()
    if found is not None:
        return found
    found, _ = Season.objects.get_or_create(
        club=club,
        name=str(day.year),
        defaults={"starts_on": date(day.year, 1, 1), "ends_on": date(day.year, 12, 31)},
    )
    return found


def _require_open_session(session: Session) -> None:
    if session.status != Session.Status.OPEN:
        raise Conflict(f"session {session.name!r} is closed", code="session_closed")


@transaction.atomic
def table_create(*, session: Session, actor: AbstractBaseUser, name: str | None = None) -> Table:
    session = Session.objects.select_for_update().get(pk=session.pk)
    _require_open_session(session)
    if not name:
        name = f"Table {session.tables.count() + 1}"
    name = " ".join(name.split())
    if session.tables.filter(name=name).exists():
        raise Conflict(f"name: this session already has a table named {name!r}")
    table = Table.objects.create(session=session, name=name)
    audit_record(
        actor=actor, club=session.club, action="table.create", obj=table, after={"name": name}
    )
    return table


# --- games and seats -----------------------------------------------------------------------------


def _check_players(club: Club, players: list[Player]) -> None:
    seen: set[int] = set()
    for player in players:
        if player.club_id != club.pk:
            raise InvalidInput(f"players: {player.name!r} is not on this club's roster")
        if player.pk in seen:
            raise InvalidInput(f"players: {player.name!r} is listed twice")
        if not player.active:
            raise Conflict(
                f"players: {player.name!r} is retired; restore them to seat them",
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
) -> Game:
    session = Session.objects.select_for_update().get(pk=table.session_id)
    _require_open_session(session)
    club = session.club
    if preset.club_id not in (None, club.pk):
        raise InvalidInput("preset: not a preset of this club")
    rules = game_rules(preset)
    _check_players(club, players)
    if not rules.min_players <= len(players) <= rules.max_players:
        raise InvalidInput(
            f"players: a {preset.name} game seats {rules.min_players} to {rules.max_players} "
            f"players, not {len(players)}",
            details={"given": len(players)},
        )
    game = Game.objects.create(
        table=table,
        format=preset.format,
        preset=preset,
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
    _require_open_session(game.table.session)
    if not handler_for(game).seats_open:
        raise Conflict(
            f"players join a {game.get_format_display()} game only at the start",
            code="seating_closed",
        )
    if game.status != Game.Status.OPEN:
        raise Conflict("this game has finished", code="game_finished")
    _check_players(game.table.session.club, [player])
    if game.seats.filter(player=player).exists():
        raise Conflict(f"player: {player.name!r} already has a seat in this game")
    rules = game_rules(game.preset)
    if game.seats.filter(left_after_deal__isnull=True).count() >= rules.max_players:
        raise Conflict(f"this game is full ({rules.max_players} seats)", code="game_full")
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


# --- deals and submissions -----------------------------------------------------------------------


def _deal_create(
    *,
    game: Game,
    actor: AbstractBaseUser,
    wild: str = "",
    dealer: Player | None = None,
    number: int | None = None,
    is_tiebreaker: bool = False,
    club: Club | None = None,
) -> Deal:
    """The game's next deal (or deal ``number``). With ``club``, the game must be one of its."""
    games = Game.objects.select_for_update(of=("self",)).select_related(
        "preset", "table__session__club"
    )
    if club is not None:
        games = games.filter(table__session__club=club)
    locked = games.filter(pk=game.pk).first()
    if locked is None:
        raise NotFoundError(f"no game #{game.pk} in {club.name if club else 'this club'}")
    game = locked
    _require_open_session(game.table.session)
    if game.status != Game.Status.OPEN:
        raise Conflict("this game has finished; no more deals", code="game_finished")
    # Its own statement, after the lock: a subquery of the locking SELECT would read the snapshot
    # taken before waiting for the lock, and miss a deal committed meanwhile.
    last = game.deals.aggregate(m=Max("number"))["m"] or 0
    if number is None:
        number = last + 1
    elif game.deals.filter(number=number).exists():
        raise Conflict(f"number: deal {number} of this game exists", code="deal_exists")
    if dealer is not None and not game.seats.filter(player=dealer).exists():
        raise InvalidInput(f"dealer: {dealer.name!r} has no seat in this game")
    if wild:
        wild = game_rules(game.preset).normalise_wild(wild)
    handler_for(game).deal_check_can_start(
        game=game, rules=game_rules(game.preset), is_tiebreaker=is_tiebreaker
    )
    deal = Deal.objects.create(
        game=game, number=number, wild=wild, dealer=dealer, is_tiebreaker=is_tiebreaker
    )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="deal.create",
        obj=deal,
        after={"game": game.pk, "number": number, "wild": wild, "tiebreaker": is_tiebreaker},
    )
    return deal


# Its own transaction; deal_create_with_result calls _deal_create inside its own (no savepoint).
deal_create = transaction.atomic(_deal_create)


@transaction.atomic
def submission_create(
    *,
    deal: Deal,
    actor: AbstractBaseUser,
    source: str,
    payload: dict[str, Any],
) -> Submission:
    """Store a deal's result as entered (a new version) and have it validated after commit."""
    deal = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__table__session__club")
        .get(pk=deal.pk)
    )
    session = deal.game.table.session
    _require_open_session(session)
    decided = deal.submissions.filter(
        status__in=[Submission.Status.ACCEPTED, Submission.Status.AWAITING_CONFIRMATION]
    ).exists()
    if decided:  # a correction: the format says whether this deal can still change
        handler_for(deal.game).correction_check(deal=deal, rules=game_rules(deal.game.preset))
        correction_check(game=deal.game)
    version = (deal.submissions.aggregate(m=Max("version"))["m"] or 0) + 1
    return _submission_store(
        deal=deal, session=session, version=version, actor=actor, source=source, payload=payload
    )


def _submission_store(
    *,
    deal: Deal,
    session: Session,
    version: int,
    actor: AbstractBaseUser,
    source: str,
    payload: dict[str, Any],
) -> Submission:
    submission = Submission.objects.create(
        deal=deal, version=version, source=source, payload=payload, submitted_by=actor
    )
    audit_record(
        actor=actor,
        club=session.club,
        action="submission.create",
        obj=submission,
        after={"deal": deal.pk, "version": version, "source": source},
    )
    submission_validation_send(submission_id=submission.pk)
    return submission


@transaction.atomic
def deal_create_with_result(
    *,
    game: Game,
    actor: AbstractBaseUser,
    wild: str,
    dealer: Player | None,
    number: int | None,
    is_tiebreaker: bool,
    source: str,
    payload: dict[str, Any] | None,
    club: Club | None = None,
) -> tuple[Deal, Submission | None]:
    """Start a deal and, when the result is already known, store its first submission."""
    deal = _deal_create(
        game=game,
        actor=actor,
        wild=wild,
        dealer=dealer,
        number=number,
        is_tiebreaker=is_tiebreaker,
        club=club,
    )
    if payload is None:
        return deal, None
    # The deal is new and not yet visible to anyone else: it needs no lock and has no versions.
    submission = _submission_store(
        deal=deal, session=deal.game.table.session, version=1, actor=actor, source=source,
        payload=payload,
    )  # fmt: skip
    return deal, submission


@transaction.atomic
def deal_void(*, deal: Deal, actor: AbstractBaseUser) -> Deal:
    """Void a deal: it keeps its number and its history and counts for nothing. A deal never
    played (opened by mistake, or left when the night ended) simply stops waiting; a counted
    deal has its ledger entries reversed and its results taken out of the standings, where its
    format would let it be corrected (any deal of a points table, the latest of a pool, deals
    game or match, and nothing a tournament round was built on). A deal being checked cannot be
    voided until it is decided."""
    deal = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__table__session__club", "game__preset")
        .get(pk=deal.pk)
    )
    _require_open_session(deal.game.table.session)
    if deal.status == Deal.Status.VOID:
        raise Conflict(f"deal {deal.number} is already voided", code="deal_void")
    if deal.submissions.filter(status=Submission.Status.PENDING).exists():
        raise Conflict(
            f"a result of deal {deal.number} is being checked; wait for it",
            code="submission_pending",
        )
    before = deal.status
    if deal.status != Deal.Status.OPEN:
        _deal_uncount(deal)
    Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.VOID)
    deal.status = Deal.Status.VOID
    if before != Deal.Status.OPEN:
        deal_event(deal=deal, submission=None, name="deal.corrected")
    audit_record(
        actor=actor,
        club=deal.game.table.session.club,
        action="deal.void",
        obj=deal,
        before={"status": before},
        after={"status": Deal.Status.VOID},
    )
    return deal


def _deal_uncount(deal: Deal) -> None:
    """Take a decided deal's result out: the format and whatever was built on the game's result
    must allow it (as for a correction); its entries are reversed, its results leave the
    standings, and its counted or waiting version is marked voided."""
    game = deal.game
    rules = game_rules(game.preset)
    handler_for(game).correction_check(deal=deal, rules=rules)
    correction_check(game=game)
    for entry in LedgerEntry.objects.filter(
        deal=deal, kind=LedgerEntry.Kind.DEAL, reversed_by__isnull=True
    ).select_related("game__table__session"):
        ledger_entry_reverse(entry=entry, memo=f"deal {deal.number} voided")
    deal.submissions.filter(
        status__in=[Submission.Status.ACCEPTED, Submission.Status.AWAITING_CONFIRMATION]
    ).update(status=Submission.Status.VOIDED)
    if game.status == Game.Status.FINISHED:  # a closed points table: its order may change
        result_changed(game=game)


@transaction.atomic
def deal_delete(*, deal: Deal, actor: AbstractBaseUser) -> int:
    """Delete a deal opened by mistake: one that never had a result entered (with any version,
    even a refused one, it is voided instead, so its history stays). Returns the deal's id."""
    deal = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("game__table__session__club")
        .get(pk=deal.pk)
    )
    _require_open_session(deal.game.table.session)
    if deal.status != Deal.Status.OPEN or deal.submissions.exists() or deal.entries.exists():
        raise Conflict(
            f"deal {deal.number} has a result entered; void it instead (its history stays)",
            code="deal_has_history",
        )
    if deal.game.deals.filter(number__gt=deal.number).exists():
        raise Conflict(
            f"deal {deal.number} has later deals; void it instead", code="deal_has_history"
        )
    deal_id = deal.pk
    audit_record(
        actor=actor, club=deal.game.table.session.club, action="deal.delete", obj=deal,
        before={"game": deal.game_id, "number": deal.number},
    )  # fmt: skip
    deal.delete()
    return deal_id


def _delete_unless_held(obj: Any, what: str) -> None:
    """Delete ``obj``; when something kept elsewhere holds it (a tournament's night or table),
    409 naming that rather than a server error."""
    try:
        with transaction.atomic():
            obj.delete()
    except ProtectedError as exc:
        holders = sorted({str(held._meta.verbose_name) for held in exc.protected_objects})
        raise Conflict(
            f"{what} belongs to a {' and a '.join(holders)}; it goes with it",
            code="held",
            details={"held_by": holders},
        ) from None


def _require_nothing_posted(games: Any, what: str) -> None:
    if (
        LedgerEntry.objects.filter(game__in=games).exists()
        or Deal.objects.filter(game__in=games).exists()
    ):
        raise Conflict(
            f"{what} has deals or money in the ledger; it cannot be deleted", code="not_empty"
        )


@transaction.atomic
def game_delete(*, game: Game, actor: AbstractBaseUser) -> int:
    """Delete a game set up by mistake: no deal and nothing in the ledger (no fee paid)."""
    game = _lock_game(game)
    if not handler_for(game).has_deals:  # a tournament's purse
        raise Conflict("a tournament's purse goes with its tournament", code="not_empty")
    _require_nothing_posted([game], f"game #{game.pk}")
    game_id = game.pk
    audit_record(
        actor=actor, club=game.table.session.club, action="game.delete", obj=game,
        before={"table": game.table_id, "format": game.format},
    )  # fmt: skip
    _delete_unless_held(game, f"game #{game.pk}")
    return game_id


@transaction.atomic
def table_delete(*, table: Table, actor: AbstractBaseUser) -> int:
    """Delete a table with no game that has deals or money (its empty games go with it)."""
    table = Table.objects.select_for_update().select_related("session__club").get(pk=table.pk)
    _require_open_session(table.session)
    _require_nothing_posted(table.games.all(), f"table {table.name!r}")
    table_id = table.pk
    audit_record(
        actor=actor, club=table.session.club, action="table.delete", obj=table,
        before={"session": table.session_id, "name": table.name},
    )  # fmt: skip
    _delete_unless_held(table, f"table {table.name!r}")
    return table_id


@transaction.atomic
def session_delete(*, session: Session, actor: AbstractBaseUser) -> int:
    """Delete a night started by mistake: nothing played or paid in it."""
    session = Session.objects.select_for_update().select_related("club").get(pk=session.pk)
    _require_nothing_posted(Game.objects.filter(table__session=session), f"{session.name!r}")
    session_id = session.pk
    audit_record(
        actor=actor, club=session.club, action="session.delete", obj=session,
        before={"name": session.name, "status": session.status},
    )  # fmt: skip
    _delete_unless_held(session, f"{session.name!r}")
    return session_id


@transaction.atomic
def session_reopen(*, session: Session, actor: AbstractBaseUser) -> Session:
    """Reopen a closed night, for a late correction or a forgotten deal; close it again when
    done. Its games stay as they ended."""
    session = Session.objects.select_for_update().select_related("club").get(pk=session.pk)
    if session.status != Session.Status.CLOSED:
        raise Conflict(f"session {session.name!r} is open", code="session_open")
    session.status, session.closed_at = Session.Status.OPEN, None
    session.save(update_fields=["status", "closed_at"])
    audit_record(
        actor=actor, club=session.club, action="session.reopen", obj=session,
        before={"status": "closed"}, after={"status": "open"},
    )  # fmt: skip
    return session


@transaction.atomic
def seat_remove(*, game: Game, actor: AbstractBaseUser, player: Player) -> Seat:
    """A player leaves a points table between deals: they play no later deal, and keep what
    they won or lost (their seat stays in the game's history). A seat that never played is
    removed outright."""
    game = _lock_game(game)
    if not handler_for(game).seats_open:
        raise Conflict(
            f"players leave a {game.get_format_display()} game only by its rules",
            code="seating_closed",
        )
    require_open_game(game)
    seat = game.seats.filter(player=player, left_after_deal__isnull=True).first()
    if seat is None:
        raise Conflict(f"player: {player.name!r} has no seat at this table", code="not_seated")
    if game.deals.filter(status__in=[Deal.Status.OPEN, Deal.Status.AWAITING_CONFIRMATION]).exists():
        raise Conflict(
            "a deal is still waiting for its result: leave between deals", code="deal_open"
        )
    staying = game.seats.filter(left_after_deal__isnull=True).exclude(pk=seat.pk).count()
    if staying < game_rules(game.preset).min_players:
        raise Conflict(f"the table would have {staying} player(s) left", code="too_few_players")
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


# --- rejoin and split (pool rummy); ending a game by hand -----------------------------------------


def _lock_game(game: Game) -> Game:
    """The game, locked, in a session still open."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("preset", "table__session__club")
        .get(pk=game.pk)
    )
    _require_open_session(game.table.session)
    return game


def _rules_error(exc: RuleViolation) -> Conflict:
    return Conflict(exc.message, code=exc.code, details={"token": exc.token, **exc.details})


@transaction.atomic
def pool_rejoin(*, game: Game, actor: AbstractBaseUser, player: Player) -> int:
    """An eliminated player buys in again; returns the score they come back at."""
    game = _lock_game(game)
    try:
        lines, score = handler_for(game).rejoin_lines(
            game=game, rules=game_rules(game.preset), player_id=player.pk
        )
    except RuleViolation as exc:
        raise _rules_error(exc) from None
    entry = ledger_entry_create(
        game=game, kind=LedgerEntry.Kind.REJOIN, lines=lines, memo=f"{player.name} rejoins"
    )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="pool.rejoin",
        obj=entry,
        after={"game": game.pk, "player": player.pk, "score": score},
    )
    return score


@transaction.atomic
def pool_split(
    *, game: Game, actor: AbstractBaseUser, kind: str, agreed: list[Player]
) -> dict[int, int]:
    """Record an agreed split of the prize pool and end the game with it: every remaining player
    must be among ``agreed``, and the split must be offered now."""
    game = _lock_game(game)
    try:
        shares, remaining = handler_for(game).split_shares(
            game=game, rules=game_rules(game.preset), kind=kind
        )
    except RuleViolation as exc:
        raise _rules_error(exc) from None
    agreed_ids = {p.pk for p in agreed}
    missing = [pid for pid in remaining if pid not in agreed_ids]
    if missing:
        names = ", ".join(game.seats.get(player_id=pid).player.name for pid in missing)
        raise Conflict(
            f"every remaining player must agree to a split; not agreed: {names}",
            code="split_not_agreed",
            details={"missing": missing},
        )
    extra = sorted(agreed_ids - set(remaining))
    if extra:
        raise InvalidInput(
            f"agreed: player #{extra[0]} is not among the remaining players", code="not_remaining"
        )
    game_end(game=game, actor=actor, end=GameEnd.SPLIT, shares=shares)
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="pool.split",
        obj=game,
        after={"game": game.pk, "kind": kind, "shares": {str(k): v for k, v in shares.items()}},
    )
    return shares


@transaction.atomic
def game_finish(*, game: Game, actor: AbstractBaseUser, end: str = GameEnd.BY_ORGANISER) -> Game:
    """The organiser ends a game by hand, one of the ways its format offers now
    (``GameFormatHandler.endings``): a points table closes, a Rummikub match ends (International
    settles), a pool or deals game is abandoned with its pot refunded."""
    game = _lock_game(game)
    if game.status != Game.Status.OPEN:
        raise Conflict("this game has finished", code="game_finished")
    offered = handler_for(game).endings(game=game, rules=game_rules(game.preset))
    chosen = next((ending for ending in offered if ending.end == end), None)
    if chosen is None:
        ways = "; ".join(f"{e.end} ({e.label.lower()})" for e in offered) or "none"
        raise Conflict(
            f"end: a {game.get_format_display()} game cannot end {str(end)!r} by hand; it can "
            f"end: {ways}",
            code="cannot_finish",
            details={"endings": [e.end for e in offered]},
        )
    return game_end(game=game, actor=actor, end=chosen.end)


@transaction.atomic
def standings_order_set(*, club: Club, actor: AbstractBaseUser, order: list[str]) -> Club:
    """The club's order of standings metrics (ids of ``scoring.standings.METRICS``)."""
    check_metric_ids(order)
    club = Club.objects.select_for_update().get(pk=club.pk)
    before = {"standings_metrics": club.standings_metrics}
    club.standings_metrics = order
    club.save(update_fields=["standings_metrics"])
    audit_record(
        actor=actor,
        club=club,
        action="club.standings_order",
        obj=club,
        before=before,
        after={"standings_metrics": order},
    )
    return club


# --- a tournament's purse ---------------------------------------------------------------------


@transaction.atomic
def purse_open(*, session: Session, actor: AbstractBaseUser, preset: RulePreset) -> Game:
    """A purse for a tournament's entry fees and prizes: a game of its own at a table "Purse"
    of the tournament's session (its preset is the tournament's, for the record)."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    _require_open_session(session)
    table = Table.objects.create(session=session, name="Purse")
    game = Game.objects.create(table=table, format=GameFormat.PURSE, preset=preset)
    audit_record(
        actor=actor, club=session.club, action="purse.open", obj=game, after={"table": table.pk}
    )
    return game


@transaction.atomic
def purse_pay_in(*, game: Game, actor: AbstractBaseUser, player: Player, fee_minor: int) -> Seat:
    """An entrant pays the entry fee into the purse (and takes a seat of it, once)."""
    game = _lock_game(game)
    handler = handler_for(game)
    if not isinstance(handler, PurseFormat):
        raise Conflict("only a tournament's purse takes entry fees", code="not_purse")
    require_open_game(game)
    seat = game.seats.filter(player=player).first()
    if seat is None:
        position = (game.seats.aggregate(m=Max("position"))["m"] or 0) + 1
        seat = Seat.objects.create(game=game, player=player, position=position)
    if fee_minor:
        ledger_entry_create(
            game=game,
            kind=LedgerEntry.Kind.ENTRY_FEE,
            lines=handler.fee_lines(player_id=player.pk, fee_minor=fee_minor),
            memo=f"{player.name}: entry fee",
        )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="purse.pay_in",
        obj=game,
        after={"player": player.pk, "fee_minor": fee_minor},
    )
    return seat


@transaction.atomic
def purse_prizes_repost(
    *, game: Game, actor: AbstractBaseUser | None, shares: dict[int, int]
) -> None:
    """A finished tournament's places changed (a corrected final): the prizes paid are reversed
    and the new ones posted, two entries of the purse's ledger, so its history shows both."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__session__club")
        .get(pk=game.pk)
    )
    handler = handler_for(game)
    if not isinstance(handler, PurseFormat) or game.status != Game.Status.FINISHED:
        raise Conflict("only a paid-out purse has prizes to post again", code="not_purse")
    paid = (
        LedgerEntry.objects.filter(game=game, kind=LedgerEntry.Kind.PAYOUT, reversed_by=None)
        .order_by("-id")
        .first()
    )
    if paid is not None:
        ledger_entry_reverse(entry=paid, memo="tournament prizes: places corrected")
    pot = account_balance(game, Quantity.MONEY, AccountKind.GAME)
    if pot:
        ledger_entry_create(
            game=game, kind=LedgerEntry.Kind.PAYOUT, memo="tournament prizes, corrected",
            lines=handler.prize_lines(pot_minor=pot, shares=shares),
        )  # fmt: skip
    audit_record(
        actor=actor, club=game.table.session.club, action="purse.prizes_repost", obj=game,
        after={"shares": {str(k): v for k, v in shares.items()}},
    )  # fmt: skip


@transaction.atomic
def purse_refund(*, game: Game, actor: AbstractBaseUser, player: Player) -> int:
    """What an entrant paid into the purse goes back to them; returns the amount."""
    game = _lock_game(game)
    handler = handler_for(game)
    if not isinstance(handler, PurseFormat):
        raise Conflict("only a tournament's purse refunds entry fees", code="not_purse")
    require_open_game(game)
    lines = handler.refund_lines(game=game, player_id=player.pk)
    paid = lines[1].amount
    if paid:
        ledger_entry_create(
            game=game, kind=LedgerEntry.Kind.REFUND, lines=lines, memo=f"{player.name}: refund"
        )
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="purse.refund",
        obj=game,
        after={"player": player.pk, "refund_minor": paid},
    )
    return paid


@transaction.atomic
def transfer_mark_paid(
    *, session: Session, actor: AbstractBaseUser, payer: str, payee: str, paid: bool = True
) -> TransferPaid | None:
    """Mark a transfer of the night's settle-up paid (who, when, for the amount it is now), or
    take the mark back. Only a transfer the settle-up lists can be marked."""
    session = Session.objects.select_for_update().select_related("club").get(pk=session.pk)
    transfer = next(
        (t for t in session_settlement(session=session)
         if t.payer_key == payer and t.payee_key == payee),
        None,
    )  # fmt: skip
    if transfer is None:
        raise NotFoundError(
            f"payer: no transfer from {payer!r} to {payee!r} in this settle-up",
            code="no_transfer",
        )
    TransferPaid.objects.filter(session=session, payer=payer, payee=payee).delete()
    mark = None
    if paid:
        mark = TransferPaid.objects.create(
            session=session, payer=payer, payee=payee, amount_minor=transfer.amount_minor,
            marked_by=actor,
        )  # fmt: skip
    audit_record(
        actor=actor, club=session.club, action="transfer.paid" if paid else "transfer.unpaid",
        obj=session, after={"payer": payer, "payee": payee, "amount": transfer.amount_minor},
    )  # fmt: skip
    return mark

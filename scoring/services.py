"""Every write of the scoring app: sessions, tables, games, seats, deals and submissions.

Keyword-only, atomic, audited. Rows that compete (a deal receiving versions, a
game receiving deals) are locked with ``select_for_update`` before they are read for a decision."""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from clubs.audit import audit_record, snapshot
from clubs.models import Club, Player
from config.celery import enqueue_on_commit
from config.errors import Conflict, InvalidInput, NotFoundError
from rules.errors import RuleViolation
from scoring.formats import handler_for
from scoring.formats.common import game_mark_finished
from scoring.formats.pool import pool_payout, pool_rejoin_lines, pool_split_shares
from scoring.formats.rummikub import rummikub_finish
from scoring.ledger import ledger_entry_create
from scoring.models import (
    Deal,
    Game,
    GameFormat,
    LedgerEntry,
    RulePreset,
    Season,
    Seat,
    Session,
    Submission,
    Table,
)
from scoring.presets import GameRules, game_rules, preset_check_params

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


@transaction.atomic
def session_close(*, session: Session, actor: AbstractBaseUser) -> Session:
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise Conflict(f"session {session.name!r} is already closed", code="session_closed")
    pending = Submission.objects.filter(
        deal__game__table__session=session,
        status__in=[Submission.Status.PENDING, Submission.Status.AWAITING_CONFIRMATION],
    ).count()
    if pending:
        raise Conflict(
            f"{pending} submission(s) of this session are still pending or waiting for "
            "confirmation; settle them first",
            code="submissions_pending",
            details={"pending": pending},
        )
    session.status = Session.Status.CLOSED
    session.closed_at = timezone.now()
    session.save(update_fields=["status", "closed_at"])
    Game.objects.filter(table__session=session, status=Game.Status.OPEN).update(
        status=Game.Status.FINISHED, finished_at=session.closed_at
    )
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
            raise InvalidInput(f"players: {player.name!r} is not an active player")
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
    handler_for(game).game_opened(game=game, rules=rules)
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
    if game.format != GameFormat.POINTS:
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
    if game.seats.count() >= rules.max_players:
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
    from scoring.tasks import validate_submission

    enqueue_on_commit(validate_submission, submission.pk)
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


# --- pool rummy: rejoin and split; ending a game ---------------------------------------------


def _lock_game(game: Game) -> Game:
    """The game, locked, in a session still open."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("preset", "table__session__club")
        .get(pk=game.pk)
    )
    _require_open_session(game.table.session)
    return game


def _lock_pool_game(game: Game, what: str) -> tuple[Game, GameRules]:
    """The game, locked, for a rejoin or a split: only pool rummy has them."""
    game = _lock_game(game)
    if game.format != GameFormat.POOL:
        raise Conflict(f"only pool rummy has {what}", code="not_pool")
    return game, game_rules(game.preset)


def _rules_error(exc: RuleViolation) -> InvalidInput | Conflict:
    return Conflict(exc.message, code=exc.code, details={"token": exc.token, **exc.details})


@transaction.atomic
def pool_rejoin(*, game: Game, actor: AbstractBaseUser, player: Player) -> int:
    """An eliminated player buys in again; returns the score they come back at."""
    game, rules = _lock_pool_game(game, "rejoins")
    try:
        lines, score = pool_rejoin_lines(game=game, rules=rules, player_id=player.pk)
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
    """Record an agreed split of the prize pool and pay it out: every remaining player must be
    among ``agreed``, and the split must be offered now."""
    game, rules = _lock_pool_game(game, "splits")
    try:
        shares, remaining = pool_split_shares(game=game, rules=rules, kind=kind)
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
    entry = pool_payout(game=game, rules=rules, shares=shares, winner=None)
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="pool.split",
        obj=entry,
        after={"game": game.pk, "kind": kind, "shares": {str(k): v for k, v in shares.items()}},
    )
    return shares


@transaction.atomic
def game_finish(*, game: Game, actor: AbstractBaseUser) -> Game:
    """The organiser ends a game: a points table closes; a Rummikub match ends (International
    settles). Pool and deals games end by their own rules."""
    game = _lock_game(game)
    if game.status != Game.Status.OPEN:
        raise Conflict("this game has finished", code="game_finished")
    if game.format in (GameFormat.POOL, GameFormat.DEALS):
        raise Conflict(
            f"a {game.get_format_display()} game ends by its own rules, not by hand",
            code="cannot_finish",
        )
    if game.deals.exclude(status=Deal.Status.FINAL).exists():
        raise Conflict("a deal of this game has no counted result yet", code="previous_deal_open")
    if game.format == GameFormat.RUMMIKUB:
        rummikub_finish(game=game, rules=game_rules(game.preset))
    else:
        game_mark_finished(game)
    audit_record(
        actor=actor,
        club=game.table.session.club,
        action="game.finish",
        obj=game,
        before={"status": "open"},
        after={"status": "finished"},
    )
    return game


@transaction.atomic
def standings_order_set(*, club: Club, actor: AbstractBaseUser, order: list[str]) -> Club:
    """The club's order of standings metrics (ids of ``scoring.standings.METRICS``)."""
    from scoring.standings import check_metric_ids

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

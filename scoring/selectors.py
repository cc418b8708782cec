"""Reads of the scoring app, scoped to a club. Scoreboards and settle-ups are derived from the
ledger with a fixed number of queries, whatever the number of deals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from clubs.models import Club
from config.errors import NotFoundError
from rules.settle import settle_up
from scoring.models import (
    AccountKind,
    Deal,
    Game,
    PlayerResult,
    Posting,
    Quantity,
    RulePreset,
    Seat,
    Session,
    Submission,
    Table,
)

CLUB_ACCOUNT = "club"


def preset_list(*, club: Club) -> list[RulePreset]:
    """The newest version of every preset the club can use: built-in and its own."""
    presets = RulePreset.objects.filter(Q(club=club) | Q(club__isnull=True)).order_by(
        "club_id", "key", "-version"
    )
    newest: dict[tuple[int | None, str], RulePreset] = {}
    for preset in presets:
        newest.setdefault((preset.club_id, preset.key), preset)
    return sorted(newest.values(), key=lambda p: (p.club_id is not None, p.format, p.key))


def preset_get(*, club: Club, preset_id: int) -> RulePreset:
    preset = RulePreset.objects.filter(Q(club=club) | Q(club__isnull=True), pk=preset_id).first()
    if preset is None:
        raise NotFoundError(f"no preset #{preset_id} for this club")
    return preset


def session_list(*, club: Club, status: str | None = None) -> QuerySet[Session]:
    sessions = club.sessions.annotate(
        table_count=Count("tables", distinct=True),
        deal_count=Count("tables__games__deals", distinct=True),
    ).order_by("-started_at", "-id")
    if status:
        sessions = sessions.filter(status=status)
    return sessions


def session_get(*, club: Club, session_id: int, with_tables: bool = True) -> Session:
    """A session of the club; ``with_tables`` also loads its tables, games and seats."""
    if not with_tables:
        found = club.sessions.filter(pk=session_id).first()
        if found is None:
            raise NotFoundError(f"no session #{session_id} in {club.name}")
        return found
    session = (
        club.sessions.prefetch_related(
            Prefetch(
                "tables",
                queryset=Table.objects.prefetch_related(
                    Prefetch(
                        "games",
                        queryset=Game.objects.select_related("preset").prefetch_related(
                            Prefetch("seats", queryset=Seat.objects.select_related("player"))
                        ),
                    )
                ),
            )
        )
        .filter(pk=session_id)
        .first()
    )
    if session is None:
        raise NotFoundError(f"no session #{session_id} in {club.name}")
    return session


def table_get(*, club: Club, table_id: int) -> Table:
    table = Table.objects.select_related("session").filter(session__club=club, pk=table_id).first()
    if table is None:
        raise NotFoundError(f"no table #{table_id} in {club.name}")
    return table


def game_get(*, club: Club, game_id: int, with_seats: bool = True) -> Game:
    games = Game.objects.select_related("preset", "table__session")
    if with_seats:
        games = games.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player"))
        )
    game = games.filter(table__session__club=club, pk=game_id).first()
    if game is None:
        raise NotFoundError(f"no game #{game_id} in {club.name}")
    return game


def deal_list(*, game: Game) -> QuerySet[Deal]:
    return game.deals.order_by("number")


def deal_get(*, club: Club, deal_id: int) -> Deal:
    deal = (
        Deal.objects.select_related("game__preset", "game__table__session", "dealer")
        .filter(game__table__session__club=club, pk=deal_id)
        .first()
    )
    if deal is None:
        raise NotFoundError(f"no deal #{deal_id} in {club.name}")
    return deal


def submission_list(*, deal: Deal) -> QuerySet[Submission]:
    return deal.submissions.select_related("submitted_by", "confirmed_by").order_by("version")


def submission_get(*, club: Club, submission_id: int) -> Submission:
    submission = (
        Submission.objects.select_related(
            "deal__game__table__session", "submitted_by", "confirmed_by"
        )
        .filter(deal__game__table__session__club=club, pk=submission_id)
        .first()
    )
    if submission is None:
        raise NotFoundError(f"no submission #{submission_id} in {club.name}")
    return submission


@dataclass
class ScoreLine:
    player_id: int
    name: str
    points: int = 0
    chips: int = 0
    money_minor: int = 0
    deals_played: int = 0
    deals_won: int = 0


@dataclass
class Scoreboard:
    session: Session
    lines: list[ScoreLine]
    club_money_minor: int
    deals_counted: int
    currency: str
    extra: dict[str, Any] = field(default_factory=dict)


def session_scoreboard(*, session: Session) -> Scoreboard:
    """Per-player totals of the session from the ledger: three queries whatever its size."""
    postings = Posting.objects.filter(game__table__session=session)
    totals = postings.values("account", "player_id", "player__name", "quantity").annotate(
        total=Sum("amount")
    )
    lines: dict[int, ScoreLine] = {}
    club_money = 0
    for row in totals:
        if row["account"] == AccountKind.CLUB:
            if row["quantity"] == Quantity.MONEY:
                club_money += row["total"]
            continue
        if row["account"] != AccountKind.PLAYER:
            continue
        line = lines.setdefault(row["player_id"], ScoreLine(row["player_id"], row["player__name"]))
        if row["quantity"] == Quantity.POINTS:
            line.points = row["total"]
        elif row["quantity"] == Quantity.CHIPS:
            line.chips = row["total"]
        elif row["quantity"] == Quantity.MONEY:
            line.money_minor = row["total"]
    counted = PlayerResult.objects.filter(
        session=session, submission__status=Submission.Status.ACCEPTED
    )
    for row in counted.values("player_id", "player__name").annotate(
        played=Count("id"), won=Count("id", filter=Q(won=True))
    ):
        line = lines.setdefault(row["player_id"], ScoreLine(row["player_id"], row["player__name"]))
        line.deals_played, line.deals_won = row["played"], row["won"]
    deals_counted = Deal.objects.filter(
        game__table__session=session, status=Deal.Status.FINAL
    ).count()
    ordered = sorted(lines.values(), key=lambda line: (-line.money_minor, -line.points, line.name))
    return Scoreboard(session, ordered, club_money, deals_counted, session.club.currency)


@dataclass(frozen=True)
class SettlementTransfer:
    payer: str
    payer_id: int | None
    payee: str
    payee_id: int | None
    amount_minor: int


def session_settlement(
    *, session: Session, scoreboard: Scoreboard | None = None
) -> list[SettlementTransfer]:
    """Who pays whom to settle the session's money, in the fewest transfers (the club's fees
    included: the club is one of the parties)."""
    board = scoreboard or session_scoreboard(session=session)
    balances: dict[int | str, int] = {
        line.player_id: line.money_minor for line in board.lines if line.money_minor
    }
    if board.club_money_minor:
        balances[CLUB_ACCOUNT] = board.club_money_minor
    names: dict[int | str, str] = {line.player_id: line.name for line in board.lines}
    names[CLUB_ACCOUNT] = f"{session.club.name} (club)"
    return [
        SettlementTransfer(
            payer=names[t.payer],
            payer_id=t.payer if isinstance(t.payer, int) else None,
            payee=names[t.payee],
            payee_id=t.payee if isinstance(t.payee, int) else None,
            amount_minor=t.amount,
        )
        for t in settle_up(balances)
    ]

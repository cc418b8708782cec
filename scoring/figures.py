"""The one source of the figures pages, the API, the CSV export and the projector show about a
night or a player: money, points per game format, chips, fees, prizes, refunds and pots held,
all read from the ledger (its postings, and the standing rows kept in step with them in the same
transaction). Standings tables are read in the standings app, from the same rows.

Sign convention: a player's figure is what the player gained (+) or gave up (-): money won or
paid (an entry fee is -, a prize +), chips held, and points as the ledger counts them in the
game's format. Points of different formats are different units (a points-rummy point, a pool
score, which the ledger holds as points given up, a Rummikub score), so every figure of points
carries its format and none are added across formats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet, Sum

from clubs.models import Player
from ledger.models import AccountKind, LedgerEntry, Posting, Quantity
from rules.errors import InvariantError
from rules.settle import settle_up
from scoring.books import session_books
from scoring.formats import (
    HANDLERS,
    Column,
    format_label,
    formats_with_points,
    handler_for,
    points_column,
)
from scoring.formats.base import ENTRY_KINDS_AT_END, MONEY
from scoring.models import (
    Deal,
    Game,
    PlayerResult,
    Season,
    Session,
    SessionAccount,
    StandingRow,
    StandingScope,
    Submission,
    Table,
    TransferPaid,
)

#: The field of a standing row that keeps each quantity.
ROW_FIELD: dict[str, str] = {
    Quantity.POINTS: "points", Quantity.CHIPS: "chips", Quantity.MONEY: "money_minor"
}  # fmt: skip


@dataclass
class Totals:
    """A player's figures over some scope."""

    money_minor: int = 0
    chips: int = 0
    deals_played: int = 0
    deals_won: int = 0
    points_by_format: dict[str, int] = field(default_factory=dict)

    def add_points(self, game_format: str, amount: int) -> None:
        if points_column(game_format) is not None:
            self.points_by_format[game_format] = self.points_by_format.get(game_format, 0) + amount


# --- a night: its scoreboard, the pots still held, the settle-up ---------------------------------


@dataclass
class ScoreLine:
    player_id: int
    name: str
    money_minor: int = 0
    chips: int = 0
    deals_played: int = 0
    deals_won: int = 0
    points_by_format: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class HeldPot:
    """Money a book of the night still holds: entry fees in a game's pot (a pool or deals game
    not yet decided), or in one of the night's accounts (a running tournament's purse)."""

    book_id: int
    game_id: int | None  # None for an account
    table: str  # the game's table, or the account's name
    game_format: str  # "" for an account
    amount_minor: int

    @property
    def label(self) -> str:
        if not self.game_format:
            return f"{self.table} (held)"
        return f"Pot of {self.table} ({format_label(self.game_format).lower()}, held)"


@dataclass
class Scoreboard:
    session: Session
    lines: list[ScoreLine]
    club_money_minor: int
    deals_counted: int
    currency: str
    #: The formats whose points the night counted, in their usual order (each its own column).
    formats: list[str]
    pots: list[HeldPot]

    @property
    def columns(self) -> list[Column]:
        """The figures of the board, in the order shown: money first, chips when a deals game
        counted them, then a points column per format."""
        columns = [MONEY]
        if any(line.chips for line in self.lines):
            columns.append(Column("chips", "Chips", Quantity.CHIPS, "chips"))
        for game_format in self.formats:
            column = points_column(game_format)
            assert column is not None
            label = column.label if len(self.formats) == 1 else format_label(game_format)
            columns.append(Column(game_format, label, column.quantity, column.unit))
        return columns


def session_scoreboard(*, session: Session) -> Scoreboard:
    """Each player's figures of the night, from its kept rows (of all formats: money, chips and
    deals, its accounts' included; of each format: its points; a tie-breaker's points decide its
    tie only, and are in neither); the deals counted, the club's fees and the pots still held.
    Three queries, whatever the number of deals."""
    rows = StandingRow.objects.filter(scope=StandingScope.SESSION, scope_id=session.pk).values(
        "player_id", "player__name", "game_format", "points", "chips", "money_minor",
        "deals_played", "deals_won",
    )  # fmt: skip
    lines: dict[int, ScoreLine] = {}
    played: set[str] = set()
    for row in rows:
        line = lines.setdefault(row["player_id"], ScoreLine(row["player_id"], row["player__name"]))
        fmt = row["game_format"]
        if not fmt:
            line.money_minor += row["money_minor"]
            line.chips += row["chips"]
            line.deals_played += row["deals_played"]
            line.deals_won += row["deals_won"]
            continue
        if points_column(fmt) is not None:
            line.points_by_format[fmt] = line.points_by_format.get(fmt, 0) + row["points"]
        if row["deals_played"] or row["points"]:
            played.add(fmt)
    formats = formats_with_points(played)
    for line in lines.values():
        line.points_by_format = {f: line.points_by_format.get(f, 0) for f in formats}
    deals_counted = Deal.objects.filter(
        game__table__session=session, status=Deal.Status.FINAL
    ).count()
    club_money = 0
    pots: list[HeldPot] = []
    held = (
        Posting.objects.filter(session_books(session.pk), quantity=Quantity.MONEY)
        .exclude(account=AccountKind.PLAYER)
        .values(
            "account", "book_id", "book__game", "book__game__table__name", "book__game__format",
            "book__session_account__name",
        )
        .annotate(total=Sum("amount"))
        .order_by("book_id")
    )  # fmt: skip
    for pot_row in held:
        if pot_row["account"] == AccountKind.CLUB:
            club_money += pot_row["total"]
        elif pot_row["total"]:
            pots.append(
                HeldPot(
                    pot_row["book_id"],
                    pot_row["book__game"],
                    pot_row["book__game__table__name"] or pot_row["book__session_account__name"],
                    pot_row["book__game__format"] or "",
                    pot_row["total"],
                )
            )
    shown = [line for line in lines.values() if line.deals_played or _any_figure(line)]
    only = formats[0] if len(formats) == 1 else None
    shown.sort(
        key=lambda line: (
            -line.money_minor,
            -(line.points_by_format[only] if only else 0),
            -line.chips,
            line.name,
        )
    )
    return Scoreboard(
        session, shown, club_money, deals_counted, session.club.currency, formats, pots
    )


def game_totals(*, game: Game) -> dict[int, dict[str, int]]:
    """Each seated player's figures of the game's columns (player id -> column key -> value),
    from the game's kept rows: one query."""
    columns = handler_for(game).columns
    rows = {
        player_id: {"points": points, "chips": chips, "money_minor": money_minor}
        for player_id, points, chips, money_minor in StandingRow.objects.filter(
            scope=StandingScope.GAME, scope_id=game.pk
        ).values_list("player_id", "points", "chips", "money_minor")
    }
    empty = {"points": 0, "chips": 0, "money_minor": 0}
    return {
        seat.player_id: {
            column.key: rows.get(seat.player_id, empty)[ROW_FIELD[column.quantity]]
            for column in columns
        }
        for seat in game.seats.all()
    }


def _any_figure(line: ScoreLine) -> bool:
    return bool(line.money_minor or line.chips or any(line.points_by_format.values()))


@dataclass(frozen=True)
class SettlementTransfer:
    payer: str
    payer_id: int | None
    payee: str
    payee_id: int | None
    amount_minor: int
    payer_key: str = ""  # "player:<id>", "club" or "pot:<game id>": what a paid mark names
    payee_key: str = ""
    paid: Any = None  # the TransferPaid mark, when one was made for this very amount


CLUB_ACCOUNT = "club"


def _paid_at_the_desk(session: Session) -> tuple[dict[int, int], dict[int, int], dict[int, str]]:
    """What the players paid into the session's accounts (a tournament's fees, less what went
    back): handed to the organiser when paid, so no debt of theirs at the settle-up. Returns
    what each player paid, what each account (by book) took, and each account's name. One
    query."""
    rows = (
        Posting.objects.filter(
            book__session_account__session=session,
            quantity=Quantity.MONEY,
            account=AccountKind.PLAYER,
            entry__kind__in=[LedgerEntry.Kind.ENTRY_FEE, LedgerEntry.Kind.REFUND],
        )
        .values_list("book_id", "book__session_account__name", "player_id")
        .annotate(total=Sum("amount"))
    )
    by_player: dict[int, int] = {}
    by_account: dict[int, int] = {}
    names: dict[int, str] = {}
    for book_id, name, player_id, total in rows:
        by_player[player_id] = by_player.get(player_id, 0) - total
        by_account[book_id] = by_account.get(book_id, 0) - total
        names[book_id] = name
    return by_player, by_account, names


def session_settlement(
    *, session: Session, scoreboard: Scoreboard | None = None
) -> list[SettlementTransfer]:
    """Who pays whom to settle the night's money in the fewest transfers. The club (its fees)
    and every pot still held (entry fees of a game not yet decided) are parties too, so the
    balances always sum to zero, as the ledger does. What was paid into an account (a
    tournament's fees) was paid at the desk: no one owes it, and the account (the organiser)
    pays what it paid out (the prizes, the club's fee) from it."""
    board = scoreboard or session_scoreboard(session=session)
    paid, taken, tables = _paid_at_the_desk(session)
    balances: dict[int | str, int] = {line.player_id: line.money_minor for line in board.lines}
    names: dict[int | str, str] = {line.player_id: line.name for line in board.lines}
    for player_id, amount in paid.items():
        balances[player_id] = balances.get(player_id, 0) + amount
    unnamed = [p for p in paid if p not in names]
    if unnamed:  # paid at the desk and shown nowhere else (every figure of theirs nil)
        names.update(Player.objects.filter(pk__in=unnamed).values_list("pk", "name"))
    if board.club_money_minor:
        balances[CLUB_ACCOUNT] = board.club_money_minor
    names[CLUB_ACCOUNT] = f"{session.club.name} (club)"
    # A pot is keyed by its book (a game's book before books had its game's id: older marks
    # of paid transfers still name it).
    for pot in board.pots:
        key = f"pot:{pot.book_id}"
        balances[key] = pot.amount_minor
        names[key] = pot.label
    for book_id, amount in taken.items():
        key = f"pot:{book_id}"
        balances[key] = balances.get(key, 0) - amount
        names[key] = f"{tables[book_id]} (the organiser)"
    balances = {party: amount for party, amount in balances.items() if amount}
    if sum(balances.values()) != 0:
        raise InvariantError(f"the night's money does not balance: {balances}")
    marks = {
        (m.payer, m.payee): m
        for m in TransferPaid.objects.filter(session=session).select_related("marked_by")
    }

    def party_key(party: int | str) -> str:
        return f"player:{party}" if isinstance(party, int) else str(party)

    transfers = []
    for t in settle_up(balances):
        mark = marks.get((party_key(t.payer), party_key(t.payee)))
        transfers.append(
            SettlementTransfer(
                payer=names[t.payer],
                payer_id=t.payer if isinstance(t.payer, int) else None,
                payee=names[t.payee],
                payee_id=t.payee if isinstance(t.payee, int) else None,
                amount_minor=t.amount,
                payer_key=party_key(t.payer),
                payee_key=party_key(t.payee),
                paid=mark if mark is not None and mark.amount_minor == t.amount else None,
            )
        )
    return transfers


# --- lines of the ledger: a player's history, a night's export ---------------------------------


@dataclass
class LedgerLine:
    """What one deal (its counted result, net of the versions it replaced) or one other ledger
    entry (an entry fee, a rejoin, a prize, a refund, a settlement, opening chips) did to one
    player."""

    kind: str  # "deal", or the ledger entry's kind
    order: int  # the first ledger entry of the line: lines sort by it within a night
    player_id: int
    player_name: str
    session_id: int
    session_name: str
    started_at: datetime
    season_id: int | None
    season_name: str
    season_starts: date | None
    table_name: str  # or the account's name
    game_id: int | None  # None: a line of one of the night's accounts (a tournament's purse)
    game_format: str  # "" for an account's
    deal_id: int | None = None
    deal_number: int | None = None  # every deal line has its deal's number, voided or not
    deal_voided: bool = False  # the deal was voided: its entry and its reversal net to nothing
    version: int | None = None  # the counted version of a deal
    outcome: str = ""
    counted: int | None = None  # points as the rules counted them (a loser's cards, a score)
    against: int | None = None  # Indian rummy: the points counted against the player
    won: bool = False
    points: int = 0  # as the ledger counts them, in the game format's unit
    chips: int = 0
    money_minor: int = 0
    breaks_tie: bool = False  # a tie-breaker's deal: its points decide the tie, nothing else

    @property
    def kind_label(self) -> str:
        if self.kind == "deal":
            unit = handler_for(self.game_format).words.unit.capitalize()
            return f"{unit} {self.deal_number}{' (voided)' if self.deal_voided else ''}"
        return LedgerEntry.Kind(self.kind).label


_SESSION_FIELDS = {
    "session_id": "session_id", "session_name": "session__name",
    "started_at": "session__started_at", "season_id": "session__season_id",
    "season_name": "session__season__name", "season_starts": "session__season__starts_on",
}  # fmt: skip


def _book_places(books: set[int]) -> dict[int, dict[str, Any]]:
    """Where each book's lines belong: its game's night, table and format, or the night of the
    account it is (no table, no format). Two queries."""
    places: dict[int, dict[str, Any]] = {}
    game_fields = {name: f"table__{path}" for name, path in _SESSION_FIELDS.items()}
    for row in Game.objects.filter(book_id__in=books).values(
        "book_id", "pk", "format", "breaks_tie", "table__name", *game_fields.values()
    ):
        places[row["book_id"]] = {
            **{name: row[path] for name, path in game_fields.items()},
            "table_name": row["table__name"], "game_id": row["pk"], "game_format": row["format"],
            "breaks_tie": row["breaks_tie"],
        }  # fmt: skip
    for row in SessionAccount.objects.filter(book_id__in=books - set(places)).values(
        "book_id", "name", *_SESSION_FIELDS.values()
    ):
        places[row["book_id"]] = {
            **{name: row[path] for name, path in _SESSION_FIELDS.items()},
            "table_name": row["name"], "game_id": None, "game_format": "", "breaks_tie": False,
        }  # fmt: skip
    for place in places.values():
        place["season_name"] = place["season_name"] or ""
    return places


def _ledger_lines(postings: QuerySet[Posting], results: QuerySet[PlayerResult]) -> list[LedgerLine]:
    """The player postings given, one line per (player, deal) or (player, other entry), in the
    order they happened (night by night, then entry by entry). Three queries."""
    quantity_key: dict[str, str] = {
        Quantity.POINTS: "points", Quantity.CHIPS: "chips", Quantity.MONEY: "money"
    }  # fmt: skip
    groups: dict[tuple[int, str, int], dict[str, Any]] = {}

    def group(key: tuple[int, str, int], order: int | None, book_id: int) -> dict[str, Any]:
        found = groups.setdefault(
            key, {"order": order, "book": book_id, "points": 0, "chips": 0, "money": 0}
        )
        if order is not None and (found["order"] is None or order < found["order"]):
            found["order"] = order
        return found

    rows = postings.filter(account=AccountKind.PLAYER).values(
        "player_id", "player__name", "entry_id", "entry__kind", "entry__deal_id",
        "entry__deal__number", "entry__deal__status", "book_id", "quantity",
    ).annotate(total=Sum("amount")).order_by()  # fmt: skip
    names: dict[int, str] = {}
    # Each deal's number and whether it was voided (a voided deal has no counted result to say).
    deals: dict[int, tuple[int, bool]] = {}
    for row in rows:
        deal_id = row["entry__deal_id"]
        if deal_id is not None:
            voided = row["entry__deal__status"] == Deal.Status.VOID
            deals[deal_id] = (row["entry__deal__number"], voided)
        key = (
            (row["player_id"], "deal", deal_id)
            if deal_id is not None
            else (row["player_id"], row["entry__kind"], row["entry_id"])
        )
        group(key, row["entry_id"], row["book_id"])[quantity_key[row["quantity"]]] += row["total"]
        names[row["player_id"]] = row["player__name"]
    counted: dict[tuple[int, int], dict[str, Any]] = {}
    for result in results.filter(submission__status=Submission.Status.ACCEPTED).values(
        "player_id", "player__name", "deal_id", "deal__number", "game__book_id", "entry_id",
        "submission__version", "outcome", "points", "won",
    ):  # fmt: skip
        counted[(result["player_id"], result["deal_id"])] = dict(result)
        names[result["player_id"]] = result["player__name"]
        # A counted result that moved nothing (a pool winner's 0) is a line too.
        group(
            (result["player_id"], "deal", result["deal_id"]),
            result["entry_id"],
            result["game__book_id"],
        )
    places = _book_places({g["book"] for g in groups.values()})
    lines: list[LedgerLine] = []
    for (player_id, kind, ref), found in groups.items():
        place = places[found["book"]]
        line = LedgerLine(
            kind=kind,
            order=found["order"] or 0,
            player_id=player_id,
            player_name=names.get(player_id, ""),
            points=found["points"],
            chips=found["chips"],
            money_minor=found["money"],
            **place,
        )
        if kind == "deal":
            line.deal_id = ref
            line.deal_number, line.deal_voided = deals.get(ref, (None, False))
            shown = counted.get((player_id, ref))
            if shown is not None:
                line.deal_number = shown["deal__number"]
                line.version = shown["submission__version"]
                line.outcome = shown["outcome"]
                line.counted = shown["points"]
                if not handler_for(line.game_format).words.signed_points:
                    line.against = shown["points"]  # a count of points given up, not a score
                line.won = shown["won"]
        lines.append(line)
    lines.sort(key=lambda line: (line.started_at, line.session_id, line.order, line.player_id))
    return lines


def session_ledger_lines(*, session: Session) -> list[LedgerLine]:
    """Every player's lines of the night: deals, fees, prizes, refunds, settlements."""
    return _ledger_lines(
        Posting.objects.filter(session_books(session.pk)),
        PlayerResult.objects.filter(session=session),
    )


@dataclass(frozen=True)
class HistoryLine:
    line: LedgerLine
    #: The player's running points in the line's format after it (``None``: a format without
    #: points), and running money, over the whole history up to this line.
    running_points: int | None
    running_money_minor: int


@dataclass
class SeasonTotals:
    season_id: int | None
    name: str
    totals: Totals


@dataclass(frozen=True)
class RunningPoints:
    """A player's running points in one format, for a chart: ``steps`` lines in all, and the
    running points after some of them as (step, points), the first and the last always."""

    steps: int
    points: list[tuple[int, int]]


@dataclass
class PlayerHistory:
    """One page of a player's ledger, newest first, with running figures over the whole
    history; the number of lines; totals per season (the same seasons, and the same figures, as
    the standings) and overall; when asked for, the running points of each format for a
    chart."""

    lines: list[HistoryLine]
    count: int
    formats: list[str]  # the formats whose points the player has, in their usual order
    seasons: list[SeasonTotals]  # newest first
    total: Totals
    running_by_format: dict[str, RunningPoints]


#: The most points a chart of running points is drawn with, however long the history: a chart a
#: few hundred pixels wide shows no more, and a long history would cost its whole length.
RUNNING_POINTS_SHOWN = 200

#: The order of a player's history, oldest first (``kind`` and ``ref`` only make it total).
_OLDEST_FIRST = "started_at, session_id, ord, kind, ref"
_NEWEST_FIRST = "started_at DESC, session_id DESC, ord DESC, kind DESC, ref DESC"
_SO_FAR = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"


def _history_statement(player_id: int, chart: bool) -> tuple[str, list[Any]]:
    """One statement over the player's whole history, one row a line (as ``_ledger_lines``
    makes them: a deal, all its entries net, or one other ledger entry; an accepted result that
    moved nothing is a line too), returning only the rows wanted: the page's, the first of each
    (season, tie-breaker or not, format) group with the group's sums, and the chart's steps.
    Every row carries the number of lines, its place newest first, its running figures (window
    sums in history order) and its group's sums. Each line's key is ``kind`` and ``ref`` (the
    deal, or the entry); its place in the history is its night's start, the night, then
    ``ord``, its first ledger entry."""
    posting, entry, result, submission, game, table, session, season, account = (
        connection.ops.quote_name(model._meta.db_table)
        for model in (
            Posting, LedgerEntry, PlayerResult, Submission, Game, Table, Session, Season,
            SessionAccount,
        )
    )  # fmt: skip
    group = "PARTITION BY season_id, breaks_tie, format"
    shown = RUNNING_POINTS_SHOWN
    kept = [f for f in HANDLERS if points_column(f) is not None]
    # A chart's step n of t is drawn when it starts a new one of ``shown`` even buckets: exactly
    # ``shown`` steps, the first and the last among them (integer division on both databases).
    drawn = (
        f"format IN ({', '.join(['%s'] * len(kept))}) AND (steps <= {shown} OR step = 1"
        f" OR ((step - 1) * {shown - 1}) / (steps - 1) <> ((step - 2) * {shown - 1}) / (steps - 1))"
        if chart
        else "1 = 0"
    )
    sql = (
        f"WITH moved AS ("
        f" SELECT CASE WHEN e.deal_id IS NULL THEN e.kind ELSE %s END AS kind,"
        f" COALESCE(e.deal_id, e.id) AS ref, p.book_id AS book_id, p.entry_id AS entry_id,"
        f" CASE WHEN p.quantity = %s THEN p.amount ELSE 0 END AS points,"
        f" CASE WHEN p.quantity = %s THEN p.amount ELSE 0 END AS chips,"
        f" CASE WHEN p.quantity = %s THEN p.amount ELSE 0 END AS money,"
        f" 0 AS played, 0 AS won"
        f" FROM {posting} p JOIN {entry} e ON e.id = p.entry_id"
        f" WHERE p.player_id = %s AND p.account = %s"
        f" UNION ALL"
        f" SELECT %s, r.deal_id, rg.book_id, r.entry_id, 0, 0, 0,"
        f" CASE WHEN r.outcome <> '' THEN 1 ELSE 0 END,"
        f" CASE WHEN r.outcome <> '' AND r.won THEN 1 ELSE 0 END"
        f" FROM {result} r JOIN {submission} s ON s.id = r.submission_id"
        f" JOIN {game} rg ON rg.id = r.game_id"
        f" WHERE r.player_id = %s AND s.status = %s"
        f"), lines AS ("
        f" SELECT kind, ref, MIN(book_id) AS book_id, COALESCE(MIN(entry_id), 0) AS ord,"
        f" SUM(points) AS points, SUM(chips) AS chips, SUM(money) AS money,"
        f" MAX(played) AS played, MAX(won) AS won"
        f" FROM moved GROUP BY kind, ref"
        f"), placed AS ("
        # A line of a night's account (a tournament's purse) has no game: no format.
        f" SELECT l.*, COALESCE(g.format, '') AS format,"
        f" COALESCE(g.breaks_tie, %s) AS breaks_tie,"
        f" n.started_at AS started_at, n.id AS session_id, n.season_id AS season_id,"
        f" z.name AS season_name,"
        # Seasons newest first, the nights without one last, as the standings list them.
        f" DENSE_RANK() OVER (ORDER BY CASE WHEN z.starts_on IS NULL THEN 1 ELSE 0 END,"
        f" z.starts_on DESC) AS season_rank"
        f" FROM lines l LEFT JOIN {game} g ON g.book_id = l.book_id"
        f" LEFT JOIN {table} t ON t.id = g.table_id"
        f" LEFT JOIN {account} a ON a.book_id = l.book_id"
        f" JOIN {session} n ON n.id = COALESCE(t.session_id, a.session_id)"
        f" LEFT JOIN {season} z ON z.id = n.season_id"
        f"), ranked AS ("
        f" SELECT kind, ref, format, season_id, season_name, season_rank, breaks_tie,"
        f" COUNT(*) OVER () AS count,"
        f" ROW_NUMBER() OVER (ORDER BY {_NEWEST_FIRST}) AS position,"
        f" SUM(money) OVER (ORDER BY {_OLDEST_FIRST} {_SO_FAR}) AS running_money,"
        f" SUM(points) OVER (PARTITION BY format ORDER BY {_OLDEST_FIRST} {_SO_FAR})"
        f" AS running_points,"
        f" ROW_NUMBER() OVER (PARTITION BY format ORDER BY {_OLDEST_FIRST}) AS step,"
        f" COUNT(*) OVER (PARTITION BY format) AS steps,"
        f" ROW_NUMBER() OVER ({group} ORDER BY {_OLDEST_FIRST}) AS group_row,"
        f" SUM(points) OVER ({group}) AS group_points,"
        f" SUM(chips) OVER ({group}) AS group_chips,"
        f" SUM(money) OVER ({group}) AS group_money,"
        f" SUM(played) OVER ({group}) AS group_played,"
        f" SUM(won) OVER ({group}) AS group_won"
        f" FROM placed"
        f"), wanted AS ("
        f" SELECT ranked.*, CASE WHEN {drawn} THEN 1 ELSE 0 END AS drawn FROM ranked"
        f") SELECT kind, ref, format, count, position, running_money, running_points, step,"
        f" steps, drawn, group_row, season_id, season_name, season_rank, breaks_tie,"
        f" group_points, group_chips, group_money, group_played, group_won"
        f" FROM wanted WHERE (position > %s AND position <= %s) OR group_row = 1 OR drawn = 1"
        f" ORDER BY position"
    )
    params = [
        LedgerEntry.Kind.DEAL, Quantity.POINTS, Quantity.CHIPS, Quantity.MONEY, player_id,
        AccountKind.PLAYER, LedgerEntry.Kind.DEAL, player_id, Submission.Status.ACCEPTED, False,
        *(kept if chart else []),
    ]  # fmt: skip
    return sql, params


def player_history(
    *, player: Player, limit: int = 50, offset: int = 0, chart: bool = False
) -> PlayerHistory:
    """A page of ``player``'s history, newest first, read in the database whatever its length:
    one statement gives the page's lines with their running figures over the whole history, the
    number of lines, the totals per season and format, and (``chart``) the running points of
    each format sampled for a chart; then only the page's lines are built in full
    (``_ledger_lines`` over the page's deals and entries). Four queries."""
    sql, params = _history_statement(player.pk, chart)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, offset, offset + limit])
        rows = cursor.fetchall()
    count = rows[0][3] if rows else 0  # every row carries it
    page: list[tuple[str, int, int, int]] = []
    total = Totals()
    by_season: dict[int | None, SeasonTotals] = {}
    season_order: dict[int | None, tuple[int, int]] = {}
    series: dict[str, list[tuple[int, int]]] = {}
    steps_by_format: dict[str, int] = {}
    for (
        kind, ref, game_format, _count, position, running_money, running_points, step, steps,
        drawn, group_row, season_id, season_name, season_rank, breaks_tie, *group,
    ) in rows:  # fmt: skip
        if offset < position <= offset + limit:
            page.append((kind, ref, int(running_points), int(running_money)))
        if drawn:
            series.setdefault(game_format, []).append((int(step), int(running_points)))
            steps_by_format[game_format] = int(steps)
        if group_row != 1:
            continue
        points, chips, money, played, won = (int(figure) for figure in group)
        # The ledger's sum overall; a season's, as its standings count it: a tie-breaker's
        # points decide the tie only.
        counted_in = [total]
        if not breaks_tie:
            season = by_season.setdefault(
                season_id, SeasonTotals(season_id, season_name or "No season", Totals())
            )
            counted_in.append(season.totals)
            # Seasons starting the same day: the one played first first.
            season_order[season_id] = max(season_order.get(season_id, (0, 0)),
                                          (season_rank, position))  # fmt: skip
        for totals in counted_in:
            totals.money_minor += money
            totals.chips += chips
            totals.add_points(game_format, points)
            totals.deals_played += played
            totals.deals_won += won
    seasons = sorted(
        by_season.values(),
        key=lambda s: (season_order[s.season_id][0], -season_order[s.season_id][1]),
    )
    formats = formats_with_points(set(total.points_by_format))
    return PlayerHistory(
        _history_lines(player, page),
        count,
        formats,
        seasons,
        total,
        {f: RunningPoints(steps_by_format[f], sorted(series[f])) for f in formats if f in series},
    )


def _history_lines(player: Player, page: list[tuple[str, int, int, int]]) -> list[HistoryLine]:
    """The page's lines built in full, with their running figures: three queries over the
    page's deals and entries alone."""
    deals = [ref for kind, ref, *_ in page if kind == LedgerEntry.Kind.DEAL]
    entries = [ref for kind, ref, *_ in page if kind != LedgerEntry.Kind.DEAL]
    if not page:
        return []
    built = {
        (line.kind, line.deal_id if line.kind == LedgerEntry.Kind.DEAL else line.order): line
        for line in _ledger_lines(
            Posting.objects.filter(
                player=player,
                entry__in=LedgerEntry.objects.filter(Q(deal_id__in=deals) | Q(pk__in=entries)),
            ),
            PlayerResult.objects.filter(player=player, deal_id__in=deals),
        )
    }
    lines = []
    for kind, ref, running_points, running_money in page:
        line = built[(kind, ref)]
        shown = running_points if points_column(line.game_format) is not None else None
        lines.append(HistoryLine(line, shown, running_money))
    return lines


def players_net_points(*, games: QuerySet[Any]) -> dict[int, int]:
    """Each player's net points over ``games`` (a query of game ids), from the ledger: what a
    round of a tournament ranks its players by."""
    rows = (
        Posting.objects.filter(
            book__game__in=games, quantity=Quantity.POINTS, account=AccountKind.PLAYER
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    return {player: int(total) for player, total in rows}


def game_deal_money(*, game: Game, deals: Sequence[int]) -> dict[tuple[int, int], int]:
    """Net money per (deal, player) of the game's ``deals`` (ids): a reversed version nets
    out."""
    rows = (
        Posting.objects.filter(
            book_id=game.book_id, quantity=Quantity.MONEY, account=AccountKind.PLAYER,
            entry__deal_id__in=deals,
        )
        .values("entry__deal_id", "player_id")
        .annotate(total=Sum("amount"))
    )  # fmt: skip
    return {(row["entry__deal_id"], row["player_id"]): row["total"] for row in rows}


def game_payouts(*, game: Game) -> dict[int, int]:
    """Money each player received when the game ended (a pool or deals prize, a split, an
    International settlement, a refunded pot), in minor units; empty until then."""
    rows = (
        Posting.objects.filter(
            book_id=game.book_id,
            account=AccountKind.PLAYER,
            quantity=Quantity.MONEY,
            entry__kind__in=ENTRY_KINDS_AT_END,
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    return {player_id: total for player_id, total in rows if total}

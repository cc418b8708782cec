"""The lines of the ledger, as a night's export and a player's history show them: one line a
deal (all its entries net) or another ledger entry, with its place (night, table or account,
season) and, for a player, running figures over the whole history and totals per season. Signs
as in ``scoring.figures``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet, Sum

from clubs.models import Player
from ledger.models import AccountKind, LedgerEntry, Posting, Quantity
from scoring.books import session_books
from scoring.figures import Totals
from scoring.formats import (
    HANDLERS,
    formats_with_points,
    handler_for,
    points_column,
)
from scoring.models import (
    Deal,
    Game,
    PlayerResult,
    Season,
    Session,
    SessionAccount,
    Submission,
    Table,
)


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


def _placed_lines_sql() -> str:
    """The player's lines (``placed``, with ``moved`` and ``lines`` before it) as a statement's
    common table expressions: each line's figures, its format, and its night and season. Its
    parameters, in order: the deal kind, the points, chips and money quantities, the player, the
    player account, the deal kind, the player, the accepted status and a tie-breaker's default."""
    posting, entry, result, submission, game, table, session, season, account = (
        connection.ops.quote_name(model._meta.db_table)
        for model in (
            Posting, LedgerEntry, PlayerResult, Submission, Game, Table, Session, Season,
            SessionAccount,
        )
    )  # fmt: skip
    return (
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
    )


def _history_statement(player_id: int, chart: bool) -> tuple[str, list[Any]]:
    """One statement over the player's whole history, one row a line (as ``_ledger_lines``
    makes them: a deal, all its entries net, or one other ledger entry; an accepted result that
    moved nothing is a line too), returning only the rows wanted: the page's, the first of each
    (season, tie-breaker or not, format) group with the group's sums, and the chart's steps.
    Every row carries the number of lines, its place newest first, its running figures (window
    sums in history order) and its group's sums. Each line's key is ``kind`` and ``ref`` (the
    deal, or the entry); its place in the history is its night's start, the night, then
    ``ord``, its first ledger entry."""
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
        _placed_lines_sql() + f"), ranked AS ("
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

"""The one source of the figures pages, the API, the CSV export and the projector show about a
night or a player: money, points per game format, chips, fees, prizes, refunds and pots held,
all read from the ledger (its postings, and the standing rows kept in step with them in the same
transaction): a night's scoreboard, its pots held and its settle-up, a game's totals. The lines
of the ledger (a night's export, a player's history) are in ``scoring.history``; the standings
tables are read in the standings app, from the same rows.

Sign convention: a player's figure is what the player gained (+) or gave up (-): money won or
paid (an entry fee is -, a prize +), chips held, and points as the ledger counts them in the
game's format. Points of different formats are different units (a points-rummy point, a pool
score, which the ledger holds as points given up, a Rummikub score), so every figure of points
carries its format and none are added across formats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.payments import NO_PAY_LINKS, PayLinks, pay_links
from ledger.models import AccountKind, LedgerEntry, Posting, Quantity
from rules.errors import InvariantError
from rules.settle import settle_up
from scoring.books import session_books
from scoring.formats import (
    Column,
    format_label,
    formats_with_points,
    handler_for,
    points_column,
)
from scoring.formats.base import CHIPS, ENTRY_KINDS_AT_END, MONEY
from scoring.models import (
    Deal,
    Game,
    Session,
    StandingRow,
    StandingScope,
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
            return _("%(table)s (held)") % {"table": self.table}
        # The format's name in lower case mid-sentence in English only (a German noun keeps its
        # capital).
        game = format_label(self.game_format)
        game = game.lower() if (get_language() or "en").startswith("en") else game
        return _("Pot of %(table)s (%(format)s, held)") % {"table": self.table, "format": game}


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
        # A club that plays for points only shows no money.
        columns = [] if self.session.club.points_only else [MONEY]
        if any(line.chips for line in self.lines):
            columns.append(CHIPS)
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
    amount_minor: int | None
    payer_key: str = ""  # "player:<id>", "club" or "pot:<game id>": what a paid mark names
    payee_key: str = ""
    paid: Any = None  # the TransferPaid mark, when one was made for this very amount
    pay: PayLinks = NO_PAY_LINKS  # where the payer pays the payee (a player's UPI id, link)
    # A club that plays for points only settles in points, format by format: then these say how
    # many of which format's points, and amount_minor is None.
    points: int | None = None
    game_format: str | None = None


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
    names[CLUB_ACCOUNT] = _("%(club)s (club)") % {"club": session.club.name}
    # A pot is keyed by its book (a game's book before books had its game's id: older marks
    # of paid transfers still name it).
    for pot in board.pots:
        key = f"pot:{pot.book_id}"
        balances[key] = pot.amount_minor
        names[key] = pot.label
    for book_id, amount in taken.items():
        key = f"pot:{book_id}"
        balances[key] = balances.get(key, 0) - amount
        names[key] = _("%(table)s (the organiser)") % {"table": tables[book_id]}
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
    settled = settle_up(balances)
    # The players paid, with their UPI ids and payment links: one query, none when no player is.
    payee_ids = [t.payee for t in settled if isinstance(t.payee, int)]
    payees = Player.objects.filter(pk__in=payee_ids).only("name", "upi_id", "payment_link")
    payee_players = {player.pk: player for player in payees} if payee_ids else {}
    note = f"{session.club.name}: {session.name}"
    for t in settled:
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
                pay=pay_links(
                    club=session.club,
                    payee=payee_players.get(t.payee) if isinstance(t.payee, int) else None,
                    amount_minor=t.amount,
                    note=note,
                ),
            )
        )
    return transfers


def session_settle_up(
    *, session: Session, scoreboard: Scoreboard | None = None
) -> list[SettlementTransfer]:
    """The night's settle-up as the club keeps it: in money, or in points for a club that plays
    for points only (no money shown)."""
    if session.club.points_only:
        return session_points_settlement(session=session, scoreboard=scoreboard)
    return session_settlement(session=session, scoreboard=scoreboard)


def session_points_settlement(
    *, session: Session, scoreboard: Scoreboard | None = None
) -> list[SettlementTransfer]:
    """Who gives whom points to settle the night, format by format, in the fewest transfers:
    each format whose players' points sum to zero (points rummy, Rummikub); a pool or deals
    game's points go to its pot, so its scoreboard is its result and it has no settle-up."""
    board = scoreboard or session_scoreboard(session=session)
    names = {line.player_id: line.name for line in board.lines}
    transfers = []
    for game_format in board.formats:
        balances = {
            line.player_id: line.points_by_format[game_format]
            for line in board.lines
            if line.points_by_format.get(game_format)
        }
        if sum(balances.values()) != 0:
            continue
        for t in settle_up(balances):
            assert isinstance(t.payer, int) and isinstance(t.payee, int)
            transfers.append(
                SettlementTransfer(
                    payer=names[t.payer], payer_id=t.payer, payee=names[t.payee],
                    payee_id=t.payee, amount_minor=None, payer_key=f"player:{t.payer}",
                    payee_key=f"player:{t.payee}", points=t.amount, game_format=game_format,
                )
            )  # fmt: skip
    return transfers


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

"""The pot of a pool or deals game: entry fees paid in, checked against the entries, paid out to
the winner (or the players of a split) with the club's fee to the club, or given back to who
paid it when the game is abandoned."""

from __future__ import annotations

from ledger.models import AccountKind, LedgerEntry, Quantity
from ledger.writer import Line
from rules.errors import InvariantError
from rules.money import FeePolicy, prize_pool
from scoring.formats.base import EndEntry
from scoring.formats.reads import account_balance, player_paid_in
from scoring.models import Game


def entry_fee_lines(player_id: int, fee_minor: int) -> list[Line]:
    return [
        Line.player(Quantity.MONEY, player_id, -fee_minor),
        Line.book(Quantity.MONEY, fee_minor),
    ]


def pot_checked(game: Game, *, entries: int, fee: FeePolicy) -> tuple[int, int, int]:
    """The pot, the prize and the club's fee; the pot must hold what ``entries`` paid in."""
    pot = account_balance(game, Quantity.MONEY, AccountKind.BOOK)
    prize, club_fee = prize_pool(entries, game.entry_fee_minor, fee)
    if prize + club_fee != pot:
        raise InvariantError(f"the pot holds {pot}, the entries make {prize + club_fee}")
    return pot, prize, club_fee


def payout_entry(pot: int, club_fee: int, shares: dict[int, int], memo: str) -> list[EndEntry]:
    """The pot emptied: the club's fee to the club, ``shares`` to the players (nothing to write
    for an empty pot)."""
    if not pot:
        return []
    lines = [Line.book(Quantity.MONEY, -pot), Line.club(Quantity.MONEY, club_fee)]
    lines += [Line.player(Quantity.MONEY, pid, amount) for pid, amount in shares.items()]
    return [EndEntry(LedgerEntry.Kind.PAYOUT, lines, memo)]


def refund_entry(game: Game) -> list[EndEntry]:
    """The pot given back: each player receives what they paid in (entry and rejoin fees)."""
    pot = account_balance(game, Quantity.MONEY, AccountKind.BOOK)
    paid = player_paid_in(game, Quantity.MONEY)
    if sum(paid.values()) != pot:
        raise InvariantError(f"the pot holds {pot}, the players paid in {sum(paid.values())}")
    if not pot:
        return []
    lines = [Line.book(Quantity.MONEY, -pot)]
    lines += [Line.player(Quantity.MONEY, pid, amount) for pid, amount in paid.items()]
    return [EndEntry(LedgerEntry.Kind.REFUND, lines, "pot refunded")]

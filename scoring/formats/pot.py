"""The pot of a pool or deals game: entry fees paid in, checked against the entries, paid out to
the winner (or the players of a split) with the club's fee to the club."""

from __future__ import annotations

from rules.errors import InvariantError
from rules.money import FeePolicy, prize_pool
from scoring.formats.common import account_balance
from scoring.ledger import Line
from scoring.models import AccountKind, Game, Quantity


def entry_fee_lines(player_id: int, fee_minor: int) -> list[Line]:
    return [
        Line.player(Quantity.MONEY, player_id, -fee_minor),
        Line.game(Quantity.MONEY, fee_minor),
    ]


def pot_checked(game: Game, *, entries: int, fee: FeePolicy) -> tuple[int, int, int]:
    """The pot, the prize and the club's fee; the pot must hold what ``entries`` paid in."""
    pot = account_balance(game, Quantity.MONEY, AccountKind.GAME)
    prize, club_fee = prize_pool(entries, game.entry_fee_minor, fee)
    if prize + club_fee != pot:
        raise InvariantError(f"the pot holds {pot}, the entries make {prize + club_fee}")
    return pot, prize, club_fee


def payout_lines(pot: int, club_fee: int, shares: dict[int, int]) -> list[Line]:
    """The pot emptied: the club's fee to the club, ``shares`` to the players."""
    lines = [Line.game(Quantity.MONEY, -pot), Line.club(Quantity.MONEY, club_fee)]
    lines += [Line.player(Quantity.MONEY, pid, amount) for pid, amount in shares.items()]
    return lines

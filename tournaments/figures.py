"""Every money figure of a tournament, read from its purse in the ledger: the entrants whose fee
is in it, the fees collected, the prize pool (computed here only) and the prize each player
won."""

from __future__ import annotations

from rules.prizes import prize_pool_of
from scoring import accounts
from tournaments.models import Tournament
from tournaments.purse import purse_of


def field_prize_pool(*, entrants: int, entry_fee_minor: int, club_fee_minor: int) -> int:
    """The prize pool of a field of ``entrants`` at these fees: what the fees make less the
    club's share of each."""
    return prize_pool_of(entrants, entry_fee_minor, club_fee_minor)


def paid_entrants(*, tournament: Tournament) -> int:
    """How many entrants have their fee in the purse (not those refunded before the start)."""
    return sum(
        1 for paid in accounts.account_paid_in(account=purse_of(tournament)).values() if paid
    )


def fees_collected_minor(*, tournament: Tournament) -> int:
    return sum(accounts.account_paid_in(account=purse_of(tournament)).values())


def prize_pool_minor(*, tournament: Tournament) -> int:
    """The tournament's prize pool: its paid entrants' fees less the club's fee of each."""
    return field_prize_pool(
        entrants=paid_entrants(tournament=tournament),
        entry_fee_minor=tournament.entry_fee_minor,
        club_fee_minor=tournament.club_fee_minor,
    )


def prizes_won_minor(*, tournament: Tournament) -> dict[int, int]:
    """The prize each player won (player id -> amount), as the purse paid it; nothing before
    the tournament finishes."""
    return accounts.account_paid_out(account=purse_of(tournament))

"""A tournament's purse: the account of its session (a book of its own, ``scoring.accounts``)
that holds the entry fees and pays the prizes, so fees, refunds and prizes are in the same
ledger as every deal. Fees in, a fee back on a withdrawal before the start, the prizes and
the club's fee out when the final is placed (posted again when a correction moves the places),
every fee back when the tournament is cancelled. Each is audited as the purse's."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from clubs.audit import audit_record
from clubs.models import Player
from ledger.models import Book
from scoring import accounts
from scoring.models import Session
from tournaments.models import Tournament

PRIZES = "tournament prizes"


def purse_of(tournament: Tournament) -> Book:
    """The tournament's purse (every tournament has one from its creation)."""
    assert tournament.purse is not None
    return tournament.purse


def _audit(
    tournament: Tournament, actor: AbstractBaseUser | None, action: str, **after: Any
) -> None:
    audit_record(
        actor=actor, club=tournament.club, action=f"purse.{action}", obj=purse_of(tournament),
        after=after,
    )  # fmt: skip


def purse_open(*, session: Session, actor: AbstractBaseUser) -> Book:
    """The purse of a new tournament: an account "Purse" of its session."""
    return accounts.account_open(session=session, name="Purse", actor=actor)


def purse_pay_in(*, tournament: Tournament, actor: AbstractBaseUser | None, player: Player) -> None:
    """An entrant pays the entry fee into the purse."""
    fee = tournament.entry_fee_minor
    accounts.account_pay_in(
        account=purse_of(tournament), player=player, amount_minor=fee,
        memo=f"{player.name}: entry fee",
    )  # fmt: skip
    _audit(tournament, actor, "pay_in", player=player.pk, fee_minor=fee)


def purse_refund(*, tournament: Tournament, actor: AbstractBaseUser, player: Player) -> int:
    """What an entrant paid into the purse goes back to them; returns the amount."""
    paid = accounts.account_refund(
        account=purse_of(tournament), player=player, memo=f"{player.name}: refund"
    )
    _audit(tournament, actor, "refund", player=player.pk, refund_minor=paid)
    return paid


def purse_pay_prizes(*, tournament: Tournament, shares: dict[int, int]) -> None:
    """The prizes (player id -> amount) paid from the purse, the rest (the club's fee and what
    no place won) to the club; when the purse was paid out already (a corrected final moved the
    places), the payout is reversed and posted anew."""
    purse = purse_of(tournament)
    if not accounts.account_is_open(account=purse):
        accounts.account_pay_out_again(
            account=purse, shares=shares, memo=f"{PRIZES}, corrected",
            reversal_memo=f"{PRIZES}: places corrected",
        )  # fmt: skip
        _audit(tournament, None, "prizes_repost", shares={str(k): v for k, v in shares.items()})
    else:
        accounts.account_close(account=purse, actor=None, shares=shares, memo=PRIZES)


def purse_refund_all(*, tournament: Tournament, actor: AbstractBaseUser) -> None:
    """The tournament is called off: every fee goes back."""
    accounts.account_close(account=purse_of(tournament), actor=actor, shares=None, memo="")


def purse_chips_issue(*, tournament: Tournament, chips: dict[int, int], memo: str) -> None:
    """A chip-level tournament's chips are kept in its purse: the purse gives each player
    ``chips[player]`` (the opening stacks, a rebuy's chips)."""
    accounts.account_chips_issue(account=purse_of(tournament), chips=chips, memo=memo)


def purse_chips_move(*, tournament: Tournament, moves: dict[int, int], memo: str) -> None:
    """Chips won and lost at a table of a level (zero-sum among the players)."""
    accounts.account_chips_move(account=purse_of(tournament), moves=moves, memo=memo)


def purse_rebuy(
    *, tournament: Tournament, actor: AbstractBaseUser, player: Player, price_minor: int,
    chips: int,
) -> None:  # fmt: skip
    """A player buys back in: the price into the purse, the chips out of it."""
    accounts.account_pay_in(
        account=purse_of(tournament), player=player, amount_minor=price_minor,
        memo=f"{player.name}: rebuy",
    )  # fmt: skip
    accounts.account_chips_issue(
        account=purse_of(tournament), chips={player.pk: chips}, memo=f"{player.name}: rebuy chips"
    )
    _audit(tournament, actor, "rebuy", player=player.pk, price_minor=price_minor, chips=chips)

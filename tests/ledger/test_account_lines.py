"""What an account's changes write (``ledger.accounts``), for any amounts: every set of lines
balances per quantity, players get exactly their shares or what they paid, and what the book
does not pay out to players goes to the club. No database: these are the lines before writing."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from config.errors import Conflict
from ledger.accounts import (
    chips_issue_lines,
    chips_move_lines,
    fee_lines,
    payout_lines,
    refund_lines,
)
from ledger.models import AccountKind, Quantity
from ledger.writer import Line, check_balanced
from rules.errors import InvariantError, RuleViolation

players = st.integers(min_value=1, max_value=10_000)
amounts = st.integers(min_value=0, max_value=10**12)
by_player = st.dictionaries(players, amounts, max_size=12)


def _of(lines: list[Line], account: str) -> dict[int | None, int]:
    found: dict[int | None, int] = defaultdict(int)
    for line in lines:
        if line.account == account:
            found[line.player_id] += line.amount
    return dict(found)


@given(player=players, amount=amounts)
def test_a_fee_moves_from_the_player_into_the_book(player: int, amount: int) -> None:
    lines = fee_lines(player_id=player, amount_minor=amount)
    check_balanced(lines)
    assert _of(lines, AccountKind.PLAYER) == ({player: -amount} if amount else {})
    assert _of(lines, AccountKind.BOOK) == ({None: amount} if amount else {})


def test_a_negative_or_fractional_fee_is_refused_naming_it() -> None:
    for bad in (-1, 1.5, "10"):
        with pytest.raises(RuleViolation, match="entry fee"):
            fee_lines(player_id=1, amount_minor=bad)  # type: ignore[arg-type]


@given(paid=by_player)
def test_a_refund_gives_each_player_what_they_paid(paid: dict[int, int]) -> None:
    lines = refund_lines(paid=paid)
    check_balanced(lines)
    assert _of(lines, AccountKind.PLAYER) == {p: a for p, a in paid.items() if a}
    assert sum(_of(lines, AccountKind.BOOK).values()) == -sum(paid.values())


@given(shares=by_player, extra=amounts)
def test_a_payout_pays_the_shares_and_the_rest_to_the_club(
    shares: dict[int, int], extra: int
) -> None:
    held = sum(shares.values()) + extra
    lines = payout_lines(held=held, shares=shares)
    check_balanced(lines)
    if held:
        assert _of(lines, AccountKind.PLAYER) == {p: a for p, a in shares.items() if a} | {
            p: 0 for p, a in shares.items() if not a
        }
        assert _of(lines, AccountKind.CLUB) == {None: extra}
        assert _of(lines, AccountKind.BOOK) == {None: -held}
    else:
        assert lines == []


@given(shares=st.dictionaries(players, st.integers(1, 10**9), min_size=1, max_size=12))
def test_prizes_beyond_what_the_book_holds_are_refused(shares: dict[int, int]) -> None:
    with pytest.raises(Conflict, match="more than the purse holds"):
        payout_lines(held=sum(shares.values()) - 1, shares=shares)


def test_a_negative_prize_is_a_bug() -> None:
    with pytest.raises(InvariantError, match="never negative"):
        payout_lines(held=100, shares={1: 150, 2: -50})


@given(chips=by_player)
def test_chips_issued_come_out_of_the_book(chips: dict[int, int]) -> None:
    lines = chips_issue_lines(chips=chips)
    check_balanced(lines)
    assert {line.quantity for line in lines} <= {Quantity.CHIPS}
    assert _of(lines, AccountKind.PLAYER) == {p: n for p, n in chips.items() if n}


@given(moves=st.lists(st.tuples(players, players, amounts), max_size=10))
def test_chips_moved_between_players_stay_among_them(moves: list[tuple[int, int, int]]) -> None:
    net: dict[int, int] = defaultdict(int)
    for winner, loser, amount in moves:
        net[winner] += amount
        net[loser] -= amount
    lines = chips_move_lines(moves=net)
    check_balanced(lines)
    assert _of(lines, AccountKind.BOOK) == {}
    assert _of(lines, AccountKind.PLAYER) == {p: n for p, n in net.items() if n}


def test_chip_moves_that_do_not_net_out_are_a_bug() -> None:
    with pytest.raises(InvariantError, match="sum to zero"):
        chips_move_lines(moves={1: 100, 2: -90})

"""Settling up a session: who pays whom (``formats.md``, "Settling up a session").

From net balances that sum to zero, :func:`settle_up` produces transfers that settle everyone
exactly with as few transfers as possible.

Why the minimum is what it is: split the players with a non-zero balance into groups that each
sum to zero; a group of ``g`` players can always be settled with ``g - 1`` transfers, and any list
of transfers joins the players into groups (its connected parts) that each sum to zero and need at
least ``size - 1`` transfers. So the fewest transfers is ``n - m``, where ``n`` is the number of
non-zero balances and ``m`` the largest number of disjoint zero-sum groups they can be split into.

How it is computed:

1. Two balances that cancel exactly (``+x`` and ``-x``) form a group of their own: this never
   costs optimality (if they sat in different groups of a best split, or together in a larger
   group, taking them out as a pair gives at least as many groups), so they are paired first, in
   key order.
2. If at most :data:`EXACT_LIMIT` (16) non-zero balances remain, ``m`` is found exactly with a
   dynamic programme over subsets (bitmasks): ``best[S] = max over i in S of best[S - i]``, plus
   one when ``S`` sums to zero. ``best[everyone]`` is ``m``; walking back through it gives the
   groups.
3. Beyond that, a greedy rule is used: the largest debtor pays the largest creditor, as much as
   one of them needs; each transfer settles at least one player, so there are at most ``n - 1``.

Inside each group of a best split the same greedy rule settles the group with exactly ``g - 1``
transfers (a group of a best split has no smaller zero-sum part, so no transfer can settle two
players before the last one).

Determinism: the answer depends only on the balances in the mapping's iteration order. Ties (equal
amounts, equally good splits) go to the player who comes first in that order, and the transfers are
listed by the payer's position in the mapping, then the payee's."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Generic, TypeVar

from rules.errors import InvariantError
from rules.money import require_int

K = TypeVar("K", bound=Hashable)

EXACT_LIMIT = 16
"""Most non-zero balances (after pairing exact opposites) settled with the exact subset search."""


@dataclass(frozen=True, slots=True)
class Transfer(Generic[K]):
    """``payer`` pays ``payee`` ``amount`` (> 0) minor units."""

    payer: K
    payee: K
    amount: int


def settle_up(balances: Mapping[K, int]) -> list[Transfer[K]]:
    """The fewest transfers that bring every balance to zero.

    ``balances`` are net amounts in minor units: positive means the player is owed money, negative
    that they owe it. They must sum to zero (otherwise the books upstream are wrong, and an
    :class:`InvariantError` is raised). Nobody both pays and receives; every amount is positive.
    Up to 16 non-zero balances (after pairing exact opposites) the count is the proven minimum;
    beyond that it is at most ``non-zero balances - 1``."""
    for key, amount in balances.items():
        require_int(amount, f"balance of {key!r}", code="bad_amount", details={"player": str(key)})
    total = sum(balances.values())
    if total != 0:
        raise InvariantError(f"balances to settle must sum to zero, they sum to {total}")

    order = {key: index for index, key in enumerate(balances)}
    open_keys = [key for key, amount in balances.items() if amount != 0]

    transfers: list[Transfer[K]] = []
    rest = _pair_opposites(open_keys, balances, transfers)
    if len(rest) <= EXACT_LIMIT:
        for group in _best_groups(rest, balances):
            transfers.extend(_greedy(group, balances, order))
    else:
        transfers.extend(_greedy(rest, balances, order))
    transfers.sort(key=lambda t: (order[t.payer], order[t.payee]))
    return transfers


def _pair_opposites(
    keys: list[K], balances: Mapping[K, int], transfers: list[Transfer[K]]
) -> list[K]:
    """Settle every ``+x`` with an unpaired ``-x`` (earliest first); return the keys left over."""
    waiting: dict[int, list[K]] = {}
    paired: set[K] = set()
    for key in keys:
        amount = balances[key]
        partners = waiting.get(-amount)
        if partners:
            partner = partners.pop(0)
            paired.update((key, partner))
            payer, payee = (key, partner) if amount < 0 else (partner, key)
            transfers.append(Transfer(payer, payee, abs(amount)))
        else:
            waiting.setdefault(amount, []).append(key)
    return [key for key in keys if key not in paired]


def _best_groups(keys: list[K], balances: Mapping[K, int]) -> list[list[K]]:
    """Split ``keys`` (whose balances sum to zero) into the most disjoint zero-sum groups."""
    n = len(keys)
    if n == 0:
        return []
    values = [balances[key] for key in keys]
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
            rest ^= bit
        best[mask] = most + (1 if sums[mask] == 0 else 0)

    # Walk back from everyone, taking out one player at a time while keeping the best count; the
    # zero-sum sets met on the way are nested, and their differences are the groups.
    chain = [full]
    mask = full
    while mask:
        target = best[mask] - (1 if sums[mask] == 0 else 0)
        bit = 1
        while not (mask & bit and best[mask ^ bit] == target):
            bit <<= 1
        mask ^= bit
        if mask and sums[mask] == 0:
            chain.append(mask)
    chain.append(0)
    groups: list[list[K]] = []
    for outer, inner in pairwise(chain):
        part = outer & ~inner
        groups.append([keys[i] for i in range(n) if part >> i & 1])
    if len(groups) != best[full]:
        raise InvariantError("settle_up: the groups found do not match the best count")
    return groups


def _greedy(keys: list[K], balances: Mapping[K, int], order: Mapping[K, int]) -> list[Transfer[K]]:
    """The largest debtor pays the largest creditor until everyone in ``keys`` is settled; ties go
    to the player earlier in ``order``."""
    left = {key: balances[key] for key in keys}
    transfers: list[Transfer[K]] = []
    while True:
        debtors = [key for key in keys if left[key] < 0]
        creditors = [key for key in keys if left[key] > 0]
        if not debtors and not creditors:
            return transfers
        if not debtors or not creditors:
            raise InvariantError("settle_up: a group that does not sum to zero")
        payer = min(debtors, key=lambda key: (left[key], order[key]))
        payee = min(creditors, key=lambda key: (-left[key], order[key]))
        amount = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount

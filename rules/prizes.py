"""Tournament prizes (``formats.md``, "Knock-out tournaments"): the prize pool, the payout
structures offered as presets, and the prize of each place, tied places sharing exactly.

Money is whole minor units; percentages are ``Decimal``. Every split pays out the pool exactly:
each place gets its share rounded down, and the minor units left over go to the highest place
paid (the winner), so the one who finished first is never the one short."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from decimal import ROUND_FLOOR, Decimal
from typing import TypeVar

from rules.errors import RuleViolation
from rules.money import require_int, split_evenly

K = TypeVar("K", bound=Hashable)

HUNDRED = Decimal(100)

#: The payout structures offered: a fixed list of percentages by place, or "by_field" (the table
#: below, by the number of entries) or "top_quarter" (a quarter of the field paid).
STRUCTURES = ("winner_takes_all", "seventy_thirty", "top_quarter", "by_field")
FIXED: dict[str, tuple[Decimal, ...]] = {
    "winner_takes_all": (HUNDRED,),
    "seventy_thirty": (Decimal(70), Decimal(30)),
}
#: (most entries, percentages): the common table of live events by field size.
BY_FIELD: tuple[tuple[int, tuple[str, ...]], ...] = (
    (8, ("100",)),
    (27, ("50", "30", "20")),
    (45, ("40", "24", "16", "12", "8")),
    (10**9, ("30", "20", "12", "10", "8", "6.5", "5.5", "4.5", "3.5")),
)


def prize_pool_of(entries: int, entry_fee_minor: int, club_fee_minor: int) -> int:
    """Entries x fee - the club's fee (a flat amount per entry, never more than the fee)."""
    count = require_int(entries, "entries", minimum=0, code="bad_entries")
    fee = require_int(entry_fee_minor, "entry fee (minor units)", minimum=0, code="bad_amount")
    club = require_int(
        club_fee_minor, "club fee (minor units)", minimum=0, maximum=fee, code="bad_amount"
    )
    return count * (fee - club)


def payout_percentages(structure: str | Sequence[object], entries: int) -> tuple[Decimal, ...]:
    """The percentage paid to each place, first place first; they add up to 100. A structure is
    one of ``STRUCTURES`` or a list of percentages (numbers or decimal strings)."""
    count = require_int(entries, "entries", minimum=0, code="bad_entries")
    if isinstance(structure, str):
        if structure in FIXED:
            shares = FIXED[structure]
        elif structure == "by_field":
            shares = next(tuple(Decimal(p) for p in row) for most, row in BY_FIELD if count <= most)
        elif structure == "top_quarter":
            paid = max(1, -(-count // 4))
            weights = [Decimal(paid - place) for place in range(paid)]  # paid, ..., 1
            total = sum(weights)
            shares = tuple(w * HUNDRED / total for w in weights)
        else:
            raise RuleViolation(
                "bad_payout",
                f"payout must be one of {', '.join(STRUCTURES)} or a list of percentages, "
                f"not {structure!r}",
                token=structure,
            )
    else:
        if not isinstance(structure, list | tuple):
            raise RuleViolation(
                "bad_payout",
                f"payout must be one of {', '.join(STRUCTURES)} or a list of percentages, "
                f"not {str(structure)[:40]}",
                token=str(structure)[:40],
            )
        shares = tuple(_percent(value) for value in structure)
        if not shares or sum(shares) != HUNDRED:
            raise RuleViolation(
                "bad_payout",
                f"the percentages of a payout add up to 100, not {sum(shares)}",
                token=",".join(str(s) for s in shares),
            )
    return shares[: max(count, 1)] if count < len(shares) else shares


def _percent(value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise RuleViolation("bad_payout", f"a percentage is a number, not {value!r}", str(value))
    try:
        found = Decimal(str(value))
    except ArithmeticError:
        raise RuleViolation("bad_payout", f"not a percentage: {value!r}", str(value)) from None
    if not found.is_finite() or found <= 0 or found > HUNDRED:
        raise RuleViolation("bad_payout", f"a percentage is above 0 and at most 100: {value!r}")
    return found


def place_amounts(pool_minor: int, percentages: Sequence[Decimal]) -> list[int]:
    """The money of each paid place, first place first, adding up to the pool exactly (each
    rounded down; what is left over goes to first place). When fewer places are paid than the
    structure lists (a small field), their percentages are scaled up to the whole pool."""
    pool = require_int(pool_minor, "prize pool (minor units)", minimum=0, code="bad_amount")
    total = sum(percentages)
    amounts = [
        int((Decimal(pool) * share / total).to_integral_value(rounding=ROUND_FLOOR))
        for share in percentages
    ]
    if amounts:
        amounts[0] += pool - sum(amounts)
    return amounts


def prizes(
    pool_minor: int, percentages: Sequence[Decimal], places: Mapping[K, int]
) -> dict[K, int]:
    """Each player's prize from their place (1 best; equal places tie). Players tied on a place
    share the prizes of the places they cover (a tie for 2nd of two players shares the 2nd and
    3rd prizes), evenly to the minor unit, the units left over to the first of them in
    ``places``' order. Everyone in ``places`` gets an entry (0 when unpaid); the prizes add up
    to the pool when at least as many players are placed as places are paid."""
    amounts = place_amounts(pool_minor, percentages)
    by_place: dict[int, list[K]] = {}
    for player, place in places.items():
        require_int(place, f"place of {player!r}", minimum=1, code="bad_place")
        by_place.setdefault(place, []).append(player)
    result = dict.fromkeys(places, 0)
    for place, tied in by_place.items():
        covered = amounts[place - 1 : place - 1 + len(tied)]
        shares = split_evenly(sum(covered), tied)
        result.update(shares)
    return result

"""Money arithmetic shared by every format (``formats.md``).

Money is an ``int`` of minor units (paise, cents) or a ``Decimal``; never a float. Every function
here is exact: rounding is done with integer arithmetic, half up (away from zero), and every split
adds up to the amount split."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal, NamedTuple, TypeVar

from rules.errors import InvariantError, RuleViolation

K = TypeVar("K", bound=Hashable)

FeeKind = Literal["none", "percent", "flat"]
FEE_KINDS: tuple[FeeKind, ...] = ("none", "percent", "flat")


# --- input checks -------------------------------------------------------------------------------


def require_int(
    value: object,
    what: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    code: str = "bad_number",
    details: dict[str, object] | None = None,
) -> int:
    """``value`` as an ``int`` within ``[minimum, maximum]``, or a ``RuleViolation`` naming ``what``
    (e.g. ``"points of 'Asha'"``). Booleans, floats and numeric strings are refused."""
    if type(value) is not int:
        raise RuleViolation(
            code,
            f"{what} must be a whole number, not {value!r}",
            token=str(value),
            details=details,
        )
    if minimum is not None and value < minimum:
        raise RuleViolation(
            code, f"{what} must be at least {minimum}, not {value}", str(value), details
        )
    if maximum is not None and value > maximum:
        raise RuleViolation(
            code, f"{what} must be at most {maximum}, not {value}", str(value), details
        )
    return value


def require_player(key: object, players: Mapping[K, object], what: str = "winner") -> None:
    """Refuse a ``key`` (the winner, say) that is not one of ``players``."""
    if key not in players:
        raise RuleViolation(
            "unknown_player",
            f"{what} {key!r} is not one of the players ({', '.join(map(repr, players))})",
            token=str(key),
        )


def require_deal_points(points: Mapping[K, int], winner: K, *, cap: int | None = None) -> None:
    """A deal's points: the winner and at least one loser, each a whole number from 0 (up to
    ``cap``), the winner's 0."""
    if len(points) < 2:
        raise RuleViolation("too_few_players", "a deal needs the winner and at least one loser")
    for key, count in points.items():
        require_int(
            count,
            f"points of {key!r}",
            minimum=0,
            maximum=cap,
            code="bad_points",
            details={"player": str(key)},
        )
    if points[winner] != 0:
        raise RuleViolation(
            "winner_has_points",
            f"the winner {winner!r} must have 0 points, not {points[winner]}",
            token=str(points[winner]),
            details={"player": str(winner)},
        )


# --- rounding ------------------------------------------------------------------------------------


def div_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to the nearest integer, halves away from zero.

    Symmetric for negative values: ``div_half_up(-5, 2) == -3`` as ``div_half_up(5, 2) == 3``."""
    if type(numerator) is not int or type(denominator) is not int:
        raise InvariantError(f"div_half_up needs ints, got {numerator!r} / {denominator!r}")
    if denominator == 0:
        raise InvariantError("div_half_up: division by zero")
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    quotient, remainder = divmod(abs(numerator), denominator)
    if 2 * remainder >= denominator:
        quotient += 1
    return quotient if numerator >= 0 else -quotient


def round_half_up(value: Decimal) -> int:
    """A ``Decimal`` rounded to an ``int``, halves away from zero (``2.5 -> 3``, ``-2.5 -> -3``)."""
    if not isinstance(value, Decimal) or not value.is_finite():
        raise InvariantError(f"round_half_up needs a finite Decimal, got {value!r}")
    return int(value.to_integral_value(rounding=ROUND_HALF_UP))


# --- the club's fee ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FeePolicy:
    """What the club keeps of a winning (``formats.md``: a percentage or a flat amount per deal).

    - ``kind="none"``: no fee.
    - ``kind="percent"``: ``percent`` of the winnings (``Decimal("10")`` is 10 %, 0 to 100),
      rounded to the minor unit half up.
    - ``kind="flat"``: ``flat_minor`` minor units (>= 0).

    In every case the fee is never more than the winnings (a flat fee on a small winning takes only
    the winning) and never negative. A number that belongs to the other kind must be left at 0, so a
    policy can never be read two ways."""

    kind: FeeKind = "none"
    percent: Decimal = Decimal(0)
    flat_minor: int = 0

    def __post_init__(self) -> None:
        if self.kind not in FEE_KINDS:
            raise RuleViolation(
                "bad_fee_policy",
                f"fee kind must be one of {', '.join(FEE_KINDS)}, not {self.kind!r}",
                token=str(self.kind),
            )
        if not isinstance(self.percent, Decimal) or not self.percent.is_finite():
            raise RuleViolation(
                "bad_fee_policy",
                f"fee percent must be a Decimal such as Decimal('10'), not {self.percent!r}",
                token=str(self.percent),
            )
        if not Decimal(0) <= self.percent <= Decimal(100):
            raise RuleViolation(
                "bad_fee_policy",
                f"fee percent must be between 0 and 100, not {self.percent}",
                token=str(self.percent),
            )
        require_int(self.flat_minor, "flat fee (minor units)", minimum=0, code="bad_fee_policy")
        if self.kind != "percent" and self.percent != 0:
            raise RuleViolation(
                "bad_fee_policy",
                f"a {self.kind!r} fee cannot also have a percent ({self.percent})",
                token=str(self.percent),
            )
        if self.kind != "flat" and self.flat_minor != 0:
            raise RuleViolation(
                "bad_fee_policy",
                f"a {self.kind!r} fee cannot also have a flat amount ({self.flat_minor})",
                token=str(self.flat_minor),
            )

    @classmethod
    def no_fee(cls) -> FeePolicy:
        return cls()

    @classmethod
    def percentage(cls, percent: Decimal | int | str) -> FeePolicy:
        """``FeePolicy.percentage("10")``: 10 % of the winnings. Floats are refused."""
        if isinstance(percent, (float, bool)):
            raise RuleViolation(
                "bad_fee_policy",
                f"fee percent must be a Decimal, an int or a string, not the float {percent!r}",
                token=str(percent),
            )
        try:
            value = Decimal(percent)
        except ArithmeticError:
            raise RuleViolation(
                "bad_fee_policy", f"fee percent {percent!r} is not a number", token=str(percent)
            ) from None
        return cls(kind="percent", percent=value)

    @classmethod
    def flat(cls, flat_minor: int) -> FeePolicy:
        """A fixed amount in minor units per winning."""
        return cls(kind="flat", flat_minor=flat_minor)

    def fee_minor(self, winnings_minor: int) -> int:
        """The club's fee on ``winnings_minor`` (>= 0), in minor units, ``0 <= fee <= winnings``."""
        winnings = require_int(winnings_minor, "winnings (minor units)", minimum=0)
        if self.kind == "none":
            fee = 0
        elif self.kind == "flat":
            fee = self.flat_minor
        else:
            numerator, denominator = self.percent.as_integer_ratio()
            fee = div_half_up(winnings * numerator, 100 * denominator)
        return max(0, min(fee, winnings))


NO_FEE = FeePolicy()


# --- splitting -----------------------------------------------------------------------------------


def split_evenly(total_minor: int, keys_in_priority_order: Sequence[K]) -> dict[K, int]:
    """``total_minor`` (>= 0) shared equally: each share rounded down to the minor unit, the minor
    units left over given one at a time to the first keys. The shares add up to ``total_minor``;
    the answer lists the keys in the order given."""
    total = require_int(total_minor, "amount to split (minor units)", minimum=0)
    keys = list(keys_in_priority_order)
    if not keys:
        raise RuleViolation("no_players", "there is nobody to split the amount between")
    seen: set[K] = set()
    for key in keys:
        if key in seen:
            raise RuleViolation(
                "duplicate_player", f"{key!r} appears twice in the split", token=str(key)
            )
        seen.add(key)
    share, leftover = divmod(total, len(keys))
    return {key: share + (1 if index < leftover else 0) for index, key in enumerate(keys)}


# --- prize pools ---------------------------------------------------------------------------------


class PrizePool(NamedTuple):
    """A prize pool and the club's fee taken from the entries:
    ``pool_minor + club_fee_minor == entries x entry fee``."""

    pool_minor: int
    club_fee_minor: int


def prize_pool(entries: int, entry_fee_minor: int, fee: FeePolicy) -> PrizePool:
    """Prize pool = entry fee x entries - club fee (``formats.md``); the fee is taken on the
    entries collected. ``entries`` counts every paid entry, rejoins included."""
    count = require_int(entries, "number of entries", minimum=1, code="bad_entries")
    entry = require_int(entry_fee_minor, "entry fee (minor units)", minimum=0, code="bad_amount")
    collected = count * entry
    club_fee = fee.fee_minor(collected)
    return PrizePool(collected - club_fee, club_fee)

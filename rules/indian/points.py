"""Points rummy: the money of one deal (``formats.md``, "Points rummy").

Each deal stands alone: every loser pays ``points x point value``; the winner receives the sum, less
the club's fee. The points themselves (hand scores, drops, wrong shows) come from the hand scoring
of ``indian-rummy.md``; this module only turns them into money."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from rules.errors import InvariantError
from rules.indian.preset import DEFAULT_PRESET
from rules.money import FeePolicy, require_deal_points, require_int, require_player

K = TypeVar("K", bound=Hashable)

FULL_COUNT: Final = DEFAULT_PRESET.cap
"""The most a loser can count in one deal (80): a full count or a wrong show."""


@dataclass(frozen=True, slots=True)
class PointsDeal(Generic[K]):
    """The result of one points-rummy deal, keys in the order they were given.

    - ``points``: losers ``-points``, the winner ``+sum`` (sums to zero);
    - ``money``: losers ``-points x value``, the winner ``+sum x value - club_fee`` (minor units);
    - ``winnings_minor``: what the winner receives before the fee;
    - ``club_fee``: the club's share, so that ``sum(money) + club_fee == 0``."""

    winner: K
    points: dict[K, int]
    money: dict[K, int]
    winnings_minor: int
    club_fee: int


def points_deal(
    points: Mapping[K, int],
    winner: K,
    point_value_minor: int,
    fee: FeePolicy,
    *,
    cap: int = FULL_COUNT,
) -> PointsDeal[K]:
    """Settle one deal. ``points`` holds every seated player's points for the deal, the winner's
    being 0; each loser's points are between 0 and ``cap`` (80). ``point_value_minor`` is the
    value of one point in minor units (400 paise for Rs 4). The fee is taken on the winnings."""
    require_player(winner, points)
    value = require_int(
        point_value_minor, "point value (minor units)", minimum=0, code="bad_amount"
    )
    require_deal_points(points, winner, cap=cap)
    total = sum(points.values())
    winnings = total * value
    club_fee = fee.fee_minor(winnings)
    deal_points = {key: (total if key == winner else -count) for key, count in points.items()}
    money = {
        key: (winnings - club_fee if key == winner else -count * value)
        for key, count in points.items()
    }
    if sum(deal_points.values()) != 0 or sum(money.values()) + club_fee != 0:
        raise InvariantError("points_deal: the deal does not sum to zero")
    return PointsDeal(winner, deal_points, money, winnings, club_fee)

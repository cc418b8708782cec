"""Deals rummy, best of 2, 3 or 6 deals (``formats.md``, "Deals rummy").

Each player starts with ``chips_per_deal x deals`` chips (80 x deals: 160, 240, 480). In each deal
the winner takes, in chips, the points of every loser (each capped at 80). Chips are zero-sum: the
table's total never changes. After the last deal the player with the most chips wins the prize;
equal chips at the top call for a tie-breaker deal between the tied players."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from rules.errors import InvariantError, RuleViolation
from rules.indian.preset import DEFAULT_PRESET, IndianPreset
from rules.money import require_deal_points, require_int, require_player

K = TypeVar("K", bound=Hashable)

CHIPS_PER_DEAL = DEFAULT_PRESET.cap
"""Chips each player starts with per deal of the game (80)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DealsRules:
    """The numbers of one deals game.

    - ``deals``: number of deals (2, 3 or 6 usually; any whole number >= 1).
    - ``drops_allowed``: whether a player may drop. :meth:`best_of` gives the documented default:
      not in best of 2 and best of 3 (seed 000), allowed otherwise.
    - ``chips_per_deal``: starting chips per deal (80).
    - ``loser_cap``: the most chips a loser pays in one deal (80)."""

    deals: int
    drops_allowed: bool
    chips_per_deal: int = CHIPS_PER_DEAL
    loser_cap: int = DEFAULT_PRESET.cap

    def __post_init__(self) -> None:
        require_int(self.deals, "number of deals", minimum=1, code="bad_deals")
        require_int(self.chips_per_deal, "chips per deal", minimum=1, code="bad_deals_rules")
        require_int(self.loser_cap, "loser cap", minimum=1, code="bad_deals_rules")
        if type(self.drops_allowed) is not bool:
            raise RuleViolation(
                "bad_deals_rules",
                f"drops_allowed must be true or false, not {self.drops_allowed!r}",
                token=str(self.drops_allowed),
            )

    @classmethod
    def best_of(
        cls,
        deals: int,
        *,
        drops_allowed: bool | None = None,
        chips_per_deal: int = CHIPS_PER_DEAL,
        loser_cap: int = DEFAULT_PRESET.cap,
    ) -> DealsRules:
        """Best of ``deals``; drops follow :meth:`IndianPreset.for_deals` unless given."""
        preset = IndianPreset.for_deals(deals, drops_allowed=drops_allowed)
        return cls(
            deals=deals,
            drops_allowed=preset.drops_allowed,
            chips_per_deal=chips_per_deal,
            loser_cap=loser_cap,
        )

    @property
    def starting_chips(self) -> int:
        """Each player's chips at the start: ``chips_per_deal x deals``."""
        return self.chips_per_deal * self.deals

    def replace(self, **changes: object) -> DealsRules:
        return replace(self, **changes)  # type: ignore[arg-type]


def chip_transfer(points: Mapping[K, int], winner: K, rules: DealsRules) -> dict[K, int]:
    """The chips that move in one deal: each loser ``-min(points, loser_cap)``, the winner ``+sum``.
    ``points`` holds every player of the deal (the winner's points are 0); the answer sums to 0."""
    require_player(winner, points)
    require_deal_points(points, winner)
    paid = {key: min(count, rules.loser_cap) for key, count in points.items() if key != winner}
    moves = {key: (sum(paid.values()) if key == winner else -paid[key]) for key in points}
    if sum(moves.values()) != 0:
        raise InvariantError("chip_transfer does not sum to zero")
    return moves


def starting_chips(players: list[K], rules: DealsRules) -> dict[K, int]:
    """Every player's chips at the start of the game."""
    if len(set(players)) != len(players):
        raise RuleViolation("duplicate_player", "a player is listed twice")
    return dict.fromkeys(players, rules.starting_chips)


@dataclass(frozen=True, slots=True)
class DealsResult(Generic[K]):
    """The standing after the last deal.

    ``leaders``: the player(s) with the most chips, in the mapping's order; ``winner``: the leader
    when there is exactly one, else ``None``; ``tie_break``: the leaders must play a tie-breaker
    deal; ``top_chips``: the leaders' chips."""

    leaders: tuple[K, ...]
    winner: K | None
    tie_break: bool
    top_chips: int


def deals_standing(chips: Mapping[K, int]) -> DealsResult[K]:
    """Who wins on chips: the single leader, or the tied leaders who play a tie-breaker deal."""
    if not chips:
        raise RuleViolation("no_players", "there are no players to rank")
    for key, count in chips.items():
        require_int(count, f"chips of {key!r}", code="bad_chips", details={"player": str(key)})
    top = max(chips.values())
    leaders = tuple(key for key, count in chips.items() if count == top)
    single = len(leaders) == 1
    return DealsResult(leaders, leaders[0] if single else None, not single, top)

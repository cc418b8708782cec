"""The state of a rummikub game as the API and the pages show it, derived from the ledger."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.formats.base import GameState


@dataclass
class RummikubPlayer:
    player: int
    name: str
    total: int


@dataclass
class MatchLimits:
    games: int | None
    target_score: int | None


@dataclass
class RummikubState(GameState):
    variant: str = ""
    games_counted: int = 0
    match: MatchLimits = field(default_factory=lambda: MatchLimits(None, None))
    players: list[RummikubPlayer] = field(default_factory=list)
    leaders: list[int] = field(default_factory=list)
    #: International with a rate: each player's net at the end, in minor units (player id as a
    #: string, as in JSON); empty otherwise.
    settlement_minor: dict[str, int] = field(default_factory=dict)

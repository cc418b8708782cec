"""The state of a deals game as the API and the pages show it, derived from the ledger."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.formats.base import GameState


@dataclass
class DealsPlayer:
    player: int
    name: str
    chips: int


@dataclass
class DealsState(GameState):
    deals: int = 0
    deals_counted: int = 0
    drops_allowed: bool = False
    starting_chips: int = 0
    table_chips: int = 0
    pot_minor: int = 0
    prize_minor: int = 0
    club_fee_minor: int = 0
    players: list[DealsPlayer] = field(default_factory=list)
    leaders: list[int] = field(default_factory=list)
    tiebreaker_needed: bool = False
    winner: int | None = None

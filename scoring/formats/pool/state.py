"""The state of a pool game as the API and the pages show it, derived from the ledger."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.formats.base import GameState


@dataclass
class PoolPlayer:
    player: int
    name: str
    score: int
    status: str  # "active" or "eliminated"
    rejoins: int
    drops_remaining: int
    can_rejoin: bool
    #: Why a player out of an open pool cannot rejoin now: the rules' ``code``, ``message`` and
    #: ``details``; ``None`` for a player who is in, or who can rejoin.
    no_rejoin: dict[str, Any] | None = None


@dataclass
class PoolState(GameState):
    limit: int = 0
    entry_fee_minor: int = 0
    entries: int = 0
    pot_minor: int = 0
    prize_pool_minor: int = 0
    club_fee_minor: int = 0
    players: list[PoolPlayer] = field(default_factory=list)
    split_offers: list[str] = field(default_factory=list)
    winner: int | None = None

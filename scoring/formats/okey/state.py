"""The state of a game of Okey as the API and the pages show it, derived from the ledger."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.formats.base import GameState


@dataclass
class OkeyPlayer:
    player: int
    name: str
    total: int
    left: int | None  # countdown: the count left to reach 0


@dataclass
class OkeyState(GameState):
    variant: str = ""
    deals_counted: int = 0
    target: int | None = None
    players: list[OkeyPlayer] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    #: With a rate: each player's net at the end, in minor units (player id as a string, as in
    #: JSON); empty otherwise.
    settlement_minor: dict[str, int] = field(default_factory=dict)

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Player
from scoring.club_settings import preset_create
from scoring.games import game_create, table_create
from scoring.models import Game, RulePreset, Session
from scoring.nights import session_create
from tests.conftest import Standing

SIX = ["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"]


@dataclass
class Night:
    """An open session with one points rummy table of six (Rs 4 a point, no fee by default)."""

    standing: Standing
    session: Session
    game: Game
    players: dict[str, Player]

    def pid(self, name: str) -> int:
        return self.players[name].pk

    def results(self, **lines: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"player": self.pid(name), **line} for name, line in lines.items()]


def make_night(standing: Standing, *, point_value_minor: int = 400, preset_key: str = "points",
               fee: dict[str, Any] | None = None) -> Night:  # fmt: skip
    club = standing.club
    players = {}
    for name in SIX:
        players[name] = club.players.filter(name=name).first() or Player.objects.create(
            club=club, name=name
        )
    preset = RulePreset.objects.get(club=None, key=preset_key)
    if fee is not None:
        preset = preset_create(
            club=club,
            actor=standing.owner,
            key=f"{preset_key}-fee",
            name="With fee",
            format=preset.format,
            variant=preset.variant,
            params={**preset.params, "fee": fee},
        )
    session = session_create(club=club, actor=standing.organiser, name="Friday")
    table = table_create(session=session, actor=standing.organiser)
    game = game_create(
        table=table,
        actor=standing.organiser,
        preset=preset,
        players=[players[n] for n in SIX],
        point_value_minor=point_value_minor,
    )
    return Night(standing, session, game, players)


@pytest.fixture
def night(standing: Standing) -> Night:
    return make_night(standing)

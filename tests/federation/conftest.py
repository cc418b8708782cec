"""A federation of the home club and a second club, its rating officer, and nights played
under the federation's preset through the services, as a club would."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from django.test import TestCase

from clubs.models import Club, Player, Role
from federation import services
from federation.models import Federation, SanctionedEvent
from scoring.games import game_create, game_finish, table_create
from scoring.models import RulePreset, Session
from scoring.nights import session_create
from tests.conftest import Standing
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.scoring.helpers import enter_deal, results


@dataclass
class World:
    standing: Standing
    federation: Federation
    officer: Any
    second: Club
    second_owner: Any

    def night(self, club: Club, actor: Any, name: str, tier: str = "club") -> SanctionedEvent:
        session = session_create(club=club, actor=actor, name=name)
        return services.sanction_request(
            actor=actor, federation=self.federation, club=club, tier=tier, session=session
        )

    def play(self, event: SanctionedEvent, actor: Any, deals: list[dict[str, Any]]) -> None:
        self.play_night(Session.objects.get(pk=event.session_id), actor, deals)

    def play_night(self, session: Session, actor: Any, deals: list[dict[str, Any]]) -> None:
        play_night(session, actor, self.federation.preset, deals)


def play_night(
    session: Session, actor: Any, preset: RulePreset, deals: list[dict[str, Any]]
) -> None:
    """One points game of the night's players: each deal a winner and losers' counts."""
    names = list(deals[0])
    players = {
        name: Player.objects.get_or_create(club=session.club, name=name)[0] for name in names
    }
    table = table_create(session=session, actor=actor)
    game = game_create(
        table=table, actor=actor, preset=preset,
        players=[players[n] for n in names], entry_fee_minor=0, point_value_minor=0,
    )  # fmt: skip
    ids = {name: player.pk for name, player in players.items()}
    for deal in deals:
        _, submission = enter_deal(game, actor, results(ids, **deal))
        assert submission is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_finish(game=game, actor=actor)


@pytest.fixture
def world(standing: Standing) -> World:
    return make_world(standing)


def make_world(standing: Standing) -> World:
    """The federation "rf" of the home club and a second club, both members."""
    officer = UserFactory(username="officer")
    federation = services.federation_create(
        actor=officer,
        name="Rummy Federation",
        slug="rf",
        preset=RulePreset.objects.get(club=None, key="points"),
        starts_on=date(2026, 1, 1),
        best_n=3,
        tiers={"club": "1", "open": "1.5"},
    )
    second = ClubFactory(name="Second Club", slug="second")
    second_owner = MembershipFactory(club=second, role=Role.OWNER, user__username="second").user
    for club, owner in [(standing.club, standing.owner), (second, second_owner)]:
        services.club_invite(actor=officer, federation=federation, club=club)
        services.club_answer(actor=owner, federation=federation, club=club, accept=True)
    return World(standing, federation, officer, second, second_owner)

"""Skill ratings: Weng-Lin's Plackett-Luce model (the ``openskill`` package) over finished games.

A rated game is its players' finishing order (1 best; equal results share a rank, see
``rules.ranking``); a player's skill is a mean ``mu`` and an uncertainty ``sigma``, shown as the
``ordinal`` ``mu - 3 sigma`` (a conservative estimate that rises as the rating firms up). Games are
applied in the order they finished; a replay of the same games from the defaults gives the same
ratings.

Pure: players are any hashable keys; nothing here knows about clubs or the database."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from rules.errors import RuleViolation

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

K = TypeVar("K", bound=Hashable)

#: A player is provisional until this many rated games in the family.
PROVISIONAL_GAMES = 5
#: How many sigmas the ordinal subtracts (openskill's default display).
ORDINAL_SIGMAS = 3


@dataclass(frozen=True)
class RatingModel:
    """The model's parameters; the defaults are openskill's (``mu`` 25, ``sigma`` 25/3, ``beta``
    25/6, ``tau`` 25/300, ``kappa`` 0.0001)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    kappa: float = 0.0001

    def engine(self) -> PlackettLuce:
        # Imported here: only rating a game needs the model (about 1 MB and 14 modules), and the
        # web's pages and the other workers import this module for the defaults alone.
        from openskill.models import PlackettLuce

        return PlackettLuce(
            mu=self.mu, sigma=self.sigma, beta=self.beta, tau=self.tau, kappa=self.kappa
        )


DEFAULT_MODEL = RatingModel()


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_SIGMAS * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def initial_skill(model: RatingModel = DEFAULT_MODEL) -> Skill:
    return Skill(model.mu, model.sigma, 0)


def check_ranks(ranks: Mapping[K, int]) -> None:
    """A rated game has two players or more, each with a whole rank of 1 or more."""
    if len(ranks) < 2:
        raise RuleViolation("too_few_players", "a rated game needs two players or more")
    for player, rank in ranks.items():
        if type(rank) is not int or rank < 1:
            raise RuleViolation(
                "bad_rank", f"the rank of {player!r} must be a whole number >= 1, not {rank!r}"
            )


def rate_game(
    before: Mapping[K, Skill], ranks: Mapping[K, int], engine: PlackettLuce
) -> dict[K, Skill]:
    """The players' skills after one game: ``before`` holds each player's skill going in,
    ``ranks`` the finishing order (equal ranks tie)."""
    check_ranks(ranks)
    players = list(ranks)
    teams = [[engine.rating(mu=before[p].mu, sigma=before[p].sigma)] for p in players]
    rated = engine.rate(teams, ranks=[float(ranks[p]) for p in players])
    return {
        player: Skill(team[0].mu, team[0].sigma, before[player].games + 1)
        for player, team in zip(players, rated, strict=True)
    }


@dataclass
class Replay(Generic[K]):
    """Skills as a replay goes: the current ones, and each game's before and after."""

    model: RatingModel = DEFAULT_MODEL
    skills: dict[K, Skill] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._engine = self.model.engine()

    def skill(self, player: K) -> Skill:
        return self.skills.get(player) or initial_skill(self.model)

    def apply(self, ranks: Mapping[K, int]) -> tuple[dict[K, Skill], dict[K, Skill]]:
        """Apply one game: returns the players' skills (before, after)."""
        before = {player: self.skill(player) for player in ranks}
        after = rate_game(before, ranks, self._engine)
        self.skills.update(after)
        return before, after


def replay(games: Iterable[Mapping[K, int]], model: RatingModel = DEFAULT_MODEL) -> dict[K, Skill]:
    """Every player's skill after the games, applied in order from the defaults."""
    state: Replay[K] = Replay(model)
    for ranks in games:
        state.apply(ranks)
    return state.skills

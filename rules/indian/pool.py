"""Pool rummy: elimination, rejoin, prize pool and split (``formats.md``, "Pool rummy").

Scores accumulate over deals; a player whose total reaches the pool's limit is eliminated; the last
player left wins the pool. The points of each deal come from the hand scoring of
``indian-rummy.md``; this module works on the running totals."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from rules.errors import InvariantError, RuleViolation
from rules.indian.preset import IndianPreset
from rules.money import require_int, split_evenly
from rules.ranking import competition_ranks

K = TypeVar("K", bound=Hashable)

SplitKind = Literal["drops", "equal"]

POOL_LIMITS = (61, 101, 201)
"""The pools with a built-in preset (:meth:`PoolRules.for_limit`)."""

POOL_THRESHOLDS: dict[int, tuple[int, int]] = {61: (44, 45), 101: (79, 80), 201: (174, 175)}
"""``(rejoin_below, equal_split_at)`` of each built-in pool: 101 and 201 from ``formats.md``; 61
by the same rule (``limit - 2 - first drop``, then + 1)."""
POOL_61_DROPS = (15, 30)
"""First and middle drop of a 61 pool (not in ``formats.md``; the platforms that offer 61 pools
use 15 and 30)."""
POOL_61_FULL_COUNT = 60
"""Full count and wrong show of a 61 pool: 60, so that one wrong show does not eliminate a player
at 0 (80 would)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolRules:
    """The numbers of one pool.

    - ``limit``: a player whose score reaches it (``>= limit``) is eliminated (101, 201, 61).
    - ``first_drop`` / ``middle_drop``: drop points of this pool (101: 20/40; 201: 25/50).
    - ``full_count``: a full count or wrong show (80).
    - ``rejoin_allowed``: whether an eliminated player may buy in again.
    - ``rejoin_below``: rejoin is allowed while no *active* score is above this number (79 for a 101
      pool, 174 for 201). The bound is inclusive: with the highest active score exactly 79, a
      player may still rejoin (at 80).
    - ``max_rejoins``: how many times one player may rejoin in a game (``None``: no cap).
    - ``equal_split_at``: the equal split needs every remaining player at this score or more (80
      for 101, 175 for 201).
    - ``split_player_counts``: how many remaining players may split (2 or 3).
    - ``equal_split_preset``: whether the club offers the equal (automatic) split at all.

    The thresholds of the built-in presets follow one rule: ``rejoin_below = limit - 2 -
    first_drop`` (a rejoining player, at the highest score + 1, can still make one first drop and
    stay in) and ``equal_split_at = rejoin_below + 1``."""

    limit: int
    first_drop: int
    middle_drop: int
    rejoin_below: int
    equal_split_at: int
    full_count: int = 80
    rejoin_allowed: bool = True
    max_rejoins: int | None = None
    split_player_counts: tuple[int, ...] = (2, 3)
    equal_split_preset: bool = False

    def __post_init__(self) -> None:
        limit = require_int(self.limit, "pool limit", minimum=2, code="bad_pool_rules")
        for name in ("first_drop", "middle_drop", "full_count"):
            require_int(getattr(self, name), f"pool {name}", minimum=1, code="bad_pool_rules")
        for name in ("rejoin_below", "equal_split_at"):
            require_int(
                getattr(self, name),
                f"pool {name}",
                minimum=0,
                maximum=limit - 1,
                code="bad_pool_rules",
            )
        if self.max_rejoins is not None:
            require_int(self.max_rejoins, "pool max_rejoins", minimum=0, code="bad_pool_rules")
        for name in ("rejoin_allowed", "equal_split_preset"):
            if type(getattr(self, name)) is not bool:
                raise RuleViolation(
                    "bad_pool_rules",
                    f"pool {name} must be true or false, not {getattr(self, name)!r}",
                    token=str(getattr(self, name)),
                )
        counts = self.split_player_counts
        if not isinstance(counts, tuple | list) or not counts:
            raise RuleViolation(
                "bad_pool_rules",
                f"pool split_player_counts must be a non-empty list of numbers, not {counts!r}",
                token=str(counts),
            )
        for count in counts:
            require_int(count, "a split player count", minimum=2, code="bad_pool_rules")
        # A list (as read from JSON) is kept as a tuple, so the rules stay immutable and hashable.
        object.__setattr__(self, "split_player_counts", tuple(counts))

    @classmethod
    def for_limit(
        cls,
        limit: int,
        *,
        rejoin_allowed: bool = True,
        max_rejoins: int | None = None,
        equal_split: bool = False,
    ) -> PoolRules:
        """The preset of a 101, 201 or 61 pool; the club's choices as keywords."""
        if type(limit) is not int or limit not in POOL_LIMITS:
            raise RuleViolation(
                "bad_pool",
                f"unknown pool {limit!r}: use one of {', '.join(map(str, POOL_LIMITS))}"
                " (or give every number of PoolRules)",
                token=str(limit),
            )
        if limit == 61:
            first_drop, middle_drop = POOL_61_DROPS
            full_count = POOL_61_FULL_COUNT
        else:
            preset = IndianPreset.for_pool(limit)
            first_drop, middle_drop, full_count = (
                preset.first_drop,
                preset.middle_drop,
                preset.wrong_show,
            )
        rejoin_below, equal_split_at = POOL_THRESHOLDS[limit]
        return cls(
            limit=limit,
            first_drop=first_drop,
            middle_drop=middle_drop,
            full_count=full_count,
            rejoin_below=rejoin_below,
            equal_split_at=equal_split_at,
            rejoin_allowed=rejoin_allowed,
            max_rejoins=max_rejoins,
            equal_split_preset=equal_split,
        )

    @classmethod
    def pool_101(cls) -> PoolRules:
        """101 pool: drops 20/40, rejoin while no active score is above 79, equal split at 80."""
        return cls.for_limit(101)

    @classmethod
    def pool_201(cls) -> PoolRules:
        """201 pool: drops 25/50, rejoin while no active score is above 174, equal split at 175."""
        return cls.for_limit(201)

    @classmethod
    def pool_61(cls) -> PoolRules:
        """61 pool: drops 15/30, full count 60, rejoin while no active score is above 44, equal
        split at 45."""
        return cls.for_limit(61)

    def replace(self, **changes: object) -> PoolRules:
        """A copy with some numbers changed (``rules.replace(max_rejoins=1)``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


# --- elimination and rejoin ----------------------------------------------------------------------


def _score(key: object, score: object) -> int:
    return require_int(
        score, f"score of {key!r}", minimum=0, code="bad_score", details={"player": str(key)}
    )


def _total(score: object) -> int:
    return require_int(score, "score", minimum=0, code="bad_score")


def is_eliminated(score: int, rules: PoolRules) -> bool:
    """Whether a total score is out: ``score >= limit`` (at 101, 100 stays in)."""
    return _total(score) >= rules.limit


def rejoin_score(active_scores: Mapping[K, int], rules: PoolRules, rejoins_used: int) -> int:
    """The score an eliminated player rejoins at: the highest active score + 1.

    ``active_scores`` are the totals of the players still in (any total at or over the limit is an
    eliminated player and is ignored, so the rejoining player may be in it too); ``rejoins_used``
    is how many times this player has already rejoined in this game. Refused (``RuleViolation``)
    when the pool does not allow rejoining, the player has used up ``max_rejoins``, fewer than two
    players are still in (the game is over), or an active player is above ``rules.rejoin_below``
    (that player is named)."""
    used = require_int(rejoins_used, "rejoins used", minimum=0, code="bad_rejoins")
    scores = {key: _score(key, score) for key, score in active_scores.items()}
    if not rules.rejoin_allowed:
        raise RuleViolation("rejoin_off", "this pool does not allow rejoining")
    if rules.max_rejoins is not None and used >= rules.max_rejoins:
        raise RuleViolation(
            "rejoin_limit",
            f"a player may rejoin at most {rules.max_rejoins} time(s) in this pool;"
            f" this player has rejoined {used} time(s)",
            token=str(used),
            details={"max_rejoins": rules.max_rejoins},
        )
    active = {key: score for key, score in scores.items() if score < rules.limit}
    if len(active) < 2:
        raise RuleViolation(
            "game_over", "fewer than two players are still in: the pool is decided, no rejoin"
        )
    highest = max(active.values())
    if highest > rules.rejoin_below:
        leader = next(key for key, score in active.items() if score == highest)
        raise RuleViolation(
            "rejoin_closed",
            f"no rejoin: {leader!r} has {highest}, above {rules.rejoin_below}",
            token=str(leader),
            details={"player": str(leader), "score": highest, "rejoin_below": rules.rejoin_below},
        )
    return highest + 1


def drops_remaining(score: int, rules: PoolRules) -> int:
    """How many first drops a player can still make and stay in:
    ``floor((limit - 1 - score) / first_drop)``, never negative."""
    value = _total(score)
    return max(0, (rules.limit - 1 - value) // rules.first_drop)


# --- split ---------------------------------------------------------------------------------------


def _remaining(scores: Mapping[K, int], rules: PoolRules) -> dict[K, int]:
    """The remaining players' scores, checked: each a whole number under the limit."""
    checked: dict[K, int] = {}
    for key, score in scores.items():
        value = _score(key, score)
        if value >= rules.limit:
            raise RuleViolation(
                "player_eliminated",
                f"{key!r} has {value} and is out of the pool (limit {rules.limit})",
                token=str(key),
                details={"player": str(key), "score": value},
            )
        checked[key] = value
    return checked


def _offered(
    kind: SplitKind, scores: dict[K, int], players_at_start: int | None, rules: PoolRules
) -> str | None:
    """Why ``kind`` of split is not offered now, or ``None`` when it is."""
    count = len(scores)
    if count not in rules.split_player_counts:
        allowed = " or ".join(map(str, rules.split_player_counts))
        return f"a split needs {allowed} players left, not {count}"
    if players_at_start is not None and players_at_start <= count:
        return f"the table started with {players_at_start} players: nobody has been eliminated yet"
    if kind == "equal":
        if not rules.equal_split_preset:
            return "this pool does not offer the equal split"
        low = next((key for key, score in scores.items() if score < rules.equal_split_at), None)
        if low is not None:
            return (
                f"the equal split needs every player at {rules.equal_split_at} or more;"
                f" {low!r} has {scores[low]}"
            )
    return None


def split_options(
    scores: Mapping[K, int], players_at_start: int, rules: PoolRules
) -> list[SplitKind]:
    """The splits offered now: ``"drops"`` when 2 or 3 players remain of a table that started with
    more; also ``"equal"`` when the pool offers it and every remaining player has at least
    ``equal_split_at``. Either way every remaining player must agree; that is for the caller."""
    remaining = _remaining(scores, rules)
    start = require_int(
        players_at_start, "players at the start", minimum=len(remaining), code="bad_players"
    )
    kinds: tuple[SplitKind, ...] = ("drops", "equal")
    return [kind for kind in kinds if _offered(kind, remaining, start, rules) is None]


def _refuse_unless_offered(
    kind: SplitKind, scores: dict[K, int], players_at_start: int | None, rules: PoolRules
) -> None:
    if players_at_start is not None:
        require_int(
            players_at_start, "players at the start", minimum=len(scores), code="bad_players"
        )
    reason = _offered(kind, scores, players_at_start, rules)
    if reason is not None:
        raise RuleViolation("split_not_offered", f"no {kind} split: {reason}")


def _lowest_score_first(scores: dict[K, int]) -> list[K]:
    """The players by score, lowest first; equal scores keep the mapping's order."""
    return sorted(scores, key=lambda key: scores[key])


def split_by_drops(
    pool_minor: int,
    entry_fee_minor: int,
    scores: Mapping[K, int],
    rules: PoolRules,
    *,
    players_at_start: int | None = None,
) -> dict[K, int]:
    """The agreed split of ``formats.md``: each player is first paid (own drops remaining - the
    smallest drops remaining) x entry fee; the rest of the pool is divided equally, each share
    rounded down to the minor unit, the minor units left over going one at a time to the players
    with the lowest score first (equal scores: the mapping's order). Pays out exactly
    ``pool_minor``. Pool 15000, entry 2500, drops remaining 3/1/0 pays 9167, 4167, 1666.

    Refused when fewer or more players remain than ``rules.split_player_counts`` allows, when
    ``players_at_start`` is given and nobody has left the table yet, and when the pool is too small
    to pay the drop differences (the split then has no fair reading: the players play on, or agree
    on the equal split where it is offered)."""
    pool = require_int(pool_minor, "prize pool (minor units)", minimum=0, code="bad_amount")
    entry = require_int(entry_fee_minor, "entry fee (minor units)", minimum=0, code="bad_amount")
    remaining = _remaining(scores, rules)
    _refuse_unless_offered("drops", remaining, players_at_start, rules)
    drops = {key: drops_remaining(score, rules) for key, score in remaining.items()}
    smallest = min(drops.values())
    first = {key: (count - smallest) * entry for key, count in drops.items()}
    needed = sum(first.values())
    if needed > pool:
        raise RuleViolation(
            "pool_too_small_for_split",
            f"the pool ({pool}) cannot pay the drop differences ({needed}): no split by drops",
            token=str(pool),
            details={"pool_minor": pool, "needed_minor": needed, "drops_remaining": drops},
        )
    shares = split_evenly(pool - needed, _lowest_score_first(remaining))
    payout = {key: first[key] + shares[key] for key in remaining}
    if sum(payout.values()) != pool:
        raise InvariantError("split_by_drops does not pay out the pool exactly")
    return payout


def split_equal(
    pool_minor: int,
    scores: Mapping[K, int],
    rules: PoolRules,
    *,
    players_at_start: int | None = None,
) -> dict[K, int]:
    """The equal (automatic) split: the pool divided equally, each share rounded down to the minor
    unit, leftover minor units one at a time to the lowest score first (equal scores: the
    mapping's order). Refused unless the pool offers it, 2 or 3 players remain and each has at
    least ``rules.equal_split_at`` (and, when ``players_at_start`` is given, the table started with
    more)."""
    pool = require_int(pool_minor, "prize pool (minor units)", minimum=0, code="bad_amount")
    remaining = _remaining(scores, rules)
    _refuse_unless_offered("equal", remaining, players_at_start, rules)
    shares = split_evenly(pool, _lowest_score_first(remaining))
    return {key: shares[key] for key in remaining}


# --- finishing order ------------------------------------------------------------------------------


def finishing_ranks(
    scores: Mapping[K, int], eliminated_at: Mapping[K, int], *, survivors_by_score: bool = False
) -> dict[K, int]:
    """The finishing order of a decided pool (``scores``: every player's pool score): the players
    still in rank above everyone out, sharing first place (the winner, or those who split the
    prize), or, with ``survivors_by_score`` (a knock-out table's qualifiers), in order of their
    scores. The others follow in reverse order of their final elimination (``eliminated_at``: a
    number that grows with time, e.g. the deal; a rejoin keeps only the last elimination);
    players out in the same deal rank by their scores, lower first, and only equal scores
    share a rank."""
    unknown = set(eliminated_at) - set(scores)
    if unknown:
        raise InvariantError(
            f"players out of the pool without a score: {sorted(map(str, unknown))}"
        )
    remaining = [player for player in scores if player not in eliminated_at]
    if survivors_by_score:
        ranks = competition_ranks({p: scores[p] for p in remaining}, best="low")
    else:
        ranks = dict.fromkeys(remaining, 1)
    later_first = competition_ranks(
        {p: (-eliminated_at[p], scores[p]) for p in eliminated_at}, best="low"
    )
    for player, rank in later_first.items():
        ranks[player] = len(remaining) + rank
    return ranks

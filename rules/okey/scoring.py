"""Okey deal scores (``docs/rules.md``, "Okey").

A deal's scores are points on the game's scale, higher better for everyone: under **loss** the
finisher scores 0 and each other player minus the finish's worth; under **countdown** the
finisher scores plus the worth (the points taken off their count). A player who showed the
indicator's twin scores as if they had finished for ``indicator_points``. The players' scores
do not sum to zero: the game's book takes the rest (``book_share``), as in the other families."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.errors import RuleViolation
from rules.okey.hands import FinishKind
from rules.okey.preset import OkeyPreset


def check_players(players: Sequence[str], preset: OkeyPreset) -> None:
    """Raise ``bad_players`` for too few, too many or repeated names."""
    if len(set(players)) != len(players):
        raise RuleViolation("bad_players", "each player is named once", details={})
    if not preset.min_players <= len(players) <= preset.max_players:
        raise RuleViolation(
            "bad_players",
            f"Okey is played by {preset.min_players} to {preset.max_players} players, "
            f"not {len(players)}",
            details={"count": len(players)},
        )


def check_player(name: object, players: Sequence[str], field: str) -> str:
    """``name`` if it is one of the players; ``unknown_player`` naming the field otherwise."""
    if not isinstance(name, str) or name not in players:
        raise RuleViolation(
            "unknown_player", f"{field}: {name!r} is not one of the players", token=field
        )
    return name


def finish_worth(preset: OkeyPreset, finish: FinishKind, okey_discard: bool) -> int:
    """What one finish is worth: the finish points, times each multiplier that applies."""
    worth = preset.finish_points
    if finish == "pairs":
        worth *= preset.pairs_factor
    if okey_discard:
        worth *= preset.okey_discard_factor
    return worth


def _award(scores: dict[str, int], winner: str, worth: int, preset: OkeyPreset) -> None:
    if preset.scoring == "countdown":
        scores[winner] += worth
        return
    for name in scores:
        if name != winner:
            scores[name] -= worth


def deal_scores(
    players: Sequence[str],
    finisher: str | None,
    preset: OkeyPreset,
    *,
    finish: FinishKind = "melds",
    okey_discard: bool = False,
    indicator_shown: Sequence[str] = (),
) -> dict[str, int]:
    """Each player's score for one deal. ``finisher`` is ``None`` when the tiles ran out (only
    an indicator shown then scores)."""
    check_players(players, preset)
    scores = dict.fromkeys(players, 0)
    if finisher is not None:
        check_player(finisher, players, "finisher")
        _award(scores, finisher, finish_worth(preset, finish, okey_discard), preset)
    elif okey_discard or finish == "pairs":
        raise RuleViolation(
            "bad_field", "a deal nobody finished has no finish to describe", token="finisher"
        )
    if len(set(indicator_shown)) != len(indicator_shown):
        raise RuleViolation(
            "bad_field", "each player shows the indicator once", token="indicator_shown"
        )
    for name in indicator_shown:
        _award(
            scores, check_player(name, players, "indicator_shown"), preset.indicator_points, preset
        )
    return scores


def book_share(scores: Mapping[str, int]) -> int:
    """What the game's book takes so that a deal sums to zero."""
    return -sum(scores.values())


def counts_left(totals: Mapping[str, int], preset: OkeyPreset) -> dict[str, int]:
    """Countdown: each player's count (the target less the points scored so far)."""
    return {name: preset.target - total for name, total in totals.items()}


def game_winners(totals: Mapping[str, int], preset: OkeyPreset) -> list[str]:
    """Countdown: the players whose count reached 0 (the game is over when any has; more than
    one only when an indicator and a finish in the same deal bring two there). Loss: none, the
    club decides when a game ends."""
    if preset.scoring != "countdown":
        return []
    return [name for name, left in counts_left(totals, preset).items() if left <= 0]

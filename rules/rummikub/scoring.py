"""End-of-game scores for Sabra and American Rummikub (zero-sum).

* A winner (who got rid of every tile; American: all but a final discard, which is not on the
  rack): every other player scores minus their rack total, the winner plus the sum.
* No winner (the pool ran out): the lowest rack total wins the differences. Several players tied
  for the lowest share the gain equally; an indivisible remainder goes one point at a time to the
  tied players in seating order, starting after the player who moved last (by default the last
  seat, so the first tied player in seating order gets the first point).

Rack totals count number tiles at face value (a 1 counts 1) and a joker at the preset's
``joker_value`` (30; 25 variant). Where the preset has a ``never_opened_penalty`` (a house rule,
0 = off), a loser who never made the initial meld (``melded`` false) counts that instead of the
rack, so the game still sums to zero. Where it has ``winner_scores_zero`` (a house rule), the
winner scores 0 and the losers their racks: the players' scores then sum to minus the book's
share (``book_share``), which the deal posts to the game's book."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from rules.errors import InvariantError, RuleViolation
from rules.rummikub.preset import RummikubPreset, preset_for
from rules.rummikub.tiles import Tile, check_copies, parse_tile

K = TypeVar("K", bound=Hashable)


def rack_total(tiles: Sequence[Tile | str], joker_value: int = 30) -> int:
    """Face value of the tiles left on a rack, a joker counting ``joker_value``."""
    total = 0
    for token in tiles:
        tile = parse_tile(token)
        total += joker_value if tile.number is None else tile.number
    return total


def check_player(name: object, players: Sequence[str], field: str) -> str:
    """``name`` if it is one of ``players``, else ``unknown_player`` naming the field."""
    if not isinstance(name, str) or name not in players:
        raise RuleViolation(
            "unknown_player",
            f"{field} {name!r} is not one of the players ({', '.join(players)})",
            token=None if name is None else str(name),
        )
    return name


def check_players(players: Sequence[str], preset: RummikubPreset) -> None:
    """Raise ``RuleViolation('bad_players')`` unless the table has a playable number of players."""
    if not preset.min_players <= len(players) <= preset.max_players:
        raise RuleViolation(
            "bad_players",
            f"{preset.variant.capitalize()} Rummikub is played by {preset.min_players} to "
            f"{preset.max_players} players, not {len(players)}",
            details={"players": len(players)},
        )


def winner_scores(
    totals: Mapping[str, int], winner: str, winner_scores_zero: bool = False
) -> dict[str, int]:
    """Each loser scores minus their rack total, the winner plus the sum (seating order kept), or
    0 under ``winner_scores_zero`` (the book then takes the sum)."""
    players = list(totals)
    check_player(winner, players, "winner")
    scores = {name: -totals[name] for name in players}
    others = sum(totals[name] for name in players if name != winner)
    scores[winner] = 0 if winner_scores_zero else others
    return scores


def book_share(scores: Mapping[K, int]) -> int:
    """What the game's book takes so that a game sums to zero (0 but under winner_scores_zero)."""
    return -sum(scores.values())


def pool_exhausted_scores(
    totals: Mapping[str, int], last_mover: str | None = None
) -> dict[str, int]:
    """Scores when the pool is exhausted and no one went out.

    ``totals`` are the rack totals in seating order. The lowest total wins: each other player loses
    the difference to it, and the tied lowest players share the gain equally, an indivisible
    remainder going one point at a time in seating order starting after ``last_mover`` (default:
    the last seat)."""
    players = list(totals)
    if not players:
        raise RuleViolation("bad_players", "no players")
    low = min(totals.values())
    lowest = [name for name in players if totals[name] == low]
    scores = {name: low - totals[name] for name in players}
    gain = -sum(scores.values())
    share, remainder = divmod(gain, len(lowest))
    for name in lowest:
        scores[name] = share
    if remainder:
        mover = (
            players[-1] if last_mover is None else check_player(last_mover, players, "last_mover")
        )
        start = players.index(mover) + 1
        order = [players[(start + step) % len(players)] for step in range(len(players))]
        for name in [name for name in order if name in lowest][:remainder]:
            scores[name] += 1
    if sum(scores.values()) != 0:  # pragma: no cover - arithmetic above guarantees it
        raise InvariantError(f"pool-exhausted scores do not sum to zero: {scores}")
    return scores


def game_scores(
    racks: Mapping[str, Sequence[Tile | str]],
    winner: str | None,
    rules: RummikubPreset | str = "sabra",
    *,
    last_mover: str | None = None,
    melded: Mapping[str, bool] | None = None,
) -> dict[str, int]:
    """Zero-sum scores of one Sabra or American game from the racks left at the end.

    ``racks`` maps each player, in seating order, to the tiles on their rack; ``winner`` is who went
    out (their rack is empty) or ``None`` when the pool ran out (then ``last_mover`` breaks an
    uneven split of a shared gain). Raises ``RuleViolation`` for bad tiles, too many copies, an
    unknown player or a winner with tiles left."""
    preset = preset_for(rules)
    if preset.variant == "international":
        raise RuleViolation(
            "bad_variant",
            "International hands are scored by international_scores (win, melded)",
            token="international",
        )
    players = list(racks)
    check_players(players, preset)
    parsed = {name: [parse_tile(tile) for tile in racks[name]] for name in players}
    check_copies(tile for tiles in parsed.values() for tile in tiles)
    totals = {name: rack_total(parsed[name], preset.joker_value) for name in players}
    for name, opened in (melded or {}).items():
        check_player(name, players, "melded")
        if not opened and preset.never_opened_penalty and name != winner:
            totals[name] = preset.never_opened_penalty
    if last_mover is not None:
        check_player(last_mover, players, "last_mover")
    if winner is None:
        scores = pool_exhausted_scores(totals, last_mover)
    else:
        check_player(winner, players, "winner")
        if parsed[winner]:
            raise RuleViolation(
                "winner_has_tiles",
                f"the winner {winner!r} still has {len(parsed[winner])} tile(s) on the rack: a "
                "winner's rack is empty (an American final discard is not on it)",
                token=winner,
            )
        scores = winner_scores(totals, winner, preset.winner_scores_zero)
        if preset.winner_scores_zero:
            return scores  # the book takes the rest (``book_share``)
    if sum(scores.values()) != 0:  # pragma: no cover - both rules are zero-sum by construction
        raise InvariantError(f"game scores do not sum to zero: {scores}")
    return scores


def match_totals(games: Sequence[Mapping[str, int]]) -> dict[str, int]:
    """Each player's total over the games of a match (players in order of first appearance)."""
    totals: dict[str, int] = {}
    for scores in games:
        for name, score in scores.items():
            totals[name] = totals.get(name, 0) + score
    return totals


def match_leaders(totals: Mapping[str, int]) -> list[str]:
    """The players with the highest total: the match winner, or those tied for it."""
    if not totals:
        return []
    top = max(totals.values())
    return [name for name, total in totals.items() if total == top]

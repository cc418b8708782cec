"""International Rummikub hand scores (they do not sum to zero).

* Winner: Open 100, or 200 when no other player has melded; Foot 200; Closed the value of the best
  closed hand type of the winner's 14 tiles (``closed_hands``).
* A loser who has melded loses the tiles left in hand: 2 to 9 at face value, 10 to 13 and 1 at 10,
  a joker 30. A loser who has not melded loses 100 after an Open win, a Foot win or a hand without a
  winner, and what the winner won after a Closed win.
* Trump-tile variation (preset ``trump_bonus``, 0 = off): each player named as having held the tile
  identical to the trump scores that much more for the hand, winner or loser; it is not part of
  "what the winner won".
* A final discard that is a joker doubles every score of the hand (bonus included)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rules.errors import RuleViolation
from rules.rummikub.closed_hands import ClosedHand, classify_closed_hand
from rules.rummikub.preset import INTERNATIONAL, RummikubPreset, preset_for
from rules.rummikub.scoring import check_player, check_players
from rules.rummikub.tiles import Tile, check_copies, parse_tile

Win = Literal["open", "foot", "closed"]
WINS: tuple[Win, ...] = ("open", "foot", "closed")


@dataclass(frozen=True)
class InternationalScores:
    """One hand's scores (seating order kept), what the winner won before any doubling, and the
    winner's closed hand classification for a Closed win."""

    scores: dict[str, int]
    winner_score: int
    closed_hand: ClosedHand | None = None


def melded_hand_value(
    tiles: Sequence[Tile | str], rules: RummikubPreset | str = INTERNATIONAL
) -> int:
    """What a loser who has melded loses: 2-9 at face value, 10-13 and 1 at 10, a joker 30."""
    preset = preset_for(rules)
    total = 0
    for token in tiles:
        number = parse_tile(token).number
        if number is None:
            total += preset.joker_value
        elif 2 <= number <= 9:
            total += number
        else:
            total += preset.high_tile_value
    return total


def international_scores(
    racks: Mapping[str, Sequence[Tile | str]],
    melded: Mapping[str, bool],
    winner: str | None,
    win: Win | None,
    *,
    closed_hand: Sequence[Tile | str] | None = None,
    first_turn: bool = False,
    original_hand: bool = False,
    is_first_player: bool = False,
    final_discard_joker: bool = False,
    trump_holders: Collection[str] = (),
    rules: RummikubPreset | str = INTERNATIONAL,
) -> InternationalScores:
    """Scores of one International hand.

    ``racks``: every player (seating order) and the tiles left in hand (the winner's is empty).
    ``melded``: for every player but the winner, whether they have melded. ``winner``/``win``: who
    won and how (``"open"``, ``"foot"``, ``"closed"``), both ``None`` when the hand had no winner.
    ``closed_hand``: the winner's 14 tiles for a Closed win, with the facts for the Blitz types.
    ``trump_holders``: players who held the tile identical to the trump (used only when the
    preset's ``trump_bonus`` is on). Raises ``RuleViolation`` for inconsistent input."""
    preset = preset_for(rules)
    if preset.variant != "international":
        raise RuleViolation(
            "bad_variant", "international_scores needs an International preset", preset.variant
        )
    players = list(racks)
    holders = list(trump_holders)
    _check_hand(
        players,
        melded,
        winner,
        win,
        closed_hand=closed_hand,
        final_discard_joker=final_discard_joker,
        holders=holders,
        preset=preset,
    )
    parsed = {name: [parse_tile(tile) for tile in racks[name]] for name in players}
    hand = [parse_tile(tile) for tile in closed_hand] if closed_hand is not None else []
    check_copies(
        [tile for tiles in parsed.values() for tile in tiles] + hand,
        extra_jokers=1 if final_discard_joker else 0,
    )
    if winner is not None and parsed[winner]:
        raise RuleViolation(
            "winner_has_tiles",
            f"the winner {winner!r} still has tiles in hand: a winner's rack is empty",
            token=winner,
        )
    others_melded = any(melded[name] for name in players if name != winner)
    facts = (first_turn, original_hand, is_first_player)
    won, classified = _winner_won(win, others_melded, hand, facts, preset)

    scores: dict[str, int] = {}
    for name in players:
        if name == winner:
            score = won
        elif melded[name]:
            score = -melded_hand_value(parsed[name], preset)
        else:
            score = -(won if win == "closed" else preset.not_melded_loss)
        if name in holders:
            score += preset.trump_bonus
        if final_discard_joker:
            score *= preset.joker_discard_factor
        scores[name] = score
    return InternationalScores(scores, won, classified)


def _check_hand(
    players: list[str],
    melded: Mapping[str, bool],
    winner: str | None,
    win: Win | None,
    *,
    closed_hand: Sequence[Tile | str] | None,
    final_discard_joker: bool,
    holders: list[str],
    preset: RummikubPreset,
) -> None:
    """Refuse a hand whose facts do not fit together (who won and how, who melded, the closed
    hand, the final discard, the trump's holders), before any tile is read."""
    check_players(players, preset)
    if (winner is None) != (win is None):
        raise RuleViolation(
            "bad_field",
            "give both winner and win, or neither when the hand had no winner",
            token="win" if win is None else "winner",
        )
    if win is not None and win not in WINS:
        raise RuleViolation("bad_field", f"win must be one of {', '.join(WINS)}", token=str(win))
    if winner is not None:
        check_player(winner, players, "winner")
    for name in melded:
        check_player(name, players, "melded")
    missing = [name for name in players if name != winner and name not in melded]
    if missing:
        raise RuleViolation(
            "missing_field",
            f"melded must say for every loser whether they have melded: missing {missing[0]!r}",
            token=missing[0],
        )
    if win == "closed" and closed_hand is None:
        raise RuleViolation(
            "missing_field", "a Closed win needs the winner's 14 tiles (closed_hand)", "closed_hand"
        )
    if win != "closed" and closed_hand is not None:
        raise RuleViolation(
            "bad_field", "closed_hand is only given for a Closed win", token="closed_hand"
        )
    if final_discard_joker and winner is None:
        raise RuleViolation(
            "bad_field",
            "final_discard_joker needs a winner: a hand without one has no final discard",
            token="final_discard_joker",
        )
    for name in holders:
        check_player(name, players, "trump_holders")
    if len(set(holders)) != len(holders):
        raise RuleViolation("bad_field", "trump_holders names a player twice", "trump_holders")


def _winner_won(
    win: Win | None,
    others_melded: bool,
    hand: list[Tile],
    facts: tuple[bool, bool, bool],
    preset: RummikubPreset,
) -> tuple[int, ClosedHand | None]:
    """What the winner won (0 without a winner), and the closed hand type of a Closed win
    (``facts``: first turn, original hand, first player, for the Blitz types)."""
    if win == "open":
        return (preset.open_win if others_melded else preset.open_win_no_other_melded), None
    if win == "foot":
        return preset.foot_win, None
    if win != "closed":
        return 0, None
    first_turn, original_hand, is_first_player = facts
    classified = classify_closed_hand(
        hand,
        first_turn=first_turn,
        original_hand=original_hand,
        is_first_player=is_first_player,
        values=preset.closed_hand_values,
        one_high=preset.closed_one_high,
    )
    if classified is None:
        raise RuleViolation(
            "not_a_closed_hand",
            "the winner's 14 tiles fit no closed hand type",
            token="closed_hand",
        )
    return classified.value, classified

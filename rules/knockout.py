"""Knock-out advancement and final places (``formats.md``, "Knock-out tournaments").

Pure: players are any hashable keys. A table's finishing order (1 best, equal results sharing a
place) decides who goes on: its top ``advance`` players. A tie across the cut (players sharing a
place that straddles it) is decided by a tie-breaker between them. Players of equal table rank
on different tables are equal; a player knocked out in a later round finishes above one knocked
out earlier."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from rules.errors import RuleViolation
from rules.ranking import competition_ranks

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class TableOutcome(Generic[K]):
    """Who goes on from a table, who is out (with their place at the table), and the players
    tied across the cut who must play a tie-breaker for the places left (empty when none)."""

    advancing: tuple[K, ...]
    out: dict[K, int]
    tied: tuple[K, ...]
    places_left: int


def table_outcome(ranks: Mapping[K, int], advance: int) -> TableOutcome[K]:
    """Split a table by its finishing order: the top ``advance`` go on, a tie across the cut is
    left to a tie-breaker for the places it straddles."""
    if type(advance) is not int or advance < 1:
        raise RuleViolation("bad_advance", f"advance must be a whole number >= 1, not {advance!r}")
    ordered = sorted(ranks, key=lambda p: ranks[p])
    if advance >= len(ordered):
        return TableOutcome(tuple(ordered), {}, (), 0)
    cut_rank = ranks[ordered[advance - 1]]
    above = tuple(p for p in ordered if ranks[p] < cut_rank)
    at_cut = tuple(p for p in ordered if ranks[p] == cut_rank)
    below = {p: ranks[p] for p in ordered if ranks[p] > cut_rank}
    left = advance - len(above)
    if len(at_cut) <= left:  # the cut falls between places: nobody straddles it
        return TableOutcome(above + at_cut, below, (), 0)
    return TableOutcome(above, below, at_cut, left)


def after_tiebreaker(outcome: TableOutcome[K], tiebreak_ranks: Mapping[K, int]) -> TableOutcome[K]:
    """The table's outcome once its tie-breaker was played (which may tie again: then another
    tie-breaker between those still level)."""
    if set(tiebreak_ranks) != set(outcome.tied):
        raise RuleViolation("bad_tiebreaker", "the tie-breaker is between the tied players only")
    base = len(outcome.advancing) + 1  # the place the tied players shared, now told apart
    inner = table_outcome(dict(tiebreak_ranks), outcome.places_left)
    out = dict(outcome.out)
    out.update({p: base + tiebreak_ranks[p] - 1 for p in inner.out})
    return TableOutcome(outcome.advancing + inner.advancing, out, inner.tied, inner.places_left)


def final_places(
    final_ranks: Mapping[K, int], knocked_out: Sequence[Mapping[K, int]]
) -> dict[K, int]:
    """Every entrant's final place: the final table's order first, then those knocked out in
    the last round before it, by their place at their table, and so on back to the first round
    (``knocked_out`` lists each round's players out with their table place, first round first).
    Equal table places in one round are equal; a place counts everyone ranked above."""
    standing: list[tuple[int, int, K]] = []  # (round from the end, place at the table, player)
    for player, rank in final_ranks.items():
        standing.append((0, rank, player))
    for back, out in enumerate(reversed(knocked_out), start=1):
        for player, rank in out.items():
            standing.append((back, rank, player))
    keys = {player: (back, rank) for back, rank, player in standing}
    if len(keys) != len(standing):
        raise RuleViolation("duplicate_player", "a player is placed twice")
    return competition_ranks(keys, best="low")

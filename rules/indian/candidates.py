"""The candidate groups of a hand for the best arrangement's search (``rules.indian.arrangement``):
the natural cards in suit/rank order and, for each, every group in which it is the first card
(runs, wrapping runs, sets, runs made pure by a wild-rank card at its own place), with the jokers
each needs; and the declaration's need as the small state machine the search walks."""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from rules.indian.cards import face_value
from rules.indian.preset import (
    DEFAULT_HOUSE_RULES,
    Declaration,
    HouseRules,
    JokerLimit,
    JokerLimitScope,
)

NEG = -(1 << 30)
#: The fewest jokers that make a group of their own (``jokers_only_sequence``: a sequence).
JOKERS_ALONE = 3

# Candidate kinds.
PURE, IMPURE, SET, WILD_PURE = 0, 1, 2, 3
# Progress towards the declaration's need. Two sequences (the default): 0 needs a pure sequence
# and another sequence, 1 has the pure one, 2 has an impure one, 3 has both. _NEXT[kind][progress]
# is the progress after using a group of that kind (-1: skip).
_DONE = 3
_NEXT = (
    (1, 3, 3, 3),
    (2, 3, 2, 3),
    (0, 1, 2, 3),
    (1, -1, 3, -1),
)
# What a state still needs, for giving up early: a pure candidate, any sequence, or nothing known.
NEEDS_NOTHING, NEEDS_PURE, NEEDS_RUN = 0, 1, 2


class Progress(NamedTuple):
    """The declaration's need as a small state machine: ``next[kind][state]``, the state that
    meets it, and what each state still needs."""

    next: tuple[tuple[int, ...], ...]
    done: int
    needs: tuple[int, ...]


_TWO_SEQUENCES = Progress(_NEXT, _DONE, (NEEDS_PURE, NEEDS_RUN, NEEDS_PURE, NEEDS_NOTHING))
# One pure sequence: 0 needs it, 1 has it. A wild-pure run is only worth its place as the pure one.
_PURE_SEQUENCE = Progress(((1, 1), (0, 1), (0, 1), (1, -1)), 1, (NEEDS_PURE, NEEDS_NOTHING))


def _progress_of(house: HouseRules) -> Progress:
    if house.declaration is Declaration.TWO_SEQUENCES:
        return _TWO_SEQUENCES
    if house.declaration is Declaration.PURE_SEQUENCE:
        return _PURE_SEQUENCE
    # At least N valid groups: the state counts them (capped at N). A wild-pure run is no better
    # than the same cards as an impure run, which is a candidate too.
    wanted = house.min_groups
    step = tuple(min(state + 1, wanted) for state in range(wanted + 1))
    return Progress((step, step, step, (-1,) * (wanted + 1)), wanted, (0,) * (wanted + 1))


# (group mask, redundant-copy mask, jokers needed, value, kind)
Candidate = tuple[int, int, int, int, int]


class Hand:
    """Per-hand tables for the search: the natural cards in suit/rank order (position ``i`` is bit
    ``1 << i`` of a mask) and, for each position, the candidate groups in which it is the first
    card, best value first."""

    def __init__(
        self,
        naturals: list[int],
        jokers: int,
        wild_rank: int,
        wild_suits: set[int],
        house: HouseRules = DEFAULT_HOUSE_RULES,
        wild_counts: tuple[int, ...] = (0, 0, 0, 0),
    ):
        n = len(naturals)
        self.nat = naturals
        self.n = n
        self.jokers = jokers
        # What ``j`` jokers left over make on their own: how many groups, and whether all of them
        # are in those groups (``wild_counts``: the hand's wild cards by suit).
        self.spare_sets, self.spares_held = _spare_groups(jokers, wild_counts, house)
        self.wild_rank = wild_rank
        self.house = house
        self.ace_points = ace = house.ace_points
        self.progress = _progress_of(house)
        self.values = [face_value(card % 13 + 1, ace) for card in naturals]
        # Identical copies: ``earlier[i]`` the copies before i, ``same_after[i]`` i and those after.
        self.earlier = earlier = [0] * n
        self.same_after = same_after = [1 << i for i in range(n)]
        for i in range(1, n):
            if naturals[i] == naturals[i - 1]:
                earlier[i] = earlier[i - 1] | (1 << (i - 1))
        for i in range(n - 2, -1, -1):
            if naturals[i] == naturals[i + 1]:
                same_after[i] |= same_after[i + 1]
        self.where: dict[int, list[int]] = {}
        for i, card in enumerate(naturals):
            self.where.setdefault(card, []).append(i)
        self.suit_ranks: list[list[int]] = [[], [], [], []]
        for card in self.where:  # naturals are sorted, so ranks come in order
            self.suit_ranks[card // 13].append(card % 13 + 1)
        # Runs wrapping round the king: every run of each suit, by its lowest rank.
        self.wrap_runs: list[dict[int, list[tuple[list[int], int]]]] | None = None
        self._wild_pure_by_suit: dict[int, dict[int, list[list[int]]]] = {}
        if house.wrap_runs:
            self.wrap_runs = [_wrapping_runs(ranks, jokers) for ranks in self.suit_ranks]
        self.cands = [self._candidates(i, naturals[i] // 13 in wild_suits) for i in range(n)]
        self.coverable = 0
        self.pure_list: list[tuple[int, int]] = []  # (mask, jokers) of every pure candidate
        self.run_list: list[tuple[int, int]] = []  # the same for every sequence candidate
        for group in self.cands:
            for cand in group:
                self.coverable |= cand[0]
                if cand[4] != SET:
                    self.run_list.append((cand[0], cand[2]))
                    if cand[4] != IMPURE:
                        self.pure_list.append((cand[0], cand[2]))
        self.run_list.sort(key=lambda run: run[1])

    def feasible(self) -> bool:
        """Whether the declaration's need can be met at all. Two sequences: a pure candidate and
        another sequence candidate without a card in common, within the jokers; a pure sequence:
        a pure candidate; a number of groups: left to the search."""
        need = self.house.declaration
        if need is Declaration.PURE_SEQUENCE:
            return bool(self.pure_list)
        if need is Declaration.MIN_GROUPS:
            return True
        jokers = self.jokers
        alone = JOKERS_ALONE if self.house.jokers_only_sequence else jokers + 1
        for pure, pure_jokers in self.pure_list:
            if pure_jokers + alone <= jokers:  # the second sequence of jokers only
                return True
            for run, run_jokers in self.run_list:
                if not pure & run and pure_jokers + run_jokers <= jokers:
                    return True
        return False

    def _candidates(self, i: int, suit_has_wild: bool) -> list[Candidate]:
        card = self.nat[i]
        rank, suit = card % 13 + 1, card // 13
        jokers = self.jokers
        runs: dict[int, Candidate] = {}
        found: list[tuple[list[int], int]] = []
        alone = _ALONE_JOKERS[self.house.joker_limit]
        if alone is not None and jokers >= alone:
            found.append(([], alone))  # the card alone with jokers
        ranks = self.suit_ranks[suit]
        if self.wrap_runs is not None:
            found += self.wrap_runs[suit].get(rank, [])
        else:
            # Runs with this card lowest (ace low), and for an ace also ace high.
            found += _run_rank_sets(rank, [q for q in ranks if q > rank], 1, jokers)
            if rank == 1:
                found += _run_rank_sets(14, [q for q in reversed(ranks) if q != 1], -1, jokers)
        for others, cost in found:
            for mask, skip, value in self._variants(i, [suit * 13 + q - 1 for q in others]):
                old = runs.get(mask)
                if old is None or old[2] > cost:
                    runs[mask] = (mask, skip, cost, value, PURE if cost == 0 else IMPURE)
        out = list(runs.values())
        if (
            self.house.joker_limit_scope is JokerLimitScope.SEQUENCES
            and self.house.joker_limit is not JokerLimit.NONE
            and jokers >= 2
        ):  # the limit holds for sequences only: the card with two jokers is a set
            out.append((1 << i, 0, 2, self.values[i], SET))
        # Sets with this card's suit the first.
        others = [t * 13 + rank - 1 for t in range(suit + 1, 4) if t * 13 + rank - 1 in self.where]
        for size in range(1, len(others) + 1):
            cost = max(0, 2 - size)
            if cost <= jokers:
                for combo in _combinations(others, size):
                    for mask, skip, value in self._variants(i, combo):
                        out.append((mask, skip, cost, value, SET))
        # Runs made pure by the suit's wild-rank card at its own place.
        if suit_has_wild and jokers >= 1:
            seen: set[int] = set()
            wild_runs = (
                self._wrapping_wild_pure(suit).get(rank, [])
                if self.wrap_runs is not None
                else _wild_pure_runs(rank, self.wild_rank, ranks)
            )
            for pure_ranks in wild_runs:
                combo = [suit * 13 + q - 1 for q in pure_ranks]
                for mask, skip, value in self._variants(i, combo):
                    if mask not in seen:
                        seen.add(mask)
                        out.append((mask, skip, 1, value, WILD_PURE))
        out.sort(key=lambda cand: (-cand[3], cand[2]))
        return out

    def _wrapping_wild_pure(self, suit: int) -> dict[int, list[list[int]]]:
        """The suit's wild-pure runs round the king by their lowest natural rank (found once)."""
        found = self._wild_pure_by_suit.get(suit)
        if found is None:
            found = _wrapping_wild_pure_runs(self.wild_rank, self.suit_ranks[suit])
            self._wild_pure_by_suit[suit] = found
        return found

    def _variants(self, anchor: int, cards: list[int]) -> list[tuple[int, int, int]]:
        """(mask, redundant-copy mask, value) of the anchor with one copy of each card, for each
        choice of copies; a choice is redundant while an earlier identical copy is still there."""
        value = self.values[anchor]
        for card in cards:
            value += face_value(card % 13 + 1, self.ace_points)
        choices = [self.where[card] for card in cards]
        out = []
        for pick in product(*choices):
            mask, skip = 1 << anchor, 0
            for pos in pick:
                mask |= 1 << pos
                skip |= self.earlier[pos]
            out.append((mask, skip, value))
        return out


def _spare_groups(
    jokers: int, wild_counts: tuple[int, ...], house: HouseRules
) -> tuple[list[int], list[bool]]:
    """For each count ``j`` of jokers left over: how many groups they can make on their own, and
    whether every one of them can be in such a group. Where the house allows sets of jokers only,
    any three make one (the last set taking the rest); otherwise only natural sets of the wild
    rank (three or four wild cards of different suits, no printed joker), at most two with two
    decks, the jokers left over being chosen among the hand's (the groups take the others)."""
    if house.jokers_only_sequence:  # one sequence of them all, or threes, the last the rest
        return [j // 3 for j in range(jokers + 1)], [j == 0 or j >= 3 for j in range(jokers + 1)]
    if house.jokers_only_set:  # threes, the last taking the rest (fours at most if capped)
        held = [j == 0 or (j >= 3 and (not house.sets_up_to_four or j <= 4 * (j // 3)))
                for j in range(jokers + 1)]  # fmt: skip
        return [j // 3 for j in range(jokers + 1)], held
    sets, held = [], []
    for j in range(jokers + 1):
        room = {k: sum(min(count, k) for count in wild_counts) for k in (1, 2)}
        sets.append(max((k for k in (1, 2) if 3 * k <= j and room[k] >= 3 * k), default=0))
        held.append(j == 0 or any(3 * k <= j <= min(4 * k, room[k]) for k in (1, 2)))
    return sets, held


def _run_rank_sets(
    start: int, ranks: list[int], step: int, jokers: int
) -> list[tuple[list[int], int]]:
    """Every subset of ``ranks`` (sorted away from ``start``) that makes a run with a card at
    ``start`` within the joker budget, with the jokers it needs. ``step`` is +1 (upwards) or -1
    (ace high at 14, downwards). Ranks are returned as ranks (ace 1)."""
    out: list[tuple[list[int], int]] = []

    def walk(first: int, members: int, chosen: list[int]) -> None:
        for k in range(first, len(ranks)):
            rank = ranks[k]
            span = (rank - start) * step + 1
            if span - members - 1 > jokers:
                break  # further ranks only widen the gap
            cost = max(span, 3) - members - 1
            picked = [*chosen, rank]
            if cost <= jokers:
                out.append((picked, cost))
            walk(k + 1, members + 1, picked)

    walk(0, 1, [])
    return out


#: Jokers a natural card needs to make a group alone, by the joker limit (``None``: never).
_ALONE_JOKERS: dict[JokerLimit, int | None] = {
    JokerLimit.NONE: 2,
    JokerLimit.ONE_IN_THREE: 3,  # three jokers make a four-card group
    JokerLimit.NOT_WITH_ONE_NATURAL: None,
}


def _wrapping_runs(ranks: list[int], jokers: int) -> dict[int, list[tuple[list[int], int]]]:
    """Every run of two or more of a suit's ``ranks`` round the circle A..K (at most 13 places)
    within the joker budget, as (the other ranks, jokers needed) by the run's lowest rank (its
    first card in the search's order). A run found from several starts keeps its fewest
    jokers."""
    best: dict[tuple[int, ...], int] = {}
    for start in ranks:
        after = sorted((q for q in ranks if q != start), key=lambda q: (q - start) % 13)
        distances = [(q - start) % 13 for q in after]

        def walk(first: int, members: int, chosen: list[int], distances: list[int] = distances,
                 after: list[int] = after, start: int = start) -> None:  # fmt: skip
            for k in range(first, len(after)):
                span = distances[k] + 1
                if span - members - 1 > jokers:
                    break  # further ranks only widen the gap
                cost = max(span, 3) - members - 1
                picked = [*chosen, after[k]]
                if cost <= jokers:
                    key = tuple(sorted([start, *picked]))
                    if best.get(key, jokers + 1) > cost:
                        best[key] = cost
                walk(k + 1, members + 1, picked)

        walk(0, 1, [])
    out: dict[int, list[tuple[list[int], int]]] = {}
    for key, cost in best.items():
        out.setdefault(key[0], []).append((list(key[1:]), cost))
    return out


def _wrapping_wild_pure_runs(wild: int, suit_ranks: list[int]) -> dict[int, list[list[int]]]:
    """As ``_wild_pure_runs`` for runs round the circle A..K: every window of 3 to 13 places
    holding the wild rank and, at every other place, a card of the suit, as its other natural
    ranks by its lowest natural rank. A wild card at the end of a window of four or more is left
    out (the run without it is as good)."""
    avail = set(suit_ranks)

    def rank_at(offset: int) -> int:
        return (wild - 1 + offset) % 13 + 1

    below = 0  # the suit's cards in a row just below the wild place, round the circle
    while below < 12 and rank_at(-below - 1) in avail:
        below += 1
    above = 0
    while above + below < 12 and rank_at(above + 1) in avail:
        above += 1
    out: dict[int, list[list[int]]] = {}
    for low in range(below + 1):
        for high in range(above + 1):
            length = low + high + 1
            if length < 3 or (length >= 4 and (low == 0 or high == 0)):
                continue
            key = sorted(rank_at(k) for k in range(-low, high + 1) if k)
            out.setdefault(key[0], []).append(key[1:])
    return out


def _combinations(items: list[int], size: int) -> list[list[int]]:
    if size == 0:
        return [[]]
    out = []
    for k in range(len(items) - size + 1):
        for rest in _combinations(items[k + 1 :], size - 1):
            out.append([items[k], *rest])
    return out


def _wild_pure_runs(anchor: int, wild: int, suit_ranks: list[int]) -> list[list[int]]:
    """Rank lists (excluding the anchor) of runs with this anchor lowest that are pure only thanks
    to the suit's wild-rank card at its own place. A wild card added at the end of a run that is
    already pure is left out (the run without it is as good)."""
    out: list[list[int]] = []
    systems = [(1, 13, False)]
    if anchor == 1 or wild == 1:
        systems.append((2, 14, True))
    for bottom, top, high in systems:

        def coord(rank: int, high: bool = high) -> int:
            return 14 if high and rank == 1 else rank

        a = coord(anchor)
        w = coord(wild)
        avail = {coord(q) for q in suit_ranks if q > anchor}
        lo = a
        while lo - 1 >= bottom and (lo - 1 in avail or lo - 1 == w):
            lo -= 1
        hi = a
        while hi + 1 <= top and (hi + 1 in avail or hi + 1 == w):
            hi += 1
        if not lo <= w <= hi:
            continue
        for start in range(lo, min(a, w) + 1):
            for end in range(max(a, w, start + 2), hi + 1):
                if w in (start, end) and end - start >= 3:
                    continue
                ranks = [1 if x == 14 else x for x in range(start, end + 1) if x != w and x != a]
                out.append(ranks)
    return out

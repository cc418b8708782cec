"""Best arrangement: the grouping of ungrouped cards with the lowest hand score.

Exact, by a memoised search over the natural (non-joker) cards:

- Jokers are worth 0 and interchangeable, so they are a count. A group is a set of natural cards
  plus the number of jokers it needs: a run of ``m`` same-suit cards spanning ``w`` places needs
  ``max(w, 3) - m`` (0: a pure sequence), a set of ``m`` same-rank cards of different suits needs
  ``max(0, 3 - m)``. One natural card with two jokers is an impure sequence.
- A wild-rank card can also sit at its own place in a run and keep it pure. That only matters for
  the one pure sequence a declaration needs, so those runs are extra candidates ("wild pure") usable
  while a pure sequence is still missing; any other joker use can be given to another joker, so a
  count of jokers stays exact.
- The search takes the first remaining card (cards sorted by suit then rank) and either leaves it
  unmatched or puts it in one of its precomputed candidate groups. Identical copies are used in
  order, so equal cards never branch twice. States are memoised on (remaining cards, jokers left,
  progress towards "a pure sequence and a second sequence").
- Pruning never loses the optimum: a card no candidate group can hold is unmatched from the start;
  a state stops as soon as everything left is matched; leaving a card unmatched is skipped when it
  cannot beat the best already found; a state that still needs a sequence gives up when no
  candidate for it is left; and a hand where no pure candidate and other sequence candidate fit
  together is known at once to miss the two-sequence rule.

The score with at least two sequences, one pure, is the value of the unmatched cards; without them
every card counts (capped at 80), so the search maximises the value matched under that constraint.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import NamedTuple

from rules.errors import InvariantError
from rules.indian.cards import (
    CARDS,
    JOKER_CODE,
    Card,
    check_copies,
    face_value,
    joker_table,
    value_table,
    wild_rank_of,
)
from rules.indian.groups import GroupKind, classify_group
from rules.indian.hand import HandResult, check_hand_size, score_groups
from rules.indian.preset import (
    DEFAULT_HOUSE_RULES,
    DEFAULT_PRESET,
    Declaration,
    HouseRules,
    IndianPreset,
    JokerLimit,
)

_NEG = -(1 << 30)

# Candidate kinds.
_PURE, _IMPURE, _SET, _WILD_PURE = 0, 1, 2, 3
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
_NEEDS_NOTHING, _NEEDS_PURE, _NEEDS_RUN = 0, 1, 2


class _Progress(NamedTuple):
    """The declaration's need as a small state machine: ``next[kind][state]``, the state that
    meets it, and what each state still needs."""

    next: tuple[tuple[int, ...], ...]
    done: int
    needs: tuple[int, ...]


_TWO_SEQUENCES = _Progress(_NEXT, _DONE, (_NEEDS_PURE, _NEEDS_RUN, _NEEDS_PURE, _NEEDS_NOTHING))
# One pure sequence: 0 needs it, 1 has it. A wild-pure run is only worth its place as the pure one.
_PURE_SEQUENCE = _Progress(((1, 1), (0, 1), (0, 1), (1, -1)), 1, (_NEEDS_PURE, _NEEDS_NOTHING))


def _progress_of(house: HouseRules) -> _Progress:
    if house.declaration is Declaration.TWO_SEQUENCES:
        return _TWO_SEQUENCES
    if house.declaration is Declaration.PURE_SEQUENCE:
        return _PURE_SEQUENCE
    # At least N valid groups: the state counts them (capped at N). A wild-pure run is no better
    # than the same cards as an impure run, which is a candidate too.
    wanted = house.min_groups
    step = tuple(min(state + 1, wanted) for state in range(wanted + 1))
    return _Progress((step, step, step, (-1,) * (wanted + 1)), wanted, (0,) * (wanted + 1))


# (group mask, redundant-copy mask, jokers needed, value, kind)
Candidate = tuple[int, int, int, int, int]


class _Hand:
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
    ):
        n = len(naturals)
        self.nat = naturals
        self.n = n
        self.jokers = jokers
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
                if cand[4] != _SET:
                    self.run_list.append((cand[0], cand[2]))
                    if cand[4] != _IMPURE:
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
        for pure, pure_jokers in self.pure_list:
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
                    runs[mask] = (mask, skip, cost, value, _PURE if cost == 0 else _IMPURE)
        out = list(runs.values())
        # Sets with this card's suit the first.
        others = [t * 13 + rank - 1 for t in range(suit + 1, 4) if t * 13 + rank - 1 in self.where]
        for size in range(1, len(others) + 1):
            cost = max(0, 2 - size)
            if cost <= jokers:
                for combo in _combinations(others, size):
                    for mask, skip, value in self._variants(i, combo):
                        out.append((mask, skip, cost, value, _SET))
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
                        out.append((mask, skip, 1, value, _WILD_PURE))
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


def _search(
    hand: _Hand, progress: int, stats: dict[str, int] | None = None, place_spares: bool = False
) -> tuple[int, list[Candidate], int]:
    """Most value matched from ``progress`` (``_NEG`` if the constraint cannot be met), the groups
    used, and the mask of cards left unmatched. ``stats`` counts the states searched.
    ``place_spares``: only groups that leave every joker they do not use a valid place (what a
    declaration needs; a loser's count does not, an unplaced joker counting nothing)."""
    n = hand.n
    cands = hand.cands
    values = hand.values
    same_after = hand.same_after
    pure_list = hand.pure_list
    run_list = hand.run_list
    memo: dict[int, int] = {}
    choice: dict[int, Candidate | None] = {}
    width = hand.jokers + 1
    nxt, done, needs = hand.progress
    house = hand.house
    # Jokers the groups leave over, for a declaration, must go somewhere valid. Two sequences
    # always leave a group
    # that takes them (an impure sequence, or a second pure one). Otherwise the search keeps a
    # flag, in the state's lowest bit: a group was used that can take them and stay valid (any
    # group where the declaration counts groups; a set, an impure sequence or a second pure
    # sequence where it needs one pure sequence). Three or more left over may also be a set of
    # jokers only where the house allows it, which a declaration of a number of groups counts.
    counts_groups = house.declaration is Declaration.MIN_GROUPS
    flagged = place_spares and house.declaration is not Declaration.TWO_SEQUENCES
    sets_of_spares = house.jokers_only_set

    def absorbs(kind: int, level: int) -> int:
        if counts_groups or kind in (_SET, _IMPURE):
            return 1
        return int(level >= done)  # a second pure sequence, once the one needed is there

    def solve(nm: int, j: int, st: int, vsum: int) -> int:
        key = ((st * width + j) << n) | nm
        got = memo.get(key)
        if got is not None:
            return got
        if nm == 0:
            level, placed = (st >> 1, st & 1) if flagged else (st, 1)
            spare_sets = j // 3 if sets_of_spares else 0
            met = level == done or (counts_groups and level + spare_sets >= done)
            best = 0 if met and (j == 0 or placed or spare_sets) else _NEG
            memo[key] = best
            return best
        need = needs[st >> 1] if flagged else needs[st]
        if need:  # give up when no candidate is left for the sequence still missing
            for mask, cost in run_list if need == _NEEDS_RUN else pure_list:
                if mask & nm == mask and cost <= j:
                    break
            else:
                memo[key] = _NEG
                return _NEG
        low = nm & -nm
        i = low.bit_length() - 1
        best = _NEG
        pick: Candidate | None = None
        for cand in cands[i]:
            mask, skip, cost, value, kind = cand
            if cost > j or mask & nm != mask or skip & nm:
                continue
            if flagged:
                level = nxt[kind][st >> 1]
                after = -1 if level < 0 else level << 1 | (st & 1 | absorbs(kind, st >> 1))
            else:
                after = nxt[kind][st]
            if after < 0:
                continue
            rest = solve(nm ^ mask, j - cost, after, vsum - value)
            if rest >= 0 and rest + value > best:
                best = rest + value
                pick = cand
                if best == vsum:
                    break
        if best < vsum:
            dead = nm & same_after[i]
            dead_value = values[i] * dead.bit_count()
            if vsum - dead_value > best:
                rest = solve(nm & ~dead, j, st, vsum - dead_value)
                if rest > best:
                    best = rest
                    pick = None
        memo[key] = best
        choice[key] = pick
        return best

    start = hand.coverable
    vsum = sum(values[i] for i in range(n) if start >> i & 1)
    first = progress << 1 if flagged else progress
    matched = solve(start, hand.jokers, first, vsum)
    if stats is not None:
        stats["states"] = stats.get("states", 0) + len(memo)
    if matched < 0:
        return matched, [], 0
    used: list[Candidate] = []
    nm, j, st = start, hand.jokers, first
    while nm:
        pick = choice[((st * width + j) << n) | nm]
        if pick is None:
            i = (nm & -nm).bit_length() - 1
            nm &= ~same_after[i]
        else:
            used.append(pick)
            nm ^= pick[0]
            j -= pick[2]
            if flagged:
                level = nxt[pick[4]][st >> 1]
                st = level << 1 | (st & 1 | absorbs(pick[4], st >> 1))
            else:
                st = nxt[pick[4]][st]
    used_mask = 0
    for cand in used:
        used_mask |= cand[0]
    unmatched = ((1 << n) - 1) & ~used_mask
    return matched, used, unmatched


def arrange(
    cards: Sequence[Card],
    wild_rank: int,
    preset: IndianPreset = DEFAULT_PRESET,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> HandResult:
    """The best arrangement of any number of cards (no count or copy checks; see
    ``best_arrangement``). ``valid`` says whether every card can be grouped into a valid
    declaration (at least two sequences, one pure)."""
    return _arrange(cards, wild_rank, preset, house, None)


def search_stats(
    cards: Sequence[Card],
    wild_rank: int,
    preset: IndianPreset = DEFAULT_PRESET,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> dict[str, int]:
    """How much work a hand's best arrangement takes (for benchmarks): natural cards, jokers,
    candidate groups and memoised search states."""
    stats: dict[str, int] = {}
    _arrange(cards, wild_rank, preset, house, stats)
    return stats


def _arrange(
    cards: Sequence[Card],
    wild_rank: int,
    preset: IndianPreset,
    house: HouseRules,
    stats: dict[str, int] | None,
) -> HandResult:
    jokers_of = joker_table(wild_rank)
    values = value_table(wild_rank, house.ace_points)
    ordered: list[int] = sorted(cards)
    naturals = [card for card in ordered if not jokers_of[card]]
    joker_cards = [card for card in ordered if jokers_of[card]]
    wild_suits = {card // 13 for card in joker_cards if card != JOKER_CODE}
    hand = _Hand(naturals, len(joker_cards), wild_rank_of(wild_rank), wild_suits, house)
    total = sum(values[card] for card in ordered)
    if stats is not None:
        stats["naturals"] = hand.n
        stats["jokers"] = hand.jokers
        stats["candidate groups"] = sum(len(group) for group in hand.cands)
        stats["matchable"] = hand.coverable.bit_count()

    matched, used, unmatched = _search(hand, 0, stats) if hand.feasible() else (_NEG, [], 0)
    feasible = matched >= 0
    score = total - matched if feasible else total
    relief = None
    if preset.pure_sequence_relief:
        relief = max(
            (cand for group in hand.cands for cand in group if cand[4] in (_PURE, _WILD_PURE)),
            key=lambda cand: cand[3],
            default=None,
        )
    if relief is not None and total - relief[3] < score:
        # Only the pure sequence is excused: show it and leave the rest together.
        score = total - relief[3]
        used = [relief]
        unmatched = ((1 << hand.n) - 1) & ~relief[0]
    elif not feasible:
        # Every card counts whatever the grouping: show the groups the cards do make.
        _, used, unmatched = _search(hand, hand.progress.done, stats)
    result = _present(hand, used, unmatched, joker_cards, wild_rank, preset, house)
    if feasible and not result.valid and score == 0:
        # The groups that count least leave jokers with no valid place: a declaration may
        # still be there with other groups (valid means nothing counts, so the same score).
        placed, used, unmatched = _search(hand, 0, stats, place_spares=True)
        if placed == matched:
            declared = _present(hand, used, unmatched, joker_cards, wild_rank, preset, house)
            if declared.valid:
                result = declared
    expected = min(score, preset.cap)
    if result.score != expected:
        raise InvariantError(
            f"best arrangement scored {result.score}, search found {expected}: "
            + " | ".join(" ".join(map(str, group.cards)) for group in result.groups)
        )
    return result


def best_arrangement(
    cards: Sequence[Card],
    wild_rank: int,
    preset: IndianPreset = DEFAULT_PRESET,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> HandResult:
    """The lowest-scoring grouping of 13 ungrouped cards, and whether a valid declaration exists.

    Groups come pure sequences first, then impure sequences, then sets; cards no group uses come
    last as one ``invalid`` group. Raises ``too_many_copies`` or ``wrong_card_count``."""
    check_copies(cards, preset.decks)
    check_hand_size(len(cards))
    return arrange(cards, wild_rank, preset, house)


_ORDER = {
    GroupKind.PURE_SEQUENCE: 0,
    GroupKind.IMPURE_SEQUENCE: 1,
    GroupKind.SET: 2,
    GroupKind.INVALID: 3,
}


def _present(
    hand: _Hand,
    used: list[Candidate],
    unmatched: int,
    joker_cards: list[int],
    wild: int,
    preset: IndianPreset,
    house: HouseRules,
) -> HandResult:
    """Turn the search's groups into cards: hand out the jokers, order groups and cards."""
    nat = hand.nat
    wild_rank = hand.wild_rank
    printed = [card for card in joker_cards if card == JOKER_CODE]
    wilds = [card for card in joker_cards if card != JOKER_CODE]
    built: list[list[int]] = []
    # Wild-pure runs take their own wild card first.
    for cand in used:
        if cand[4] == _WILD_PURE:
            suit = nat[(cand[0] & -cand[0]).bit_length() - 1] // 13
            wilds.remove(suit * 13 + wild_rank - 1)
    for cand in used:
        cards = [nat[i] for i in range(hand.n) if cand[0] >> i & 1]
        if cand[4] == _WILD_PURE:
            cards.append(cards[0] // 13 * 13 + wild_rank - 1)
        else:
            for _ in range(cand[2]):
                cards.append(printed.pop() if printed else wilds.pop())
        built.append(cards)
    spare = printed + wilds
    leftover = [nat[i] for i in range(hand.n) if unmatched >> i & 1]
    kinds = [classify_group(cards, wild, house) for cards in built]
    if spare and not leftover:
        return _best_with_spares(built, kinds, spare, wild, preset, house)
    best = _scored(built, kinds, [*leftover, *spare], wild, preset, house)
    # Spare jokers left with unmatched cards may instead be a set of their own, where the house
    # allows one: a group more, which a declaration counting groups may need (the search counted
    # it so).
    for apart in _joker_sets_apart(built, kinds, spare, leftover, wild, preset, house):
        if (not apart.valid, apart.score) < (not best.valid, best.score):
            best = apart
    return best


def _joker_sets_apart(
    built: list[list[int]],
    kinds: list[GroupKind],
    spare: list[int],
    leftover: list[int],
    wild: int,
    preset: IndianPreset,
    house: HouseRules,
) -> list[HandResult]:
    """The hand with its ``spare`` jokers as one, two, ... sets of jokers only (threes, the last
    taking the rest) beside the groups ``built``, ``leftover`` unmatched."""
    tries = []
    for sets in range(1, len(spare) // 3 + 1):
        alone = [spare[3 * k : 3 * k + 3] for k in range(sets - 1)] + [spare[3 * (sets - 1) :]]
        grouped = [*(list(cards) for cards in built), *alone]
        grouped_kinds = [*kinds, *(classify_group(cards, wild, house) for cards in alone)]
        tries.append(_scored(grouped, grouped_kinds, leftover, wild, preset, house))
    return tries


def _scored(
    built: list[list[int]],
    kinds: list[GroupKind],
    leftover: list[int],
    wild: int,
    preset: IndianPreset,
    house: HouseRules,
) -> HandResult:
    order = sorted(range(len(built)), key=lambda k: _ORDER[kinds[k]])
    groups = [_display(built[k], kinds[k], wild, house) for k in order]
    if leftover:
        groups.append(_display(leftover, GroupKind.INVALID, wild, house))
    return score_groups(groups, wild, preset, house)


def _best_with_spares(
    built: list[list[int]],
    kinds: list[GroupKind],
    spare: list[int],
    wild: int,
    preset: IndianPreset,
    house: HouseRules,
) -> HandResult:
    """Where the jokers the groups did not need go: the best-scoring of (in the order preferred
    when they score alike) a set or sequence that takes them and stays valid, sets of jokers
    only where the house allows them (a group more, where the declaration counts groups), a
    pure sequence cut so that its rest holds them, the only pure sequence taking them (which it
    then no longer is: right where the declaration needs no pure one, wrong where the relief
    would excuse a hand that keeps it), or left unmatched (they count nothing)."""

    def joined(k: int) -> HandResult:
        cards = [list(group) for group in built]
        cards[k].extend(spare)
        grouped_kinds = list(kinds)
        grouped_kinds[k] = classify_group(cards[k], wild, house)
        return _scored(cards, grouped_kinds, [], wild, preset, house)

    tries = []
    target = _spare_target(kinds, built, len(spare))
    if target is not None:
        tries.append(joined(target))
    tries += _joker_sets_apart(built, kinds, spare, [], wild, preset, house)
    cut, cut_kinds = [list(cards) for cards in built], list(kinds)
    if _split_for_spares(cut, cut_kinds, spare, wild, house):
        tries.append(_scored(cut, cut_kinds, [], wild, preset, house))
    for k, kind in enumerate(kinds):
        if kind is GroupKind.PURE_SEQUENCE and k != target and len(built[k]) + len(spare) <= 13:
            tries.append(joined(k))
    tries.append(_scored(built, kinds, spare, wild, preset, house))
    return min(tries, key=lambda result: (not result.valid, result.score))


def _spare_target(kinds: list[GroupKind], built: list[list[int]], spare: int) -> int | None:
    """A group that can take the spare jokers and stay valid: a set, an impure sequence, or a pure
    sequence when another pure one remains. Never the only pure sequence here: whether it may
    take them depends on what the declaration needs and on the relief (``_best_with_spares``)."""
    for wanted in (GroupKind.SET, GroupKind.IMPURE_SEQUENCE):
        for k, kind in enumerate(kinds):
            if kind is wanted and (wanted is GroupKind.SET or len(built[k]) + spare <= 13):
                return k
    pures = [k for k, kind in enumerate(kinds) if kind is GroupKind.PURE_SEQUENCE]
    if len(pures) >= 2 and len(built[pures[-1]]) + spare <= 13:
        return pures[-1]
    return None


def _split_for_spares(
    built: list[list[int]],
    kinds: list[GroupKind],
    spare: list[int],
    wild: int,
    house: HouseRules,
) -> bool:
    """When no group can take the spare jokers (a single pure sequence where the declaration needs
    one), cut the pure sequence in two at either end so that its rest holds them in a valid
    group; ``False`` when no cut does."""
    for k, kind in enumerate(kinds):
        if kind is not GroupKind.PURE_SEQUENCE:
            continue
        run = _display(built[k], kind, wild, house)
        for keep in range(len(run) - 1, 2, -1):
            for kept, moved in ((run[:keep], run[keep:]), (run[-keep:], run[:-keep])):
                rest = [*moved, *spare]
                if (
                    classify_group(kept, wild, house) is GroupKind.PURE_SEQUENCE
                    and classify_group(rest, wild, house).is_valid
                ):
                    built[k] = list(kept)
                    kinds[k] = GroupKind.PURE_SEQUENCE
                    built.append(rest)
                    kinds.append(classify_group(rest, wild, house))
                    return True
    return False


def _run_start(places: list[int], size: int, wrap: bool) -> tuple[int, int]:
    """The first place of a run of ``size`` places holding ``places`` (ranks, an ace as 1), and
    the highest place (13, or 14 when the ace is high). Round the circle, the run starts after
    the widest gap; otherwise low, or high when it must, the jokers going on above."""
    if wrap:
        ranks = sorted(set(places))
        gaps = [((ranks[(k + 1) % len(ranks)] - ranks[k]) % 13 or 13, k) for k in range(len(ranks))]
        widest = max(gaps)[1]
        return ranks[(widest + 1) % len(ranks)], 13 + ranks[(widest + 1) % len(ranks)] - 1
    high = 1 in places and max(places) - 1 >= size
    top = 14 if high else 13
    coords = [14 if high and rank == 1 else rank for rank in places]
    lo = min(coords)
    return (top - size + 1 if lo + size - 1 > top else lo), top


def _display(cards: list[int], kind: GroupKind, wild: int, house: HouseRules) -> list[Card]:
    """Cards in reading order: runs from low to high with each joker where it stands, sets and
    leftovers by suit with jokers last."""
    jokers_of = joker_table(wild)
    wild_rank = wild_rank_of(wild)
    wrap = house.wrap_runs
    if kind is GroupKind.PURE_SEQUENCE:
        lo, _ = _run_start([card % 13 + 1 for card in cards], len(cards), wrap)
        ordered = sorted(cards, key=lambda c: (c % 13 + 1 - lo) % 13)
        return [CARDS[card] for card in ordered]
    if kind is GroupKind.IMPURE_SEQUENCE:
        naturals = [card for card in cards if not jokers_of[card]]
        jokers = sorted(card for card in cards if jokers_of[card])
        suit = naturals[0] // 13
        size = len(cards)
        lo, _ = _run_start([card % 13 + 1 for card in naturals], size, wrap)
        by_rank = {card % 13 + 1: card for card in naturals}
        own_wild = suit * 13 + wild_rank - 1
        out: list[int] = []
        for x in range(lo, lo + size):
            rank = (x - 1) % 13 + 1
            if rank in by_rank:
                out.append(by_rank.pop(rank))
                continue
            if rank == wild_rank and own_wild in jokers:
                card = own_wild  # the wild card at its own place
            elif JOKER_CODE in jokers:
                card = JOKER_CODE
            else:
                card = jokers[-1]
            jokers.remove(card)
            out.append(card)
        return [CARDS[card] for card in out]
    naturals = sorted(card for card in cards if not jokers_of[card])
    jokers = sorted(card for card in cards if jokers_of[card])
    return [CARDS[card] for card in naturals + jokers]

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

from rules.errors import InvariantError
from rules.indian.cards import CARDS, JOKER_CODE, Card, check_copies, joker_table, value_table
from rules.indian.groups import GroupKind, classify_group
from rules.indian.hand import HandResult, check_hand_size, score_groups
from rules.indian.preset import DEFAULT_PRESET, IndianPreset

_NEG = -(1 << 30)

# Candidate kinds.
_PURE, _IMPURE, _SET, _WILD_PURE = 0, 1, 2, 3
# Progress: 0 needs a pure sequence and another sequence, 1 has the pure one, 2 has an impure one,
# 3 has both. _NEXT[kind][progress] is the progress after using a group of that kind (-1: skip).
_DONE = 3
_NEXT = (
    (1, 3, 3, 3),
    (2, 3, 2, 3),
    (0, 1, 2, 3),
    (1, -1, 3, -1),
)

# (group mask, redundant-copy mask, jokers needed, value, kind)
Candidate = tuple[int, int, int, int, int]


def _face(rank: int) -> int:
    return 10 if rank == 1 or rank > 10 else rank


class _Hand:
    """Per-hand tables for the search: the natural cards in suit/rank order (position ``i`` is bit
    ``1 << i`` of a mask) and, for each position, the candidate groups in which it is the first
    card, best value first."""

    def __init__(self, naturals: list[int], jokers: int, wild_rank: int, wild_suits: set[int]):
        n = len(naturals)
        self.nat = naturals
        self.n = n
        self.jokers = jokers
        self.wild_rank = wild_rank
        self.values = [_face(card % 13 + 1) for card in naturals]
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
        """Whether two sequences, one pure, can be made at all: a pure candidate and another
        sequence candidate without a card in common, within the jokers."""
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
        if jokers >= 2:
            found.append(([], 2))  # the card alone with two jokers
        # Runs with this card lowest (ace low), and for an ace also ace high.
        ranks = self.suit_ranks[suit]
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
            for pure_ranks in _wild_pure_runs(rank, self.wild_rank, ranks):
                combo = [suit * 13 + q - 1 for q in pure_ranks]
                for mask, skip, value in self._variants(i, combo):
                    if mask not in seen:
                        seen.add(mask)
                        out.append((mask, skip, 1, value, _WILD_PURE))
        out.sort(key=lambda cand: (-cand[3], cand[2]))
        return out

    def _variants(self, anchor: int, cards: list[int]) -> list[tuple[int, int, int]]:
        """(mask, redundant-copy mask, value) of the anchor with one copy of each card, for each
        choice of copies; a choice is redundant while an earlier identical copy is still there."""
        value = self.values[anchor]
        for card in cards:
            value += _face(card % 13 + 1)
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
    hand: _Hand, progress: int, stats: dict[str, int] | None = None
) -> tuple[int, list[Candidate], int]:
    """Most value matched from ``progress`` (``_NEG`` if the constraint cannot be met), the groups
    used, and the mask of cards left unmatched. ``stats`` counts the states searched."""
    n = hand.n
    cands = hand.cands
    values = hand.values
    same_after = hand.same_after
    pure_list = hand.pure_list
    run_list = hand.run_list
    memo: dict[int, int] = {}
    choice: dict[int, Candidate | None] = {}
    width = hand.jokers + 1
    nxt = _NEXT

    def solve(nm: int, j: int, st: int, vsum: int) -> int:
        key = ((st * width + j) << n) | nm
        got = memo.get(key)
        if got is not None:
            return got
        if nm == 0:
            best = 0 if st == _DONE else _NEG
            memo[key] = best
            return best
        if st != _DONE:  # give up when no candidate is left for the sequence still missing
            for mask, cost in run_list if st == 1 else pure_list:
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
    matched = solve(start, hand.jokers, progress, vsum)
    if stats is not None:
        stats["states"] = stats.get("states", 0) + len(memo)
    if matched < 0:
        return matched, [], 0
    used: list[Candidate] = []
    nm, j, st = start, hand.jokers, progress
    while nm:
        pick = choice[((st * width + j) << n) | nm]
        if pick is None:
            i = (nm & -nm).bit_length() - 1
            nm &= ~same_after[i]
        else:
            used.append(pick)
            nm ^= pick[0]
            j -= pick[2]
            st = nxt[pick[4]][st]
    used_mask = 0
    for cand in used:
        used_mask |= cand[0]
    unmatched = ((1 << n) - 1) & ~used_mask
    return matched, used, unmatched


def arrange(
    cards: Sequence[Card], wild_rank: int, preset: IndianPreset = DEFAULT_PRESET
) -> HandResult:
    """The best arrangement of any number of cards (no count or copy checks; see
    ``best_arrangement``). ``valid`` says whether every card can be grouped into a valid
    declaration (at least two sequences, one pure)."""
    return _arrange(cards, wild_rank, preset, None)


def search_stats(
    cards: Sequence[Card], wild_rank: int, preset: IndianPreset = DEFAULT_PRESET
) -> dict[str, int]:
    """How much work a hand's best arrangement takes (for benchmarks): natural cards, jokers,
    candidate groups and memoised search states."""
    stats: dict[str, int] = {}
    _arrange(cards, wild_rank, preset, stats)
    return stats


def _arrange(
    cards: Sequence[Card],
    wild_rank: int,
    preset: IndianPreset,
    stats: dict[str, int] | None,
) -> HandResult:
    jokers_of = joker_table(wild_rank)
    values = value_table(wild_rank)
    ordered: list[int] = sorted(cards)
    naturals = [card for card in ordered if not jokers_of[card]]
    joker_cards = [card for card in ordered if jokers_of[card]]
    wild_suits = {card // 13 for card in joker_cards if card != JOKER_CODE}
    hand = _Hand(naturals, len(joker_cards), wild_rank, wild_suits)
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
        _, used, unmatched = _search(hand, _DONE, stats)
    result = _present(hand, used, unmatched, joker_cards, wild_rank, preset)
    expected = min(score, preset.cap)
    if result.score != expected:
        raise InvariantError(
            f"best arrangement scored {result.score}, search found {expected}: "
            + " | ".join(" ".join(map(str, group.cards)) for group in result.groups)
        )
    return result


def best_arrangement(
    cards: Sequence[Card], wild_rank: int, preset: IndianPreset = DEFAULT_PRESET
) -> HandResult:
    """The lowest-scoring grouping of 13 ungrouped cards, and whether a valid declaration exists.

    Groups come pure sequences first, then impure sequences, then sets; cards no group uses come
    last as one ``invalid`` group. Raises ``too_many_copies`` or ``wrong_card_count``."""
    check_copies(cards, preset.decks)
    check_hand_size(len(cards))
    return arrange(cards, wild_rank, preset)


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
    wild_rank: int,
    preset: IndianPreset,
) -> HandResult:
    """Turn the search's groups into cards: hand out the jokers, order groups and cards."""
    nat = hand.nat
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
    kinds = [classify_group(cards, wild_rank) for cards in built]
    if spare and not leftover:
        target = _spare_target(kinds, built, len(spare))
        if target is None:
            leftover = spare
        else:
            built[target].extend(spare)
            kinds[target] = classify_group(built[target], wild_rank)
    elif spare:
        leftover.extend(spare)
    order = sorted(range(len(built)), key=lambda k: _ORDER[kinds[k]])
    groups = [_display(built[k], kinds[k], wild_rank) for k in order]
    if leftover:
        groups.append(_display(leftover, GroupKind.INVALID, wild_rank))
    return score_groups(groups, wild_rank, preset)


def _spare_target(kinds: list[GroupKind], built: list[list[int]], spare: int) -> int | None:
    """A group that can take the spare jokers and stay valid: a set, an impure sequence, or a pure
    sequence when another pure one remains."""
    for wanted in (GroupKind.SET, GroupKind.IMPURE_SEQUENCE):
        for k, kind in enumerate(kinds):
            if kind is wanted and (wanted is GroupKind.SET or len(built[k]) + spare <= 13):
                return k
    pures = [k for k, kind in enumerate(kinds) if kind is GroupKind.PURE_SEQUENCE]
    if len(pures) >= 2 and len(built[pures[-1]]) + spare <= 13:
        return pures[-1]
    return None


def _display(cards: list[int], kind: GroupKind, wild_rank: int) -> list[Card]:
    """Cards in reading order: runs from low to high with each joker where it stands, sets and
    leftovers by suit with jokers last."""
    jokers_of = joker_table(wild_rank)
    if kind is GroupKind.PURE_SEQUENCE:
        ranks = [card % 13 + 1 for card in cards]
        high = 1 in ranks and max(ranks) - 1 >= len(cards)
        ordered = sorted(cards, key=lambda c: 14 if high and c % 13 == 0 else c % 13 + 1)
        return [CARDS[card] for card in ordered]
    if kind is GroupKind.IMPURE_SEQUENCE:
        naturals = [card for card in cards if not jokers_of[card]]
        jokers = sorted(card for card in cards if jokers_of[card])
        suit = naturals[0] // 13
        size = len(cards)
        ranks = [card % 13 + 1 for card in naturals]
        high = 1 in ranks and max(ranks) - 1 >= size
        top = 14 if high else 13
        coords = {
            (14 if high and rank == 1 else rank): card
            for rank, card in zip(ranks, naturals, strict=True)
        }
        lo = min(coords)
        if lo + size - 1 > top:
            lo = top - size + 1
        own_wild = suit * 13 + wild_rank - 1
        out: list[int] = []
        for x in range(lo, lo + size):
            if x in coords:
                out.append(coords[x])
                continue
            if (1 if x == 14 else x) == wild_rank and own_wild in jokers:
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

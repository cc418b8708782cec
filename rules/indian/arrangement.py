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
  candidate for it is left, and a declaration of a number of groups gives up when fewer cards
  are left than three for each group it still needs; and a hand where no pure candidate and
  other sequence candidate fit together is known at once to miss the two-sequence rule.

The score with at least two sequences, one pure, is the value of the unmatched cards; without them
every card counts (capped at 80), so the search maximises the value matched under that constraint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.errors import InvariantError
from rules.indian.arrangement_cards import present_groups
from rules.indian.candidates import (
    IMPURE,
    JOKERS_ALONE,
    NEEDS_RUN,
    NEG,
    PURE,
    SET,
    WILD_PURE,
    Candidate,
    Hand,
)
from rules.indian.cards import (
    JOKER_CODE,
    Card,
    check_copies,
    free_cut_card,
    joker_table,
    value_table,
    wild_rank_of,
)
from rules.indian.hand import HandResult, check_hand_size, natural_sets, score_groups
from rules.indian.preset import (
    DEFAULT_HOUSE_RULES,
    DEFAULT_PRESET,
    Declaration,
    HouseRules,
    IndianPreset,
)
from rules.indian.spare_jokers import Spares, spares_of
from rules.indian.spare_present import counted_search, present_counted


def _search(
    hand: Hand,
    progress: int,
    stats: dict[str, int] | None = None,
    place_spares: bool = False,
    set_room: int = 1 << 30,
    spares: Spares | None = None,
) -> tuple[int, list[Candidate], int]:
    """Most value matched from ``progress`` (``NEG`` if the constraint cannot be met), the groups
    used, and the mask of cards left unmatched. ``stats`` counts the states searched.
    ``place_spares``: only groups that leave every joker they do not use a valid place (what a
    declaration needs; a loser's count does not, an unplaced joker counting nothing)."""
    # Jokers the groups leave over, for a declaration, must go somewhere valid. Two sequences
    # always leave a group that takes them (an impure sequence, or a second pure one). Otherwise
    # the search keeps a flag, in the state's lowest bit: a group was used that can take them and
    # stay valid (any group where the declaration counts groups; a set, an impure sequence or a
    # second pure sequence where it needs one pure sequence). Three or more left over may also be
    # a set of jokers only where the house allows it, which a declaration of a number of groups
    # counts.
    # Where the jokers left over cost points (``spares``), the state counts instead how many of
    # them the groups used can take.
    flagged = place_spares and hand.house.declaration is not Declaration.TWO_SEQUENCES
    per_level = hand.jokers + 1 if spares is not None else 2 if flagged else 1
    memo: dict[int, int] = {}
    choice: dict[int, Candidate | None] = {}
    absorbs = _absorber(hand, set_room, spares is not None)
    solve, step = _solver(
        hand, per_level, memo, choice, absorbs, spares, progress < hand.progress.done
    )
    start = hand.coverable
    vsum = sum(hand.values[i] for i in range(hand.n) if start >> i & 1)
    first = progress * per_level
    matched = solve(start, hand.jokers, first, vsum + (spares.total if spares else 0))
    if stats is not None:
        stats["states"] = stats.get("states", 0) + len(memo)
    if matched < 0:
        return matched, [], 0
    used = _groups_chosen(hand, choice, first, step)
    used_mask = 0
    for cand in used:
        used_mask |= cand[0]
    unmatched = ((1 << hand.n) - 1) & ~used_mask
    return matched, used, unmatched


def _absorber(hand: Hand, set_room: int, counted: bool) -> Callable[[Candidate, int], int]:
    """Whether a group, chosen at a level of the declaration's need, can take the jokers left
    over and stay valid (``set_room``: the cards a set is trusted to grow to); ``counted``: how
    many it can take (a set capped at four cards, its room; any other group, all of them)."""
    done = hand.progress.done
    counts_groups = hand.house.declaration is Declaration.MIN_GROUPS
    every = hand.jokers if counted else 1
    cap = 4 if hand.house.sets_up_to_four else 1 << 30

    def absorbs(cand: Candidate, level: int) -> int:
        kind = cand[4]
        if kind == SET:  # a set capped at four cards takes a joker only while it has room
            if counted:
                return max(0, min(every, cap - cand[0].bit_count() - cand[2]))
            return int(cand[0].bit_count() + cand[2] < set_room)
        if counts_groups or kind == IMPURE:
            return every
        return every if level >= done else 0  # a second pure sequence, once one is there

    return absorbs


def _met_at_end(hand: Hand, alone_runs: bool) -> list[list[bool]]:
    """For each count of jokers left when every card is placed, and each state of the need:
    whether the need is met (the jokers left may make groups a declaration of groups counts, or
    under ``jokers_only_sequence`` the sequence still missing)."""
    nxt, done, _ = hand.progress
    counts_groups = hand.house.declaration is Declaration.MIN_GROUPS
    return [
        [
            level == done
            or (counts_groups and level + hand.spare_sets[j] >= done)
            or (alone_runs and j >= JOKERS_ALONE and nxt[IMPURE][level] == done)
            for level in range(len(nxt[IMPURE]))
        ]
        for j in range(hand.jokers + 1)
    ]


def _ender(
    hand: Hand, per_level: int, spares: Spares | None, constrained: bool
) -> Callable[[int, int], int]:
    """The value of a state with every natural card placed and ``j`` jokers left: ``NEG`` where
    the need is not met (or the jokers have no valid place, where they must have one), else
    what the jokers add (0, or where they cost points, their points less what the left ones
    count)."""
    done = hand.progress.done
    counts_groups = hand.house.declaration is Declaration.MIN_GROUPS
    spares_held = hand.spares_held
    met_at_end = _met_at_end(hand, hand.house.jokers_only_sequence and not counts_groups)
    flagged = per_level > 1
    # Two sequences met leave a sequence that takes any jokers left.
    runs_take = constrained and hand.house.declaration is Declaration.TWO_SEQUENCES

    def at_end(j: int, st: int) -> int:
        level, room = divmod(st, per_level) if flagged else (st, 1)
        if not met_at_end[j][level]:
            return NEG
        if spares is None:
            return 0 if room or spares_held[j] else NEG
        if runs_take and level == done:
            room = j
        groups = 0 if level == done else done - level if counts_groups else 1
        cost = spares.costs.cost(j, room, groups)
        return NEG if cost is None else spares.total - cost

    return at_end


def _stepper(
    hand: Hand, per_level: int, absorbs: Callable[[Candidate, int], int]
) -> Callable[[Candidate, int, int], int]:
    """The state after a group, ``left`` jokers left after it (negative: the group may not be
    used there). Room for more jokers than are left is no more use than room for those left, so
    where the state counts it, it counts at most those (fewer states, the same values)."""
    nxt = hand.progress.next
    top = per_level - 1
    counted = per_level > 2

    def step(cand: Candidate, st: int, left: int) -> int:
        kind = cand[4]
        if per_level > 1:
            level, room = divmod(st, per_level)
            after = nxt[kind][level]
            room = min(top, room + absorbs(cand, level))
            if counted and room > left:
                room = left
            return -1 if after < 0 else after * per_level + room
        return nxt[kind][st]

    return step


def _solver(
    hand: Hand,
    per_level: int,
    memo: dict[int, int],
    choice: dict[int, Candidate | None],
    absorbs: Callable[[Candidate, int], int],
    spares: Spares | None = None,
    constrained: bool = True,
) -> tuple[Callable[[int, int, int, int], int], Callable[[Candidate, int, int], int]]:
    """The memoised search over ``hand`` (filling ``memo`` and ``choice``: the best value matched
    and the group chosen in each state), and the step from a state by a group. A state is the
    level of the need times ``per_level`` plus what the groups used can take of the jokers left
    (1: whether they can take them all; more: how many, where ``spares`` says what they cost)."""
    n, cands, values, same_after = hand.n, hand.cands, hand.values, hand.same_after
    pure_list, run_list = hand.pure_list, hand.run_list
    width = hand.jokers + 1
    nxt, done, needs = hand.progress
    counts_groups = hand.house.declaration is Declaration.MIN_GROUPS
    alone_runs = hand.house.jokers_only_sequence
    alone_runs = alone_runs and not counts_groups
    at_end = _ender(hand, per_level, spares, constrained)
    step = _stepper(hand, per_level, absorbs)
    flagged = per_level > 1

    def solve(nm: int, j: int, st: int, vsum: int) -> int:
        key = ((st * width + j) << n) | nm
        got = memo.get(key)
        if got is not None:
            return got
        if nm == 0:
            best = at_end(j, st)
            memo[key] = best
            return best
        level = st // per_level if flagged else st
        if counts_groups and 3 * (done - level) > nm.bit_count() + j:
            # every group holds three cards or more: too few are left for the groups still needed
            memo[key] = NEG
            return NEG
        need = needs[level]
        if need and not (alone_runs and need == NEEDS_RUN and j >= JOKERS_ALONE):
            # give up when no candidate is left for the sequence still missing
            for mask, cost in run_list if need == NEEDS_RUN else pure_list:
                if mask & nm == mask and cost <= j:
                    break
            else:
                memo[key] = NEG
                return NEG
        low = nm & -nm
        i = low.bit_length() - 1
        best = NEG
        pick: Candidate | None = None
        for cand in cands[i]:
            mask, skip, cost, value, kind = cand
            if cost > j or mask & nm != mask or skip & nm:
                continue
            after = step(cand, st, j - cost) if flagged else nxt[kind][st]
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

    return solve, step


def _groups_chosen(
    hand: Hand,
    choice: dict[int, Candidate | None],
    first: int,
    step: Callable[[Candidate, int, int], int],
) -> list[Candidate]:
    """The groups of the best arrangement, read back from the search's choice in each state
    (``step``: the state after a group)."""
    n, width, same_after = hand.n, hand.jokers + 1, hand.same_after
    used: list[Candidate] = []
    nm, j, st = hand.coverable, hand.jokers, first
    while nm:
        pick = choice[((st * width + j) << n) | nm]
        if pick is None:
            i = (nm & -nm).bit_length() - 1
            nm &= ~same_after[i]
        else:
            used.append(pick)
            nm ^= pick[0]
            j -= pick[2]
            st = step(pick, st, j)
    return used


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
    if house.all_sets_declaration:
        sets = natural_sets(cards)  # all triplets: a valid declaration, nothing can score less
        if sets is not None:
            return score_groups(sets, wild_rank, preset, house)
    naturals = [card for card in ordered if not jokers_of[card]]
    joker_cards = [card for card in ordered if jokers_of[card]]
    wild_suits = {card // 13 for card in joker_cards if card != JOKER_CODE}
    wild_counts = tuple(
        sum(1 for card in joker_cards if card != JOKER_CODE and card // 13 == suit)
        for suit in range(4)
    )
    hand = Hand(naturals, len(joker_cards), wild_rank_of(wild_rank), wild_suits, house, wild_counts)
    total = sum(values[card] for card in ordered)
    if stats is not None:
        stats["naturals"] = hand.n
        stats["jokers"] = hand.jokers
        stats["candidate groups"] = sum(len(group) for group in hand.cands)
        stats["matchable"] = hand.coverable.bit_count()

    spares = None
    if free_cut_card(wild_rank) is not None:  # wild cards left over may count points
        spares = spares_of(joker_cards, values, house)
    if spares is not None:
        return _arrange_counted(hand, joker_cards, wild_rank, preset, house, total, stats)
    matched, used, unmatched = _search(hand, 0, stats) if hand.feasible() else (NEG, [], 0)
    feasible = matched >= 0
    score = total - matched if feasible else total
    if house.valid_groups_excused and score > 0:
        # Every valid group is excused whatever the need: the most value matched, unconstrained
        # (no declaration without score 0, which the constrained search found if it exists).
        matched, used, unmatched = _search(hand, hand.progress.done, stats)
        result = present_groups(hand, used, unmatched, joker_cards, wild_rank, preset, house)
        return _checked(result, min(total - matched, preset.cap))
    return _finish(hand, joker_cards, wild_rank, preset, house, total, matched, used, unmatched,
                   stats)  # fmt: skip


def _arrange_counted(
    hand: Hand,
    joker_cards: list[int],
    wild_rank: int,
    preset: IndianPreset,
    house: HouseRules,
    total: int,
    stats: dict[str, int] | None,
) -> HandResult:
    """``_arrange`` where the jokers left over may count points (``spare_jokers``)."""
    values = value_table(wild_rank, house.ace_points)
    progress = 0
    found = (
        counted_search(hand, 0, joker_cards, values, _search, stats) if hand.feasible() else None
    )
    if house.valid_groups_excused and (found is None or found[0] < total):
        progress = hand.progress.done
        found = counted_search(hand, progress, joker_cards, values, _search, stats)
    if found is None or (progress == 0 and found[0] < 0):
        return _finish(hand, joker_cards, wild_rank, preset, house, total, NEG, [], 0, stats)
    matched, used, unmatched, spares = found
    relief = _relief(hand, values) if preset.pure_sequence_relief else None
    if relief is not None and total - _excused(hand, relief, values) < total - matched:
        return _finish(hand, joker_cards, wild_rank, preset, house, total, NEG, [], 0, stats)
    result = present_counted(
        hand, used, unmatched, joker_cards, wild_rank, preset, house, spares, progress,
        _absorber(hand, 1 << 30, True),
    )  # fmt: skip
    score = min(total - matched, preset.cap)
    if not progress and score == 0 and not result.valid:
        naturals = matched - spares.total
        result = _declared(hand, naturals, joker_cards, wild_rank, preset, house, stats) or result
    return _checked(result, score)


def _finish(
    hand: Hand,
    joker_cards: list[int],
    wild_rank: int,
    preset: IndianPreset,
    house: HouseRules,
    total: int,
    matched: int,
    used: list[Candidate],
    unmatched: int,
    stats: dict[str, int] | None,
) -> HandResult:
    """The arrangement shown for the constrained search's result: the relief's, every card
    counted, or a declaration that places every joker."""
    feasible = matched >= 0
    score = total - matched if feasible else total
    values = value_table(wild_rank, house.ace_points)
    relief = _relief(hand, values) if preset.pure_sequence_relief else None
    if relief is not None and total - _excused(hand, relief, values) < score:
        # Only the pure sequence is excused: show it and leave the rest together.
        score = total - _excused(hand, relief, values)
        used = [relief]
        unmatched = ((1 << hand.n) - 1) & ~relief[0]
    elif not feasible:
        # Every card counts whatever the grouping: show the groups the cards do make.
        _, used, unmatched = _search(hand, hand.progress.done, stats)
    result = present_groups(hand, used, unmatched, joker_cards, wild_rank, preset, house)
    if feasible and not result.valid and score == 0:
        result = _declared(hand, matched, joker_cards, wild_rank, preset, house, stats) or result
    return _checked(result, min(score, preset.cap))


def _declared(
    hand: Hand,
    matched: int,
    joker_cards: list[int],
    wild_rank: int,
    preset: IndianPreset,
    house: HouseRules,
    stats: dict[str, int] | None,
) -> HandResult | None:
    """Where the groups that count least (``matched``: the natural cards' points) leave jokers
    with no valid place, a declaration with other groups (valid means nothing counts, so the same
    score), or ``None``. A capped set's room is not counted: trusted to take the jokers, then
    not trusted."""
    for room in (4, 0) if house.sets_up_to_four else (1 << 30,):
        placed, used, unmatched = _search(hand, 0, stats, True, room)
        if placed == matched:
            declared = present_groups(hand, used, unmatched, joker_cards, wild_rank, preset, house)
            if declared.valid:
                return declared
    return None


def _relief(hand: Hand, values: tuple[int, ...]) -> Candidate | None:
    """The pure sequence the relief excuses: the one worth most."""
    return max(
        (cand for group in hand.cands for cand in group if cand[4] in (PURE, WILD_PURE)),
        key=lambda cand: _excused(hand, cand, values),
        default=None,
    )


def _excused(hand: Hand, cand: Candidate, values: tuple[int, ...]) -> int:
    """The points a pure sequence excuses: its natural cards and its own wild card."""
    if cand[4] != WILD_PURE:
        return cand[3]
    suit = hand.nat[(cand[0] & -cand[0]).bit_length() - 1] // 13
    return cand[3] + values[suit * 13 + hand.wild_rank - 1]


def _checked(result: HandResult, expected: int) -> HandResult:
    """``result``, scored as the search found (else the search and the scoring disagree)."""
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

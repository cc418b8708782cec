"""The best arrangement's groups as cards (``rules.indian.arrangement``): the jokers handed out
(the ones no group needs placed where they keep the hand valid), groups ordered pure sequences
first, then impure sequences, then sets, and each group's cards in reading order."""

from __future__ import annotations

from collections import Counter

from rules.indian.candidates import WILD_PURE, Candidate, Hand
from rules.indian.cards import CARDS, JOKER_CODE, Card, joker_table, wild_rank_of
from rules.indian.groups import GroupKind, classify_group
from rules.indian.hand import HandResult, score_groups
from rules.indian.preset import HouseRules, IndianPreset

_ORDER = {
    GroupKind.PURE_SEQUENCE: 0,
    GroupKind.IMPURE_SEQUENCE: 1,
    GroupKind.SET: 2,
    GroupKind.INVALID: 3,
}


def present_groups(
    hand: Hand,
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
        if cand[4] == WILD_PURE:
            suit = nat[(cand[0] & -cand[0]).bit_length() - 1] // 13
            wilds.remove(suit * 13 + wild_rank - 1)
    for cand in used:
        cards = [nat[i] for i in range(hand.n) if cand[0] >> i & 1]
        if cand[4] == WILD_PURE:
            cards.append(cards[0] // 13 * 13 + wild_rank - 1)
        else:
            for _ in range(cand[2]):
                cards.append(printed.pop() if printed else _wild_taken(wilds))
        built.append(cards)
    spare = printed + wilds
    leftover = [nat[i] for i in range(hand.n) if unmatched >> i & 1]
    kinds = [classify_group(cards, wild, house) for cards in built]
    if spare and not leftover:
        return _best_with_spares(built, kinds, spare, wild, preset, house)
    best = shown_scored(built, kinds, [*leftover, *spare], wild, preset, house)
    # Spare jokers left with unmatched cards may instead be a set of their own, where the house
    # allows one: a group more, which a declaration counting groups may need (the search counted
    # it so).
    for apart in _joker_sets_apart(built, kinds, spare, leftover, wild, preset, house):
        if (not apart.valid, apart.score) < (not best.valid, best.score):
            best = apart
    return best


def _wild_taken(wilds: list[int]) -> int:
    """A wild card for a group, from the suit with most left: the rest keep as many suits as
    they can for a natural set of the wild rank (8S 8S 8H 8C: 8S goes, 8S 8H 8C stay a set)."""
    left = Counter(card // 13 for card in wilds)
    card = max(wilds, key=lambda card: (left[card // 13], card))
    wilds.remove(card)
    return card


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
    taking the rest) beside the groups ``built``, ``leftover`` unmatched; where the house allows
    no set of jokers only, as natural sets of the wild rank, the jokers they leave joining a group
    that takes them (or the leftover)."""
    if not house.jokers_only_set and not house.jokers_only_sequence:
        return _natural_sets_apart(built, kinds, spare, leftover, wild, preset, house)
    tries = []
    for sets in range(1, len(spare) // 3 + 1):
        if house.sets_up_to_four:  # as even as they go, so that none has more than four
            alone = [spare[k::sets] for k in range(sets)]
        else:
            alone = [spare[3 * k : 3 * k + 3] for k in range(sets - 1)] + [spare[3 * (sets - 1) :]]
        grouped = [*(list(cards) for cards in built), *alone]
        grouped_kinds = [*kinds, *(classify_group(cards, wild, house) for cards in alone)]
        tries.append(shown_scored(grouped, grouped_kinds, leftover, wild, preset, house))
    return tries


def _natural_sets_apart(
    built: list[list[int]],
    kinds: list[GroupKind],
    spare: list[int],
    leftover: list[int],
    wild: int,
    preset: IndianPreset,
    house: HouseRules,
) -> list[HandResult]:
    """The ``spare`` jokers as one or two natural sets of the wild rank (different suits, three
    first from the suits with most cards, then a fourth where its suit is missing), the rest
    joining a group that takes them, else the leftover."""
    tries = []
    for count in (1, 2):
        by_suit: dict[int, list[int]] = {}
        rest: list[int] = []
        for card in spare:
            (rest if card == JOKER_CODE else by_suit.setdefault(card // 13, [])).append(card)
        sets: list[list[int]] = []
        for _ in range(count):
            suits = sorted(by_suit, key=lambda suit: -len(by_suit[suit]))[:3]
            if len(suits) < 3:
                break
            sets.append([by_suit[suit].pop() for suit in suits])
            by_suit = {suit: cards for suit, cards in by_suit.items() if cards}
        if len(sets) < count:
            break
        for suit, cards in by_suit.items():
            for card in cards:
                free = [kept for kept in sets if len(kept) < 4 and suit not in _suits(kept)]
                (free[0] if free else rest).append(card)
        grouped = [*(list(cards) for cards in built), *sets]
        grouped_kinds = [*kinds, *(classify_group(cards, wild, house) for cards in sets)]
        target = _spare_target(kinds, built, len(rest), _set_room(house)) if rest else None
        if target is not None:
            grouped[target] = [*grouped[target], *rest]
            grouped_kinds[target] = classify_group(grouped[target], wild, house)
            rest = []
        tries.append(shown_scored(grouped, grouped_kinds, [*leftover, *rest], wild, preset, house))
    return tries


def _set_room(house: HouseRules) -> int:
    """How many cards a set may hold."""
    return 4 if house.sets_up_to_four else 1 << 30


def _suits(cards: list[int]) -> set[int]:
    return {card // 13 for card in cards}


def shown_scored(
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
        return shown_scored(cards, grouped_kinds, [], wild, preset, house)

    tries = []
    target = _spare_target(kinds, built, len(spare), _set_room(house))
    if target is not None:
        tries.append(joined(target))
    tries += _joker_sets_apart(built, kinds, spare, [], wild, preset, house)
    if house.sets_up_to_four:  # capped sets may take them one or two at a time
        spread = _spread(built, kinds, spare, wild, house)
        if spread is not None:
            tries.append(shown_scored(spread, kinds, [], wild, preset, house))
    cut, cut_kinds = [list(cards) for cards in built], list(kinds)
    if _split_for_spares(cut, cut_kinds, spare, wild, house):
        tries.append(shown_scored(cut, cut_kinds, [], wild, preset, house))
    for k, kind in enumerate(kinds):
        if kind is GroupKind.PURE_SEQUENCE and k != target and len(built[k]) + len(spare) <= 13:
            tries.append(joined(k))
    tries.append(shown_scored(built, kinds, spare, wild, preset, house))
    return min(tries, key=lambda result: (not result.valid, result.score))


def _spread(
    built: list[list[int]], kinds: list[GroupKind], spare: list[int], wild: int, house: HouseRules
) -> list[list[int]] | None:
    """The spare jokers handed to the sets with room (four cards at most) and impure sequences,
    one at a time; ``None`` when they do not all fit."""
    groups = [list(cards) for cards in built]
    for card in spare:
        home = next(
            (
                group
                for group, kind in zip(groups, kinds, strict=True)
                if (kind is GroupKind.SET and len(group) < 4)
                or (kind is GroupKind.IMPURE_SEQUENCE and len(group) < 13)
            ),
            None,
        )
        if home is None:
            return None
        home.append(card)
    if any(classify_group(g, wild, house) is not k for g, k in zip(groups, kinds, strict=True)):
        return None
    return groups


def _spare_target(
    kinds: list[GroupKind], built: list[list[int]], spare: int, set_room: int = 1 << 30
) -> int | None:
    """A group that can take the spare jokers and stay valid: a set, an impure sequence, or a pure
    sequence when another pure one remains. Never the only pure sequence here: whether it may
    take them depends on what the declaration needs and on the relief (``_best_with_spares``)."""
    for wanted in (GroupKind.SET, GroupKind.IMPURE_SEQUENCE):
        room = set_room if wanted is GroupKind.SET else 13
        for k, kind in enumerate(kinds):
            if kind is wanted and len(built[k]) + spare <= room:
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
    if kind is GroupKind.IMPURE_SEQUENCE and any(not jokers_of[card] for card in cards):
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

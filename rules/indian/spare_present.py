"""The best arrangement where the jokers left over may count points (``spare_jokers``): the
search, once for each wild card a run made pure by it may take, and the groups it found as
cards, with the jokers handed out as the search counted them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Protocol

from rules.indian.arrangement_cards import shown_scored
from rules.indian.candidates import WILD_PURE, Candidate, Hand
from rules.indian.groups import GroupKind, classify_group
from rules.indian.hand import HandResult, why_every_card_counts
from rules.indian.preset import Declaration, HouseRules, IndianPreset
from rules.indian.spare_jokers import Spares, spares_of, split_pool

Found = tuple[int, list[Candidate], int, Spares]


class Search(Protocol):
    def __call__(
        self,
        hand: Hand,
        progress: int,
        stats: dict[str, int] | None = None,
        place_spares: bool = False,
        set_room: int = 1 << 30,
        spares: Spares | None = None,
    ) -> tuple[int, list[Candidate], int]: ...


def _suit_of(hand: Hand, cand: Candidate) -> int:
    return hand.nat[(cand[0] & -cand[0]).bit_length() - 1] // 13


def counted_search(
    hand: Hand,
    progress: int,
    joker_cards: list[int],
    values: tuple[int, ...],
    search: Search,
    stats: dict[str, int] | None,
) -> Found | None:
    """The most value matched (the jokers' points included) from ``progress``, its groups, the
    cards left unmatched and the spares it counted with; ``None`` when the hand has no joker
    that counts. A run made pure by its own wild card takes that very card, which matters only
    where one pure sequence is the whole need: there the search runs without such runs and once
    for each suit's, its card out of the pool."""
    base = spares_of(joker_cards, values, hand.house)
    if base is None:
        return None
    suits = sorted(
        {_suit_of(hand, cand) for group in hand.cands for cand in group if cand[4] == WILD_PURE}
    )
    if hand.house.declaration is not Declaration.PURE_SEQUENCE or progress or not suits:
        return (*search(hand, progress, stats, spares=base), base)
    best: Found | None = None
    for suit in [None, *suits]:
        spares = base
        if suit is not None:
            taken = suit * 13 + hand.wild_rank - 1
            spares = spares_of(joker_cards, values, hand.house, taken) or base
        variant = copy.copy(hand)
        variant.cands = [
            [c for c in group if c[4] != WILD_PURE or _suit_of(hand, c) == suit]
            for group in hand.cands
        ]
        matched, used, unmatched = search(variant, progress, stats, spares=spares)
        if best is None or matched > best[0]:
            best = (matched, used, unmatched, spares)
    return best


def present_counted(
    hand: Hand,
    used: list[Candidate],
    unmatched: int,
    joker_cards: list[int],
    wild: int,
    preset: IndianPreset,
    house: HouseRules,
    spares: Spares,
    progress: int,
    absorbs: Callable[[Candidate, int], int],
) -> HandResult:
    """The search's groups as cards, the jokers handed out as it counted them: groups of their
    own, as many as the groups can take into them (valued ones first), the rest unmatched."""
    nat, wild_rank = hand.nat, hand.wild_rank
    pool = list(joker_cards)
    for cand in used:
        if cand[4] == WILD_PURE:
            pool.remove(_suit_of(hand, cand) * 13 + wild_rank - 1)
    nxt, done, _ = hand.progress
    level, room = progress, 0
    for cand in used:  # what the groups can take, in the order the search chose them
        room = min(hand.jokers, room + absorbs(cand, level))
        level = nxt[cand[4]][level]
    stand = sum(cand[2] for cand in used if cand[4] != WILD_PURE)
    left = len(pool) - stand
    if progress < done and house.declaration is Declaration.TWO_SEQUENCES and level == done:
        room = left  # two sequences leave a sequence that takes any jokers
    counts_groups = house.declaration is Declaration.MIN_GROUPS
    groups = 0 if level == done else done - level if counts_groups else 1
    split = split_pool(pool, stand, room, groups, spares)
    stand_ins = list(split.stand_ins)
    built: list[list[int]] = []
    for cand in used:
        cards = [nat[i] for i in range(hand.n) if cand[0] >> i & 1]
        if cand[4] == WILD_PURE:
            cards.append(_suit_of(hand, cand) * 13 + wild_rank - 1)
        else:
            cards.extend(stand_ins.pop() for _ in range(cand[2]))
        built.append(cards)
    built += split.own
    kinds = [classify_group(cards, wild, house) for cards in built]
    unplaced = list(split.unplaced)
    for card in split.placed:
        if not _place(built, kinds, card, wild, house, progress < done):
            unplaced.append(card)
    leftover = [nat[i] for i in range(hand.n) if unmatched >> i & 1]
    return shown_scored(built, kinds, [*leftover, *unplaced], wild, preset, house)


def _place(
    built: list[list[int]],
    kinds: list[GroupKind],
    card: int,
    wild: int,
    house: HouseRules,
    keep_need: bool,
) -> bool:
    """Put a spare joker into a group that stays valid, the need still met where it was and
    ``keep_need`` (impure sequences first, then sets, then pure sequences)."""
    met = keep_need and why_every_card_counts(kinds, house) is None
    order = sorted(range(len(built)), key=lambda k: ("impure_sequence", "set").index(kinds[k])
                   if kinds[k] in ("impure_sequence", "set") else 2)  # fmt: skip
    for k in order:
        if not kinds[k].is_valid:
            continue
        kind = classify_group([*built[k], card], wild, house)
        trial = [*kinds[:k], kind, *kinds[k + 1 :]]
        if kind.is_valid and (not met or why_every_card_counts(trial, house) is None):
            built[k].append(card)
            kinds[k] = kind
            return True
    return False

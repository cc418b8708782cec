"""Scoring a hand as the player grouped it: declaration validity and the points it counts.

- Valid declaration: 13 cards, every group valid, and the preset's ``declaration`` need met (by
  default at least two sequences, at least one pure).
- Hand score: when the grouping meets that need, only the cards outside valid groups count
  (cards of invalid groups do; jokers are worth 0); otherwise every card counts.
  ``pure_sequence_relief`` (off by default) also excuses the cards of a pure sequence when the
  need is not met; the house rule ``valid_groups_excused`` excuses every valid group's cards
  whether the need is met or not (validity still needs it). The score is capped (80).
- House rule ``all_sets_declaration``: a hand of natural sets only (all triplets) is also a valid
  declaration, scoring 0; it excuses nothing in a hand that is not all natural sets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from rules.errors import RuleViolation
from rules.indian.cards import JOKER_CODE, NAMES, Card, check_copies, value_table
from rules.indian.groups import IMPURE, INVALID, PURE, GroupKind, classify_group
from rules.indian.preset import (
    DEFAULT_HOUSE_RULES,
    DEFAULT_PRESET,
    Declaration,
    HouseRules,
    IndianPreset,
)

HAND_SIZE = 13


class ScoredGroup(NamedTuple):
    """One group of a hand and the kind it makes."""

    cards: tuple[Card, ...]
    kind: GroupKind

    def as_dict(self) -> dict[str, object]:
        return {"cards": [NAMES[card] for card in self.cards], "kind": self.kind.value}


class HandResult(NamedTuple):
    """A scored hand: whether it is a valid declaration, the points it counts (capped), and its
    groups in order (for a best arrangement, the unused cards come last as one ``invalid``
    group)."""

    valid: bool
    score: int
    groups: tuple[ScoredGroup, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for group in self.groups for card in group.cards)

    def as_dict(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "score": self.score,
            "groups": [group.as_dict() for group in self.groups],
        }


def check_hand_size(count: int, expected: int = HAND_SIZE) -> None:
    if count != expected:
        raise RuleViolation(
            "wrong_card_count",
            f"a hand has {expected} cards, not {count}",
            token=None,
            details={"count": count, "expected": expected},
        )


def only_unmatched_count(
    sequences: int, pure: int, groups: int = 0, house: HouseRules = DEFAULT_HOUSE_RULES
) -> bool:
    """The hand score's rule: when the valid groups meet the declaration's need (by default two
    sequences, one of them pure), only the cards outside valid groups count; otherwise every card
    does. ``groups`` counts every valid group."""
    need = house.declaration
    if need is Declaration.TWO_SEQUENCES:
        return sequences >= 2 and pure >= 1
    if need is Declaration.PURE_SEQUENCE:
        return pure >= 1
    return groups >= house.min_groups


def why_every_card_counts(
    kinds: Iterable[str], house: HouseRules = DEFAULT_HOUSE_RULES
) -> str | None:
    """For a grouping's kinds, why every card counts (``"no_pure_sequence"``, ``"one_sequence"``
    or ``"too_few_groups"``), or ``None`` when only the cards outside valid groups do."""
    kinds = list(kinds)
    pure = kinds.count(PURE)
    groups = len(kinds) - kinds.count(INVALID)
    if only_unmatched_count(pure + kinds.count(IMPURE), pure, groups, house):
        return None
    if house.declaration is Declaration.MIN_GROUPS:
        return "too_few_groups"
    return "one_sequence" if pure else "no_pure_sequence"


def is_natural_set(cards: Sequence[Card]) -> bool:
    """Three or four cards of one rank and different suits, no printed joker (a wild-rank card
    is its own rank here: 8H 8S 8D with 8 wild is a natural set)."""
    codes = [int(card) for card in cards]
    return (
        3 <= len(codes) <= 4
        and JOKER_CODE not in codes
        and len({code % 13 for code in codes}) == 1
        and len({code // 13 for code in codes}) == len(codes)
    )


def natural_sets(cards: Sequence[Card]) -> list[tuple[Card, ...]] | None:
    """The cards split into natural sets (``is_natural_set``), or ``None`` if they do not split.

    A rank's ``n`` cards split into ``k`` sets when no suit has more than ``k`` copies and
    ``3k <= n <= 4k``; sorted by suit and dealt round the ``k`` sets, no set gets a suit twice."""
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards):
        if int(card) == JOKER_CODE:
            return None
        by_rank.setdefault(int(card) % 13, []).append(card)
    sets: list[tuple[Card, ...]] = []
    for same_rank in by_rank.values():
        most = max(Counter(int(card) // 13 for card in same_rank).values())
        count = len(same_rank)
        k = max(most, -(-count // 4))
        if 3 * k > count:
            return None
        sets.extend(tuple(same_rank[start::k]) for start in range(k))
    return sets if sets else None


def score_groups(
    groups: Iterable[Sequence[Card]],
    wild_rank: int,
    preset: IndianPreset = DEFAULT_PRESET,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> HandResult:
    """Score a grouping of any number of cards (no count or copy checks; see
    ``score_declaration``). ``valid`` means every group valid and the declaration's need met.
    ``wild_rank`` is the wild as ``rules.indian.cards.parse_wild`` reads it."""
    values = value_table(wild_rank, house.ace_points)
    scored: list[ScoredGroup] = []
    sequences = pure = groups_valid = 0
    total = unmatched = pure_points = 0
    all_valid = True
    get_value = values.__getitem__
    make = tuple.__new__
    for group in groups:
        cards = group if type(group) is tuple else tuple(group)
        kind = classify_group(cards, wild_rank, house)
        points = sum(map(get_value, cards))
        total += points
        if kind is INVALID:
            all_valid = False
            unmatched += points
            scored.append(make(ScoredGroup, (cards, kind)))
            continue
        groups_valid += 1
        if kind is PURE:
            sequences += 1
            pure += 1
            pure_points = max(pure_points, points)
        elif kind is IMPURE:
            sequences += 1
        scored.append(make(ScoredGroup, (cards, kind)))
    if only_unmatched_count(sequences, pure, groups_valid, house):
        return HandResult(all_valid, min(unmatched, preset.cap), tuple(scored))
    if house.all_sets_declaration and scored and all(is_natural_set(g.cards) for g in scored):
        return HandResult(True, 0, tuple(scored))  # all triplets: a declaration of its own
    if house.valid_groups_excused:  # the need still decides validity, no longer the points
        return HandResult(False, min(unmatched, preset.cap), tuple(scored))
    if pure and preset.pure_sequence_relief:
        total -= pure_points  # one pure sequence is excused: the one worth most
    return HandResult(False, min(total, preset.cap), tuple(scored))


def score_declaration(
    groups: Sequence[Sequence[Card]],
    wild_rank: int,
    preset: IndianPreset = DEFAULT_PRESET,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> HandResult:
    """Validate and score a declared 13-card hand, grouped as the player grouped it.

    Raises ``too_many_copies`` (more copies than ``preset.decks`` hold) or ``wrong_card_count``."""
    cards = [card for group in groups for card in group]
    check_copies(cards, preset.decks)
    check_hand_size(len(cards))
    return score_groups(groups, wild_rank, preset, house)

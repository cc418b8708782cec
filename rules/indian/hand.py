"""Scoring a hand as the player grouped it: declaration validity and the points it counts.

- Valid declaration: 13 cards, every group valid, at least two sequences, at least one pure.
- Hand score: with at least two valid sequences, one of them pure, only the cards outside valid
  groups count (cards of invalid groups do; jokers are worth 0); otherwise every card counts.
  ``pure_sequence_relief`` (off by default) also excuses the cards of a pure sequence when the
  second sequence is missing. The score is capped (80).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from rules.errors import RuleViolation
from rules.indian.cards import NAMES, Card, check_copies, value_table
from rules.indian.groups import IMPURE, INVALID, PURE, GroupKind, classify_group
from rules.indian.preset import DEFAULT_PRESET, IndianPreset

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


def only_unmatched_count(sequences: int, pure: int) -> bool:
    """The hand score's rule: with two sequences, one of them pure, only the cards outside valid
    groups count; otherwise every card does."""
    return sequences >= 2 and pure >= 1


def why_every_card_counts(kinds: Iterable[str]) -> str | None:
    """For a grouping's kinds, why every card counts (``"no_pure_sequence"`` or
    ``"one_sequence"``), or ``None`` when only the cards outside valid groups do."""
    kinds = list(kinds)
    pure = kinds.count(PURE)
    if only_unmatched_count(pure + kinds.count(IMPURE), pure):
        return None
    return "one_sequence" if pure else "no_pure_sequence"


def score_groups(
    groups: Iterable[Sequence[Card]],
    wild_rank: int,
    preset: IndianPreset = DEFAULT_PRESET,
) -> HandResult:
    """Score a grouping of any number of cards (no count or copy checks; see
    ``score_declaration``). ``valid`` means every group valid with two sequences, one pure."""
    values = value_table(wild_rank)
    scored: list[ScoredGroup] = []
    sequences = pure = 0
    total = unmatched = pure_points = 0
    all_valid = True
    get_value = values.__getitem__
    make = tuple.__new__
    for group in groups:
        cards = group if type(group) is tuple else tuple(group)
        kind = classify_group(cards, wild_rank)
        points = sum(map(get_value, cards))
        total += points
        if kind is INVALID:
            all_valid = False
            unmatched += points
        elif kind is PURE:
            sequences += 1
            pure += 1
            pure_points += points
        elif kind is IMPURE:
            sequences += 1
        scored.append(make(ScoredGroup, (cards, kind)))
    if only_unmatched_count(sequences, pure):
        return HandResult(all_valid, min(unmatched, preset.cap), tuple(scored))
    if pure and preset.pure_sequence_relief:
        total -= pure_points
    return HandResult(False, min(total, preset.cap), tuple(scored))


def score_declaration(
    groups: Sequence[Sequence[Card]],
    wild_rank: int,
    preset: IndianPreset = DEFAULT_PRESET,
) -> HandResult:
    """Validate and score a declared 13-card hand, grouped as the player grouped it.

    Raises ``too_many_copies`` (more copies than ``preset.decks`` hold) or ``wrong_card_count``."""
    cards = [card for group in groups for card in group]
    check_copies(cards, preset.decks)
    check_hand_size(len(cards))
    return score_groups(groups, wild_rank, preset)

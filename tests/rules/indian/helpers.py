"""Small helpers for the Indian rummy tests: hands written in the rules' plain-text notation."""

from __future__ import annotations

from rules.indian import (
    DEFAULT_PRESET,
    GroupKind,
    HandResult,
    IndianPreset,
    arrange,
    classify_group,
    parse_cards,
    parse_hand_text,
    parse_wild,
    score_declaration,
)


def kind(text: str, wild: str) -> GroupKind:
    """The kind of one group, e.g. ``kind("5H 6H 7H", "6")``."""
    return classify_group(parse_cards(text.split()), parse_wild(wild))


def declared(text: str, wild: str, preset: IndianPreset = DEFAULT_PRESET) -> HandResult:
    """A declared 13-card hand, groups separated by ``|``."""
    return score_declaration(parse_hand_text(text), parse_wild(wild), preset)


def best(text: str, wild: str, preset: IndianPreset = DEFAULT_PRESET) -> HandResult:
    """The best arrangement of ungrouped cards (any number; ``|`` ignored)."""
    return arrange(parse_cards(text.replace("|", " ").split()), parse_wild(wild), preset)


def shown(result: HandResult) -> str:
    return " | ".join(" ".join(map(str, group.cards)) for group in result.groups)

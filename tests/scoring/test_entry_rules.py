"""What the entry pages' scripts are given is the rules engine's own answer: every card spelling
reads as the engine reads it, every cut card makes the rank the engine makes wild, and every tile
counts what the engine counts."""

from __future__ import annotations

from rules.indian.cards import NAMES, PRINTED_JOKER, format_rank, parse_card, parse_wild
from rules.indian.deal import outcome_options
from rules.indian.preset import IndianPreset
from rules.rummikub import INTERNATIONAL, SABRA_JOKER_25, melded_hand_value, rack_total
from rules.rummikub.tiles import parse_tile
from scoring.formats.indian.entry_rules import deal_entry_rules
from scoring.formats.rummikub.entry_rules import rack_entry_rules


def test_the_card_notation_is_the_engines():
    preset = IndianPreset.for_deals(2)
    rules = deal_entry_rules(preset, outcome_options(preset))
    cards = rules["cards"]
    for spelling, code in cards["spellings"].items():
        assert NAMES[parse_card(spelling)] == code
        assert NAMES[parse_card(spelling.lower())] == code
    for spelling in ["10♥\ufe0f", "th", "Pj", "joker", "q♠"]:
        assert NAMES[parse_card(spelling)] == cards["spellings"][spelling.upper()]
    for spelling, rank in cards["wild"].items():
        assert format_rank(parse_wild(spelling)) == rank
    assert cards["wild"]["T"] == "10" and cards["wild"]["JK"] == "A"
    assert list(cards["deck"]) == [NAMES[code] for code in range(52)]
    assert cards["joker"] == NAMES[PRINTED_JOKER]


def test_the_outcomes_are_the_presets():
    preset = IndianPreset.for_deals(2)
    rules = deal_entry_rules(preset, outcome_options(preset))
    assert rules["hand_size"] == 13 and rules["decks"] == preset.decks
    assert rules["winner"] == "winner"
    assert "first_drop" not in rules["outcomes"]
    assert rules["outcomes"]["loser"] == {
        "low": 0, "high": preset.cap, "cards": True, "valid": False, "evaluate_as": "hand"
    }  # fmt: skip


def test_each_tile_counts_what_the_engine_counts():
    for preset, international, count in [
        (SABRA_JOKER_25, False, lambda tile: rack_total([tile], SABRA_JOKER_25.joker_value)),
        (INTERNATIONAL, True, lambda tile: melded_hand_value([tile], INTERNATIONAL)),
    ]:
        rules = rack_entry_rules(preset, international=international)
        assert rules["closed_hand_size"] == 14
        assert len(rules["tiles"]) == 105  # 52 number tiles, a joker, a joker for each
        for spelling, tile in rules["tiles"].items():
            parsed = parse_tile(spelling)
            assert (tile["colour"], tile["number"]) == (parsed.colour, parsed.number)
            assert tile["value"] == count(spelling)

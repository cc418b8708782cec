"""Tiles and notation (rummikub.md, "Tiles and notation")."""

import pytest

from rules.errors import RuleViolation
from rules.rummikub import Tile, check_copies, parse_tile, parse_tiles
from rules.rummikub.tiles import JOKER, NUMBER_TILES, joker_as, tile_from_code


def test_notation_colour_letter_then_number():
    """rummikub.md: colour letter then number, K black, R red, B blue, O orange."""
    assert parse_tile("R5") == Tile("R", 5)
    assert parse_tile("K13") == Tile("K", 13)
    assert parse_tile("B1") == Tile("B", 1)
    assert parse_tile("O7") == Tile("O", 7)
    assert str(parse_tile("K13")) == "K13"


def test_notation_is_case_insensitive_and_canonical_output_is_upper_case():
    """rummikub.md: input is case-insensitive."""
    assert parse_tile("r5") is parse_tile("R5")
    assert str(parse_tile(" o12 ")) == "O12"
    assert str(parse_tile("jk")) == "JK"
    assert str(parse_tile("jk=r7")) == "JK=R7"


def test_joker_may_carry_what_it_stands_for():
    """rummikub.md: joker JK; a joker may carry what it stands for, JK=R7."""
    joker = parse_tile("JK=R7")
    assert joker.is_joker and joker.stands_for == Tile("R", 7)
    assert parse_tile("JK").is_joker and parse_tile("JK").stands_for is None
    assert joker_as(Tile("R", 7)) is joker


def test_106_tiles_numbers_1_to_13_in_four_colours():
    """rummikub.md: 106 tiles, numbers 1 to 13 in four colours, two of each, and two jokers."""
    assert len(NUMBER_TILES) == 52
    assert {t.colour for t in NUMBER_TILES} == {"K", "R", "B", "O"}
    assert {t.number for t in NUMBER_TILES} == set(range(1, 14))
    assert [tile_from_code(t.code) for t in NUMBER_TILES] == list(NUMBER_TILES)
    assert tile_from_code(52) is JOKER
    check_copies([*NUMBER_TILES, *NUMBER_TILES, JOKER, JOKER])  # a whole set is fine


@pytest.mark.parametrize(
    "text", ["R0", "R14", "X5", "5R", "R", "", "JK=JK", "JK=R14", "R05", "R 5", "JKR7", "J K"]
)
def test_bad_tile_names_the_token(text):
    with pytest.raises(RuleViolation) as caught:
        parse_tile(text)
    assert caught.value.code == "bad_tile"
    assert caught.value.token == text


@pytest.mark.parametrize("value", [5, None, ["R5"], 3.5, {"R": 5}])
def test_non_string_tiles_are_bad_tiles(value):
    with pytest.raises(RuleViolation) as caught:
        parse_tile(value)
    assert caught.value.code == "bad_tile"


def test_parse_tiles_needs_a_list():
    assert parse_tiles(["r5", "JK"]) == (Tile("R", 5), JOKER)
    with pytest.raises(RuleViolation) as caught:
        parse_tiles("R5 R6")
    assert caught.value.code == "bad_field"


def test_more_than_two_copies_is_an_error_naming_the_tile():
    """rummikub.md: more than two copies of a tile in one game is an error naming the tile."""
    with pytest.raises(RuleViolation) as caught:
        check_copies(parse_tiles(["R5", "r5", "K1", "R5"]))
    assert caught.value.code == "too_many_copies"
    assert caught.value.token == "R5"
    assert caught.value.details == {"count": 3}


def test_more_than_two_jokers_is_an_error_naming_the_joker():
    """rummikub.md: more than two jokers in one game is an error naming the tile."""
    with pytest.raises(RuleViolation) as caught:
        check_copies(parse_tiles(["JK", "JK=R7", "jk"]))
    assert caught.value.code == "too_many_copies"
    assert caught.value.token == "JK"


def test_a_joker_written_jk_r7_counts_as_a_joker_not_as_r7():
    """docs/rules.md Decision: JK=R7 is a joker for the copy limits; two R7 may be elsewhere."""
    check_copies(parse_tiles(["R7", "R7", "JK=R7"]))
    with pytest.raises(RuleViolation):
        check_copies(parse_tiles(["JK=R7", "JK=R7"]), extra_jokers=1)

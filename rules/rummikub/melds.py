"""Melds (groups and runs) and the initial meld.

* A **group** is 3 or 4 tiles of one number, all colours different.
* A **run** is 3 or more consecutive numbers of one colour, read in the order given (low to high, or
  high to low when its number tiles say so; a run with a single number tile is read low to high).
  Sabra: 1 is always low. American and International: 1 is low or high, never both at once.
* A joker stands for the tile its place in a run says, or in a group for the group's number in a
  missing colour (the first missing one in K, R, B, O order when several are missing). An explicit
  ``JK=R7`` must agree. Three tiles with one number tile and two jokers are read as a run when they
  can be one (or when the jokers' ``JK=`` say so), otherwise as a group.
* A meld's value counts each tile at its number (a 1 counts 1, even high) and each joker as the tile
  it stands for. Under the house rule ``opening_high_as_10``, tiles 10 to 13 (jokers standing for
  them too) count 10 toward the initial meld only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.rummikub.preset import RummikubPreset, preset_for
from rules.rummikub.tiles import COLOURS, NUMBER_TILES, Tile, check_copies, parse_tile

MeldKind = Literal["run", "group", "invalid"]

_COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld as judged: ``jokers`` lists what each joker stands for, in the order given;
    ``reason`` says why an invalid meld is invalid."""

    tiles: tuple[Tile, ...]
    kind: MeldKind
    value: int
    jokers: tuple[Tile, ...] = ()
    reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.kind != "invalid"


@dataclass(frozen=True, slots=True)
class MeldsResult:
    """Several melds played together. ``value`` is the total of the valid melds;
    ``meets_initial_meld`` is ``None`` unless the melds were judged as an initial meld."""

    valid: bool
    value: int
    meets_initial_meld: bool | None
    threshold: int
    melds: tuple[Meld, ...]


def _tile(colour: str, number: int) -> Tile:
    return NUMBER_TILES[_COLOUR_INDEX[colour] * 13 + number - 1]


def _number_at(position: int) -> int:
    return 1 if position == 14 else position


def _run_ascending(tiles: Sequence[Tile], one_high: bool) -> tuple[list[Tile], int] | str:
    """Read ``tiles`` as a run from low to high: (what each joker stands for, value) or a reason."""
    colour: str | None = None
    first = -1
    for index, tile in enumerate(tiles):
        if tile.number is not None:
            if colour is None:
                colour, first = tile.colour, index
            elif tile.colour != colour:
                return f"{tiles[first]} and {tile} differ in colour: a run is one colour"
    if colour is None:
        return "a meld needs at least one number tile"
    length = len(tiles)
    start_number = tiles[first].number
    assert start_number is not None
    base = start_number - first
    if one_high and start_number == 1 and first > 0:
        base = 14 - first  # the first number tile is a 1 after 13
    top = base + length - 1
    if base < 1:
        return f"{tiles[first]} is too low for its place: nothing comes before 1 in a run"
    if top > (14 if one_high else 13):
        if not one_high:
            return "the run goes past 13: in Sabra 1 is always low, nothing follows 13"
        return "nothing follows a 1 after 13: 1 is low or high in a run, not both"
    if base == 1 and top == 14:
        return "1 is low or high in a run, not both at once"
    jokers: list[Tile] = []
    value = 0
    for index, tile in enumerate(tiles):
        number = _number_at(base + index)
        value += number
        if tile.number is None:
            wanted = _tile(colour, number)
            if tile.stands_for is not None and tile.stands_for != wanted:
                return f"{tile} is out of place: the joker there stands for {wanted}"
            jokers.append(wanted)
        elif tile.number != number:
            return f"{tile} is out of sequence: the run needs {_tile(colour, number)} there"
    return jokers, value


def _run(tiles: Sequence[Tile], real: int, one_high: bool) -> tuple[list[Tile], int] | str:
    result = _run_ascending(tiles, one_high)
    if isinstance(result, str) and real >= 2:
        backwards = _run_ascending(tiles[::-1], one_high)
        if not isinstance(backwards, str):
            return backwards[0][::-1], backwards[1]
    return result


def _group(tiles: Sequence[Tile]) -> tuple[list[Tile], int] | str:
    number: int | None = None
    seen: set[str] = set()
    for tile in tiles:
        if tile.number is not None:
            if number is None:
                number = tile.number
            elif tile.number != number:
                return f"{tile} differs in number: a group is one number"
            assert tile.colour is not None
            if tile.colour in seen:
                return f"two {tile} tiles: a group's colours must all differ"
            seen.add(tile.colour)
    if number is None:
        return "a meld needs at least one number tile"
    if len(tiles) > 4:
        return "a group has 3 or 4 tiles, one of each colour"
    taken = set(seen)
    for tile in tiles:
        wanted = tile.stands_for
        if wanted is not None:
            if wanted.number != number or wanted.colour in taken:
                return f"{tile} cannot stand for {wanted} in this group of {number}s"
            assert wanted.colour is not None
            taken.add(wanted.colour)
    free = [colour for colour in COLOURS if colour not in taken]
    jokers: list[Tile] = []
    for tile in tiles:
        if tile.number is None:
            if tile.stands_for is not None:
                jokers.append(tile.stands_for)
            else:
                jokers.append(_tile(free.pop(0), number))
    return jokers, number * len(tiles)


def judge_meld(tiles: tuple[Tile, ...], one_high: bool) -> Meld:
    """The core of :func:`validate_meld` on parsed tiles (``one_high``: 1 may follow 13)."""
    length = len(tiles)
    if length < 3:
        return Meld(tiles, "invalid", 0, reason="a meld needs at least 3 tiles")
    real = 0
    numbers: set[int] = set()
    colours: set[str | None] = set()
    for tile in tiles:
        if tile.number is not None:
            real += 1
            numbers.add(tile.number)
            colours.add(tile.colour)
    if real == 0:
        return Meld(tiles, "invalid", 0, reason="a meld needs at least one number tile")
    result: tuple[list[Tile], int] | str
    if real == 1:
        # One number tile and two jokers: a run when it can be one, otherwise a group.
        result = _run(tiles, real, one_high)
        if not isinstance(result, str):
            return Meld(tiles, "run", result[1], tuple(result[0]))
        as_group = _group(tiles)
        if not isinstance(as_group, str):
            return Meld(tiles, "group", as_group[1], tuple(as_group[0]))
        return Meld(
            tiles, "invalid", 0, reason=f"neither a run ({result}) nor a group ({as_group})"
        )
    if len(numbers) == 1:
        result = _group(tiles)
        kind: MeldKind = "group"
    elif len(colours) == 1:
        result = _run(tiles, real, one_high)
        kind = "run"
    else:
        return Meld(
            tiles,
            "invalid",
            0,
            reason="mixes colours and numbers: a group is one number, a run one colour",
        )
    if isinstance(result, str):
        return Meld(tiles, "invalid", 0, reason=result)
    return Meld(tiles, kind, result[1], tuple(result[0]))


def _opening_value(meld: Meld) -> int:
    """A valid meld's value toward the initial meld with tiles 10 to 13 counting 10."""
    numbers = [tile.number for tile in meld.tiles if tile.number is not None]
    numbers += [tile.number for tile in meld.jokers if tile.number is not None]
    return sum(min(number, 10) for number in numbers)


def validate_meld(tiles: Sequence[Tile | str], rules: RummikubPreset | str = "sabra") -> Meld:
    """Judge one meld under ``rules`` (a preset, or a variant or preset name).

    Raises ``RuleViolation('bad_tile')`` for unreadable tiles; an invalid meld is not an error but a
    ``Meld`` of kind ``"invalid"`` with a ``reason``."""
    preset = preset_for(rules)
    return judge_meld(tuple(parse_tile(tile) for tile in tiles), preset.one_high)


def validate_melds(
    melds: Sequence[Sequence[Tile | str]],
    rules: RummikubPreset | str = "sabra",
    *,
    initial_meld: bool = False,
) -> MeldsResult:
    """Judge melds played together: each meld, their total value and, for an initial meld
    (``initial_meld=True``), whether every meld is valid and the total reaches the preset's
    threshold. Raises ``RuleViolation`` for unreadable tiles and for more copies of a tile than a
    game has (so no tile can be in two melds)."""
    preset = preset_for(rules)
    parsed = [tuple(parse_tile(tile) for tile in meld) for meld in melds]
    check_copies(tile for meld in parsed for tile in meld)
    judged = tuple(judge_meld(meld, preset.one_high) for meld in parsed)
    valid = all(meld.valid for meld in judged)
    value = sum(meld.value for meld in judged)
    threshold = preset.initial_meld_threshold
    if initial_meld and preset.opening_high_as_10:
        value_opening = sum(_opening_value(meld) for meld in judged if meld.valid)
    else:
        value_opening = value
    meets = (valid and value_opening >= threshold) if initial_meld else None
    return MeldsResult(valid, value, meets, threshold, judged)

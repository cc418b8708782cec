"""Writes rummikubconsole.jsonl: 14-tile racks and whether RummikubConsole's solver lays them all.

mjpieters/RummikubConsole (@ d79d70176450b125fc3e64c8ddd0bf42b10dc2b9, locked to
rummikub-solver 1.0.0) has no test cases of its own: its `solve tiles` asks the `rummikub-solver`
package's MILP model (Den Hertog and Hulshof, on cvxpy) for the most tiles a rack can lay on an
empty table, with its default rules (13 numbers, 4 colours, 2 copies, 2 jokers, sets of 3 or
more, runs 1 to 13 with no 1 after 13). This script draws racks from a real bag, asks that
model, and writes each rack as a closed-hand request of the batch contract (type 1, any groups
and runs, under `closed_one_high: false`) with `expect.fits` true when the model lays all 14.

The package is a generator's tool, not a project dependency: run this only in its own venv,

    python3 -m venv /tmp/rs-venv && /tmp/rs-venv/bin/pip install rummikub-solver==1.0.0
    /tmp/rs-venv/bin/python tests/rules/cases/peers/make_rummikubconsole.py \\
        > tests/rules/cases/peers/rummikubconsole.jsonl

The one known difference is the package's own choice, not a rule: it leaves out every set with a
redundant joker (a group of four with a joker, a run of four or five with a joker at an end:
"Solver improvements" in its README), so a rack that lays out only with such a set keeps its
joker (or, as its objective counts every tile alike, another tile in the joker's place).
A rack the shipped model does not lay out is therefore asked again, of the same model over every
valid set; where the two differ the line expects the latter and keeps in `solver` and `note`
what the shipped model answered."""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from itertools import combinations

from rummikub_solver import RuleSet, SolverMode

SEED = 46
#: How many racks of each kind: built from sets, built with a run from 13 to 1, one tile
#: swapped out of a built rack, and drawn blind from the bag.
KINDS = {"built": 1100, "over13": 550, "swapped": 1100, "drawn": 550}
RACK = 14
COLOURS = "KBOR"  # rummikub-solver's Colour order (black, blue, orange, red), in our letters
JOKER = "JK"
NUMBERS = range(1, 14)


class EverySetRuleSet(RuleSet):
    """The shipped model with the sets it leaves out put back: jokers anywhere in any set."""

    def _combine_with_jokers(self, sets, runs=False):
        jokers = [self._joker] * self.jokers
        return {combo for s in sets for combo in combinations([*s, *jokers], len(s))}


def full_bag() -> Counter[str]:
    bag = Counter({f"{colour}{number}": 2 for colour in COLOURS for number in NUMBERS})
    bag[JOKER] = 2
    return bag


def a_set(rng: random.Random, length: int, over13: bool) -> list[str]:
    """A run or group of ``length`` tiles; with ``over13`` a run that goes on from 13 to 1."""
    if not over13 and length <= 4 and rng.random() < 0.4:
        number = rng.choice(NUMBERS)
        return [f"{colour}{number}" for colour in rng.sample(COLOURS, length)]
    colour = rng.choice(COLOURS)
    if over13:
        start = rng.randint(14 - length + 1, 13)
        return [f"{colour}{(start + i - 1) % 13 + 1}" for i in range(length)]
    start = rng.randint(1, 14 - length)
    return [f"{colour}{start + i}" for i in range(length)]


def built_rack(rng: random.Random, over13: bool = False) -> list[str]:
    """14 tiles that are a partition into sets as drawn (one run over 13 with ``over13``),
    a drawn set's tile now and then replaced by a joker."""
    while True:
        bag, rack, left = full_bag(), [], RACK
        while left:
            length = rng.choice([n for n in (3, 4, 5) if n == left or left - n >= 3])
            tiles = a_set(rng, length, over13 and not rack)
            if any(bag[tile] < count for tile, count in Counter(tiles).items()):
                break
            if bag[JOKER] and rng.random() < 0.3:
                tiles[rng.randrange(length)] = JOKER
            bag.subtract(tiles)
            rack += tiles
            left -= length
        else:
            return rack


def swapped_rack(rng: random.Random) -> list[str]:
    """A built rack with one tile put aside and another drawn from the rest of the bag."""
    rack = built_rack(rng, over13=rng.random() < 0.25)
    bag = full_bag()
    bag.subtract(rack)
    rack.pop(rng.randrange(RACK))  # not back in the bag: the drawn tile is another
    rack.append(rng.choice(sorted(bag.elements())))
    return rack


def drawn_rack(rng: random.Random) -> list[str]:
    return rng.sample(sorted(full_bag().elements()), RACK)


class Solver:
    """One rule set of the package (shipped, or with every set) and its answers."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        numbered = {
            f"{COLOURS[(tile - 1) // 13]}{(tile - 1) % 13 + 1}": tile for tile in rules.tiles[:-1]
        }
        self.index = {**numbered, JOKER: rules.tiles[-1]}
        self.name = {tile: name for name, tile in self.index.items()}

    def left_on_rack(self, rack: list[str]) -> list[str]:
        """The tiles the model keeps when it lays as many as it can on an empty table."""
        state = self.rules.new_game()
        state.add_rack(*(self.index[tile] for tile in rack))
        solution = self.rules.solve(state, SolverMode.TILE_COUNT)
        left = Counter(rack)
        if solution is not None:
            left.subtract(self.name[tile] for tile in solution.tiles)
        return sorted(left.elements())


def main() -> None:
    rng = random.Random(SEED)
    shipped, every_set = Solver(RuleSet()), Solver(EverySetRuleSet())
    makers = {
        "built": built_rack,
        "over13": lambda r: built_rack(r, over13=True),
        "swapped": swapped_rack,
        "drawn": drawn_rack,
    }
    number = 0
    for kind, count in KINDS.items():
        for _ in range(count):
            number += 1
            rack = makers[kind](rng)
            left = shipped.left_on_rack(rack)
            line = {
                "id": f"rummikubconsole-{number:04d}",
                "note": f"{kind} rack; rummikub-solver 1.0.0 "
                + (f"keeps {' '.join(left)}" if left else "lays all 14"),
                "game": "rummikub",
                "variant": "international",
                "closed_one_high": False,
                "hand_type": 1,
                "closed_hand": rack,
            }
            fits = not left
            if left and not every_set.left_on_rack(rack):
                fits = True
                line["solver"] = {"fits": False, "left": left, "reason": "redundant_joker"}
                line["note"] += (
                    ": it has no set with a redundant joker; over every valid set it lays all 14"
                )
            line["expect"] = {"fits": fits}
            sys.stdout.write(json.dumps(line, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()

"""What the jokers no group of natural cards needs cost a hand where they do not all count 0
(the house rule ``wild_joker`` ``rank_cut_card_free``: every card of the cut rank is wild, but
left unmatched only the printed joker and the cut card itself count 0, the other wild cards their
face value). The best arrangement's search (``rules.indian.arrangement``) reads it at the end of
each branch, when it knows how many jokers are left and how many its groups can take.

The jokers left may make groups of their own (sets of jokers only, or natural sets of the wild
rank, as the house allows), a group may take some more (``room``), and the rest count; which of
the hand's jokers are the ones left is the hand's choice, so the free ones stay out."""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import NamedTuple

from rules.indian.cards import JOKER_CODE
from rules.indian.preset import HouseRules

#: One way for jokers left over to make groups of their own: (jokers in them, of those the free
#: ones, groups).
Formation = tuple[int, int, int]
#: A formation and, for natural sets of the wild rank, how many wild cards of each suit it takes.
Shaped = tuple[Formation, dict[int, int] | None]


class SpareCosts:
    """The points the jokers left over count, for a hand's ``pool`` of jokers (printed and wild
    cards) of which the cards in ``free`` count 0 and the others ``value`` each."""

    def __init__(self, pool: list[int], free: frozenset[int], value: int, house: HouseRules):
        self.value = value
        self.zeros = sum(1 for card in pool if card in free)
        self.valued = len(pool) - self.zeros
        self.shaped = _formations(pool, free, house)
        self._memo: dict[tuple[int, int, int], int | None] = {}

    def best(self, left: int, room: int, groups: int) -> tuple[int, Shaped] | None:
        """The fewest valued jokers counted when ``left`` are left, groups can take ``room`` of
        them and ``groups`` groups of jokers only are needed, and the formation that does it;
        ``None`` when those groups cannot be made."""
        best: tuple[int, Shaped] | None = None
        for shaped in self.shaped:
            used, free_used, made = shaped[0]
            if used > left or made < groups:
                continue
            counted = max(0, left - room - used - (self.zeros - free_used))
            if best is None or counted < best[0]:
                best = (counted, shaped)
        return best

    def cost(self, left: int, room: int, groups: int) -> int | None:
        """The points ``best`` counts."""
        key = (left, room, groups)
        if key not in self._memo:
            found = self.best(left, room, groups)
            self._memo[key] = None if found is None else found[0] * self.value
        return self._memo[key]


def _formations(pool: list[int], free: frozenset[int], house: HouseRules) -> list[Shaped]:
    """Every way (up to what matters) for jokers of ``pool`` to make groups of their own: valued
    jokers go first where any joker will do, so the free ones are left to count nothing."""
    size = len(pool)
    valued = sum(1 for card in pool if card not in free)
    out: list[Shaped] = [((0, 0, 0), None)]
    if house.jokers_only_sequence or house.jokers_only_set:
        for used in range(3, size + 1):
            if house.sets_up_to_four and not house.jokers_only_sequence and used > 4 * (used // 3):
                continue
            out.append(((used, max(0, used - valued), used // 3), None))
        return out
    # Natural sets of the wild rank: three or four wild cards of different suits each.
    by_suit = Counter(card // 13 for card in pool if card != JOKER_CODE)
    free_suits = {card // 13 for card in free if card != JOKER_CODE}
    suits = sorted(by_suit)
    for sets in (1, 2):
        for counts in product(*(range(min(by_suit[suit], sets) + 1) for suit in suits)):
            if 3 * sets <= sum(counts) <= 4 * sets:
                zero = sum(n for suit, n in zip(suits, counts, strict=True) if suit in free_suits)
                taken = dict(zip(suits, counts, strict=True))
                out.append(((sum(counts), zero, sets), taken))
    return out


class Spares(NamedTuple):
    """What the search needs of a hand whose spare jokers cost points: their costs, every joker's
    points together, and the cards that count 0."""

    costs: SpareCosts
    total: int
    free: frozenset[int]


def spares_of(
    joker_cards: list[int], values: tuple[int, ...], house: HouseRules, taken: int | None = None
) -> Spares | None:
    """The hand's spares, where some of its jokers count points (else ``None``); ``taken``: a
    wild card a group of the search takes for itself (a run made pure by it), out of the pool."""
    pool = list(joker_cards)
    if taken is not None:
        pool.remove(taken)
    valued = [values[card] for card in joker_cards if values[card]]
    if not valued:
        return None
    free = frozenset(card for card in joker_cards if not values[card])
    total = sum(valued)
    return Spares(SpareCosts(pool, free, valued[0], house), total, free)


class Split(NamedTuple):
    """The hand's jokers as the search counted them."""

    own: list[list[int]]  # groups of jokers only
    stand_ins: list[int]  # for the groups of natural cards
    placed: list[int]  # more, for groups that can take them
    unplaced: list[int]  # left unmatched


def split_pool(pool: list[int], stand: int, room: int, groups: int, spares: Spares) -> Split:
    """Hand out ``pool`` (the jokers no run made pure by its own wild card takes): ``stand`` to
    stand in groups of natural cards, the formation the count chose as groups of their own, as
    many as ``room`` into groups that can take them, and the rest (free ones first) unmatched."""
    left = len(pool) - stand
    found = spares.costs.best(left, room, groups)
    order = sorted(pool, key=lambda card: card in spares.free)  # valued first
    if found is None:
        return Split([], order[:stand], [], order[stand:])
    (used, _, made), taken = found[1]
    own: list[list[int]] = [[] for _ in range(made)]
    if taken is not None:
        for suit in sorted(taken, key=lambda suit: -taken[suit]):
            picked = [card for card in order if card != JOKER_CODE and card // 13 == suit]
            for card in picked[: taken[suit]]:
                home = min((g for g in own if all(c // 13 != suit for c in g)), key=len)
                home.append(card)
                order.remove(card)
    elif used:
        chosen, order = order[:used], order[used:]
        own = [chosen[k::made] for k in range(made)]
    unplaced = max(0, left - used - room)
    zeros_first = sorted(order, key=lambda card: card not in spares.free)
    rest, order = zeros_first[:unplaced], zeros_first[unplaced:]
    order.sort(key=lambda card: card in spares.free)
    return Split(own, order[:stand], order[stand:], rest)

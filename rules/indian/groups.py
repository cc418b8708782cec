"""What kind of group a bunch of cards makes: pure sequence, impure sequence, set or invalid.

The rules (``indian-rummy.md``, "Jokers" and "Groups"):

- jokers are the printed joker and every card of the wild rank; a joker stands for any card;
- a sequence is 3+ cards of one suit with consecutive ranks, ace low (A 2 3) or high (Q K A), never
  both, never wrapping (K A 2); order of entry does not matter;
- pure: no joker stands in for a card. A wild-rank card at its own natural place in a same-suit run
  is a natural card there, so the run stays pure; a printed joker is never pure;
- impure: at least one joker stands in;
- set: 3+ cards of one rank, all natural cards of different suits; jokers may stand in and make it
  longer than 4; two natural cards of one suit make it invalid whatever jokers are added;
- Decision: a group made only of jokers (printed or wild rank) is a set, never a sequence (but
  under the house rule ``jokers_only_sequence``);
- Decision: a group that reads as several kinds takes the most favourable: pure sequence, then
  impure sequence, then set.

House rules (``HouseRules``): ``wrap_runs`` (a run may wrap round the king: ``KH AH 2H``),
``joker_limit`` (counting every printed and wild card of a group that is not a pure sequence;
for sequences only under ``joker_limit_scope`` ``sequences``),
``jokers_only_set`` (a group without a natural card is a set, or invalid but for a natural set
of the wild rank, 8H 8S 8D with 8 wild), ``jokers_only_sequence`` (such a group is an impure
sequence instead) and ``wild_joker``
(given as the wild, see ``rules.indian.cards.parse_wild``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from rules.indian.cards import JOKER_CODE, wild_rank_of, wild_table
from rules.indian.preset import DEFAULT_HOUSE_RULES, HouseRules, JokerLimit, JokerLimitScope


class GroupKind(enum.StrEnum):
    PURE_SEQUENCE = "pure_sequence"
    IMPURE_SEQUENCE = "impure_sequence"
    SET = "set"
    INVALID = "invalid"

    @property
    def is_sequence(self) -> bool:
        return self is GroupKind.PURE_SEQUENCE or self is GroupKind.IMPURE_SEQUENCE

    @property
    def is_valid(self) -> bool:
        return self is not GroupKind.INVALID


PURE = GroupKind.PURE_SEQUENCE
IMPURE = GroupKind.IMPURE_SEQUENCE
SET = GroupKind.SET
INVALID = GroupKind.INVALID

# Per card: bit of its rank (ace at bit 1) and of its suit; the printed joker has neither.
_RANK_BIT = (*(1 << (code % 13 + 1) for code in range(JOKER_CODE)), 0)
_SUIT_BIT = (*(1 << (code // 13) for code in range(JOKER_CODE)), 0)
_ACE_BIT = 1 << 1
_ACE_HIGH_BIT = 1 << 14
_ALL_RANKS = 0b11111111111110  # bits 1..13


def _gap_free(ranks: int) -> bool:
    """Whether the set bits of ``ranks`` are one block (ace low, or else ace high)."""
    block = ranks >> ((ranks & -ranks).bit_length() - 1)
    if block & (block + 1) == 0:
        return True
    if ranks & _ACE_BIT:
        ranks ^= _ACE_BIT | _ACE_HIGH_BIT
        block = ranks >> ((ranks & -ranks).bit_length() - 1)
        return block & (block + 1) == 0
    return False


def _fits(ranks: int, length: int) -> bool:
    """Whether the ranks fit in ``length`` consecutive places (ace low, or else ace high)."""
    if length > 13:
        return False
    if ranks.bit_length() - (ranks & -ranks).bit_length() < length:
        return True
    if ranks & _ACE_BIT:
        ranks ^= _ACE_BIT | _ACE_HIGH_BIT
        return ranks.bit_length() - (ranks & -ranks).bit_length() < length
    return False


def _gap_free_wrapping(ranks: int) -> bool:
    """Whether the ranks are one block round the circle A..K (a run may wrap round the king)."""
    missing = _ALL_RANKS ^ ranks
    return not missing or _gap_free(ranks) or _gap_free(missing)


def _fits_wrapping(ranks: int, length: int) -> bool:
    """Whether the ranks fit in ``length`` consecutive places round the circle A..K: some
    ``13 - length`` places in a row, round the circle, hold none of them."""
    if length >= 13:
        return length == 13
    free = (_ALL_RANKS ^ ranks) >> 1
    row = free | free << 13
    for _ in range(12 - length):
        row &= row >> 1
    return row != 0


def classify_group(
    cards: Iterable[int], wild: int, house: HouseRules = DEFAULT_HOUSE_RULES
) -> GroupKind:
    """The most favourable kind the cards make with ``wild`` wild (a rank 1 ace .. 13 king, or
    one exact card: ``rules.indian.cards.parse_wild``) under the house rules.

    Order of the cards never matters."""
    wild_bit = 1 << wild_rank_of(wild)
    wild_cards = wild_table(wild)
    size = printed = wilds = naturals = 0
    wild_suits = suits = ranks = 0
    for card in cards:
        size += 1
        if wild_cards[card]:
            wilds += 1
            wild_suits |= _SUIT_BIT[card]
        elif card != JOKER_CODE:
            naturals += 1
            suits |= _SUIT_BIT[card]
            ranks |= _RANK_BIT[card]
        else:
            printed += 1
    if size < 3:
        return INVALID
    distinct = ranks.bit_count() == naturals
    wrap = house.wrap_runs
    # Pure: every card natural (a wild card at its own place), one suit, no gap.
    if not printed and wilds <= 1 and distinct:
        all_suits = suits | wild_suits
        if all_suits & (all_suits - 1) == 0:
            run = ranks | (wild_bit if wilds else 0)
            if _gap_free_wrapping(run) if wrap else _gap_free(run):
                return PURE
    if not naturals:  # Decision: only jokers make a set, never a sequence (but by house rule)
        if house.jokers_only_sequence:
            return IMPURE
        if house.jokers_only_set:
            return SET if size <= 4 or not house.sets_up_to_four else INVALID
        # Decision: where jokers alone make no set, the wild rank's own natural set (8H 8S 8D
        # with 8 wild: three or four wild cards of different suits) is still a set.
        natural_set = not printed and wilds <= 4 and wild_suits.bit_count() == wilds
        return SET if natural_set else INVALID
    limit = house.joker_limit
    limited = limit is not JokerLimit.NONE and (
        naturals == 1 if limit is JokerLimit.NOT_WITH_ONE_NATURAL else size == 3 and naturals < 2
    )
    if limited and house.joker_limit_scope is JokerLimitScope.EVERY_GROUP:
        return INVALID
    if (
        not limited
        and distinct
        and suits & (suits - 1) == 0
        and (_fits_wrapping(ranks, size) if wrap else _fits(ranks, size))
    ):
        return IMPURE  # there is a joker: without one, the run above was pure or has a gap
    if (
        ranks & (ranks - 1) == 0
        and suits.bit_count() == naturals
        and (size <= 4 or not house.sets_up_to_four)
    ):
        return SET
    return INVALID

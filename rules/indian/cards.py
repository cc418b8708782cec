"""Card notation for Indian rummy: parsing, formatting, card values and deck limits.

A card is a small int (``Card``, a subclass of ``int``): ``suit * 13 + rank - 1`` for a natural
card (suits spades, hearts, diamonds, clubs = 0..3; ranks ace..king = 1..13), 52 for the printed
joker. The 53 instances are interned in ``CARDS``; parsing never allocates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.errors import RuleViolation

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER_CODE = 52
DEFAULT_DECKS = 2

_TOKEN_SHOWN = 40  # longest token echoed back in an error

#: A wild is an int: 1..13, every card of that rank is wild; ``EXACT_WILD + card code``, only
#: that one card is (the preset option ``wild_joker="cut_card"``; the printed joker's code means
#: no natural card is wild); ``FREE_CUT_WILD + card code``, every card of its rank is wild (aces
#: for a printed joker) but only that card counts 0 when unmatched (``"rank_cut_card_free"``).
EXACT_WILD = 14
FREE_CUT_WILD = EXACT_WILD + JOKER_CODE + 1
WILD_CODES = range(1, FREE_CUT_WILD + JOKER_CODE + 1)
ACE_POINTS = (10, 1)


class Card(int):
    """One card: an interned small int with readable attributes. ``str(card)`` is canonical."""

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        if not 0 <= code <= JOKER_CODE:
            raise ValueError(f"card code out of range: {code}")
        return super().__new__(cls, code)

    @classmethod
    def natural(cls, rank: int, suit: int) -> Card:
        """The natural card of ``rank`` (1 ace .. 13 king) and ``suit`` (0..3, ``SHDC``)."""
        if not (1 <= rank <= 13 and 0 <= suit <= 3):
            raise ValueError(f"no such card: rank {rank}, suit {suit}")
        return CARDS[suit * 13 + rank - 1]

    @property
    def is_printed_joker(self) -> bool:
        return int(self) == JOKER_CODE

    @property
    def rank(self) -> int | None:
        """1 (ace) .. 13 (king); ``None`` for the printed joker."""
        return None if int(self) == JOKER_CODE else int(self) % 13 + 1

    @property
    def suit(self) -> int | None:
        """0..3 (spades, hearts, diamonds, clubs); ``None`` for the printed joker."""
        return None if int(self) == JOKER_CODE else int(self) // 13

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card({NAMES[self]})"


CARDS: tuple[Card, ...] = tuple(Card(code) for code in range(JOKER_CODE + 1))
PRINTED_JOKER = CARDS[JOKER_CODE]
NAMES: tuple[str, ...] = tuple(
    [RANK_NAMES[code % 13] + SUIT_LETTERS[code // 13] for code in range(52)] + ["JK"]
)

_RANK_SPELLINGS: dict[str, int] = {name: index + 1 for index, name in enumerate(RANK_NAMES)}
_RANK_SPELLINGS["T"] = 10
_JOKER_SPELLINGS = ("JK", "PJ", "JOKER")


def _build_tokens() -> dict[str, Card]:
    suits: dict[str, int] = {}
    for index, (letter, symbol) in enumerate(zip(SUIT_LETTERS, SUIT_SYMBOLS, strict=True)):
        suits[letter] = index
        suits[symbol] = index
        suits[symbol + "\ufe0f"] = index  # the emoji presentation of the same symbol
    table: dict[str, Card] = {}
    for rank_text, rank in _RANK_SPELLINGS.items():
        for suit_text, suit in suits.items():
            table[rank_text + suit_text] = CARDS[suit * 13 + rank - 1]
    for spelling in _JOKER_SPELLINGS:
        table[spelling] = PRINTED_JOKER
    # Every mix of upper and lower case, so a valid token is always one lookup.
    for spelling, card in list(table.items()):
        for variant in _case_variants(spelling):
            table[variant] = card
    return table


def _case_variants(text: str) -> list[str]:
    variants = [""]
    for char in text:
        options = {char, char.lower()}
        variants = [head + option for head in variants for option in sorted(options)]
    return variants


_TOKENS = _build_tokens()


def card_spellings() -> dict[str, Card]:
    """Every spelling of a card the engine reads, each to its card (a copy: the pages' scripts
    read it to parse as the engine does)."""
    return dict(_TOKENS)


def token_text(token: object) -> str:
    """How an offending input is named in an error: the text itself (shortened) or its JSON type."""
    if isinstance(token, str):
        return token if len(token) <= _TOKEN_SHOWN else token[: _TOKEN_SHOWN - 3] + "..."
    if token is None:
        return "null"
    if isinstance(token, bool):
        return "true" if token else "false"
    if isinstance(token, int | float):
        return token_text(str(token))
    return f"<{type(token).__name__}>"


def parse_card(token: object) -> Card:
    """Read one card: ``10H``, ``TH``, ``th``, ``10♥``, ``QS``, ``JK``/``PJ``/``JOKER``.

    Raises ``RuleViolation("bad_card")`` naming the token for anything else."""
    if isinstance(token, str):
        card = _TOKENS.get(token)
        if card is None:  # the ace of spades is 0: test for None, not truth
            card = _TOKENS.get(token.strip())
        if card is not None:
            return card
    shown = token_text(token)
    raise RuleViolation(
        "bad_card",
        f"unknown card {shown!r}: write rank (A 2-10 J Q K, T for 10) then suit (S H D C or "
        "♠ ♥ ♦ ♣), or JK for a printed joker",
        token=shown,
    )


def parse_cards(tokens: Iterable[object]) -> list[Card]:
    """Read a list of card tokens (no count or copy checks). A ``bad_card`` error says where:
    ``details["position"]`` (0-based)."""
    table = _TOKENS
    try:
        return [table[token] for token in tokens]  # type: ignore[index]
    except (KeyError, TypeError):
        pass  # find the bad token and say where it is
    lookup = _TOKENS.get
    out: list[Card] = []
    for position, token in enumerate(tokens):
        card = lookup(token) if isinstance(token, str) else None
        if card is None:
            card = _parse_at(token, {"position": position})
        out.append(card)
    return out


def parse_groups(groups: Iterable[Iterable[object]]) -> list[list[Card]]:
    """Read grouped card tokens (no count or copy checks). A ``bad_card`` error says where:
    ``details["group"]`` and ``details["position"]`` (0-based)."""
    table = _TOKENS
    try:
        return [[table[token] for token in tokens] for tokens in groups]  # type: ignore[index]
    except (KeyError, TypeError):
        pass  # find the bad token and say where it is
    lookup = _TOKENS.get
    out: list[list[Card]] = []
    for index, tokens in enumerate(groups):
        row: list[Card] = []
        for position, token in enumerate(tokens):
            card = lookup(token) if isinstance(token, str) else None
            if card is None:
                card = _parse_at(token, {"group": index, "position": position})
            row.append(card)
        out.append(row)
    return out


def _parse_at(token: object, where: dict[str, int]) -> Card:
    try:
        return parse_card(token)
    except RuleViolation as exc:
        exc.details.update(where)
        raise


def format_card(card: int) -> str:
    """Canonical notation: ``10H``, ``QS``, ``AD``, ``7C``, ``JK``."""
    return NAMES[card]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(NAMES[card] for card in cards)


def parse_hand_text(text: str) -> list[list[Card]]:
    """Read the plain-text notation: groups separated by ``|``, cards by spaces.

    ``"2H 3H 4H | 5C 6C QD"`` gives two groups. Empty groups are ignored."""
    groups = [part.split() for part in text.split("|")]
    return [parse_cards(group) for group in groups if group]


def format_hand_text(groups: Iterable[Iterable[int]]) -> str:
    return " | ".join(format_cards(group) for group in groups)


def parse_wild(token: object, cut_card_only: bool = False, cut_card_free: bool = False) -> int:
    """Read the cut card, or just its rank, and return the wild (see ``wild_rank_of``).

    Every card of the cut rank is wild (a wild rank, 1 ace .. 13 king): ``"QH"``, ``"Q"``,
    ``"q"``, ``"10"``, ``"T"``, ``"10♦"`` name a rank; a printed joker cut (``"JK"``, ``"PJ"``,
    ``"JOKER"``) makes Aces wild. With ``cut_card_only`` (a preset option) only the cut card
    itself is wild, so it must be given as a card (``EXACT_WILD + card``); a printed joker cut
    then adds no wild card. With ``cut_card_free`` (a preset option) the cut rank is wild but
    only the cut card counts 0 when unmatched, so it too must be given as a card
    (``FREE_CUT_WILD + card``). Anything else raises ``bad_wild``."""
    exact = cut_card_only or cut_card_free
    if isinstance(token, str):
        text = token.strip().upper()
        rank = _RANK_SPELLINGS.get(text)
        if rank is not None and not exact:
            return rank
        card = _TOKENS.get(text)
        if card is not None:
            if cut_card_only:
                return EXACT_WILD + card
            if cut_card_free:
                return FREE_CUT_WILD + card
            return 1 if card == JOKER_CODE else card % 13 + 1
    shown = token_text(token)
    if cut_card_free:
        raise RuleViolation(
            "bad_wild",
            f"unknown wild joker {shown!r}: give the cut card itself (7H) or JK; every card of "
            "its rank is wild, but only the cut card counts 0 under this preset",
            token=shown,
        )
    if cut_card_only:
        raise RuleViolation(
            "bad_wild",
            f"unknown wild joker {shown!r}: give the cut card itself (7H) or JK; only that card "
            "is wild under this preset",
            token=shown,
        )
    raise RuleViolation(
        "bad_wild",
        f"unknown wild joker {shown!r}: give the cut card (QH), its rank (Q, 10) or JK",
        token=shown,
    )


def wild_rank_of(wild: int) -> int:
    """The rank of the wild (1 ace .. 13 king), or 0 when no natural card is wild (a printed
    joker cut with only the cut card wild)."""
    if wild < EXACT_WILD:
        return wild
    if wild >= FREE_CUT_WILD:
        code = wild - FREE_CUT_WILD
        return 1 if code == JOKER_CODE else code % 13 + 1
    code = wild - EXACT_WILD
    return 0 if code == JOKER_CODE else code % 13 + 1


def free_cut_card(wild: int) -> int | None:
    """The one card that counts 0 of the wild rank's cards where only it does (``None``: every
    wild card counts 0)."""
    return wild - FREE_CUT_WILD if wild >= FREE_CUT_WILD else None


def format_rank(rank: int) -> str:
    return RANK_NAMES[rank - 1]


def check_copies(
    cards: Sequence[int], decks: int = DEFAULT_DECKS, tokens: Sequence[object] | None = None
) -> None:
    """Raise ``too_many_copies`` if any card (printed jokers included) appears more than
    ``decks`` times in ``cards``. ``tokens``, parallel to ``cards``, names the token as written."""
    if len(cards) - len(set(cards)) < decks:
        return  # a card over the limit needs at least ``decks`` extra copies
    counts = [0] * (JOKER_CODE + 1)
    for index, card in enumerate(cards):
        counts[card] += 1
        if counts[card] > decks:
            shown = token_text(tokens[index]) if tokens is not None else NAMES[card]
            raise RuleViolation(
                "too_many_copies",
                f"{NAMES[card]} appears {counts[card]} times; {decks} deck(s) hold only {decks}",
                token=shown,
                details={"card": NAMES[card], "decks": decks},
            )


def check_deal_copies(
    hands: Iterable[Iterable[int]], decks: int = DEFAULT_DECKS, cut: int | None = None
) -> None:
    """Check a whole deal: no card appears more than ``decks`` times across all hands.

    ``cut`` is the face-up cut card when it is known as a card (it is out of every hand, so it
    takes one copy). Raises ``too_many_copies`` naming the card and the hand (0-based) where the
    limit was passed (``"hand": null`` for the cut card)."""
    counts = [0] * (JOKER_CODE + 1)
    if cut is not None:
        counts[cut] += 1
        if counts[cut] > decks:
            raise RuleViolation(
                "too_many_copies",
                f"{decks} deck(s) cannot hold the cut card {NAMES[cut]}",
                token=NAMES[cut],
                details={"card": NAMES[cut], "decks": decks, "hand": None},
            )
    for hand_index, hand in enumerate(hands):
        for card in hand:
            counts[card] += 1
            if counts[card] > decks:
                raise RuleViolation(
                    "too_many_copies",
                    f"{NAMES[card]} appears {counts[card]} times in the deal; "
                    f"{decks} deck(s) hold only {decks}",
                    token=NAMES[card],
                    details={"card": NAMES[card], "decks": decks, "hand": hand_index},
                )


def joker_table(wild: int) -> tuple[bool, ...]:
    """``table[card]`` is true for the printed joker and every wild card."""
    return _JOKERS[wild]


def wild_table(wild: int) -> tuple[bool, ...]:
    """``table[card]`` is true for every wild natural card (not the printed joker)."""
    return _WILDS[wild]


def value_table(wild: int, ace_points: int = 10) -> tuple[int, ...]:
    """``table[card]``: points a card counts (A K Q J 10, 2-10 face value, jokers 0); an ace
    counts ``ace_points`` (10, or 1 where the preset counts it low)."""
    return _VALUES[ace_points][wild]


def card_value(card: int, wild: int, ace_points: int = 10) -> int:
    return _VALUES[ace_points][wild][card]


def is_joker(card: int, wild: int) -> bool:
    return _JOKERS[wild][card]


def face_value(rank: int, ace_points: int = 10) -> int:
    """Points of a natural card of ``rank`` (1 ace .. 13 king)."""
    return ace_points if rank == 1 else 10 if rank > 10 else rank


def _is_wild(code: int, wild: int) -> bool:
    if code == JOKER_CODE:
        return False
    if wild < EXACT_WILD or wild >= FREE_CUT_WILD:
        return code % 13 + 1 == wild_rank_of(wild)
    return code == wild - EXACT_WILD


def _counts_zero(code: int, wild: int, jokers: tuple[bool, ...]) -> bool:
    """A joker counts 0 (only the printed joker and the cut card itself, where only it is free)."""
    free = free_cut_card(wild)
    return jokers[code] and (free is None or code in (JOKER_CODE, free))


_WILDS: dict[int, tuple[bool, ...]] = {
    wild: tuple(_is_wild(code, wild) for code in range(JOKER_CODE + 1))
    for wild in range(FREE_CUT_WILD + JOKER_CODE + 1)
}
_JOKERS: dict[int, tuple[bool, ...]] = {
    wild: tuple(code == JOKER_CODE or wilds[code] for code in range(JOKER_CODE + 1))
    for wild, wilds in _WILDS.items()
}
_VALUES: dict[int, dict[int, tuple[int, ...]]] = {
    ace: {
        wild: tuple(
            0 if _counts_zero(code, wild, jokers) else face_value(code % 13 + 1, ace)
            for code in range(JOKER_CODE + 1)
        )
        for wild, jokers in _JOKERS.items()
    }
    for ace in ACE_POINTS
}

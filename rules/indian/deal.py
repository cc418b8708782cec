"""One Indian rummy deal as entered: is it coherent, and how many points does each player score?

Pure: players are given as ids with display names, and the answer names them in every reason. A
deal is coherent when every expected player appears exactly once, exactly one of them won, every
card is a real card, each hand has 13 cards, no card appears more often across the whole deal than
the decks hold (the face-up cut card takes one copy), outcomes are allowed by the preset, and
points entered without cards are possible for their outcome.

Each player's points: cards given grouped are scored as grouped; cards given ungrouped are scored
by their best arrangement; points given alone are taken as entered, after the checks above.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rules.errors import RuleViolation
from rules.indian.arrangement import arrange
from rules.indian.cards import (
    NAMES,
    Card,
    check_deal_copies,
    parse_card,
    parse_cards,
    parse_groups,
    parse_wild,
    token_text,
)
from rules.indian.groups import GroupKind
from rules.indian.hand import HAND_SIZE, HandResult, score_groups, why_every_card_counts
from rules.indian.outcomes import Outcome, deal_points
from rules.indian.preset import DEFAULT_HOUSE_RULES, HouseRules, IndianPreset

K = TypeVar("K", bound=Hashable)

#: Outcome names as entered for a deal; ``loser`` is the engine's ``hand``.
OUTCOME_NAMES: dict[str, Outcome] = {
    "winner": Outcome.WINNER,
    "loser": Outcome.HAND,
    "first_drop": Outcome.FIRST_DROP,
    "middle_drop": Outcome.MIDDLE_DROP,
    "missed_turns": Outcome.MISSED_TURNS,
    "wrong_show": Outcome.WRONG_SHOW,
    "late_declare": Outcome.LATE_DECLARE,
    "valid_not_declared": Outcome.VALID_NOT_DECLARED,
    "deal_show": Outcome.DEAL_SHOW,
}
_ENGINE_TO_NAME = {outcome: name for name, outcome in OUTCOME_NAMES.items()}

#: How each outcome is offered to whoever enters a deal.
OUTCOME_LABELS: dict[str, str] = {
    "winner": "Winner (showed)",
    "loser": "Loser (counts cards)",
    "first_drop": "First drop",
    "middle_drop": "Middle drop",
    "missed_turns": "Missed 3 turns",
    "wrong_show": "Wrong show",
    "late_declare": "Late declare",
    "valid_not_declared": "Valid, not declared",
    "deal_show": "Deal show (no turn yet)",
}


@dataclass(frozen=True)
class OutcomeOption:
    """One outcome a deal under a preset may have, as offered and as accepted.

    ``low``..``high`` are the points it may score when entered without cards (equal for an
    outcome whose points the preset fixes); ``needs_cards`` says the points follow the cards;
    ``valid_hand`` is ``True`` when cards given must form a valid declaration, ``False`` when
    they must not, ``None`` when either is scored."""

    code: str
    label: str
    low: int
    high: int
    needs_cards: bool
    valid_hand: bool | None = None


def outcome_options(preset: IndianPreset) -> tuple[OutcomeOption, ...]:
    """The outcomes a deal under ``preset`` may have, in the order a form offers them: the one
    declaration both the entry page and :func:`evaluate_indian_deal` read."""
    fixed = {
        "first_drop": preset.first_drop,
        "middle_drop": preset.middle_drop,
        "missed_turns": preset.missed_turns_points,
        "wrong_show": preset.wrong_show,
        "late_declare": preset.late_declare,
    }
    options = []
    for code, label in OUTCOME_LABELS.items():
        outcome = OUTCOME_NAMES[code]
        if outcome in (Outcome.FIRST_DROP, Outcome.MIDDLE_DROP) and not preset.drops_allowed:
            continue
        if code in fixed:
            options.append(OutcomeOption(code, label, fixed[code], fixed[code], False))
        elif outcome is Outcome.WINNER:
            options.append(OutcomeOption(code, label, preset.winner, preset.winner, True, True))
        elif outcome is Outcome.HAND:
            options.append(OutcomeOption(code, label, 0, preset.cap, True, False))
        elif outcome is Outcome.VALID_NOT_DECLARED:
            value = preset.valid_not_declared
            options.append(OutcomeOption(code, label, value, value, True, True))
        else:
            low, high = preset.deal_show_min, preset.deal_show_max
            options.append(OutcomeOption(code, label, low, high, True))
    return tuple(options)


@dataclass(frozen=True)
class PlayerEntry(Generic[K]):
    """One player's line as entered: an outcome and, optionally, cards or points."""

    player: K
    outcome: object
    groups: object = None
    cards: object = None
    points: object = None


@dataclass(frozen=True)
class Reason(Generic[K]):
    """Why a deal cannot be accepted: the player (or ``None``), a code, a sentence, the token."""

    player: K | None
    code: str
    message: str
    token: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerScore(Generic[K]):
    player: K
    outcome: str
    points: int
    hand: HandResult | None
    #: ``grouped`` (scored as grouped), ``arranged`` (best arrangement), ``entered`` (points as
    #: entered) or ``fixed`` (the outcome's points from the preset).
    basis: str


@dataclass(frozen=True)
class DealEvaluation(Generic[K]):
    scores: tuple[PlayerScore[K], ...]
    reasons: tuple[Reason[K], ...]
    winner: K | None

    @property
    def ok(self) -> bool:
        return not self.reasons

    def points(self) -> dict[K, int]:
        return {score.player: score.points for score in self.scores}


@dataclass
class _Line(Generic[K]):
    """One seated player's line while the deal is read: its outcome and cards once understood."""

    entry: PlayerEntry[K]
    name: str
    outcome: Outcome | None = None
    hand_cards: list[Card] | None = None
    groups: list[list[Card]] | None = None

    @property
    def outcome_code(self) -> str:
        """The outcome as entered (``loser`` for the engine's ``hand``)."""
        assert self.outcome is not None
        return _ENGINE_TO_NAME[self.outcome]


@dataclass
class _Refusals(Generic[K]):
    """The reasons found so far: every check adds its own and the reading goes on, so that every
    problem is reported, not just the first."""

    reasons: list[Reason[K]] = field(default_factory=list)

    def add(
        self, player: K | None, code: str, message: str, token: object = None, **details: Any
    ) -> None:
        shown = None if token is None else token_text(token)
        self.reasons.append(Reason(player, code, message, shown, details))

    def refused(self) -> DealEvaluation[K]:
        return DealEvaluation((), tuple(self.reasons), None)


def _describe(cards: Sequence[int]) -> str:
    return " ".join(NAMES[card] for card in cards)


def _declaration_problem(hand: HandResult, house: HouseRules) -> tuple[str, str, dict[str, Any]]:
    """Why a hand is not a valid declaration: code, sentence, details. Every invalid group is
    named (``groups``), the first also as ``group`` and ``cards``."""
    invalid = [
        (index, _describe(group.cards))
        for index, group in enumerate(hand.groups)
        if group.kind is GroupKind.INVALID
    ]
    if invalid:
        index, cards = invalid[0]
        named = ", ".join(f"group {i + 1} ({c})" for i, c in invalid)
        verb = "is not a valid sequence or set" if len(invalid) == 1 else "are not valid groups"
        return (
            "invalid_group",
            f"{named} {verb}",
            {"group": index, "cards": cards.split(), "groups": [i for i, _ in invalid]},
        )
    why = why_every_card_counts([group.kind for group in hand.groups], house)
    if why == "no_pure_sequence":
        return why, "there is no pure sequence", {}
    if why == "one_sequence":
        return why, "there is only one sequence; a declaration needs two", {}
    if why == "too_few_groups":
        return (
            why,
            f"a declaration needs at least {house.min_groups} valid groups",
            {"min_groups": house.min_groups},
        )
    return "invalid_declaration", "not a valid declaration", {}


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def evaluate_indian_deal(
    *,
    entries: Sequence[PlayerEntry[K]],
    expected: Mapping[K, str],
    wild: object,
    preset: IndianPreset,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> DealEvaluation[K]:
    """Check a deal and score it. ``expected`` maps each player who must appear (in seat order)
    to the name used in reasons. Every problem found is reported, not just the first."""
    refusals: _Refusals[K] = _Refusals()
    lines = _seated_lines(entries, expected, refusals)
    if _read_outcomes(lines, preset, refusals):  # an unknown outcome may be the missing winner
        _check_one_winner(lines, refusals)
    wild_rank, cut = _read_wild(wild, lines, house, refusals)
    for line in lines:
        _read_hand(line, refusals)
    _check_copies(lines, preset.decks, cut, refusals)
    if refusals.reasons:
        return refusals.refused()
    assert wild_rank is not None or all(line.hand_cards is None for line in lines)

    scored = [_score_line(line, wild_rank, preset, house, refusals) for line in lines]
    if refusals.reasons:
        return refusals.refused()
    winner = next(line.entry.player for line in lines if line.outcome is Outcome.WINNER)
    order = {player: index for index, player in enumerate(expected)}
    scores = sorted((score for score in scored if score is not None), key=lambda s: order[s.player])
    return DealEvaluation(tuple(scores), (), winner)


# Reading the deal: who is here, their outcomes, the wild card, the cards.


def _seated_lines(
    entries: Sequence[PlayerEntry[K]], expected: Mapping[K, str], refusals: _Refusals[K]
) -> list[_Line[K]]:
    """One line per expected player entered once; refuses strangers, repeats and absentees."""
    lines: list[_Line[K]] = []
    seen: set[K] = set()
    for entry in entries:
        if entry.player not in expected:
            refusals.add(
                entry.player,
                "not_seated",
                f"player {entry.player!r} has no seat in this deal",
                entry.player,
            )
            continue
        if entry.player in seen:
            refusals.add(
                entry.player, "duplicate_player", f"{expected[entry.player]} is entered twice"
            )
            continue
        seen.add(entry.player)
        lines.append(_Line(entry, expected[entry.player]))
    for player, name in expected.items():
        if player not in seen:
            refusals.add(player, "missing_player", f"{name} has no result in this deal")
    return lines


def _read_outcomes(lines: list[_Line[K]], preset: IndianPreset, refusals: _Refusals[K]) -> bool:
    """Each line's outcome, refusing one unknown or not offered under ``preset``. True when every
    outcome is known (offered or not)."""
    offered = {option.code for option in outcome_options(preset)}
    all_known = True
    for line in lines:
        raw = line.entry.outcome
        outcome = OUTCOME_NAMES.get(raw) if isinstance(raw, str) else None
        if outcome is None:
            all_known = False
            refusals.add(
                line.entry.player,
                "bad_outcome",
                f"{line.name}: unknown outcome {token_text(raw)!r}; use one of "
                + ", ".join(OUTCOME_NAMES),
                raw,
            )
        elif raw not in offered:
            code = "drop_not_allowed" if outcome.value.endswith("drop") else "outcome_not_allowed"
            refusals.add(
                line.entry.player,
                code,
                f"{line.name}: {str(raw).replace('_', ' ')} is not allowed in this game",
                raw,
            )
        line.outcome = outcome
    return all_known


def _check_one_winner(lines: list[_Line[K]], refusals: _Refusals[K]) -> None:
    winners = [line for line in lines if line.outcome is Outcome.WINNER]
    if len(winners) == 1:
        return
    if winners:
        names = ", ".join(line.name for line in winners)
        refusals.add(
            None, "several_winners", f"a deal has one winner, not {len(winners)} ({names})"
        )
    else:
        refusals.add(None, "no_winner", "nobody is entered as the winner")


def _read_wild(
    wild: object, lines: list[_Line[K]], house: HouseRules, refusals: _Refusals[K]
) -> tuple[int | None, int | None]:
    """The wild (``parse_wild``) and, when the cut card itself is given, that card (it takes one
    copy). The wild is needed only when some line gives cards."""
    if wild is None or wild == "":
        if any(line.entry.groups is not None or line.entry.cards is not None for line in lines):
            refusals.add(None, "wild_required", "give the wild joker (the cut card) to score cards")
        return None, None
    try:
        wild_rank = parse_wild(wild, house.cut_card_only, house.cut_card_free)
    except RuleViolation as exc:
        refusals.add(None, exc.code, exc.message, exc.token)
        return None, None
    try:
        return wild_rank, parse_card(wild)
    except RuleViolation:
        return wild_rank, None  # only the rank is known


def _read_hand(line: _Line[K], refusals: _Refusals[K]) -> None:
    """The line's cards, grouped or not, when given: real cards, thirteen of them."""
    entry, player = line.entry, line.entry.player
    if entry.groups is not None and entry.cards is not None:
        refusals.add(player, "conflicting_fields", f"{line.name}: give groups or cards, not both")
        return
    try:
        if entry.groups is not None:
            if not isinstance(entry.groups, list) or not all(
                isinstance(group, list) for group in entry.groups
            ):
                refusals.add(player, "bad_groups", f"{line.name}: groups must be lists of cards")
                return
            line.groups = parse_groups(entry.groups)
            line.hand_cards = [card for group in line.groups for card in group]
        elif entry.cards is not None:
            if not isinstance(entry.cards, list):
                refusals.add(player, "bad_cards", f"{line.name}: cards must be a list")
                return
            line.hand_cards = parse_cards(entry.cards)
    except RuleViolation as exc:
        refusals.add(player, exc.code, f"{line.name}: {exc.message}", exc.token, **exc.details)
        return
    if line.hand_cards is not None and len(line.hand_cards) != HAND_SIZE:
        refusals.add(
            player,
            "wrong_card_count",
            f"{line.name}: a hand has {HAND_SIZE} cards, not {len(line.hand_cards)}",
            None,
            count=len(line.hand_cards),
        )
        line.hand_cards = line.groups = None


def _check_copies(
    lines: list[_Line[K]], decks: int, cut: int | None, refusals: _Refusals[K]
) -> None:
    """No card more often across the deal's hands (and the cut card) than the decks hold."""
    with_cards = [line for line in lines if line.hand_cards is not None]
    try:
        check_deal_copies(
            [line.hand_cards for line in with_cards if line.hand_cards is not None], decks, cut
        )
    except RuleViolation as exc:
        hand_index = exc.details.get("hand")
        who = with_cards[hand_index] if isinstance(hand_index, int) else None
        where = f" ({who.name}'s hand)" if who is not None else " (the cut card)"
        refusals.add(
            who.entry.player if who is not None else None,
            exc.code,
            exc.message + where,
            exc.token,
            card=exc.details.get("card"),
        )


# Scoring a coherent deal: each line by its outcome.


def _score_line(
    line: _Line[K],
    wild_rank: int | None,
    preset: IndianPreset,
    house: HouseRules,
    refusals: _Refusals[K],
) -> PlayerScore[K] | None:
    """The line's score, or ``None`` when its points cannot be accepted (refused)."""
    hand, basis = _hand_of(line, wild_rank, preset, house)
    entered = _whole(line.entry.points)
    if line.entry.points is not None and entered is None:
        refusals.add(
            line.entry.player,
            "bad_points",
            f"{line.name}: points must be a whole number",
            line.entry.points,
        )
        return None
    outcome = line.outcome
    if outcome is Outcome.WINNER:
        return _score_winner(line, hand, basis, entered, preset, house, refusals)
    if outcome in (Outcome.HAND, Outcome.DEAL_SHOW, Outcome.VALID_NOT_DECLARED):
        if hand is not None:
            return _score_counted_hand(line, hand, basis, entered, preset, house, refusals)
        return _score_entered_points(line, entered, preset, refusals)
    # Drops, missed turns, wrong show, late declaration: the preset fixes the points.
    assert outcome is not None
    points = deal_points(outcome, preset, hand)
    mismatch = (
        f"{line.name}: a {line.outcome_code.replace('_', ' ')} scores {points}, not {entered}"
    )
    return _agreed_score(
        line, hand, points, "fixed", entered, mismatch, refusals,
        expected=points, outcome=line.outcome_code,
    )  # fmt: skip


def _hand_of(
    line: _Line[K], wild_rank: int | None, preset: IndianPreset, house: HouseRules
) -> tuple[HandResult | None, str]:
    """The line's hand scored as grouped, or by its best arrangement, with that basis; no hand
    (basis ``fixed``) when no cards were given."""
    if line.hand_cards is None or wild_rank is None:
        return None, "fixed"
    if line.groups is not None:
        return score_groups(line.groups, wild_rank, preset, house), "grouped"
    return arrange(line.hand_cards, wild_rank, preset, house), "arranged"


def _score_winner(
    line: _Line[K],
    hand: HandResult | None,
    basis: str,
    entered: int | None,
    preset: IndianPreset,
    house: HouseRules,
    refusals: _Refusals[K],
) -> PlayerScore[K] | None:
    player = line.entry.player
    if hand is not None and not hand.valid:
        code, why, details = _declaration_problem(hand, house)
        refusals.add(
            player,
            code,
            f"{line.name} is entered as the winner but the cards are not a valid "
            f"declaration: {why}",
            None,
            **details,
        )
        return None
    if entered not in (None, preset.winner):
        refusals.add(
            player,
            "bad_points",
            f"{line.name}: the winner scores {preset.winner}, not {entered}",
            entered,
            expected=preset.winner,
        )
        return None
    return PlayerScore(player, line.outcome_code, preset.winner, hand, basis)


def _score_counted_hand(
    line: _Line[K],
    hand: HandResult,
    basis: str,
    entered: int | None,
    preset: IndianPreset,
    house: HouseRules,
    refusals: _Refusals[K],
) -> PlayerScore[K] | None:
    """A loser, a deal show or a valid hand not declared, with cards: the cards count."""
    outcome = line.outcome
    assert outcome is not None
    if outcome is Outcome.HAND and hand.valid:
        refusals.add(
            line.entry.player,
            "valid_hand_not_declared",
            f"{line.name}'s cards form a valid declaration: enter them as "
            f"valid_not_declared ({preset.valid_not_declared} points)",
            points=preset.valid_not_declared,
        )
        return None
    if outcome is Outcome.VALID_NOT_DECLARED and not hand.valid:
        _, why, details = _declaration_problem(hand, house)
        refusals.add(
            line.entry.player,
            "not_a_valid_hand",
            f"{line.name} is entered as valid but not declared, but {why}",
            None,
            **details,
        )
        return None
    points = deal_points(outcome, preset, hand)
    mismatch = f"{line.name}: {entered} points entered, the cards count {points}"
    return _agreed_score(line, hand, points, basis, entered, mismatch, refusals, counted=points)


def _score_entered_points(
    line: _Line[K], entered: int | None, preset: IndianPreset, refusals: _Refusals[K]
) -> PlayerScore[K] | None:
    """A loser, a deal show or a valid hand not declared, without cards: the points entered,
    within the outcome's range (a valid hand not declared may leave them to the preset)."""
    outcome, name, player = line.outcome, line.outcome_code, line.entry.player
    assert outcome is not None
    if entered is None and outcome is Outcome.VALID_NOT_DECLARED:
        return PlayerScore(player, name, preset.valid_not_declared, None, "fixed")
    if entered is None:
        refusals.add(player, "points_required", f"{line.name}: give the cards or the points")
        return None
    low, high = {
        Outcome.HAND: (0, preset.cap),
        Outcome.DEAL_SHOW: (preset.deal_show_min, preset.deal_show_max),
        Outcome.VALID_NOT_DECLARED: (preset.valid_not_declared, preset.valid_not_declared),
    }[outcome]
    points = int(entered)
    if not low <= points <= high:
        refusals.add(
            player,
            "points_out_of_range",
            f"{line.name}: a {name.replace('_', ' ')} scores {low} to {high}, not {points}"
            if low != high
            else f"{line.name}: a {name.replace('_', ' ')} scores {low}, not {points}",
            entered,
            outcome=name,
            low=low,
            high=high,
        )
        return None
    return PlayerScore(player, name, points, None, "entered")


def _agreed_score(
    line: _Line[K],
    hand: HandResult | None,
    points: int,
    basis: str,
    entered: int | None,
    mismatch: str,
    refusals: _Refusals[K],
    **details: Any,
) -> PlayerScore[K] | None:
    """Score ``points`` for the line, unless the points entered say otherwise (``mismatch``)."""
    if entered is not None and entered != points:
        refusals.add(line.entry.player, "points_mismatch", mismatch, entered, **details)
        return None
    return PlayerScore(line.entry.player, line.outcome_code, points, hand, basis)

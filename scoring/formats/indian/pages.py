"""How the pages show an Indian rummy deal (points, pool and deals): a version's hands with their
groups, points and money, why a loser's grouped cards count, the cards a rejected version's
reasons blame; and what the entry page's script needs from the rules."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, gettext_noop

from clubs.models import Club
from clubs.page_kit.display import club_money
from rules.indian.deal import OutcomeOption
from rules.indian.hand import why_every_card_counts
from rules.indian.preset import DEFAULT_HOUSE_RULES, HouseRules, IndianPreset
from scoring.formats.cards import card_view, cards_view
from scoring.formats.indian.entry_rules import deal_entry_rules
from scoring.formats.indian.forms import OUTCOME_WORDS
from scoring.models import Submission
from scoring.presets import GameRules

KIND_LABELS = {
    "pure_sequence": (gettext_noop("Pure sequence"), "✓", "good"),
    "impure_sequence": (gettext_noop("Impure sequence"), "✓", "good"),
    "set": (gettext_noop("Set"), "✓", "good"),
    "invalid": (gettext_noop("Not a valid group"), "✗", "bad"),
}


def _kind(kind: Any, outcome: Any, every_card_counts: bool) -> tuple[str, str, str]:
    """A group's kind as shown; a loser's unmatched cards are no mistake, they are what counts."""
    if kind == "invalid" and outcome not in ("winner", "valid_not_declared"):
        words = gettext("Unmatched") if every_card_counts else gettext("Unmatched: these count")
        return (words, "·", "muted")
    label, sign, tone = KIND_LABELS.get(kind, (str(kind), "", ""))
    return (gettext(label), sign, tone)


COUNTING_REASONS = {
    "no_pure_sequence": gettext_noop("No pure sequence, so every card counts"),
    "one_sequence": gettext_noop("One sequence only, so every card counts"),
    "too_few_groups": gettext_noop("Too few valid groups, so every card counts"),
}
# With the pure sequence relief, what counts leaves the pure sequence out.
COUNTING_REASONS_RELIEF = {
    "one_sequence": gettext_noop("One sequence only, so every card counts but the pure sequence"),
    "too_few_groups": gettext_noop(
        "Too few valid groups, so every card counts but the pure sequence"
    ),
}


def _counting_note(
    hand: dict[str, Any], points: Any, indian: IndianPreset | None, house: HouseRules
) -> str:
    """Why a loser's grouped cards count too, in words; empty when only the unmatched count."""
    kinds = [group.get("kind") for group in hand.get("groups", [])]
    reason = why_every_card_counts(kinds, house) if kinds and not hand.get("valid") else None
    if reason is None:
        return ""
    note = gettext(COUNTING_REASONS[reason])
    if reason != "no_pure_sequence" and indian is not None and indian.pure_sequence_relief:
        note = gettext(COUNTING_REASONS_RELIEF[reason])
    if indian is not None and points == indian.cap:
        return gettext("%(note)s, up to %(cap)s.") % {"note": note, "cap": indian.cap}
    return gettext("%(note)s.") % {"note": note}


def _hand_groups(line: dict[str, Any] | None) -> list[list[Any]]:
    if not line:
        return []
    if line.get("groups"):
        return [list(group) for group in line["groups"] if isinstance(group, list)]
    if line.get("cards"):
        return [list(line["cards"])]
    return []


def _marked_hand(
    line: dict[str, Any] | None, reasons: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A player's cards as entered, with what the reasons blame marked: a whole group
    (``details.group``), one card (``details.position`` in its group) or every copy of a token."""
    groups = _hand_groups(line)
    bad_groups = set()
    bad_spots = set()
    bad_tokens = set()
    for reason in reasons:
        details = reason.get("details") or {}
        group = details.get("group")
        position = details.get("position")
        if isinstance(group, int) and isinstance(position, int):
            bad_spots.add((group, position))
        elif isinstance(group, int):
            bad_groups.add(group)
        elif isinstance(position, int) and len(groups) == 1:
            bad_spots.add((0, position))
        # Every invalid group of a declaration is named, not only the first.
        bad_groups.update(g for g in details.get("groups") or [] if isinstance(g, int))
        token = reason.get("token") or details.get("card")
        if isinstance(token, str) and reason.get("code") in {"bad_card", "too_many_copies"}:
            bad_tokens.add(card_view(token).code.upper())
    shown = []
    for g, group in enumerate(groups):
        cards = []
        for p, token in enumerate(group):
            card = card_view(token)
            bad = (g, p) in bad_spots or card.code.upper() in bad_tokens
            cards.append({"card": card, "bad": bad})
        shown.append({"index": g + 1, "cards": cards, "bad": g in bad_groups})
    return shown


def result_view(
    club: Club,
    submission: Submission,
    names: dict[int, str],
    indian: IndianPreset | None,
    house: HouseRules = DEFAULT_HOUSE_RULES,
) -> dict[str, Any]:
    """A version's hands as the deal page shows them: each player's outcome, points, money and
    groups; a rejected version's cards as entered, with what the reasons blame marked."""
    view: dict[str, Any] = {}
    if submission.result:
        money = (submission.result.get("money") or {}).get("by_player", {})
        players = []
        for line in submission.result.get("players", []):
            hand = line.get("hand") or {}
            note = (
                _counting_note(hand, line.get("against"), indian, house)
                if line.get("outcome") == "loser"
                else ""
            )
            players.append(
                {
                    "name": line.get("name") or names.get(line.get("player"), "?"),
                    "outcome": gettext(OUTCOME_WORDS.get(line.get("outcome"), line.get("outcome"))),
                    "won": line.get("outcome") == "winner",
                    "points": line.get("against"),
                    "basis": line.get("basis"),
                    "money": club_money(club, money[str(line["player"])], signed=True)
                    if str(line.get("player")) in money
                    else "",
                    "valid": hand.get("valid"),
                    "counting_note": note,
                    "groups": [
                        {
                            "cards": cards_view(group.get("cards")),
                            "kind": _kind(group.get("kind"), line.get("outcome"), bool(note)),
                        }
                        for group in hand.get("groups", [])
                    ],
                }
            )
        view["players"] = players
        view["has_money"] = bool(money)
    if submission.reasons:
        payload_lines = {
            line.get("player"): line for line in (submission.payload or {}).get("results", [])
        }
        by_player: dict[Any, list[dict[str, Any]]] = {}
        for reason in submission.reasons:
            by_player.setdefault(reason.get("player"), []).append(reason)
        view["hands"] = [
            {
                "name": names.get(pid, str(pid)),
                "groups": _marked_hand(payload_lines.get(pid), reasons),
            }
            for pid, reasons in by_player.items()
            if pid is not None and _hand_groups(payload_lines.get(pid))
        ]
    return view


def entry_context(rules: GameRules, outcomes: tuple[OutcomeOption, ...]) -> dict[str, Any]:
    """What the entry page's script needs: the rules engine's notation and numbers for the game's
    rules and outcomes, and where to ask it about a whole hand."""
    assert rules.indian is not None
    return {
        "entry_rules": deal_entry_rules(
            rules.indian, outcomes, rules.house_rules or DEFAULT_HOUSE_RULES
        ),
        "evaluate_url": reverse("rules:evaluate"),
    }

"""Why an entry did not count, in the active language (a page's, or the API's
``Accept-Language``). The rules engine (rules/) knows no language: it gives each reason a stable
``code`` with its values (``details``, ``token``) and an English sentence; here the code and
values are put into words. A code with no sentence here (nor in ``scoring.rule_words``), or
English, keeps the engine's own sentence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.formats.indian.forms import OUTCOME_CHOICES
from scoring.rule_words import WORDS as ENGINE_WORDS


def _invalid_group(details: dict[str, Any], token: str) -> str | None:
    groups = [g for g in details.get("groups", []) if isinstance(g, int)]
    if len(groups) > 1:
        return _("groups %(numbers)s are not valid groups") % {
            "numbers": ", ".join(str(g + 1) for g in groups)
        }
    if not isinstance(details.get("group"), int):
        return None
    return _("group %(number)s (%(cards)s) is not a valid sequence or set") % {
        "number": details["group"] + 1,
        "cards": " ".join(str(card) for card in details.get("cards", [])),
    }


def _too_few_groups(details: dict[str, Any], token: str) -> str:
    needed = details.get("min_groups")
    if not isinstance(needed, int):
        return _("a declaration needs more valid groups")
    return ngettext(
        "a declaration needs at least %(count)d valid group",
        "a declaration needs at least %(count)d valid groups",
        needed,
    ) % {"count": needed}


def _fixed(words: Callable[[], str]) -> Callable[[dict[str, Any], str], str]:
    return lambda details, token: words()


def _with_token(words: Callable[[str], str]) -> Callable[[dict[str, Any], str], str | None]:
    return lambda details, token: words(token) if token else None


SENTENCES: dict[str, Callable[[dict[str, Any], str], str | None]] = {
    "invalid_group": _invalid_group,
    "no_pure_sequence": _fixed(lambda: _("there is no pure sequence")),
    "one_sequence": _fixed(lambda: _("there is only one sequence; a declaration needs two")),
    "too_few_groups": _too_few_groups,
    "invalid_declaration": _fixed(lambda: _("not a valid declaration")),
    "no_winner": _fixed(lambda: _("nobody is entered as the winner")),
    "wild_required": _fixed(lambda: _("give the wild joker (the cut card) to score cards")),
    "wrong_card_count": _fixed(lambda: _("a hand has the wrong number of cards")),
    "hand_required": _fixed(lambda: _("this outcome needs the player's cards")),
    "drop_not_allowed": _fixed(lambda: _("dropping is not allowed in this game")),
    "bad_card": _with_token(lambda token: _("unknown card %(card)s") % {"card": token}),
    "too_many_copies": _with_token(
        lambda token: _("%(card)s appears more often than the decks hold") % {"card": token}
    ),
}


def _outcome(details: dict[str, Any], token: str = "") -> str:
    code = str(details.get("outcome") or token)
    return str(OUTCOME_CHOICES.get(code, code.replace("_", " ")))


def _points_out_of_range(details: dict[str, Any], token: str) -> str | None:
    low, high = details.get("low"), details.get("high")
    if low is None or high is None:
        return None
    values = {"outcome": _outcome(details), "low": low, "high": high, "entered": token}
    if low == high:
        return _("%(outcome)s scores %(low)s, not %(entered)s") % values
    return _("%(outcome)s scores %(low)s to %(high)s, not %(entered)s") % values


def _points_mismatch(details: dict[str, Any], token: str) -> str | None:
    if "counted" in details:
        return _("%(entered)s points entered, the cards count %(counted)s") % {
            "entered": token, "counted": details["counted"],
        }  # fmt: skip
    if "expected" in details:
        return _("%(outcome)s scores %(expected)s, not %(entered)s") % {
            "outcome": _outcome(details), "expected": details["expected"], "entered": token,
        }  # fmt: skip
    return None


def _not_allowed(token: str) -> str:
    return _("%(outcome)s is not allowed in this game") % {"outcome": _outcome({}, token)}


def _bad_points(details: dict[str, Any], token: str) -> str:
    if "expected" in details:
        return _("the winner scores %(expected)s, not %(entered)s") % {
            "expected": details["expected"], "entered": token,
        }  # fmt: skip
    return _("points must be a whole number")


SENTENCES.update({
    "bad_outcome": _with_token(lambda token: _("unknown outcome %(outcome)s") % {"outcome": token}),
    "outcome_not_allowed": _with_token(_not_allowed),
    "conflicting_fields": _fixed(lambda: _("give groups or cards, not both")),
    "bad_groups": _fixed(lambda: _("groups must be lists of cards")),
    "bad_cards": _fixed(lambda: _("cards must be a list")),
    "bad_points": _bad_points,
    "points_required": _fixed(lambda: _("give the cards or the points")),
    "points_out_of_range": _points_out_of_range,
    "points_mismatch": _points_mismatch,
    "several_winners": _fixed(lambda: _("a deal has one winner only")),
})  # fmt: skip

#: Reasons whose sentence names the player inside it, not before a colon.
NAMED: dict[str, Callable[[str, dict[str, Any]], str | None]] = {
    "duplicate_player": lambda name, details: _("%(name)s is entered twice") % {"name": name},
    "missing_player": lambda name, details: (
        _("%(name)s has no result in this deal") % {"name": name}
    ),
    "not_seated": lambda name, details: _("%(name)s has no seat in this deal") % {"name": name},
    "valid_hand_not_declared": lambda name, details: (
        _("%(name)s's cards form a valid declaration: enter them as valid, not declared")
        % {"name": name}
    ),
}


def reason_words(reason: dict[str, Any]) -> str:
    """A reason's sentence in the active language (with the player's name, or the field, first
    where the engine's sentence starts with it)."""
    message = str(reason.get("message", ""))
    if (translation.get_language() or "en").startswith("en"):
        return message
    code = str(reason.get("code"))
    details, token = reason.get("details") or {}, str(reason.get("token") or "")
    name = str(reason.get("player_name") or "")
    if name and code in NAMED:
        named = NAMED[code](name, details)
        if named is not None:
            return named
    sentence = SENTENCES.get(code)
    engine = ENGINE_WORDS.get(code)  # the codes a preset's settings share (a tile, a card)
    words = sentence(details, token) if sentence else engine(token) if engine else None
    if words is None:
        return message
    if name and message.startswith(f"{name}: "):
        return f"{name}: {words}"
    # A field the sentence is about, named first (Okey's ``indicator: ...``), stays first.
    field, said, _rest = message.partition(": ")
    return f"{field}: {words}" if said and field.isidentifier() else words

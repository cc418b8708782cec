"""The rules engine's refusals of a tournament's settings and draws in the reader's language.
The engine (rules/) stays free of Django: it gives a code, the offending token and its English
(which is what an English reader reads); for another language each code the tournaments meet
is put into words here from the code and its values (those the caller knows, such as the table
sizes, passed in), and an unknown code keeps the engine's English."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.errors import RuleViolation
from rules.prizes import STRUCTURES
from scoring.rule_words import english


def _payout(exc: RuleViolation, values: dict[str, Any]) -> str:
    return _(
        "give one of %(structures)s or percentages by place that add up to 100, not %(given)s"
    ) % {"structures": ", ".join(STRUCTURES), "given": exc.token or "?"}


def _chip_levels(exc: RuleViolation, values: dict[str, Any]) -> str:
    return _(
        "%(given)s does not fit: each level gives a point value, a minimum and more qualifying "
        "chips than the minimum, and the opening stack is at least the first level's minimum"
    ) % {"given": exc.token}


def _too_few(exc: RuleViolation, values: dict[str, Any]) -> str:
    return ngettext(
        "%(players)s player(s) cannot fill a table of at least %(table_min)s",
        "%(players)s player(s) cannot fill a table of at least %(table_min)s",
        values["players"],
    ) % {"players": values["players"], "table_min": values["table_min"]}


def _table_size(exc: RuleViolation, values: dict[str, Any]) -> str:
    return _("a table seats %(table_min)s to %(table_max)s players") % {
        "table_min": values["table_min"],
        "table_max": values["table_max"],
    }


def _twice(exc: RuleViolation, values: dict[str, Any]) -> str:
    return _("player %(player)s is listed twice") % {"player": exc.token}


#: Each code's words, and the values it needs (from the caller; the token is the exception's).
_WORDS = {
    "bad_payout": (_payout, ()),
    "bad_chip_levels": (_chip_levels, ("token",)),
    "too_few_players": (_too_few, ("players", "table_min")),
    "bad_table_size": (_table_size, ("table_min", "table_max")),
    "duplicate_player": (_twice, ("token",)),
}


def violation_words(exc: RuleViolation, **values: Any) -> str:
    """What the engine refused, in the active language; its own English in English (its words
    are the English ones), when the code is not known here or a value its words need is
    missing."""
    words, needs = _WORDS.get(exc.code, (None, ()))
    given = {**values, "token": exc.token}
    if english() or words is None or any(given.get(name) is None for name in needs):
        return exc.message
    return words(exc, values)


def negative_fee_words(fee: int, club_fee: int, money: Callable[[int], str]) -> str:
    """A fee typed below zero on the create form's prize preview, said in money as typed (the
    rules would speak of minor units); empty when neither is."""
    if fee < 0:
        return _("The entry fee cannot be negative (it reads %(amount)s).") % {"amount": money(fee)}
    if club_fee < 0:
        return _("The club's share of each entry fee cannot be negative (it reads %(amount)s).") % {
            "amount": money(club_fee)
        }
    return ""

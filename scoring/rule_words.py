"""The rules engine's refusals of a preset's settings and of a cut card, in the active language.
The engine (rules/) knows no language: it gives a ``code`` with its values (``token``) and an
English sentence; here the code and values are put into words. A code with no words here, or
English active, keeps the engine's own sentence. (A deal's reasons are put into words by
``scoring.formats.reason_words``, which falls back on these.)"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import translation
from django.utils.translation import gettext as _

from rules.errors import RuleViolation

#: Words by the engine's code, given the offending token ("" when the engine named none).
WORDS: dict[str, Callable[[str], str | None]] = {
    "bad_wild": lambda token: _("unknown wild joker %(wild)s") % {"wild": token} if token else None,
    "bad_card": lambda token: _("unknown card %(card)s") % {"card": token} if token else None,
    # Okey refuses a false joker (FJ) as the indicator by the same code: its English stays.
    "bad_tile": lambda token: (
        _("unknown tile %(tile)s") % {"tile": token} if token and token != "FJ" else None
    ),
    "bad_pool": lambda token: (
        _("unknown pool %(pool)s: use 61, 101 or 201") % {"pool": token} if token else None
    ),
    "bad_deals": lambda token: _("the number of deals must be a whole number, at least 1"),
}


def english() -> bool:
    return (translation.get_language() or "en").startswith("en")


def engine_words(code: str, message: str, token: object = None) -> str:
    """The engine's refusal ``code`` (with its ``token``) in the active language, else its
    English ``message``."""
    if english():
        return message
    words = WORDS.get(code)
    said = words("" if token is None else str(token)) if words else None
    return message if said is None else said


def violation_words(exc: RuleViolation) -> str:
    return engine_words(exc.code, exc.message, exc.token)

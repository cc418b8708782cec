"""The one rule for a free-text name (a club, player, session, table, tournament, preset, API
token): runs of white space become one space, and a name with no character that shows is no name.
``str.strip()`` keeps zero-width spaces, joiners and bidi marks, so the test is by Unicode
category."""

from __future__ import annotations

import unicodedata

from config.errors import InvalidInput

# Characters that show nothing on their own: controls, format characters (zero-width space and
# joiners, bidi marks), separators, private-use and unassigned code points, and combining marks
# (which show only on a letter before them).
_INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Mn"})


def has_visible_character(text: str) -> bool:
    return any(unicodedata.category(char) not in _INVISIBLE for char in text)


def visible_name(raw: str) -> str:
    """``raw`` with its white space collapsed and trimmed, or ``""`` when nothing of it shows:
    callers refuse an empty name as they always have."""
    name = " ".join(str(raw).split())
    return name if has_visible_character(name) else ""


def require_length(value: str, *, field: str, limit: int) -> None:
    """Refuse a value longer than its column, naming the field: never cut it to fit unseen."""
    if len(value) > limit:
        raise InvalidInput(f"{field}: at most {limit} characters (this one has {len(value)})")

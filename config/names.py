"""The one rule for a free-text name (a club, player, session, table, tournament, preset, API
token): written in Unicode's compatibility form (NFKC: a full-width or styled letter is the
letter), without the characters that change nothing a reader sees but make two names differ
(zero-width spaces, bidi marks, soft hyphens; a joiner outside the scripts and emoji it shapes),
runs of white space as one space; a name with no character that shows is no name. A word that
mixes Latin, Cyrillic or Greek letters (``Аsha`` with a Cyrillic А) looks like another name and
is refused where a name is written (``name_checked``). ``str.strip()`` keeps zero-width spaces,
joiners and bidi marks, so the tests are by Unicode category and name."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from config.errors import InvalidInput

# Characters that show nothing on their own: controls, format characters (zero-width space and
# joiners, bidi marks), separators, private-use and unassigned code points, and combining marks
# (which show only on a letter before them).
_INVISIBLE = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn", "Mn"})

# Removed wherever they are: zero-width space, word joiner, byte-order mark, soft hyphen, and
# every bidi mark, embedding, override and isolate.
_STRAY = frozenset(
    "\u200b\u2060\ufeff\u00ad\u200e\u200f\u061c"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_JOINERS = frozenset("\u200c\u200d")
# Letters of these scripts take no joiner, and look alike across them (Latin a, Cyrillic а,
# Greek α): a word that mixes them is a look-alike of another name.
_LOOK_ALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})
_PLAIN_SCRIPTS = _LOOK_ALIKE_SCRIPTS | {"HEBREW", "DIGIT"}


def has_visible_character(text: str) -> bool:
    return any(unicodedata.category(char) not in _INVISIBLE for char in text)


def _script(char: str) -> str:
    """The script a character's Unicode name begins with (``LATIN``, ``DEVANAGARI``...)."""
    return unicodedata.name(char, "").partition(" ")[0]


def _joins(before: str, after: str) -> bool:
    """Whether a joiner between ``before`` and ``after`` shapes them: in Indic and Arabic
    letters and in emoji sequences, not beside a space, a digit or a Latin, Cyrillic, Greek or
    Hebrew letter (where it only makes the name differ from its look-alike)."""
    for char in (before, after):
        if not char or char.isspace() or unicodedata.category(char)[0] in "NPZ":
            return False
        if _script(char) in _PLAIN_SCRIPTS:
            return False
    return True


def _without_strays(text: str) -> str:
    kept = [char for char in text if char not in _STRAY]
    return "".join(
        char
        for at, char in enumerate(kept)
        if char not in _JOINERS
        or _joins(kept[at - 1] if at else "", kept[at + 1] if at + 1 < len(kept) else "")
    )


def visible_name(raw: str) -> str:
    """``raw`` in NFKC, without stray invisible characters, its white space collapsed and
    trimmed, or ``""`` when nothing of it shows: callers refuse an empty name as they always
    have."""
    name = " ".join(_without_strays(unicodedata.normalize("NFKC", str(raw))).split())
    return name if has_visible_character(name) else ""


def look_alike_word(name: str) -> tuple[str, list[str]] | None:
    """The first word of ``name`` whose letters mix Latin, Cyrillic or Greek, with the scripts
    it mixes; None when every word keeps to one of them."""
    for word in name.split():
        scripts = {
            _script(char) for char in word if unicodedata.category(char) in ("Lu", "Ll", "Lt", "Lo")
        } & _LOOK_ALIKE_SCRIPTS
        if len(scripts) > 1:
            return word, sorted(scripts)
    return None


def name_checked(raw: str, *, field: str = "name") -> str:
    """The name to store (``visible_name``), refusing a word that mixes look-alike alphabets:
    ``Аsha`` with a Cyrillic А would stand beside ``Asha`` as another player."""
    name = visible_name(raw)
    mixed = look_alike_word(name)
    if mixed is not None:
        word, scripts = mixed
        titles = [script.title() for script in scripts]
        alphabets = titles[0]
        for title in titles[1:]:
            alphabets = _("%(one)s and %(other)s") % {"one": alphabets, "other": title}
        why = _(
            "the word %(word)s mixes %(alphabets)s letters, which look alike: type it in one "
            "alphabet"
        )
        raise InvalidInput(
            f"{field}: " + why % {"word": repr(word), "alphabets": alphabets},
            code="look_alike_name",
        )
    return name


def require_length(value: str, *, field: str, limit: int) -> None:
    """Refuse a value longer than its column, naming the field: never cut it to fit unseen."""
    if len(value) > limit:
        why = _("at most %(limit)s characters (this one has %(count)s)")
        raise InvalidInput(f"{field}: " + why % {"limit": limit, "count": len(value)})

"""Hebrew's four plural forms (one, two, tens, other): every plural string of the Hebrew
catalogs gives a sentence for each, and the count shows in it, as a figure or, for one and two,
as the word (``יד אחת``, ``פעמיים``), never another form's words copied with a number that
reads as a label (``יד 1`` is "deal 1")."""

from __future__ import annotations

import gettext as gnu_gettext
import re

import pytest
from babel.messages.pofile import read_po
from django.utils import translation

from config.catalogs import LOCALE_DIR, compile_catalogs

#: n = 1, 2, 20 and 7 fall in Hebrew's forms 0 (one), 1 (two), 2 (tens) and 3 (other).
COUNTS = (1, 2, 20, 7)
#: The count said in words: one (masculine, feminine) and the dual of "time".
WORDS = {1: ("אחד", "אחת"), 2: ("פעמיים",)}
NAMED = re.compile(r"%\((\w+)\)([sd])")


def _plurals(domain: str) -> list[tuple[str, str]]:
    with open(LOCALE_DIR / "he" / "LC_MESSAGES" / f"{domain}.po", "rb") as po:
        catalog = read_po(po)
    return [(m.id[0], m.id[1]) for m in catalog if m.pluralizable]


def _count_at(singular: str, plural: str, placeholders: list[str]) -> int:
    """Which placeholder of the plural is the count: the last one before the first word that
    differs from the singular (``%(paid)s paid fees``); the first when nothing differs."""
    words, plural_words = singular.split(), plural.split()
    differs = next(
        (i for i, (a, b) in enumerate(zip(words, plural_words, strict=False)) if a != b),
        None,
    )
    if differs is None:
        return 0
    before = " ".join(plural_words[: differs + 1])
    return max(0, sum(1 for _ in re.finditer(r"%(\(\w+\))?[sd]", before)) - 1)


def _says(text: str, n: int) -> bool:
    return bool(re.search(rf"(?<!\d){n}(?!\d)", text)) or any(w in text for w in WORDS.get(n, ()))


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    compile_catalogs()


@pytest.mark.parametrize(("singular", "plural"), _plurals("django"), ids=lambda s: s[:40])
def test_each_hebrew_plural_form_of_the_pages_says_the_count(singular: str, plural: str) -> None:
    kinds = dict(m.groups() for m in NAMED.finditer(plural))
    names = list(kinds)
    count = names[_count_at(singular, plural, names)] if names else None
    for n in COUNTS:
        values = {
            name: n if name == count else ("X" if kinds[name] == "s" else 0) for name in names
        }
        with translation.override("he"):
            text = translation.ngettext(singular, plural, n) % values
        assert text.strip(), (singular, n)
        english = (singular if n == 1 else plural) % values
        assert text != english, (singular, n)
        if count and (n != 1 or f"%({count})" in singular):
            assert _says(text, n), (singular, n, text)


@pytest.mark.parametrize(("singular", "plural"), _plurals("djangojs"), ids=lambda s: s[:40])
def test_each_hebrew_plural_form_of_the_scripts_says_the_count(singular: str, plural: str) -> None:
    with open(LOCALE_DIR / "he" / "LC_MESSAGES" / "djangojs.mo", "rb") as mo:
        catalog = gnu_gettext.GNUTranslations(mo)
    slots = plural.count("%s")
    count = _count_at(singular, plural, ["%s"] * slots)
    for n in COUNTS:
        values = ["X"] * slots
        if slots:
            values[count] = str(n)
        text = catalog.ngettext(singular, plural, n) % tuple(values)
        assert text.strip() and text != (singular if n == 1 else plural) % tuple(values)
        if slots:
            assert _says(text, n), (singular, n, text)

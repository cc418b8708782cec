"""The translation catalogs (locale/<language>/LC_MESSAGES/django.po and djangojs.po) compiled
to the .mo files Django reads, and checked, with Babel: no GNU gettext needed to set up, run or
check the site (only to extract new strings, ``make messages``).

    python -m config.catalogs compile   # every .mo older than its .po made again
    python -m config.catalogs check     # fails on a missing or fuzzy translation

The .mo files are build products (not committed): ``make install`` and the test run compile
them, so a catalog and what the site shows never disagree."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: Every language but English, whose words are the marked strings themselves.
TRANSLATED = ("hi", "he", "de", "nl")
DOMAINS = ("django", "djangojs")


def catalog_paths(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return [
        locale_dir / language / "LC_MESSAGES" / f"{domain}.po"
        for language in TRANSLATED
        for domain in DOMAINS
    ]


def _read(po: Path) -> Catalog:
    with po.open("rb") as source:
        return read_po(source, locale=po.parent.parent.name, abort_invalid=True)


def compile_catalogs(locale_dir: Path = LOCALE_DIR, *, force: bool = False) -> list[Path]:
    """Every .mo made again whose .po is newer (all with ``force``); the .mo files written."""
    written = []
    for po in catalog_paths(locale_dir):
        mo = po.with_suffix(".mo")
        fresh = mo.exists() and po.exists() and mo.stat().st_mtime >= po.stat().st_mtime
        if not po.exists() or (fresh and not force):
            continue
        with mo.open("wb") as target:
            write_mo(target, _read(po), use_fuzzy=False)
        written.append(mo)
    return written


def problems(locale_dir: Path = LOCALE_DIR) -> list[str]:
    """What keeps a catalog from being shipped: a file missing, a string untranslated or fuzzy
    (a guess gettext made that nobody checked), or a string one language has and another lacks."""
    found: list[str] = []
    ids: dict[str, dict[str, set[str]]] = {domain: {} for domain in DOMAINS}
    for po in catalog_paths(locale_dir):
        language, domain = po.parent.parent.name, po.stem
        if not po.exists():
            found.append(f"{po}: missing")
            continue
        catalog = _read(po)
        ids[domain][language] = set()
        for message in catalog:
            if not message.id:
                continue
            key = str(message.id)
            ids[domain][language].add(key)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy:
                found.append(f"{po}:{message.lineno}: fuzzy: {key!r}")
            elif not all(strings):
                found.append(f"{po}:{message.lineno}: not translated: {key!r}")
    for domain, by_language in ids.items():
        every = set().union(*by_language.values()) if by_language else set()
        for language, have in sorted(by_language.items()):
            for key in sorted(every - have):
                found.append(f"{language}/{domain}.po: missing: {key!r}")
    return found


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else ""
    if command == "compile":
        for mo in compile_catalogs(force="--force" in argv):
            print(f"compiled {mo.relative_to(LOCALE_DIR.parent)}")
        return 0
    if command == "check":
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        if found:
            print(f"{len(found)} translation problem(s): see docs/languages.md", file=sys.stderr)
        return 1 if found else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
